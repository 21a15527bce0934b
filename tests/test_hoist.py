"""Sub-expressions of a loop computed once per evaluation, or once per value
of a card field (interpreter/compiler/hoist.py): the same values, less work."""
from __future__ import annotations

import re

import pytest

from interpreter.errors import RulesRuntimeError
from interpreter.loader import load_game

CARDS = """\
thing:
  - {name: A, suit: red, rank: 1}
  - {name: B, suit: red, rank: 2}
  - {name: C, suit: red, rank: 3}
  - {name: D, suit: blue, rank: 1}
  - {name: E, suit: blue, rank: 2}
  - {name: F, suit: blue, rank: 3}
"""
RULES = """\
game "Suits"
players 2
cards "cards.yaml" into box
counter marks: per card, min 0
zone box: shared, visible
zone hand: per player, visible
define owns(s) = any x in hand where x.suit == s
define on_top(c) = c.rank == lowest x.rank for x in box where x.suit == c.suit
setup:
    end game after 1 more rounds
turn:
    choose c in box where on_top(c) as "take {c.name}":
        move c to hand
score:
    "Unowned": count c in box where not owns(c.suit)
    "Everything": count c in box where size([x for x in hand + box]) > 0
"""


def suits(tmp_path, cards=CARDS):
    (tmp_path / "cards.yaml").write_text(cards)
    (tmp_path / "game.rules").write_text(RULES)
    return load_game(tmp_path / "game.rules")


def steps_and_value(st, label):
    """The score term `label` of the acting player, and the steps it counted."""
    fn = dict(st.program.score_terms)[label]
    before = st.steps
    value = fn(st)
    return value, st.steps - before


def test_a_value_that_depends_on_a_card_only_through_a_field_is_computed_once_per_value(tmp_path):
    st = suits(tmp_path).new_initial_state(2, 1)
    # `owns(c.suit)` is a call of the definition (each counted as a step): once per suit, not per card
    assert steps_and_value(st, "Unowned") == (6, 2)
    assert st.legal_actions() == sorted(st.legal_actions()) and len(st.legal_actions()) == 2  # the lowest of each suit


def test_a_value_that_does_not_depend_on_the_loop_is_computed_once(tmp_path):
    st = suits(tmp_path).new_initial_state(2, 1)
    # the inner list goes through the 6 cards (counted as steps inside another loop) once, not 6 times
    assert steps_and_value(st, "Everything") == (6, 6)


def test_a_card_without_the_field_fails_where_it_did(tmp_path):
    game = suits(tmp_path, CARDS + "  - {name: G, rank: 4}\n")
    with pytest.raises(RulesRuntimeError, match="card 'G' has no field 'suit'") as failed:
        game.new_initial_state(2, 1)
    assert "game.rules:12:5" in str(failed.value)


def test_neighbouring_conditions_with_the_same_key_share_one_memo(tmp_path):
    """`c.rank > 0 and not owns(c.suit) and (count ... c.suit) > 2`: the
    last two read c only as its suit, so one memo per suit keeps both."""
    game = suits(tmp_path)
    text = game.program.module.text
    both = "count c in box where c.rank > 0 and not owns(c.suit) and (count x in box where x.rank > 0 and x.suit == c.suit) > 2"
    (tmp_path / "game.rules").write_text(RULES.replace('"Everything"', f'"Both": {both}\n    "Everything"'))
    merged = load_game(tmp_path / "game.rules")
    memos = re.compile(r"for m\d+ in \[\{\}\]|\bm\d+ = \{\}")  # made in a comprehension, or before a loop
    assert len(memos.findall(merged.program.module.text)) == len(memos.findall(text)) + 1
    assert steps_and_value(merged.new_initial_state(2, 1), "Both") == (6, 2)  # a call of owns per suit


def test_a_memo_can_stand_for_what_an_inner_loop_goes_through(tmp_path):
    """The list an inner loop goes through, read per suit, is kept per suit
    (Python names nothing inside a comprehension's iterable: the key is read
    where it is needed)."""
    term = "count c in box where any x in [y for y in box where y.suit == c.suit] where x.rank > 2"
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(RULES.replace('"Everything"', f'"Inner": {term}\n    "Everything"'))
    st = load_game(tmp_path / "game.rules").new_initial_state(2, 1)
    assert steps_and_value(st, "Inner")[0] == 6


def test_a_value_that_reads_a_counter_of_the_card_is_not_kept_per_field_value(tmp_path):
    """`marks of c` belongs to the card, not to its suit: the condition is
    computed for each card (the call of owns, which reads only the suit, is
    still kept per suit)."""
    term = "count c in box where marks of c > 0 and not owns(c.suit)"
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(RULES.replace('"Everything"', f'"Marked": {term}\n    "Everything"'))
    st = load_game(tmp_path / "game.rules").new_initial_state(2, 1)
    red = next(c for c in st.z[0] if st.program.card_names[c] == "A")
    st.ctr[st.program.counters["marks"].index][red] = 1
    assert steps_and_value(st, "Marked") == (1, 1)


