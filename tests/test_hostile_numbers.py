"""Numbers that are not finite: `.nan` and `.inf` in card data, NaN and
Infinity in a card schema, `nan` in parameters, `--set` values and tune
ranges are refused with a located message; every JSON the tool prints or
writes is strict JSON (no NaN, no Infinity), even for degenerate statistics."""
from __future__ import annotations

import json

import pytest

from .hostile import TINY_RULES, expect, invoke, tiny_game

pytestmark = pytest.mark.timeout(120)


def strict(text: str):
    """The JSON document `text`, refusing NaN and the infinities as a strict parser does."""
    def refuse(word):
        raise AssertionError(f"{word} is not JSON")

    return json.loads(text, parse_constant=refuse)


# ---------------------------------------------------------------- card data
@pytest.mark.parametrize("cards, message", [
    ("thing:\n  - {name: Alpha, cost: 1}\n  - {name: Beta, cost: .nan}\n",
     "cards.yaml:3:24: error: card thing[1] ('Beta'), field 'cost': .nan is not a finite number"),
    ("thing:\n  - {name: Alpha, cost: .inf}\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:2:25: error: card thing[0] ('Alpha'), field 'cost': .inf is not a finite number"),
    ("thing:\n  - {name: Alpha, cost: 1, extra: {deep: [1, -.Inf]}}\n  - {name: Beta, cost: 2}\n",
     "cards.yaml:2:46: error: card thing[0] ('Alpha'), field 'extra.deep[1]': -.inf is not a finite number"),
    ("thing:\n  - {name: Alpha, cost: 1}\n  - {name: Beta, cost: 1.0e+999}\n",
     "cards.yaml:3:24: error: card thing[1] ('Beta'), field 'cost': .inf is not a finite number"),
    ("thing:\n  - {name: Alpha, cost: 1, extra: &big {x: .NaN}}\n  - {name: Beta, cost: 2, extra: *big}\n",
     "cards.yaml:2:44: error: card thing[0] ('Alpha'), field 'extra.x': .nan is not a finite number"),
], ids=["nan", "inf", "nested-minus-inf", "overflow", "through-an-alias"])
def test_a_number_that_is_not_finite_in_card_data_is_located(tmp_path, cards, message):
    expect(invoke("check", tiny_game(tmp_path, cards=cards)), 1, message, "hint: card values must be finite numbers")


@pytest.mark.parametrize("schema, message", [
    ('{\n  "type": "object",\n  "properties": {"cost": {"minimum": NaN, "description": "NaN"}}\n}\n',
     "cards.schema.json:3:38: error: the card schema holds NaN, which is not a finite JSON number"),
    ('{"type": "object", "maximum": -Infinity}',
     "cards.schema.json:1:31: error: the card schema holds -Infinity, which is not a finite JSON number"),
    ('{"type": "object", "maximum": 1e999}',
     "cards.schema.json:1:31: error: the card schema holds 1e999, which is not a finite JSON number"),
], ids=["nan", "minus-infinity", "overflow"])
def test_a_number_that_is_not_finite_in_a_card_schema_is_located(tmp_path, schema, message):
    (tmp_path / "cards.schema.json").write_text(schema)
    rules = TINY_RULES.replace('cards "cards.yaml" into box', 'cards "cards.yaml" schema "cards.schema.json" into box')
    expect(invoke("check", tiny_game(tmp_path, rules=rules)), 1, message)


# ---------------------------------------------------------------- parameters
def test_nan_as_a_parameter_in_the_rules_is_located(tmp_path):
    rules = TINY_RULES.replace("players 2..3\n", "players 2..3\nparam bonus = nan\n")
    expect(invoke("check", tiny_game(tmp_path, rules=rules)), 1,
           "game.rules:3:15: error: a parameter's value must be a constant")


@pytest.mark.parametrize("value", ["nan", ".inf", "-Infinity", "+inf"])
def test_a_set_value_that_is_not_finite_is_refused(tmp_path, value):
    rules = TINY_RULES.replace("players 2..3\n", "players 2..3\nparam bonus = 1\n")
    result = expect(invoke("check", tiny_game(tmp_path, rules=rules), "--set", f"bonus={value}"), 1,
                    f"--set bonus={value}: not a finite number (the rules' numbers are whole numbers, "
                    "written with digits)")
    assert result.output.count("error") == 1


@pytest.mark.parametrize("option, message", [
    (("--param", "bonus=0..nan"), "--param bonus=0..nan: 'nan' is not a finite number"),
    (("--param", "bonus=-inf..3"), "--param bonus=-inf..3: '-inf' is not a finite number"),
    (("--target", "turns=nan..2"), "--target turns=nan..2: 'nan' is not a finite number"),
    (("--target", "turns=1..inf"), "--target turns=1..inf: 'inf' is not a finite number"),
], ids=["param-nan", "param-minus-inf", "target-nan", "target-inf"])
def test_tune_ranges_must_be_finite(tmp_path, option, message):
    rules = TINY_RULES.replace("players 2..3\n", "players 2..3\nparam bonus = 1\n")
    defaults = {"--param": ("--param", "bonus=0..3"), "--target": ("--target", "turns=1..2")}
    defaults[option[0]] = option
    args = [a for pair in defaults.values() for a in pair]
    expect(invoke("tune", tiny_game(tmp_path, rules=rules), *args, "--budget", "60", "-j", "1"), 1, message)


# ---------------------------------------------------------------- strict JSON out
def test_simulate_json_of_a_single_game_is_strict_json(tmp_path):
    result = expect(invoke("simulate", tiny_game(tmp_path), "-n", "1", "-j", "1", "--json"), 0)
    summary = strict(result.output)
    assert None in _leaves(summary)  # the statistics one game cannot give are null, not NaN


def test_compare_json_of_identical_files_is_strict_json(tmp_path):
    base = tiny_game(tmp_path)
    variant = tmp_path / "same.rules"
    variant.write_text(TINY_RULES.replace('cards "cards.yaml"', f'cards "{tmp_path / "cards.yaml"}"'))
    result = expect(invoke("compare", base, variant, "-n", "2", "-j", "1", "--json"), 0)
    assert None in _leaves(strict(result.output))


def test_run_json_log_and_records_are_strict_json(tmp_path):
    game = tiny_game(tmp_path)
    result = expect(invoke("run", game, "--seed", "5", "--bots", "random", "--json", "--log", tmp_path / "g.log"), 0)
    strict(result.output)
    for line in (tmp_path / "g.log").read_text().splitlines():
        strict(line)
    expect(invoke("simulate", game, "-n", "2", "-j", "1", "--out", tmp_path / "r.jsonl"), 0)
    for line in (tmp_path / "r.jsonl").read_text().splitlines():
        strict(line)


def _leaves(value):
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]

