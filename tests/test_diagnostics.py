"""Errors in rules and card files: exact text, location, caret, hint; no traceback."""
from __future__ import annotations

import pickle
import textwrap

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.errors import CheckError, RulesError
from interpreter.loader import load_game

CARDS = """\
thing:
  - {name: Alpha, cost: 1, effects: "gain"}
  - {name: Beta, cost: 2, effects: "gain/draw"}
"""

BASE = """\
game "Tiny"
players 2..3
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, hidden
zone hand: per player, visible
kind thing:
    effects: effects
effect gain: gain 1 gold
effect draw: deal 1 from box to hand
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
        resolve any of c.effects
    end game after 0 more rounds
score:
    "Gold": gold
"""


def write(tmp_path, rules: str, cards: str = CARDS):
    (tmp_path / "cards.yaml").write_text(cards)
    path = tmp_path / "game.rules"
    path.write_text(rules)
    return path


def problems(rules, cards=CARDS, **files) -> str:
    """What loading the rules (and card file) texts reports."""
    with pytest.raises(RulesError) as info:
        load_game(text=rules, cards={"cards.yaml": cards, **files})
    return info.value.render()


def test_the_tiny_game_is_valid():
    game = load_game(text=BASE, cards={"cards.yaml": CARDS})
    st = game.new_initial_state(2, 1)
    assert st.legal_actions() == ["alpha", "beta"]


def test_a_game_from_texts_plays_pickles_and_extends_files_on_disk(tmp_path):
    """`load_game` takes the rules' text and card texts in place of files:
    the game is the one the same files make, it pickles (remade from the
    same texts), and a file the text extends is read from the folder named."""
    on_disk = load_game(write(tmp_path, BASE))
    game = load_game(text=BASE, cards={"cards.yaml": CARDS})
    assert game.path == "game.rules"
    st, same = game.new_initial_state(2, 1), on_disk.new_initial_state(2, 1)
    for s in (st, same):
        s.apply_action("beta")
    assert st.observation(0) == same.observation(0) and st.scores() == same.scores()
    again = pickle.loads(pickle.dumps(st))
    assert again.to_json() == st.to_json() and again.legal_actions() == st.legal_actions()
    variant = load_game(tmp_path / "rich.rules", text='extends "game.rules"\noverride counter gold: per player, min 1\n')
    assert variant.model.counters["gold"].minimum == 1 and variant.path == str(tmp_path / "rich.rules")
    # saves match the game by what its texts say, wherever they were read from
    assert game.program.fingerprint == on_disk.program.fingerprint != variant.program.fingerprint
    assert load_game(text=BASE + "\n", cards={"cards.yaml": CARDS}).program.fingerprint != game.program.fingerprint
    with pytest.raises(TypeError):
        load_game()


def test_misspelt_counter_names_place_and_suggests():
    text = problems(BASE.replace("effect gain: gain 1 gold", "effect gain: gain 1 golf"))
    assert text == textwrap.dedent("""\
        game.rules:9:21: error: unknown counter 'golf'
            effect gain: gain 1 golf
                                ^^^^
            hint: did you mean 'gold'?""")


def test_misspelt_counter_through_the_cli_has_no_traceback(tmp_path):
    path = write(tmp_path, BASE.replace('"Gold": gold', '"Gold": golld'))
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:19:13: error: unknown name 'golld'" in result.output
    assert "hint: did you mean 'gold'?" in result.output
    assert "Traceback" not in result.output


def test_several_problems_reported_at_once():
    text = problems(BASE.replace("move c to hand", "move c to hnd").replace('"Gold": gold', '"Gold": gld'))
    assert text.count("error:") == 2
    assert "unknown zone 'hnd'" in text and "unknown name 'gld'" in text


@pytest.mark.parametrize("change, expected", [
    (("    pass\n", ""), "game.rules:12:1: error: unexpected 'turn'; expected an indented block\n    turn:\n    ^^^^\n    hint: the block opened at line 11 ('setup:') needs an indented body"),
    (('"Gold": gold', '"Gold": max(gold, [1, 2)'), "game.rules:19:28: error: unexpected ')'; expected one of ',', ']'\n        \"Gold\": max(gold, [1, 2)\n                               ^\n    hint: the '[' opened at line 19, column 23 is still open"),
    (("effect gain: gain 1 gold", "effect gain: gain 1 gold 2"), "game.rules:9:26: error: unexpected '2'; expected one of 'of', end of line\n    effect gain: gain 1 gold 2\n                             ^"),
], ids=["open-block", "open-bracket", "extra-token"])
def test_syntax_errors_say_what_was_expected(change, expected):
    assert problems(BASE.replace(*change)) == expected


