"""Type checks: statements and operators given values of the wrong kind.

A pure pass that runs after names are resolved (so every name here is
known); it reports, for example, `gain "two" gold`, `move 3 to hand`,
`"a" + 1` or `size(3)`. What each built-in accepts comes from its registry
entry.
"""
from __future__ import annotations

from ..errors import Diagnostic
from . import nodes as n
from .builtin_events import EVENTS
from .builtins import FUNCTIONS, VALUES
from .names import resolve_owned
from .types import Types
from .value_types import BOOL, CARD, CARDS, LIST, LISTS, NONE, NUMBER, PLAYER, PLAYERS, TEXT, describe, picks_type
from .visitor import Visitor


def type_problems(model, db, params, card_fields=None) -> list[Diagnostic]:
    return TypeCheck(model, typed(model, db, params, card_fields)).run()


class TypeCheck(Visitor):
    """Reports the statements and operators given values of the wrong kind;
    `types` knows the parameters' types (see param_types)."""

    def __init__(self, model, types: Types):
        self.model = model
        self.types = types
        self.problems: list = []
        self.origins: dict = {}  # parameter -> (its type, where a value of that type was given), in the body checked

    def run(self) -> list:
        m, params = self.model, self.parameters
        for decl in m.defines.values():
            self.expr(decl.expr, params("define", decl))
        self.origins = {}
        for decl in m.effects.values():
            self.condition(decl.when, {}, f"the condition of effect '{decl.name}'")
            self.body(decl.body, {})
        for decl in m.procedures.values():
            self.body(decl.body, params("procedure", decl))
        for decl in m.reactions.values():
            scope = params("reaction", decl)
            self.condition(decl.when, scope, f"the condition of reaction '{decl.name}'")
            self.body(decl.body, scope)
        self.origins = {}
        for decl in m.actions.values():
            self.condition(decl.when, {}, f"the condition of action '{decl.name}'")
            self.body(decl.body, {})
        for decl in list(m.hooks.values()) + list(m.empty_hooks.values()):
            self.body(decl.body, {})
        for decl in (m.setup, m.turn, *m.phases.values()):
            if decl is not None:
                self.body(decl.body, {})
        for decl in m.phases.values():
            if decl.order is not None and decl.order.by == "from":
                self.expect(decl.order.expr, {}, {PLAYER, NUMBER}, f"the player the order of phase '{decl.name}' starts from")
            elif decl.order is not None and decl.order.by == "by":
                self.expect(decl.order.expr, {}, {NUMBER}, f"the key of the order of phase '{decl.name}'")
        for term in m.score_terms.values():
            self.expect(term.expr, {}, {NUMBER}, "a score")
        if m.turn_order is not None:
            self.turn_order(m.turn_order.seats)
        if m.cooperative is not None:
            self.expect(m.cooperative.best, {}, {NUMBER}, "the best shared score of `cooperative score`")
        if m.teams is not None:
            self.expect(m.teams.team, {}, {NUMBER, TEXT, BOOL, PLAYER}, "a player's team in `teams by`")
        for decl in m.boards.values():
            self.expect(decl.adjacent, {decl.a: CARD, decl.b: CARD}, {BOOL}, f"the adjacency of board '{decl.name}'")
        for decl in m.markers.values():
            self.expect(decl.iterable, {}, {CARDS, PLAYERS, LIST}, f"the list of marker '{decl.name}'")
            scope = {decl.var: self.types.element(decl.iterable, {})}
            self.expect(decl.space, scope, {CARD}, f"the space of marker '{decl.name}'")
            self.expr(decl.label, scope)
        return self.problems

    def error(self, message, span, hint=None):
        self.problems.append(Diagnostic("error", message, span, hint))

    def parameters(self, kind, decl) -> dict:
        """The scope of a procedure's, reaction's or definition's body; its
        parameters' origins serve the hints while the body is checked."""
        self.origins = self.types.origins.get((kind, decl.name), {})
        return self.types.parameters(kind, decl)

    def origin(self, expr, kind) -> str | None:
        """Why a parameter has the type it has: the values given to it."""
        kind_given, span = self.origins.get(expr.name, (None, None)) if isinstance(expr, n.Name) else (None, None)
        if kind_given != kind:  # not the parameter, or a local variable in its place
            return None
        return (f"'{expr.name}' is {describe(kind)} because every value given to it is, "
                f"as at line {span.line}")

    def expect(self, expr, scope, allowed, what):
        self.expr(expr, scope)
        kind = self.types.of(expr, scope)
        if kind is not None and kind not in allowed:
            names = sorted(describe(a) for a in allowed)
            wanted = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
            self.error(f"{what} must be {wanted}, not {describe(kind)}", expr.span, self.origin(expr, kind))

    def condition(self, expr, scope, what="a condition"):
        """A condition must be yes or no; a number or a list is not read as one."""
        if expr is None:
            return
        self.expr(expr, scope)
        kind = self.types.of(expr, scope)
        if kind is None or kind == BOOL:
            return
        hint = "compare it, e.g. `size(hand) > 0`"
        if isinstance(expr, n.Aggregate) and expr.op in ("count", "sum", "highest", "lowest") and expr.cond is not None:
            hint = (f"the `where` of `{expr.op}` takes everything after it: to compare the {expr.op}, put it in "
                    f"brackets, e.g. `({expr.op} ... where ...) == 1`")
        self.error(f"{what} must be yes or no, not {describe(kind)}", expr.span, hint)

    def turn_order(self, expr):
        """`turn order EXPR` lists players (or seat numbers), not names."""
        self.expr(expr, {})
        kind = self.types.of(expr, {})
        if kind is not None and kind not in (PLAYERS, LIST):
            self.error(f"the turn order must be a list of players, not {describe(kind)}", expr.span,
                       "e.g. `turn order [next_player(first_player), first_player]`")
        elif isinstance(expr, n.ListLit):
            for item in expr.items:
                kind = self.types.of(item, {})
                if kind is not None and kind not in (PLAYER, NUMBER):
                    self.error(f"the turn order lists players, not {describe(kind)}", item.span,
                               "name players as the rules see them (`seats`, `first_player`, `next_player(p)`) or by seat number from 0")
                    return

    def body(self, stmts, scope):
        scope = dict(scope)
        for s in stmts:
            self.visit(s, scope)

    def expr(self, e, scope):
        if e is not None:
            self.visit(e, scope)

    def generic_visit(self, node, scope):
        for child in n.children(node):
            if isinstance(child, n.Expr):
                self.expr(child, scope)

    # -- statements
    def visit_Gain(self, s, scope):
        self.expect(s.amount, scope, {NUMBER}, f"the amount to {type(s).__name__.lower()}")
        self.owner(s.target, scope)
        decl = self.model.counters.get(s.target.name)
        if decl is not None and decl.holds_player:
            self.error(f"counter '{s.target.name}' holds a player: it cannot {type(s).__name__.lower()}",
                       s.span, f"write `set {s.target.name} to PLAYER`")

    visit_Pay = visit_Lose = visit_Gain

    def visit_SetCounter(self, s, scope):
        builtin = VALUES.get(s.target.name)
        if builtin is not None and builtin.settable and s.target.owner is None:
            self.expect(s.value, scope, {builtin.returns, NUMBER}, f"the {s.target.name.replace('_', ' ')}")
            return
        decl = self.model.counters.get(s.target.name)
        wanted = {PLAYER, NONE} if decl is not None and decl.holds_player else {NUMBER}
        self.expect(s.value, scope, wanted, f"the value of '{s.target.name}'")
        self.owner(s.target, scope)

    def visit_Move(self, s, scope):
        if s.at is not None:
            self.expect(s.cards, scope, {CARD}, "the card moved to a place")
            self.expect(s.at, scope, {NUMBER}, "the place (counted from the top)")
        else:
            self.expect(s.cards, scope, {CARD, CARDS, LIST}, "what is moved")
        self.owner(s.dest, scope)

    def visit_LookAt(self, s, scope):
        self.expect(s.cards, scope, {CARD, CARDS, LIST}, "what is looked at")

    def visit_Forget(self, s, scope):
        self.expect(s.cards, scope, {CARD, CARDS, LIST}, "what is forgotten")

    def visit_Reorder(self, s, scope):
        self.expect(s.cards, scope, {CARDS, LIST}, "the cards put back in order")

    def visit_Reveal(self, s, scope):
        self.expect(s.cards, scope, {CARD, CARDS, LIST}, "what is revealed")
        self.expect(s.to, scope, {PLAYER, PLAYERS, NUMBER, LIST}, "whom it is revealed to")

    def visit_Deal(self, s, scope):
        self.expect(s.count, scope, {NUMBER}, "the number of cards to deal")

    def visit_EndGame(self, s, scope):
        if s.after_rounds is not None:
            self.expect(s.after_rounds, scope, {NUMBER}, "the number of rounds")

    def visit_RepeatTimes(self, s, scope):
        self.expect(s.count, scope, {NUMBER}, "the number of repeats")
        self.body(s.body, scope)

    def visit_Let(self, s, scope):
        self.expr(s.value, scope)
        scope[s.name] = self.types.of(s.value, scope)

    def visit_If(self, s, scope):
        for cond, body in s.branches:
            self.condition(cond, scope)
            self.body(body, scope)
        self.body(s.else_body, scope)

    def visit_ForEach(self, s, scope):
        what = "what `for each` goes through" if isinstance(s, n.ForEach) else "what is chosen from"
        self.expect(s.iterable, scope, LISTS, what)
        inner = {**scope, s.var: self.types.element(s.iterable, scope)}
        self.condition(getattr(s, "cond", None), inner, "a `where` condition")
        self.expr(getattr(s, "label", None), inner)
        count = getattr(s, "count", None)
        if count is not None:  # several picks: the label reads one, the body the list of them
            self.expect(count, scope, {NUMBER}, "how many are picked")
            inner = {**scope, s.var: picks_type(self.types.element(s.iterable, scope))}
        self.body(s.body, inner)
        self.body(getattr(s, "else_body", ()), scope)

    visit_Choose = visit_PickRandom = visit_ForEach

    def visit_ActAs(self, s, scope):
        self.expect(s.player, scope, {PLAYER, NUMBER}, "the player of `as`")
        self.body(s.body, scope)

    def visit_RepeatWhile(self, s, scope):
        self.condition(s.cond, scope)
        self.body(s.body, scope)

    def visit_May(self, s, scope):
        self.body(s.body, scope)
        self.body(s.else_body, scope)

    def owner(self, ref, scope):
        if ref.owner is None:
            return
        namespace = resolve_owned(ref.name, self.model)
        if namespace is None:
            return
        decl = getattr(self.model, namespace)[ref.name]
        wanted = {CARD} if decl.scope == "card" else {PLAYER, NUMBER}
        self.expect(ref.owner, scope, wanted, f"the owner of '{ref.name}'")

    # -- expressions
    def visit_Arith(self, e, scope):
        self.expr(e.left, scope)
        self.expr(e.right, scope)
        left, right = self.types.of(e.left, scope), self.types.of(e.right, scope)
        if e.op == "+" and (left in LISTS or right in LISTS):
            if left not in LISTS | {None} or right not in LISTS | {None}:
                self.error(f"cannot add {describe(left)} and {describe(right)}", e.span)
            return
        if e.op == "+" and TEXT in (left, right):  # texts join
            if left not in (TEXT, None) or right not in (TEXT, None):
                self.error(f"cannot add {describe(left)} and {describe(right)}", e.span,
                           "to put a number in a text, write it in braces: \"{n} points\"")
            return
        for side, kind in ((e.left, left), (e.right, right)):
            if kind is not None and kind not in (NUMBER, PLAYER):  # a player is its seat number
                self.error(f"'{e.op}' needs numbers, not {describe(kind)}", side.span)

    def visit_Field(self, e, scope):
        self.expr(e.obj, scope)
        kind = self.types.of(e.obj, scope)
        if kind is not None and kind != CARD:
            self.error(f"only a card has fields; this is {describe(kind)}", e.obj.span,
                       self.origin(e.obj, kind) or f"'.{e.name}' reads a card's field")

    def visit_Call(self, e, scope):
        builtin = FUNCTIONS.get(e.name)
        if builtin is None or e.name in self.model.defines:
            self.generic_visit(e, scope)
            return
        for i, arg in enumerate(e.args):
            accepts = builtin.accepts[min(i, len(builtin.accepts) - 1)]
            if accepts:
                self.expect(arg, scope, accepts, f"the argument of {e.name}()")
            else:
                self.expr(arg, scope)

    def visit_Aggregate(self, e, scope):
        self.expect(e.iterable, scope, LISTS, f"what `{e.op}` goes through")
        inner = {**scope, e.var: self.types.element(e.iterable, scope)}
        self.expr(e.expr, inner)
        self.condition(e.cond, inner, "a `where` condition")

    def visit_Range(self, e, scope):
        self.expect(e.low, scope, {NUMBER}, "the start of a range")
        self.expect(e.high, scope, {NUMBER}, "the end of a range")

    def visit_Comprehension(self, e, scope):
        inner = dict(scope)
        for var, iterable in e.loops:
            self.expr(iterable, inner)
            inner[var] = self.types.element(iterable, inner)
        self.expr(e.expr, inner)
        self.condition(e.cond, inner, "a `where` condition")


