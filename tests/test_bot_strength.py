"""Bots that play any rules file sensibly: the evaluation credits a card held
only as often as such cards are played, its weights are measured per rules
file and stored, and `catalyst bots` says how strong each bot is."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents.evaluate import Evaluator
from interpreter.loader import load_game

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROLE_DRAFT = FIXTURES / "role_draft" / "role_draft.rules"
DECK_BUILDER = FIXTURES / "deck_builder" / "deck_builder.rules"


@pytest.fixture(scope="module")
def role_draft():
    return load_game(ROLE_DRAFT)


def test_a_card_held_is_credited_as_often_as_such_cards_are_played(role_draft):
    """In the role draft, districts in hand cost gold to build and most are
    never built: a hand is worth each district's points times the share of
    districts held in hand that the sample games saw built, not the points
    of every district as if all would be built."""
    program = role_draft.program
    ev = Evaluator(program, discount=1.0)
    hand, city = program.zones["hand"], program.zones["city"]
    rate = ev.play_rate("district", hand.index, city.index)
    assert 0.1 < rate < 0.9
    st = role_draft.new_initial_state(2, 1)
    cards = [c for c in st.z[hand.base + 0] if c is not None]
    costs = sum(program.fields["cost"][c] for c in cards)
    assert len(cards) == 2 and costs > 0
    assert ev.potential(st, 0) == pytest.approx(rate * costs)
    # a move no sample game made is not credited: a role is never built
    assert ev.play_rate("role", program.zones["offer"].index, city.index) == 0.0
