"""Loops that go through the cards at the top of their group alone.

A condition of a loop over a zone often begins by asking whether the card is
the lowest (or highest) of its group in that same zone: `any b in supply
where b.level == lowest x.level for x in supply where x.colour == b.colour
and ...`, the top card of each stack. Every card of the zone is tested, and
all but one per group fail at once. Such a loop goes instead through the
cards that pass that first test (`R_extremes`, runtime/values.py: worked out
in one pass, and kept for the same cards in the same order, as groups are),
in the zone's order, and tests the rest of the condition on them alone: the
same items, in the same order, the same conditions asked of each.

The first test is found through the definitions the condition calls, where
they would be written out in place (`ExprGen.call_define`), so `can_buy(b)`
whose first part is `on_top(b)` is seen through. Only a zone that is not
slotted, and card fields of plain data, are gone through this way; where
coverage counts each read of a card, nothing is (a card skipped is a read not
made).
"""
from __future__ import annotations

from ..language import nodes as n
from .hoist import KEYS

_OPS = {"lowest": "min", "highest": "max"}


def filtered(x, iterable, names, var: str, cond, inner):
    """(what the loop over `iterable` goes through, the text of the rest of
    its condition or None) where the condition `cond` (of the loop variable,
    named `var` in the code, with `inner` the names inside the loop) begins
    with the test of a card at the top of its group; else None."""
    if (not x.hoist.enabled or cond is None or not x._is_zone(iterable, names)
            or x._slotted_zone(iterable, names) is not None):
        return None
    first, rest, followed = _first_part(x, cond, inner)
    zone = x.visit(iterable, names)
    found = _top_test(x, first, var, zone)
    if found is None:
        return None
    op, key, value = found
    source = f"R_extremes({zone}, {x.field_list(key)}, {x.field_list(value)}, {op})"
    if not rest:
        return source, None
    x.hoist.frames[-1].distinct = x.field_list(key)  # (one card per group, but for ties: nothing to keep by it)
    added = followed - x._inlining
    x._inlining |= added  # (as where the definitions are written out in place: see ExprGen.call_define)
    try:
        return source, "(" + " and ".join(x.hoist.merged([x.visit(e, scope) for e, scope in rest], "and")) + ")"
    finally:
        x._inlining -= added


def _first_part(x, cond, names) -> tuple:
    """((the first part of `cond`, its names), [the other parts, with their
    names, in order], the definitions followed), seen through `and` and
    through calls of definitions written out in place."""
    rest: list = []
    followed: set = set()
    while True:
        if isinstance(cond, n.BoolOp) and cond.op == "and":
            rest[:0] = [(op, names) for op in cond.operands[1:]]
            cond = cond.operands[0]
            continue
        inner = _written_out(x, cond, names, followed)
        if inner is None:
            return (cond, names), rest, followed
        followed.add(cond.name)
        cond, names = x.model.defines[cond.name].expr, inner


def _written_out(x, expr, names, followed):
    """The names a definition's body sees where the call `expr` of it is
    written out in place (each argument a local name), else None."""
    if not (isinstance(expr, n.Call) and expr.name in x.model.defines and expr.name not in followed
            and all(isinstance(a, n.Name) and a.name in names.access for a in expr.args)):
        return None
    return x.inlined(expr.name, expr.args, names)[0]


def _top_test(x, part, var: str, zone: str):
    """(min or max, the grouping field, the compared field) where `part` is
    `var.F == lowest/highest y.F for y in ZONE where y.G == var.G` (either
    way round) over the zone whose text is `zone`; else None."""
    expr, names = part
    if not (isinstance(expr, n.Compare) and expr.op == "=="):
        return None
    for mine, agg in ((expr.left, expr.right), (expr.right, expr.left)):
        if (isinstance(mine, n.Field) and _is(x, mine.obj, names, var) and isinstance(agg, n.Aggregate)
                and agg.op in _OPS and isinstance(agg.expr, n.Field) and agg.expr.name == mine.name
                and _is_var(agg.expr.obj, agg.var, names) and x._is_zone(agg.iterable, names)
                and x.visit(agg.iterable, names) == zone):
            key = _group_field(x, agg, names, var)
            if key is not None and _plain(x, key) and _plain(x, mine.name):
                return _OPS[agg.op], key, mine.name
    return None


def _group_field(x, agg, names, var: str):
    """G where the aggregate's condition is `y.G == var.G` (either way round) alone."""
    cond = agg.cond
    if not (isinstance(cond, n.Compare) and cond.op == "=="):
        return None
    for theirs, mine in ((cond.left, cond.right), (cond.right, cond.left)):
        if (isinstance(theirs, n.Field) and isinstance(mine, n.Field) and theirs.name == mine.name
                and _is_var(theirs.obj, agg.var, names) and _is(x, mine.obj, names, var)):
            return theirs.name
    return None


def _is(x, expr, names, var: str) -> bool:
    """Whether `expr` is a local name standing for the loop variable `var`."""
    return isinstance(expr, n.Name) and names.access.get(expr.name) == var


def _is_var(expr, name: str, names) -> bool:
    """Whether `expr` is the aggregate's own variable `name` (not a local it hides)."""
    return isinstance(expr, n.Name) and expr.name == name and name not in names.access


def _plain(x, field: str) -> bool:
    """Whether `field` is card data that groups and compares as written (not an expression of the rules)."""
    return x.field_type(field) is None and all(isinstance(v, KEYS) for v in x.p.fields.get(field) or ())
