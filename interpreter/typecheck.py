"""Type checks: statements and operators given values of the wrong kind.

Runs after names are resolved (so every name here is known); reports, for
example, `gain "two" gold`, `move 3 to hand`, `"a" + 1` or `size(3)`.
"""
from __future__ import annotations

from functools import singledispatchmethod

from .errors import Diagnostic
from .language import nodes as n
from .types import BOOL, CARD, CARDS, EFFECTS, LIST, MAP, NONE, NUMBER, PLAYER, PLAYERS, TEXT, Types

_ARG_TYPES = {  # built-in -> accepted types of each argument (None = anything)
    "size": ({CARDS, PLAYERS, LIST, MAP, TEXT},),
    "slot": ({CARD},),
    "host": ({CARD},),
    "owner": ({CARD},),
    "top": ({CARDS, LIST},),
    "bottom": ({CARDS, LIST},),
    "position": ({PLAYER, NUMBER},),
    "next_player": ({PLAYER, NUMBER},),
    "abs": ({NUMBER},),
    "distance": ({CARD}, {CARD}),
    "has": ({CARD}, {TEXT}),
}
_ARTICLE = {NUMBER: "a number", TEXT: "text", BOOL: "yes/no", CARD: "a card", CARDS: "cards", PLAYER: "a player",
            PLAYERS: "players", LIST: "a list", MAP: "a map", EFFECTS: "effects", NONE: "none"}


def describe(kind) -> str:
    return _ARTICLE.get(kind, str(kind))


def type_problems(model, db, params) -> list[Diagnostic]:
    return TypeCheck(model, db, params).run()


