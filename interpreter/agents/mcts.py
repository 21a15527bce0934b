"""Information-set Monte Carlo tree search (single observer, UCT).

The tree belongs to the deciding player's information set: its root is the
current decision and a node is the sequence of option ids chosen since then
(by whoever chose them). Every iteration draws a fresh world from `worlds()`
(the hidden cards reshuffled), walks down the tree choosing among the options
legal in *that* world, adds one node, finishes the game (or a few turns of it)
by a fast default policy and backs up the result. Option sets differ between
worlds, so a child's UCB counts only the iterations in which it was available.
"""
from __future__ import annotations

import math
import time

from .. import rng
from ..errors import RulesError
from .base import Agent, ProgressGuard, parse_options, register
from .evaluate import by_team, evaluator_for, squash
from .greedy import GreedyAgent
from .weights import weights_for


DEFAULT_ITERATIONS = 200


class Node:
    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self):
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0  # for the player who chose the option leading here
        self.avail = 0  # iterations in which this option was legal


def _budget_token(token: str):
    """`200` (iterations), `500ms` or `2s` (time)."""
    t = token.strip().lower()
    try:
        if t.endswith("ms"):
            ms = float(t[:-2])
        elif t.endswith("s"):
            ms = float(t[:-1]) * 1000.0
        else:
            return "iterations", int(t)
    except ValueError:
        return None
    return ("ms", ms) if math.isfinite(ms) else None


def _ms(text: str) -> float:
    parsed = _budget_token(text)
    if parsed is None:
        raise ValueError(text)
    return parsed[1] if parsed[0] == "ms" else float(parsed[1])


