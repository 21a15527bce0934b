"""A small type inference for the checker: what kind of value an expression has.

Types are the strings of `value_types` ("number", "cards", ...), or None when
unknown. The checker uses them to reject statements that cannot work, such as
gaining text; the compiler uses them to pick faster code and option ids.
"""
from __future__ import annotations

from . import nodes as n
from .builtins import FUNCTIONS, VALUES
from .value_types import BOOL, CARD, CARDS, EFFECTS, ELEMENT, LIST, LISTS, MAP, NUMBER, PLAYER, PLAYERS, TEXT, value_type
from .names import LOCALS, VALUES_NS, resolve_name, resolve_owned
from .visitor import Visitor

# The type of a name by what it names (names.py), where the namespace says it.
_NAME_TYPES = {"counters": NUMBER, "zones": CARDS, "effects": TEXT}


class Types(Visitor):
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
        self.given: dict = {}  # (kind, name) -> {parameter: type}, see typecheck.typed
        self.origins: dict = {}  # (kind, name) -> {parameter: (type, span of a value of that type given to it)}

    def set_parameters(self, given: dict, origins=None) -> None:
        """Type the parameters of procedures, reactions and definitions
        (`given`: (kind, name) -> {parameter: type}); untyped ones stay None."""
        self.given = given
        self.origins = origins or {}
        self._defines = {}

    def parameters(self, kind: str, decl) -> dict:
        """The scope of the body of `decl` (a `kind` "procedure", "reaction"
        or "define"): each of its parameters with its type, or None."""
        known = self.given.get((kind, decl.name), {})
        return {p: known.get(p) for p in decl.params}

    def of(self, expr, scope: dict):
        """The type of `expr`, where `scope` maps local names to types."""
        return self.visit(expr, scope)

    def generic_visit(self, e, scope):
        return None

    def visit_Literal(self, e, scope):
        return value_type(e.value)

    def visit_Template(self, e, scope):
        return TEXT

    def visit_Name(self, e, scope):
        name = e.name
        namespace = resolve_name(name, self.model, scope)
        if namespace == LOCALS:
            return scope[name]
        if namespace == "params":
            return value_type(self.params[name]) if name in self.params else None  # (else: failed, reported)
        if namespace == "defines":
            return None if self.model.defines[name].params else self._define(name)
        if namespace == "counters":
            return self.counter_type(name)
        return _NAME_TYPES.get(namespace) or (VALUES[name].returns if namespace == VALUES_NS else None)

    def _define(self, name):
        if name not in self._defines:
            self._defines[name] = None  # recursion guard
            decl = self.model.defines[name]
            self._defines[name] = self.of(decl.expr, self.parameters("define", decl))
        return self._defines[name]

    def visit_NameOf(self, e, scope):
        namespace = resolve_owned(e.name, self.model)
        return self.counter_type(e.name) if namespace == "counters" else _NAME_TYPES.get(namespace)

    def counter_type(self, name: str) -> str:
        """What counter `name` holds: a number, or a player (`holds player`)."""
        return PLAYER if self.model.counters[name].holds_player else NUMBER

    def visit_Field(self, e, scope):
        return self.field_types.get(e.name)

    def visit_Index(self, e, scope):
        container = self.of(e.obj, scope)
        if container in ELEMENT:
            return ELEMENT[container]
        if isinstance(e.obj, n.Name) and e.obj.name in self.params:
            values = self.params[e.obj.name]
            values = list(values.values()) if isinstance(values, dict) else values
            kinds = {value_type(v) for v in values} if isinstance(values, list) else set()
            return kinds.pop() if len(kinds) == 1 else None
        return None

    def visit_Call(self, e, scope):
        if e.name in self.model.defines:
            return self._define(e.name)
        builtin = FUNCTIONS.get(e.name)
        return builtin.result_type(len(e.args)) if builtin else None

    def visit_ListLit(self, e, scope):
        kinds = {self.of(i, scope) for i in e.items}
        if kinds == {CARD}:
            return CARDS
        if kinds == {PLAYER}:
            return PLAYERS
        return LIST

    def visit_MapLit(self, e, scope):
        return MAP

    def visit_Range(self, e, scope):
        return LIST

    def visit_Comprehension(self, e, scope):
        inner = dict(scope)
        for var, iterable in e.loops:
            inner[var] = ELEMENT.get(self.of(iterable, inner))
        kind = self.of(e.expr, inner)
        return CARDS if kind == CARD else PLAYERS if kind == PLAYER else LIST

    def visit_Arith(self, e, scope):
        left, right = self.of(e.left, scope), self.of(e.right, scope)
        if e.op == "+" and (left in LISTS or right in LISTS):
            return left if left == right else LIST
        if e.op == "+" and left == TEXT and right == TEXT:
            return TEXT
        return NUMBER if left in (NUMBER, PLAYER) and right in (NUMBER, PLAYER) else None

    def visit_Neg(self, e, scope):
        return NUMBER

    def visit_Compare(self, e, scope):
        return BOOL

    visit_Contains = visit_IsKind = visit_BoolOp = visit_Not = visit_Compare

    def visit_Conditional(self, e, scope):
        a, b = self.of(e.then, scope), self.of(e.otherwise, scope)
        return a if a == b else None

    def visit_Aggregate(self, e, scope):
        return {"count": NUMBER, "any": BOOL, "every": BOOL, "sum": NUMBER}.get(e.op) or (
            self.of(e.expr, {**scope, e.var: ELEMENT.get(self.of(e.iterable, scope))}))

    def visit_Rank(self, e, scope):
        return NUMBER

    def element(self, expr, scope):
        if isinstance(expr, n.Range):
            return NUMBER
        return ELEMENT.get(self.of(expr, scope))
