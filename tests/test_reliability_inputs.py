"""Bad input everywhere: each case gets a clear message and a non-zero exit,
never a traceback, and a failed write never damages a user's file.
(The 58 broken rules files of tests/diagnostics/ are checked elsewhere.)"""
from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.files import FileRefused, write_text

from .conftest import ROOT, RULES, game_files

CARDS = "thing:\n  - {name: Alpha, cost: 1}\n  - {name: Beta, cost: 2}\n"
GAME = """\
game "Tiny"
players 2..3
cards "cards.yaml" into box
param bonus = 2
param label = "plain"
counter gold: per player, min 0
zone box: shared, hidden
zone hand: per player, visible
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
    end game after 0 more rounds
score:
    "Gold": gold + bonus
"""


@pytest.fixture
def tiny(tmp_path):
    game_files(tmp_path, GAME, CARDS)
    return tmp_path


def invoke(*args, input=None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    return result


def expect(result, code, *messages):
    assert result.exit_code == code, result.output
    for message in messages:
        assert message in result.output, result.output


# ---------------------------------------------------------------- rules files
@pytest.mark.parametrize("text, message", [
    ("", "the rules have no 'game' declaration"),
    ("# only a comment\n", "the rules have no 'game' declaration"),
    ('game "Tiny"\nplayers 2\ncards "cards.yaml" into box\nzone box: shared\nsetup:\n    pass\nturn:\n    pass\n', "the rules have no 'score' block"),
    ("game \"X\"\nplayers 2..3\nparam a = " + "9" * 40 + "\n", "this number is too large (at most 18 digits)"),
    ("game \"X\"\nplayers 2..3\nparam a = " + "(" * 700 + "1" + ")" * 700 + "\n", "nested too deeply"),
    ("game \"X\"\nplayers 2..3\nparam a = [" + ", ".join(["1"] * 5000) + "]\n", "the rules declare no card file"),
    ("game \"X\"\nplayers 2..3\nparam a = " + " + ".join(["1"] * 3000) + "\n", "the rules declare no card file"),
    ('game "X"\r\nplayers 2..3\r\n', "the rules declare no card file"),
    ('\ufeffgame "X"\nplayers 2..3\n', "the rules declare no card file"),
    ("game \"X\"\nplayers 2..3\n\tparam a = 1\n", "unexpected"),
    ('extends "nowhere.rules"\n', "extended rules file not found: nowhere.rules"),
    ('game "X"\nplayers 0..2\ncards "cards.yaml" into box\n', "players 0..2 is not a valid range"),
    ('game "X"\nplayers 2..3\ncards "missing.yaml" into box\n', "cannot read card file"),
], ids=["empty", "comments-only", "no-score", "enormous-number", "deep-nesting", "huge-list", "long-sum",
        "crlf", "byte-order-mark", "stray-indent", "extends-missing", "zero-players", "missing-card-file"])
def test_bad_rules_text(tiny, text, message):
    (tiny / "bad.rules").write_text(text, encoding="utf-8")
    expect(invoke("check", tiny / "bad.rules"), 1, message)


def test_rules_file_not_utf8(tiny):
    (tiny / "bad.rules").write_bytes(b'game "X"\nplayers 2\n# caf\xe9\n')
    expect(invoke("check", tiny / "bad.rules"), 1, "bad.rules:3:6: error: not UTF-8 text (byte 24); save the file as UTF-8")


def test_rules_path_is_a_directory(tiny):
    expect(invoke("check", tiny), 2, "is a directory")


def test_missing_rules_file(tiny):
    expect(invoke("check", tiny / "nope.rules"), 1, f"no such file: {tiny / 'nope.rules'}")


def test_extends_cycle(tiny):
    (tiny / "a.rules").write_text('extends "b.rules"\n')
    (tiny / "b.rules").write_text('extends "a.rules"\n')
    expect(invoke("check", tiny / "a.rules"), 1, "a rules file extends itself (through a.rules -> b.rules -> a.rules)")


# ---------------------------------------------------------------- card files
@pytest.mark.parametrize("cards, message", [
    (b"thing: [\n", "malformed YAML"),
    (b"- just\n- a list\n", "the card file must be a mapping of card kinds to lists of cards"),
    (b"thing:\n  - {cost: 1}\n", "card thing[0]: every card needs a 'name'"),
    (b"thing: 3\n", "card kind 'thing' must be a list of cards"),
    (b"thing:\n  - {name: Alpha, cost: 1}\n  - {name: B\xe9ta}\n", "not UTF-8 text"),
    (b"thing:\n  - {name: Alpha, cost: !!python/object:os.system ls}\n", "malformed YAML"),
    (b"", "the card file must be a mapping"),
], ids=["unclosed-flow", "top-level-list", "no-name", "kind-not-list", "not-utf8", "python-tag", "empty"])
def test_bad_card_files(tiny, cards, message):
    (tiny / "cards.yaml").write_bytes(cards)
    expect(invoke("check", tiny / "game.rules"), 1, message)


def test_card_kind_declared_but_absent(tiny):
    (tiny / "game.rules").write_text(GAME.replace("setup:", "kind gadget:\n    effects: effects\nsetup:"))
    expect(invoke("check", tiny / "game.rules"), 1, "kind 'gadget' has no cards in the card file")


def test_card_schema_file_missing(tiny):
    (tiny / "game.rules").write_text(GAME.replace('into box', 'schema "nope.json" into box', 1))
    expect(invoke("check", tiny / "game.rules"), 1, "cannot read card schema")


def test_card_schema_violation_in_real_cards(tmp_path):
    shutil.copytree(RULES, tmp_path / "rules")
    shutil.copytree(ROOT / "schemas", tmp_path / "schemas")
    path = tmp_path / "rules" / "cards.yaml"
    path.write_text(path.read_text().replace("cost: 3, players: 2", "cost: 9, players: 2", 1))
    expect(invoke("check", tmp_path / "rules" / "catalyst.rules"), 1, "field 'cost': 9 is greater than the maximum of 5")


# ---------------------------------------------------------------- command line
@pytest.mark.parametrize("args, code, message", [
    (["run"], 2, "give a RULES file, or --load a saved game"),
    (["run", "{game}", "--bots", "random", "--players", "0"], 1, "Tiny is played by 2 to 3 players, not 0"),
    (["run", "{game}", "--bots", "random", "--players", "-1"], 1, "not -1"),
    (["run", "{game}", "--bots", "random", "--players", "abc"], 2, "'abc' is not a valid integer"),
    (["run", "{game}", "--bots", "random", "--seed", "x"], 2, "'x' is not a valid integer"),
    (["run", "{game}", "--bots", ","], 1, "no bot named; use e.g. --bots random"),
    (["run", "{game}", "--bots", "alphago"], 1, "unknown bot 'alphago'; known bots:"),
    (["run", "{game}", "--bots", "random:3"], 1, "bot 'random' takes no options (got '3')"),
    (["run", "{game}", "--bots", "greedy:many"], 1, "bot 'greedy' does not understand 'many'; write e.g. greedy:4"),
    (["run", "{game}", "--bots", "random,random,random,random"], 1, "4 bots named for 2 players"),
    (["run", "{game}", "--bots", "random", "--set", "bonus"], 2, "expected NAME=VALUE, got 'bonus'"),
    (["run", "{game}", "--bots", "random", "--set", "=3"], 2, "expected NAME=VALUE"),
    (["run", "{game}", "--bots", "random", "--set", "bonsu=3"], 1, "--set bonsu: no parameter named 'bonsu'"),
    (["run", "{game}", "--bots", "random", "--set", "bonus=abc"], 1, "--set bonus=abc: not a valid value"),
    (["run", "{game}", "--bots", "random", "--set", "bonus=1.5"], 1, "--set bonus=1.5: not a valid value"),
    (["run", "{game}", "--bots", "random", "--set", 'bonus="3"'], 1, "expected a number like the default 2, got a text"),
    (["run", "{game}", "--bots", "random", "--set", "bonus=[1, 2]"], 1, "expected a number like the default 2, got a list"),
    (["run", "{game}", "--bots", "random", "--set", "bonus=" + "9" * 30], 1, "this number is too large"),
    (["run", "{game}", "--human", "5"], 2, "player 5 does not exist with 2 players"),
    (["run", "{game}", "--bots", "random", "--max-steps", "0"], 2, "0 is not in the range x>=1"),
    (["run", "{game}", "--load", "{dir}/none.json"], 2, "does not exist"),
    (["check"], 2, "Missing argument 'RULES...'"),
    (["cards", "{game}", "--kind", "gadget"], 1, "no card kind 'gadget'"),
    (["cards", "{game}", "--where", "cost >"], 1, "--where:1:6: error: unexpected end of file"),
    (["cards", "{game}", "--where", "cots > 1"], 1, "unknown card field 'cots'"),
    (["frobnicate"], 2, "No such command 'frobnicate'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_bad_command_lines(tiny, args, code, message):
    args = [a.replace("{game}", str(tiny / "game.rules")).replace("{dir}", str(tiny)) for a in args]
    expect(invoke(*args), code, message)


def test_text_parameter_takes_a_bare_word(tiny):
    result = invoke("run", tiny / "game.rules", "--bots", "random", "--set", "label=fancy", "--quiet")
    expect(result, 0, "player 1")


def test_debug_shows_a_traceback(tiny):
    result = CliRunner().invoke(cli, ["--debug", "run", str(tiny / "nope.rules"), "--bots", "random"])
    assert result.exit_code == 1
    assert "Traceback (most recent call last)" in result.output and "no such file" in result.output


def test_check_reports_every_file(tiny):
    (tiny / "bad.rules").write_text("nonsense\n")
    result = invoke("check", tiny / "game.rules", tiny / "bad.rules")
    expect(result, 1, "game.rules: ok", "bad.rules:1:1: error: unexpected 'nonsense'")


# ---------------------------------------------------------------- saves and logs
@pytest.fixture
def saved(tiny):
    """A save made at the terminal (seat 0 human), then quit."""
    path = tiny / "save.json"
    expect(invoke("run", RULES / "solo.rules", "--human", "1", "--seed", "2", input=f"1\nsave {path}\nquit\n"), 0, "Saved to")
    return path


@pytest.mark.parametrize("damage, message", [
    (lambda text: text[: len(text) // 2], "not a readable saved game"),
    (lambda text: "", "not a readable saved game"),
    (lambda text: "[1, 2, 3]", "not a saved game of this tool"),
    (lambda text: json.dumps({**json.loads(text), "format": "other/9"}), "not a saved game of this tool"),
    (lambda text: json.dumps({**json.loads(text), "seed": "seven"}), "the saved game is damaged (field 'seed')"),
    (lambda text: json.dumps({**json.loads(text), "rules": "gone.rules"}), "gone.rules"),
    (lambda text: json.dumps({**json.loads(text), "fingerprint": "00", "game": {**json.loads(text)["game"], "fingerprint": "00"}}), "changed since"),
    (lambda text: json.dumps({**json.loads(text), "game": {**json.loads(text)["game"], "fingerprint": "00"}}), "the saved game is damaged (field 'fingerprint' is"),
    (lambda text: json.dumps({**json.loads(text), "game": {**json.loads(text)["game"], "state": {}}}), "the save is damaged: 'n' is missing"),
    (lambda text: json.dumps({**json.loads(text), "sets": {"difficulty": "impossible"}}), "'difficulty' may be one of"),
], ids=["truncated", "empty", "a-list", "other-format", "bad-seed", "rules-gone", "rules-changed", "other-rules",
        "no-state", "bad-parameter"])
def test_damaged_saves(saved, damage, message):
    saved.write_text(damage(saved.read_text()))
    result = invoke("run", "--load", saved, "--bots", "random")
    assert result.exit_code == 1, result.output
    assert message in result.output


def test_tampered_save_that_loses_a_card(saved):
    data = json.loads(saved.read_text())
    zones = data["game"]["state"]["z"]
    victim = next(zone for zone in zones if zone and zone[0] is not None)
    victim.pop(0)
    saved.write_text(json.dumps(data))
    expect(invoke("run", "--load", saved, "--bots", "random"), 1, "does not follow from its own history")


def test_log_into_a_missing_folder(tiny):
    expect(invoke("run", tiny / "game.rules", "--bots", "random", "--quiet", "--log", tiny / "no" / "log.jsonl"), 1,
           "cannot write the log to")


def test_failed_write_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "keep.json"
    path.write_text("precious")

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(FileRefused, match="No space left on device"):
        write_text(str(path), "new content", "the log")
    assert path.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]  # no temporary file left behind


# ---------------------------------------------------------------- replaying logs
@pytest.fixture
def log(tmp_path):
    path = tmp_path / "game.jsonl"
    expect(invoke("run", RULES / "catalyst.rules", "--players", "3", "--seed", "4", "--bots", "random", "--quiet",
                  "--set", "coin_limit=9", "--log", path), 0)
    return path


def test_a_log_replays_from_any_folder(log, tmp_path, monkeypatch):
    """The log names its rules relative to itself: moved together, they still replay."""
    moved = tmp_path / "elsewhere"
    shutil.copytree(RULES, moved / "rules")
    shutil.copytree(RULES.parent / "schemas", moved / "schemas")
    (moved / "logs").mkdir()
    header = json.loads(log.read_text().splitlines()[0])
    new = moved / "logs" / "game.jsonl"
    new.write_text(log.read_text().replace(json.dumps(header["rules"]),
                                           json.dumps(os.path.relpath(moved / "rules" / "catalyst.rules", moved / "logs"))))
    monkeypatch.chdir(tmp_path)
    expect(invoke("replay", new, "--quiet"), 0, "player 1:")


def test_replay_of_a_log_reproduces_the_game(log):
    result = invoke("replay", log, "--quiet")
    expect(result, 0, "player 1:")
    recorded = json.loads(log.read_text().splitlines()[-1])["result"]["scores"]
    assert [float(line.split(": ")[1].rstrip(" *")) for line in result.output.strip().splitlines()] == recorded


def test_a_log_without_events_still_replays(log):
    """`setup` and `events` are optional: a log that leaves them out replays,
    and `replay` prints what followed each decision all the same."""
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    for line in lines:
        line.pop("events", None)
        line.pop("setup", None)
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = invoke("replay", log)
    expect(result, 0, "deck shuffled", "(the only option)", "the game ends")


def edit_line(lines, number, **changes):
    """The log with the JSON line `number` (0-based) changed."""
    data = json.loads(lines[number])
    data.update(changes)
    return lines[:number] + [json.dumps(data)] + lines[number + 1:]


def edit_result(lines, **changes):
    data = json.loads(lines[-1])
    data["result"].update(changes)
    return lines[:-1] + [json.dumps(data)]


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:1] + lines[2:], "the log does not match these rules"),
    (lambda lines: lines[:-10] + lines[-1:], "the log ends before the game does"),
    (lambda lines: ["not json"] + lines[1:], "not a game log (a line is not JSON"),
    (lambda lines: ['{"hello": 1}'] + lines[1:], "not a game log of this tool"),
    (lambda lines: [lines[0].replace('"coin_limit": "9"', '"coin_limit": "8"')] + lines[1:],
     "the log was written with other rules, cards or parameters"),
    (lambda lines: lines[:-1] + lines[-2:], "the game is already over, but the log goes on"),
    (lambda lines: [lines[0]] + ['{"action": 7}'] + lines[1:], "not a decision of a game log"),
    (lambda lines: edit_line(lines, 3, label="take everything"), "the log does not match these rules: its label"),
    (lambda lines: edit_line(lines, 3, round=9), "the log does not match these rules: its round"),
    (lambda lines: edit_line(lines, 3, turn=1000), "the log does not match these rules: its turn"),
    (lambda lines: edit_line(lines, 3, n=77), "the log does not match these rules: its n"),
    (lambda lines: edit_line(lines, 3, player=2), "the log does not match these rules: player 3"),
    (lambda lines: edit_result(lines, scores=[99, 0, 0]), "the logged result differs from the replayed game in scores"),
    (lambda lines: edit_result(lines, winners=[2]), "the logged result differs from the replayed game in winners"),
    (lambda lines: edit_result(lines, turns=1), "the logged result differs from the replayed game in turns"),
    (lambda lines: edit_line(lines, 0, fingerprint="0000"), "the log was written with other rules"),
    (lambda lines: edit_line(lines, 0, seed="four"), "the log's header is damaged (field 'seed')"),
    (lambda lines: lines[:-1], "the log ends without the game's result"),
    (lambda lines: edit_line(lines, 3, events=["nothing happened"]), "the log does not match these rules: event 1 should be"),
    (lambda lines: edit_line(lines, 3, events=json.loads(lines[3])["events"] + ["player 1: coins 0 -> 99"]),
     "events here, the rules"),
    (lambda lines: edit_line(lines, 3, events=[1]), "the decision's events are not a list of texts"),
    (lambda lines: edit_line(lines, 0, setup=["deck shuffled"]), "the setup's event 1 should be"),
], ids=["missing-step", "cut-short", "not-json", "no-header", "other-parameters", "extra-step", "bad-entry",
        "other-label", "other-round", "other-turn", "other-number", "other-player", "other-scores", "other-winners",
        "other-turns", "other-fingerprint", "bad-seed", "no-result", "other-events", "more-events", "bad-events",
        "other-setup"])
def test_a_log_that_does_not_match_its_rules(log, damage, message):
    lines = log.read_text().splitlines()
    log.write_text("\n".join(damage(lines)) + "\n")
    expect(invoke("replay", log, "--quiet"), 1, message)
