"""Expressions of card data made tables (interpreter/compiler/tables.py): the
same values as the expression computed each time, fewer operations."""
from __future__ import annotations

import pytest

from interpreter.errors import RulesRuntimeError
from interpreter.loader import load_game

CARDS = """\
thing:
  - {name: A, cost: 1}
  - {name: B, cost: 4}
  - {name: C, cost: 2}
  - {name: D, cost: 6}
"""
RULES = """\
game "Row"
players 2
param extra = [0, 1, 3]
cards "cards.yaml" into box
counter coins: per player, min 0
zone box: shared, visible
zone row: shared, slots 3, visible
zone hand: per player, visible
define price(c) = max(1, c.cost + extra[slot(c)] - 1)
setup:
    for each p in seats:
        set coins of p to 4
    refill row from box
    end game after 1 more rounds
turn:
    choose c in row where price(c) <= coins as "take {c.name} for {price(c)}":
        move c to hand
score:
    "Dear": count c in row where price(c) > coins
"""


def row(tmp_path, cards=CARDS, rules=RULES):
    (tmp_path / "cards.yaml").write_text(cards)
    (tmp_path / "game.rules").write_text(rules)
    return load_game(tmp_path / "game.rules")


def test_an_expression_of_card_fields_and_numbers_is_read_from_a_table(tmp_path):
    game = row(tmp_path)
    text = game.program.module.text
    assert "def card_table(v0, v1):" in text  # the card and its slot
    turn = text.split("def turn(st, fr, pc=0):")[1].split("\n\n")[0]
    assert "(T0[v0][v1] <= t" in turn and "max(" not in turn  # (the coins read once, before the loop)
    st = game.new_initial_state(2, 1)
    # row (last slot first): D (6 + 3 - 1 = 8), C (2 + 1 - 1 = 2), B (4 + 0 - 1 = 3): two within 4 coins
    labels = sorted(o.label for o in st.legal_options())
    assert labels == ["take B for 3", "take C for 2"]
    assert dict(st.program.score_terms)["Dear"](st) == 1


def test_the_table_gives_what_the_expression_gives_for_every_card_and_slot(tmp_path):
    """The same game with the table, and with an expression that reads the
    state too (so no table is made): the same options at every decision."""
    tabled = row(tmp_path)
    plain_rules = RULES.replace("define price(c) = max(1, c.cost + extra[slot(c)] - 1)",
                                "define price(c) = max(1, c.cost + 0 * coins + extra[slot(c)] - 1)")
    (tmp_path / "plain").mkdir()
    plain = row(tmp_path / "plain", rules=plain_rules)
    assert "card_table" not in plain.program.module.text
    for seed in range(6):
        a, b = tabled.new_initial_state(2, seed), plain.new_initial_state(2, seed)
        while not a.is_terminal():
            assert [o.label for o in a.legal_options()] == [o.label for o in b.legal_options()]
            action = a.legal_actions()[seed % len(a.legal_actions())]
            a.apply_action(action)
            b.apply_action(action)
        assert a.scores() == b.scores()


def test_a_card_without_the_field_fails_where_it_did(tmp_path):
    game = row(tmp_path, CARDS.replace("{name: D, cost: 6}", "{name: D}"))
    with pytest.raises(RulesRuntimeError, match="card 'D' has no field 'cost'") as failed:
        for seed in range(4):  # D lies in the row in some of these games
            game.new_initial_state(2, seed)
    # the line and rule that asked for the value, as without the table (not the table's function)
    assert "game.rules:16:5: error: card 'D' has no field 'cost' (in 'turn')" in str(failed.value)


def test_lists_of_known_most_items_are_added_without_a_count(tmp_path):
    """`[c.cost for c in row] + [0]`: a zone's cards and a list written out
    stay within the items a rule may build, so the sum is plain `+`; a list
    of unknown length still goes through the counted addition."""
    rules = RULES.replace('    "Dear": count c in row where price(c) > coins\n',
                          '    "Dear": count c in row where price(c) > coins\n'
                          '    "Top": max([c.cost for c in row] + [0])\n'
                          '    "Any": max([c.cost for c in row] + extra)\n')
    game = row(tmp_path, rules=rules)
    text = game.program.module.text
    top = text.split("# score Top")[1].split("\n\n")[0]
    assert "R_add" not in top and "] + [0])" in top
    assert "R_add" in text.split("# score Any")[1].split("\n\n")[0]
    st = game.new_initial_state(2, 1)
    terms = dict(st.program.score_terms)
    assert terms["Top"](st) == 6 and terms["Any"](st) == 6


def test_a_table_by_a_card_and_another_value_is_a_list_by_card(tmp_path):
    """`T0[card][slot]`: the first read is of a list (read faster than a
    dict's subclass); by a slot walked, each card's values are a plain list
    by slot, computed once the rules are compiled, those of the expression."""
    game = row(tmp_path)
    table = game.program.module.ns["T0"]
    assert type(table) is list and len(table) == len(game.program.card_ids)
    fn = game.program.module.ns["card_table"]
    for card, values in enumerate(table):
        assert type(values) is list and values == [fn(card, slot) for slot in range(3)]


def test_a_card_whose_value_fails_keeps_a_table_computed_when_asked(tmp_path):
    """A card without the field: its values are not computed beforehand
    (they would fail, and fail where they are asked for), the other cards' are."""
    from interpreter.runtime.tables import Table

    game = row(tmp_path, CARDS.replace("{name: D, cost: 6}", "{name: D}"))
    table = game.program.module.ns["T0"]
    assert [type(values) for values in table] == [list, list, list, Table]
    assert not table[3]  # nothing computed before it is asked for


def test_whether_a_card_shows_an_effect_is_read_from_a_table(catalyst):
    """`chain in c.effects` walks every item of the card's effects: a table
    by card, read in the loop (the values: test_score_goal_symbol_entries)."""
    text = catalyst.program.module.text
    entry = text.split('"count c in scoring_pile where chain in c.effects"')[-1].split("\n\n")[0]
    assert "R_shows" not in entry and "if T" in entry
    assert "return (R_shows(" in text.split("def card_table(v0):")[1].split("\n\n")[0]
