"""Hostile text and sizes in rules files and options: Rich markup and
terminal controls in names, labels and titles; comment-only expressions;
huge players, slots, lists and chains of extends; card queries and bot
options that crashed. Each case prints as written or is refused with its
message and exit code, within a time limit."""
from __future__ import annotations

import pytest

from .hostile import TINY_CARDS, TINY_RULES, expect, invoke, tiny_game

MARKUP = [
    "[link=http://x]a[/link]",
    "[bold red]loud[/]",
    "[/]",
    "[on blue",
    ":warning: sign",
]


@pytest.fixture
def colour(monkeypatch):
    """Rich writes styles and links as it would on a terminal."""
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR", raising=False)


def yaml_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# ---------------------------------------------------------------- markup
@pytest.mark.parametrize("name", MARKUP, ids=["link", "style", "closing-tag", "open-bracket", "emoji-code"])
def test_card_names_print_as_written_in_the_card_table(tmp_path, colour, name):
    cards = f"thing:\n  - {{name: {yaml_quoted(name)}, cost: 1}}\n  - {{name: Beta, cost: 2}}\n"
    result = expect(invoke("cards", tiny_game(tmp_path, cards=cards)), 0, name)
    assert "\x1b]8;" not in result.output  # no hidden link


@pytest.mark.parametrize("name", MARKUP, ids=["link", "style", "closing-tag", "open-bracket", "emoji-code"])
def test_labels_print_as_written_at_the_terminal(tmp_path, colour, name):
    cards = f"thing:\n  - {{name: {yaml_quoted(name)}, cost: 1}}\n  - {{name: Beta, cost: 2}}\n"
    result = expect(invoke("run", tiny_game(tmp_path, cards=cards), "--human", "1", "--bots", "random", input="1\n"),
                    0, f"take {name}", "final scores")
    assert "\x1b]8;" not in result.output


@pytest.mark.parametrize("title", ["[link=http://x]Tiny[/link]", "[red]Tiny", "Tiny [/]"], ids=["link", "style", "closing"])
def test_game_titles_print_as_written(tmp_path, colour, title):
    rules = TINY_RULES.replace('game "Tiny"', f'game "{title}"')
    result = expect(invoke("run", tiny_game(tmp_path, rules), "--bots", "random"), 0, f"{title}: final scores")
    assert "\x1b]8;" not in result.output
    result = expect(invoke("run", tiny_game(tmp_path, rules), "--human", "1", "--bots", "random", input="1\n"), 0,
                    f"{title} — round 1, turn 1")
    assert "\x1b]8;" not in result.output


@pytest.mark.parametrize("label", ["[link=http://x]Gold[/link]", "[b]Gold", "Gold :money_bag:"], ids=["link", "style", "emoji"])
def test_score_labels_print_as_written(tmp_path, colour, label):
    rules = TINY_RULES.replace('"Gold": gold', f'"{label}": gold')
    result = expect(invoke("run", tiny_game(tmp_path, rules), "--bots", "random"), 0, label)
    assert "\x1b]8;" not in result.output


def test_what_a_player_types_is_echoed_as_written(tmp_path, colour):
    result = expect(invoke("run", tiny_game(tmp_path), "--human", "1", "--bots", "random",
                           input="[link=http://x]oops[/link]\n1\n"), 0, "> [link=http://x]oops[/link]")
    assert "\x1b]8;" not in result.output


@pytest.mark.parametrize("name", ["\x1b]8;;http://x\x1b\\a\x1b]8;;\x1b\\", "\x1b[2J\x1b[Hwiped", "\u202eevil"],
                         ids=["osc-link", "clear-screen", "bidi-override"])
def test_terminal_controls_in_card_names_are_replaced(tmp_path, name):
    cards = "thing:\n  - {name: \"" + name.encode("unicode_escape").decode().replace("\\x1b", "\\e") + "\", cost: 1}\n  - {name: Beta, cost: 2}\n"
    for args in (["run", "{game}", "--bots", "random"], ["cards", "{game}"]):
        result = expect(invoke(*[a.replace("{game}", str(tiny_game(tmp_path, cards=cards))) for a in args]), 0)
        assert "\x1b" not in result.output and "\u202e" not in result.output


