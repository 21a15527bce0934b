"""Run-time of the compiler's tables of card data (compiler/tables.py): the
value of an expression that reads only cards' fields and the rules' numbers,
by the values of its variables, computed the first time it is asked for and
kept for the program's life (the same cards give the same value every time).
"""
from __future__ import annotations

import functools


class Table(dict):
    """`table[a]` (one variable) or `table[a][b]` (two): the generated
    function `fn` of the variables, computed once per value. A value that
    fails is not kept: it fails again where it is asked for, as the
    expression it stands for would."""

    __slots__ = ("fn", "arity")

    def __init__(self, arity: int, fn=None):
        super().__init__()
        self.arity, self.fn = arity, fn

    def __missing__(self, key):
        if self.arity == 1:
            value = self.fn(key)
        else:  # the values of the next variable, for this value of the first
            value = Table(self.arity - 1, functools.partial(self.fn, key))
        self[key] = value
        return value

    def __reduce__(self):
        return Table, (self.arity, self.fn)  # what was computed is made again when asked


def rows(fn, count: int, slots=None) -> list:
    """The table of `fn(card, b)` as a list by card of each card's table of
    `b` (what `Table(2, fn)` makes of a card the first time it is asked for).
    Where `b` is the number of a slot walked, among `slots` slots, a card's
    values are computed now, into a plain list (read faster than the dict's
    subclass); a card with a value that fails keeps its table, so that the
    value fails where it is asked for, as the expression would."""
    out = []
    for card in range(count):
        if slots is not None:
            try:
                out.append([fn(card, slot) for slot in range(slots)])
                continue
            except Exception:  # noqa: BLE001 (asked for, it fails again, where and as it would)
                pass
        out.append(Table(1, functools.partial(fn, card)))
    return out
