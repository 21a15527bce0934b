"""Time from an edit to its diagnostics in the language server (not a test:
it prints figures).

    python benchmarks/lsp_latency.py                   # 20 edits of rules/catalyst.rules
    python benchmarks/lsp_latency.py --edits 50 --rules rules/solo.rules --json

Starts `catalyst lsp` as a subprocess, opens the rules file and speaks the
protocol as an editor does: each edit (a didChange with the whole new text)
alternately misspells a counter and mends it, and adds a comment with its
number, so that every edit is a text the server has not parsed before; the
clock runs from sending the edit to receiving the publishDiagnostics of that
version. The first check of the file (on opening) is reported apart: it
parses and loads everything once.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.lsp_client import LspClient  # noqa: E402


def misspell(text: str) -> str:
    """The text with one use of a counter misspelt (the first `gain N NAME`)."""
    match = re.search(r"(\bgain\s+\S+\s+)([A-Za-z_]\w*)", text)
    if match is None:
        raise SystemExit("no `gain N COUNTER` statement to misspell in this file")
    return text[:match.start(2)] + match.group(2) + "x" + text[match.end(2):]


def measure(rules: Path, edits: int) -> dict:
    text = rules.read_text()
    broken = misspell(text)
    with LspClient(ROOT) as client:
        client.initialize(ROOT)
        start = time.perf_counter()
        uri = client.open(rules, text)
        client.diagnostics(uri, 1)
        first = time.perf_counter() - start
        times = []
        for i in range(edits):
            new_text = (broken if i % 2 == 0 else text) + f"# edit {i + 1}\n"
            start = time.perf_counter()
            version = client.change(uri, new_text)
            found = client.diagnostics(uri, version)
            times.append(time.perf_counter() - start)
            if bool(found) != (i % 2 == 0) and not any(d["severity"] == 2 for d in found):
                raise SystemExit(f"edit {i + 1}: unexpected diagnostics {found}")
    ms = sorted(t * 1000 for t in times)
    return {"rules": str(rules.relative_to(ROOT)) if rules.is_relative_to(ROOT) else str(rules), "edits": edits,
            "first_check_ms": round(first * 1000, 1), "median_ms": round(statistics.median(ms), 1),
            "min_ms": round(ms[0], 1), "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1), "max_ms": round(ms[-1], 1),
            "load_average": round(os.getloadavg()[0], 2)}  # the machine is shared: figures drift with its load


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=str(ROOT / "rules" / "catalyst.rules"))
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(Path(args.rules).resolve(), args.edits)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{result['rules']}: edit -> diagnostics over {result['edits']} edits: median {result['median_ms']} ms "
          f"(min {result['min_ms']}, p90 {result['p90_ms']}, max {result['max_ms']}); "
          f"first check on opening {result['first_check_ms']} ms; load average {result['load_average']}")


if __name__ == "__main__":
    main()
