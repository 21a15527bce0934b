"""Everything the language server takes from the rest of the interpreter, in
one place, so that the server follows the front end when modules move."""
from __future__ import annotations

from ..builtins import FUNCTIONS
from ..cards import CardDB, load_cards
from ..compiler.exprgen import BUILTIN_NAMES
from ..errors import NO_SPAN, CardDataError, Diagnostic, RulesError, Source, Span
from ..language import nodes
from ..language.grammar import lark_parser
from ..language.model import RulesModel
from ..language.parser import parse_rules
from ..loader import (card_files, check_loaded, evaluate_params, load_card_fields, load_model, read_text,
                      source_text)

__all__ = [
    "BUILTIN_NAMES", "FUNCTIONS", "NO_SPAN", "CardDB", "CardDataError", "Diagnostic", "RulesError", "RulesModel",
    "Source", "Span", "allowed_values", "builtin_help", "card_files", "check_loaded", "evaluate_params", "lark_parser",
    "load_card_fields", "load_cards", "load_model", "nodes", "parse_rules", "read_text", "source_text",
]


def builtin_help(name: str) -> tuple[str, str, tuple] | None:
    """(call form, documentation, examples) of a built-in function, or None.

    The one reader of the built-in registry: when the registry records
    argument names and examples, only this function changes."""
    builtin = FUNCTIONS.get(name)
    if builtin is None:
        return None
    lo, hi = builtin.arity
    count = str(lo) if lo == hi else f"{lo} to {hi}"
    form = f"{name}(…)  — {count} argument{'s' if hi != 1 else ''}"
    return form, builtin.doc, tuple(getattr(builtin, "examples", ()) or ())


def allowed_values(decl) -> tuple | None:
    """The values a parameter declares it may take, or None when it does not
    say (the one place that reads them from a parameter's declaration)."""
    allowed = getattr(decl, "allowed", None)
    return tuple(allowed) if allowed else None
