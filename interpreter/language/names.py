"""What a name in an expression stands for: the one order in which every
reader of the rules (checker, type checker, compiler, language server,
language reference) looks a name up.

Parameters, counters, zones and definitions share one set of names and
built-in names cannot be declared, but an effect may share its name with a
counter: `strength // 2` then reads the counter. Where two readers looked
names up each in its own order, the editor filed that use under the effect
while the game read the counter; asking here, they cannot disagree.
"""
from __future__ import annotations

from .builtins import FUNCTIONS, VALUES

# What a namespace is called: the attribute of the rules model holding its
# declarations, or one of these for names the rules do not declare.
LOCALS, VALUES_NS, FUNCTIONS_NS = "locals", "values", "functions"

# A plain name (`strength`, `round`, `x`), after the local names bound around
# it: the first of these that holds it, with how the reference calls it.
NAME_ORDER = (
    ("params", "a parameter"),
    ("counters", "a counter"),
    ("zones", "a zone"),
    ("defines", "a definition"),
    ("effects", "an effect (its name, as a text)"),
    (VALUES_NS, "a built-in value"),
)
# A name with an owner (`gold of p`, `gain 1 gold`): a counter, else a zone.
OWNED_ORDER = ("counters", "zones")
# A name called with arguments (`best(c)`): a definition, else a built-in function.
CALL_ORDER = ("defines", FUNCTIONS_NS)


def _names(model, namespace: str):
    if namespace == VALUES_NS:
        return VALUES
    if namespace == FUNCTIONS_NS:
        return FUNCTIONS
    return getattr(model, namespace)


def resolve_name(name: str, model, bound=()) -> str | None:
    """The namespace of a plain name: LOCALS where `bound` holds it, else the
    first of NAME_ORDER declaring it; None for an unknown name."""
    if name in bound:
        return LOCALS
    for namespace, _ in NAME_ORDER:
        if name in _names(model, namespace):
            return namespace
    return None


def resolve_owned(name: str, model) -> str | None:
    """The namespace of a name given an owner or a target: "counters",
    "zones", or None."""
    for namespace in OWNED_ORDER:
        if name in _names(model, namespace):
            return namespace
    return None


def resolve_call(name: str, model) -> str | None:
    """The namespace of a called name: "defines", "functions", or None."""
    for namespace in CALL_ORDER:
        if name in _names(model, namespace):
            return namespace
    return None


def names_in_scope(model, bound=()) -> set:
    """Every plain name an expression may read where `bound` are the local
    names (what a misspelt name is compared with)."""
    known = set(bound)
    for namespace, _ in NAME_ORDER:
        known.update(_names(model, namespace))
    return known

