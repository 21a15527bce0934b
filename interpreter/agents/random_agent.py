"""The uniform random agent, seeded; it never reads the state."""
from __future__ import annotations

from ..engine import rng
from ..errors import RulesError
from .base import Agent, register


@register
class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        super().__init__(seed, seat, options)
        if options:
            raise RulesError(f"bot 'random' takes no options (got '{options}')")
        self.rng = rng.seed_state((seed + 1) * 1_000_003 + seat * 7919)

    def choose(self, decision, observation, worlds=None) -> str:
        self.rng, i = rng.below(self.rng, len(decision.options))
        return decision.options[i].id

    def choose_id(self, ids) -> str:
        """Fast path for simulations: pick among ids without making labels."""
        self.rng, i = rng.below(self.rng, len(ids))
        return ids[i]
