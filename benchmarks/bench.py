"""Speed benchmark of the interpreter (not a test: it prints figures).

    python benchmarks/bench.py [--repeat 5] [--games 300] [--json]

Reports medians over --repeat runs in one process: random-bot games/s (2 and 4
players) on rules/catalyst.rules, decisions/s, clone() time, `catalyst check`
wall time, ISMCTS simulations/s and `simulate --jobs 2` speed-up when those
exist, and the ratio to the hand-written reference run in the same benchmark.
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
from interpreter.agents import make_agents  # noqa: E402
from interpreter.play import play_game  # noqa: E402

RULES = ROOT / "rules" / "catalyst.rules"
REFERENCE = ROOT.parent / "shared" / "bench" / "handwritten_reference.py"


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


def clone_microseconds(game, count=2000):
    st = game.new_initial_state(2, 1)
    for action in st.legal_actions()[:1] * 5:
        if not st.is_terminal():
            st.apply_action(st.legal_actions()[0])
    start = time.perf_counter()
    for _ in range(count):
        st.clone()
    return (time.perf_counter() - start) / count * 1e6


def check_wall_seconds():
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cli.main", "check", str(RULES)], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def reference_games_per_second(players, games):
    if not REFERENCE.exists():
        return None
    out = subprocess.run([sys.executable, str(REFERENCE), str(players), str(games)], capture_output=True, text=True, check=True).stdout
    fields = dict(part.split("=") for part in out.split())
    return float(fields["games/s"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load_game(RULES)
    figures = {}
    for players in (2, 4):
        runs = [games_per_second(game, players, args.games) for _ in range(args.repeat)]
        figures[f"games_per_s_{players}p"] = statistics.median(r[0] for r in runs)
        figures[f"decisions_per_s_{players}p"] = statistics.median(r[1] for r in runs)
        ref = [reference_games_per_second(players, args.games * 5) for _ in range(args.repeat)]
        if ref[0] is not None:
            figures[f"reference_games_per_s_{players}p"] = statistics.median(ref)
            figures[f"ratio_to_reference_{players}p"] = figures[f"reference_games_per_s_{players}p"] / figures[f"games_per_s_{players}p"]
    figures["clone_us"] = median_of(lambda: clone_microseconds(game), args.repeat)
    figures["check_wall_s"] = median_of(check_wall_seconds, args.repeat)
    if args.json:
        print(json.dumps({k: round(v, 3) for k, v in figures.items()}, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:32} {value:12.3f}")


if __name__ == "__main__":
    main()
