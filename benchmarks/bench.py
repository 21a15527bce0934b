"""Speed benchmark of the interpreter and its bots (not a test: it prints figures).

    python benchmarks/bench.py                 # every figure, medians of 5 runs
    python benchmarks/bench.py --json          # the same as JSON
    python benchmarks/bench.py --repeat 3 --games 200 --no-bots

Reports medians over --repeat runs: random-bot games/s (2 and 4 players) on
rules/catalyst.rules and decisions/s; the hand-written reference engine
(../shared/bench/handwritten_reference.py) run in the same benchmark, and the
ratio (machines here are noisy: ratios hold, absolute times drift); clone()
time; `catalyst check` wall time; ISMCTS simulations/s with full rollouts
from the opening of a 2-player game; the speed-up of `simulate --jobs 2` over
`--jobs 1`; and, per bot, decisions/s and the time per choice.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agent, make_agents  # noqa: E402
from interpreter.play import play_game, world_sampler  # noqa: E402
from interpreter.simulation import simulate  # noqa: E402

RULES = ROOT / "rules" / "catalyst.rules"
REFERENCE = ROOT.parent / "shared" / "bench" / "handwritten_reference.py"
BOTS = ("random", "greedy", "mcts:200")


def median_of(fn, repeat):
    return statistics.median(fn() for _ in range(repeat))


def games_per_second(game, players, games):
    start = time.perf_counter()
    decisions = 0
    for seed in range(games):
        st = play_game(game, players, seed, make_agents("random", players, seed))
        decisions += st.decisions
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def reference_games_per_second(players, games):
    out = subprocess.run([sys.executable, str(REFERENCE), str(players), str(games)],
                         capture_output=True, text=True, check=True).stdout
    return float(dict(part.split("=") for part in out.split())["games/s"])


def clone_microseconds(game, count=5000):
    st = game.new_initial_state(2, 1)
    for _ in range(20):
        st.apply_action(st.legal_actions()[0])
    start = time.perf_counter()
    for _ in range(count):
        st.clone()
    return (time.perf_counter() - start) / count * 1e6


def check_wall_seconds():
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cli.main", "check", str(RULES)], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def ismcts_simulations_per_second(game, iterations=200):
    """One search at the opening of a 2-player game, each simulation a random
    rollout to the end of the game (horizon 0)."""
    st = game.new_initial_state(2, 11)
    player = st.current_player()
    bot = make_agent(f"mcts:{iterations}:horizon=0:reuse=0", 11, player)
    start = time.perf_counter()
    bot.choose(st.decision(), st.observation(player), world_sampler(st, player, 11))
    return bot.last_iterations / (time.perf_counter() - start)


def simulate_seconds(games, jobs):
    start = time.perf_counter()
    simulate(str(RULES), games, players=2, bots="random", seed=5, jobs=jobs)
    return time.perf_counter() - start


def bot_speed(game, spec, games):
    """The bot in both seats of `games` 2-player games: decisions/s over the
    whole game (engine included) and milliseconds per choice among several options."""
    decisions, wall, choices, thinking = 0, 0.0, 0, 0.0
    for seed in range(games):
        agents = make_agents(spec, 2, seed)
        timed = [0, 0.0]
        st = game.new_initial_state(2, seed)
        start = time.perf_counter()
        while not st.is_terminal():
            player = st.current_player()
            decision = st.decision()
            t = time.perf_counter()
            choice = agents[player].choose(decision, st.observation(player), world_sampler(st, player, seed))
            if len(decision.options) > 1:
                timed[0] += 1
                timed[1] += time.perf_counter() - t
            st.apply_action(choice)
        wall += time.perf_counter() - start
        decisions += st.decisions
        choices += timed[0]
        thinking += timed[1]
    return {"decisions_per_s": decisions / wall, "ms_per_choice": 1000 * thinking / max(1, choices)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (the median is reported) [5]")
    parser.add_argument("--games", type=int, default=300, help="random games per run [300]")
    parser.add_argument("--bot-games", type=int, default=2, help="games per bot for the bot figures [2]")
    parser.add_argument("--no-bots", action="store_true", help="skip the per-bot figures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load_game(RULES)
    figures = {}
    for players in (2, 4):
        runs = [games_per_second(game, players, args.games) for _ in range(args.repeat)]
        figures[f"games_per_s_{players}p"] = statistics.median(r[0] for r in runs)
        figures[f"decisions_per_s_{players}p"] = statistics.median(r[1] for r in runs)
        if REFERENCE.exists():
            ref = median_of(lambda: reference_games_per_second(players, args.games * 4), args.repeat)
            figures[f"reference_games_per_s_{players}p"] = ref
            figures[f"ratio_to_reference_{players}p"] = ref / figures[f"games_per_s_{players}p"]
    figures["clone_us"] = median_of(lambda: clone_microseconds(game), args.repeat)
    figures["check_wall_s"] = median_of(check_wall_seconds, args.repeat)
    figures["ismcts_simulations_per_s"] = median_of(lambda: ismcts_simulations_per_second(game), args.repeat)
    sweep = args.games * 4
    one = median_of(lambda: simulate_seconds(sweep, 1), max(1, args.repeat // 2))
    two = median_of(lambda: simulate_seconds(sweep, 2), max(1, args.repeat // 2))
    figures["simulate_games_per_s_jobs1"] = sweep / one
    figures["simulate_games_per_s_jobs2"] = sweep / two
    figures["simulate_speedup_jobs2"] = one / two
    if not args.no_bots:
        for spec in BOTS:
            speed = bot_speed(game, spec, args.bot_games)
            figures[f"bot_{spec}_decisions_per_s"] = speed["decisions_per_s"]
            figures[f"bot_{spec}_ms_per_choice"] = speed["ms_per_choice"]
    if args.json:
        print(json.dumps({k: round(v, 3) for k, v in figures.items()}, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:36} {value:12.3f}")


if __name__ == "__main__":
    main()
