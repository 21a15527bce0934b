"""Going from a name to its declaration and its uses, across the files of a
game (a base, the variants that extend it, the card data), and renaming it.

A name is found by its symbol, (namespace, name): a variant's `override`
replaces the base's declaration of the same name, so both are one symbol.
"""
from __future__ import annotations

import re

from .frontend import BUILTIN_NAMES, FUNCTIONS
from .index import (COUNTER, DEFINE, EFFECT, FIELD, FILE, KIND, LOCAL, PARAM, PROCEDURE, ZONE, Occurrence,
                    normal_path)

RENAMEABLE = {PARAM: "parameter", COUNTER: "counter", ZONE: "zone", DEFINE: "definition",
              EFFECT: "effect", PROCEDURE: "procedure"}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DECLARED = (PARAM, COUNTER, ZONE, DEFINE, EFFECT, PROCEDURE)


class RenameError(Exception):
    """A rename that cannot be done, with the reason for the person."""


def declaration_node(analysis, symbol):
    """The declaration in force for a symbol (a variant's override, else the
    base's), or None."""
    namespace, name = symbol
    if analysis.model is None or namespace in (FIELD, FILE, LOCAL):
        return None
    table = getattr(analysis.model, namespace, None)
    return table.get(name) if isinstance(table, dict) else None


def definitions(analysis, occurrence: Occurrence) -> list[Occurrence]:
    """Where the name under the cursor is declared. On an `override`, the
    declaration it replaces in the base."""
    symbol = occurrence.symbol
    namespace, name = symbol
    if namespace == FILE:
        return [Occurrence(name, 1, 1, 1, symbol)]
    declared = [o for o in analysis.index.of(symbol) if o.declaration]
    if occurrence.declaration and occurrence.override:
        earlier = [o for o in declared if _file_order(analysis, o.path) < _file_order(analysis, occurrence.path)]
        return earlier[-1:]
    node = declaration_node(analysis, symbol)
    if node is not None:
        return [o for o in declared if o.node is node][:1]
    if declared:
        return declared
    if namespace in (FIELD, KIND) and analysis.db is not None:
        return _in_card_data(analysis, namespace, name)
    return []


def _file_order(analysis, path: str) -> int:
    return analysis.files.index(path) if path in analysis.files else len(analysis.files)


def _in_card_data(analysis, namespace: str, name: str) -> list[Occurrence]:
    """A field or kind with no declaration in the rules: its first card."""
    for card in analysis.db.cards:
        key = name if namespace == FIELD else "name"
        if (namespace == FIELD and name in card.data) or (namespace == KIND and card.kind == name):
            span = card.spans.get(key)
            if span is not None and span.source:
                return [Occurrence(normal_path(span.filename), span.line, span.column, span.column + 1, (namespace, name))]
    return []


def local_uses(analysis, occurrence: Occurrence) -> list[Occurrence]:
    """The uses of a local name inside the declaration that binds it."""
    scopes = [s for s in analysis.index.scopes if s.path == occurrence.path and s.first_line <= occurrence.line <= s.last_line]
    if not scopes:
        return [occurrence]
    scope = scopes[0]
    return [o for o in analysis.index.of(occurrence.symbol)
            if o.path == scope.path and scope.first_line <= o.line <= scope.last_line]


def declaring_file(analysis, symbol) -> str:
    """The file that first declares a symbol (not an override), or the base
    file of the game when the rules do not declare it (built-ins, card fields)."""
    for path in analysis.files:
        if any(o.declaration and not o.override and o.path == path for o in analysis.index.of(symbol)):
            return path
    return analysis.files[0] if analysis.files else analysis.root


def references(analyses, symbol, declarations: bool = True) -> list[Occurrence]:
    """Every place of a symbol in the analyses of a game's files, once each."""
    seen: dict = {}
    for analysis in analyses:
        for o in analysis.index.of(symbol):
            if declarations or not o.declaration:
                seen.setdefault((o.path, o.line, o.column), o)
    return sorted(seen.values(), key=lambda o: (o.path, o.line, o.column))


def check_new_name(analyses, symbol, new_name: str, keywords, places) -> None:
    """Raise RenameError when `new_name` cannot replace the symbol's name."""
    namespace, name = symbol
    if namespace not in RENAMEABLE:
        raise RenameError("only parameters, counters, zones, definitions, effects and procedures can be renamed")
    if not _NAME.match(new_name):
        raise RenameError(f"'{new_name}' is not a name: letters, digits and _, not starting with a digit")
    if new_name in keywords:
        raise RenameError(f"'{new_name}' is a keyword of the rules language")
    if new_name in FUNCTIONS or new_name in BUILTIN_NAMES:
        raise RenameError(f"'{new_name}' is a built-in name")
    if new_name == name:
        return
    for analysis in analyses:
        for other in _DECLARED:
            if new_name in getattr(analysis.model, other):
                raise RenameError(f"'{new_name}' is already a {RENAMEABLE[other]} (in {analysis.root})")
        for o in places:
            if new_name in analysis.index.locals_at(o.path, o.line) and o.path in analysis.files:
                raise RenameError(f"'{new_name}' is a local name at {o.path}:{o.line}, where '{name}' is used")
