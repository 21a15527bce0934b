"""The checks of the rules' declarations and of the card data: names declared
once, zones, counters and kinds that make sense together, what is declared
and never used, objectives, scores, shows and markers, and the cards'
effects. A mixin of the checker (checker.Checker): the methods report
through its `error` and `warning` and check expressions with its `expr`.
"""
from __future__ import annotations

from .. import limits
from ..errors import did_you_mean
from . import nodes as n
from .builtins import BUILTIN_NAMES, FUNCTIONS
from .fixed import changing
from .flowcheck import walk_stmts
from .parser import readable_as_name
from .reads import reads_private_counter


class DeclarationChecks:
    """What the checker asks of the declarations and the card data."""

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


def _names_in(decl) -> set:
    names = set()
    for node in n.walk(decl):
        if isinstance(node, (n.Name, n.NameOf, n.Call, n.CallStmt)):
            names.add(node.name)
    return names