@pytest.mark.parametrize("change, message", [
    (("resolve any of c.effects", "resolve any of c.effects\n        shuffle hnd"), "game.rules:17:17: error: unknown zone 'hnd'"),
    (("move c to hand", "move c to gold"), "unknown zone 'gold' ('gold' is a counter)"),
    (("gain 1 gold\n", "gain 1 gold\ndefine twice(x) = x * 2\n"), None),
    (('"Gold": gold', '"Gold": twice(gold, 1)\ndefine twice(x) = x * 2'), "'twice' takes 1 argument, got 2"),
    (('"Gold": gold', '"Gold": size(hand, box)'), "'size' takes 1 argument, got 2"),
    (('"Gold": gold', '"Gold": sizee(hand)'), "unknown function 'sizee'"),
    (("    pass\n", "    gain_it\n"), "unknown procedure or effect 'gain_it'"),
    (("    pass\n", "    stop\n"), "'stop' outside a loop"),
    (("effect draw: deal 1 from box to hand", "effect draw: deal 1 from box to hand\neffect draw: pass"), "effect 'draw' is defined twice in this file"),
    (('"Gold": gold', '"Gold": c.colour'), "unknown name 'c'"),
    (('"Gold": gold', '"Gold": sum x.colour for x in hand'), "no card has a field 'colour'"),
    (('"Gold": gold', '"Gold": count x in hand where x is gadget'), "unknown card kind 'gadget'"),
    (("setup:\n    pass", "setup:\n    pass\nwhen box becomes empty:\n    choose c in hand:\n        pass"), "a trigger must not ask for a decision"),
    (("counter gold: per player, min 0", "counter gold: per player, min 0\ncounter hand: shared"), "'hand' is both a counter and a zone"),
    # an effect may share its name with a counter, but a plain name reads the counter (as the game does)
    (('"Gold": gold', '"Gold": gain\ncounter gain: per card, min 0'), "'gain' belongs to each card; say which: `gain of CARD`"),
], ids=["unknown-zone", "counter-as-zone", "valid-define", "define-arity", "builtin-arity", "unknown-function",
        "unknown-procedure", "stop-outside-loop", "duplicate", "unknown-local", "unknown-field", "unknown-kind",
        "trigger-decides", "name-clash", "counter-over-effect"])
def test_check_errors(change, message):
    rules = BASE.replace(*change)
    if message is None:
        load_game(text=rules, cards={"cards.yaml": CARDS})
        return
    with pytest.raises(CheckError):
        load_game(text=rules, cards={"cards.yaml": CARDS})
    assert message in problems(rules)


def test_card_with_unknown_effect_points_into_the_card_file():
    text = problems(BASE, CARDS.replace('"gain/draw"', '"gain/drw"'))
    assert text == textwrap.dedent("""\
        cards.yaml:3:37: error: card 'Beta', field 'effects': unknown effect 'drw'
              - {name: Beta, cost: 2, effects: "gain/drw"}
                                                ^^^^^^^^
            hint: did you mean 'draw'?""")


def test_an_expression_in_a_card_map_is_placed_on_its_own_line():
    rules = BASE.replace("    effects: effects\n", "    effects: effects\n    worth: expression map\n").replace(
        '"Gold": gold', '"Gold": gold\n    "Worth": sum 0 for c in hand')
    cards = CARDS.replace('"gain"}', '"gain", worth: {first: "1",\n      second: "gold + bonsu"}}')
    text = problems(rules, cards)
    assert text.splitlines()[:2] == [
        "cards.yaml:3:23: error: unknown name 'bonsu'",
        '          second: "gold + bonsu"}}']


def test_malformed_yaml():
    text = problems(BASE, CARDS.replace("{name: Beta", "{name: [Beta"))
    assert text.startswith("cards.yaml:3:")
    assert "malformed YAML" in text