class TypeCheck:
    def __init__(self, model, db, params):
        self.m = model
        self.types = Types(model, db, params)
        self.problems: list = []

    def run(self) -> list:
        m = self.m
        for decl in m.defines.values():
            self.expr(decl.expr, {p: None for p in decl.params})
        for decl in m.effects.values():
            self.body(decl.body, {})
        for decl in m.procedures.values():
            self.body(decl.body, {p: None for p in decl.params})
        for decl in m.actions.values():
            self.expr(decl.when, {})
            self.body(decl.body, {})
        for decl in list(m.hooks.values()) + list(m.empty_hooks.values()):
            self.body(decl.body, {})
        for decl in (m.setup, m.turn):
            if decl is not None:
                self.body(decl.body, {})
        for term in m.score_terms.values():
            self.expect(term.expr, {}, {NUMBER}, "a score")
        for decl in m.boards.values():
            self.expect(decl.adjacent, {decl.a: CARD, decl.b: CARD}, {BOOL}, f"the adjacency of board '{decl.name}'")
        return self.problems

    def error(self, message, span, hint=None):
        self.problems.append(Diagnostic("error", message, span, hint))

    def expect(self, expr, scope, allowed, what):
        self.expr(expr, scope)
        kind = self.types.of(expr, scope)
        if kind is not None and kind not in allowed:
            names = sorted(describe(a) for a in allowed)
            wanted = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            self.error(f"{what} must be {wanted}, not {describe(kind)}", expr.span)

    def body(self, stmts, scope):
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, scope)

    @singledispatchmethod
    def stmt(self, s, scope):
        for value in n.children(s):
            if isinstance(value, n.Expr):
                self.expr(value, scope)

    @stmt.register(n.Gain)
    @stmt.register(n.Pay)
    @stmt.register(n.Lose)
    def _(self, s, scope):
        self.expect(s.amount, scope, {NUMBER}, f"the amount to {type(s).__name__.lower()}")
        self.owner(s.target, scope)

    @stmt.register(n.SetCounter)
    def _(self, s, scope):
        if s.target.name == "first_player" and s.target.owner is None:
            self.expect(s.value, scope, {PLAYER, NUMBER}, "the first player")
            return
        self.expect(s.value, scope, {NUMBER}, f"the value of '{s.target.name}'")
        self.owner(s.target, scope)

    @stmt.register(n.Move)
    def _(self, s, scope):
        self.expect(s.cards, scope, {CARD, CARDS, LIST}, "what is moved")
        self.owner(s.dest, scope)

    @stmt.register(n.Deal)
    def _(self, s, scope):
        self.expect(s.count, scope, {NUMBER}, "the number of cards to deal")

    @stmt.register(n.EndGame)
    def _(self, s, scope):
        if s.after_rounds is not None:
            self.expect(s.after_rounds, scope, {NUMBER}, "the number of rounds")

    @stmt.register(n.RepeatTimes)
    def _(self, s, scope):
        self.expect(s.count, scope, {NUMBER}, "the number of repeats")
        self.body(s.body, scope)

    @stmt.register(n.Let)
    def _(self, s, scope):
        self.expr(s.value, scope)
        scope[s.name] = self.types.of(s.value, scope)

    @stmt.register(n.If)
    def _(self, s, scope):
        for cond, body in s.branches:
            self.expr(cond, scope)
            self.body(body, scope)
        self.body(s.else_body, scope)

    @stmt.register(n.ForEach)
    @stmt.register(n.Choose)
    @stmt.register(n.PickRandom)
    def _(self, s, scope):
        self.expect(s.iterable, scope, {CARDS, PLAYERS, LIST}, "what is chosen from" if not isinstance(s, n.ForEach) else "what `for each` goes through")
        inner = {**scope, s.var: self.types.element(s.iterable, scope)}
        self.expr(getattr(s, "cond", None), inner)
        self.expr(getattr(s, "label", None), inner)
        self.body(s.body, inner)
        self.body(getattr(s, "else_body", ()), scope)

    @stmt.register(n.ActAs)
    def _(self, s, scope):
        self.expect(s.player, scope, {PLAYER, NUMBER}, "the player of `as`")
        self.body(s.body, scope)

    @stmt.register(n.RepeatWhile)
    def _(self, s, scope):
        self.expr(s.cond, scope)
        self.body(s.body, scope)

    @stmt.register(n.May)
    def _(self, s, scope):
        self.body(s.body, scope)
        self.body(s.else_body, scope)

    def owner(self, ref, scope):
        if ref.owner is None:
            return
        decl = self.m.counters.get(ref.name) or self.m.zones.get(ref.name)
        if decl is None:
            return
        wanted = {CARD} if decl.scope == "card" else {PLAYER, NUMBER}
        self.expect(ref.owner, scope, wanted, f"the owner of '{ref.name}'")

    # -- expressions
    def expr(self, e, scope):
        if e is None:
            return
        if isinstance(e, n.Arith):
            self.expr(e.left, scope)
            self.expr(e.right, scope)
            left, right = self.types.of(e.left, scope), self.types.of(e.right, scope)
            lists = {CARDS, PLAYERS, LIST}
            if e.op == "+" and (left in lists or right in lists):
                if left not in lists | {None} or right not in lists | {None}:
                    self.error(f"cannot add {describe(left)} and {describe(right)}", e.span)
                return
            for side, kind in ((e.left, left), (e.right, right)):
                if kind is not None and kind != NUMBER:
                    self.error(f"'{e.op}' needs numbers, not {describe(kind)}", side.span)
            return
        if isinstance(e, n.Field):
            self.expr(e.obj, scope)
            kind = self.types.of(e.obj, scope)
            if kind is not None and kind != CARD:
                self.error(f"only a card has fields; this is {describe(kind)}", e.obj.span, f"'.{e.name}' reads a card's field")
            return
        if isinstance(e, n.Call) and e.name in _ARG_TYPES and not e.name in self.m.defines:
            for arg, allowed in zip(e.args, _ARG_TYPES[e.name]):
                self.expect(arg, scope, allowed, f"the argument of {e.name}()")
            return
        if isinstance(e, n.Aggregate):
            self.expect(e.iterable, scope, {CARDS, PLAYERS, LIST}, f"what `{e.op}` goes through")
            inner = {**scope, e.var: self.types.element(e.iterable, scope)}
            self.expr(e.expr, inner)
            self.expr(e.cond, inner)
            return
        if isinstance(e, n.Comprehension):
            inner = dict(scope)
            for var, iterable in e.loops:
                self.expr(iterable, inner)
                inner[var] = self.types.element(iterable, inner)
            self.expr(e.expr, inner)
            self.expr(e.cond, inner)
            return
        for child in n.children(e):
            if isinstance(child, n.Expr):
                self.expr(child, scope)