def test_an_error_message_does_not_pass_terminal_controls(tmp_path):
    rules = TINY_RULES.replace("score:", "# \x1b]8;;http://x\x1b\\\nscore:").replace('"Gold": gold', '"Gold": glod')
    result = expect(invoke("check", tiny_game(tmp_path, rules)), 1, "unknown")
    assert "\x1b" not in result.output


# ---------------------------------------------------------------- comment-only expressions
@pytest.mark.parametrize("label, message", [
    ("take {#}", "game.rules:10:31: error: unexpected end of file"),
    ("take { # nothing}", "game.rules:10:32: error: unexpected end of file"),
    ("take {#}{#}", "unexpected end of file"),
], ids=["hash", "comment", "two"])
def test_a_comment_only_expression_in_a_label_is_a_syntax_error(tmp_path, label, message):
    rules = TINY_RULES.replace('"take {c.name}"', f'"{label}"')
    expect(invoke("check", tiny_game(tmp_path, rules)), 1, message)


@pytest.mark.parametrize("label, shown", [
    ("take {c.name # the card}", "1. take Alpha"),
    ("take {c.name}#", "1. take Alpha#"),
], ids=["trailing-comment", "hash-outside"])
def test_a_comment_after_an_expression_in_a_label_is_allowed(tmp_path, label, shown):
    rules = TINY_RULES.replace('"take {c.name}"', f'"{label}"')
    expect(invoke("run", tiny_game(tmp_path, rules), "--human", "1", "--bots", "random", input="1\n"), 0, shown)


def test_a_comment_only_card_expression_is_a_syntax_error(tmp_path):
    rules = TINY_RULES.replace("zone hand: per player, visible",
                               "zone hand: per player, visible\nkind thing:\n    worth: expression")
    cards = "thing:\n  - {name: Alpha, cost: 1, worth: '# nothing'}\n  - {name: Beta, cost: 2, worth: '1'}\n"
    expect(invoke("check", tiny_game(tmp_path, rules, cards)), 1,
           "card 'Alpha', field 'worth': unexpected end of file")


def test_a_comment_only_card_query_is_a_syntax_error(tmp_path):
    expect(invoke("cards", tiny_game(tmp_path), "--where", "#"), 1, "--where:1:1: error: unexpected end of file")


# ---------------------------------------------------------------- sizes in rules files
@pytest.mark.parametrize("old, new, message", [
    ("players 2..3", "players 2..99999999", "game.rules:2:1: error: players 2..99999999: a game may have at most 100 players (the limit)"),
    ("players 2..3", "players 101", "players 101..101: a game may have at most 100 players (the limit)"),
    ("zone hand: per player, visible", "zone hand: per player, slots 999999999999, visible",
     "game.rules:6:6: error: zone 'hand' has 999,999,999,999 slots; a zone may have at most 1,000 (the limit)"),
    ("zone hand: per player, visible", "zone hand: per player, slots 1001, visible", "zone 'hand' has 1,001 slots"),
    ("zone box: shared, hidden", "zone box: shared, hidden\nzone spots: per card, slots 600, visible",
     "the slotted zones hold"),
    ("counter gold", "param big = [" + ", ".join(["1"] * 10_001) + "]\ncounter gold",
     "game.rules:4:14: error: this list has 10,001 items; a list written in the rules may have at most 10,000 (the limit)"),
    ("counter gold", "param big = {" + ", ".join(f"{i}: 1" for i in range(10_001)) + "}\ncounter gold",
     "this text has more than 30,000 words and symbols"),  # four tokens an item: the token budget comes first
    ("counter gold", "param big = [1] * 99999999999\ncounter gold",
     "game.rules:4:13: error: this parameter's list would have 99,999,999,999 items; a parameter's list may have at most 10,000 (the limit)"),
    ("counter gold", 'param big = "ab" * 99999999999\ncounter gold',
     "this parameter's text would have 199,999,999,998 characters"),
    ("counter gold", "param a = [1] * 6000\nparam b = a + a\ncounter gold", "this parameter's list would have 12,000 items"),
    ("counter gold", "param big = [" + ",".join(["1"] * 40_000) + "]\ncounter gold",
     "error: this text has more than 30,000 words and symbols: that is the limit"),
], ids=["players", "players-exact", "slots", "slots-one-too-many", "slot-cells", "list", "map", "list-product",
        "text-product", "list-sum", "tokens"])
