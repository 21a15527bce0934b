"""Any rules file as an OpenSpiel Python game (extra `openspiel`: open_spiel).

    from interpreter.adapters.openspiel_game import load
    game = load("rules/some.rules", players=3)       # a pyspiel.Game
    state = game.new_initial_state()                 # a chance node: the seed

`register(path)` registers the rules under a short name (`python_rules_<file
stem>`), after which `pyspiel.load_game("python_rules_<stem>(players=3)")`,
game/state serialization and pickling work like for any OpenSpiel game.

Chance. The engine draws every random event (shuffles, `pick ... at random`)
from a seeded generator held in the state. The adapter makes the seed one
explicit chance node at the start of the game: chance picks one of `seeds`
outcomes (default 2**16) uniformly, and outcome k plays exactly the game of
`new_initial_state(players, seed=k)`. Nobody observes the seed; players learn
about it only through what the rules show them. Rules without randomness have
no chance node (DETERMINISTIC), and are PERFECT_INFORMATION when nothing is
hidden either.

Returns are the engine's `returns()`: 1 shared among the winners, 0 for the
others (constant-sum 1 unless the rules can end a game lost, or won together:
then 1 for every player; with `teams by`, 1 for each player of the winning
team; with `cooperative score`, the shared score over its best for every
player: general-sum then). A game that
reaches `max_game_length` is cut there and scored as it stands.

Observations (`make_py_observer`): the observation tensor is the vector of
encoding.py for the viewer (never hidden cards); the observation string is
`GameState.observation(player)` as JSON, plus the pending decision when the
player is deciding. The information state (perfect recall) adds the player's
history: the string carries a digest of every distinct observation the player
had and every action it took, in order; the tensor adds how often the player
took each action. Private information of a single player or of none (what
every player sees) is supported.

ISMCTS: `state.resample_from_infostate(player, sampler)` redistributes the
cards `player` cannot see (interpreter/worlds.py) and gives the
sampled world a fresh generator; `resampler(seed)` is a reproducible
callback for `ISMCTSBot.set_resampler`.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pyspiel

from ..worlds import determinize
from .. import rng as _rng
from ..game import Game
from ..loader import load_game
from .encoding import Encoding

_TERMINAL, _CHANCE = pyspiel.PlayerId.TERMINAL, pyspiel.PlayerId.CHANCE
DEFAULT_SEEDS = 1 << 16
DEFAULT_MAX_GAME_LENGTH = 2000
PREFIX = "python_rules_"

_CONTEXTS: dict = {}  # short name -> _Context


class _Context:
    """What every game and state of one registered rules file shares."""

    def __init__(self, short_name: str, game: Game, extra_action_ids=()):
        self.short_name = short_name
        self.game = game
        self.encoding = Encoding(game, extra_action_ids)
        self.random = game.traits.random
        self.hidden = game.traits.hidden
        traits = game.traits  # returns need not sum to 1:
        self.lost = traits.together or traits.cooperative or traits.teams
        lo, hi = game.player_range
        Info = pyspiel.GameType.Information
        info = Info.IMPERFECT_INFORMATION if self.random or self.hidden else Info.PERFECT_INFORMATION
        utility = pyspiel.GameType.Utility.GENERAL_SUM if self.lost else pyspiel.GameType.Utility.CONSTANT_SUM
        self.game_type = pyspiel.GameType(
            short_name=short_name,
            long_name=f"{game.title} (rules file {Path(game.path).name})",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if self.random
                         else pyspiel.GameType.ChanceMode.DETERMINISTIC),
            information=info,
            utility=utility,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=hi,
            min_num_players=lo,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"players": lo, "seeds": DEFAULT_SEEDS, "max_game_length": DEFAULT_MAX_GAME_LENGTH},
        )


def short_name_for(rules) -> str:
    path = rules.path if isinstance(rules, Game) else str(rules)
    stem = "".join(ch if ch.isalnum() else "_" for ch in Path(path).stem.lower())
    return PREFIX + (stem or "game")


def register(rules, short_name: str | None = None, overrides: dict | None = None, extra_action_ids=()) -> str:
    """Register a rules file (a path or a loaded Game) as a pyspiel game; returns
    its short name. Registering the same rules again is a no-op."""
    game = rules if isinstance(rules, Game) else load_game(rules, overrides)
    name = short_name or short_name_for(game)
    known = _CONTEXTS.get(name)
    if known is not None:
        if known.game.program.fingerprint != game.program.fingerprint:
            raise ValueError(f"'{name}' is already registered for other rules ({known.game.path}); pass short_name=")
        return name
    if name in pyspiel.registered_names():
        raise ValueError(f"'{name}' is already an OpenSpiel game; pass another short_name=")
    ctx = _Context(name, game, extra_action_ids)
    _CONTEXTS[name] = ctx
    # A class (not a closure) as the creator: OpenSpiel keeps it until the
    # process exits, and a class is never freed before that.
    creator = type(f"RulesGame_{name}", (RulesGame,), {"ctx": ctx})
    pyspiel.register_game(ctx.game_type, creator)
    return name


def load(rules, short_name: str | None = None, overrides: dict | None = None, **params):
    """Register `rules` if needed and load it with game parameters (`players`,
    `seeds`, `max_game_length`)."""
    name = register(rules, short_name, overrides)
    return pyspiel.load_game(name, params)


# ---------------------------------------------------------------- the game
class RulesGame(pyspiel.Game):
    """The game of one registered rules file (`register` makes a subclass
    per file, whose `ctx` says which)."""

    ctx: _Context

    def __init__(self, params=None):
        ctx = self.ctx
        params = dict(params or {})
        spec = ctx.game_type.parameter_specification
        unknown = set(params) - set(spec)
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}; known: {', '.join(spec)}")
        full = {**spec, **params}
        lo, hi = ctx.game.player_range
        players = int(full["players"])
        if not lo <= players <= hi:
            allowed = str(lo) if lo == hi else f"{lo} to {hi}"
            raise ValueError(f"{ctx.game.title} is played by {allowed} players, not {players}")
        seeds = int(full["seeds"])
        length = int(full["max_game_length"])
        if seeds < 1 or length < 2:
            raise ValueError("seeds must be at least 1 and max_game_length at least 2")
        info = pyspiel.GameInfo(
            num_distinct_actions=ctx.encoding.num_actions,
            max_chance_outcomes=seeds if ctx.random else 0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None if ctx.lost else 1.0,
            max_game_length=length,
        )
        super().__init__(ctx.game_type, info, full)
        self.players = players
        self.seeds = seeds
        self.length = length

    def new_initial_state(self):
        return RulesState(self)

    def action_to_string(self, player, action):
        """The rules' action id (`seed k` for a chance outcome)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self.ctx.encoding.id_of(action)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RulesObserver(self, iig_obs_type, params)


