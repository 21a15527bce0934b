"""Shared fixtures: the real rules files, loaded once per test session."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from interpreter.agents import make_agents
from interpreter.loader import load_game
from interpreter.play import play_game

# The bots read the evaluation weights `catalyst bots --tune` stored in the
# user's cache (interpreter/agents/weights.py): the tests start from an empty
# cache of their own, so a developer's tuning never changes what they see.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="catalyst-tests-cache-")

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
CATALYST = RULES / "catalyst.rules"


def game_files(folder: Path, rules: str, cards: str, cards_name: str = "cards.yaml") -> Path:
    """A rules text and its card file written into `folder`, for what reads
    files (the command line, simulations in worker processes); the rules
    file's path. Elsewhere a test passes the texts to `load_game`."""
    (folder / cards_name).write_text(cards, encoding="utf-8")
    (folder / "game.rules").write_text(rules, encoding="utf-8")
    return folder / "game.rules"


def checked_game(path):
    """The game of a rules file, checking the state's invariants after every action."""
    game = load_game(path)
    game.set_limits(check_invariants=True)
    return game


@pytest.fixture(scope="session")
def catalyst():
    """The base game from the real rules/catalyst.rules, checking invariants
    after every action."""
    return checked_game(CATALYST)


def random_game(game, players: int, seed: int, on_decision=None):
    """A whole game of random bots (seeded)."""
    return play_game(game, players, seed, make_agents("random", players, seed), on_decision=on_decision)


def random_actions(game, players: int, seed: int) -> list:
    """The action ids a seeded random game takes, in order."""
    taken = []
    random_game(game, players, seed, on_decision=lambda st, d, choice: taken.append(choice))
    return taken


@pytest.fixture(scope="session")
def catastropolis():
    """The cooperative game of rules/catastropolis/catastropolis.rules,
    checking invariants after every action."""
    return checked_game(RULES / "catastropolis" / "catastropolis.rules")


def labels(st) -> dict:
    """Option id -> label of the pending decision."""
    return {o.id: o.label for o in st.legal_options()}


def asked(st) -> tuple:
    """(player, prompt, label of "yes") of the pending decision: who is asked what."""
    return st.current_player(), st.decision().prompt, labels(st).get("yes")


def play(st, *actions):
    """Apply actions in order, each of which must be legal."""
    for action in actions:
        assert action in st.legal_actions(), f"{action!r} not in {st.legal_actions()} ({st.decision().prompt})"
        st.apply_action(action)
    return st
