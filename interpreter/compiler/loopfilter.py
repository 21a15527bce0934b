"""`for each x in L where C:` with C tested while L is made.

The statement goes through the items L had when it began, testing C for
each just before its body would run (the body may change what C reads).
Where nothing the body does can change C for an item still to come, C can
be tested for every item as L is made (fusion.list_lines with a test): the
items that fail are never kept, and the loop goes through those that pass
(at the end of a turn, the few cards turned sideways among those in play).
That holds when

- L never repeats an item (ListFacts.distinct: a card lies in one zone at
  a time), so a change the body makes to its own item reaches no later one;
- C reads only the item's own card data (fields every card has, none an
  expression of the position), the item's own counters (`activated of c`),
  the rules' parameters and names bound before the loop, and cannot fail,
  so that testing an item early reports nothing the loop would not have;
- the body changes none of those counters but the item's own, runs no
  other rule, ends nothing early (`stop`, `end game`, a pass: the items
  after it would not have been tested), does not bind the item's name
  anew, and moves no card out of a zone whose `becomes empty` trigger
  could run a rule: the item itself, from the zones of L, or any card when
  no zone has such a trigger.

Where any of it does not hold, or cannot be seen from the rules' text, the
loop tests each item in turn as before.
"""
from __future__ import annotations

from ..language import nodes as n
from ..language.names import LOCALS, resolve_name
from ..language.value_types import NUMBER

# nodes of a condition that read nothing of their own and cannot fail (an
# order, `<`, only between numbers: see _counters_read)
_COMBINING = (n.Literal, n.Compare, n.BoolOp, n.Not, n.Contains, n.ListLit)


def tested_first(x, s: n.ForEach, names) -> bool:
    """Whether the condition of the `for each` statement `s` (in the scope
    `names`, by the expression generator `x`) may be tested for every item
    before the body runs for any."""
    if s.cond is None:
        return False
    zones = x.zones_read(s.iterable, names)
    if not zones or "<seats>" in zones:
        return False
    item = names.bind(s.var, s.var, x.types.element(s.iterable, names.types))  # (typed: only its types are read)
    counters = _counters_read(x, s.cond, s.var, item)
    return counters is not None and _keeps(x, s.body, s.var, counters, zones)


def _is(expr, var: str) -> bool:
    return isinstance(expr, n.Name) and expr.name == var


def _counters_read(x, cond, var: str, names) -> set | None:
    """The counters of the item `var` that `cond` reads, or None where it
    reads anything else or may fail."""
    found = set()
    complete = x.p.fields
    for node in n.walk(cond):
        if isinstance(node, n.Compare) and node.op not in ("==", "!=") and not (
                x.type_of(node.left, names) == NUMBER == x.type_of(node.right, names)):
            return None  # (an order of values that are not both numbers may fail)
        if isinstance(node, _COMBINING) or (isinstance(node, n.IsKind) and _is(node.operand, var)):
            continue
        if isinstance(node, n.Name):
            if resolve_name(node.name, x.model, names.access) in (LOCALS, "params"):
                continue
        elif isinstance(node, n.NameOf):
            counter = x.p.counters.get(node.name)
            if counter is not None and counter.scope == "card" and _is(node.owner, var):
                found.add(node.name)
                continue
        elif isinstance(node, n.Field):
            values = complete.get(node.name)
            if (_is(node.obj, var) and values and None not in values
                    and x.field_type(node.name) not in ("expression", "expression map")):
                continue
        return None
    return found


def _keeps(x, body, var: str, counters: set, zones: set) -> bool:
    """Whether no statement of `body` changes what the condition reads of
    an item after the one it runs for, nor leaves the loop early."""
    triggered = set(x.model.empty_hooks)
    for stmt in (node for s in body for node in n.walk(s) if isinstance(node, n.Stmt)):
        if getattr(stmt, "var", None) == var or isinstance(stmt, n.Let) and stmt.name == var:
            return False
        changes = stmt.facts.changes
        if changes in ("rules", "play"):
            return False
        if changes == "counter" and stmt.target.name in counters and not _is(stmt.target.owner, var):
            return False
        if changes == "cards" and triggered and not (isinstance(stmt, n.Move) and _is(stmt.cards, var)
                                                     and not zones & triggered):
            return False
    return True
