"""`for each x in L where C:` with C tested while L is made
(compiler/loopfilter.py): only where the body cannot change C for an item
still to come, and then the game plays as with each item tested in turn."""
from __future__ import annotations

import re

import pytest

from interpreter.compiler import loopfilter
from interpreter.loader import load_game

CARDS = """\
worker:
""" + "".join(f"  - {{name: W{i}, power: {i % 3}}}\n" for i in range(12)) + """\
captain:
  - {name: C0, power: 2, rank: 1}
"""
HEAD = """\
game "Sideways"
players 2
cards "cards.yaml" into box
counter tapped: per card, min 0, max 1
counter gold: per player
zone box: shared, visible
zone deck: shared, hidden
zone area: per player, visible
zone rooms: per player, visible
zone inside: per card, slots 1, visible
zone pile: per player, visible
define crew = area + [c for r in rooms for c in inside of r]
when deck becomes empty:
    gain 1 gold
setup:
    move box to deck
    shuffle deck
    end game after 6 more rounds
action hire "hire" when size(deck) > 0:
    move top(deck) to area
action build "build" when size(deck) > 0 and size(area) > 0:
    move top(deck) to rooms
    choose c in area as "house {c.name}":
        move c to inside of top(rooms)
action work "work" when any c in crew where tapped of c == 0:
    choose c in crew where tapped of c == 0 as "work {c.name}":
        set tapped of c to 1
procedure hire_one:
    if size(deck) > 0:
        move top(deck) to area
turn:
    choose action
"""
TAIL = """
score:
    "Gold": gold
"""
# the end of a turn: the cards turned sideways go to the pile, untapped
SAFE = """\
    for each c in crew where tapped of c == 1 and c.power > 0:
        set tapped of c to 0
        gain 1 gold
        move c to pile
"""


def game(end_of_turn: str, tested: bool = True, monkeypatch=None):
    """The game with `end_of_turn` at the end of each turn (with `tested`
    False, its loops test each item in turn, as without loopfilter.py)."""
    text = HEAD + end_of_turn + TAIL
    if tested:
        return load_game(text=text, cards={"cards.yaml": CARDS})
    with monkeypatch.context() as m:
        m.setattr(loopfilter, "tested_first", lambda *args: False)
        return load_game(text=text, cards={"cards.yaml": CARDS})


def end_of_turn_code(g) -> str:
    """The code of the turn's loop `for each c in crew... where`, from the list made."""
    turn = g.program.module.text.split("def turn(st, fr, pc=0):")[1]
    return re.split(r"# \d+: for each c in crew[^\n]* where [^\n]*\n", turn)[1].split("\n\n")[0]


def made_filtered(g) -> bool:
    """Whether the loop goes through a list made of the items that pass: no
    test at the top of the loop over it."""
    loop = re.search(r"for s\d+ in t\d+:\n(.*)", end_of_turn_code(g))
    return loop is not None and not loop.group(1).strip().startswith("if not")


def play_alike(a_game, b_game, seed):
    """Play both games with the same actions; the two final states."""
    a, b = a_game.new_initial_state(2, seed), b_game.new_initial_state(2, seed)
    while not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
        action = a.legal_actions()[(seed * 7 + a.decisions) % len(a.legal_actions())]
        a.apply_action(action)
        b.apply_action(action)
    return a, b


def test_the_test_is_made_with_the_list_where_the_body_changes_only_its_item():
    g = game(SAFE)
    code = end_of_turn_code(g)
    assert re.search(r"if v\d+ is not None and \(\(ctr\[0\]\[v\d+\] == 1\)", code)  # in the rooms' walk
    assert made_filtered(g)


@pytest.mark.parametrize("seed", range(4))
def test_a_game_with_the_test_made_first_plays_as_with_each_item_tested_in_turn(seed, monkeypatch):
    first, each = game(SAFE), game(SAFE, tested=False, monkeypatch=monkeypatch)
    assert made_filtered(first) and not made_filtered(each)
    a, b = play_alike(first, each, seed)
    assert a.to_json() == b.to_json() and a.scores() == b.scores()
    assert a.zone("pile", 0) or a.zone("pile", 1)  # cards went through the loop


OTHERS = ("    for each c in crew where tapped of c == 1:\n        for each d in crew:\n"
          "            set tapped of d to 0\n        gain 1 gold\n")


@pytest.mark.parametrize("body", [
    OTHERS,  # another card's counter: a later item's test changes
    # the test reads what the body changes
    "    for each c in crew where tapped of c == 1 and gold < 3:\n        gain 1 gold\n",
    "    for each c in crew where tapped of c == 1 and size(pile) < 2:\n        move c to pile\n",
    # the body ends the loop early, or runs a rule
    "    for each c in crew where tapped of c == 1:\n        gain 1 gold\n        stop\n",
    "    for each c in crew where tapped of c == 1:\n        hire_one\n",
    # a card leaves a zone with a `becomes empty` trigger
    "    for each c in crew where tapped of c == 1:\n        move top(deck) to pile\n",
    # the item's name bound anew
    "    for each c in crew where tapped of c == 1:\n        for each c in area:\n            set tapped of c to 0\n",
    # a list that may repeat a card
    "    for each c in crew + area where tapped of c == 1:\n        set tapped of c to 0\n        gain 1 gold\n",
    # a field some card lacks: testing it early could fail where the loop would not have
    "    for each c in crew where tapped of c == 1 and c.rank > 0:\n        set tapped of c to 0\n",
    # an order of a text and a number: a test that fails
    "    for each c in crew where tapped of c == 1 and c.name < 3:\n        set tapped of c to 0\n",
], ids=["other-counter", "reads-counter-changed", "reads-zone-changed", "stops", "runs-rules", "trigger",
        "rebinds", "repeats", "missing-field", "order-of-text"])
def test_each_item_is_tested_in_turn_where_the_body_may_change_a_later_test(body):
    assert not made_filtered(game(body))


def test_a_later_item_changed_by_the_body_is_tested_as_it_is_then(monkeypatch):
    """Every card is turned sideways, then the first untaps them all: the
    others, tested after that, fail and gain nothing. Tested first, each
    would have gained (so the analysis above is what keeps the game right)."""
    body = "    for each c in crew:\n        set tapped of c to 1\n" + OTHERS
    each = game(body)
    with monkeypatch.context() as m:
        m.setattr(loopfilter, "tested_first", lambda *args: True)
        first = game(body)
    assert made_filtered(first) and not made_filtered(each)
    a, b = play_alike(each, first, 2)
    assert a.scores() != b.scores()
    assert all(a.counter("gold", p) <= a.turns for p in range(2))  # at most one a turn
