"""A small type inference for the checker: what kind of value an expression has.

Types are plain strings: "number", "text", "yes/no", "card", "cards", "player",
"players", "list", "map", "effects", "none", or None when unknown. The checker
uses them to reject statements that cannot work, such as gaining text.
"""
from __future__ import annotations

from .builtins import FUNCTIONS
from .language import nodes as n

NUMBER, TEXT, BOOL, CARD, CARDS, PLAYER, PLAYERS, LIST, MAP, EFFECTS, NONE = (
    "number", "text", "yes/no", "card", "cards", "player", "players", "list", "map", "effects", "none")

_BUILTIN_NAMES = {"me": PLAYER, "first_player": PLAYER, "players": NUMBER, "round": NUMBER,
                  "turn_number": NUMBER, "seats": PLAYERS, "others": PLAYERS}
_BUILTIN_RETURNS = {"size": NUMBER, "slot": NUMBER, "position": NUMBER, "abs": NUMBER, "distance": NUMBER, "has": BOOL,
                    "host": CARD, "top": CARD, "bottom": CARD, "owner": PLAYER, "next_player": PLAYER}
_ELEMENT = {CARDS: CARD, PLAYERS: PLAYER}


def value_type(value) -> str | None:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if isinstance(value, (list, tuple)):
        return LIST
    if isinstance(value, dict):
        return MAP
    if value is None:
        return NONE
    return None


class Types:
    """Infers expression types against one rules model and card database."""

    def __init__(self, model, db, params):
        self.model = model
        self.params = params
        self.field_types: dict = {}
        for card in db.cards:
            for name, value in card.data.items():
                kind = value_type(value)
                previous = self.field_types.setdefault(name, kind)
                if previous != kind:
                    self.field_types[name] = None
        for kind in model.kinds.values():
            for name, ftype in kind.fields:
                self.field_types[name] = EFFECTS if ftype == "effects" else None
        self._defines: dict = {}

    def of(self, expr, scope: dict):
        """The type of `expr`, where `scope` maps local names to types."""
        method = getattr(self, "_" + type(expr).__name__, None)
        return method(expr, scope) if method else None

    def _Literal(self, e, scope):
        return value_type(e.value)

    def _Template(self, e, scope):
        return TEXT

    def _Name(self, e, scope):
        name, m = e.name, self.model
        if name in scope:
            return scope[name]
        if name in self.params:
            return value_type(self.params[name])
        if name in m.counters:
            return NUMBER
        if name in m.zones:
            return CARDS
        if name in m.defines and not m.defines[name].params:
            return self._define(name)
        if name in m.effects:
            return TEXT
        return _BUILTIN_NAMES.get(name)

    def _define(self, name):
        if name not in self._defines:
            self._defines[name] = None  # recursion guard
            decl = self.model.defines[name]
            self._defines[name] = self.of(decl.expr, {p: None for p in decl.params})
        return self._defines[name]

    def _NameOf(self, e, scope):
        return NUMBER if e.name in self.model.counters else CARDS if e.name in self.model.zones else None

    def _Field(self, e, scope):
        return self.field_types.get(e.name)

    def _Index(self, e, scope):
        container = self.of(e.obj, scope)
        if container in _ELEMENT:
            return _ELEMENT[container]
        if isinstance(e.obj, n.Name) and e.obj.name in self.params:
            values = self.params[e.obj.name]
            values = list(values.values()) if isinstance(values, dict) else values
            kinds = {value_type(v) for v in values} if isinstance(values, list) else set()
            return kinds.pop() if len(kinds) == 1 else None
        return None

    def _Call(self, e, scope):
        if e.name in self.model.defines:
            return self._define(e.name)
        if e.name in ("max", "min") and len(e.args) > 1:
            return NUMBER
        return _BUILTIN_RETURNS.get(e.name) if e.name in FUNCTIONS else None

    def _ListLit(self, e, scope):
        kinds = {self.of(i, scope) for i in e.items}
        if kinds == {CARD}:
            return CARDS
        if kinds == {PLAYER}:
            return PLAYERS
        return LIST

    def _MapLit(self, e, scope):
        return MAP

    def _Comprehension(self, e, scope):
        inner = dict(scope)
        for var, iterable in e.loops:
            inner[var] = _ELEMENT.get(self.of(iterable, inner))
        kind = self.of(e.expr, inner)
        return CARDS if kind == CARD else PLAYERS if kind == PLAYER else LIST

    def _Arith(self, e, scope):
        left, right = self.of(e.left, scope), self.of(e.right, scope)
        if e.op == "+" and (left in (CARDS, PLAYERS, LIST) or right in (CARDS, PLAYERS, LIST)):
            return left if left == right else LIST
        return NUMBER if left == NUMBER and right == NUMBER else None

    def _Neg(self, e, scope):
        return NUMBER

    def _Compare(self, e, scope):
        return BOOL

    _Contains = _IsKind = _BoolOp = _Not = _Compare

    def _Conditional(self, e, scope):
        a, b = self.of(e.then, scope), self.of(e.otherwise, scope)
        return a if a == b else None

    def _Aggregate(self, e, scope):
        return {"count": NUMBER, "any": BOOL, "every": BOOL, "sum": NUMBER}.get(e.op) or (
            self.of(e.expr, {**scope, e.var: _ELEMENT.get(self.of(e.iterable, scope))}))

    def _Rank(self, e, scope):
        return NUMBER

    def element(self, expr, scope):
        return _ELEMENT.get(self.of(expr, scope))