def test_a_loop_over_the_cards_whose_field_equals_an_items_goes_through_one_group(tmp_path):
    """`lowest x.rank for x in box where x.suit == c.suit` inside a loop over
    c: the box is gone through once in all, into a table by suit, and each
    suit's lowest rank reads its group alone. (Asked first, the loop goes
    through the lowest of each suit alone: test_extremes.py.)"""
    game = suits(tmp_path)
    (tmp_path / "game.rules").write_text(RULES.replace(
        '"Everything"', '"Tops": count c in box where c.suit != "" and c.rank == lowest x.rank for x in box where x.suit == c.suit\n'
                        '    "Everything"'))
    game = load_game(tmp_path / "game.rules")
    ns = game.program.module.ns
    made, group = [], ns["R_group"]
    ns["R_group"] = lambda cards, values: made.append(len(cards)) or group(cards, values)
    st = game.new_initial_state(2, 1)
    made.clear()
    assert steps_and_value(st, "Tops") == (2, 0)  # the rank 1 of each suit
    assert made == [6]  # one table of the 6 cards for the whole count


@pytest.mark.parametrize("aggregate, values", [
    ("lowest x.rank for x in box where x.suit == c.suit", [1, 1, 1, 1, 1, 1]),
    ("highest x.rank for x in box where x.suit == c.suit", [3, 3, 3, 3, 3, 3]),
    ("sum x.rank for x in box where x.suit == c.suit", [6, 6, 6, 6, 6, 6]),
    ("sum x.rank for x in box where x.suit == c.suit and x.rank > 1", [5, 5, 5, 5, 5, 5])])
def test_a_fields_aggregate_over_one_group_gives_what_the_loop_over_the_zone_gives(tmp_path, aggregate, values):
    """A field's sum, lowest or highest over one group is worked out in one
    helper (`R_of_group`); with another condition it is a loop over the
    group: the values are those of the loop over the whole zone."""
    helpers = suits(tmp_path).program.module.text.count("R_of_group(")  # (the rules' own `on_top` has one)
    ungrouped = aggregate.replace("x.suit == c.suit", "c.suit == x.suit + \"\"")
    (tmp_path / "game.rules").write_text(RULES.replace(
        '"Everything"', f'"Grouped": sum ({aggregate}) for c in box\n'
                        f'    "Zone": sum ({ungrouped}) for c in box\n    "Everything"'))
    game = load_game(tmp_path / "game.rules")
    assert game.program.module.text.count("R_of_group(") == helpers + ("and" not in aggregate)
    st = game.new_initial_state(2, 1)
    assert steps_and_value(st, "Grouped")[0] == steps_and_value(st, "Zone")[0] == sum(values)


def test_a_fields_aggregate_over_a_group_of_a_card_without_the_field_fails_where_it_did(tmp_path):
    game = suits(tmp_path, CARDS + "  - {name: G, suit: red}\n")
    (game_rules := tmp_path / "game.rules").write_text(RULES.replace(
        '"Everything"', '"Tops": count c in box where c.suit != "" and c.rank == lowest x.rank for x in box where x.suit == c.suit\n'
                        '    "Everything"'))
    game = load_game(game_rules)
    assert "R_of_group(" in game.program.module.text
    with pytest.raises(RulesRuntimeError, match="card 'G' has no field 'rank'"):
        steps_and_value(game.new_initial_state(2, 1), "Tops")


def test_a_zone_grouped_again_unchanged_reads_the_groups_kept_and_a_changed_one_its_own(tmp_path):
    """The groups of the same cards in the same order are kept from one
    evaluation to the next (runtime/values.py `group`): the count is the
    same however often it is asked, and once a card left the box the groups
    are made anew, of the cards that are there."""
    from interpreter.runtime import values

    (tmp_path / "game.rules").write_text(RULES.replace(
        '"Everything"', '"Tops": count c in box where c.suit != "" and c.rank == lowest x.rank for x in box where x.suit == c.suit\n'
                        '    "Everything"'))
    (tmp_path / "cards.yaml").write_text(CARDS)
    game = load_game(tmp_path / "game.rules")
    st = game.new_initial_state(2, 1)
    box = st.z[game.program.zones["box"].base]
    values._GROUPS.clear()
    assert [steps_and_value(st, "Tops")[0] for _ in range(3)] == [2, 2, 2]
    (kept,) = values._GROUPS.values()  # one grouping of the box, made once
    assert values.group(list(box), kept[0]) is kept[1]
    st.apply_action("a")  # the red 1 leaves the box
    assert steps_and_value(st, "Tops")[0] == 2  # red 2 and blue 1
    assert len(values._GROUPS) == 2
