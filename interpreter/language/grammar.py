"""Load the rules grammar once: Lark's LALR parser with an indentation post-lexer."""
from __future__ import annotations

from functools import lru_cache

from lark import Lark
from lark.exceptions import UnexpectedToken
from lark.indenter import Indenter


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


def _clamp_parens(stream, indenter):
    for token in stream:
        if token.type in indenter.CLOSE_PAREN_types and indenter.paren_level == 0:
            raise UnexpectedToken(token, expected={"an opening bracket before it"})
        yield token


@lru_cache(maxsize=None)
def lark_parser() -> Lark:
    """The parser for every start symbol, built once per process (and cached on disk by Lark)."""
    return Lark.open(
        "grammar.lark",
        rel_to=__file__,
        parser="lalr",
        postlex=_RulesIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expression", "effects"],
        cache=True,
    )
