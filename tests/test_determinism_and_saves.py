"""Same seed and choices give the same game; saves resume exactly."""
from __future__ import annotations

import json

import pytest

from interpreter import rng
from interpreter.errors import SaveFileError

from .conftest import random_actions, random_game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_game(catalyst, players):
    first = random_game(catalyst, players, seed=11)
    second = random_game(catalyst, players, seed=11)
    assert first.to_json() == second.to_json()
    assert first.result() == second.result()


def test_different_seeds_differ(catalyst):
    assert random_actions(catalyst, 2, 1) != random_actions(catalyst, 2, 2)


@pytest.mark.parametrize("seed", range(6))
def test_save_at_a_random_decision_then_finish_equals_uninterrupted(catalyst, seed):
    actions = random_actions(catalyst, 2 + seed % 3, seed)
    _, cut = rng.below(rng.seed_state(seed), len(actions))
    st = catalyst.new_initial_state(2 + seed % 3, seed)
    for action in actions[:cut]:
        st.apply_action(action)
    resumed = catalyst.state_from_json(st.to_json())
    assert resumed.to_json() == st.to_json()
    for action in actions[cut:]:
        resumed.apply_action(action)
    full = random_game(catalyst, 2 + seed % 3, seed)
    assert resumed.is_terminal()
    assert resumed.to_json() == full.to_json()


def test_clone_is_independent(catalyst):
    st = catalyst.new_initial_state(2, 5)
    copy = st.clone()
    before = st.to_json()
    copy.apply_action(copy.legal_actions()[0])
    assert st.to_json() == before
    assert copy.to_json() != before


def test_a_blank_state_holds_each_field_s_default_of_its_own(catalyst):
    """`blank` is written out from FIELDS: every field at its default, and
    two blank states share no list or set."""
    from interpreter.engine.state import FIELDS, State

    first, second = State.blank(catalyst.program), State.blank(catalyst.program)
    assert type(first) is State and first.program is catalyst.program
    for f in FIELDS:
        value = getattr(first, f.name)
        assert value == f.default and type(value) is type(f.default), f.name
        assert not isinstance(value, (list, set, dict)) or value is not getattr(second, f.name)


def test_save_of_other_rules_is_refused(catalyst):
    st = catalyst.new_initial_state(2, 5)
    data = json.loads(st.to_json())
    data["fingerprint"] = "0000"
    with pytest.raises(SaveFileError, match="different rules"):
        catalyst.state_from_json(json.dumps(data))


@pytest.mark.parametrize("text, message", [
    ("not json", "not valid JSON"),
    ("{}", "not a saved game"),
    ("[1, 2]", "not a saved game"),
])
def test_damaged_save_is_refused(catalyst, text, message):
    with pytest.raises(SaveFileError, match=message):
        catalyst.state_from_json(text)


def test_tampered_save_is_refused(catalyst):
    """A played position is rebuilt from its history: a changed field shows."""
    st = catalyst.new_initial_state(2, 5)
    data = json.loads(st.to_json())
    data["state"]["loc"] = data["state"]["loc"][:-1]
    with pytest.raises(SaveFileError, match="does not follow from its own history.*: loc"):
        catalyst.state_from_json(json.dumps(data))


def test_tampered_arranged_position_is_refused(catalyst):
    """A position arranged by hand has no history: its fields are checked."""
    st = catalyst.new_initial_state(2, 5)
    st.forget_history()
    data = json.loads(st.to_json())
    data["state"]["loc"] = data["state"]["loc"][:-1]
    with pytest.raises(SaveFileError, match="damaged: the card locations do not match the cards"):
        catalyst.state_from_json(json.dumps(data))


LONG_GAME = """\
game "Counting"
players 2
cards "cards.yaml" into box
zone box: shared
counter points: per player
setup:
    pass
turn:
    may "score a point":
        gain 1 points
    if round == 1500:
        end game now
score:
    "Points": points
"""


def test_a_game_of_thousands_of_decisions_saves_and_pickles():
    """The history is as deep as the game is long: writing it out, hashing it
    and pickling the state must not walk it recursively."""
    import pickle

    from interpreter import load_game

    game = load_game("long.rules", text=LONG_GAME, cards={"cards.yaml": "thing:\n  - {name: Alpha}\n"})
    st = game.new_initial_state(2, seed=1)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[0])
    assert len(st.actions()) > 2500
    again = game.state_from_json(st.to_json())
    assert again.fingerprint() == st.fingerprint()
    assert pickle.loads(pickle.dumps(st)).fingerprint() == st.fingerprint()