# ---------------------------------------------------------------- parameter types
# A parameter has the type every value given to it has: the arguments of the
# calls of its procedure or definition, or of the `announce`s its reaction
# answers. Until some value reaches it, it is UNSEEN (a procedure passing its
# own parameter on gives nothing new); values of different types leave it
# untyped (None), as a parameter was before it could be inferred.
UNSEEN = "unseen"
# Each pass walks every rule and carries a type one call further. A value
# passed on through more calls than this (or a file made to need thousands of
# passes) leaves every parameter untyped, as they were before inference.
_PASSES = 12


def typed(model, db, params, card_fields=None) -> Types:
    """The model's types, its parameters typed as the values given to them
    agree: repeated until no parameter changes, for procedures that call
    procedures (if that takes more than _PASSES passes, every parameter
    stays untyped)."""
    types = Types(model, db, params)
    declared = {(kind, decl.name): decl.params for kind, decls in
                (("procedure", model.procedures), ("reaction", model.reactions), ("define", model.defines))
                for decl in decls.values() if decl.params}
    current = {key: {p: UNSEEN for p in names} for key, names in declared.items()}
    for _ in range(min(sum(len(names) for names in declared.values()) + 2, _PASSES)):
        types.set_parameters(current)
        given = Suppliers(model, types).collect(card_fields)
        agreed = {key: {p: _agreed(given.get((key, i), {})) for i, p in enumerate(names)}
                  for key, names in declared.items()}
        if agreed == current:
            break
        current = agreed
    else:
        current, given = {}, {}
    known = {key: {p: t for p, t in params.items() if t not in (UNSEEN, None)} for key, params in current.items()}
    origins = {key: {p: (t, given[(key, declared[key].index(p))][t]) for p, t in params.items()}
               for key, params in known.items()}
    types.set_parameters(known, origins)
    return types


