"""Where a random 2-player game spends its work, by line and by function
(not a test: it prints tables).

    python benchmarks/hotlines.py                 # 20 games, the 25 hottest lines and functions
    python benchmarks/hotlines.py --games 50 --top 40 --json

Counts Python bytecode instructions executed, per source line (of the code
generated from rules/catalyst.rules and of the interpreter), with
`sys.settrace` opcode events. Unlike a wall-clock profile the counts are
exact and the same on every run, and the tracer's own cost does not distort
them; unlike callgrind they name the line of generated code. Work done inside
a C function (list.index, a list comprehension's allocation) counts as the
one instruction that called it, so the machine-instruction shares
(benchmarks/workloads.py with callgrind) weigh calls into C more. The same
games on the hand-written engine (benchmarks/baseline_catalyst.py) are
counted too: the ratio of the two counts follows the ratio of wall times
(benchmarks/bench.py) more closely than the ratio of machine instructions.
"""
from __future__ import annotations

import argparse
import collections
import json
import linecache
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_catalyst as baseline  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agents  # noqa: E402
from interpreter.play import play_game  # noqa: E402

RULES = ROOT / "rules" / "catalyst.rules"


def count_opcodes(play, games: int):
    """(per (file, line) counts, per (file, function) counts) over the games
    `play(seed)` plays for seeds 0 to `games` - 1."""
    lines: collections.Counter = collections.Counter()
    functions: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            code = frame.f_code
            lines[(code.co_filename, frame.f_lineno)] += 1
            functions[(code.co_filename, code.co_name)] += 1
        return tracer

    sys.settrace(tracer)
    try:
        for seed in range(games):
            play(seed)
    finally:
        sys.settrace(None)
    return lines, functions


def where(filename: str) -> str:
    if filename.startswith("<generated"):
        return "generated"
    try:
        return str(Path(filename).resolve().relative_to(ROOT))
    except ValueError:
        return Path(filename).name


def report(lines, functions, top: int) -> dict:
    total = sum(lines.values())
    by_place = collections.Counter()
    for (filename, _), n in lines.items():
        by_place[where(filename)] += n
    return {
        "bytecodes": total,
        "by_file": [{"file": f, "share": n / total} for f, n in by_place.most_common()],
        "functions": [{"file": where(f), "function": name, "share": n / total}
                      for (f, name), n in functions.most_common(top)],
        "lines": [{"file": where(f), "line": line, "share": n / total,
                   "source": linecache.getline(f, line).strip()[:110] if line else ""}
                  for (f, line), n in lines.most_common(top)],
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load_game(RULES)  # kept while reporting: its generated source is in linecache while it lives
    out = report(*count_opcodes(lambda seed: play_game(game, 2, seed, make_agents("random", 2, seed)).scores(),
                                args.games), args.top)
    cards = baseline.Cards()
    by_hand, _ = count_opcodes(lambda seed: baseline.play(cards, 2, seed, baseline.random_chooser(2, seed)), args.games)
    out["hand_written_bytecodes"] = sum(by_hand.values())
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['bytecodes'] / args.games:,.0f} bytecode instructions per game ({args.games} random 2-player games); "
          f"the hand-written engine {out['hand_written_bytecodes'] / args.games:,.0f} "
          f"(ratio {out['bytecodes'] / out['hand_written_bytecodes']:.2f})\n")
    print("By file")
    for row in out["by_file"][:12]:
        print(f"  {100 * row['share']:5.1f}%  {row['file']}")
    print("\nHottest functions")
    for row in out["functions"]:
        print(f"  {100 * row['share']:5.1f}%  {row['file']}: {row['function']}")
    print("\nHottest lines")
    for row in out["lines"]:
        print(f"  {100 * row['share']:5.1f}%  {row['file']}:{row['line']}  {row['source']}")


if __name__ == "__main__":
    main()
