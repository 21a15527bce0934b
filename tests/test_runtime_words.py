"""Every error a rule meets while a game is played is said in the rules'
words: the map and the key it lacks, the value that is nothing and where it
became nothing. No Python word (a type name, "list indices") reaches the
designer, through `run` or `simulate`."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.runtime.explain import in_rules_words

HEAD = '''game "Words"
players 2
cards "cards.yaml" into box
param prices = {1: 10, 2: 20}
counter gold: per player
zone box: shared, hidden
zone deck: shared, stack, hidden
setup:
    end game after 1 more rounds
turn:
'''
TAIL = '''score:
    "Gold": gold
'''
PYTHON_WORDS = ("NoneType", "list indices", "subscriptable", "'int'", "'str'", "'dict'", "KeyError", "TypeError",
                "IndexError", "Traceback", "operand", "modulo")
CASES = {
    "missing-key": ("gain prices[5] gold", "game.rules:11:5: error: rule failed: map 'prices' has no key 5; "
                    "its keys: 1, 2 (in 'turn')\n        gain prices[5] gold\n        ^^^^^^^^^^^^^^^^^^^"),
    "missing-key-in-a-loop": ("gain (sum prices[c.cost + 4] for c in box) gold",
                              "game.rules:11:5: error: rule failed: map 'prices' has no key 5; its keys: 1, 2 (in 'turn')"),
    "top-of-empty": ("let d = top(deck)\nif d.cost > 1:\n    gain 1 gold",
                     "game.rules:12:8: error: rule failed: 'd' is nothing (top of an empty zone deck at {rules}:11:13), "
                     "so it has no field 'cost' (in 'turn')\n        if d.cost > 1:\n           ^^^^^^^^^^"),
    "top-in-place": ("gain bottom(deck).cost gold",
                     "game.rules:11:5: error: rule failed: a card is nothing (none), so it has no field 'cost' (in 'turn')"),
    "highest-of-none": ("let h = highest c.cost for c in deck\ngain h gold",
                        "game.rules:12:5: error: rule failed: 'h' is nothing (highest of no values at {rules}:11:13), "
                        "where a value is needed (in 'turn')"),
    "owner-of-none": ("let c = top(box)\nlet p = owner(c)\ngain 1 gold of p",
                      "game.rules:13:5: error: rule failed: 'p' is nothing (the owner of a card no player holds at "
                      "{rules}:12:13), where a value is needed (in 'turn')"),
    "past-the-end": ("gain [1, 2][size(deck) + 5] gold",
                     "game.rules:11:5: error: rule failed: a position past the end of a list (in 'turn')"),
}


def rules_of(tmp_path, body: str) -> str:
    (tmp_path / "cards.yaml").write_text("thing:\n  - {name: A, cost: 1}\n  - {name: B, cost: 2}\n")
    path = tmp_path / "game.rules"
    path.write_text(HEAD + "".join(f"    {line}\n" for line in body.splitlines()) + TAIL)
    return str(path)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("command", [["run", "--bots", "random"], ["simulate", "-n", "2", "--jobs", "1"]],
                         ids=["run", "simulate"])
def test_a_failing_rule_is_reported_in_the_rules_words(tmp_path, case, command):
    body, expected = CASES[case]
    path = rules_of(tmp_path, body)
    result = CliRunner().invoke(cli, [command[0], path, *command[1:]])
    assert result.exit_code == 1
    assert expected.format(rules=path) in result.output, result.output
    for word in PYTHON_WORDS:
        assert word not in result.output, word


@pytest.mark.parametrize("text, words", [
    ("unsupported operand type(s) for +: 'NoneType' and 'int'", "cannot compute nothing (none) + a number"),
    ("'<' not supported between instances of 'str' and 'int'", "cannot compare a text and a number with <"),
    ("list indices must be integers or slices, not NoneType", "a list's position must be a number, not nothing (none)"),
    ("something no rule can explain", "a value of the wrong kind for what the rule does with it"),
])
def test_python_texts_are_said_in_the_rules_words(text, words):
    assert in_rules_words(text) == words