@pytest.mark.slow
def test_sizes_in_the_rules_have_limits(tmp_path, old, new, message):
    cards = "thing:\n" + "".join(f"  - {{name: C{i}, cost: 1}}\n" for i in range(2000)) if "per card" in new else TINY_CARDS
    expect(invoke("check", tiny_game(tmp_path, TINY_RULES.replace(old, new, 1), cards), seconds=60), 1, message)


def test_a_rules_file_over_its_size_limit_is_refused_unread(tmp_path):
    rules = TINY_RULES + "# " + "x" * (600 << 10) + "\n"
    expect(invoke("check", tiny_game(tmp_path, rules)), 1, "it is larger than 512 KB, the limit for a rules file")


@pytest.mark.slow
def test_a_list_at_the_limit_is_accepted(tmp_path):
    rules = TINY_RULES.replace("counter gold", "param big = [" + ", ".join(["1"] * 10_000) + "]\ncounter gold")
    expect(invoke("check", tiny_game(tmp_path, rules), seconds=60), 0, "ok (1 warning)")


# ---------------------------------------------------------------- chains of extends
def chain(tmp_path, length: int):
    tiny_game(tmp_path)
    (tmp_path / "v0.rules").write_text((tmp_path / "game.rules").read_text())
    for i in range(1, length):
        (tmp_path / f"v{i}.rules").write_text(f'extends "v{i - 1}.rules"\n')
    return tmp_path / f"v{length - 1}.rules"


def test_a_chain_of_sixteen_files_is_read(tmp_path):
    expect(invoke("check", chain(tmp_path, 16)), 0, "v15.rules: ok")


@pytest.mark.parametrize("length", [17, 1000], ids=["one-too-many", "thousand"])
def test_a_longer_chain_of_extends_is_refused(tmp_path, length):
    path = chain(tmp_path, length)
    expect(invoke("check", path), 1, "error: the chain of `extends` is longer than 16 files (the limit)",
           "hint: merge some of the files into one")


# ---------------------------------------------------------------- card queries and bot options
@pytest.mark.parametrize("where, message", [
    ("slot(1) == 0", "slot() reads a game in progress; a card query can use only the card's fields"),
    ("size(box) > 0", "unknown card field 'box'"),
    ("cost >", "--where:1:6: error: unexpected end of file"),
    ("[" * 2000 + "1" + "]" * 2000 + " == cost", "nested too deeply"),
], ids=["slot", "zone", "unfinished", "deep"])
def test_card_queries_that_crashed_are_refused(tmp_path, where, message):
    expect(invoke("cards", tiny_game(tmp_path), "--where", where), 1, message)


@pytest.mark.parametrize("bots, message", [
    ("mcts:10:c=nan", "bot 'mcts': option 'c' expects a number, got 'nan'"),
    ("mcts:10:c=inf", "bot 'mcts': option 'c' expects a number, got 'inf'"),
    ("mcts:10:c=-inf", "bot 'mcts': option 'c' expects a number, got '-inf'"),
    ("mcts:10:c=-1", "bot 'mcts': option 'c' must be 0 or more, got -1.0"),
    ("mcts:10:scale=-2", "bot 'mcts': option 'scale' must be 0 or more, got -2.0"),
    ("mcts:10:discount=nan", "bot 'mcts': option 'discount' expects a number, got 'nan'"),
    ("mcts:nanms", "bot 'mcts' does not understand 'nanms'"),
    ("mcts:infs", "bot 'mcts' does not understand 'infs'"),
    ("greedy:discount=-0.5", "bot 'greedy': option 'discount' must be 0 or more, got -0.5"),
    ("greedy:discount=1e999", "bot 'greedy': option 'discount' expects a number, got '1e999'"),
], ids=["nan", "inf", "minus-inf", "negative", "negative-scale", "nan-discount", "nan-time", "inf-time",
        "greedy-negative", "greedy-overflow"])
def test_bot_options_must_be_real_numbers(tmp_path, bots, message):
    expect(invoke("run", tiny_game(tmp_path), "--bots", bots, "--quiet"), 1, message)


def test_finite_bot_options_play(tmp_path):
    expect(invoke("run", tiny_game(tmp_path), "--bots", "mcts:10:c=0:discount=0", "--quiet"), 0, "player 1:")
