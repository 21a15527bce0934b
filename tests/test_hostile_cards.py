"""Hostile card files: keys given twice, colliding ids, alias bombs, effect
lists without end, huge files, deep nesting. Each case is refused with a
message at its line (or loads correctly), exit 1, within a time limit."""
from __future__ import annotations

import time

import pytest

from interpreter.errors import RulesError
from interpreter.language import cards as card_loading
from interpreter.loader import load_game

from .hostile import TINY_RULES, expect, invoke, tiny_game

EFFECT_RULES = TINY_RULES.replace("zone hand: per player, visible", """\
zone hand: per player, visible
kind thing:
    effects: effects
effect coin "take 1 gold": gain 1 gold
effect wood "take 2 gold": gain 2 gold""").replace("        gain c.cost gold\n", "        resolve any of c.effects\n")


# ---------------------------------------------------------------- keys given twice
@pytest.mark.parametrize("cards, message", [
    ("thing:\n  - {name: Alpha, cost: 1}\nthing:\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:3:1: error: card kind 'thing' appears twice (first at line 1)"),
    ("thing:\n  - {name: Alpha, cost: 1, cost: 3}\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:2:28: error: key 'cost' is given twice in one mapping (first at line 2)"),
    ("thing:\n  - name: Alpha\n    cost: 1\n    name: Gamma\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:4:5: error: key 'name' is given twice in one mapping (first at line 2)"),
    ("thing:\n  - {name: Alpha, cost: 1, 7: a, 0x7: b}\n  - {name: Beta, cost: 2}\n",
     "key 7 is given twice in one mapping (first at line 2)"),
    ("thing:\n  - {name: Alpha, cost: 1, extra: {a: 1, a: 2}}\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:2:42: error: key 'a' is given twice in one mapping (first at line 2)"),
    ("thing:\n  - {name: Alpha, cost: 1}\nother:\n  - {name: Gamma}\nthing:\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:5:1: error: card kind 'thing' appears twice (first at line 1)"),
], ids=["kind-twice", "field-twice-flow", "field-twice-block", "equal-numbers", "nested-map", "kind-twice-apart"])
def test_a_key_given_twice_is_an_error_at_its_line(tmp_path, cards, message):
    result = expect(invoke("check", tiny_game(tmp_path, cards=cards)), 1, message)
    assert "YAML would keep only" in result.output


def test_a_merge_key_may_be_overridden(tmp_path):
    """`<<: *base` then a key of its own is YAML's way to share values, not a duplicate."""
    cards = "thing:\n  - &base {name: Base, cost: 1}\n  - {<<: *base, name: Alpha}\n  - {<<: *base, name: Beta, cost: 2}\n"
    game = load_game(tiny_game(tmp_path, cards=cards))
    assert [(c.name, c.data["cost"]) for c in game.program.cards.cards] == [("Base", 1), ("Alpha", 1), ("Beta", 2)]


# ---------------------------------------------------------------- ids unique by construction
@pytest.mark.parametrize("names, ids", [
    (["A b", "a-b"], ["a-b-1", "a-b-2"]),
    (["X", "X", "X 1"], ["x-2", "x-3", "x-1"]),
    (["X 1", "X", "X"], ["x-1", "x-2", "x-3"]),
    (["X", "X", "X 1", "X 2", "X 2"], ["x-2", "x-3", "x-1", "x-2-1", "x-2-2"]),
    (["!!!", "Card", "???"], ["card-1", "card-2", "card-3"]),
    (["Émile", "mile", "MILE"], ["mile-1", "mile-2", "mile-3"]),
], ids=["slug-collision", "number-taken", "number-taken-first", "numbers-and-groups", "no-letters", "accents"])
def test_card_ids_are_unique_by_construction(tmp_path, names, ids):
    cards = "thing:\n" + "".join(f"  - {{name: {name!r}, cost: {i}}}\n" for i, name in enumerate(names, 1))
    game = load_game(tiny_game(tmp_path, cards=cards))
    assert game.program.card_ids == ids
    assert len(set(game.program.card_ids)) == len(names)


