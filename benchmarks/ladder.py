"""The strength ladder of the bots and the solo difficulty curve.

    python benchmarks/ladder.py --games 200                  # everything, one process
    python benchmarks/ladder.py --games 200 --jobs 2         # on two cores
    python benchmarks/ladder.py --games 40 --pair greedy random --no-solo

Ladder: on the base game with 2 players, each pairing plays `--games` games
over `--games / 2` seeds; each seed is played twice with the seats swapped, so
the first player's advantage and the deal cancel out. A bot's win rate counts a
shared win as half; the 95% interval is Wilson's. Solo: each bot plays seat 0 of
rules/solo.rules against the automaton at each difficulty. Bot speed is in
benchmarks/bench.py.

Every game is seeded: the same command prints the same figures (wall times
aside), whatever `--jobs`.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.agents import make_agent  # noqa: E402
from interpreter.loader import load_game  # noqa: E402
from interpreter.play import play_game  # noqa: E402

BASE = str(ROOT / "rules" / "catalyst.rules")
SOLO = str(ROOT / "rules" / "solo.rules")
DEFAULT_PAIRS = [("greedy", "random"), ("mcts:200", "greedy")]
DIFFICULTIES = ("easy", "standard", "advanced")

_GAMES: dict = {}


def game_for(rules: str, difficulty: str | None = None):
    key = (rules, difficulty)
    if key not in _GAMES:
        params = {"difficulty": f'"{difficulty}"'} if difficulty else None
        _GAMES[key] = load_game(rules, params) if params else load_game(rules)
    return _GAMES[key]


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple:
    if n <= 0:
        return 0.0, 1.0
    p = min(max(successes / n, 0.0), 1.0)
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


# ------------------------------------------------------------------ one game each
def pair_game(job: tuple) -> dict:
    """Game `index` of pairing (a, b): seed base + index // 2, `a` in seat index % 2."""
    a, b, index, base = job
    seed = base + index // 2
    seat = index % 2
    agents = [None, None]
    agents[seat] = make_agent(a, seed, seat)
    agents[1 - seat] = make_agent(b, seed, 1 - seat)
    st = play_game(game_for(BASE), 2, seed, agents)
    scores = st.scores()
    return {"index": index, "seed": seed, "seat": seat, "win": st.returns()[seat],
            "score": scores[seat], "other": scores[1 - seat], "turns": st.turns}


def solo_game(job: tuple) -> dict:
    bot, difficulty, index, base = job
    seed = base + index
    agents = [make_agent(bot, seed, 0), make_agent("random", seed, 1)]  # seat 1 never decides
    st = play_game(game_for(SOLO, difficulty), 2, seed, agents)
    scores = st.scores()
    return {"index": index, "seed": seed, "win": st.returns()[0], "score": scores[0], "automaton": scores[1]}


