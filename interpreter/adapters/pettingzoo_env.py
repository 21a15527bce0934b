"""Any rules file as a PettingZoo AEC environment (extra `rl`: numpy, pettingzoo).

    from interpreter.adapters.pettingzoo_env import env
    e = env("rules/some.rules", players=3)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- Agents are `player_0` .. `player_{n-1}` (seat order). `agent_selection` is
  always the seat the rules ask to decide; a seat the rules never ask (an
  automaton written in the rules) stays in `agents`, is never selected while
  the game runs, and gets its final reward and termination with the others.
- Actions: `Discrete(N)` over the rules' action vocabulary (see encoding.py);
  observations: `{"observation": float32 vector, "action_mask": int8 vector}`,
  built only from what that seat may see. The mask is all zeros for a seat
  that is not deciding.
- Rewards come at the end: `reward="score"` (default) gives each seat its final
  score minus the mean score of the other seats (the score difference with 2
  players); with `teams by`, its team's score (the sum of its players')
  minus the mean score of the other teams, the same for every player of a
  team; with `cooperative score`, the shared score (0 in a game lost),
  the same for every seat. `reward="win"` gives the engine's returns (1
  shared among the winners, 0 otherwise; 1 for each player of a winning
  team; the shared score over its best in a cooperative game).
- Seeding: `reset(seed=s)` plays the same game as `new_initial_state(players,
  s)`; a `reset()` without a seed continues a seeded sequence of games made
  from the last seed (fresh entropy if no seed was ever given).
- `max_decisions` truncates a game that runs too long (all agents truncated,
  reward 0); so does the engine's turn budget (`Game.set_limits(turns=...)`),
  which would otherwise stop the game with an error.
"""
from __future__ import annotations

import secrets
from pathlib import Path

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .. import rng as _rng
from ..game import Game
from ..loader import load_game
from ..view import table_view, unseen_words
from .encoding import Encoding

REWARDS = ("score", "win")


class RulesEnv(AECEnv):
    """A PettingZoo AEC environment for one rules file and player count."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rules_v0", "is_parallelizable": False}

    def __init__(self, rules, players: int | None = None, reward: str = "score", render_mode: str | None = None,
                 max_decisions: int | None = 10_000, extra_action_ids=(), overrides: dict | None = None):
        super().__init__()
        self.game: Game = rules if isinstance(rules, Game) else load_game(rules, overrides)
        lo, hi = self.game.player_range
        self.n = lo if players is None else int(players)
        if not lo <= self.n <= hi:
            allowed = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ValueError(f"{self.game.title} is played by {allowed} players, not {players}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.reward_kind = reward
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.encoding = enc = Encoding(self.game, extra_action_ids)
        stem = Path(self.game.path).stem.replace("-", "_") or "rules"
        self.metadata = {**self.metadata, "name": f"{stem}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(self.n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        low = np.array(enc.low, dtype=np.float32)
        high = np.array(enc.high, dtype=np.float32)
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(enc.num_actions,), dtype=np.int8),
            }) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in self.possible_agents}
        self.game_state = None  # the engine's GameState, once reset
        self._seed_chain = None
        self.agents = []

    # -- spaces (the same objects on every call)
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the game
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            game_seed = int(seed)
            self._seed_chain = _rng.seed_state(game_seed)
        else:
            if self._seed_chain is None:
                self._seed_chain = _rng.seed_state(secrets.randbits(63))
            self._seed_chain, game_seed = _rng.next_u64(self._seed_chain)
        self.seed_used = game_seed
        self.game_state = self.game.new_initial_state(self.n, game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.decisions = 0
        if self.game_state.is_terminal():  # rules that end during setup
            self._finish()
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def observe(self, agent):
        seat = self.agent_name_mapping[agent]
        enc = self.encoding
        vec = np.zeros(enc.size, dtype=np.float32)
        enc.fill(vec, self.game_state, seat)
        mask = np.zeros(enc.num_actions, dtype=np.int8)
        if not self.game_state.is_terminal() and self.game_state.current_player() == seat:
            mask[enc.legal_indices(self.game_state)] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: step(None) is only for agents whose game is over")
        action_id = self.encoding.id_of(action)
        legal = self.game_state.legal_actions()
        if action_id not in legal:
            raise ValueError(f"action {int(action)} ('{action_id}') is not legal for {agent} now; legal: {', '.join(legal)}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.game_state.apply_action(action_id)
        self.decisions += 1
        if self.game_state.is_terminal():
            self._finish()
        elif self._too_long():
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _too_long(self) -> bool:
        # the engine stops a game past its turn budget with an error: cut it first
        st = self.game_state
        return ((self.max_decisions is not None and self.decisions >= self.max_decisions)
                or st.turns >= st.program.turn_budget)

    def _finish(self):
        self.terminations = {a: True for a in self.agents}
        for a, r in zip(self.possible_agents, self.final_rewards()):
            if a in self.rewards:
                self.rewards[a] = r

    def final_rewards(self) -> list:
        st = self.game_state
        if self.reward_kind == "win":
            return [float(r) for r in st.returns()]
        if st.program.shared_best is not None:
            return [float(st.shared_score())] * self.n
        scores = [float(s) for s in st.scores()]
        teams = st.teams()
        totals: dict = {}
        for s, t in zip(scores, teams):
            totals[t] = totals.get(t, 0.0) + s
        if len(totals) == 1:
            return [totals[t] for t in teams]
        return [totals[t] - (sum(totals.values()) - totals[t]) / (len(totals) - 1) for t in teams]

    # -- display
    def render(self):
        if self.render_mode is None:
            return None
        text = render_text(self.game_state, max(self.game_state.current_player(), 0))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # -- conveniences
    def action_id(self, action: int) -> str:
        """The rules' id of a discrete action."""
        return self.encoding.id_of(action)

    def action_index(self, action_id: str) -> int:
        return self.encoding.index_of(action_id)


def render_text(st, viewer: int) -> str:
    """What `viewer` sees, as plain text, with the pending decision."""
    view = table_view(st, viewer)
    lines = [f"{view['title']} - {view['when']} (seen by player {viewer + 1})"]
    for name, zone in view["shared"]:
        lines.append(f"  {name}: {_zone_text(zone)}")
    for name, value in view["shared_counters"].items():
        lines.append(f"  {name}: {value}")
    for p in view["players"]:
        mark = " (deciding)" if p["seat"] == view["current_player"] else ""
        counters = ", ".join(f"{k} {v}" for k, v in p["counters"].items())
        lines.append(f"player {p['seat'] + 1}{mark}: {counters}")
        for name, zone in p["zones"]:
            lines.append(f"    {name}: {_zone_text(zone)}")
    if st.is_terminal():
        lines.append(f"game over; scores {st.scores()}, winners {[w + 1 for w in st.winners()]}")
    elif st.current_player() == viewer:
        decision = st.decision()
        lines.append(f"{decision.prompt}:")
        lines += [f"  [{o.id}] {o.label}" for o in decision.options]
    return "\n".join(lines)


def _zone_text(zone: dict) -> str:
    if "count" in zone:
        return "; ".join(unseen_words(zone))
    items = zone.get("slots", zone.get("cards", []))
    return "; ".join("-" if c is None else c for c in items) or "-"


def env(rules, **kwargs) -> RulesEnv:
    """The environment for `rules` (a path or a loaded Game); see RulesEnv."""
    return RulesEnv(rules, **kwargs)
