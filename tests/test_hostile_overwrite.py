"""Outputs never replace inputs: every option that writes a file refuses a
file the command reads (the rules, the files they extend, the cards, the
schema, a loaded save), compared by identity, so another spelling of the
path, a symbolic link among the inputs or a hard link is caught. The file
is left as it was; the message names the output and the input."""
from __future__ import annotations

import os

import pytest

from .hostile import TINY_RULES, expect, invoke, tiny_game

pytestmark = pytest.mark.timeout(120)

SCHEMA = '{"type": "object"}\n'


@pytest.fixture
def game(tmp_path):
    """A variant that extends a base, with cards and a schema: every kind of input."""
    base = TINY_RULES.replace('cards "cards.yaml" into box', 'cards "cards.yaml" schema "cards.schema.json" into box')
    tiny_game(tmp_path, rules=base)
    (tmp_path / "base.rules").write_text(base)
    (tmp_path / "cards.schema.json").write_text(SCHEMA)
    (tmp_path / "game.rules").write_text('extends "base.rules"\noverride game "Tiny variant"\n')
    return tmp_path / "game.rules"


def untouched(*paths):
    """A check that each file still holds what it holds now."""
    before = {p: p.read_bytes() for p in paths}
    return lambda: all(p.read_bytes() == text for p, text in before.items())


@pytest.mark.parametrize("target, kind", [
    ("game.rules", "rules file"),
    ("base.rules", "rules file"),
    ("cards.yaml", "card file"),
    ("cards.schema.json", "card schema"),
], ids=["rules", "extended", "cards", "schema"])
def test_the_log_never_replaces_an_input(game, tmp_path, target, kind):
    check = untouched(tmp_path / target)
    expect(invoke("run", game, "--seed", "5", "--bots", "random", "-q", "--log", tmp_path / target), 1,
           f"Error: refusing to write the log to {tmp_path / target}: it is the {kind} this command reads; "
           "name another file")
    assert check()


def test_another_spelling_of_the_path_is_the_same_file(game, tmp_path):
    check = untouched(tmp_path / "cards.yaml")
    os.symlink(tmp_path, tmp_path / "here")  # a folder link: the file itself is not a link
    spelled = tmp_path / "here" / "sub" / ".." / "cards.yaml"
    (tmp_path / "sub").mkdir()
    expect(invoke("run", game, "--seed", "5", "--bots", "random", "-q", "--log", spelled), 1,
           f"Error: refusing to write the log to {spelled}: it is the card file ({tmp_path / 'cards.yaml'}) "
           "this command reads")
    assert check()


def test_records_never_replace_a_file_read_through_a_link(game, tmp_path):
    os.symlink(tmp_path / "cards.yaml", tmp_path / "linked.yaml")
    (tmp_path / "base.rules").write_text((tmp_path / "base.rules").read_text().replace('"cards.yaml"', '"linked.yaml"'))
    check = untouched(tmp_path / "cards.yaml")
    expect(invoke("simulate", game, "-n", "2", "-j", "1", "--out", tmp_path / "cards.yaml"), 1,
           f"Error: refusing to write the game records to {tmp_path / 'cards.yaml'}: it is the card file "
           f"({tmp_path / 'linked.yaml'}) this command reads")
    assert check()


def test_a_hard_link_to_the_rules_is_the_rules(game, tmp_path):
    os.link(tmp_path / "base.rules", tmp_path / "other.rules")
    check = untouched(tmp_path / "base.rules")
    expect(invoke("tune", game, "--param", "x=1..2", "--target", "turns=1..2", "--out", tmp_path / "other.rules"), 1,
           f"Error: refusing to write the variant to {tmp_path / 'other.rules'}: it is the rules file "
           f"({tmp_path / 'base.rules'}) this command reads")
    assert check()


def test_a_report_never_replaces_a_rules_file(game, tmp_path):
    pytest.importorskip("matplotlib")
    (tmp_path / "report.html").write_text((tmp_path / "base.rules").read_text())
    check = untouched(tmp_path / "report.html")
    expect(invoke("compare", tmp_path / "report.html", game, "-n", "2", "-j", "1", "--report", tmp_path), 1,
           f"Error: refusing to write the report to {tmp_path / 'report.html'}: it is the rules file this "
           "command reads")
    assert check()


def test_the_log_never_replaces_the_loaded_save(game, tmp_path):
    save = tmp_path / "game.save"
    expect(invoke("run", game, "--seed", "5", "--human", "1", input=f"save {save}\nquit\n"), 0)
    check = untouched(save)
    expect(invoke("run", "--load", save, "--bots", "random", "-q", "--log", save), 1,
           f"Error: refusing to write the log to {save}: it is the saved game this command reads")
    assert check()


def test_a_save_at_the_table_never_replaces_an_input_and_the_game_goes_on(game, tmp_path):
    check = untouched(tmp_path / "base.rules")
    expect(invoke("run", game, "--seed", "5", "--human", "1", input=f"save {tmp_path / 'base.rules'}\n1\n1\n"), 0,
           f"Not saved: refusing to write the saved game to {tmp_path / 'base.rules'}: it is the rules file this "
           "command reads", "final scores")
    assert check()


def test_a_new_output_beside_the_inputs_is_written(game, tmp_path):
    expect(invoke("run", game, "--seed", "5", "--bots", "random", "-q", "--log", tmp_path / "game.log"), 0)
    assert (tmp_path / "game.log").read_text().startswith("{")