class _Core:
    """The Python side of a state: the engine state and the players' histories.

    OpenSpiel clones a Python state by deep-copying its attributes and saves
    it by pickling them; this object makes both exact and cheap (the engine
    state's own clone, its JSON save).

    Observations are made only when asked for, once per position and viewer
    (`views`). A player's history (`trails`) is brought up to date only when
    its information state is asked for: the actions applied since are kept in
    `lag`, with the position they started from, and replayed then. So a
    search's rollouts, which never ask, render no observation at all.
    """

    __slots__ = ("ctx", "n", "seeds", "length", "seed", "st", "actions", "trails", "own", "cut", "views", "lag")

    def __init__(self, ctx, n, seeds, length):
        self.ctx, self.n, self.seeds, self.length = ctx, n, seeds, length
        self.seed = None  # the chance outcome, once drawn
        self.st = None  # the engine's GameState, once the game started
        self.actions = []  # action indices applied after the seed
        self.trails = {}  # player -> [count, digest, last text]: histories, made on demand
        self.own = {}  # (player, action index) -> times taken
        self.cut = False  # stopped at max_game_length
        self.views = {}  # viewer -> observation(viewer) of the current position
        # None when every trail is up to date; else (the position the trails
        # stand at, never changed: clones share it; [(player, action id)] since)
        self.lag = None
        if not ctx.random:
            self.start(0)

    def start(self, seed: int) -> None:
        self.seed = seed
        self.set_engine_state(self.ctx.game.new_initial_state(self.n, seed))

    def set_engine_state(self, st) -> None:
        self.st = st
        self.views = {}

    def observation(self, viewer: int) -> dict:
        """`st.observation(viewer)`, computed once per position."""
        obs = self.views.get(viewer)
        if obs is None:
            obs = self.views[viewer] = self.st.observation(viewer)
        return obs

    def text(self, viewer: int) -> str:
        return self.ctx.encoding.observation_text(self.st, viewer, self.observation(viewer))

    def __deepcopy__(self, memo):
        other = _Core.__new__(_Core)
        other.ctx, other.n, other.seeds, other.length = self.ctx, self.n, self.seeds, self.length
        other.seed = self.seed
        other.st = self.st.clone() if self.st is not None else None
        other.actions = self.actions[:]
        other.trails = {p: t[:] for p, t in self.trails.items()}
        other.own = dict(self.own)
        other.cut = self.cut
        other.views = {}
        other.lag = (self.lag[0], self.lag[1][:]) if self.lag is not None else None
        return other

    def __getstate__(self):
        self.catch_up()
        return {
            "rules": self.ctx.short_name, "n": self.n, "seeds": self.seeds, "length": self.length,
            "seed": self.seed, "state": self.st.to_json() if self.st is not None else None,
            "actions": self.actions, "trails": {str(p): [c, d.hex(), t] for p, (c, d, t) in self.trails.items()},
            "own": [[p, a, k] for (p, a), k in self.own.items()], "cut": self.cut,
        }

    def __setstate__(self, data):
        ctx = _CONTEXTS.get(data["rules"])
        if ctx is None:
            raise ValueError(f"rules '{data['rules']}' are not registered in this process; call register() first")
        self.ctx, self.n, self.seeds, self.length = ctx, data["n"], data["seeds"], data["length"]
        self.seed = data["seed"]
        self.st = ctx.game.state_from_json(data["state"]) if data["state"] is not None else None
        self.actions = list(data["actions"])
        self.trails = {int(p): [c, bytes.fromhex(d), t] for p, (c, d, t) in data["trails"].items()}
        self.own = {(p, a): k for p, a, k in data["own"]}
        self.cut = data["cut"]
        self.views = {}
        self.lag = None

    # -- state
    def chance(self) -> bool:
        return self.st is None

    def terminal(self) -> bool:
        return self.cut or (self.st is not None and self.st.is_terminal())

    def history_length(self) -> int:
        return len(self.actions) + (1 if self.ctx.random else 0)

    def apply(self, action: int) -> None:
        if self.st is None:
            if not 0 <= action < self.seeds:
                raise ValueError(f"chance outcome {action} is outside 0..{self.seeds - 1}")
            self.start(action)
            return
        st = self.st
        player = st.current_player()
        action_id = self.ctx.encoding.id_of(action)
        if self.trails:
            if self.lag is None:
                self.lag = (st.clone(), [])
            self.lag[1].append((player, action_id))
        st.apply_action(action_id)
        self.views = {}
        self.actions.append(action)
        self.own[(player, action)] = self.own.get((player, action), 0) + 1
        if not st.is_terminal() and (self.history_length() >= self.length or st.turns >= st.program.turn_budget):
            self.cut = True  # (past its turn budget the engine would stop with an error)

    def catch_up(self) -> None:
        """Bring every trail up to date with the actions applied since it was
        last asked for: the texts of the positions in between are made now."""
        if self.lag is None:
            return
        start, steps = self.lag
        self.lag = None
        enc = self.ctx.encoding
        st = start.clone() if len(steps) > 1 else None  # the snapshot is shared with clones
        for i, (player, action_id) in enumerate(steps):
            for p, trail in self.trails.items():
                if p == player:
                    _extend(trail, "act " + action_id)
            last = i == len(steps) - 1
            if not last:
                st.apply_action(action_id)
            for p, trail in self.trails.items():
                text = self.text(p) if last else enc.observation_text(st, p)
                if text != trail[2]:
                    _extend(trail, text)
                    trail[2] = text

    def returns(self) -> list:
        if not self.terminal():
            return [0.0] * self.n
        if self.st.is_terminal():
            return [float(r) for r in self.st.returns()]
        return self.st.objectives()  # cut short: as it stands now

    def trail(self, player: int) -> list:
        """[count, digest, last text] of `player`'s history, up to date (made by
        replaying the game the first time it is asked for)."""
        self.catch_up()
        trail = self.trails.get(player)
        if trail is not None:
            return trail
        enc = self.ctx.encoding
        st = self.ctx.game.new_initial_state(self.n, self.seed)
        text = enc.observation_text(st, player)
        trail = [0, b"", text]
        _extend(trail, text)
        for action in self.actions:
            action_id = enc.id_of(action)
            if st.current_player() == player:
                _extend(trail, "act " + action_id)
            st.apply_action(action_id)
            text = enc.observation_text(st, player)
            if text != trail[2]:
                _extend(trail, text)
                trail[2] = text
        self.trails[player] = trail
        return trail


