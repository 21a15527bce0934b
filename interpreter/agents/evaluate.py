"""A generic evaluation of a position, derived only from the rules' own scoring.

The score a player would have if the game ended now undervalues positions in
games where value arrives later (a card in front of a player may score only
once it has been used and moved elsewhere). So the evaluation adds two terms,
both computed by the rules' score terms themselves on hypothetical positions:

- **Potential of held cards**: for every card the player holds (a card in one
  of the player's own zones, or in a zone on such a card), the best expected
  gain in the player's score from moving that card to another of the player's
  zones, if positive. A card held is not a card played (a hand of cards that
  cost more than the player will ever have scores nothing): each gain is
  weighted by how often such a card held there did reach that zone in the
  sample games (`play_rates`), and the sum is credited at a discount, a
  weight chosen per rules file by measurement (weights.py).
- **Smoothed counters**: a score term such as ``x // 3`` pays nothing for the
  first two units; the evaluation averages the player's score over the next
  few values of each per-player counter, so every unit earns its share (a
  rank among players becomes a gradual threat rather than a step).

A player's value is their score plus these two terms; a position's worth to a
player is their value minus the best value among the others (the margin).
In a game the players can win together, the others are the player's team,
not rivals: a position's worth is the team's value (the sum of the players'
values), and a game already won or lost together is worth far more or less
than any score (`TOGETHER`). Nothing here names a zone, counter or card of
any game.
"""
from __future__ import annotations

import math
from functools import partial

from ..runtime.ops import zone_to_change
from ..errors import RulesRuntimeError
from .recall import Recall, reads_entry

DISCOUNT = 1.0  # share of a held card's best expected gain credited before it is earned
SMOOTH = 6  # counter values averaged over (covers steps of 1, 2, 3 and 6)
TOGETHER = 1_000.0  # what a game won together adds to the team's value (lost: takes away)