@register
class MCTSAgent(Agent):
    """ISMCTS. Budget: `mcts:ITERATIONS` (default 200), `mcts:500ms` or
    `mcts:2s` (time per decision; not reproducible, as machines differ),
    `mcts:200:500ms` (whichever ends first). Other options, `key=value`
    separated by ':' (`mcts:200:c=0.5:horizon=2`):

    - `c` (0.7): UCT exploration constant, on results in [0, 1];
    - `horizon`: stretches of play a rollout finishes (a player's
      decisions until another player decides or the turn ends) before the
      position is valued by the generic evaluation (by default the number
      measured for the rules file, weights.py; else 1); 0 plays at random
      to the end and uses the game's own result (1 shared among the winners);
    - `tries` (4): random completions of each rollout turn, of which the best
      for the player whose turn it is is kept;
    - `discount`: the evaluation's credit for held cards (by default the
      weight measured for the rules file, as `greedy` uses: weights.py);
    - `scale` (automatic): the logistic scale turning a margin into [0, 1];
    - `reuse` (1): keep the chosen option's subtree for the next decision of
      the same turn (0: a fresh tree every decision);
    - `patience` (3): the progress guard (see `ProgressGuard`; 0 turns it off).
    """

    name = "mcts"
    labels = False  # it reads the options' ids, never their labels
    usage = "mcts[:ITERATIONS|:500ms]"
    # (converter, default, least, most): the limits bound the work of one
    # decision (docs/security.md lists them); a budget must also be positive.
    settings = {
        "iterations": (int, None, None, 100_000),
        "ms": (_ms, None, None, 60_000),
        "c": (float, 0.7, 0, 100),
        "horizon": (int, None, 0, 1_000),
        "tries": (int, 4, 0, 1_000),
        "scale": (float, 0.0, 0, 1_000_000),
        "reuse": (int, 1, 0, 1),
        "patience": (int, 3, 0, 1_000),
        "discount": (float, None, 0, 100),
    }

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        super().__init__(seed, seat, options)
        opts = parse_options(self.name, options, self.settings, _budget_token,
                             examples="mcts:200, mcts:500ms or mcts:200:c=0.5")
        self.iterations, self.ms = opts["iterations"], opts["ms"]
        if self.iterations is None and self.ms is None:
            self.iterations = DEFAULT_ITERATIONS
        if (self.iterations is not None and self.iterations < 1) or (self.ms is not None and self.ms <= 0):
            raise RulesError(f"bot 'mcts' needs a positive budget (mcts:200, mcts:500ms), got '{options}'")
        self.c = opts["c"]
        self.horizon = opts["horizon"]  # None: the rules file's (rollout_turns)
        self.scale = opts["scale"] or None
        self.tries = max(1, opts["tries"])
        self.rng = rng.seed_state((seed + 1) * 3_000_017 + seat * 1_000_033)
        self.reuse = bool(opts["reuse"])
        self.guard = ProgressGuard(opts["patience"])
        self.discount = opts["discount"]
        self.last_iterations = 0
        self.kept = None  # (decision count, player, subtree) to carry on with
        self.setup = None  # (program, horizon, evaluator) of the current search

    def choose(self, decision, observation, worlds=None) -> str:
        all_options = [o.id for o in decision.options]
        options = self.guard.allowed(decision, observation, all_options)
        choice = self._choose(decision, options, worlds, len(options) < len(all_options))
        self.guard.record(choice)
        return choice

    def _choose(self, decision, options, worlds, restricted: bool) -> str:
        if worlds is None or len(options) == 1:
            self.rng, i = rng.below(self.rng, len(options))
            choice = options[i]
            if self.kept is not None and worlds is not None and len(options) == 1:
                # a forced step inside the turn: follow it down the kept tree
                world = worlds()
                node = self.kept[2].children.get(choice) if self.kept[:2] == (world.decisions, decision.player) else None
                self.kept = (world.decisions + 1, decision.player, node) if node is not None else None
            else:
                self.kept = None
            return choice
        world = worlds()
        self.setup = None  # the weights are read again for every decision
        root = None
        if self.reuse and self.kept is not None and self.kept[:2] == (world.decisions, decision.player):
            root = self.kept[2]  # the same turn goes on: keep what was learnt
        if root is None:
            root = Node()
        deadline = time.perf_counter() + self.ms / 1000.0 if self.ms else None
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            self.iterate(root, world if done == 0 else worlds(), options if restricted else None)
            done += 1
        self.last_iterations = done
        best, best_key = None, None
        for option in options:
            child = root.children.get(option)
            if child is None:
                continue
            key = (child.visits, child.reward / child.visits if child.visits else 0.0)
            if best_key is None or key > best_key:
                best, best_key = option, key
        if best is None:
            best = options[0]
        child = root.children.get(best)
        self.kept = (world.decisions + 1, decision.player, child) if child is not None else None
        return best

    # -- one iteration
    def iterate(self, root: Node, st, allowed=None) -> None:
        setup = self.setup
        if setup is None or setup[0] is not st.program:
            horizon = self.rollout_turns(st.program)
            ev = evaluator_for(st.program, **self.weights(st.program)) if horizon else None
            setup = self.setup = (st.program, horizon, ev)
        _, horizon, ev = setup
        base = ev.values(st) if horizon else None
        node = root
        path = []  # (node, player who chose) for backup
        c = self.c
        while not st.over:
            player = st.current_player()
            ids = st.option_ids  # (read, never changed: a state never changes its list in place)
            if allowed is not None and node is root:
                ids = [a for a in ids if a in allowed] or ids
            children = node.children
            untried = [a for a in ids if a not in children]
            if untried:
                self.rng, i = rng.below(self.rng, len(untried))
                action = untried[i]
                for a in ids:
                    if a in children:
                        children[a].avail += 1
                child = children[action] = Node()
                child.avail = 1
                st.apply_action(action)
                path.append((child, player))
                break
            best, best_u = None, -1.0
            for a in ids:
                ch = children[a]
                ch.avail += 1
            for a in ids:
                ch = children[a]
                u = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best, best_u = a, u
            node = children[best]
            st.apply_action(best)
            path.append((node, player))
        result = self.rollout(st, base, ev, horizon)
        for nd, player in path:
            nd.visits += 1
            nd.reward += result[player]

    weights = GreedyAgent.weights  # the same evaluation as greedy's, at the end of each rollout

    def rollout_turns(self, program) -> int:
        """The stretches of play a rollout finishes: the option's, else the
        number measured for the rules file (or the default)."""
        return self.horizon if self.horizon is not None else weights_for(program)["horizon"]

    def rollout(self, st, base, ev, horizon: int) -> list:
        """Finish `horizon` turns, each by the best of `tries` random
        completions for the player whose turn it is, then value the position
        by the evaluation (relative to the same world's root, so whatever the
        sampled hidden cards add to everyone's value cancels out). With
        horizon 0, play at random to the end and use the game's result."""
        r = self.rng
        if not horizon:
            # The inner loop of every simulation: one draw of the bot's
            # generator per decision, answered where the rules ask it.
            draws = rng.Draws(r)
            st.play_out([draws] * st.n)
            self.rng = draws.state
            return st.returns()
        # teammates' values add up: a position is valued team against team
        teams = [0] * st.n if ev.together else st.teams()
        for _ in range(horizon):
            if st.over:
                break
            player, turn = st.current_player(), st.turns
            best, best_value = None, None
            for k in range(self.tries):
                trial = st.clone() if k < self.tries - 1 or best is None else st
                while not (trial.over or trial.turns != turn or trial.current_player() != player):
                    ids = trial.option_ids
                    r, i = rng.below(r, len(ids))
                    trial.apply_action(ids[i])
                vals = ev.values(trial)
                value = squash(*by_team([v - b for v, b in zip(vals, base)], teams, player), self.scale)
                if best is None or value > best_value:
                    best, best_value = (trial, vals), value
            st, vals = best
        self.rng = r
        if st.over:
            return st.returns()
        return [squash(*by_team([v - b for v, b in zip(vals, base)], teams, p), self.scale) for p in range(st.n)]