def run_jobs(fn, jobs: list, pool, label: str) -> list:
    out = []
    start = time.time()
    results = pool.imap(fn, jobs) if pool is not None else map(fn, jobs)
    for i, r in enumerate(results, 1):
        out.append(r)
        if i % 10 == 0 or i == len(jobs):
            print(f"  {label}: {i}/{len(jobs)} games, {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    return out


# ------------------------------------------------------------------ the three measures
def ladder(pairs, games: int, base: int, pool) -> list:
    rows = []
    for a, b in pairs:
        start = time.time()
        results = run_jobs(pair_game, [(a, b, i, base) for i in range(games)], pool, f"{a} vs {b}")
        wall = time.time() - start
        wins = sum(r["win"] for r in results)
        lo, hi = wilson(wins, games)
        rows.append({
            "bot": a, "opponent": b, "games": games, "seeds": (games + 1) // 2, "wins": wins,
            "win_rate": wins / games, "wilson95": [lo, hi], "significant": lo > 0.5,
            "mean_score": sum(r["score"] for r in results) / games,
            "opponent_mean_score": sum(r["other"] for r in results) / games,
            "wall_seconds": wall,
        })
    return rows


def solo_curve(bots, games: int, base: int, pool) -> list:
    rows = []
    for bot in bots:
        for difficulty in DIFFICULTIES:
            start = time.time()
            results = run_jobs(solo_game, [(bot, difficulty, i, base) for i in range(games)], pool, f"solo {bot} {difficulty}")
            wins = sum(r["win"] for r in results)
            lo, hi = wilson(wins, games)
            rows.append({
                "bot": bot, "difficulty": difficulty, "games": games, "wins": wins, "win_rate": wins / games,
                "wilson95": [lo, hi], "mean_score": sum(r["score"] for r in results) / games,
                "automaton_mean_score": sum(r["automaton"] for r in results) / games,
                "wall_seconds": time.time() - start,
            })
    return rows


# ------------------------------------------------------------------ printing
def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def print_report(report: dict) -> None:
    if report.get("ladder"):
        print(f"Ladder: {BASE_NAME}, 2 players, seats alternated over paired seeds (base seed {report['seed']})")
        print(f"{'bot':<14} {'vs':<10} {'games':>5} {'win rate':>9} {'95% Wilson':>17} {'mean score':>11} {'wall':>8}")
        for r in report["ladder"]:
            lo, hi = r["wilson95"]
            verdict = "stronger" if r["significant"] else "not shown stronger"
            print(f"{r['bot']:<14} {r['opponent']:<10} {r['games']:>5} {pct(r['win_rate']):>9} "
                  f"{'[' + pct(lo) + ', ' + pct(hi) + ']':>17} {r['mean_score']:>5.1f}-{r['opponent_mean_score']:<5.1f} "
                  f"{r['wall_seconds']:>7.0f}s  {verdict}")
        print()
    if report.get("solo"):
        print("Solo difficulty curve: rules/solo.rules, the bot in seat 0 against the automaton")
        print(f"{'bot':<14} {'difficulty':<10} {'games':>5} {'win rate':>9} {'95% Wilson':>17} {'score':>6} {'automaton':>9}")
        for r in report["solo"]:
            lo, hi = r["wilson95"]
            print(f"{r['bot']:<14} {r['difficulty']:<10} {r['games']:>5} {pct(r['win_rate']):>9} "
                  f"{'[' + pct(lo) + ', ' + pct(hi) + ']':>17} {r['mean_score']:>6.1f} {r['automaton_mean_score']:>9.1f}")
        print()


BASE_NAME = "rules/catalyst.rules"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing (even: each seed twice) [200]")
    ap.add_argument("--pair", nargs=2, action="append", metavar=("BOT", "OPPONENT"),
                    help="a pairing to measure (repeatable) [greedy random, mcts:200 greedy]")
    ap.add_argument("--seed", type=int, default=1, help="first seed [1]")
    ap.add_argument("--solo-games", type=int, default=None, help="solo games per bot and difficulty [--games / 2]")
    ap.add_argument("--solo-bots", default="greedy,mcts:200", help="bots for the solo curve [greedy,mcts:200]")
    ap.add_argument("--no-ladder", action="store_true")
    ap.add_argument("--no-solo", action="store_true")
    ap.add_argument("--jobs", type=int, default=1, help="processes [1]")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)

    games = args.games + (args.games % 2)
    pool = None
    if args.jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("spawn").Pool(args.jobs)
    start = time.time()
    report = {"seed": args.seed, "command": "python benchmarks/ladder.py " + " ".join(argv if argv is not None else sys.argv[1:])}
    try:
        if not args.no_ladder:
            pairs = [tuple(p) for p in args.pair] if args.pair else DEFAULT_PAIRS
            report["ladder"] = ladder(pairs, games, args.seed, pool)
        if not args.no_solo:
            solo_games = args.solo_games if args.solo_games is not None else max(1, games // 2)
            report["solo"] = solo_curve([b for b in args.solo_bots.split(",") if b], solo_games, args.seed, pool)
    finally:
        if pool is not None:
            pool.close()
    report["wall_seconds"] = time.time() - start
    print_report(report)
    print(f"total wall time {report['wall_seconds']:.0f} s ({args.jobs} process{'es' if args.jobs > 1 else ''})")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