class Evaluator:
    """Evaluates states of one compiled program (zone and counter layout is
    read once)."""

    def __init__(self, program, discount: float = DISCOUNT, smooth: int = SMOOTH):
        self.program = program
        self.discount = discount
        self.smooth = smooth
        # the other players are partners, not rivals (see the module's docstring)
        self.together = program.played_together
        # each seat alone, as `GameState.teams` finds without `teams by` nor
        # playing together: the margin needs no teams added up
        self.rivals = not self.together and program.team_of is None
        zones = list(program.zones.values())
        self.player_zones = [z for z in zones if z.scope == "player" and not z.slots]
        self.holding_zones = [z for z in zones if z.scope == "player"]
        self.counters = [c for c in program.counter_list if c.scope == "player" and not c.holds_player]
        self.card_zone_bases = [z.base for z in zones if z.scope == "card"]
        # (each with how its instances look when they hold no card: told apart at once)
        self.card_zones_empty = [(base, program.empty_zones[base]) for base in self.card_zone_bases]
        self.terms = [fn for _, fn in program.score_terms]
        self.recall = Recall(self.compute_value)
        self.all_terms = tuple(range(len(self.terms)))
        # Which score terms a change can touch, learnt once per program from
        # seeded sample positions (so it is the same in every run): a counter
        # that no term reads, or a move the rules cannot score, costs nothing.
        self.counter_terms = {c.index: self.all_terms for c in self.counters}
        self.move_terms: dict = {}
        self.play_rates: dict = {}  # (kind, src zone, dst zone) -> share; (kind, src zone) -> 0.0 if seen
        self.mean_rate = 1.0
        self._probe()
        # per zone instance, per card: the moves a held card may gain by
        # (`scoring_moves`, made per kind; one list per zone, shared by its
        # instances), looked up once per held card
        kinds = program.card_kinds
        by_zone = {}
        for info in zones:
            if info.scope in ("player", "card"):
                by_kind = {kind: self.scoring_moves(kind, info.index) for kind in set(kinds)}
                by_zone[info.index] = [by_kind[kind] for kind in kinds]
        self.moves_at = [by_zone.get(info.index) for info in program.zone_of_instance]
        # one remembered share per counter that some term reads (in the
        # counters' order, so the shares add up as one sum would)
        self.smoothed = [Recall(partial(self.counter_smoothing, c))
                         for c in self.counters if self.counter_terms[c.index]]

    # -- scores
    def term_values(self, st, player: int) -> list:
        me = st.me
        st.me = player
        try:
            return [fn(st) for fn in self.terms]
        finally:
            st.me = me

    def own_score(self, st, player: int) -> float:
        """The player's score as if the game ended now (raw, exact numbers)."""
        return float(sum(self.term_values(st, player)))

    # -- the value of a position
    def value(self, st, player: int) -> float:
        """The player's value. A search values many positions that differ
        only where this player's value does not look (another player's turn,
        effects resolved in another order): values are remembered with what
        they were computed from (recall.py), exactly."""
        return self.recall(st, player)

    def compute_value(self, st, player: int) -> float:
        # (`term_values` written out, as a loop: greedy computes this at every end of a
        # turn, and a comprehension would make `st` a cell, slower at every use)
        me = st.me
        st.me = player
        before = []
        try:
            for fn in self.terms:
                before.append(fn(st))
        finally:
            st.me = me
        base = float(sum(before))
        return base + self.discount * self.potential(st, player, before) + self.smoothing(st, player)

    def values(self, st) -> list:
        return [self.recall(st, p) for p in range(st.n)]

    def margin(self, st, player: int) -> float:
        """The player's value minus the best value among the others; in a
        game won together, the team's value and the outcome once known.

        Greedy asks this at the ends of the player's own turns: the others'
        values, which the player's turn seldom touches, are recalled; the
        player's own is computed, the same number, for about half of those
        ends are new to it, and a value not found costs the search for it
        plus twice its computation (noting what it reads): computing it
        every time costs less."""
        if self.rivals and st.n == 2:  # (the usual case written out, the values asked in seat order)
            if player:
                theirs = self.recall(st, 0)
                return (0.0 + self.compute_value(st, 1)) - (0.0 + theirs)
            mine = self.compute_value(st, 0)
            return (0.0 + mine) - (0.0 + self.recall(st, 1))
        return self._margin(st, player)

    def _margin(self, st, player: int) -> float:
        """`margin` but for two rivals (a method of its own: its comprehensions
        would make the names of the usual case cells)."""
        compute, recall = self.compute_value, self.recall
        vals = [compute(st, p) if p == player else recall(st, p) for p in range(st.n)]
        if self.together:
            return sum(vals) + (TOGETHER if st.won else -TOGETHER if st.lost else 0.0)
        if st.n == 1:
            return vals[0]
        teams = st.teams()
        if len(set(teams)) == len(teams):  # each seat alone: `by_team`'s totals are the values
            return (0.0 + vals[player]) - max([0.0 + v for p, v in enumerate(vals) if p != player])
        totals, mine = by_team(vals, teams, player)
        return totals[mine] - max(totals[:mine] + totals[mine + 1:]) if len(totals) > 1 else totals[mine]

    # -- the two extra terms
    def held(self, st, player: int) -> list:
        """(card, zone instance) for each card the player holds: the cards of
        the player's zones and, after each, the cards it holds."""
        out: list = []
        z = st.z
        bases = self.card_zone_bases
        for info in self.holding_zones:
            zi = info.base + player
            for card in z[zi]:
                if card is not None:
                    out.append((card, zi))
                    for base in bases:  # (a slotted zone's empty slot is None)
                        hosted = z[base + card]
                        if hosted.count(None) != len(hosted):
                            out.extend(_hosted(z, bases, card))
                            break
        return out

    def potential(self, st, player: int, before: list | None = None) -> float:
        if before is None:
            before = self.term_values(st, player)
        total = 0.0
        moves_at = self.moves_at
        bases = self.card_zones_empty
        # (one zone on cards, the usual case: each held card's instance looked at at once)
        one, empty = bases[0] if len(bases) == 1 else (None, None)
        z = st.z
        me = st.me
        st.me = player
        try:
            # the cards of `held`, in its order, walked here rather than
            # listed first: most held cards have no move to value
            for info in self.holding_zones:
                src = info.base + player
                at = moves_at[src]
                for card in z[src]:
                    if card is None:  # (a slotted zone's empty slot)
                        continue
                    moves = at[card]
                    if moves:
                        total += self._best_gain(st, card, src, moves, player, before)
                    if one is not None:
                        hosted = z[one + card]
                        if hosted != empty and hosted.count(None) != len(hosted):
                            total = self._hosted_gains(total, st, card, player, before)
                        continue
                    for base, blank in bases:
                        hosted = z[base + card]
                        if hosted != blank and hosted.count(None) != len(hosted):
                            total = self._hosted_gains(total, st, card, player, before)
                            break
        finally:
            st.me = me
        return total

    def _hosted_gains(self, total: float, st, card: int, player: int, before: list) -> float:
        """`total` with the best gain of each card `card` holds added, in turn."""
        z, moves_at = st.z, self.moves_at
        for inner, zi in _hosted(z, self.card_zone_bases, card):
            moves = moves_at[zi][inner]
            if moves:
                total += self._best_gain(st, inner, zi, moves, player, before)
        return total

    def _best_gain(self, st, card: int, src: int, moves: list, player: int, before: list) -> float:
        """The best of `card`'s gains by `moves` (see `scoring_moves`), each
        weighted by its play rate; 0.0 if none is positive."""
        best = 0.0
        source = st.z[src]
        slots = self.program.zone_of_instance[src].slots
        for base, terms, rate in moves:
            gain = self._gain(st, card, src, source, slots, base + player, terms, before)
            if gain is not None and gain * rate > best:
                best = gain * rate
        return best

    def scoring_moves(self, kind, zone: int) -> list:
        """(zone base, score terms, play rate) of each of the player's zones a
        `kind` card in zone `zone` may gain by moving to. It depends on the
        rules alone (and what the sample games taught): made once per kind
        and zone (`moves_at`)."""
        return [(info.base, terms, self.play_rate(kind, zone, info.index)) for info in self.player_zones
                if info.index != zone and (terms := self.move_terms.get((kind, zone, info.index), self.all_terms))
                and self.play_rate(kind, zone, info.index) > 0]

    def play_rate(self, kind, src: int, dst: int) -> float:
        """The share of `kind` cards held in zone `src` that went on to the
        player's zone `dst` in the sample games; for a holding never seen
        there, the share over every holding seen."""
        rates = self.play_rates
        return rates.get((kind, src, dst), rates.get((kind, src), self.mean_rate))

    def _gain(self, st, card: int, src: int, source: list, slotted, dst: int, terms, before: list):
        """How much the terms `terms` change with `card` moved from `src` to
        the top of `dst` (None if the rules cannot score that)."""
        # the card lifted, unseen by any rule, and put back (rows may be
        # shared with clones: nothing else runs before they are restored)
        fns = self.terms
        z, loc = st.z, st.loc
        where = source.index(card)
        if slotted:
            source[where] = None
        else:
            del source[where]
        target = z[dst]
        target.append(card)
        loc[card] = dst
        try:
            change = 0
            for t in terms:
                change += fns[t](st) - before[t]
            return float(change)
        except RulesRuntimeError:  # the rules cannot score this hypothetical position
            return None
        finally:
            target.pop()
            if slotted:
                source[where] = card
            else:
                source.insert(where, card)
            loc[card] = src

    def smoothing(self, st, player: int) -> float:
        """Each counter's share, remembered on its own (`smoothed`): the same
        few counter values come back in many positions whose cards differ."""
        if self.smooth <= 1:
            return 0.0
        total = 0.0
        for recall in self.smoothed:
            total += recall(st, player)
        return total

    def counter_smoothing(self, info, st, player: int) -> float:
        """The player's score averaged over the next values of counter `info`,
        less the score now (only the terms the counter touches).

        It is computed while its reads are noted (it is remembered,
        `smoothed`): a term that did not read the player's value of the
        counter here (a score that reads it under one goal only) gives the
        same number at every other value, a change of 0, and is not asked
        again (`recall.reads_entry`; outside a noted computation every term is)."""
        fns = self.terms
        me = st.me
        st.me = player
        try:
            row = st.ctr[info.index]
            before = {}
            terms = []
            for t in self.counter_terms[info.index]:
                before[t], read = reads_entry(row, player, partial(fns[t], st))
                if read:
                    terms.append(t)
            if not terms:
                return 0.0
            held = row[player]
            top = info.maximum
            acc = 0.0
            try:
                for j in range(1, self.smooth):
                    v = held + j
                    if top is not None and v > top:
                        v = top
                    row[player] = v
                    try:
                        change = 0
                        for t in terms:
                            change += fns[t](st) - before[t]
                    except RulesRuntimeError:  # the rules cannot score this hypothetical position
                        continue
                    acc += float(change)
            finally:
                row[player] = held
        finally:
            st.me = me
        return acc / self.smooth

    # -- learning which terms a change touches
    def _probe(self, games: int = 6, every: int = 7) -> None:
        from .. import rng as _rng

        p = self.program
        if not self.terms:
            return
        touched_by_counter = {c.index: set() for c in self.counters}
        moves: dict = {}  # (kind, src zone, dst zone) -> set of terms, or None once it failed
        gaining: set = set()  # the moves that raised the score somewhere
        from ..game import Game  # the evaluator is built from a program, not a game

        players = max(p.min_players, min(2, p.max_players))
        game = Game(p, "", None)
        plays = Plays(p.card_kinds)
        for g in range(games):
            try:
                st = game.new_initial_state(players, 7_919 * (g + 1))
                r = _rng.seed_state(104_729 + g)
                step = 0
                while not st.over and step < 5_000:
                    if step % every == 0:
                        for player in range(st.n):
                            self._probe_position(st, player, touched_by_counter, moves, gaining)
                            plays.see(player, self.held(st, player), p.zone_of_instance)
                    ids = st.legal_actions()
                    r, i = _rng.below(r, len(ids))
                    st.apply_action(ids[i])
                    step += 1
                if st.over:
                    for player in range(st.n):
                        self._probe_position(st, player, touched_by_counter, moves, gaining)
                        plays.see(player, self.held(st, player), p.zone_of_instance)
            except RulesRuntimeError:
                continue  # a rules file whose sample games fail: keep what was learnt
            finally:
                plays.end_game()
        self.play_rates, self.mean_rate = plays.rates()
        self.counter_terms = {k: tuple(sorted(v)) for k, v in touched_by_counter.items()}
        # A move that never raised the score in the sample games (a card
        # taken out of a pile that scores it) is not worth trying: only a
        # gain counts towards the potential.
        self.move_terms = {k: (tuple(sorted(v)) if v is not None and k in gaining else ())
                           for k, v in moves.items()}

    def _probe_position(self, st, player: int, by_counter: dict, moves: dict, gaining: set) -> None:
        try:
            before = self.term_values(st, player)
        except RulesRuntimeError:
            return
        n = len(self.terms)
        for info in self.counters:
            row = st.ctr[info.index]
            held = row[player]
            for v in (held + 1, held + 2, held + 3, held + 6, max(0, held - 1)):
                if info.maximum is not None and v > info.maximum:
                    continue
                row[player] = v
                by_counter[info.index].update(self._changed(st, player, before, n) or ())
            row[player] = held
        kinds = self.program.card_kinds
        zone_of = self.program.zone_of_instance
        for card, src in self.held(st, player):
            for info in self.player_zones:
                dst = info.base + player
                if dst == src:
                    continue
                key = (kinds[card], zone_of[src].index, info.index)
                if key in moves and moves[key] is None:
                    continue
                where = _lift(st, card, src, dst)
                try:
                    changed = self._changed(st, player, before, n)
                finally:
                    _put_back(st, card, src, dst, where)
                if changed is None:
                    moves[key] = None
                else:
                    moves.setdefault(key, set()).update(changed)
                    if sum(changed.values()) > 0:
                        gaining.add(key)

    def _changed(self, st, player: int, before: list, n: int):
        """{term: change} of the terms the position changed (None if the rules
        cannot score it)."""
        me = st.me
        st.me = player
        try:
            after = [self.terms[t](st) for t in range(n)]
            return {t: after[t] - before[t] for t in range(n) if after[t] != before[t]}
        except RulesRuntimeError:
            return None
        finally:
            st.me = me


