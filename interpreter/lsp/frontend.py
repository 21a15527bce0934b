"""Everything the language server takes from the rest of the interpreter, in
one place, so that the server follows the front end when modules move."""
from __future__ import annotations

from ..errors import NO_SPAN, CardDataError, Diagnostic, RulesError, Source, Span
from ..language import nodes
from ..language.builtin_events import EVENTS
from ..language.builtins import BUILTIN_NAMES, FUNCTIONS, VALUES
from ..language.cards import CardDB, load_card_fields, load_cards
from ..files import FileRefused
from ..language.frontend import card_files, check_loaded, unreadable_cards
from ..language.grammar import lark_parser
from ..language.model import RulesModel
from ..language.names import resolve_call, resolve_name, resolve_owned
from ..language.params import evaluate_params
from ..language.parser import parse_rules
from ..language.sources import load_model, read_text, source_text
from ..language.visitor import Visitor

__all__ = [
    "BUILTIN_NAMES", "EVENTS", "FUNCTIONS", "NO_SPAN", "CardDB", "CardDataError", "Diagnostic", "FileRefused", "RulesError",
    "RulesModel", "unreadable_cards",
    "Source", "Span", "allowed_values", "builtin_help", "card_files", "check_loaded", "evaluate_params", "lark_parser",
    "load_card_fields", "load_cards", "load_model", "nodes", "parse_rules", "read_text", "resolve_call", "resolve_name",
    "resolve_owned", "source_text", "Visitor",
]


def builtin_help(name: str) -> tuple[str, str, tuple] | None:
    """(how it is called, documentation, examples) of a built-in function or
    value, or None: the one reader of the built-in registry."""
    builtin = FUNCTIONS.get(name)
    if builtin is not None:
        return builtin.usage, builtin.doc, (builtin.example,)
    value = VALUES.get(name)
    if value is not None:
        return f"{name}  (a built-in value: {value.returns})", value.doc, (value.example,)
    return None


def allowed_values(decl) -> tuple | None:
    """The values a parameter declares it may take, or None when it does not
    say (the one place that reads them from a parameter's declaration)."""
    allowed = getattr(decl, "allowed", None)
    return tuple(allowed) if allowed else None
