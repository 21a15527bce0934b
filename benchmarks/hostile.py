"""Speed of the defences against hostile input (not a test: it prints figures).

    python benchmarks/hostile.py             # medians of 3 runs
    python benchmarks/hostile.py --repeat 5 --big

- loading 10,000 cards (and, with --big, 40,000), to see that loading is
  linear in the file;
- refusing a 1 KB billion-laughs card file, and a card with 20,000 effects;
- `catalyst check rules/catalyst.rules` wall time in a fresh process: with
  an empty cache (the grammar's tables are built, the cards validated) and
  with the cache filled.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.errors import RulesError  # noqa: E402
from interpreter.loader import load_game  # noqa: E402

RULES = """\
game "Bench"
players 2..3
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, hidden
zone hand: per player, visible
kind thing:
    effects: effects
effect coin "take 1 gold": gain 1 gold
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
        resolve any of c.effects
    end game after 0 more rounds
score:
    "Gold": gold
"""


def game_folder(cards: str) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="hostile-bench-"))
    (folder / "game.rules").write_text(RULES)
    (folder / "cards.yaml").write_text(cards)
    return folder / "game.rules"


def many_cards(n: int) -> str:
    return "thing:\n" + "".join(f"  - {{name: Card {i}, cost: {i % 5}, effects: coin}}\n" for i in range(n))


def billion_laughs() -> str:
    """10 levels of 10 aliases (10^10 values), padded with a comment to 1 KB."""
    lines = ["a: &a [" + ",".join(['"lol"'] * 10) + "]"]
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [" + ",".join(["*" + ("a" if i == 1 else f"l{i - 1}")] * 10) + "]")
    text = "\n".join(lines + ["thing: [*l9]"]) + "\n"
    return text + "#" * (1023 - len(text)) + "\n"


def timed_load(path: Path) -> float:
    start = time.perf_counter()
    try:
        load_game(path)
    except RulesError:
        pass
    return time.perf_counter() - start


def check_wall(env: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from cli.main import main; main()", "check", str(ROOT / "rules" / "catalyst.rules")],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also load 40,000 cards")
    args = parser.parse_args()

    def median(fn):
        return statistics.median(fn() for _ in range(args.repeat))

    sizes = [10_000, 40_000] if args.big else [10_000]
    for n in sizes:
        path = game_folder(many_cards(n))
        print(f"load {n:,} cards: {median(lambda: timed_load(path)):.2f} s ({path.parent / 'cards.yaml'})")
    bomb = billion_laughs()
    path = game_folder(bomb)
    print(f"refuse a {len(bomb.encode())}-byte alias bomb: {median(lambda: timed_load(path)):.3f} s")
    path = game_folder("thing:\n  - {name: Alpha, effects: '" + " ".join(["coin"] * 20_000) + "'}\n")
    print(f"refuse a card with 20,000 effects: {median(lambda: timed_load(path)):.3f} s")

    with tempfile.TemporaryDirectory() as cache_home:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": cache_home}
        cold = check_wall(env)
        warm = median(lambda: check_wall(env))
    print(f"catalyst check rules/catalyst.rules: {cold:.2f} s with an empty cache, {warm:.2f} s with it filled")


if __name__ == "__main__":
    main()
