"""Agents that answer decision points, and the registry `--bots` names them from."""
from __future__ import annotations

from .base import Agent, bot_usages, make_agent, make_agents, AGENTS
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent

__all__ = ["Agent", "AGENTS", "bot_usages", "GreedyAgent", "MCTSAgent", "RandomAgent", "make_agent", "make_agents"]
