"""Parameters of procedures, reactions and definitions take the type of the
values given to them: on a small real rules file (tests/flow/pickpocket.rules)
driven through the decision API, a player given as a parameter is written
"player 2" in the labels of the body, as any other player is."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesError
from interpreter.loader import load_game

from .conftest import ROOT, asked, play

PICKPOCKET = ROOT / "tests" / "flow" / "pickpocket.rules"


@pytest.fixture(scope="module")
def pickpocket():
    return load_game(PICKPOCKET)



def test_players_given_to_procedures_reactions_and_definitions_are_named_as_players(pickpocket):
    st = pickpocket.new_initial_state(2, seed=1)
    # a procedure's parameters, and a definition's (chosen) inside its label
    assert asked(st) == (0, "steal", "player 1 takes 1 gold from player 2")
    play(st, "yes")
    # a procedure called with the parameter of another procedure
    assert asked(st) == (0, "boast", "player 1 boasts")
    play(st, "yes")
    assert asked(st) == (1, "react to robbery", "raise the alarm")
    play(st, "yes")
    # a reaction's parameters, in a label inside its body
    assert asked(st) == (1, "alarm", "make player 1 give back 1 gold to player 2")
    play(st, "yes")
    assert [st.counter("gold", p) for p in range(2)] == [3, 3]
    assert st.counter("alarms", 0) == 1


def _variant(old: str, new: str):
    text = PICKPOCKET.read_text()
    assert old in text
    return load_game(PICKPOCKET, text=text.replace(old, new))


def test_values_of_different_types_leave_a_parameter_untyped():
    # boast is now also given a number: `who` has no type, so it is written as
    # the value it holds (a seat number), as every parameter was before
    game = _variant("        boast(thief)\n", "        boast(thief)\n        boast(1)\n")
    st = game.new_initial_state(2, seed=1)
    play(st, "yes")
    assert asked(st) == (0, "boast", "0 boasts")
    play(st, "yes")
    assert asked(st) == (0, "boast", "1 boasts")


def test_a_procedure_passing_its_own_parameter_on_keeps_its_type():
    game = _variant("        gain 1 alarms of who\n",
                    "        gain 1 alarms of who\n        if alarms of who < 2:\n            boast(who)\n")
    st = game.new_initial_state(2, seed=1)
    play(st, "yes", "yes")
    assert asked(st) == (0, "boast", "player 1 boasts")


def test_a_typed_parameter_used_as_another_kind_is_refused_where_it_is_used():
    with pytest.raises(RulesError) as info:
        _variant("        gain 1 alarms of who\n", "        gain who.cost alarms of who\n")
    text = info.value.render()
    assert "pickpocket.rules:28:14: error: only a card has fields; this is a player" in text
    assert "'who' is a player because every value given to it is, as at line 23" in text


def test_a_reaction_to_an_event_of_the_engine_is_given_the_player_whose_turn_it_is():
    game = _variant("score:\n", 'reaction wave(p) "wave" to turn_start:\n    may "wave at {p}":\n'
                                          "        gain 1 alarms\nscore:\n")
    st = game.new_initial_state(2, seed=1)
    assert asked(st) == (1, "react to turn start", "wave")
    play(st, "yes")
    assert asked(st) == (1, "wave", "wave at player 1")
