"""Which `show` template shows a card: the zone's, the card's kind's, then
`cards`, the first whose fields the card has; else its name. A card never
shows as `<no field ...>`, and `check --strict` warns where `show cards`
reads a field some kind of card lacks with nothing else to show it."""
from __future__ import annotations

from click.testing import CliRunner

from cli.main import cli
from interpreter import visibility
from interpreter.loader import load_game
from interpreter.view import table_view

CARDS = """\
thing:
  - {name: Alpha, cost: 1, effects: "gain"}
  - {name: Beta, cost: 2, effects: "gain"}
badge:
  - {name: Medal, effects: "gain"}
"""

RULES = """\
game "Shown"
players 2..2
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, visible
zone hand: per player, visible
kind thing:
    effects: effects
kind badge:
    effects: effects
effect gain: gain 1 gold
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
    end game after 1 more rounds
score:
    "Gold": gold
show cards as "{card.name} ({card.cost})"
"""


def write(tmp_path, extra: str = ""):
    (tmp_path / "cards.yaml").write_text(CARDS)
    path = tmp_path / "game.rules"
    path.write_text(RULES + extra)
    return path


def shown(path) -> list:
    st = load_game(path).new_initial_state(2, 1)
    return dict(table_view(st, visibility.EVERYTHING)["shared"])["box"]["cards"]


def test_a_card_lacking_a_field_the_template_reads_is_shown_by_its_name(tmp_path):
    assert shown(write(tmp_path)) == ["Alpha (1)", "Beta (2)", "Medal"]


def test_a_kind_has_its_own_template_and_a_zone_s_comes_first(tmp_path):
    assert shown(write(tmp_path, 'show badge as "{card.name} badge"\n')) == ["Alpha (1)", "Beta (2)", "Medal badge"]
    assert shown(write(tmp_path, 'show box as "{card.name}!"\n')) == ["Alpha!", "Beta!", "Medal!"]


def test_check_strict_warns_of_cards_show_cards_cannot_show(tmp_path):
    result = CliRunner().invoke(cli, ["check", "--strict", str(write(tmp_path))])
    assert result.exit_code == 1
    assert result.output.replace(str(tmp_path) + "/", "") == (
        "game.rules:20:1: warning: `show cards` reads 'cost', which cards of kind 'badge' lack (e.g. 'Medal'); "
        "they are shown by their name alone\n"
        '    show cards as "{card.name} ({card.cost})"\n'
        "    ^\n"
        "    hint: write `show badge as \"...\"` to say how cards of kind 'badge' are shown\n"
        "game.rules: failed: 1 warning, and --strict counts warnings as errors\n")
    fixed = write(tmp_path, 'show badge as "{card.name} badge"\n')
    assert CliRunner().invoke(cli, ["check", "--strict", str(fixed)]).exit_code == 0


def test_a_show_names_a_zone_or_a_kind(tmp_path):
    result = CliRunner().invoke(cli, ["check", str(write(tmp_path, 'show badges as "{card.name}"\n'))])
    assert result.exit_code == 1
    assert "`show badges`: no zone or kind of card named 'badges'" in result.output
    assert "did you mean 'badge'?" in result.output


def test_the_end_of_a_catalyst_game_shows_every_card_in_words(tmp_path):
    result = CliRunner().invoke(cli, ["run", "rules/catalyst.rules", "--bots", "random", "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "every card shown" in result.output
    assert "<no field" not in result.output


def test_the_designer_page_shows_every_card_in_words_from_the_start(tmp_path):
    import json

    from .serving import drawn, new_hub

    hub, table = new_hub(tmp_path, rules="rules/catalyst.rules", players=2, humans=(0,))
    view = json.dumps(drawn(table, None))
    assert "The Grand Design" in view and "<no field" not in view