def _extend(trail: list, token: str) -> None:
    trail[0] += 1
    trail[1] = hashlib.blake2b(trail[1] + token.encode(), digest_size=16).digest()


class RulesState(pyspiel.State):
    def __init__(self, game: RulesGame):
        super().__init__(game)
        self._c = _Core(game.ctx, game.players, game.seeds, game.length)

    @property
    def engine_state(self):
        """The interpreter's GameState (None before the chance node is resolved)."""
        return self._c.st

    # current_player, _legal_actions and _apply_action are a search's inner
    # loop (several calls per step of every rollout): written out.
    def current_player(self):
        c = self._c
        st = c.st
        if st is None:
            return _CHANCE
        if c.cut or st.is_terminal():
            return _TERMINAL
        return st.current_player()

    def _legal_actions(self, player):
        c = self._c
        st = c.st
        if st is None or c.cut or st.is_terminal() or player != st.current_player():
            return []
        return c.ctx.encoding.legal_indices(st)

    def chance_outcomes(self):
        k = self._c.seeds
        p = 1.0 / k
        return [(i, p) for i in range(k)]

    def _apply_action(self, action):
        self._c.apply(int(action))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self._c.ctx.encoding.id_of(action)

    def is_terminal(self):
        return self._c.terminal()

    def returns(self):
        return self._c.returns()

    def __str__(self):
        c = self._c
        if c.st is None:
            return "before the deal: chance picks the seed"
        head = f"seed {c.seed}; {len(c.actions)} decisions" + ("; cut at max_game_length" if c.cut else "")
        st = c.st
        fields = {name: value for name, value in st.to_data().items() if name not in ("cov", "decisions")}
        return head + "\n" + json.dumps(fields, sort_keys=True, separators=(",", ":"), default=str)

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one: its unseen cards
        redistributed, with fresh future randomness."""
        seed = int(probability_sampler() * (1 << 53))
        return resample(self, player_id, seed)


def resample(state: RulesState, player: int, seed: int) -> RulesState:
    c = state._c
    if c.st is None or c.terminal():
        return state.clone()
    c.trail(player)  # the clone carries the player's history
    world, _ = determinize(c.st, player, _rng.seed_state(seed))
    other = state.clone()
    other._c.set_engine_state(world)
    return other


def resampler(seed: int = 0):
    """A reproducible `cb(state, player)` for `ISMCTSBot.set_resampler`."""
    cell = [_rng.seed_state(seed)]

    def cb(state, player):
        cell[0], x = _rng.next_u64(cell[0])
        return resample(state, player, x)

    return cb


# ---------------------------------------------------------------- observations
class RulesObserver:
    """A PyObserver: `tensor`/`dict` filled by `set_from`, and `string_from`."""

    def __init__(self, game: RulesGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.ctx = ctx = game.ctx
        self.n = game.players
        kind = iig_obs_type
        self.perfect_recall = bool(kind is not None and kind.perfect_recall)
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if kind is None else kind.private_info
        public = True if kind is None else kind.public_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("observations with every player's private information are not supported")
        if not public:
            raise ValueError("observations without public information are not supported")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        enc = ctx.encoding
        extra = enc.num_actions if self.perfect_recall else 0
        self.tensor = np.zeros(enc.size + extra, np.float32)
        self.dict = {b.name: self.tensor[b.start:b.stop] for b in enc.blocks}
        if extra:
            self.dict["own_actions"] = self.tensor[enc.size:]

    def _viewer(self, player: int) -> int:
        return -1 if self.public_only else player

    def set_from(self, state, player):
        self.tensor.fill(0)
        c = state._c
        enc = self.ctx.encoding
        viewer = self._viewer(player)
        if c.st is None:
            enc.fill_header(self.tensor, c.n, viewer)
        else:
            enc.fill(self.tensor, c.st, viewer, c.observation(viewer))
        if self.perfect_recall and viewer >= 0:
            for (p, a), k in c.own.items():
                if p == viewer:
                    self.tensor[enc.size + a] = k

    def string_from(self, state, player):
        c = state._c
        viewer = self._viewer(player)
        if c.st is None:
            return f"player {player}: before the deal"
        text = c.text(viewer)
        if not self.perfect_recall:
            return text
        count, digest, _ = c.trail(viewer)
        who = "public" if viewer < 0 else f"player {viewer}"
        return f"{who}; history of {count} steps {digest.hex()}\n{text}"
