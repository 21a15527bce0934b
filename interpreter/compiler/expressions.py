"""Compile checked expression nodes into Python closures `fn(state, locals)`.

Names are resolved to list indices at compile time; the closures never look up
a name by string while a game runs.
"""
from __future__ import annotations

import operator
from fractions import Fraction
from functools import singledispatchmethod

from ..builtins import FUNCTIONS
from ..errors import RulesRuntimeError
from ..language import nodes as n
from .program import Scope

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _plain_number(value):
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def render(value, st=None) -> str:
    """Text of a value inside a label."""
    if value is None:
        return "none"
    if isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
        return " ".join("/".join(alts) for alts in value)  # an effect list
    if isinstance(value, (list, tuple)):
        return ", ".join(render(v, st) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        value = _plain_number(value)
        return str(value) if isinstance(value, int) else f"{float(value):.2f}".rstrip("0")
    return str(value)


class ExprCompiler:
    """Turns expressions into closures; knows the program's names."""

    def __init__(self, program, model, defines: dict):
        self.p = program
        self.model = model
        self.defines = defines  # name -> compiled fn(st, args) (filled lazily)
        self._define_kinds: dict = {}
        self._inlining: set = set()
        self._int_fields = {
            name for name, values in program.fields.items()
            if all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in values)
        }

    # ------------------------------------------------------------ entry points
    def compile(self, expr: n.Expr, scope: Scope):
        return self.visit(expr, scope)

    def template(self, tmpl: n.Template, scope: Scope):
        parts = [p if isinstance(p, str) else self.visit(p, scope) for p in tmpl.parts]
        if all(isinstance(p, str) for p in parts):
            text = "".join(parts)
            return lambda st, L: text

        def fn(st, L):
            return "".join(p if isinstance(p, str) else render(p(st, L), st) for p in parts)

        return fn

    # ------------------------------------------------------------ value kinds
    def elem_kind(self, expr: n.Expr, scope: Scope):
        """'card' or 'player' if the list `expr` holds cards or players."""
        if isinstance(expr, n.Name):
            if expr.name in scope.slots:
                return None
            if expr.name in self.p.zones:
                return "card"
            if expr.name in ("seats", "others"):
                return "player"
            if expr.name in self.model.defines:
                return self._define_elem_kind(expr.name)
            return None
        if isinstance(expr, n.NameOf):
            return "card" if expr.name in self.p.zones else None
        if isinstance(expr, n.Comprehension):
            inner = Scope(dict(scope.slots), scope.size, dict(scope.kinds))
            for var, iterable in expr.loops:
                kind = self.elem_kind(iterable, inner)
                inner.slots[var] = -1
                inner.kinds[var] = kind
            return self.kind(expr.expr, inner)
        if isinstance(expr, n.Arith) and expr.op == "+":
            return self.elem_kind(expr.left, scope) or self.elem_kind(expr.right, scope)
        if isinstance(expr, n.ListLit) and expr.items:
            return self.kind(expr.items[0], scope)
        if isinstance(expr, n.Call) and expr.name in self.model.defines and not expr.args:
            return self._define_elem_kind(expr.name)
        return None

    def kind(self, expr: n.Expr, scope: Scope):
        """'card' or 'player' if the scalar `expr` is a card or a player."""
        if isinstance(expr, n.Name):
            if expr.name in scope.slots:
                return scope.kinds.get(expr.name)
            if expr.name in ("me", "first_player"):
                return "player"
            return None
        if isinstance(expr, n.Call):
            if expr.name in FUNCTIONS:
                return FUNCTIONS[expr.name].returns
            return None
        if isinstance(expr, n.Index):
            return self.elem_kind(expr.obj, scope)
        return None

    def _define_elem_kind(self, name):
        if name not in self._define_kinds:
            self._define_kinds[name] = None  # cycle guard
            decl = self.model.defines[name]
            self._define_kinds[name] = self.elem_kind(decl.expr, Scope({p: i for i, p in enumerate(decl.params)}, len(decl.params)))
        return self._define_kinds[name]

    def is_int(self, expr: n.Expr, scope: Scope) -> bool:
        """Whether `expr` is surely an integer, so arithmetic and comparisons
        can skip the checks that lists and missing values need."""
        if isinstance(expr, n.Literal):
            return isinstance(expr.value, int) and not isinstance(expr.value, bool)
        if isinstance(expr, n.Name):
            if expr.name in scope.slots:
                return False
            if expr.name in self.p.params:
                value = self.p.params[expr.name]
                return isinstance(value, int) and not isinstance(value, bool)
            return expr.name in self.p.counters or expr.name in ("players", "round", "turn_number")
        if isinstance(expr, n.NameOf):
            return expr.name in self.p.counters
        if isinstance(expr, n.Field):
            return expr.name in self._int_fields and self._field_type(expr.name) is None
        if isinstance(expr, n.Arith):
            return self.is_int(expr.left, scope) and self.is_int(expr.right, scope)
        if isinstance(expr, n.Neg):
            return self.is_int(expr.operand, scope)
        if isinstance(expr, n.Index) and isinstance(expr.obj, n.Name) and expr.obj.name in self.p.params and expr.obj.name not in scope.slots:
            container = self.p.params[expr.obj.name]
            values = container.values() if isinstance(container, dict) else container
            return isinstance(values, (list, tuple, type({}.values()))) and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
        if isinstance(expr, n.Call):
            if expr.name in ("size", "slot", "position"):
                return True
            if expr.name in ("max", "min", "abs") and len(expr.args) >= (1 if expr.name == "abs" else 2):
                return all(self.is_int(a, scope) for a in expr.args)
            return False
        if isinstance(expr, n.Aggregate):
            return expr.op == "count"
        if isinstance(expr, n.Conditional):
            return self.is_int(expr.then, scope) and self.is_int(expr.otherwise, scope)
        return False

    # ------------------------------------------------------------ visitors
    @singledispatchmethod
    def visit(self, expr, scope):
        raise TypeError(f"cannot compile {type(expr).__name__}")

    @visit.register
    def _(self, expr: n.Literal, scope):
        value = expr.value
        return lambda st, L: value

    @visit.register
    def _(self, expr: n.Template, scope):
        return self.template(expr, scope)

    @visit.register
    def _(self, expr: n.Name, scope):
        name = expr.name
        if name in scope.slots:
            i = scope.slots[name]
            return lambda st, L: L[i]
        if name in self.p.params:
            value = self.p.params[name]
            return lambda st, L: value
        if name in self.p.counters:
            info = self.p.counters[name]
            k = info.index
            if info.scope == "shared":
                return lambda st, L: st.ctr[k][0]
            return lambda st, L: st.ctr[k][st.me]
        if name in self.p.zones:
            info = self.p.zones[name]
            base = info.base
            if info.slots:
                if info.scope == "shared":
                    return lambda st, L: [c for c in st.z[base] if c is not None]
                return lambda st, L: [c for c in st.z[base + st.me] if c is not None]
            if info.scope == "shared":
                return lambda st, L: st.z[base]
            return lambda st, L: st.z[base + st.me]
        if name in self.model.defines:
            return self._call_define(name, (), scope)
        if name in self.p.effect_codes or name in self.model.effects:
            return lambda st, L: name
        return _BUILTIN_NAMES[name]

    @visit.register
    def _(self, expr: n.NameOf, scope):
        owner = self.visit(expr.owner, scope)
        if expr.name in self.p.counters:
            k = self.p.counters[expr.name].index
            return lambda st, L: st.ctr[k][owner(st, L)]
        info = self.p.zones[expr.name]
        base = info.base
        if info.slots:
            return lambda st, L: [c for c in st.z[base + owner(st, L)] if c is not None]
        return lambda st, L: st.z[base + owner(st, L)]

    @visit.register
    def _(self, expr: n.Field, scope):
        obj = self.visit(expr.obj, scope)
        values = self.p.fields.get(expr.name)
        name = expr.name
        if self._field_type(name) == "expression":
            def computed(st, L):
                card = obj(st, L)
                if card is None or values[card] is None:
                    raise RulesRuntimeError(f"no card or no '{name}' to compute", expr.span)
                return values[card](st, L)
            return computed

        def field(st, L):
            card = obj(st, L)
            if card is None:
                raise RulesRuntimeError(f"no card to read '{name}' from (the value is none)", expr.span)
            value = values[card]
            if value is None:
                raise RulesRuntimeError(f"card '{st.program.card_names[card]}' has no field '{name}'", expr.span)
            return value

        return field

    @visit.register
    def _(self, expr: n.Index, scope):
        obj = self.visit(expr.obj, scope)
        index = self.visit(expr.index, scope)
        deferred = isinstance(expr.obj, n.Field) and self._field_type(expr.obj.name) == "expression map"
        if isinstance(expr.obj, n.Name) and expr.obj.name in self.p.params and expr.obj.name not in scope.slots:
            table = self.p.params[expr.obj.name]

            def lookup(st, L):
                key = index(st, L)
                try:
                    return table[key]
                except (IndexError, KeyError, TypeError):
                    raise RulesRuntimeError(f"no entry {render(key)} in parameter '{expr.obj.name}'", expr.span) from None
            return lookup

        def get(st, L):
            container = obj(st, L)
            key = index(st, L)
            try:
                value = container[key]
            except (IndexError, KeyError, TypeError):
                raise RulesRuntimeError(f"no entry {render(key)!s} in {render(container) if not isinstance(container, dict) else 'the map'}", expr.span) from None
            return value(st, L) if deferred else value

        return get

    def _field_type(self, name):
        for kind in self.model.kinds.values():
            for fname, ftype in kind.fields:
                if fname == name:
                    return ftype
        return None

    @visit.register
    def _(self, expr: n.Call, scope):
        if expr.name in self.model.defines:
            return self._call_define(expr.name, expr.args, scope)
        fn = FUNCTIONS[expr.name].fn
        args = [self.visit(a, scope) for a in expr.args]
        if len(args) == 1:
            a0 = args[0]
            return lambda st, L: fn(st, a0(st, L))
        if len(args) == 2:
            a0, a1 = args
            if expr.name in ("max", "min"):
                pick = max if expr.name == "max" else min
                return lambda st, L: pick(a0(st, L), a1(st, L))
            return lambda st, L: fn(st, a0(st, L), a1(st, L))
        return lambda st, L: fn(st, *[a(st, L) for a in args])

    def _call_define(self, name, args, scope):
        """Inline the definition's body at the call site: its parameters get
        slots of the caller's frame, so a call costs no list or lookup."""
        decl = self.model.defines[name]
        arg_fns = [self.visit(a, scope) for a in args]
        if name in self._inlining:  # recursion: call through the table
            defines = self.defines
            return lambda st, L: defines[name](st, [a(st, L) for a in arg_fns])
        inner = Scope({}, scope.size)
        slots = []
        for param, arg in zip(decl.params, args):
            slot = inner.bind(param)
            inner.kinds[param] = self.kind(arg, scope)
            slots.append(slot)
        self._inlining.add(name)
        try:
            body = self.visit(decl.expr, inner)
        finally:
            self._inlining.discard(name)
        scope.size = inner.size
        if not slots:
            return body
        if len(slots) == 1:
            s0, a0 = slots[0], arg_fns[0]

            def call1(st, L):
                L[s0] = a0(st, L)
                return body(st, L)
            return call1
        pairs = list(zip(slots, arg_fns))

        def call(st, L):
            values = [a(st, L) for _, a in pairs]
            for (slot, _), value in zip(pairs, values):
                L[slot] = value
            return body(st, L)
        return call

    def compile_define(self, decl: n.DefineDecl):
        scope = Scope({p: i for i, p in enumerate(decl.params)}, len(decl.params))
        body = self.visit(decl.expr, scope)
        extra = scope.size - len(decl.params)
        if extra == 0:
            return body
        pad = [None] * extra
        return lambda st, args: body(st, args + pad)

    @visit.register
    def _(self, expr: n.ListLit, scope):
        items = [self.visit(i, scope) for i in expr.items]
        return lambda st, L: [i(st, L) for i in items]

    @visit.register
    def _(self, expr: n.MapLit, scope):
        items = [(self.visit(k, scope), self.visit(v, scope)) for k, v in expr.items]
        return lambda st, L: {k(st, L): v(st, L) for k, v in items}

    @visit.register
    def _(self, expr: n.Comprehension, scope):
        saved = dict(scope.slots)
        loops = []
        for var, iterable in expr.loops:
            it = self.visit(iterable, scope)
            kind = self.elem_kind(iterable, scope)
            loops.append((scope.bind(var), it))
            scope.kinds[var] = kind
        body = self.visit(expr.expr, scope)
        cond = self.visit(expr.cond, scope) if expr.cond is not None else None
        scope.slots = saved

        def gen(st, L, depth, out):
            slot, it = loops[depth]
            last = depth == len(loops) - 1
            for value in tuple(it(st, L)):
                L[slot] = value
                if not last:
                    gen(st, L, depth + 1, out)
                elif cond is None or cond(st, L):
                    out.append(body(st, L))
            return out

        if len(loops) == 1:
            slot, it = loops[0]
            if cond is None:
                def single(st, L):
                    out = []
                    for value in tuple(it(st, L)):
                        L[slot] = value
                        out.append(body(st, L))
                    return out
                return single

            def single_where(st, L):
                out = []
                for value in tuple(it(st, L)):
                    L[slot] = value
                    if cond(st, L):
                        out.append(body(st, L))
                return out
            return single_where
        return lambda st, L: gen(st, L, 0, [])

    @visit.register
    def _(self, expr: n.Arith, scope):
        op = _ARITH[expr.op]
        left, right = self.visit(expr.left, scope), self.visit(expr.right, scope)
        if expr.op in ("//", "%"):
            def divide(st, L):
                b = right(st, L)
                if b == 0:
                    raise RulesRuntimeError("division by zero", expr.span)
                return op(left(st, L), b)
            return divide
        if expr.op in ("+", "-", "*") and self.is_int(expr.left, scope) and self.is_int(expr.right, scope):
            if expr.op == "+":
                return lambda st, L: left(st, L) + right(st, L)
            if expr.op == "-":
                return lambda st, L: left(st, L) - right(st, L)
            return lambda st, L: left(st, L) * right(st, L)
        if expr.op == "+":
            def add(st, L):
                a, b = left(st, L), right(st, L)
                if isinstance(a, list) or isinstance(b, list):
                    return list(a) + list(b)
                return a + b
            return add
        return lambda st, L: op(left(st, L), right(st, L))

    @visit.register
    def _(self, expr: n.Neg, scope):
        operand = self.visit(expr.operand, scope)
        return lambda st, L: -operand(st, L)

    @visit.register
    def _(self, expr: n.Compare, scope):
        op = _COMPARE[expr.op]
        left, right = self.visit(expr.left, scope), self.visit(expr.right, scope)
        if expr.op in ("==", "!="):
            if expr.op == "==":
                return lambda st, L: left(st, L) == right(st, L)
            return lambda st, L: left(st, L) != right(st, L)
        if self.is_int(expr.left, scope) and self.is_int(expr.right, scope):
            return {
                "<": lambda st, L: left(st, L) < right(st, L),
                "<=": lambda st, L: left(st, L) <= right(st, L),
                ">": lambda st, L: left(st, L) > right(st, L),
                ">=": lambda st, L: left(st, L) >= right(st, L),
            }[expr.op]

        def ordered(st, L):
            a, b = left(st, L), right(st, L)
            if a is None or b is None:
                raise RulesRuntimeError(f"cannot compare {render(a)} {expr.op} {render(b)}", expr.span)
            return op(a, b)

        return ordered

    @visit.register
    def _(self, expr: n.Contains, scope):
        item, container = self.visit(expr.item, scope), self.visit(expr.container, scope)
        negate = expr.negate
        if isinstance(expr.container, n.Field) and self._field_type(expr.container.name) == "effects":
            if isinstance(expr.item, n.Name) and expr.item.name in self.model.effects and expr.item.name not in scope.slots:
                name = expr.item.name  # `draw in c.effects` names the effect, even if a counter shares the name
                item = lambda st, L: name  # noqa: E731
            def shows(st, L):
                name = item(st, L)
                return any(name in alts for alts in container(st, L)) != negate
            return shows
        return lambda st, L: (item(st, L) in container(st, L)) != negate

    @visit.register
    def _(self, expr: n.IsKind, scope):
        operand = self.visit(expr.operand, scope)
        kinds, kind = self.p.card_kinds, expr.kind

        def is_kind(st, L):
            card = operand(st, L)
            return card is not None and kinds[card] == kind

        return is_kind

    @visit.register
    def _(self, expr: n.BoolOp, scope):
        ops = [self.visit(o, scope) for o in expr.operands]
        if expr.op == "and":
            if len(ops) == 2:
                a, b = ops
                return lambda st, L: a(st, L) and b(st, L)
            return lambda st, L: all(o(st, L) for o in ops)
        if len(ops) == 2:
            a, b = ops
            return lambda st, L: a(st, L) or b(st, L)
        return lambda st, L: any(o(st, L) for o in ops)

    @visit.register
    def _(self, expr: n.Conditional, scope):
        cond, then, otherwise = (self.visit(e, scope) for e in (expr.cond, expr.then, expr.otherwise))
        return lambda st, L: then(st, L) if cond(st, L) else otherwise(st, L)

    @visit.register
    def _(self, expr: n.Not, scope):
        operand = self.visit(expr.operand, scope)
        return lambda st, L: not operand(st, L)

    @visit.register
    def _(self, expr: n.Aggregate, scope):
        it = self.visit(expr.iterable, scope)
        saved = dict(scope.slots)
        slot = scope.bind(expr.var)
        scope.kinds[expr.var] = self.elem_kind(expr.iterable, scope)
        body = self.visit(expr.expr, scope) if expr.expr is not None else None
        cond = self.visit(expr.cond, scope) if expr.cond is not None else None
        scope.slots = saved
        op = expr.op

        if op == "count":
            if cond is None:
                return lambda st, L: len(it(st, L))

            def count(st, L):
                total = 0
                for value in tuple(it(st, L)):
                    L[slot] = value
                    if cond(st, L):
                        total += 1
                return total
            return count
        if op == "any":
            def any_(st, L):
                for value in tuple(it(st, L)):
                    L[slot] = value
                    if cond is None or cond(st, L):
                        return True
                return False
            return any_
        if op == "every":
            return lambda st, L: _every(it, slot, cond, st, L)

        def collect(st, L):
            found = []
            for value in tuple(it(st, L)):
                L[slot] = value
                if cond is None or cond(st, L):
                    found.append(body(st, L))
            return found

        if op == "sum":
            return lambda st, L: sum(collect(st, L))
        pick = max if op == "highest" else min

        def extreme(st, L):
            found = collect(st, L)
            return pick(found) if found else None

        return extreme

    @visit.register
    def _(self, expr: n.Rank, scope):
        value = self.visit(expr.value, scope)
        awards = self.visit(expr.awards, scope)
        at_least = self.visit(expr.at_least, scope) if expr.at_least is not None else None
        share = expr.ties == "share"

        def rank(st, L):
            me = st.me
            table = awards(st, L)
            minimum = at_least(st, L) if at_least is not None else None
            values = []
            try:
                for p in range(st.n):
                    st.me = p
                    values.append(value(st, L))
            finally:
                st.me = me
            mine = values[me]
            if minimum is not None and mine < minimum:
                return 0
            ranked = [v for v in values if minimum is None or v >= minimum]
            place = sum(1 for v in ranked if v > mine)
            tied = sum(1 for v in ranked if v == mine)
            if not share:
                return table[place] if place < len(table) else 0
            total = sum(table[place:place + tied])
            return total // tied if total % tied == 0 else Fraction(total, tied)

        return rank


def _every(it, slot, cond, st, L):
    for value in tuple(it(st, L)):
        L[slot] = value
        if cond is not None and not cond(st, L):
            return False
    return True


_BUILTIN_NAMES = {
    "me": lambda st, L: st.me,
    "players": lambda st, L: st.n,
    "seats": lambda st, L: list(range(st.n)),
    "others": lambda st, L: [p for p in range(st.n) if p != st.me],
    "first_player": lambda st, L: st.first,
    "round": lambda st, L: st.round,
    "turn_number": lambda st, L: st.turns,
}
BUILTIN_NAMES = frozenset(_BUILTIN_NAMES)
