"""The decision API: a Game made from a rules file, and the states it plays.

In the style of OpenSpiel's Python games: `current_player()`,
`legal_actions()`, `apply_action()`, `is_terminal()`, `returns()`, `clone()`,
plus labelled options, score breakdowns, observations and JSON saves.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction

from . import rng as _rng
from . import observation as _observation
from . import saves, visibility
from .engine import invariants
from .engine.run import run
from .runtime import ops
from .runtime.calls import FRAME_BLOCK
from .compiler.decisions import UNSEEN_CARD as HIDDEN_OPTION
from .compiler.decisions import UNSEEN_OPTION as SECRET_OPTION
from .runtime.helpers import not_legal, take
from .language.shows import fields_by_show
from .engine.state import State
from .errors import InvalidActionError, RulesError, RulesRuntimeError
from .traits import Traits, traits_of

TERMINAL = -4  # current_player() once the game is over (OpenSpiel's value)



@dataclass(frozen=True)
class Option:
    id: str
    label: str | None  # None in a decision made without labels (`GameState.decision`)


@dataclass(frozen=True)
class Unavailable:
    """An option the rules offer here that cannot be taken now, and why: shown
    beside the options, never one of them (it has no id)."""
    label: str
    reason: str


@dataclass(frozen=True)
class Decision:
    player: int
    prompt: str
    options: tuple
    unavailable: tuple = ()  # of Unavailable, for the player deciding and whoever watches it


class Game:
    """A compiled rules file. `new_initial_state(players, seed)` starts a game."""

    def __init__(self, program, path: str, model, diagnostics=()):
        self.program = program
        self.path = path
        self.model = model
        self.diagnostics = list(diagnostics)
        program.seers = visibility.seer_masks(program)
        program.seen_by_all = visibility.seen_by_all
        if model is not None:  # which `show` fits which card (view.card_text)
            program.shown_fields = fields_by_show(model)

    def set_limits(self, steps: int | None = None, turns: int | None = None, check_invariants: bool | None = None,
                   decisions: int | None = None) -> None:
        """Step budget per decision (runaway rules), turn and decision budgets
        per game, and whether every action is followed by an invariant check."""
        if steps is not None:
            self.program.set_step_budget(steps)
        if turns is not None:
            self.program.turn_budget = turns
        if decisions is not None:
            self.program.decision_budget = decisions
        if check_invariants is not None:
            self.program.check_invariants = check_invariants

    @cached_property
    def traits(self) -> Traits:
        """What kind of game this is: chance, hidden parts, ending together."""
        return traits_of(self.model, self.program)

    @property
    def title(self) -> str:
        return self.program.title

    @property
    def player_range(self) -> tuple[int, int]:
        return self.program.min_players, self.program.max_players

    def new_initial_state(self, players: int | None = None, seed: int = 0, coverage: bool = False,
                          listen: bool = False) -> "GameState":
        """A new game at its first decision. With `coverage`, of a game loaded
        with coverage, the state counts how often each rule (code object)
        runs and each card's fields are read: see `rule_coverage()` and
        `card_reads()`. With `listen`, its `events` list holds what happened
        so far, the setup included (see events.py)."""
        p = self.program
        if coverage and not p.coverage:  # (its code counts nothing: the counts would stay zero)
            raise ValueError("coverage is counted only by a game loaded with coverage: load_game(path, coverage=True)")
        players = p.min_players if players is None else players
        if not p.min_players <= players <= p.max_players:
            allowed = str(p.min_players) if p.min_players == p.max_players else f"{p.min_players} to {p.max_players}"
            raise RulesError(f"{p.title} is played by {allowed} players, not {players}")
        st = GameState.blank(p)
        st.n = players
        ncards = len(p.card_ids)
        st.ctr = [[0] * {"shared": 1, "player": players, "card": ncards}[c.scope] for c in p.counter_list]
        for c in p.counter_list:
            if c.holds_player or (c.minimum is not None and c.minimum > 0):
                st.ctr[c.index] = [None if c.holds_player else c.minimum] * len(st.ctr[c.index])
        # the empty zones are the program's, shared until a zone is first changed (ops.zone_to_change
        # copies it then): of a hundred instances, a game changes a few dozen
        st.z = list(p.empty_zones)
        home = p.zones[p.setup_zone].base
        st.z[home] = list(range(ncards))
        st.owned = {home}
        st.loc = [home] * ncards
        st.known = [0] * ncards
        st.rng = _rng.seed_state(seed)
        st.seed = seed
        st.frames = [[p.main, 0, []]]
        st.order = tuple(range(players))
        st.cov = [0] * (len(p.codes) + ncards) if coverage else None  # rule runs, then card reads
        st.events = [] if listen else None
        run(st)
        if p.check_invariants:
            invariants.check(st)
        return st

    def state_from_json(self, text: str) -> "GameState":
        """The position saved by `to_json()`, rebuilt and checked (see saves.py)."""
        return saves.load(self, text, GameState)


class GameState(State):
    """One position of a game; the decision API lives here."""

    __slots__ = ()

    # -- whose turn, what can be done
    def current_player(self) -> int:
        return TERMINAL if self.over else self.decider

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[str]:
        """Stable ids of the legal options, e.g. ``['draw', 'pass']``."""
        return [] if self.over else list(self.option_ids)

    def legal_options(self, viewer: int | None = None) -> list[Option]:
        """The options with their labels, as `viewer` (a seat, visibility.PUBLIC
        or EVERYTHING; by default the player deciding) is told them: an
        option naming a card the viewer cannot see is labelled without its
        name, and a part of a label read from such a card is withheld
        (visibility.told_to)."""
        if self.over:
            return []
        point, fr = self._decision_point()
        seer = self.decider if viewer is None else viewer
        hidden = seer != self.decider and point.kind == "card"

        def label(value):
            if hidden and not visibility.option_visible(self, point.kind, value, self.decider, seer):
                return HIDDEN_OPTION
            if point.secretly and seer not in (self.decider, visibility.EVERYTHING):
                return SECRET_OPTION
            return visibility.told_to(self, point.label(self, fr, value), seer)
        return [Option(i, label(v)) for i, v in zip(self.option_ids, self.option_values)]

    def decision(self, viewer: int | None = None, labels: bool = True) -> Decision | None:
        """The pending decision; as `viewer` may see it if given (see `legal_options`).
        With `labels` False, for a bot that answers from the options' ids
        alone (`Agent.labels`), the options carry no label (None) and the
        unavailable ones are left out: making labels is most of the cost
        of a decision, and such a bot is given one at every turn."""
        if self.over:
            return None
        point, fr = self._decision_point()
        if not labels:
            return Decision(self.decider, point.prompt(self, fr), tuple([Option(i, None) for i in self.option_ids]))
        return Decision(self.decider, point.prompt(self, fr), tuple(self.legal_options(viewer)),
                        tuple(self.unavailable_options(viewer)))

    def unavailable_options(self, viewer: int | None = None) -> list[Unavailable]:
        """The options the pending decision would offer but for a condition
        that does not hold now (point.unavailable), as `viewer` (by default
        the player deciding) is told them: their labels and reasons through
        visibility.told_to, as the options' labels."""
        if self.over:
            return []
        point, fr = self._decision_point()
        seer = self.decider if viewer is None else viewer
        if point.secretly and seer not in (self.decider, visibility.EVERYTHING):
            return []
        return [Unavailable(visibility.told_to(self, label, seer), visibility.told_to(self, reason, seer))
                for label, reason in point.unavailable(self, fr)]

    def prompt(self) -> str | None:
        """The question of the pending decision (None once the game is over)."""
        if self.over:
            return None
        point, fr = self._decision_point()
        return point.prompt(self, fr)

    def _too_many_decisions(self, point) -> None:
        budget = self.program.decision_budget
        rule = self.program.codes[self.program.decisions[point].code].name
        raise RulesRuntimeError(
            f"the game did not end after {budget} decisions: rule '{rule}' is asking again (active rules: "
            f"{', '.join(f.rule for f in self.execution())})", self.program.decisions[point].span,
            "a loop of decisions must end: check its condition, or raise the decision budget if the game is that long")

    def decision_point(self) -> int | None:
        """The id of the decision point of the rules now asking (None once the
        game is over): two decisions of the same point ask the same question."""
        return self.point

    def _decision_point(self):
        """The pending decision point and the frame it is in."""
        return self.program.decisions[self.point], self.frames[-1]

    def apply_action(self, action_id: str) -> None:
        if self.over:
            raise InvalidActionError("the game is over; no action can be applied")
        ids = self.option_ids
        try:
            i = ids.index(action_id)
        except ValueError:
            raise not_legal(action_id, ids) from None
        program = self.program
        if self.decisions >= program.decision_budget:
            self._too_many_decisions(self.point)
        if self.events is not None:
            value = self.option_values[i]
            label = program.decisions[self.point].label(self, self.frames[-1], value)
            self.events.append(("decision", self.decider, self.point, value, label, False, tuple(self.known)))
        take(self, self.frames[-1], i)
        run(self)
        if program.check_invariants:
            invariants.check(self)

    def play_out(self, choosers: list) -> None:
        """Play on to the end, each seat's decisions answered by
        `choosers[seat](ids) -> id` (None for a seat that is not; the game
        then waits for that seat's decision, as `apply_action` leaves it).
        The same game as asking each chooser in turn and applying its
        answer, without suspending the rules between the decisions: a
        decision is answered where the rules ask it. A state that tells
        what happens (`listen`) or checks invariants after every action
        plays one action at a time, so that both see every decision."""
        inline = self.events is None and not self.program.check_invariants
        if inline:
            self.auto = choosers
        try:
            while not self.over:
                choose = choosers[self.decider]
                if choose is None:
                    return
                self.apply_action(choose(self.option_ids))
        finally:
            self.auto = None

    # -- results
    def _raw_breakdown(self, player: int) -> dict:
        me = self.me
        self.me = player
        try:
            return {label: fn(self) for label, fn in self.program.score_terms}
        finally:
            self.me = me

    def score_breakdown(self, player: int) -> dict:
        """The score by category for one player, as if the game ended now."""
        return {label: _number(v) for label, v in self._raw_breakdown(player).items()}

    def scores(self) -> list:
        return [_total(self._raw_breakdown(p).values()) for p in range(self.n)]

    def tiebreaks(self, player: int) -> list:
        me = self.me
        self.me = player
        try:
            return [fn(self) for fn in self.program.tiebreaks]
        finally:
            self.me = me

    def outcome(self) -> str | None:
        """How the players fared together: "won" (`end game won`, or the best
        shared score of `cooperative score` reached), "lost" (`end game
        lost`), or None when the score alone decides."""
        if self.lost:
            return "lost"
        if self.won or (self.program.shared_best is not None and self.shared_score() >= self.best_score()):
            return "won"
        return None

    def top_scorers(self, scores: list | None = None) -> list[int]:
        """The seats with the best score (then tiebreaks), whatever the outcome:
        in a game won or lost together, the best player of the team. (`scores`:
        the scores, where they are known already.)"""
        keys = [(s, *self.tiebreaks(p)) for p, s in enumerate(self.scores() if scores is None else scores)]
        best = max(keys)
        return [p for p, k in enumerate(keys) if k == best]

    # -- who plays with whom, and for what
    def team_values(self) -> list | None:
        """Each seat's value of `teams by EXPR` (None without it): the players
        of equal values are a team."""
        fn = self.program.team_of
        if fn is None:
            return None
        me = self.me
        try:
            out = []
            for p in range(self.n):
                self.me = p
                out.append(_number(fn(self)))
            return out
        finally:
            self.me = me

    def teams(self) -> list[int]:
        """The team of each seat, numbered 0, 1, ... in the order of the
        first seat of each: the teams of `teams by`, one team for the whole
        table in a `cooperative score` game, else each seat alone."""
        if self.program.shared_best is not None:
            return [0] * self.n
        values = self.team_values()
        if values is None:
            return list(range(self.n))
        index: dict = {}
        return [index.setdefault(v, len(index)) for v in values]

    def shared_score(self):
        """The players' shared score in a `cooperative score` game: the mean
        of their scores, 0 in a game the rules end lost."""
        if self.lost:
            return 0
        return _number(Fraction(sum(Fraction(s) for s in self.scores())) / self.n)

    def best_score(self):
        """The most the shared score can reach (`cooperative score out of BEST`)."""
        return _number(self.program.shared_best(self))

    def winners(self, scores: list | None = None) -> list[int]:
        """The winning seats: every seat when the rules ended the game won
        together (or the best shared score was reached), none when they
        ended it lost or a shared score fell short, else the top scorers,
        or with `teams by` every member of the team with the best total
        score (then tiebreaks)."""
        outcome = self.outcome()
        if outcome is not None:
            return list(range(self.n)) if outcome == "won" else []
        if self.program.shared_best is not None:
            return []
        teams = self.teams()
        if self.program.team_of is None:
            return self.top_scorers(scores)
        totals: dict = {}
        for p, s in enumerate(self.scores() if scores is None else scores):
            key = totals.setdefault(teams[p], [0] * (1 + len(self.program.tiebreaks)))
            for i, v in enumerate((s, *self.tiebreaks(p))):
                key[i] += v
        best = max(totals.values())
        return [p for p in range(self.n) if totals[teams[p]] == best]

    def objectives(self) -> list[float]:
        """What each seat plays for, in [0, 1], as if the game ended now: the
        one value bots maximise and agents are rewarded with. A game won
        together is worth 1 to each, lost 0; a `cooperative score` game its
        shared score over the best it can reach; otherwise 1 to each member
        of the winning team (each seat alone without `teams by`), shared by
        k teams tied on the win, 0 to the others."""
        if self.program.shared_best is not None and self.outcome() is None:
            best = self.best_score()
            share = float(self.shared_score()) / best if best > 0 else 0.0
            return [min(1.0, max(0.0, share))] * self.n
        winners = self.winners()
        if self.outcome() == "won":
            return [1.0] * self.n
        teams = self.teams()
        k = len({teams[w] for w in winners})
        return [1.0 / k if p in winners else 0.0 for p in range(self.n)]

    def objective(self, seat: int) -> float:
        """What `seat` plays for (see `objectives`)."""
        return self.objectives()[seat]

    def returns(self) -> list[float]:
        """Each seat's objective once the game is over (1 shared among the
        winners, 1 each in a game won together, the share of the best
        shared score in a `cooperative score` game); all 0 before the end."""
        if not self.over:
            return [0.0] * self.n
        return self.objectives()

    def result(self) -> dict:
        """Scores, breakdowns and winners; a game won or lost together also
        gives its `outcome` and its `top_scorers` (the best of the team); a
        `cooperative score` game its `shared_score` and `best_score`; a game
        of `teams by` each seat's `team`."""
        raw = [self._raw_breakdown(p) for p in range(self.n)]  # each score term once per player
        scores = [_total(terms.values()) for terms in raw]
        result = {
            "players": self.n,
            "scores": scores,
            "breakdown": [{label: _number(v) for label, v in terms.items()} for terms in raw],
            "winners": self.winners(scores),
            "turns": self.turns,
            "first_player": self.first,
            "lost": bool(self.lost),
        }
        if self.outcome() is not None:
            result["outcome"] = self.outcome()
            result["top_scorers"] = self.top_scorers(scores)
        if self.program.shared_best is not None:
            result["top_scorers"] = self.top_scorers(scores)
            result["shared_score"] = self.shared_score()
            result["best_score"] = self.best_score()
        if self.program.team_of is not None:
            result["teams"] = self.team_values()
        return result

    def rule_coverage(self) -> dict:
        """How often each named rule ran: {"effect draw": 12, "action pass": 3, ...}
        (counted by a game loaded with coverage, in a state started with it)."""
        if self.cov is None:
            return {}
        return {code.name: self.cov[i] for i, code in enumerate(self.program.codes) if i != self.program.main}

    def card_reads(self) -> dict:
        """How often the rules read a field of each card while it was out of
        the zone every card starts in: {"card-id": 3, ...}, non-zero only.
        Counted only by a game loaded with coverage, in a state started with it."""
        if self.cov is None or not self.program.coverage:
            return {}
        base, ids = len(self.program.codes), self.program.card_ids
        return {ids[c]: k for c, k in enumerate(self.cov[base:base + len(ids)]) if k}

    # -- what a player may see
    def observation(self, player: int) -> dict:
        """What `player` (a seat, or visibility.PUBLIC) may see, as plain data:
        counters (None where a value is not seen), zones (card ids, or
        {"count": n} where the cards are not seen). Made when first asked
        for and kept until the position changes: asking again for the same
        viewer gives the same dict, which is to be read, not changed."""
        made = self.observed
        if made is None:
            made = self.observed = {}
        else:
            obs = made.get(player)
            if obs is not None:
                return obs
        obs = made[player] = _observation.build(self, player)
        return obs

    def shown_values(self, viewer: int) -> dict:
        """The values the rules show per player (`show NAME per player`), as
        `viewer` may see them: {name: [value or None, one per player]}."""
        out = {}
        for name, (vis, fn) in self.program.shown_values.items():
            me = self.me
            try:
                values = []
                for p in range(self.n):
                    self.me = p
                    values.append(fn(self) if vis == "visible" or p == viewer else None)
            finally:
                self.me = me
            out[name] = [_number(v) if v is not None else None for v in values]
        return out

    # -- reading and arranging positions by name (for scenarios, tests, tools)
    def _owner_index(self, scope: str, owner) -> int:
        if scope == "shared":
            if owner is not None:
                raise RulesError("this counter or zone is shared; it has no owner")
            return 0
        if scope == "card":
            return self.card_index(owner)
        return self.me if owner is None else owner

    def card_index(self, card_id: str) -> int:
        try:
            return self.program.card_ids.index(card_id)
        except ValueError:
            raise RulesError(f"no card with id '{card_id}'") from None

    def counter(self, name: str, owner=None) -> int:
        info = self.program.counters[name]
        return self.ctr[info.index][self._owner_index(info.scope, owner)]

    def set_counter(self, name: str, value: int, owner=None) -> None:
        self.forget_history()
        info = self.program.counters[name]
        self.ctr[info.index][self._owner_index(info.scope, owner)] = value

    def zone(self, name: str, owner=None) -> list:
        """Card ids in a zone, bottom/first slot first (None for an empty slot)."""
        info = self.program.zones[name]
        ids = self.program.card_ids
        return [ids[c] if c is not None else None for c in self.z[info.base + self._owner_index(info.scope, owner)]]

    def where(self, card_id: str) -> tuple:
        """(zone name, owner) of a card; owner is a seat, a card id or None."""
        zi = self.loc[self.card_index(card_id)]
        info = self.program.zone_of_instance[zi]
        owner = zi - info.base
        return info.name, {"shared": None, "player": owner, "card": self.program.card_ids[owner] if info.scope == "card" else None}[info.scope]

    def place(self, card_id: str, zone: str, owner=None, slot: int | None = None) -> None:
        """Move a card to a zone (to the top, or into `slot` of a slotted zone),
        without firing triggers. Call `refresh()` after arranging a position."""
        self.forget_history()
        card = self.card_index(card_id)
        info = self.program.zones[zone]
        zi = info.base + self._owner_index(info.scope, owner)
        old = ops.zone_to_change(self, self.loc[card])
        if self.program.zone_of_instance[self.loc[card]].slots:
            old[old.index(card)] = None
        else:
            old.remove(card)
        if slot is None:
            ops.put(self, card, zi)
            return
        if self.z[zi][slot] is not None:
            raise RulesError(f"slot {slot} of '{zone}' already holds '{self.program.card_ids[self.z[zi][slot]]}'")
        ops.zone_to_change(self, zi)[slot] = card
        self.loc[card] = zi

    def refresh(self) -> None:
        """Ask the pending decision again, after a position was arranged."""
        if self.over or self.point is None:
            return
        self.frames[-1][FRAME_BLOCK] = self.program.decisions[self.point].ask
        self.clear_pending()
        self.observed = None
        run(self)

    # -- saving
    def to_json(self) -> str:
        """The position as JSON text; `Game.state_from_json` reads it back."""
        return saves.dump(self)


def _number(value):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else _rounded(value.numerator, value.denominator)
    return value


def _rounded(n: int, d: int) -> float:
    """float(round(Fraction(n, d), 4)) for d > 0 (to 4 places, half to even),
    worked out on the two integers: Fraction's own methods cost as much as
    the rest of scoring a game."""
    q, r = divmod(n * 10_000, d)
    if 2 * r > d or (2 * r == d and q % 2):
        q += 1
    return q / 10_000


def _total(values):
    """_number(sum(values)) for a score's terms, adding the ints and
    Fractions (a prize shared by a tie) as one numerator over one
    denominator rather than through Fraction arithmetic; any other value
    is added as `sum` adds it."""
    n, d = 0, 1
    for v in values:
        if v.__class__ is int:
            n += v * d
        elif v.__class__ is Fraction:
            n, d = n * v.denominator + v.numerator * d, d * v.denominator
        else:
            return _number(sum(values))
    if n % d == 0:
        return n // d
    return _rounded(n, d)
