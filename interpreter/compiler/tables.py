"""Partial evaluation of card data: expressions of card fields become tables.

A card's fields and the rules' parameters never change while a game is
played, so an expression that reads nothing else (`max(min_price, c.cost +
price_by_space[slot(c)])`, inside a loop over the cards of a slotted zone)
gives the same value for the same card (and slot) every time it is
computed. Such an expression is computed by a generated function of its
variables (`card_table(v0, v1)`) once per value, and kept in a table
(runtime/tables.py) that the code reads instead (`T0[v16][v17]`): a few
list reads and a call, at every card of every loop, become two lookups.

An expression is made a table only where that pays: it does some work (a
call or arithmetic, with four operations at least), its variables (one or
two) hold cards, players or the number of a slot walked (ints, so equal
keys are the same value), and its value is a number or yes/no (nothing a
rule could change in place). A value is computed when first asked for, so
one that fails (a card without the field) fails where and as it did.
"""
from __future__ import annotations

import re

from ..language import nodes as n
from ..language.builtins import FUNCTIONS
from ..language.names import LOCALS, resolve_name
from ..language.value_types import BOOL, CARD, NUMBER, PLAYER
from ..runtime.tables import Table, rows

_VAR = re.compile(r"\b[vs]\d+\b")  # loop variables of expressions and of statements
# anything of the position, or a helper (but `R_shows`, which reads only the effects it is given)
_STATE = re.compile(r"\b(?:st|ctr|z|L|R_(?!shows\b)\w+|B_\w+|[mtp]\d+)\b")
_CONSTANT = re.compile(r"^(?:-?\d+|\(-\d+\)|K\d+|None|True|False)$")
_KEYS = (CARD, PLAYER)  # the types of variables a table is keyed by
MIN_OPERATIONS = 4


class Tables:
    """The tables of one generated module: made while generating, linked to
    their functions once the module is built (`finish`)."""

    def __init__(self, x, module, enabled: bool = True):
        self.x = x  # the ExprGen, whose names, fields and slot walks an expression is read with
        self.module = module
        self.enabled = enabled
        self.made: dict = {}  # canonical source -> (table name, function name)
        self._tables: list = []  # (Table, function name, table name)
        # table name -> how many slots the slot numbers its second variable takes
        # come from (the most of every use), or None where one is not a slot number
        self._slot_counts: dict = {}
        self._inside = False  # generating a tabled expression: its parts are not tables of their own

    def candidate(self, expr, names) -> bool:
        """Whether `expr`, about to be generated, may become a table."""
        if not self.enabled or self._inside or isinstance(expr, (n.Literal, n.Name)):
            return False
        ops = self._operations(expr, names)
        return ops is not None and ops >= MIN_OPERATIONS and self.x.type_of(expr, names) in (NUMBER, BOOL)

    def generate(self, expr, names, visit) -> str:
        """The source of `expr` (a candidate): a table's use, or its own source."""
        self._inside = True
        try:
            text = visit(expr, names)
        finally:
            self._inside = False
        variables = list(dict.fromkeys(_VAR.findall(text)))
        keys = {t for name, t in names.access.items() if names.types.get(name) in _KEYS}
        slots = {walk[1]: walk[2] for walk in self.x._slots.values() if walk[1] is not None}
        keys |= slots.keys()
        if not 1 <= len(variables) <= 2 or not set(variables) <= keys or _STATE.search(text):
            return text
        params = [f"v{i}" for i in range(len(variables))]
        canonical = _VAR.sub(lambda m: params[variables.index(m.group(0))], text)
        if canonical not in self.made:
            cards = {t for name, t in names.access.items() if names.types.get(name) == CARD}
            # by a card and another value: a list of the cards' tables (a list is read faster than a dict's subclass)
            table = [] if len(params) == 2 and variables[0] in cards else Table(len(params))
            name = self.module.value("T", table)
            fname = self.module.function_name("card table")
            lines = [(0, f"def {fname}({', '.join(params)}):", None), (1, f"return {canonical}", expr.span)]
            self.module.add_function(fname, "", lines, expr.span, title="values of card data, kept by card")
            self.made[canonical] = (name, fname)
            self._tables.append((table, fname, name))
        name = self.made[canonical][0]
        count = slots.get(variables[-1]) if len(variables) == 2 else None
        known = self._slot_counts.get(name, count)
        self._slot_counts[name] = None if count is None or known is None else max(count, known)
        return name + "".join(f"[{v}]" for v in variables)

    def finish(self, ns) -> None:
        for table, fname, name in self._tables:
            if isinstance(table, list):
                table[:] = rows(ns[fname], len(ns["CARD_IDS"]), self._slot_counts[name])
            else:
                table.fn = ns[fname]

    def _operations(self, expr, names):
        """How many operations `expr` does, if it reads only card data, its
        variables and numbers; else None."""
        if isinstance(expr, n.Literal):
            return 0
        if isinstance(expr, n.Name):
            space = resolve_name(expr.name, self.x.model, names.access)
            if space == "params":
                return 0
            if space == LOCALS:
                text = names.access[expr.name]
                return 0 if _CONSTANT.match(text) or names.types.get(expr.name) in _KEYS and _VAR.fullmatch(text) else None
            return None
        if isinstance(expr, n.Field):
            if self.x.field_type(expr.name) in ("expression", "expression map"):
                return None
            return self._sum([expr.obj], names)
        if isinstance(expr, n.Call):
            if expr.name == "slot" and len(expr.args) == 1 and isinstance(expr.args[0], n.Name):
                text = names.access.get(expr.args[0].name)
                return 0 if text in self.x._slots else None  # the number of the slot walked
            builtin = FUNCTIONS.get(expr.name)
            if builtin is None or not builtin.fixed or expr.name in self.x.model.defines:
                return None
            return self._sum(expr.args, names)
        shown = self.x.shown_effect(expr, names) if isinstance(expr, n.Contains) else None
        if shown is not None:  # `draw in c.effects`: a walk of the list's items, as much work as a few operations
            ops = self._sum([expr.container] if shown else [expr.item, expr.container], names)
            return None if ops is None else ops + MIN_OPERATIONS - 1
        children = _CHILDREN.get(type(expr))
        return None if children is None else self._sum(children(expr), names)

    def _sum(self, parts, names):
        total = 1
        for part in parts:
            ops = self._operations(part, names)
            if ops is None:
                return None
            total += ops
        return total


# The sub-expressions of the operations a table may hold.
_CHILDREN = {
    n.Index: lambda e: (e.obj, e.index),
    n.Arith: lambda e: (e.left, e.right),
    n.Neg: lambda e: (e.operand,),
    n.Compare: lambda e: (e.left, e.right),
    n.BoolOp: lambda e: e.operands,
    n.Not: lambda e: (e.operand,),
    n.Conditional: lambda e: (e.cond, e.then, e.otherwise),
    n.IsKind: lambda e: (e.operand,),
    n.Contains: lambda e: (e.item, e.container),
}