def _agreed(kinds: dict) -> str | None:
    kinds = set(kinds) - {UNSEEN}
    return kinds.pop() if len(kinds) == 1 else UNSEEN if not kinds else None


class Suppliers(TypeCheck):
    """Walks the rules as the type check does, noting the type of each value
    given to a parameter instead of reporting problems."""

    def __init__(self, model, types: Types):
        super().__init__(model, types)
        self.given: dict = {}  # ((kind, name), index) -> {type of a value given: where the first was given}

    def collect(self, card_fields=None) -> dict:
        """The types given to each parameter, from everywhere an expression
        may be written: the rules, their labels and the cards' fields."""
        m = self.model
        self.run()
        for decl in m.actions.values():
            self.expr(decl.label, {})
        for decl in m.reactions.values():
            self.expr(decl.label, self.types.parameters("reaction", decl))
            event = EVENTS.get(decl.event)
            if event is not None:  # the engine's window gives `me`, whose turn it is, for each value
                self.supply("reaction", decl.name, [n.Name("me", span=decl.span)] * len(event.params), {})
        for expr in m.tiebreak.exprs if m.tiebreak is not None else ():
            self.expr(expr, {})
        for decl in m.shows.values():
            self.expr(decl.template, {"card": CARD})
        for values in (card_fields or {}).values():
            for value in values:
                for expr in (value.values() if isinstance(value, dict) else (value,)):
                    if isinstance(expr, n.Expr):
                        self.expr(expr, {})
        return self.given

    def error(self, message, span, hint=None):
        pass

    def visit(self, node, scope):
        if isinstance(node, n.Stmt):  # the parts the type check has nothing to say about
            for child in n.children(node):
                if isinstance(child, n.Ref) and child.owner is not None:
                    self.expr(child.owner, scope)
            if isinstance(node, n.May):
                self.expr(node.label, scope)
                if node.else_label is not None:
                    self.expr(node.else_label, scope)
        return super().visit(node, scope)

    def supply(self, kind, name, args, scope):
        for i, arg in enumerate(args):
            self.given.setdefault(((kind, name), i), {}).setdefault(self.types.of(arg, scope), arg.span)

    def visit_CallStmt(self, s, scope):
        if s.name in self.model.procedures:
            self.supply("procedure", s.name, s.args, scope)
        self.generic_visit(s, scope)

    def visit_Announce(self, s, scope):
        for decl in self.model.reactions_to(s.event):
            self.supply("reaction", decl.name, s.args, scope)
        self.generic_visit(s, scope)

    def visit_Call(self, e, scope):
        if e.name in self.model.defines:
            self.supply("define", e.name, e.args, scope)
        super().visit_Call(e, scope)
