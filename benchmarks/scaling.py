"""How `simulate --jobs N` scales, next to what the machine gives N processes
(not a test: it prints a table).

    python benchmarks/scaling.py                     # --jobs 1, 2, 4, ... up to the cores
    python benchmarks/scaling.py --games 4000 --jobs 1 2 8 16 --json

For each N: the wall time of a sweep of random-bot 2-player games on N
worker processes, its speed-up over one process, and the machine's own
ceiling for N processes (N copies of a plain Python loop run at the same
time against one after the other: a shared or throttled machine gives less
than N). The sweep's fixed costs are reported apart: the same sweep with
one game a worker (starting the pool and loading the rules), so what holds
a speed-up below its ceiling can be told from the games themselves.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.simulation import simulate  # noqa: E402
from interpreter.simulation.parallel import available_cores  # noqa: E402

RULES = ROOT / "rules" / "catalyst.rules"


def sweep_seconds(games: int, jobs: int) -> float:
    start = time.perf_counter()
    simulate(str(RULES), games, players=2, bots="random", seed=5, jobs=jobs)
    return time.perf_counter() - start


def _spin(_=None) -> int:
    total = 0
    for i in range(2_000_000):
        total += i * i
    return total


def machine_ceiling(n: int) -> float:
    """N copies of a CPU-bound loop on N processes against one after the other."""
    start = time.perf_counter()
    _spin()
    alone = (time.perf_counter() - start) * n
    with multiprocessing.get_context("fork").Pool(n) as pool:
        pool.map(_spin, range(n), chunksize=1)  # the workers started before the clock
        start = time.perf_counter()
        pool.map(_spin, range(n), chunksize=1)
        together = time.perf_counter() - start
    return alone / together


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, nargs="*")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    cores = available_cores()
    jobs = args.jobs or sorted({1, *(2 ** k for k in range(1, cores.bit_length()) if 2 ** k <= cores), cores})
    sweep_seconds(20, 1)  # the rules parsed and cached, the modules imported
    one = sweep_seconds(args.games, 1)
    rows = []
    for n in jobs:
        wall = one if n == 1 else sweep_seconds(args.games, n)
        fixed = sweep_seconds(n, n) if n > 1 else 0.0
        rows.append({"jobs": n, "seconds": round(wall, 3), "games_per_s": round(args.games / wall, 1),
                     "speedup": round(one / wall, 2), "machine_ceiling": round(machine_ceiling(n), 2) if n > 1 else 1.0,
                     "fixed_seconds": round(fixed, 3)})
    if args.json:
        print(json.dumps({"cores": cores, "games": args.games, "rows": rows}, indent=2))
        return
    print(f"{args.games} random 2-player games, {cores} cores")
    print(f"{'jobs':>5} {'seconds':>8} {'games/s':>9} {'speed-up':>9} {'ceiling':>8} {'fixed s':>8}")
    for r in rows:
        print(f"{r['jobs']:>5} {r['seconds']:>8} {r['games_per_s']:>9} {r['speedup']:>9} {r['machine_ceiling']:>8} "
              f"{r['fixed_seconds']:>8}")


if __name__ == "__main__":
    main()
