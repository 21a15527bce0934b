"""Greedy: the best end of the current turn, by the generic evaluation."""
from __future__ import annotations

from .. import rng
from ..rng import MASK
from ..errors import RulesError
from .base import Agent, ProgressGuard, parse_options, register
from .evaluate import evaluator_for
from .weights import LIMITS, evaluation_weights, weights_for

SOONER = 1e-6  # the weight of the value now beside the value later: it only breaks ties


@register
class GreedyAgent(Agent):
    """Looks ahead to the end of the player's own turn, on a sampled world.

    For each option it plays the rest of the turn several times at random and
    keeps the best end reached: the player controls the rest of the turn, so
    the best of a few completions estimates what the option allows. An end of
    turn is valued by the generic evaluation of `evaluate.py` (the rules'
    score, plus held cards credited with what moving them would score, plus
    smoothed counters; minus the best other player's value). Ties are broken
    by a seeded random draw.

    Where a turn is too short to score (one action, and what it sets up pays
    only on the next turn), every option looks the same at the end of it:
    `turns=2` looks one own turn further. From each end of the turn, the
    others' decisions are played at random (they are not the player's to
    choose: one sample, never the best of several) until the player decides
    again, and that next turn is completed the same way, the best end kept.
    Each turn looked ahead multiplies the work by about `tries`.

    Options, `key=value` separated by ':': `tries` (12; a bare number sets
    it: `greedy:4`), `worlds` (sampled worlds averaged, 1), `discount`
    (credit for held cards) and `turns` (own turns looked ahead), both by
    default the values measured for the rules file (weights.py), `patience`
    (the progress guard, 3; 0 turns it off).
    """

    name = "greedy"
    labels = False  # it reads the options' ids, never their labels
    usage = "greedy[:TRIES]"
    # (converter, default, least, most): the limits bound the work of one decision (docs/security.md)
    settings = {"tries": (int, 12, 0, 10_000), "worlds": (int, 1, 0, 100), "discount": (float, None, 0, 100),
                "turns": (int, None, *LIMITS["turns"][1:]), "patience": (int, 3, 0, 1_000)}
    positional = "tries"
    # The most ends of turn one option may be valued at (`tries` raised to
    # `turns`): what `tries` alone may ask, so that looking further ahead
    # cannot multiply the work of a decision past the limits.
    most_ends = settings["tries"][3]

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        super().__init__(seed, seat, options)
        opts = parse_options(self.name, options, self.settings, self.positional,
                             examples="greedy:4 or greedy:tries=4:worlds=2")
        self.tries = max(1, opts["tries"])
        self.samples = max(1, opts["worlds"])
        self.discount = opts["discount"]
        self.turns = opts["turns"]
        if self.turns is not None and self.tries ** self.turns > self.most_ends:
            raise RulesError(f"bot 'greedy': tries={self.tries} with turns={self.turns} values up to "
                             f"{self.tries ** self.turns:,} ends of turn an option, more than {self.most_ends:,} "
                             f"(the limit)")
        self.guard = ProgressGuard(opts["patience"])
        self.rng = rng.seed_state((seed + 1) * 2_000_003 + seat * 104_729)

    def choose(self, decision, observation, worlds=None) -> str:
        options = self.guard.allowed(decision, observation, [o.id for o in decision.options])
        choice = self._choose(decision, options, worlds)
        self.guard.record(choice)
        return choice

    def _choose(self, decision, options, worlds) -> str:
        if worlds is None or len(options) == 1:
            self.rng, i = rng.below(self.rng, len(options))
            return options[i]
        player = decision.player
        totals = [0.0] * len(options)
        for _ in range(self.samples):
            world = worlds()
            ev = evaluator_for(world.program, **self.weights(world.program))
            turns = self.lookahead(world.program)
            for i, option in enumerate(options):
                # (the last option is played on the sample itself: nothing reads it after)
                after = world if i == len(options) - 1 else world.clone()
                totals[i] += self.best_end(after, option, player, ev, turns)
        best = max(totals)
        ties = [o for o, t in zip(options, totals) if t >= best - 1e-9]
        self.rng, i = rng.below(self.rng, len(ties))
        return ties[i]

    def weights(self, program) -> dict:
        """The evaluation's weights: those the options set, else the rules file's."""
        weights = evaluation_weights(weights_for(program))
        if self.discount is not None:
            weights["discount"] = self.discount
        return weights

    def lookahead(self, program) -> int:
        """The own turns looked ahead: the option's, else the rules file's
        (fewer where `tries` is so high that they would pass `most_ends`)."""
        if self.turns is not None:
            return self.turns
        turns = weights_for(program)["turns"]
        while turns > 1 and self.tries ** turns > self.most_ends:
            turns -= 1
        return turns

    def best_end(self, after, option: str, player: int, ev, turns: int = 1) -> float:
        """The best value of the end of the turn reached after `option` (or,
        with `turns` > 1, of the player's later turns), played on the
        position `after` (which it changes)."""
        turn = after.turns
        after.apply_action(option)
        return self.best_completion(after, player, turn, ev, turns)

    def best_completion(self, after, player: int, turn: int, ev, turns: int) -> float:
        """The best value reached by completing turn `turn` from `after` (which it changes)."""
        if _turn_over(after, player, turn):
            return self.beyond(after, player, ev, turns)
        # The completions share their first steps: each position reached is
        # played and valued once, in a tree of the positions met, while the
        # random draws are made exactly as if each completion were played
        # from the start (so the choice is the same).
        root = _Step(after, player, turn)
        if turns <= 1:  # (`beyond` where it looks no further: the evaluation's margin, no draw)
            best, self.rng = root.best(self.rng, player, turn, self.tries, ev.margin)
            return best
        best = None
        r = self.rng
        last = self.tries - 1
        for k in range(self.tries):
            step, r = root.walk(r, player, turn, k == last)
            if step.value is None:
                self.rng = r
                step.value = self.beyond(step.st, player, ev, turns)
                r = self.rng
                step.st = None  # (nothing reads an end of turn once valued: the memory goes back at once)
            if best is None or step.value > best:
                best = step.value
        self.rng = r
        return best

    def beyond(self, end, player: int, ev, turns: int) -> float:
        """The value of `end`, an end of the player's turn (which it changes):
        the evaluation's, or with more `turns` to look at, the best
        completion of the player's next turn after the others' decisions,
        drawn at random in between."""
        now = ev.margin(end, player)
        if turns <= 1 or end.over:
            return now
        draws = rng.Draws(self.rng)
        choosers = [draws] * end.n
        choosers[player] = None  # the game waits at the player's next decision
        end.play_out(choosers)
        self.rng = draws.state
        later = ev.margin(end, player) if end.over else self.best_completion(end, player, end.turns, ev, turns - 1)
        # Between two options that reach the same value later, the one that
        # has it sooner: else a gain put off to the next turn looks as good
        # as one taken now, and is put off again and again.
        return later + SOONER * now


