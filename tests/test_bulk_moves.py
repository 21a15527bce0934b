"""A list of cards moved at once (runtime/ops.py `move_many`, used by `move
LIST to ZONE` and `deal`) leaves every part of the position as moving the
cards one at a time does: places, order, locations, what players know, and
the `becomes empty` trigger fired once every card has arrived."""
from __future__ import annotations

import pytest

from interpreter.loader import load_game
from interpreter.runtime import ops

CARDS = """\
thing:
""" + "".join(f"  - {{name: C{i}, rank: {i % 4}}}\n" for i in range(12))
RULES = """\
game "Piles"
players 2
cards "cards.yaml" into box
counter refills: shared, min 0
zone box: shared, hidden
zone deck: shared, hidden
zone pile: shared, visible
zone spare: shared, visible
zone hand: per player, owner only
setup:
    move [c for c in box where c.rank > 0] to deck
    shuffle deck
    deal 3 from deck to pile
    move [c for c in box where c.rank == 0] to spare at bottom
    end game after 2 more rounds
when deck becomes empty:
    set refills to refills + 1
    move spare to deck
turn:
    choose c in pile + deck as "take {c.name}":
        move c to hand
    move [c for c in deck where c.rank == 2] to pile
    if size(deck) < 4:
        move deck to pile
    move pile to hand at bottom
score:
    "Cards": size(hand)
"""


def game(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(RULES)
    return load_game(tmp_path / "game.rules")


def position(st) -> tuple:
    return ([list(z) for z in st.z], list(st.loc), list(st.known), st.known_in, [list(c) for c in st.ctr],
            st.legal_actions(), st.is_terminal())


@pytest.mark.parametrize("seed", range(4))
def test_moving_a_list_at_once_is_moving_its_cards_one_at_a_time(tmp_path, monkeypatch, seed):
    g = game(tmp_path)
    bulk = g.new_initial_state(2, seed)
    with monkeypatch.context() as m:
        m.setattr(ops, "move_many", lambda *args, **kwargs: False)
        single = g.new_initial_state(2, seed)
    assert position(bulk) == position(single)
    while not bulk.is_terminal():
        action = bulk.legal_actions()[-1]
        bulk.apply_action(action)
        with monkeypatch.context() as m:
            m.setattr(ops, "move_many", lambda *args, **kwargs: False)
            single.apply_action(action)
        assert position(bulk) == position(single)
    assert bulk.scores() == single.scores()
    assert bulk.ctr[0][0] >= 1  # a list moved at once emptied the deck: its trigger fired


def test_what_one_at_a_time_may_do_otherwise_is_left_to_it(tmp_path):
    st = game(tmp_path).new_initial_state(2, 0)
    deck = st.z[1]
    assert not ops.move_many(st, (deck[0], deck[0]), 2)  # a card named twice
    assert not ops.move_many(st, (deck[0], st.z[2][0]), 3)  # cards of two zones
    assert not ops.move_many(st, (deck[0], deck[1]), 1)  # to where they lie
    st.events = []
    assert not ops.move_many(st, (deck[0], deck[1]), 2)  # someone listening is told each move
