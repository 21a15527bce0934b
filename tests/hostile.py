"""Helpers of the hostile-input tests (tests/test_hostile_*.py): every case
runs under a time limit, so an input that makes the tool hang fails the
test instead of stopping the suite, and every CLI case is checked for its
exit code, its message and the absence of a traceback.

The limits are generous: they catch hangs, not slowness (speed figures are
benchmarks: benchmarks/hostile.py).
"""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time

from click.testing import CliRunner

from cli.main import cli

from .conftest import ROOT, game_files

LIMIT = 30.0  # seconds a case may take before it counts as a hang

TINY_CARDS = "thing:\n  - {name: Alpha, cost: 1}\n  - {name: Beta, cost: 2}\n"
TINY_RULES = """\
game "Tiny"
players 2..3
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, hidden
zone hand: per player, visible
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
        gain c.cost gold
    end game after 0 more rounds
score:
    "Gold": gold
"""


class Hang(Exception):
    """A case ran past its time limit."""


@contextlib.contextmanager
def time_limit(seconds: float = LIMIT):
    """Fail with Hang if the block runs longer than `seconds` (SIGALRM: the
    main thread only, which is where pytest runs tests)."""
    def expire(signum, frame):
        raise Hang(f"still running after {seconds} s: the input made the tool hang")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def invoke(*args, input=None, seconds: float = LIMIT):
    """Run the CLI in this process (Click's runner) under a time limit."""
    with time_limit(seconds):
        result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"the command raised {type(result.exception).__name__}: {result.exception}") \
            from result.exception
    assert "Traceback" not in result.output, result.output
    return result


class Ran:
    """The outcome of a CLI run in a subprocess, shaped like Click's Result."""

    def __init__(self, done: subprocess.CompletedProcess, seconds: float):
        self.exit_code = done.returncode
        self.output = done.stdout + done.stderr
        self.seconds = seconds


def run_process(*args, stdin=subprocess.DEVNULL, close_stdin: bool = False, env: dict | None = None,
                seconds: float = LIMIT, cwd=None) -> Ran:
    """Run `catalyst ARGS` in a fresh Python process, killed after `seconds`.
    `close_stdin` starts it with file descriptor 0 closed (as `0<&-` does)."""
    command = [sys.executable, "-c", "from cli.main import main; main()", *map(str, args)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    start = time.perf_counter()
    try:
        done = subprocess.run(command, stdin=None if close_stdin else stdin, capture_output=True, text=True,
                              timeout=seconds, env=environment, cwd=cwd or ROOT,
                              preexec_fn=(lambda: os.close(0)) if close_stdin else None)
    except subprocess.TimeoutExpired:
        raise Hang(f"catalyst {' '.join(map(str, args))} still running after {seconds} s") from None
    ran = Ran(done, time.perf_counter() - start)
    assert "Traceback" not in ran.output, ran.output
    return ran


def expect(result, code: int, *messages: str):
    """The exit code is `code` and the output holds every message."""
    assert result.exit_code == code, f"exit {result.exit_code}, expected {code}:\n{result.output}"
    for message in messages:
        assert message in result.output, f"{message!r} not in:\n{result.output}"
    return result


def tiny_game(folder, rules: str = TINY_RULES, cards: str = TINY_CARDS):
    """A small rules file and its cards in `folder`; the rules file's path."""
    return game_files(folder, rules, cards)
