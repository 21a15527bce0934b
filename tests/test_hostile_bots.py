"""Bot settings have limits: an iteration count, a time budget or a number
of tries past its limit is refused with a message naming the setting and
the limit, on the command line and in a save (so `run --load` of a hostile
save cannot make a bot think without end)."""
from __future__ import annotations

import json

import pytest

from .hostile import expect, invoke, tiny_game

pytestmark = pytest.mark.timeout(120)

OVER_THE_LIMITS = [
    ("mcts:100001", "bot 'mcts': option 'iterations' must be at most 100,000 (the limit), got 100,001"),
    ("mcts:iterations=1000000000", "bot 'mcts': option 'iterations' must be at most 100,000 (the limit), "
                                   "got 1,000,000,000"),
    ("mcts:61s", "bot 'mcts': option 'ms' must be at most 60,000 (the limit), got 61000"),
    ("mcts:10:ms=90000.5ms", "bot 'mcts': option 'ms' must be at most 60,000 (the limit), got 90000.5"),
    ("mcts:10:horizon=1001", "bot 'mcts': option 'horizon' must be at most 1,000 (the limit), got 1,001"),
    ("mcts:10:tries=5000", "bot 'mcts': option 'tries' must be at most 1,000 (the limit), got 5,000"),
    ("mcts:10:tries=-1", "bot 'mcts': option 'tries' must be 0 or more, got -1"),
    ("mcts:10:c=101", "bot 'mcts': option 'c' must be at most 100 (the limit), got 101"),
    ("greedy:10001", "bot 'greedy': option 'tries' must be at most 10,000 (the limit), got 10,001"),
    ("greedy:tries=10001", "bot 'greedy': option 'tries' must be at most 10,000 (the limit), got 10,001"),
    ("greedy:worlds=101", "bot 'greedy': option 'worlds' must be at most 100 (the limit), got 101"),
    ("greedy:patience=99999", "bot 'greedy': option 'patience' must be at most 1,000 (the limit), got 99,999"),
    ("greedy:turns=4", "bot 'greedy': option 'turns' must be at most 3 (the limit), got 4"),
    ("greedy:turns=0", "bot 'greedy': option 'turns' must be 1 or more, got 0"),
    ("greedy:101:turns=2", "bot 'greedy': tries=101 with turns=2 values up to 10,201 ends of turn an option, "
                           "more than 10,000 (the limit)"),
]
IDS = ["iterations", "iterations-by-name", "seconds", "milliseconds", "horizon", "mcts-tries", "negative-tries",
       "exploration", "greedy-tries", "greedy-tries-by-name", "worlds", "patience", "turns", "no-turn",
       "tries-to-the-turns"]


@pytest.mark.parametrize("bots, message", OVER_THE_LIMITS, ids=IDS)
def test_bot_settings_past_their_limit_are_refused(tmp_path, bots, message):
    expect(invoke("run", tiny_game(tmp_path), "--seed", "1", "--bots", bots, "-q"), 1, f"Error: {message}")


@pytest.mark.parametrize("bots, message", OVER_THE_LIMITS[:3] + OVER_THE_LIMITS[8:9], ids=IDS[:3] + IDS[8:9])
def test_bot_settings_read_from_a_save_have_the_same_limits(tmp_path, bots, message):
    save = tmp_path / "game.save"
    expect(invoke("run", tiny_game(tmp_path), "--seed", "1", "--human", "1", input=f"save {save}\nquit\n"), 0,
           "Saved to")
    save.write_text(json.dumps({**json.loads(save.read_text()), "bots": bots, "human": []}))
    expect(invoke("run", "--load", save, "-q"), 1, f"Error: {message}")


@pytest.mark.parametrize("bots", ["mcts:100000:5ms", "mcts:60s:5", "greedy:tries=10000:worlds=1"])
def test_bot_settings_at_their_limit_play(tmp_path, bots):
    expect(invoke("run", tiny_game(tmp_path), "--seed", "1", "--bots", bots, "-q"), 0, "player 1:")