def test_card_schema_errors_name_the_card_and_field():
    schema = ('{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",'
                      ' "properties": {"thing": {"type": "array", "items": {"type": "object",'
                      ' "properties": {"name": {"type": "string"}, "cost": {"type": "integer"}, "effects": {"type": "string"}},'
                      ' "required": ["name", "cost"], "additionalProperties": false}}}}')
    rules = BASE.replace('cards "cards.yaml" into box', 'cards "cards.yaml" schema "schema.json" into box')
    text = problems(rules, CARDS.replace("cost: 2", "cost: two"), **{"schema.json": schema})
    assert text.splitlines()[0] == "cards.yaml:3:24: error: card thing[1] ('Beta'), field 'cost': 'two' is not of type 'integer'"


def test_a_card_file_is_validated_again_whenever_it_or_its_schema_changes(tmp_path, monkeypatch):
    """Successful validations are remembered by content, so an unchanged card
    file is not validated again; any change to either text is."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    records = tmp_path / "cache" / "rules-interpreter" / "valid-cards"
    schema = tmp_path / "schema.json"
    schema.write_text('{"type": "object", "properties": {"thing": {"type": "array", "items": {"type": "object",'
                      ' "properties": {"cost": {"type": "integer"}}}}}}')
    rules = BASE.replace('cards "cards.yaml" into box', 'cards "cards.yaml" schema "schema.json" into box')
    load_game(write(tmp_path, rules, CARDS))
    assert len(list(records.iterdir())) == 1
    with pytest.raises(RulesError, match="'two' is not of type 'integer'"):
        load_game(write(tmp_path, rules, CARDS.replace("cost: 2", "cost: two")))
    load_game(write(tmp_path, rules, CARDS))
    schema.write_text(schema.read_text().replace('"integer"', '"string"'))
    with pytest.raises(RulesError, match="2 is not of type 'string'"):
        load_game(write(tmp_path, rules, CARDS))
    assert len(list(records.iterdir())) == 1


def test_unknown_parameter_override_suggests():
    rules = BASE.replace("setup:", "param bonus = 2\nsetup:").replace('"Gold": gold', '"Gold": gold + bonus')
    with pytest.raises(CheckError) as info:
        load_game(overrides={"bonsu": "3"}, text=rules, cards={"cards.yaml": CARDS})
    assert "--set bonsu: no parameter named 'bonsu'" in info.value.render()
    assert "did you mean 'bonus'?" in info.value.render()


@pytest.mark.parametrize("loop", [
    'repeat while true:\n        may "again":\n            gain 1 gold\n        else:\n            stop',
    "repeat while size(hand) < 2:\n        deal 1 from box to hand",
    "repeat while gold < 3:\n        gain 1 gold",
    'repeat while true:\n        may "stop it all":\n            end game now',
], ids=["stop", "zone", "counter", "end-game"])
def test_a_loop_that_may_end_is_not_warned_about(tmp_path, loop):
    path = write(tmp_path, BASE.replace("setup:\n    pass\n", f"setup:\n    {loop}\n"))
    result = CliRunner().invoke(cli, ["check", "--strict", str(path)])
    assert result.exit_code == 0, result.output
    assert "never ends" not in result.output


@pytest.mark.parametrize("condition", ["seat_number(first) == 0", "size(top_cards([1, 2], 1)) > 0", "top([1]) == 1"])
def test_a_loop_whose_condition_calls_only_fixed_functions_is_warned_about(tmp_path, condition):
    """Which built-in functions depend on their arguments alone is said once,
    in the registry (`Builtin.fixed`): the loop check reads it there."""
    loop = f"let first = player_at(0)\n    repeat while {condition}:\n        gain 1 gold"
    path = write(tmp_path, BASE.replace("setup:\n    pass\n", f"setup:\n    {loop}\n"))
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert "`repeat while` never ends once it starts" in result.output


@pytest.mark.parametrize("body", [
    "let d = top(box)\n    if d != none:\n        gain d.cost gold",
    "let d = top(box)\n    if d == none:\n        end game now\n    gain d.cost gold",
    "if size(box) > 0:\n        let d = top(box)\n        gain d.cost gold",
    "let d = top(box)\n    gain (if d != none then d.cost else 0) gold",
], ids=["tested", "tested-before", "zone-tested", "tested-in-place"])
def test_a_card_value_tested_for_nothing_is_not_warned_about(tmp_path, body):
    path = write(tmp_path, BASE.replace("setup:\n    pass\n", f"setup:\n    {body}\n"))
    result = CliRunner().invoke(cli, ["check", "--strict", str(path)])
    assert result.exit_code == 0, result.output
