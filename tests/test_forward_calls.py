"""A rule that only calls another (`action draw: draw_one`) is not a
step of its own: its callers make the callee's frame and call it
(compiler/blocks.py: forward_calls), and a game plays, waits and saves as
with the rule in between."""
from __future__ import annotations

import pytest

from interpreter.compiler import build
from interpreter.loader import load_game

from .conftest import CATALYST

RULES = """\
game "Relay"
players 2
cards "cards.yaml" into box
counter gold: per player
zone box: shared, visible
zone hand: per player, visible
setup:
    end game after 3 more rounds
procedure take_one:
    choose c in box as "take {c.name}":
        move c to hand
procedure take_many(k):
    repeat k times:
        take_one
action relay "relay" when size(box) > 0:
    take_one
action count "count" when size(box) > 1:
    take_many(1 + size(hand))
action rest "rest":
    gain 1 gold
turn:
    choose action
score:
    "Gold": gold
"""
CARDS = "token:\n" + "".join(f"  - {{name: T{i}}}\n" for i in range(9))


def unforwarded(monkeypatch, **where):
    """The game compiled with every rule called as itself."""
    with monkeypatch.context() as m:
        m.setattr(build, "forward_calls", lambda *args: {})
        return load_game(**where)


def code(game) -> str:
    return game.program.module.text


def test_a_call_of_a_rule_that_only_calls_another_calls_that_one():
    relay = load_game(text=RULES, cards={"cards.yaml": CARDS})
    turn = code(relay).split("def turn(st, fr, pc=0):")[1].split("\n# ")[0]
    assert "action_relay(st, nf)" not in turn and "procedure_take_one(st, nf)" in turn
    # an argument the caller computes stays the called rule's to take
    assert "action_count(st, nf)" in turn


def test_the_calls_catalyst_makes_through_a_rule_that_only_calls_another():
    text = code(load_game(CATALYST))
    assert "action_recruit(" not in text.split("def action_recruit(st, fr, pc=0):")[1]
    assert "action_recruit(" not in text.split("def action_recruit(st, fr, pc=0):")[0]
    assert "nf = [11, 0, [None]]\n" in text.split("def turn(st, fr, pc=0):")[1].split("\n# ")[0]


def play_alike(a_game, b_game, players, seed):
    """Both games with the same actions, their saves compared at every decision."""
    a, b = a_game.new_initial_state(players, seed), b_game.new_initial_state(players, seed)
    while not a.is_terminal():
        assert a.to_json() == b.to_json()
        action = a.legal_actions()[(seed * 7 + a.decisions) % len(a.legal_actions())]
        a.apply_action(action)
        b.apply_action(action)
    assert a.to_json() == b.to_json() and a.scores() == b.scores()
    return a


@pytest.mark.parametrize("seed", range(3))
def test_a_game_waits_and_saves_as_with_the_rule_in_between(seed, monkeypatch):
    where = dict(text=RULES, cards={"cards.yaml": CARDS})
    end = play_alike(load_game(**where), unforwarded(monkeypatch, **where), 2, seed)
    assert end.zone("hand", 0) or end.zone("hand", 1)


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 1), (4, 2)])
def test_catalyst_plays_as_with_its_actions_and_effects_in_between(players, seed, monkeypatch):
    """Recruiting, as an action and as an effect (run by the runtime: `R_effect`),
    waits at the choice of a catalyst in `recruit_one`'s frame."""
    play_alike(load_game(CATALYST), unforwarded(monkeypatch, path=CATALYST), players, seed)
