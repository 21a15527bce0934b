"""Where a value named by `let` is lost: a `let` holds to the end of its
block, so naming again, inside a loop's body or a branch, a name an
enclosing block's `let` holds changes nothing after that block (nor in the
loop's next pass). Where nothing after it in its own block reads the new
value, the write is lost, and the checker warns (`check --strict` fails on
it). A `let` keeping its value across passes would change what every
existing rule means where a branch names a value again, and give one name
values of different kinds by the path taken; the warning says where a rule
meant it (docs/language.md, "let").

A mixin of checker.Checker: it reports through the checker's `warning`.
"""
from __future__ import annotations

from . import nodes as n


def _read(stmts) -> set:
    """The names the statements read (anywhere inside them)."""
    return {node.name for s in stmts for node in n.walk(s) if isinstance(node, n.Name)}


def _blocks(stmt):
    """The blocks of statements directly inside `stmt`."""
    for name in stmt._fields:
        yield from _blocks_in(getattr(stmt, name))


def _blocks_in(value):
    if isinstance(value, tuple) and value and all(isinstance(s, n.Stmt) for s in value):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _blocks_in(item)


class LostLets:
    """Warnings where a `let` names again an enclosing block's value and nothing reads it."""

    def check_lost_lets(self):
        for decl in self.model.rules():
            self._lets_in(decl.body, {})

    def _lets_in(self, stmts, outer: dict):
        """`outer`: the names held by the `let`s of enclosing blocks -> that `let`."""
        mine: dict = {}
        for i, s in enumerate(stmts):
            if isinstance(s, n.Let):
                if s.name in outer and s.name not in mine and s.name not in _read(stmts[i + 1:]):
                    self._lost(s, outer[s.name])
                mine[s.name] = s
                continue
            bound = {getattr(s, "var", None)}  # a loop's or a choice's own name hides the outer one
            inner = {k: v for k, v in {**outer, **mine}.items() if k not in bound}
            for block in _blocks(s):
                self._lets_in(block, inner)

    def _lost(self, s, first):
        self.warning(f"'{s.name}' is named again here, but nothing after it in its block reads it: a value "
                     f"named by `let` is lost at the end of its block, so the '{s.name}' of line "
                     f"{first.span.line} does not change", s.span,
                     "to keep a running value, use a counter (`gain`, `set`), or an aggregate over the "
                     "loop's list (`sum c.cost for c in hand`)")
