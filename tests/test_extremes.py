"""Loops over a zone whose condition begins by asking whether the card is the
lowest (or highest) of its group in that zone go through those cards alone
(compiler/extremes.py, runtime/values.py `extremes`): the same items, in the
same order, the same answers and the same errors as the loop over the zone."""
from __future__ import annotations

import pytest

from interpreter.agents import make_agents
from interpreter.compiler import extremes
from interpreter.errors import RulesRuntimeError
from interpreter.loader import load_game
from interpreter.play import play_game
from interpreter.runtime import values

from .test_hoist import CARDS  # (six cards, two suits, ranks 1 to 3)

RULES = """\
game "Stacks"
players 2
cards "cards.yaml" into box
zone box: shared, visible
zone hand: per player, visible
define owns(s) = any x in hand where x.suit == s
define on_top(c) = c.rank == lowest x.rank for x in box where x.suit == c.suit
define can_take(c) = on_top(c) and not owns(c.suit)
define takeable = any c in box where can_take(c)
define bottoms = [c for c in box where c.rank == highest x.rank for x in box where x.suit == c.suit]
setup:
    end game after 2 more rounds
turn:
    if takeable:
        choose c in box where can_take(c) as "take {c.name}":
            move c to hand
score:
    "Tops": count c in box where on_top(c)
    "Bottoms": size(bottoms)
"""


# A turn that asks nothing of ranks: positions where some card has none
ANY_CARD = RULES.replace("    if takeable:\n        choose c in box where can_take(c)",
                        "    if size(box) > 0:\n        choose c in box")


def stacks(tmp_path, cards=CARDS, rules=RULES):
    (tmp_path / "cards.yaml").write_text(cards)
    (tmp_path / "game.rules").write_text(rules)
    return load_game(tmp_path / "game.rules")


def both(tmp_path, monkeypatch, cards=CARDS, rules=RULES) -> tuple:
    """The game, and the same compiled with every loop going through the whole zone."""
    game = stacks(tmp_path, cards, rules)
    (tmp_path / "plain").mkdir()
    with monkeypatch.context() as m:
        m.setattr(extremes, "filtered", lambda *args: None)
        return game, stacks(tmp_path / "plain", cards, rules)


def function(text: str, name: str) -> str:
    """The generated function `name`'s text."""
    return text.split(f"\ndef {name}(")[1].split("\ndef ")[0]


def term(st, label):
    return dict(st.program.score_terms)[label](st)


def test_each_loop_asking_first_for_the_top_of_its_group_goes_through_the_tops(tmp_path, monkeypatch):
    game, plain = both(tmp_path, monkeypatch)
    text = game.program.module.text
    # the definition asking `any` and its test in the turn, the choice, the count and the comprehension
    for name in ("define_takeable", "turn", "score_term_1", "define_bottoms"):
        assert "R_extremes(" in function(text, name)
    assert "field_rank, max)" in function(text, "define_bottoms")
    # one card per suit: `owns(c.suit)` is asked of each, with no memo by suit (it would keep nothing)
    assert "same_suit[" not in function(text, "turn") and "define_owns(st, field_suit[" in function(text, "turn")
    assert "R_extremes(" not in plain.program.module.text
    st = game.new_initial_state(2, 1)
    assert st.legal_actions() == ["a", "d"]  # the rank 1 of each suit, in the box's order
    assert term(st, "Tops") == 2 and term(st, "Bottoms") == 2


def test_the_cards_kept_are_those_the_whole_zone_gives_ties_and_all(tmp_path, monkeypatch):
    """Two cards sharing the lowest rank of a suit are both kept, in the
    zone's order; a suit of one card keeps it."""
    cards = CARDS + "  - {name: G, suit: red, rank: 1}\n  - {name: H, suit: green, rank: 7}\n"
    game, plain = both(tmp_path, monkeypatch, cards)
    st, other = game.new_initial_state(2, 1), plain.new_initial_state(2, 1)
    assert st.legal_actions() == other.legal_actions() == ["a", "d", "g", "h"]
    assert term(st, "Tops") == term(other, "Tops") == 4
    assert term(st, "Bottoms") == term(other, "Bottoms") == 3


