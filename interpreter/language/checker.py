"""The checker: resolve every name, arity and card reference before anything runs.

A pure pass over the rules model and the card data that returns all the
problems it finds (errors and warnings); nothing is compiled if one is an error.
"""
from __future__ import annotations

from .. import limits
from ..errors import NO_SPAN, Diagnostic, RulesError, did_you_mean
from . import nodes as n
from .builtins import BUILTIN_NAMES, FUNCTIONS, VALUES
from .flowcheck import FlowChecks, walk_stmts
from .fixed import changing
from .names import names_in_scope, resolve_name, resolve_owned
from .letcheck import LostLets
from .nothingcheck import NothingChecks
from .params import allowed_values
from .facecheck import face_leaks
from .sizecheck import size_leaks
from .typecheck import typed
from .parser import readable_as_name
from .reads import reads_private_counter
from .visitor import Visitor


def check(model, db, params: dict, card_fields: dict) -> list[Diagnostic]:
    problems = Checker(model, db, params, card_fields).run()
    if any(p.severity == "error" for p in problems):
        return problems + size_leaks(model)
    return problems + size_leaks(model) + face_leaks(model, typed(model, db, params, card_fields))


class Checker(FlowChecks, NothingChecks, LostLets, Visitor):
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

    def check_names_unique(self):
        # Values share one namespace; the rules a statement calls share another
        # (an effect may share its name with a counter: `gold in c.effects`).
        readable = {"parameter": self.model.params, "counter": self.model.counters, "zone": self.model.zones,
                    "definition": self.model.defines}
        self._unique(readable)
        for kind, decls in readable.items():
            for name, decl in decls.items():
                if not readable_as_name(name):
                    self.error(f"'{name}' is a word of the language, so this {kind} could not be read in an expression", decl.span,
                               f"give it another name, e.g. '{name}_total'")
        self._unique({"effect": self.model.effects, "procedure": self.model.procedures})

    def _unique(self, spaces: dict):
        owner: dict = {}
        for kind, decls in spaces.items():
            for name, decl in decls.items():
                if name in owner:
                    first = owner[name]
                    where = spaces[first][name].span
                    self.error(f"'{name}' is both {_a(first)} and {_a(kind)}", decl.span,
                               f"give one of them another name (the {first} is at line {where.line})"
                               if where.source else "give one of them another name")
                else:
                    owner[name] = kind
                if name in BUILTIN_NAMES or name in FUNCTIONS:
                    self.error(f"'{name}' is a built-in name and cannot be redefined", decl.span)

    def check_backs(self, decl) -> None:
        """`backs:` names kinds of the card file, or one of its fields."""
        if decl is None:
            return
        if decl.by == "kinds":
            for name in decl.names:
                if name not in self.db.kinds:
                    self.error(f"backs: unknown card kind '{name}'", decl.span,
                               did_you_mean(name, self.db.kinds) or f"expected a card kind: {', '.join(self.db.kinds)}")
        elif decl.by == "field" and decl.names[0] not in self.card_field_names:
            self.error(f"backs: unknown card field '{decl.names[0]}'", decl.span,
                       did_you_mean(decl.names[0], self.card_field_names))

    def check_slot_cells(self):
        """Every state holds every slot of every zone instance: their total is bounded."""
        m = self.model
        players = min(m.players.maximum, limits.PLAYERS) if m.players else 1
        instances = {"shared": 1, "player": players, "card": len(self.db.cards)}
        cells = {name: instances[d.scope] * min(d.slots, limits.SLOTS)
                 for name, d in m.zones.items() if d.slots and d.slots > 0}
        if sum(cells.values()) > limits.SLOT_CELLS:
            name = max(cells, key=cells.get)
            self.error(f"the slotted zones hold {sum(cells.values()):,} slots in all (zone '{name}': {cells[name]:,}); "
                       f"at most {limits.SLOT_CELLS:,} (the limit)", m.zones[name].span,
                       "a zone on every card multiplies its slots by the number of cards")

    def check_declarations(self):
        """The declarations themselves, before any rule's body."""
        self.check_card_zone()
        self.check_zone_and_counter_declarations()
        self.check_slot_cells()
        self.check_shared_owner_only()
        self.check_kinds_named()
        self.check_unused()

    def check_card_zone(self):
        m = self.model
        if m.cards and m.cards.zone not in m.zones:
            self.error(f"the cards start in zone '{m.cards.zone}', which is not declared", m.cards.span, did_you_mean(m.cards.zone, m.zones))
        elif m.cards and m.zones[m.cards.zone].scope != "shared":
            self.error(f"the cards must start in a shared zone; '{m.cards.zone}' is not shared", m.cards.span)

    def check_zone_and_counter_declarations(self):
        m = self.model
        for kind, decls in (("zone", m.zones), ("counter", m.counters)):
            for name, decl in decls.items():
                if decl.visibility == "others" and decl.scope != "player":
                    self.error(f"{kind} '{name}' is `others only`, but it is {decl.scope}, not per player",
                               decl.span, "`others only` means every player but its owner: declare it `per player`")
        for name, decl in m.zones.items():
            if decl.top_visible and (decl.visibility == "visible" or decl.slots):
                self.error(f"zone '{name}' is `top visible`, but it is "
                           + ("visible: every card of it is seen" if decl.visibility == "visible" else "a row of slots"),
                           decl.span, "`top visible` is for a pile that is `hidden`, `owner only` or `others only`")
            if decl.size_hidden and decl.visibility == "visible":
                self.error(f"zone '{name}' is visible, so everyone sees how many cards it holds; `size hidden` "
                           "would hide nothing", decl.span, "write `hidden`, `owner only` or `others only` with it")
            if decl.slots is not None and decl.slots < 1:
                self.error(f"zone '{name}' needs at least 1 slot", decl.span)
            elif decl.slots is not None and decl.slots > limits.SLOTS:
                self.error(f"zone '{name}' has {decl.slots:,} slots; a zone may have at most {limits.SLOTS:,} (the limit)", decl.span)
        for name, decl in m.counters.items():
            if decl.minimum is not None and decl.maximum is not None and decl.minimum > decl.maximum:
                self.error(f"counter '{name}' has `min {decl.minimum}` above `max {decl.maximum}`: no value lies "
                           "between them", decl.span, f"write `min {decl.maximum}, max {decl.minimum}`")
            if decl.unlisted and decl.visibility == "hidden":
                self.warning(f"counter '{name}' is hidden, so `unlisted` keeps nothing more off the table",
                             decl.span, "`unlisted` is for counters players may see but need not be shown")
            if decl.holds_player and decl.scope == "card":
                self.error(f"counter '{name}' holds a player, so it is per player or shared, not per card",
                           decl.span, "to note a player on a card, move the card to that player's zone")
            elif decl.holds_player and (decl.minimum is not None or decl.maximum is not None):
                self.error(f"counter '{name}' holds a player: `min` and `max` bound numbers", decl.span,
                           "to turn a player into a number, write `seat_number(p)`")

    def check_shared_owner_only(self):
        m = self.model
        for what, decls in (("zone", m.zones), ("counter", m.counters)):
            for name, decl in decls.items():
                if decl.scope == "shared" and decl.visibility == "owner":
                    self.warning(f"{what} '{name}' is shared, so `owner only` shows it to no one", decl.span,
                                 "write `hidden` if no one may see it, or make it `per player`")

    def check_kinds_named(self):
        """Card kinds and zones named by kinds, `when ... becomes empty` and boards exist."""
        m = self.model
        for name, decl in m.kinds.items():
            if name not in self.db.kinds:
                self.error(f"kind '{name}' has no cards in the card file", decl.span, did_you_mean(name, self.db.kinds))
        self.check_backs(m.backs)
        for zone, decl in m.empty_hooks.items():
            if zone not in m.zones:
                self.error(f"unknown zone '{zone}'", decl.span, did_you_mean(zone, m.zones))
        for kind, decl in m.boards.items():
            if kind not in self.db.kinds:
                self.error(f"board '{kind}': no cards of kind '{kind}' in the card file", decl.span,
                           did_you_mean(kind, self.db.kinds) or f"expected a card kind: {', '.join(self.db.kinds)}")

    def check_unused(self):
        """Parameters, definitions, procedures and actions nothing reaches (warnings)."""
        m = self.model
        used = set()
        for decl in m.declarations():
            used |= _names_in(decl)
        used |= set(m.shown_values)
        for values in self.card_fields.values():
            for value in values:
                for expr in (value.values() if isinstance(value, dict) else [value]):
                    if isinstance(expr, n.Node):
                        used |= _names_in(expr)
        for name in self.params:
            if name not in used:
                self.warning(f"parameter '{name}' is never read", m.params[name].span)
        for kind, decls in (("definition", m.defines), ("procedure", m.procedures)):
            for name, decl in decls.items():
                if name not in used:
                    self.warning(f"{kind} '{name}' is never used", decl.span)
        chooses = any(isinstance(node, n.ChooseAction) for node in m.nodes())
        for name, decl in m.actions.items():
            if not chooses:
                self.warning(f"action '{name}' is unreachable: no rule says `choose action`", decl.span)
            elif isinstance(decl.when, n.Literal) and not decl.when.value:
                self.warning(f"action '{name}' is unreachable: its condition is always false", decl.when.span)

    # -- bodies
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

    def check_objectives(self):
        """`cooperative score` and `teams by`: what the players play for."""
        m = self.model
        if m.cooperative is not None:
            self.expr(m.cooperative.best, set())
            if m.teams is not None:
                self.error("`teams by` in a cooperative game: with `cooperative score` every player is on one team",
                           m.teams.span, "remove `teams by`, or `cooperative score` for a game of teams")
        if m.teams is not None:
            self.expr(m.teams.team, set())

    def check_scoring_and_shows(self):
        """Score terms, the tie-break, the turn order, boards and what is shown."""
        m = self.model
        for term in m.score_terms.values():
            self.expr(term.expr, set())
        if m.tiebreak:
            for e in m.tiebreak.exprs:
                self.expr(e, set())
        if m.turn_order:
            self.expr(m.turn_order.seats, set())
        for decl in m.boards.values():
            self.expr(decl.adjacent, {decl.a, decl.b})
            if decl.zone is None:
                self.board_is_fixed(decl)
            elif decl.zone not in m.zones:
                self.error(f"board '{decl.name}' grows in zone '{decl.zone}', which is not declared", decl.span,
                           did_you_mean(decl.zone, m.zones) or "declare the zone the spaces are placed in")
        for name, decl in m.shows.items():
            if name != "cards" and name not in m.zones and name not in self.db.kinds:
                self.error(f"`show {name}`: no zone or kind of card named '{name}'", decl.span,
                           did_you_mean(name, set(m.zones) | set(self.db.kinds) | {"cards"}))
            self.expr(decl.template, {"card"})
        for name, decl in m.shown_values.items():
            self.shown_value(name, decl)
        for decl in m.markers.values():
            self.marker(decl)

    def marker(self, decl):
        """`marker NAME "LABEL" for each X in L on SPACE`: names known, and
        what every player is shown reads no counter some player cannot see."""
        self.expr(decl.iterable, set())
        for part in (decl.label, decl.space):
            self.expr(part, {decl.var})
        private = [part for part in (decl.iterable, decl.label, decl.space) if reads_private_counter(part, self.model)]
        if private:
            self.error(f"marker '{decl.name}' reads a counter not every player sees", private[0].span,
                       "a marker is shown to every player: read only visible counters (where a piece "
                       "stands is seen by all)")

    def shown_value(self, name, decl):
        """`show NAME per player`: NAME is a definition without parameters."""
        target = self.model.defines.get(name)
        if target is None:
            kind = "a counter (every counter is shown already)" if name in self.model.counters else None
            self.error(f"`show {name} per player`: no definition named '{name}'" + (f"; '{name}' is {kind}" if kind else ""),
                       decl.span, did_you_mean(name, self.model.defines) or "define it: `define NAME = EXPRESSION`")
        elif target.params:
            self.error(f"`show {name} per player`: '{name}' takes arguments; a value shown per player takes none",
                       decl.span, "it is worked out for each player as `me`")
        if decl.visibility == "hidden":
            self.error(f"`show {name} per player, hidden` would show it to no one", decl.span,
                       "write `visible` or `owner only`")
        elif decl.visibility == "others":
            self.error(f"`show {name} per player, others only`: a value is shown to all or to its player",
                       decl.span, "write `visible` or `owner only`")

    def board_is_fixed(self, decl):
        """A board is built once: its adjacency may read the two spaces'
        fields, parameters, literals and fixed functions, nothing that changes."""
        found = changing(self.model, decl.adjacent, {decl.a, decl.b})
        if found is not None:
            node, what = found
            self.error(f"board '{decl.name}': the adjacency of two spaces is fixed for the whole game, "
                       f"so it cannot read {what}", node.span,
                       f"expected only the fields of '{decl.a}' and '{decl.b}', parameters and fixed functions "
                       f"({', '.join(sorted(f for f, b in FUNCTIONS.items() if b.fixed))})")

    def no_decisions(self, hook):
        seen = set()

        def decides(stmts) -> n.Node | None:
            for s in walk_stmts(stmts):
                if s.facts.decides:
                    return s
                if isinstance(s, n.CallStmt) and s.name not in seen:
                    seen.add(s.name)
                    target = self.model.callables().get(s.name)
                    if target is not None and decides(target.body):
                        return s
            return None

        found = decides(hook.body)
        if found is not None:
            self.error("a trigger must not ask for a decision (it runs inside the rule that fired it)", found.span,
                       "move the decision into the turn, or record what happened and decide later")

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
    def check_cards(self):
        for fname, values in self.card_fields.items():
            for card, value in zip(self.db.cards, values):
                if isinstance(value, n.EffectList):
                    self.card_effects(card, fname, value)
                elif isinstance(value, dict):
                    for v in value.values():
                        self.expr(v, set())
                elif value is not None:
                    self.expr(value, set())
        self.warn_unused_effects()

    def card_effects(self, card, fname: str, value: n.EffectList):
        effects = self.model.effects
        for item in value.items:
            for name in item.alternatives:
                if name not in effects:
                    self.error(f"card '{card.name}', field '{fname}': unknown effect '{name}'", item.span,
                               did_you_mean(name, effects) or f"effects: {', '.join(effects)}")

    def warn_unused_effects(self):
        effects = self.model.effects
        used = {name for values in self.card_fields.values() for v in values if isinstance(v, n.EffectList)
                for item in v.items for name in item.alternatives}
        called = {node.name for node in self.model.nodes() if isinstance(node, n.CallStmt)}
        for name, decl in effects.items():
            if name not in used and name not in called:
                self.warning(f"effect '{name}' is used by no card and no rule", decl.span)


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word


def _first_span(model):
    for d in (model.game, model.players, model.cards):
        if d is not None:
            return d.span
    return NO_SPAN


def _names_in(decl) -> set:
    names = set()
    for node in n.walk(decl):
        if isinstance(node, (n.Name, n.NameOf, n.Call, n.CallStmt)):
            names.add(node.name)
    return names


def _count_text(count) -> str:
    return str(count.value) if isinstance(count, n.Literal) else "(...)"