def test_choosing_a_card_by_id_gets_that_card_when_slugs_collide(tmp_path):
    """The player who picks "take X 1" gets the card named "X 1", not one of the two "X"."""
    cards = "thing:\n  - {name: X, cost: 1}\n  - {name: X, cost: 2}\n  - {name: X 1, cost: 7}\n"
    game = load_game(tiny_game(tmp_path, cards=cards))
    st = game.new_initial_state(2, 0)
    labels = {o.id: o.label for o in st.legal_options()}
    chosen = next(i for i, label in labels.items() if label == "take X 1")
    st.apply_action(chosen)
    assert st.counter("gold", 0) == 7
    assert len(set(labels)) == 3


# ---------------------------------------------------------------- aliases
def billion_laughs(levels: int = 9, fanout: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ",".join(["*" + ("a" if i == 1 else f"l{i - 1}")] * fanout) + "]")
    lines.append(f"thing: [*l{levels - 1}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("cards, message", [
    (billion_laughs(), "the card file holds more than 1,000,000 values once its YAML aliases (*name) are expanded"),
    (billion_laughs(levels=30, fanout=2), "the card file holds more than 1,000,000 values once its YAML aliases"),
    ("a: &a {x: 1, y: 1, z: 1}\n" + "".join(f"m{i}: &m{i} {{p: *{'a' if i == 0 else f'm{i - 1}'}, q: *{'a' if i == 0 else f'm{i - 1}'}, r: *{'a' if i == 0 else f'm{i - 1}'}}}\n" for i in range(20)) + "thing: [*m19]\n",
     "the card file holds more than 1,000,000 values once its YAML aliases"),
    ("thing: &x\n  - {name: Alpha, cost: 1}\n  - *x\n", "this YAML alias refers to a value that contains it"),
    ("thing:\n  - &c {name: Alpha, cost: 1, self: *c}\n", "this YAML alias refers to a value that contains it"),
    ("thing:\n  - &c {name: Alpha, cost: 1, deeper: [[{again: *c}]]}\n", "this YAML alias refers to a value that contains it"),
], ids=["billion-laughs", "binary-doubling", "mapping-laughs", "list-contains-itself", "card-contains-itself", "deep-cycle"])
def test_alias_bombs_and_cycles_are_refused_at_once(tmp_path, cards, message):
    start = time.perf_counter()
    expect(invoke("check", tiny_game(tmp_path, cards=cards), seconds=10), 1, message)
    print(f"refused in {time.perf_counter() - start:.3f} s ({len(cards.encode())} bytes)")


def test_a_one_kilobyte_billion_laughs_is_refused_with_its_line(tmp_path):
    cards = billion_laughs(levels=10, fanout=10)
    cards += "#" * (1023 - len(cards)) + "\n"
    assert len(cards.encode()) == 1024
    start = time.perf_counter()
    result = expect(invoke("check", tiny_game(tmp_path, cards=cards), seconds=10), 1, "cards.yaml:")
    print(f"1 KB alias bomb refused in {time.perf_counter() - start:.3f} s")
    assert "hint: write the values out, or refer to big values fewer times" in result.output


def test_aliases_within_the_budget_load(tmp_path):
    cards = "thing:\n  - {name: Alpha, cost: &cost 2}\n  - &b {name: Beta, cost: *cost}\n  - *b\n"
    game = load_game(tiny_game(tmp_path, cards=cards))
    assert game.program.card_ids == ["alpha", "beta-1", "beta-2"]


# ---------------------------------------------------------------- effects per card
@pytest.mark.parametrize("effects, message", [
    (" ".join(["coin"] * 20_000), "card 'Alpha', field 'effects': 20000 effects; a card may have at most 100 (the limit)"),
    (" ".join(["coin"] * 101), "card 'Alpha', field 'effects': 101 effects; a card may have at most 100"),
    ("/".join(["coin", "wood"] * 60), "card 'Alpha', field 'effects': 120 effects; a card may have at most 100"),
    (" ".join(["coin/wood"] * 51), "card 'Alpha', field 'effects': 102 effects"),
], ids=["twenty-thousand", "one-too-many", "alternatives", "mixed"])
def test_a_card_with_too_many_effects_is_refused(tmp_path, effects, message):
    cards = f"thing:\n  - {{name: Alpha, effects: '{effects}'}}\n  - {{name: Beta, effects: coin}}\n"
    expect(invoke("check", tiny_game(tmp_path, EFFECT_RULES, cards), seconds=10), 1, message)


