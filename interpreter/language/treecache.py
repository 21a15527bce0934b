"""Parsed trees kept on disk, so that `check` of a file that did not change
neither imports Lark nor parses.

Two kinds of entry live in the cache folder's `trees` sub-folder (cache.py:
private to the user, checked before every use): the tree of a rules file,
and the trees of the texts of a card file (its effects and expressions,
each parsed on its own). There is one entry per file path, replaced when
the file changes, so the cache does not grow with edits. An entry's key is
made of the path, the text (for a rules file), Lark's version and the text
of every module that decides what parsing gives (`LANGUAGE`): a change of
the language makes every entry a foreign one.

An entry is JSON data, never code or a pickle: a header with the format,
the key and the hash of the body, then the body, in which a node is a list
of its class's name (one of nodes.py's, nothing else), its span and its
fields in order. Anything that does not decode to exactly that (a damaged,
cut, hand-edited or foreign entry) is ignored and the text is parsed again;
a tree that holds anything else is not stored.
"""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from .. import limits
from ..errors import NO_SPAN, Source, Span
from . import cache
from . import nodes as n

FOLDER = "trees"
FORMAT = "rules-trees/1"
_HERE = Path(__file__).parent
# The files whose text decides the trees parsing gives (with Lark's version).
LANGUAGE = [_HERE / name for name in ("grammar.lark", "grammar.py", "lark_parse.py", "syntax_errors.py", "parser.py",
                                      "nodes.py", "treecache.py")] + [Path(limits.__file__)]
NODES = {cls.__name__: cls for cls in vars(n).values() if isinstance(cls, type) and issubclass(cls, n.Node)}
# In the body: a tuple is a list whose first item is "", a list one whose
# first item is "[" (no node class has either name); anything else is a node.
_TUPLE, _LIST = "", "["
_CARD_TEXT_ROOTS = {"effects": n.EffectList, "expression": n.Expr}  # what each start symbol parses to


class NotStored(Exception):
    """A tree holds something an entry cannot hold: it is not stored."""


@lru_cache(maxsize=None)
def language_digest() -> str:
    h = hashlib.sha256(FORMAT.encode() + b"\0" + cache.package_version("lark").encode() + b"\0")
    for path in LANGUAGE:
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


# ---------------------------------------------------------------- rules files
def load_rules(filename: str, text: str, source: Source) -> tuple[n.RulesFile, dict] | None:
    """The stored tree of a rules file of this text, its spans in `source`,
    and what `readable_as_name` answers for the names it declares; None when
    there is no such entry, or it is not to be trusted."""
    body = _read("rules", filename, text)
    if body is None:
        return None
    try:
        tree, names = _decode(body["tree"], source), body["names"]
        if type(tree) is not n.RulesFile or type(names) is not dict or not all(
                type(k) is str and type(v) is bool for k, v in names.items()):
            return None
        return tree, names
    except Exception:  # a damaged body of any shape: parse again
        return None


def store_rules(filename: str, text: str, tree: n.RulesFile, names: dict, source: Source) -> None:
    """Store the tree of a rules file parsed from `text` (its spans in
    `source`) and `readable_as_name`'s answers for the names it declares."""
    try:
        body = {"tree": _encode(tree, source), "names": names}
    except (NotStored, RecursionError):
        return
    _write("rules", filename, text, body)


# ---------------------------------------------------------------- card texts
def load_card_texts(filename: str, source: Source) -> dict:
    """(start symbol, text) -> tree, of the card texts stored for a card
    file, each parsed on its own (spans in `source`); empty when none are
    stored or the entry is not to be trusted."""
    body = _read("card texts", filename, "")
    if body is None:
        return {}
    try:
        out = {}
        for start, trees in body.items():
            for raw, tree in trees.items():
                out[(start, raw)] = tree = _decode(tree, source)
                if type(raw) is not str or not isinstance(tree, _CARD_TEXT_ROOTS[start]):
                    return {}
        return out
    except Exception:  # a damaged body of any shape: parse again
        return {}


def store_card_texts(filename: str, trees: dict, source: Source) -> None:
    """Store (start symbol, text) -> tree, as load_card_texts gives."""
    body: dict = {"effects": {}, "expression": {}}
    try:
        for (start, raw), tree in trees.items():
            body[start][raw] = _encode(tree, source)
    except (NotStored, RecursionError):
        return
    _write("card texts", filename, "", body)


# ---------------------------------------------------------------- entries
def _entry(kind: str, filename: str) -> str:
    return hashlib.sha256(f"{kind}\0{Path(filename).absolute()}".encode()).hexdigest()[:40] + ".json"


def _key(kind: str, filename: str, text: str) -> str:
    parts = (language_digest(), kind, str(Path(filename).absolute()), text)
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _read(kind: str, filename: str, text: str):
    """The body of an entry made for this key, or None."""
    raw = cache.read(FOLDER, _entry(kind, filename))
    if raw is None:
        return None
    head, _, body = raw.partition(b"\n")
    try:
        meta = json.loads(head)
        if meta != {"format": FORMAT, "key": _key(kind, filename, text), "sha256": hashlib.sha256(body).hexdigest()}:
            return None
        return json.loads(body)
    except Exception:  # not JSON, or nested too deeply to read
        return None


def _write(kind: str, filename: str, text: str, body) -> None:
    try:
        data = json.dumps(body, separators=(",", ":")).encode()
    except (ValueError, RecursionError):
        return
    if len(data) > cache.MAX_ENTRY_BYTES:  # it would not be read back
        return
    head = json.dumps({"format": FORMAT, "key": _key(kind, filename, text), "sha256": hashlib.sha256(data).hexdigest()})
    cache.write(FOLDER, _entry(kind, filename), head.encode() + b"\n" + data)


# ---------------------------------------------------------------- trees as JSON
def _encode(value, source: Source):
    cls = type(value)
    if value is None or cls in (str, int, bool):
        return value
    if cls is tuple or cls is list:
        return [_TUPLE if cls is tuple else _LIST, *[_encode(v, source) for v in value]]
    if NODES.get(cls.__name__) is not cls:
        raise NotStored(cls.__name__)
    return [cls.__name__, _encode_span(value.span, source), *[_encode(getattr(value, f), source) for f in cls._fields]]


def _encode_span(span: Span, source: Source):
    """null for no span, 0 for the whole source, else the four positions."""
    positions = [span.line, span.column, span.end_line, span.end_column]
    if type(span) is not Span or not all(type(p) is int for p in positions):
        raise NotStored("span")
    if span.source is None and not any(positions):
        return None
    if span.source is not source:  # every span of a parsed text is in that text
        raise NotStored("span of another source")
    return positions if any(positions) else 0


def _decode(value, source: Source):
    cls = type(value)
    if value is None or cls is str or cls is int or cls is bool:
        return value
    if cls is not list or not value or type(value[0]) is not str:
        raise ValueError("not a tree")
    tag = value[0]
    if tag == _TUPLE:
        return tuple([_decode(v, source) for v in value[1:]])
    if tag == _LIST:
        return [_decode(v, source) for v in value[1:]]
    node = NODES[tag]
    if len(value) != len(node._fields) + 2:
        raise ValueError(f"{tag}: fields")
    return node(*[_decode(v, source) for v in value[2:]], span=_decode_span(value[1], source))


def _decode_span(value, source: Source) -> Span:
    if value is None:
        return NO_SPAN
    if value == 0 and type(value) is int:
        return Span(source)
    if type(value) is list and len(value) == 4 and all(type(p) is int for p in value):
        return Span(source, *value)
    raise ValueError("not a span")
