"""The `catalyst` command line, driven with Click's CliRunner."""
from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from cli.main import cli

from .conftest import CATALYST


@pytest.fixture
def runner():
    return CliRunner()


def test_check_clean_rules_exits_0(runner):
    result = runner.invoke(cli, ["check", str(CATALYST)])
    assert result.exit_code == 0, result.output
    assert "catalyst.rules: ok" in result.output


@pytest.mark.parametrize("players", [2, 3, 4])
def test_run_plays_a_whole_game(runner, players):
    result = runner.invoke(cli, ["run", str(CATALYST), "--players", str(players), "--seed", "7", "--bots", "random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["players"] == players and data["seed"] == 7
    assert len(data["scores"]) == players
    assert set(data["breakdown"][0]) == {"Catalysts", "Buildings", "Military", "Majority", "Coins"}
    assert data["winners"] and data["turns"] > players * 10


def test_run_prints_turn_log_and_table(runner):
    result = runner.invoke(cli, ["run", str(CATALYST), "--players", "2", "--seed", "3", "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert "round  1 turn   1  player" in result.output
    assert "final scores" in result.output and "Catalysts" in result.output


def test_run_quiet_prints_only_scores(runner):
    result = runner.invoke(cli, ["run", str(CATALYST), "--players", "2", "--seed", "3", "--quiet", "--bots", "random"])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("player ") for line in lines)


def test_run_log_writes_every_decision(runner, tmp_path):
    log = tmp_path / "game.jsonl"
    result = runner.invoke(cli, ["run", str(CATALYST), "--players", "3", "--seed", "5", "--quiet", "--bots", "random", "--log", str(log)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    header = lines[0]
    assert header == {"format": "rules-game-log/2", "rules": os.path.relpath(CATALYST, tmp_path),
                      "fingerprint": header["fingerprint"], "seed": 5, "players": 3, "bots": ["random"] * 3, "sets": {},
                      "setup": header["setup"]}
    assert (tmp_path / header["rules"]).resolve() == CATALYST.resolve()
    assert [e["n"] for e in lines[1:-1]] == list(range(1, len(lines) - 1))
    # What followed each decision, in full: forced moves, the cards dealt, and the end.
    assert "deck shuffled" in header["setup"]
    told = [text for entry in lines[1:-1] for text in entry["events"]]
    assert any(text.endswith("(the only option)") for text in told)
    assert any(": deck -> market" in text and "a card" not in text for text in told)
    assert lines[-2]["events"][-1].startswith("the game ends")
    assert "result" in lines[-1]


def test_same_seed_same_log(runner, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        runner.invoke(cli, ["run", str(CATALYST), "--players", "4", "--seed", "9", "--quiet", "--bots", "random", "--log", str(path)])
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("args, message", [
    (["--players", "5"], "is played by 2 to 4 players, not 5"),
    (["--bots", "genius"], "unknown bot 'genius'"),
    (["--bots", "random,random,random"], "3 bots named for 2 players"),
    (["--set", "coin_limt=9"], "no parameter named 'coin_limt'"),
    (["--set", "coin_limit=[1]"], "expected a number like the default 8, got a list"),
])
def test_run_bad_input_is_a_clear_error(runner, args, message):
    base = ["run", str(CATALYST), "--bots", "random"] if "--bots" not in args else ["run", str(CATALYST)]
    result = runner.invoke(cli, base + (["--players", "2"] if "--players" not in args else []) + args)
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_set_changes_the_game(runner):
    def final(extra):
        out = runner.invoke(cli, ["run", str(CATALYST), "--players", "2", "--seed", "4", "--bots", "random", "--json", *extra])
        assert out.exit_code == 0, out.output
        return json.loads(out.output)

    base = final([])
    richer = final(["--set", "starting_coins=[40, 40, 40, 40]", "--set", "coin_limit=50"])
    assert base != richer


def test_missing_file(runner):
    result = runner.invoke(cli, ["run", "no/such.rules", "--bots", "random"])
    assert result.exit_code == 1
    assert "no such file: no/such.rules" in result.output


VARIANTS = sorted((CATALYST.parent / "variants").glob("*.rules"))


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.stem for v in VARIANTS])
def test_every_variant_checks_clean_and_plays(runner, variant):
    checked = runner.invoke(cli, ["check", "--strict", str(variant)])
    assert checked.exit_code == 0 and "warning" not in checked.output, checked.output
    assert variant.read_text().startswith("# Question:")  # each says what question it answers
    played = runner.invoke(cli, ["run", str(variant), "--players", "3", "--seed", "1", "--bots", "random", "--json"])
    assert played.exit_code == 0, played.output
    assert json.loads(played.output)["winners"]


def test_variant_changes_the_game(runner):
    """The flat-price variant plays differently from the base game on the same seed."""
    def scores(path):
        out = runner.invoke(cli, ["run", str(path), "--players", "2", "--seed", "3", "--bots", "random", "--json"])
        return json.loads(out.output)["scores"]
    assert scores(CATALYST) != scores(CATALYST.parent / "variants" / "flat_market.rules")


def test_warnings_exit_0_unless_strict(runner, tmp_path):
    rules = tmp_path / "warn.rules"
    rules.write_text('extends "%s"\nparam unused_knob = 3\n' % CATALYST)
    relaxed = runner.invoke(cli, ["check", str(rules)])
    assert relaxed.exit_code == 0
    assert "warning: parameter 'unused_knob' is never read" in relaxed.output
    assert runner.invoke(cli, ["check", "--strict", str(rules)]).exit_code == 1


def test_cards_table_filters(runner):
    result = runner.invoke(cli, ["cards", str(CATALYST), "--where", "cost >= 5 and colour == \"red\""])
    assert result.exit_code == 0, result.output
    assert "3 cards" in result.output
    assert runner.invoke(cli, ["cards", str(CATALYST), "--kind", "goal"]).output.count("goal") >= 4


def test_run_help_lists_every_bot_of_the_registry(runner):
    from interpreter.agents import AGENTS

    result = runner.invoke(cli, ["run", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for cls in AGENTS.values():
        assert cls.usage in result.output, cls.usage
    assert "mcts[:ITERATIONS|:500ms]" in result.output