class Plays:
    """Which cards held in one of a player's zones went on to another of
    that player's zones, in the sample games: the play rates of the
    potential. A card counts once per game for each zone it was seen held
    in, and once for each zone of the same player it was seen in later."""

    def __init__(self, kinds: list):
        self.kinds = kinds
        self.held: dict = {}  # (kind, src zone) -> holdings seen
        self.moved: dict = {}  # (kind, src zone, dst zone) -> of those, reached dst later
        self.seen: dict = {}  # this game: card -> [(player, zone index)] in the order first seen

    def see(self, player: int, held: list, zone_of: list) -> None:
        for card, zi in held:
            places = self.seen.setdefault(card, [])
            place = (player, zone_of[zi].index)
            if place not in places:
                places.append(place)

    def end_game(self) -> None:
        for card, places in self.seen.items():
            kind = self.kinds[card]
            for i, (player, src) in enumerate(places):
                self.held[(kind, src)] = self.held.get((kind, src), 0) + 1
                for other, dst in places[i + 1:]:
                    if other == player and dst != src:
                        key = (kind, src, dst)
                        self.moved[key] = self.moved.get(key, 0) + 1
        self.seen = {}

    def rates(self) -> tuple:
        """({(kind, src, dst): share, (kind, src): 0.0}, the share over all
        holdings); a holding seen that never moved somewhere has rate 0."""
        out: dict = {key: 0.0 for key in self.held}
        for (kind, src, dst), n in self.moved.items():
            out[(kind, src, dst)] = n / self.held[(kind, src)]
        held = sum(self.held.values())
        mean = sum(self.moved.values()) / held if held else 1.0
        return out, min(1.0, mean)