def test_the_same_cards_in_the_same_order_give_the_list_kept(tmp_path):
    game = stacks(tmp_path)
    st = game.new_initial_state(2, 1)
    box = st.z[game.program.zones["box"].base]
    ns = game.program.module.ns
    values._EXTREMES.clear()
    first = values.extremes(box, ns["field_suit"], ns["field_rank"], min)
    assert values.extremes(list(box), ns["field_suit"], ns["field_rank"], min) is first
    st.apply_action("a")  # the red 1 leaves the box: the red 2 is the top of its suit
    assert [game.program.card_names[c] for c in values.extremes(st.z[0], ns["field_suit"], ns["field_rank"], min)] \
        == ["B", "D"]


def test_a_card_without_the_field_fails_where_the_whole_zone_failed(tmp_path, monkeypatch):
    """The top test of a blue card meets the blue card without a rank: both
    ways the count stops there, with the same error."""
    cards = CARDS + "  - {name: G, suit: blue}\n"
    game, plain = both(tmp_path, monkeypatch, cards, ANY_CARD)
    assert "R_extremes(" in function(game.program.module.text, "score_term_1")
    for g in (game, plain):
        st = g.new_initial_state(2, 1)
        with pytest.raises(RulesRuntimeError, match="card 'G' has no field 'rank'"):
            term(st, "Tops")


def test_a_group_the_loop_never_reaches_is_never_compared(tmp_path, monkeypatch):
    """`any` stops at the first card that passes: a card without a rank in
    a suit after it is never compared, with the tops as with the whole zone
    (the tops are then given one at a time)."""
    cards = CARDS.replace("  - {name: D", "  - {name: G, suit: green}\n  - {name: D")
    first = '    "{0} first": if any c in box where on_top(c) and c.suit == "{1}" then 1 else 0\n'
    rules = ANY_CARD.replace('    "Tops"', first.format("Red", "red") + first.format("Blue", "blue") + '    "Tops"')
    game, plain = both(tmp_path, monkeypatch, cards, rules)
    assert "R_extremes(" in function(game.program.module.text, "score_term_1")
    for g in (game, plain):
        st = g.new_initial_state(2, 1)
        assert term(st, "Red first") == 1  # (A passes before G's suit is looked at)
        with pytest.raises(RulesRuntimeError, match="card 'G' has no field 'rank'"):
            term(st, "Blue first")


@pytest.mark.parametrize("condition", [
    "c.suit != \"\" and on_top(c)",  # the top test is not the first
    "c.rank == lowest x.rank for x in hand where x.suit == c.suit",  # another zone's lowest
    "c.rank == lowest x.rank for x in box where x.suit == c.suit and x.rank > 1",  # a group narrowed further
    "c.rank == lowest x.suit for x in box where x.suit == c.suit",  # another field compared
])
def test_a_condition_that_is_not_a_top_test_first_goes_through_the_whole_zone(tmp_path, condition):
    rules = RULES.replace('"Tops": count c in box where on_top(c)', f'"Tops": count c in box where {condition}')
    assert rules != RULES
    text = stacks(tmp_path, rules=rules).program.module.text
    assert "R_extremes(" not in function(text, "score_term_1") and "R_extremes(" in function(text, "turn")


@pytest.mark.parametrize("players", [2, 4])
def test_catalyst_plays_the_same_games_with_its_loops_over_the_tops(tmp_path, monkeypatch, players):
    """The rules' top-of-stack loops (can_acquire, the choice of a
    building): every position, every option, the same."""
    from pathlib import Path

    rules = Path(__file__).resolve().parents[1] / "rules" / "catalyst.rules"
    game = load_game(rules)
    with monkeypatch.context() as m:
        m.setattr(extremes, "filtered", lambda *args: None)
        plain = load_game(rules)
    assert "R_extremes(" in game.program.module.text and "R_extremes(" not in plain.program.module.text
    for seed in range(3):
        a, b = game.new_initial_state(players, seed), plain.new_initial_state(players, seed)
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions() and a.to_json() == b.to_json()
            action = a.legal_actions()[(seed + a.decisions) % len(a.legal_actions())]
            a.apply_action(action)
            b.apply_action(action)
        assert a.scores() == b.scores()
    final = play_game(game, players, 9, make_agents("random", players, 9))
    assert final.to_json() == play_game(plain, players, 9, make_agents("random", players, 9)).to_json()
