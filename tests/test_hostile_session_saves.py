"""A save from the table is checked whole: every field around the position
(players, seed, fingerprint, the seats people play) must agree with the
position inside it, and a save or a log names only a rules file as its
rules, whose text is never quoted in an error when it is not rules."""
from __future__ import annotations

import json

import pytest

from .hostile import expect, invoke, tiny_game

pytestmark = pytest.mark.timeout(120)

SECRET = "TOPSECRET-a1b2c3"


@pytest.fixture
def save(tmp_path):
    """A game saved at the table before its first decision."""
    path = tmp_path / "game.save"
    expect(invoke("run", tiny_game(tmp_path), "--seed", "5", "--human", "1", input=f"save {path}\nquit\n"), 0,
           "Saved to")
    return path


def changed(save, change):
    data = json.loads(save.read_text())
    change(data)
    save.write_text(json.dumps(data))
    return save


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(players=1), "(field 'players' is 1, the game inside has 2 players)"),
    (lambda d: d.update(players=100), "(field 'players' is 100, the game inside has 2 players)"),
    (lambda d: d.update(seed=6), "(field 'seed' is 6, the game inside was dealt with seed 5)"),
    (lambda d: d.update(human=[7]), "(field 'human' is [7]: seats from 0 to 1, each once)"),
    (lambda d: d.update(human=[0, 0]), "(field 'human' is [0, 0]: seats from 0 to 1, each once)"),
    (lambda d: d.update(fingerprint="0000"), "(field 'fingerprint' is \"0000\", the game inside was saved with"),
    (lambda d: d["game"].update(fingerprint="0000"), "(field 'fingerprint' is \""),
], ids=["one-player", "hundred-players", "other-seed", "no-such-seat", "seat-twice", "fingerprint",
        "inner-fingerprint"])
def test_every_outer_field_must_agree_with_the_game_inside(save, change, message):
    fingerprint = json.loads(save.read_text())["fingerprint"]
    result = expect(invoke("run", "--load", changed(save, change), "--bots", "random", "-q"), 1,
                    f"Error: {save}: the saved game is damaged {message}")
    if "fingerprint" in message:
        assert f'"{fingerprint}"' in result.output


def test_a_consistent_save_plays_on(save):
    expect(invoke("run", "--load", save, "--bots", "random", "-q"), 0, "player 1:")


@pytest.mark.parametrize("named", ["cards.yaml", "secret.txt", "../game.save", "folder/"])
def test_a_save_names_only_a_rules_file(save, tmp_path, named):
    (tmp_path / "secret.txt").write_text(f"{SECRET} words\n")
    result = expect(invoke("run", "--load", changed(save, lambda d: d.update(rules=named)), "--bots", "random"), 1,
                    f"Error: {save}: the saved game names {named!r} as its rules, which is not a rules file "
                    "(the name of a rules file ends in .rules)")
    assert SECRET not in result.output


def test_a_rules_file_named_by_a_save_that_is_not_rules_is_not_quoted(save, tmp_path):
    (tmp_path / "secret.rules").write_text(f"{SECRET} words\n")
    result = expect(invoke("run", "--load", changed(save, lambda d: d.update(rules="secret.rules")), "--bots",
                           "random"), 1,
                    f"Error: {save}: the saved game names {tmp_path / 'secret.rules'} as its rules, which cannot be "
                    "loaded as rules (checking that file says why)")
    assert SECRET not in result.output


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    expect(invoke("run", tiny_game(tmp_path), "--seed", "5", "--bots", "random", "-q", "--log", path), 0)
    return path


def with_rules(log, rules):
    lines = log.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), "rules": rules})
    log.write_text("\n".join(lines) + "\n")
    return log


def test_a_log_names_only_a_rules_file(log, tmp_path):
    (tmp_path / "secret.txt").write_text(f"{SECRET} words\n")
    result = expect(invoke("replay", with_rules(log, "secret.txt")), 1,
                    f"Error: {log}: the game log names 'secret.txt' as its rules, which is not a rules file")
    assert SECRET not in result.output


def test_a_rules_file_named_by_a_log_that_is_not_rules_is_not_quoted(log, tmp_path):
    (tmp_path / "secret.rules").write_text(f"{SECRET} words\n")
    result = expect(invoke("replay", with_rules(log, "secret.rules")), 1,
                    f"Error: {log}: the game log names {tmp_path / 'secret.rules'} as its rules, which cannot be "
                    "loaded as rules")
    assert SECRET not in result.output
