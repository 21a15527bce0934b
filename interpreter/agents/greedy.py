"""One-step lookahead by the rules' own scoring, on sampled worlds."""
from __future__ import annotations

from ..engine import rng
from ..errors import RulesError
from .base import Agent, register


@register
class GreedyAgent(Agent):
    """Scores each option by the player's score margin at the end of the
    current turn (the rest of the turn played at random on a sampled world):
    own score minus the best other score, plus a small bonus for every counter
    the player holds (the resources the rules count). `greedy:N` averages N
    sampled worlds (default 2). Ties are broken by a seeded random draw."""

    name = "greedy"

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        super().__init__(seed, seat, options)
        self.samples = 2
        if options:
            try:
                self.samples = max(1, int(options))
            except ValueError:
                raise RulesError(f"bot 'greedy' takes a number of sampled worlds (greedy:3), got '{options}'") from None
        self.rng = rng.seed_state((seed + 1) * 2_000_003 + seat * 104_729)

    def choose(self, decision, observation, worlds=None) -> str:
        options = [o.id for o in decision.options]
        if worlds is None or len(options) == 1:
            self.rng, i = rng.below(self.rng, len(options))
            return options[i]
        totals = [0.0] * len(options)
        for _ in range(self.samples):
            world = worlds()
            for i, option in enumerate(options):
                after = world.clone()
                after.apply_action(option)
                self.finish_turn(after)
                totals[i] += evaluate(after, decision.player)
        best = max(totals)
        ties = [o for o, t in zip(options, totals) if t == best]
        self.rng, i = rng.below(self.rng, len(ties))
        return ties[i]


    def finish_turn(self, st) -> None:
        turn = st.turns
        while not st.is_terminal() and st.turns == turn:
            ids = st.legal_actions()
            self.rng, i = rng.below(self.rng, len(ids))
            st.apply_action(ids[i])


def evaluate(st, player: int) -> float:
    scores = st.scores()
    others = [s for p, s in enumerate(scores) if p != player]
    margin = scores[player] - (max(others) if others else 0)
    held = sum(values[player] for info, values in zip(st.program.counter_list, st.ctr) if info.scope == "player")
    return float(margin) + 0.01 * held
