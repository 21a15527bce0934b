"""What stays fixed for a whole game: the first thing an expression reads
that can change while the game is played (a board's adjacency may read
only the spaces' fields, parameters, literals and fixed functions)."""
from __future__ import annotations

from . import nodes as n
from .builtins import FUNCTIONS
from .names import FUNCTIONS_NS, VALUES_NS, resolve_call, resolve_name


def changing(model, expr, scope: set, seen: set | None = None):
    """(node, description) of the first thing `expr` reads that can change
    during a game (a counter, a zone, the acting player, a function of the
    state), or None. Definitions are followed into their bodies."""
    seen = set() if seen is None else seen
    bound = set(scope)
    for node in n.walk(expr):
        if isinstance(node, n.Aggregate):
            bound.add(node.var)
        elif isinstance(node, n.Comprehension):
            bound.update(var for var, _ in node.loops)
    for node in n.walk(expr):
        found = _changes(model, node, bound, seen)
        if found is not None:
            return found
    return None


def _changes(model, node, bound: set, seen: set):
    """`changing` of one node, not looking inside it."""
    if isinstance(node, n.Name):
        namespace = resolve_name(node.name, model, bound)
        if namespace in ("counters", "zones"):
            return node, f"the {'counter' if namespace == 'counters' else 'zone'} '{node.name}'"
        if namespace == VALUES_NS:
            return node, f"'{node.name}', which changes during the game"
        return _changing_define(model, node, seen) if namespace == "defines" else None
    if isinstance(node, n.NameOf):
        return node, f"'{node.name} of ...', which changes during the game"
    if isinstance(node, n.Rank):
        return node, "a ranking of the players"
    if isinstance(node, n.Call):
        namespace = resolve_call(node.name, model)
        if namespace == "defines":
            return _changing_define(model, node, seen)
        if namespace == FUNCTIONS_NS and not FUNCTIONS[node.name].fixed:
            return node, f"the function '{node.name}', which reads the game state"
    return None


def _changing_define(model, node, seen: set):
    """A definition read or called at `node` that reads what changes (each
    definition followed once)."""
    if node.name in seen:
        return None
    seen.add(node.name)
    decl = model.defines[node.name]
    if changing(model, decl.expr, set(decl.params), seen):
        return node, f"the definition '{node.name}', which reads what changes during the game"
    return None
