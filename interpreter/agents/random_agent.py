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
        self.draws = rng.Draws(rng.seed_state((seed + 1) * 1_000_003 + seat * 7919))
        # Simulations ask for ids only (no labels are made): the generator
        # itself, which a state playing on by itself draws from by position.
        self.choose_id = self.draws

    def choose(self, decision, observation, worlds=None) -> str:
        return self.choose_id([o.id for o in decision.options])
