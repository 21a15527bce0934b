"""The agent interface and the registry of agents by name."""
from __future__ import annotations

from ..errors import RulesError

AGENTS: dict = {}


class Agent:
    """Answers a decision from what its player may see.

    `choose` gets the decision (its options with ids and labels) and the
    player's observation, never the full state.
    """

    name = "agent"

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        self.seed, self.seat = seed, seat

    def choose(self, decision, observation: dict) -> str:
        raise NotImplementedError


def register(cls):
    AGENTS[cls.name] = cls
    return cls


def make_agent(spec: str, seed: int, seat: int) -> Agent:
    """An agent from a spec such as `random` or `mcts:200`."""
    name, _, options = spec.strip().partition(":")
    cls = AGENTS.get(name)
    if cls is None:
        from ..errors import did_you_mean

        hint = did_you_mean(name, AGENTS)
        raise RulesError(f"unknown bot '{name}'; known bots: {', '.join(sorted(AGENTS))}" + (f" ({hint})" if hint else ""))
    return cls(seed=seed, seat=seat, options=options or None)


def make_agents(spec: str, players: int, seed: int) -> list:
    """One agent per seat from `random` (all seats) or `random,random,...`."""
    names = [s for s in spec.split(",") if s.strip()]
    if not names:
        raise RulesError("no bot named; use e.g. --bots random")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise RulesError(f"{len(names)} bots named for {players} players; name one bot for all seats or one per seat")
    return [make_agent(name, seed, seat) for seat, name in enumerate(names)]
