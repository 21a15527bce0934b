"""The uniform random agent, seeded; it never reads the state."""
from __future__ import annotations

from .. import rng
from ..errors import RulesError
from .base import Agent, register


@register
class RandomAgent(Agent):
    name = "random"
    usage = "random"

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        super().__init__(seed, seat, options)
        if options:
            raise RulesError(f"bot 'random' takes no options (got '{options}')")
        self.rng = rng.seed_state((seed + 1) * 1_000_003 + seat * 7919)

    def choose(self, decision, observation, worlds=None) -> str:
        self.rng, i = rng.below(self.rng, len(decision.options))
        return decision.options[i].id

    def choose_id(self, ids) -> str:
        """Fast path for simulations: pick among ids without making labels
        (the draw of `rng.below`, written out: this is the inner loop of
        every random-bot simulation)."""
        state = (self.rng + 0x9E3779B97F4A7C15) & rng.MASK
        self.rng = state
        x = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & rng.MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & rng.MASK
        return ids[((x ^ (x >> 31)) * len(ids)) >> 64]