def _lift(st, card: int, src: int, dst: int) -> int:
    """Move `card` from zone instance `src` to the top of `dst` without any
    rule seeing it (no trigger fires); returns where it was, for `_put_back`."""
    source = zone_to_change(st, src)
    where = source.index(card)
    if st.program.zone_of_instance[src].slots:
        source[where] = None
    else:
        del source[where]
    zone_to_change(st, dst).append(card)
    st.loc[card] = dst
    return where


def _put_back(st, card: int, src: int, dst: int, where: int) -> None:
    zone_to_change(st, dst).pop()
    if st.program.zone_of_instance[src].slots:
        zone_to_change(st, src)[where] = card
    else:
        zone_to_change(st, src).insert(where, card)
    st.loc[card] = src


def _hosted(z, bases: list, card: int) -> list:
    """`hosted_cards(st, card)` (language/builtins.py: the cards `card`
    holds, depth first, each once), for zones on cards at `bases` (all of
    them, in the program's order): the evaluation lists them for every card
    held that holds any, so each card's holdings are listed at once rather
    than drawn from a generator."""
    out = [(inner, base + card) for base in bases for inner in z[base + card] if inner is not None]
    # The usual case: the cards it holds hold nothing themselves (nor is it
    # one of them), and lie each in one place: they are the list, in order.
    for inner, _ in out:
        for base in bases:
            hosted = z[base + inner]
            if hosted.count(None) != len(hosted):
                return _hosted_deep(z, bases, card)
    if len(out) > 1 and len({inner for inner, _ in out}) != len(out):
        return _hosted_deep(z, bases, card)
    return out


