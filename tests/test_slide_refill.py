"""`slide` and `refill` (runtime/ops.py), which run at every turn of some
games, take a single gap out with two list methods and find it with `index`:
the positions they leave are those of closing the gaps by making the row
anew and of filling the slots one by one from the last, whatever the gaps,
however many cards the source holds, and with its `becomes empty` trigger."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.runtime import ops

RULES = Path(__file__).resolve().parents[1] / "rules" / "catalyst.rules"
MARKET, DECK, FINAL = 3, 1, 2  # zone instances of rules/catalyst.rules


def slid(zone: list) -> list:
    return [None] * zone.count(None) + [c for c in zone if c is not None]


def refilled(st, zi: int, src: int) -> None:
    """`refill` as first written: each slot from the last, the source's top card."""
    zone, source = st.z[zi], st.z[src]
    hook = st.program.zone_of_instance[src].empty_hook
    for i in range(len(zone) - 1, -1, -1):
        if zone[i] is None:
            if not source:
                return
            card = source.pop()
            zone[i] = card
            st.loc[card] = zi
            st.known[card] |= st.program.seers[src]
            if hook is not None and not source:
                ops.run_nested(st, hook)


def position(st) -> tuple:
    return [list(z) for z in st.z], list(st.loc), list(st.known), st.end_round


@pytest.mark.parametrize("seed", range(40))
def test_slide_and_refill_leave_what_the_slot_by_slot_forms_leave(seed):
    rnd = random.Random(seed)
    game = load_game(RULES)
    st = game.new_initial_state(2, seed)
    for _ in range(rnd.randint(0, 5)):  # gaps where players took cards
        taken = st.z[MARKET][rnd.randrange(5)]
        if taken is not None:
            ops.move(st, taken, 7)
    for _ in range(rnd.choice([0, 20, len(st.z[DECK]) - 1, len(st.z[DECK])])):  # a deck short of cards
        ops.move(st, st.z[DECK][-1], 0)
    if rnd.random() < 0.3:
        st.z[FINAL].clear()  # the trigger finds no final stack
    expected = st.clone()
    expected.z = [list(z) for z in expected.z]
    expected.owned = set(range(len(expected.z)))  # its own lists, which the trigger changes in place
    expected.z[MARKET] = slid(expected.z[MARKET])
    refilled(expected, MARKET, DECK)
    ops.slide(st, MARKET)
    ops.refill(st, MARKET, DECK)
    assert position(st) == position(expected)
