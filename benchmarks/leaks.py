"""What `catalyst check --leaks` costs: the time of 200 twin checks on
rules/catalyst.rules at 2 players, on one core (the median of 3 runs).

    python benchmarks/leaks.py [checks] [runs]

A twin check is one pair of twins made at a position of a seeded random game
for one seat and played on, compared at every step with the default bots
(interpreter/leaks.py); the positions are those `find_leaks` checks, in
order, until enough pairs were played. The goal is 30 s or less.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter import load_game  # noqa: E402
from interpreter.leaks import find_leaks  # noqa: E402

RULES = ROOT / "rules" / "catalyst.rules"
GOAL = 30.0  # seconds for 200 checks


def run(game, checks: int) -> float:
    start = time.perf_counter()
    report = find_leaks(game, [2], games=10 ** 6, seed=0, limit=checks)
    assert report.checks == checks
    return time.perf_counter() - start


def main() -> None:
    checks = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    game = load_game(str(RULES))
    times = [run(game, checks) for _ in range(runs)]
    median = statistics.median(times)
    print(f"{checks} twin checks on {RULES.name} (2 players): median {median:.2f} s of {runs} runs "
          f"({', '.join(f'{t:.2f}' for t in times)}); goal for 200: {GOAL:.0f} s")


if __name__ == "__main__":
    main()
