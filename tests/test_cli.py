"""The `catalyst` command line, driven with Click's CliRunner."""
from __future__ import annotations

import json

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
    assert lines[0] == {"rules": str(CATALYST), "seed": 5, "players": 3, "bots": ["random"] * 3}
    assert [e["n"] for e in lines[1:-1]] == list(range(1, len(lines) - 1))
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
