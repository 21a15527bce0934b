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


# ------------------------------------------------------------------ weights stored per rules file
def test_bots_use_the_weights_stored_for_the_rules_file(role_draft):
    """With no entry, the defaults; once stored, greedy and mcts both read
    the stored weights; a bot's own option still wins."""
    from interpreter.agents import make_agent
    from interpreter.agents import weights

    program = role_draft.program
    greedy, mcts = make_agent("greedy", 0, 0), make_agent("mcts:10", 0, 0)
    assert greedy.weights(program) == mcts.weights(program) == weights.DEFAULTS
    weights.store(program.fingerprint, {"discount": 0.25}, {"why": "a test"})
    try:
        assert greedy.weights(program) == mcts.weights(program) == {"discount": 0.25}
        assert make_agent("greedy:discount=0.75", 0, 0).weights(program) == {"discount": 0.75}
        assert weights.stored(program)["evidence"] == {"why": "a test"}
    finally:
        _forget(program)


def _forget(program):
    from interpreter.agents import weights
    from interpreter.language import cache

    (cache.folder(weights.FOLDER) / f"{program.fingerprint}.json").unlink(missing_ok=True)
    weights._stored.cache_clear()


def test_an_entry_is_for_these_rules_and_this_evaluation_only(role_draft, monkeypatch):
    """Other rules text (a changed parameter), or another version of the
    evaluation, finds no entry: the defaults are used again."""
    from interpreter.agents import weights

    program = role_draft.program
    weights.store(program.fingerprint, {"discount": 0.0}, {})
    try:
        assert weights.weights_for(program) == {"discount": 0.0}
        other = load_game(ROLE_DRAFT, {"city_size": "5"}).program
        assert other.fingerprint != program.fingerprint and weights.stored(other) is None
        monkeypatch.setattr(weights, "evaluation_version", lambda: "another evaluation")
        weights._stored.cache_clear()
        assert weights.stored(program) is None and weights.weights_for(program) == weights.DEFAULTS
    finally:
        _forget(program)


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe", b'{"format": "rules-bot-weights/1"}', b"[]",
                                     b"%KEY%", b"%KEY-NAN%"], ids=["empty", "cut", "bytes", "no-key", "list",
                                                                  "out-of-range", "nan"])
def test_a_damaged_entry_is_ignored_and_rebuilt(role_draft, content):
    from interpreter.agents import weights
    from interpreter.language import cache

    program = role_draft.program
    key = weights.entry_key(program.fingerprint)
    content = content.replace(b"%KEY%", f'{{"format": "{weights.FORMAT}", "key": "{key}", "weights": {{"discount": -1.0}}, '
                                        f'"evidence": {{}}}}'.encode())
    content = content.replace(b"%KEY-NAN%", f'{{"format": "{weights.FORMAT}", "key": "{key}", "weights": {{"discount": NaN}}, '
                                            f'"evidence": {{}}}}'.encode())
    cache.write(weights.FOLDER, f"{program.fingerprint}.json", content)
    weights._stored.cache_clear()
    try:
        assert weights.stored(program) is None and weights.weights_for(program) == weights.DEFAULTS
        weights.store(program.fingerprint, {"discount": 0.5}, {})
        assert weights.weights_for(program) == {"discount": 0.5}
    finally:
        _forget(program)
