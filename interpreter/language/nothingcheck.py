"""Where a card value may be nothing: `top`, `bottom`, `highest`... give
none when there is nothing to give, and reading a field of none stops the
game. The checker warns where such a value's field is read without a test;
the run-time error (runtime/explain.py) says where the value came from.

A best effort, made to stay silent rather than guess: a value is taken as
tested when the rule compares it with none before or around the read, or
when any condition of the rule reads the zone or list it came from (`if
size(deck) > 0:`, `when size(deck) > 0`, `if size(deck) == 0: end game
now` after it), or a trigger answers that zone's being empty.

A mixin of checker.Checker: it reports through the checker's `warning`.
"""
from __future__ import annotations

from . import nodes as n

# Built-ins that give none when there is nothing to give: how it reads.
MAY_BE_NOTHING = {"top": "top of an empty {what}", "bottom": "bottom of an empty {what}",
                  "host": "the host of a card no card holds", "owner": "the owner of a card no player holds",
                  "distance": "the distance between two spaces no way joins"}
AGGREGATES = {"highest": "highest of no values", "lowest": "lowest of no values"}


def nothing_from(expr):
    """(how the value of `expr` may be none, the names it reads) if it is one
    of the expressions that give none when there is nothing to give, else None."""
    if isinstance(expr, n.Call) and expr.name in MAY_BE_NOTHING:
        arg = expr.args[0] if expr.args else None
        what = f"zone {arg.name}" if isinstance(arg, (n.Name, n.NameOf)) else "list"
        return MAY_BE_NOTHING[expr.name].format(what=what), _names(expr)
    if isinstance(expr, n.Aggregate) and expr.op in AGGREGATES:
        return AGGREGATES[expr.op], _names(expr.iterable)
    return None


def _names(expr) -> set:
    return {node.name for node in n.walk(expr) if isinstance(node, (n.Name, n.NameOf))}


def _stmts(stmts):
    for s in stmts:
        for node in n.walk(s):
            if isinstance(node, n.Stmt):
                yield node


def _tested(expr) -> set:
    """The names `expr` compares with none (`d != none`, `d == none`)."""
    tested = set()
    for node in n.walk(expr):
        if isinstance(node, n.Compare):
            sides = (node.left, node.right)
            if any(isinstance(s, n.Literal) and s.value is None for s in sides):
                tested |= {s.name for s in sides if isinstance(s, n.Name)}
    return tested


class NothingChecks:
    """Warnings where a card value that may be nothing has a field read."""

    def check_nothing(self):
        for decl in self.model.rules():
            conditions = [getattr(decl, "when", None)] + [
                c for s in _stmts(decl.body) for c in ([c for c, _ in s.branches] if isinstance(s, n.If)
                                                        else [getattr(s, "cond", None)])]
            guards = {name for c in conditions if c is not None for name in _names(c)}
            self._nothing_block(decl.body, {}, frozenset(guards | set(self.model.empty_hooks)))

    def _nothing_block(self, stmts, maybe: dict, guards: frozenset):
        """`maybe`: local name -> how it may be none; `guards`: the names
        the conditions around `stmts` read."""
        maybe = dict(maybe)
        for s in stmts:
            if isinstance(s, n.Let):
                self._nothing_reads(s.value, maybe, guards)
                found = nothing_from(s.value)
                maybe.pop(s.name, None)
                if found is not None and not found[1] & guards:
                    maybe[s.name] = found[0]
                continue
            conditions = [c for c, _ in s.branches] if isinstance(s, n.If) else [getattr(s, "cond", None)]
            tested = {name for c in conditions if c is not None for name in _tested(c) | _names(c)}
            shadowed = {getattr(s, "var", None)}
            for name in s._fields:
                value = getattr(s, name)
                if isinstance(value, n.Expr):
                    self._nothing_reads(value, maybe, guards)
                elif isinstance(value, tuple):
                    for part in value:
                        self._nothing_part(part, maybe, guards, tested | shadowed)
            for name in tested:  # `if d == none: stop` tests it for the rest of the block too
                maybe.pop(name, None)

    def _nothing_part(self, part, maybe, guards, tested):
        if isinstance(part, n.Stmt):
            return
        if isinstance(part, tuple) and part and all(isinstance(s, n.Stmt) for s in part):
            self._nothing_block(part, {k: v for k, v in maybe.items() if k not in tested}, guards)
        elif isinstance(part, tuple):  # an `if` branch: (condition, body)
            for item in part:
                if isinstance(item, n.Expr):
                    self._nothing_reads(item, maybe, guards)
                else:
                    self._nothing_part(item, maybe, guards, tested)

    def _nothing_reads(self, expr, maybe: dict, guards: frozenset):
        """Warn where `expr` reads a field of a value that may be nothing."""
        tested = _tested(expr)
        for node in n.walk(expr):
            if not isinstance(node, n.Field):
                continue
            obj = node.obj
            if isinstance(obj, n.Name) and obj.name in maybe and obj.name not in tested:
                self.warning(f"'{obj.name}' may be nothing ({maybe.pop(obj.name)}) when its field "
                             f"'{node.name}' is read", node.span,
                             f"test it first: `if {obj.name} != none:`")
                continue
            found = nothing_from(obj)
            if found is not None and not found[1] & guards:
                self.warning(f"the card may be nothing ({found[0]}) when its field '{node.name}' is read",
                             node.span, "name it with `let` and test it first: `if NAME != none:`")