class _Step:
    """A position met while completing a turn: the options (None once the
    turn is over), the positions each option led to, and its value."""

    __slots__ = ("st", "ids", "children", "value")

    def __init__(self, st, player: int, turn: int):
        self.st = st
        # (`_turn_over` written out: a step is made for every position met; the
        # state's own list of ids is read, never copied: a state never changes it in place)
        self.ids = None if st.over or st.turns != turn or st.decider != player else st.option_ids
        self.children = {}
        self.value = None

    def walk(self, r: int, player: int, turn: int, last: bool) -> tuple:
        """(the end of the turn one walk from here reaches, the generator
        after). At each step an option drawn as `rng.below(r, len(ids))`
        draws it, the step it leads to looked up, else opened; the draw is
        written out (constants and all): this is the inner loop of every
        decision. The `last` walk of a tree opens its steps on the positions
        themselves: no walk comes after it to read them."""
        step = self
        ids = step.ids
        while ids is not None:
            r = (r + 0x9E3779B97F4A7C15) & MASK
            z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            i = ((z ^ (z >> 31)) * len(ids)) >> 64
            step = step.children.get(i) or step.child(i, player, turn, last)
            ids = step.ids
        return step, r

    def best(self, r: int, player: int, turn: int, tries: int, value) -> tuple:
        """(the best `value(position, player)` of the ends of the turn `tries`
        walks from here reach, the generator after), each end valued when
        first reached and its position let go at once."""
        best = None
        final = tries - 1
        walk = self.walk
        for k in range(tries):
            step, r = walk(r, player, turn, k == final)
            found = step.value
            if found is None:
                found = step.value = value(step.st, player)
                step.st = None  # (nothing reads an end of turn once valued: the memory goes back at once)
            if best is None or found > best:
                best = found
        return best, r

    def child(self, i: int, player: int, turn: int, last: bool = False) -> "_Step":
        """The step option `i` leads to, opened now (the walk looks among
        `children` first); on the position itself where this is the `last`
        walk of the tree."""
        st = self.st
        if not last and len(self.children) < len(self.ids) - 1:
            st = st.clone()
        else:  # the last option opened here, or the last walk, takes the position itself: nothing reads it after
            self.st = None
        st.apply_action(self.ids[i])
        step = self.children[i] = _Step(st, player, turn)
        return step


def _turn_over(st, player: int, turn: int) -> bool:
    return st.over or st.turns != turn or st.current_player() != player
