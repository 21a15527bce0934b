"""Fixed workloads for instruction counts (callgrind) and profiles.

    python benchmarks/workloads.py greedy 1                  # one greedy 2-player game
    python benchmarks/workloads.py greedy 1 --instructions   # its instruction count
    python benchmarks/workloads.py random 20 --profile       # its hottest functions

Each workload first does its setup (imports, loading the rules, building what
the bots share), then its work `count` times; running it with 0 measures the
setup, so the difference of two runs is the work alone. Every workload is
seeded, and counted with Python's string hashing fixed, so a run executes
the same instructions every time (until the code changes): compare instruction counts, not noisy wall times, before and after a
change. `--instructions` runs the workload under `valgrind --tool=callgrind`
with `count` and with 0 and prints the difference per unit of work.
`--profile` prints the hottest functions of the work (cProfile).
"""
from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

RULES = ROOT / "rules" / "catalyst.rules"


def _game():
    from interpreter import load_game

    return load_game(RULES)


def random_games(players=2):
    """2-player random-bot games to the end, with their scores."""
    from interpreter.agents import make_agents
    from interpreter.play import play_game

    game = _game()

    def work(i):
        play_game(game, players, i, make_agents("random", players, i)).scores()

    return work


def baseline_games(players=2):
    """The same games on the hand-written engine."""
    import baseline_catalyst as baseline

    cards = baseline.Cards()

    def work(i):
        baseline.play(cards, players, i, baseline.random_chooser(players, i))

    return work


def random4_games():
    """4-player random-bot games to the end, with their scores."""
    return random_games(4)


def baseline4_games():
    """The same 4-player games on the hand-written engine."""
    return baseline_games(4)


def _bots_evaluator(program):
    """Build the evaluator the bots will use (their weights for the rules
    file): it is learnt once per rules file, so it is setup, not work."""
    from interpreter.agents.evaluate import evaluator_for
    from interpreter.agents.weights import evaluation_weights, weights_for

    evaluator_for(program, **evaluation_weights(weights_for(program)))


def greedy_games():
    """2-player games of greedy against greedy."""
    from interpreter.agents import make_agents
    from interpreter.play import play_game

    game = _game()
    _bots_evaluator(game.program)

    def work(i):
        play_game(game, 2, i, make_agents("greedy", 2, i))

    return work


def mcts_search():
    """Simulations of one ISMCTS search at a 2-player opening, each a random
    rollout to the end of the game (`mcts:horizon=0`); `count` simulations."""
    from interpreter.agents import make_agent
    from interpreter.play import world_sampler

    game = _game()
    st = game.new_initial_state(2, 11)
    player = st.current_player()
    state = {}

    def work(i):
        bot = state.get("bot")
        if bot is None:
            bot = state["bot"] = make_agent("mcts:1:horizon=0:reuse=0", 11, player)
            state["root"] = __import__("interpreter.agents.mcts", fromlist=["Node"]).Node()
            state["worlds"] = world_sampler(st, player, 11)
        bot.iterate(state["root"], state["worlds"]())

    return work


def mcts_default_search():
    """Simulations of the default `mcts` bot (each rollout one turn, best of
    4 completions, then the evaluation) at a 2-player position 30 decisions in."""
    from interpreter.agents import make_agent
    from interpreter.agents.mcts import Node
    from interpreter.play import world_sampler

    game = _game()
    _bots_evaluator(game.program)
    st = game.new_initial_state(2, 5)
    bot = make_agent("random", 5, 0)
    while st.decisions < 30 or len(st.legal_actions()) < 2:
        st.apply_action(bot.choose_id(st.legal_actions()))
    player = st.current_player()
    search = make_agent("mcts:1:reuse=0", 5, player)
    root, worlds = Node(), world_sampler(st, player, 5)

    def work(i):
        search.iterate(root, worlds())

    return work


def openspiel_search():
    """Simulations of OpenSpiel's ISMCTS through the adapter at a 2-player
    opening (random rollouts to the end); `count` simulations in one search."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from interpreter.adapters import openspiel_game as osg

    game = osg.load(str(RULES), players=2)
    state = game.new_initial_state()
    state.apply_action(11)
    holder = {}

    def work(i):
        holder["n"] = holder.get("n", 0) + 1

    def finish():
        n = holder.get("n", 0)
        if n:
            rs = np.random.RandomState(3)
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, n, random_state=rs)
            bot.set_resampler(osg.resampler(seed=1))
            bot.step(state)

    work.finish = finish
    return work


def observations():
    """`observation(player)` of a mid-game 2-player position, made anew each time."""
    game = _game()
    st = game.new_initial_state(2, 1)
    for _ in range(20):
        st.apply_action(st.legal_actions()[0])

    def work(i):
        st.observed = None  # a state keeps what it made of its position: each unit builds anew
        st.observation(i % 2)

    return work


def clones():
    """`clone()` of a mid-game 2-player position."""
    game = _game()
    st = game.new_initial_state(2, 1)
    for _ in range(20):
        st.apply_action(st.legal_actions()[0])

    def work(i):
        st.clone()

    return work


WORKLOADS = {
    "random": random_games, "baseline": baseline_games, "random4": random4_games, "baseline4": baseline4_games,
    "greedy": greedy_games, "mcts": mcts_search,
    "mcts_default": mcts_default_search,
    "openspiel": openspiel_search, "observation": observations, "clone": clones,
}


def instructions(workload: str, count: int) -> int:
    """Instructions callgrind counts for `count` units of the workload, setup excluded."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # string hashes, so dict layouts, fixed too
    # a run first, uncounted, so that what the first run ever writes (the compiled
    # rules' cache) is written before either counted run, not inside one of them
    subprocess.run([sys.executable, __file__, workload, "0"], check=True, capture_output=True, env=env)
    totals = []
    for n in (count, 0):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "callgrind.out")
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                            __file__, workload, str(n)], check=True, capture_output=True, env=env)
            with open(out) as f:
                totals.append(int(re.search(r"^(?:summary|totals): (\d+)", f.read(), re.M).group(1)))
    return totals[0] - totals[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workload", choices=sorted(WORKLOADS))
    parser.add_argument("count", type=int, nargs="?", default=1)
    parser.add_argument("--profile", action="store_true", help="print the hottest functions of the work")
    parser.add_argument("--instructions", action="store_true", help="count instructions with callgrind")
    args = parser.parse_args(argv)
    if args.instructions:
        total = instructions(args.workload, args.count)
        print(f"{args.workload}: {total:,} instructions for {args.count}, {total / max(1, args.count):,.0f} each")
        return
    work = WORKLOADS[args.workload]()
    # the work starts with the collector's counts at zero and what the setup
    # allocated (imports, compiling) out of its sight: neither moves a
    # collection into or out of the work, nor makes one longer, so that a
    # change elsewhere in the code (more objects made at import) does not
    # change the work's count (`simulate`'s workers freeze theirs too)
    gc.collect()
    gc.freeze()

    def run():
        for i in range(args.count):
            work(i)
        getattr(work, "finish", lambda: None)()

    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(run)
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
    else:
        run()


if __name__ == "__main__":
    main()