def test_a_card_with_a_hundred_effects_plays(tmp_path):
    cards = "thing:\n  - {name: Alpha, effects: '" + " ".join(["coin"] * 100) + "'}\n  - {name: Beta, effects: wood}\n"
    expect(invoke("run", tiny_game(tmp_path, EFFECT_RULES, cards), "--bots", "random", "--quiet"), 0, "player 1:")


def test_a_long_value_is_shortened_in_messages(tmp_path):
    name = "N" * 5000
    cards = f"thing:\n  - {{name: {name}, effects: 12}}\n  - {{name: Beta, effects: coin}}\n"
    result = expect(invoke("check", tiny_game(tmp_path, EFFECT_RULES, cards)), 1, "expected text, got 12")
    assert "N" * 60 not in result.output.split("\n")[0]


# ---------------------------------------------------------------- size and shape
@pytest.mark.parametrize("value, column", [
    ("[" * 5000 + "]" * 5000, 131),
    ("[" * 100_000 + "]" * 100_000, 131),
    ("{a: " * 3000 + "1" + "}" * 3000, 422),
], ids=["five-thousand", "hundred-thousand", "mappings"])
def test_deeply_nested_yaml_is_refused_before_it_is_built(tmp_path, value, column):
    """`[` * 100000 crashed Python in the C composer, which recurses without a limit."""
    cards = "thing:\n  - {name: Alpha, cost: 1, deep: " + value + "}\n"
    expect(invoke("check", tiny_game(tmp_path, cards=cards)), 1,
           f"cards.yaml:2:{column}: error: the card file nests lists and mappings more than 100 deep (the limit)")


def test_compact_nested_sequences_are_refused(tmp_path):
    cards = "thing:\n  - {name: Alpha, cost: 1}\n  - " + "- " * 200_000 + "x\n"
    expect(invoke("check", tiny_game(tmp_path, cards=cards)), 1, "nests lists and mappings more than 100 deep")


def test_values_nested_within_the_budget_load(tmp_path):
    cards = "thing:\n  - {name: Alpha, cost: 1, deep: " + "[" * 90 + "]" * 90 + "}\n  - {name: Beta, cost: 2}\n"
    assert load_game(tiny_game(tmp_path, cards=cards)).program.card_ids == ["alpha", "beta"]


def test_a_card_file_over_its_size_limit_is_refused_unread(tmp_path):
    path = tiny_game(tmp_path)
    with open(tmp_path / "cards.yaml", "a") as f:
        f.write("# " + "x" * (16 << 20) + "\n")
    expect(invoke("check", path, seconds=10), 1, "it is larger than 16 MB, the limit for a card file")


def test_ten_thousand_cards_load_in_linear_time(tmp_path):
    """Loading is linear in the file (it was quadratic: 40,000 cards took 276 s).
    The figure is printed, not asserted; the time limit only catches a hang."""
    cards = "thing:\n" + "".join(f"  - {{name: Card {i}, cost: {i % 5}}}\n" for i in range(10_000))
    path = tiny_game(tmp_path, cards=cards)
    start = time.perf_counter()
    game = load_game(path)
    print(f"10,000 cards loaded in {time.perf_counter() - start:.2f} s")
    assert len(game.program.card_ids) == 10_000
    assert game.program.cards.by_id("card-9999").name == "Card 9999"


def test_a_card_without_a_name_among_many_is_named_by_its_place(tmp_path):
    cards = "thing:\n" + "".join(f"  - {{name: Card {i}, cost: 1}}\n" for i in range(2000)) + "  - {cost: 1}\n"
    with pytest.raises(RulesError, match=r"cards.yaml:2002:5: error: card thing\[2000\]: every card needs a 'name'"):
        load_game(tiny_game(tmp_path, cards=cards))


def test_card_ids_are_assigned_by_one_function():
    """The loader and anything else giving ids use the same rule."""
    cards = [card_loading.Card(i, "thing", "", name, {}) for i, name in enumerate(["Y", "Y 2", "Y", "Y"])]
    card_loading.assign_ids(cards)
    assert [c.id for c in cards] == ["y-1", "y-2", "y-3", "y-4"]
