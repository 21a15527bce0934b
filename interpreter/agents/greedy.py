"""Greedy: the best end of the current turn, by the generic evaluation."""
from __future__ import annotations

from .. import rng
from .base import Agent, ProgressGuard, parse_options, register
from .evaluate import evaluator_for
from .weights import weights_for


@register
class GreedyAgent(Agent):
    """Looks ahead to the end of the player's own turn, on a sampled world.

    For each option it plays the rest of the turn several times at random and
    keeps the best end reached: the player controls the rest of the turn, so
    the best of a few completions estimates what the option allows. An end of
    turn is valued by the generic evaluation of `evaluate.py` (the rules'
    score, plus held cards credited with what moving them would score, plus
    smoothed counters; minus the best other player's value). Ties are broken
    by a seeded random draw. Options, `key=value` separated by ':':
    `tries` (12; a bare number sets it: `greedy:4`), `worlds` (sampled
    worlds averaged, 1), `discount` (credit for held cards: by default the
    weight measured for the rules file, weights.py), `patience` (the progress
    guard, 3; 0 turns it off).
    """

    name = "greedy"
    usage = "greedy[:TRIES]"
    # (converter, default, least, most): the limits bound the work of one decision (docs/security.md)
    settings = {"tries": (int, 12, 0, 10_000), "worlds": (int, 1, 0, 100), "discount": (float, None, 0, 100),
                "patience": (int, 3, 0, 1_000)}
    positional = "tries"

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        super().__init__(seed, seat, options)
        opts = parse_options(self.name, options, self.settings, self.positional,
                             examples="greedy:4 or greedy:tries=4:worlds=2")
        self.tries = max(1, opts["tries"])
        self.samples = max(1, opts["worlds"])
        self.discount = opts["discount"]
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
            for i, option in enumerate(options):
                # (the last option is played on the sample itself: nothing reads it after)
                totals[i] += self.best_end(world if i == len(options) - 1 else world.clone(), option, player, ev)
        best = max(totals)
        ties = [o for o, t in zip(options, totals) if t >= best - 1e-9]
        self.rng, i = rng.below(self.rng, len(ties))
        return ties[i]

    def weights(self, program) -> dict:
        """The evaluation's weights: those the options set, else the rules file's."""
        weights = weights_for(program)
        if self.discount is not None:
            weights["discount"] = self.discount
        return weights

    def best_end(self, after, option: str, player: int, ev) -> float:
        """The best value of the end of the turn reached after `option`, played
        on the position `after` (which it changes)."""
        turn = after.turns
        after.apply_action(option)
        if _turn_over(after, player, turn):
            return ev.margin(after, player)
        # The completions share their first steps: each position reached is
        # played and valued once, in a tree of the positions met, while the
        # random draws are made exactly as if each completion were played
        # from the start (so the choice is the same).
        root = _Step(after, player, turn)
        best = None
        r = self.rng
        for _ in range(self.tries):
            step = root
            while step.ids is not None:
                r, i = rng.below(r, len(step.ids))
                step = step.child(i, player, turn)
            if step.value is None:
                step.value = ev.margin(step.st, player)
                step.st = None  # (nothing reads an end of turn once valued: the memory goes back at once)
            if best is None or step.value > best:
                best = step.value
        self.rng = r
        return best


class _Step:
    """A position met while completing a turn: the options (None once the
    turn is over), the positions each option led to, and its value."""

    __slots__ = ("st", "ids", "children", "value")

    def __init__(self, st, player: int, turn: int):
        self.st = st
        self.ids = None if _turn_over(st, player, turn) else st.legal_actions()
        self.children = {}
        self.value = None

    def child(self, i: int, player: int, turn: int) -> "_Step":
        step = self.children.get(i)
        if step is None:
            st = self.st
            if len(self.children) < len(self.ids) - 1:
                st = st.clone()
            else:  # the last option opened here takes the position itself: nothing reads it after
                self.st = None
            st.apply_action(self.ids[i])
            step = self.children[i] = _Step(st, player, turn)
        return step


def _turn_over(st, player: int, turn: int) -> bool:
    return st.over or st.turns != turn or st.current_player() != player
