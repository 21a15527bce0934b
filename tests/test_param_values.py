"""Parameters that declare the values they may take (`one of [...]`,
`within LOW..HIGH`): `--set` outside them is refused before anything is
played, naming what is allowed."""
from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from cli.main import cli

from .conftest import ROOT

SOLO = str(ROOT / "rules" / "solo.rules")


def test_solo_refuses_an_unknown_difficulty_before_the_first_decision():
    """The real program, as a player starts it: no decision is asked."""
    done = subprocess.run([sys.executable, "-m", "cli.main", "run", SOLO, "--set", "difficulty=hard"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode != 0
    assert "'difficulty' may be one of \"easy\", \"standard\", \"advanced\"" in done.stderr
    assert "Traceback" not in done.stderr
    assert "round" not in done.stdout.lower() and ">" not in done.stdout


@pytest.mark.parametrize("command", [["check"], ["simulate", "-n", "2", "--bots", "random"], ["cards"]])
def test_every_command_refuses_a_value_outside_the_allowed_ones(command):
    result = CliRunner().invoke(cli, [*command, SOLO, "--set", "difficulty=hard"])
    assert result.exit_code != 0
    assert "may be one of" in result.output


@pytest.mark.parametrize("level", ["easy", "standard", "advanced"])
def test_each_allowed_difficulty_plays(level):
    result = CliRunner().invoke(cli, ["run", SOLO, "--set", f"difficulty={level}", "--bots", "random", "--seed", "3", "--quiet"])
    assert result.exit_code == 0, result.output


RANGE = """\
game "Range"
players 2
cards "cards.yaml" into box
param target = 3 within 1..5
counter points: per player
zone box: shared
setup:
    pass
turn:
    gain 1 points
    if points >= target:
        end game now
score:
    "points": points
"""


@pytest.fixture
def ranged(tmp_path):
    (tmp_path / "cards.yaml").write_text("thing:\n  - {name: A}\n")
    (tmp_path / "game.rules").write_text(RANGE)
    return str(tmp_path / "game.rules")


@pytest.mark.parametrize("value, ok", [("1", True), ("5", True), ("0", False), ("6", False), ('"3"', False)])
def test_a_range_admits_its_ends_and_nothing_outside(ranged, value, ok):
    result = CliRunner().invoke(cli, ["run", ranged, "--set", f"target={value}", "--bots", "random", "--quiet"])
    assert (result.exit_code == 0) is ok, result.output
    if not ok:
        assert ("'target' may be a whole number from 1 to 5" in result.output
                or "expected a number like the default 3" in result.output)


def test_values_given_from_python_are_read_like_set_texts():
    """`load_game(path, {NAME: value})` takes the value itself as well as its
    text; a value the rules cannot hold is an error, not a crash."""
    from interpreter import load_game
    from interpreter.errors import RulesError

    catalyst = ROOT / "rules" / "catalyst.rules"
    assert load_game(catalyst, {"coin_limit": 9}).program.params["coin_limit"] == 9
    assert load_game(catalyst, {"starting_coins": [4, 6, 5, 6]}).program.params["starting_coins"] == [4, 6, 5, 6]
    for value, message in (({"a": 1}, "got a dict"), (1.5, "got a float"), ("x", "not a valid value")):
        with pytest.raises(RulesError) as err:
            load_game(catalyst, {"coin_limit": value})
        assert message in err.value.diagnostics[0].message
