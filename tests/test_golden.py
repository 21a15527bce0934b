"""Golden playthroughs: recorded games replayed line by line.

Each file lists, for every decision, the deciding player, the legal option
ids, the chosen id and its label, then the final result. The test replays the
chosen ids through the decision API and compares every line. After an
intended change of rules or cards, regenerate with
`UPDATE_GOLDEN=1 pytest tests/test_golden.py` and review the diff.
"""
from __future__ import annotations

import json
import os

import pytest

from interpreter.loader import load_game

from .conftest import ROOT, random_game

GOLDEN = ROOT / "tests" / "golden"
CASES = [("catalyst", 2, 7), ("catalyst", 3, 3), ("catalyst", 4, 5), ("solo", 2, 11), ("solo", 2, 3),
         ("catastropolis", 2, 4), ("catastropolis", 3, 9), ("catastropolis", 4, 2)]
RULES = {"catalyst": ROOT / "rules" / "catalyst.rules", "solo": ROOT / "rules" / "solo.rules",
         "catastropolis": ROOT / "rules" / "catastropolis" / "catastropolis.rules"}


@pytest.fixture(scope="module")
def games():
    loaded = {}

    def get(name):
        if name not in loaded:
            loaded[name] = load_game(RULES[name])
            loaded[name].set_limits(check_invariants=True)
        return loaded[name]
    return get


def playthrough(game, players, seed, choices=None) -> list[str]:
    lines = [f"game {game.title} players {players} seed {seed}"]

    def line(st, decision, choice):
        ids = " ".join(o.id for o in decision.options)
        label = next(o.label for o in decision.options if o.id == choice)
        lines.append(f"r{st.round} t{st.turns} p{decision.player + 1} [{ids}] -> {choice} | {label}")

    if choices is None:
        final = random_game(game, players, seed, on_decision=line)
    else:
        final = game.new_initial_state(players, seed)
        for choice in choices:
            decision = final.decision()
            line(final, decision, choice)
            final.apply_action(choice)
        assert final.is_terminal(), "the recorded actions did not finish the game"
    lines.append("result " + json.dumps(final.result(), sort_keys=True))
    return lines


@pytest.mark.parametrize("name, players, seed", CASES, ids=[f"{n}-{p}p-seed{s}" for n, p, s in CASES])
def test_golden_playthrough(games, name, players, seed):
    game = games(name)
    path = GOLDEN / f"{name}_{players}p_seed{seed}.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text("\n".join(playthrough(game, players, seed)) + "\n")
    assert path.exists(), f"missing {path}; record it with UPDATE_GOLDEN=1"
    expected = path.read_text().splitlines()
    choices = [line.split("-> ", 1)[1].split(" |", 1)[0] for line in expected[1:-1]]
    actual = playthrough(game, players, seed, choices)
    for number, (want, got) in enumerate(zip(expected, actual), 1):
        assert got == want, f"{path.name}:{number} differs"
    assert len(actual) == len(expected)