def _hosted_deep(z, bases: list, card: int) -> list:
    """`_hosted` where a card held holds cards too: depth first, each card once."""
    out: list = []
    seen = {card}
    stack = [iter([(inner, base + card) for base in bases for inner in z[base + card] if inner is not None])]
    while stack:
        for inner, zi in stack[-1]:
            if inner not in seen:
                seen.add(inner)
                out.append((inner, zi))
                stack.append(iter([(c, base + inner) for base in bases for c in z[base + inner] if c is not None]))
                break
        else:
            stack.pop()
    return out


def by_team(vals: list, teams: list, player: int) -> tuple:
    """(each team's total value, the index of the player's team among them),
    teams in the order of their first seat (each seat alone without teams):
    a teammate's gain is the player's too."""
    if len(set(teams)) == len(teams):  # each seat alone (the usual case): its own total, in seat order
        return [0.0 + v for v in vals], player
    totals: dict = {}
    for v, t in zip(vals, teams):
        totals[t] = totals.get(t, 0.0) + v
    order = list(totals)
    return [totals[t] for t in order], order.index(teams[player])


def squash(vals: list, player: int, scale: float | None = None) -> float:
    """Map a player's margin over the best other value to (0, 1)."""
    if len(vals) == 1:
        return 1.0 / (1.0 + math.exp(-vals[0] / (scale or 10.0)))
    margin = vals[player] - max(vals[:player] + vals[player + 1:])
    if scale is None:
        # the same margin matters less when everyone has scored a lot
        scale = max(2.0, 0.15 * sum(map(abs, vals)) / len(vals))
    x = margin / scale
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def evaluator_for(program, **kwargs) -> Evaluator:
    """One evaluator per program and settings, shared by the bots, kept with
    the program (`Program.evaluators`)."""
    key = tuple(sorted(kwargs.items()))
    ev = program.evaluators.get(key)
    if ev is None:
        ev = program.evaluators[key] = Evaluator(program, **kwargs)
    return ev
