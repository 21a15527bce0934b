"""Load the rules grammar once: Lark's LALR parser with an indentation post-lexer.

Making the parse tables takes most of a second, so they are cached, as
JSON data (never a pickle), in the user's private cache folder (cache.py),
under a name made from the grammar's text and Lark's version. A cache entry
is checked against its own hash and key before use; a missing, damaged or
untrusted one is ignored and the tables are built again.
"""
from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Token
from lark.exceptions import UnexpectedToken
from lark.grammar import Rule
from lark.indenter import Indenter
from lark.lexer import TerminalDef

from .. import limits
from . import cache

GRAMMAR = Path(__file__).with_name("grammar.lark")
CACHE_FORMAT = "rules-grammar-tables/1"
OPTIONS = dict(parser="lalr", propagate_positions=True, maybe_placeholders=True,
               start=["start", "expression", "effects"])


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4

    def _process(self, stream):
        # An unbalanced closing bracket must reach the parser as a syntax error,
        # not trip the base class's assertion.
        for token in super()._process(_clamp_parens(stream, self)):
            yield token

    def handle_NL(self, token: Token):
        # A comment at the very end of a text without a line end (`{1 # x}`
        # in a label) is a line end that starts no line: no indentation to read.
        if "\n" not in token:
            if self.paren_level == 0:
                yield token
            return
        yield from super().handle_NL(token)


# Terminals that are not words of the language: names, numbers, texts, comments, line ends, blanks.
_NOT_KEYWORDS = {"NAME", "INT", "STRING", "COMMENT", "_NL"}

@lru_cache(maxsize=None)
def grammar_keywords() -> frozenset:
    """Every word the grammar reserves: its quoted words (`game`, `choose`)
    and the words of its word terminals (`share` and `full` of TIE_MODE,
    `start`, `of`, `round` of HOOK_MOMENT, `expression map` of FIELD_TYPE)."""
    words = set()
    for terminal in lark_parser().terminals:
        if terminal.name in _NOT_KEYWORDS or terminal.name.startswith("__IGNORE"):
            continue
        words.update(re.findall(r"[A-Za-z_]+", terminal.pattern.value.replace("\\", " ")))
    return frozenset(words)


class TooLong(Exception):
    """A text with more tokens than limits.TOKENS (raised while lexing, so
    a huge text is refused before it is parsed to the end)."""

    def __init__(self, token: Token):
        super().__init__(token)
        self.token = token


def _clamp_parens(stream, indenter):
    for count, token in enumerate(stream, 1):
        if token.type in indenter.CLOSE_PAREN_types and indenter.paren_level == 0:
            raise UnexpectedToken(token, expected={"an opening bracket before it"})
        if count > limits.TOKENS:
            raise TooLong(token)
        yield token


@lru_cache(maxsize=None)
def lark_parser() -> Lark:
    """The parser for every start symbol, built once per process (its tables cached on disk)."""
    text = GRAMMAR.read_text(encoding="utf-8")
    key = hashlib.sha256("\0".join([CACHE_FORMAT, lark.__version__, json.dumps(OPTIONS), text]).encode()).hexdigest()
    entry = f"grammar-{key[:32]}.json"
    parser = _from_cache(cache.read("grammar", entry), key)
    if parser is None:
        parser = Lark(text, postlex=_RulesIndenter(), **OPTIONS)
        cache.write("grammar", entry, _tables(parser, key))
    return parser


def _tables(parser: Lark, key: str) -> bytes:
    """The parser's tables as JSON, with the key they were made for and a hash."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {**data["options"], "postlex": None}  # given again when loaded
    body = json.dumps({"data": _encode(data), "memo": _encode(memo)}, separators=(",", ":"))
    digest = hashlib.sha256(body.encode()).hexdigest()
    return json.dumps({"format": CACHE_FORMAT, "key": key, "sha256": digest}).encode() + b"\n" + body.encode()


def _from_cache(raw: bytes | None, key: str) -> Lark | None:
    if raw is None:
        return None
    head, _, body = raw.partition(b"\n")
    try:
        meta = json.loads(head)
        if meta != {"format": CACHE_FORMAT, "key": key, "sha256": hashlib.sha256(body).hexdigest()}:
            return None
        tables = json.loads(body, object_hook=_decode)
        return Lark._load_from_dict(tables["data"], tables["memo"], postlex=_RulesIndenter())
    except Exception:  # a damaged entry of any shape: build the tables again
        return None


# JSON keeps neither tuples nor integer keys; the tables need both.
def _encode(value):
    if isinstance(value, tuple):
        return {"(": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not (len(value) == 1 and next(iter(value)) in ("(", "#")):
            return {k: _encode(v) for k, v in value.items()}
        return {"#": [[_encode(k), _encode(v)] for k, v in value.items()]}
    return value


def _decode(obj: dict):
    if len(obj) == 1:
        if "(" in obj:
            return tuple(obj["("])
        if "#" in obj:
            return {k: v for k, v in obj["#"]}
    return obj
