"""The checker: resolve every name, arity and card reference before anything runs.

A pure pass over the rules model and the card data that returns all the
problems it finds (errors and warnings); nothing is compiled if one is an error.
Here: the rules' bodies, statement by statement, and their expressions; the
declarations and the cards are declcheck.py's.
"""
from __future__ import annotations

from .. import limits
from ..errors import NO_SPAN, Diagnostic, RulesError, did_you_mean
from . import nodes as n
from .builtins import FUNCTIONS, VALUES
from .declcheck import DeclarationChecks
from .flowcheck import FlowChecks
from .names import names_in_scope, resolve_name, resolve_owned
from .letcheck import LostLets
from .nothingcheck import NothingChecks
from .params import allowed_values
from .facecheck import face_leaks
from .sizecheck import size_leaks
from .typecheck import typed
from .visitor import Visitor


def check(model, db, params: dict, card_fields: dict) -> list[Diagnostic]:
    problems = Checker(model, db, params, card_fields).run()
    if any(p.severity == "error" for p in problems):
        return problems + size_leaks(model)
    return problems + size_leaks(model) + face_leaks(model, typed(model, db, params, card_fields))


class Checker(DeclarationChecks, FlowChecks, NothingChecks, LostLets, Visitor):
    def __init__(self, model, db, params, card_fields):
        self.model = model
        self.db = db
        self.params = params
        self.card_fields = card_fields
        self.problems: list[Diagnostic] = []
        self.card_field_names = db.field_names() | {f for k in model.kinds.values() for f, _ in k.fields}
        self.effect_fields = {f for k in model.kinds.values() for f, t in k.fields if t == "effects"}
        self.loop_depth = 0
        self.acting: list = []  # the `as` blocks and simultaneous choices around the statement checked

    # -- reporting
    def error(self, message, span, hint=None):
        self.problems.append(Diagnostic("error", message, span, hint))

    def warning(self, message, span, hint=None):
        self.problems.append(Diagnostic("warning", message, span, hint))

    def run(self) -> list[Diagnostic]:
        m = self.model
        for what, decl in (("game", m.game), ("players", m.players), ("setup", m.setup), ("turn", m.turn)):
            if decl is None and not (what == "turn" and m.phases):
                self.error(f"the rules have no '{what}' declaration", _first_span(m))
        if not m.score_terms:
            self.error("the rules have no 'score' block", _first_span(m))
        if m.players and not 1 <= m.players.minimum <= m.players.maximum:
            self.error(f"players {m.players.minimum}..{m.players.maximum} is not a valid range", m.players.span)
        elif m.players and m.players.maximum > limits.PLAYERS:
            self.error(f"players {m.players.minimum}..{m.players.maximum}: a game may have at most {limits.PLAYERS} "
                       "players (the limit)", m.players.span)
        self.check_names_unique()
        self.check_declarations()
        self.check_bodies()
        self.check_cards()
        self.check_nothing()
        self.check_lost_lets()
        return self.problems

    def check_bodies(self):
        self.check_rule_bodies()
        self.check_reactions_bodies()
        self.check_scoring_and_shows()
        self.check_objectives()

    def check_rule_bodies(self):
        """The blocks of definitions, effects, procedures, actions, hooks, setup, turn and phases."""
        m = self.model
        for decl in m.defines.values():
            self.expr(decl.expr, set(decl.params))
        for decl in m.effects.values():
            self.expr(decl.when, set())
            self.body(decl.body, set())
        for decl in m.procedures.values():
            self.body(decl.body, set(decl.params))
        for decl in m.actions.values():
            self.expr(decl.label, set())
            if decl.when is not None:
                self.expr(decl.when, set())
            self.body(decl.body, set())
        for decl in m.hooks.values():
            self.body(decl.body, set())
        for decl in m.empty_hooks.values():
            self.body(decl.body, set())
            self.no_decisions(decl)
        if m.setup:
            self.body(m.setup.body, set())
        if m.turn:
            self.body(m.turn.body, set())
        for decl in m.phases.values():
            self.expr(decl.order.expr if decl.order is not None else None, set())
            self.body(decl.body, set())
        self.check_phases()

    def check_reactions_bodies(self):
        for decl in self.model.reactions.values():
            self.expr(decl.label, set(decl.params))
            if decl.when is not None:
                self.expr(decl.when, set(decl.params))
            self.body(decl.body, set(decl.params))
        self.check_reactions()

    def body(self, stmts, scope: set):
        scope = set(scope)
        for s in stmts:
            self.visit(s, scope)

    def generic_visit(self, node, scope):
        """Expressions without rules of their own: check what is inside. A
        statement holding anything (an expression, a block) needs its own
        rule: a new kind must say how it is checked."""
        if isinstance(node, n.Stmt) and any(True for _ in n.children(node)):
            raise TypeError(f"{type(self).__name__} has no rule for the statement {type(node).__name__}")
        if isinstance(node, n.Expr):
            for child in n.children(node):
                self.expr(child, scope)

    def visit_Gain(self, s, scope):
        self.expr(s.amount, scope)
        self.counter_ref(s.target, scope)

    visit_Pay = visit_Lose = visit_Gain

    def visit_SetCounter(self, s, scope):
        self.expr(s.value, scope)
        builtin = VALUES.get(s.target.name)
        if builtin is not None and builtin.settable and s.target.owner is None:
            return
        self.counter_ref(s.target, scope)

    def visit_Move(self, s, scope):
        self.expr(s.cards, scope)
        self.zone_ref(s.dest, scope)
        if s.at is not None:
            self.expr(s.at, scope)

    def visit_Deal(self, s, scope):
        self.expr(s.count, scope)
        self.zone_ref(s.source, scope)
        self.zone_ref(s.dest, scope)

    def visit_Shuffle(self, s, scope):
        self.zone_ref(s.zone, scope)

    def visit_LookAt(self, s, scope):
        self.expr(s.cards, scope)

    visit_Reorder = visit_Forget = visit_LookAt

    def visit_Reveal(self, s, scope):
        self.expr(s.cards, scope)
        self.expr(s.to, scope)

    def visit_Tell(self, s, scope):
        self.expr(s.text, scope)

    def visit_Slide(self, s, scope):
        self.zone_ref(s.zone, scope, slotted=True)

    def visit_Refill(self, s, scope):
        self.zone_ref(s.zone, scope, slotted=True)
        self.zone_ref(s.source, scope)

    def visit_CallStmt(self, s, scope):
        for a in s.args:
            self.expr(a, scope)
        target = self.model.callables().get(s.name)
        if target is None:
            if s.name in self.model.defines or s.name in FUNCTIONS:
                self.error(f"'{s.name}' is a value, not a rule to carry out", s.span, "use it inside a statement or a condition")
            else:
                self.error(f"unknown procedure or effect '{s.name}'", s.span, did_you_mean(s.name, self.model.callables()))
            return
        params = getattr(target, "params", ())
        if len(s.args) != len(params):
            self.error(f"'{s.name}' takes {len(params)} argument{'s' if len(params) != 1 else ''}, got {len(s.args)}", s.span,
                       f"it is declared as {s.name}({', '.join(params)})")

    def visit_Stop(self, s, scope):
        if self.loop_depth == 0:
            self.error("'stop' outside a loop", s.span, "stop ends the innermost `repeat` or `for each`")

    def visit_EndGame(self, s, scope):
        if s.after_rounds is not None:
            self.expr(s.after_rounds, scope)

    def visit_Let(self, s, scope):
        self.expr(s.value, scope)
        scope.add(s.name)

    def visit_Resolve(self, s, scope):
        self.expr(s.effects, scope)
        if not (isinstance(s.effects, n.Field) and s.effects.name in self.effect_fields):
            self.error("`resolve` needs a card field declared as effects (e.g. `c.effects`)", s.effects.span,
                       "declare it in a kind block: `kind NAME:` then `effects: effects`")

    def visit_ChooseAction(self, s, scope):
        if not self.model.actions:
            self.error("`choose action` but the rules declare no action", s.span)

    def visit_If(self, s, scope):
        for cond, body in s.branches:
            self.expr(cond, scope)
            self.body(body, scope)
        self.body(s.else_body, scope)

    def visit_ForEach(self, s, scope):
        self.expr(s.iterable, scope)
        inner = scope | {s.var}
        if s.cond is not None:
            self.expr(s.cond, inner)
        self.loop(s.body, inner)

    def loop(self, body, scope):
        self.loop_depth += 1
        self.body(body, scope)
        self.loop_depth -= 1

    def visit_RepeatWhile(self, s, scope):
        self.expr(s.cond, scope)
        self.endless_loop(s, scope)
        self.loop(s.body, scope)

    def visit_RepeatTimes(self, s, scope):
        self.expr(s.count, scope)
        self.loop(s.body, scope)

    def visit_Choose(self, s, scope):
        if s.count is not None:
            self.several_picks(s, scope)
        if s.simultaneous:
            self.simultaneous_choice(s)
        if s.secretly:
            self.secret_choice(s)
        self.expr(s.iterable, scope)
        inner = scope | {s.var}
        if s.cond is not None:
            self.expr(s.cond, inner)
        if s.label is not None:
            self.expr(s.label, inner)
        if s.else_label is not None:
            self.expr(s.else_label, scope)
        if s.simultaneous:
            self.acting.append(s)
        self.body(s.body, inner)
        self.body(s.else_body, scope)
        if s.simultaneous:
            self.acting.pop()

    def several_picks(self, s, scope):
        """`choose N x in L`: several picks at once, for all players together."""
        self.expr(s.count, scope)
        if not s.simultaneous:
            self.error(f"`choose {_count_text(s.count)} {s.var} in ...` picks several at once only with "
                       "`simultaneously`", s.span, "one player picking several: `repeat N times:` around a `choose`")
        elif s.optional or s.else_body:
            self.error("a choice of several at once has no `may` nor `else`: a player picks as many as it can "
                       "(its body gets the list)", s.span)

    def visit_May(self, s, scope):
        self.expr(s.label, scope)
        if s.else_label is not None:
            self.expr(s.else_label, scope)
        self.body(s.body, scope)
        self.body(s.else_body, scope)

    def visit_ActAs(self, s, scope):
        self.expr(s.player, scope)
        depth, self.loop_depth = self.loop_depth, 0  # `stop` may not leave an `as` block
        self.acting.append(s)
        self.body(s.body, scope)
        self.acting.pop()
        self.loop_depth = depth

    def visit_PickRandom(self, s, scope):
        self.expr(s.iterable, scope)
        self.expr(s.cond, scope | {s.var})
        self.body(s.body, scope | {s.var})

    # -- references
    def counter_ref(self, ref: n.Ref, scope):
        decl = self.model.counters.get(ref.name)
        if decl is None:
            kind = "a zone" if ref.name in self.model.zones else None
            hint = did_you_mean(ref.name, self.model.counters)
            self.error(f"unknown counter '{ref.name}'" + (f" ('{ref.name}' is {kind})" if kind else ""), ref.span, hint)
            return
        self.owner(ref, decl, scope)

    def zone_ref(self, ref: n.Ref, scope, slotted=False):
        decl = self.model.zones.get(ref.name)
        if decl is None:
            kind = "a counter" if ref.name in self.model.counters else None
            self.error(f"unknown zone '{ref.name}'" + (f" ('{ref.name}' is {kind})" if kind else ""), ref.span, did_you_mean(ref.name, self.model.zones))
            return
        if slotted and decl.slots is None:
            self.error(f"zone '{ref.name}' has no slots; this statement needs a slotted zone", ref.span, "declare it with `slots N`")
        self.owner(ref, decl, scope)

    def owner(self, ref, decl, scope):
        if ref.owner is not None:
            self.expr(ref.owner, scope)
            if decl.scope == "shared":
                self.error(f"'{ref.name}' is shared; it has no owner", ref.owner.span, f"write just `{ref.name}`")
        elif decl.scope == "card":
            self.error(f"'{ref.name}' belongs to each card; say which: `{ref.name} of CARD`", ref.span)

    # -- expressions
    def expr(self, e, scope):
        if e is None:
            return
        self.visit(e, scope)


    def visit_Template(self, e, scope):
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, scope)

    def visit_Name(self, e, scope):
        name = e.name
        m = self.model
        namespace = resolve_name(name, m, scope)
        if namespace in ("counters", "zones"):
            if getattr(m, namespace)[name].scope == "card":
                self.error(f"'{name}' belongs to each card; say which: `{name} of CARD`", e.span)
        elif namespace == "defines":
            params = m.defines[name].params
            if params:
                self.error(f"'{name}' takes {len(params)} argument{'s' if len(params) != 1 else ''}", e.span, f"write {name}({', '.join(params)})")
        elif namespace is None:
            self.error(f"unknown name '{name}'", e.span, did_you_mean(name, names_in_scope(m, scope)))

    def visit_NameOf(self, e, scope):
        self.expr(e.owner, scope)
        namespace = resolve_owned(e.name, self.model)
        if namespace is None:
            self.error(f"unknown counter or zone '{e.name}'", e.span, did_you_mean(e.name, set(self.model.counters) | set(self.model.zones)))
        elif getattr(self.model, namespace)[e.name].scope == "shared":
            self.error(f"'{e.name}' is shared; it has no owner", e.span, f"write just `{e.name}`")

    def visit_Call(self, e, scope):
        for a in e.args:
            self.expr(a, scope)
        if e.name in self.model.defines:
            params = self.model.defines[e.name].params
            if len(params) != len(e.args):
                self.error(f"'{e.name}' takes {len(params)} argument{'s' if len(params) != 1 else ''}, got {len(e.args)}", e.span,
                           f"it is defined as {e.name}({', '.join(params)})")
            return
        builtin = FUNCTIONS.get(e.name)
        if e.name == "has" and len(e.args) == 2 and isinstance(e.args[1], n.Literal) and e.args[1].value not in self.card_field_names:
            self.error(f"no card has a field '{e.args[1].value}'", e.args[1].span,
                       did_you_mean(str(e.args[1].value), self.card_field_names) or "expected the name of a card field")
        if builtin is None:
            if e.name in self.model.callables():
                self.error(f"'{e.name}' is a procedure: it is carried out as a statement, not used as a value", e.span)
            else:
                self.error(f"unknown function '{e.name}'", e.span, did_you_mean(e.name, set(self.model.defines) | set(FUNCTIONS)))
            return
        lo, hi = builtin.arity
        if not lo <= len(e.args) <= hi:
            expected = str(lo) if lo == hi else f"{lo} to {hi}"
            self.error(f"'{e.name}' takes {expected} argument{'s' if hi != 1 else ''}, got {len(e.args)}", e.span,
                       f"{builtin.usage}: {builtin.doc[:1].lower()}{builtin.doc[1:]}")

    def visit_Index(self, e, scope):
        self.expr(e.obj, scope)
        self.expr(e.index, scope)
        self.map_covers_parameter(e, scope)

    def map_covers_parameter(self, e, scope):
        """`bonus[level]`, `level` a parameter with allowed values: the map
        has an entry for each of them."""
        obj, index = e.obj, e.index
        if not (isinstance(obj, n.Name) and isinstance(index, n.Name) and obj.name not in scope
                and index.name not in scope and isinstance(self.params.get(obj.name), dict)
                and index.name in self.model.params):
            return
        try:
            allowed = allowed_values(self.model.params[index.name], self.params)
        except RulesError:
            return  # reported where the parameter is evaluated
        values = range(allowed[0], allowed[1] + 1) if isinstance(allowed, tuple) else allowed or ()
        missing = [v for v in values if v not in self.params[obj.name]]
        if missing:
            shown = ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in missing[:5])
            self.error(f"map '{obj.name}' has no entry for {shown}, which '{index.name}' may be", e.span,
                       f"add {'them' if len(missing) > 1 else 'it'} to '{obj.name}', or leave "
                       f"{'them' if len(missing) > 1 else 'it'} out of the values '{index.name}' may take")

    def visit_Field(self, e, scope):
        self.expr(e.obj, scope)
        if e.name not in self.card_field_names:
            self.error(f"no card has a field '{e.name}'", e.span, did_you_mean(e.name, self.card_field_names))

    def visit_IsKind(self, e, scope):
        self.expr(e.operand, scope)
        if e.kind not in self.db.kinds:
            self.error(f"unknown card kind '{e.kind}'", e.span, did_you_mean(e.kind, self.db.kinds))

    def visit_Aggregate(self, e, scope):
        self.expr(e.iterable, scope)
        inner = scope | {e.var}
        self.expr(e.expr, inner)
        self.expr(e.cond, inner)

    def visit_Comprehension(self, e, scope):
        inner = set(scope)
        for var, iterable in e.loops:
            self.expr(iterable, inner)
            inner.add(var)
        self.expr(e.expr, inner)
        self.expr(e.cond, inner)

    # -- card data
def _first_span(model):
    for d in (model.game, model.players, model.cards):
        if d is not None:
            return d.span
    return NO_SPAN


def _count_text(count) -> str:
    return str(count.value) if isinstance(count, n.Literal) else "(...)"
