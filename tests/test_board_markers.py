"""Markers on a board: `marker NAME "LABEL" for each X in L on SPACE` puts a
piece on a space, drawn on the browser's map (real Chromium: the DOM and the
pixels of a screenshot) and named with the space at the terminal (a
pseudo-terminal 80 columns wide); what a viewer cannot see is not shown.
Catastropolis shows its heroes and its revealed situations this way."""
from __future__ import annotations

import io

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.loader import load_game
from interpreter.view import card_text, markers

from .conftest import RULES
from .serving import new_hub, running
from .test_serve_browser import browser, open_page, screenshots_on_failure, shown  # noqa: F401
from .test_table_words import write
from .test_terminal_screens import ANSI, spawn

CATASTROPOLIS = RULES / "catastropolis" / "catastropolis.rules"

# A row of three spaces; each player's pawn stands on the space its counter
# holds; a card of a hidden hand marks the space its field names.
ROW = """\
game "Row"
players 2
cards "cards.yaml" into box
counter pos: per player, min 1, max 3
counter secret: per player, owner only
zone box: shared, hidden
zone row: shared, visible
zone hand: per player, owner only
board spot: a next to b when abs(a.n - b.n) == 1
marker pawn "{p}'s pawn" for each p in seats on bottom([s for s in row where s.n == pos of p])
marker goal "goal {g.name}" for each g in [c for p in seats for c in hand of p] on bottom([s for s in row where s.n == g.n])
setup:
    move [c for c in box where c is spot] to row
    for each p in seats:
        set pos of p to 1
    move [c for c in box where c is target] to hand of seats[0]
turn:
    choose s in row as "go to {s.name}":
        set pos to s.n
    end game after 1 more round
score:
    "Pos": pos
"""
CARDS = """\
spot:
  - {name: West, n: 1}
  - {name: Middle, n: 2}
  - {name: East, n: 3}
target:
  - {name: Prize, n: 3}
"""


def test_a_marker_stands_on_the_space_its_counter_holds_and_hidden_cards_mark_nothing():
    game = load_game(text=ROW, cards={"cards.yaml": CARDS})
    st = game.new_initial_state(2, 1)
    names = {c: st.program.card_names[c] for c in st.program.boards.links}
    seen = {names[c]: labels for c, labels in markers(st, 0).items()}
    assert seen == {"West": [("pawn", "player 1's pawn"), ("pawn", "player 2's pawn")],
                    "East": [("goal", "goal Prize")]}
    assert {names[c]: labels for c, labels in markers(st, 1).items()} == \
        {"West": [("pawn", "player 1's pawn"), ("pawn", "player 2's pawn")]}  # player 2 cannot see the Prize
    st.apply_action(next(o.id for o in st.legal_options() if o.label == "go to Middle"))
    middle = next(c for c in names if names[c] == "Middle")
    assert card_text(st, middle, 1, "row") == "Middle [here: player 1's pawn]"
    assert card_text(st, middle, 1, "row", pieces=False) == "Middle"


@pytest.mark.parametrize("line, message", [
    ('marker pawn "{p}" for each p in seats on bottom([s for s in row where s.n == secret of p])\n',
     "game.rules:10:42: error: marker 'pawn' reads a counter not every player sees\n"
     '    marker pawn "{p}" for each p in seats on bottom([s for s in row where s.n == secret of p])\n'
     "                                             " + "^" * 49 + "\n"
     "    hint: a marker is shown to every player: read only visible counters (where a piece stands is seen by all)\n"),
    ('marker pawn "{p}" for each p in seats on pos of p\n',
     "game.rules:10:42: error: the space of marker 'pawn' must be a card, not a number\n"
     '    marker pawn "{p}" for each p in seats on pos of p\n'
     "                                             ^^^^^^^^\n"),
])
def test_check_says_what_a_marker_may_not_read(tmp_path, line, message):
    pawn = next(old for old in ROW.splitlines() if old.startswith("marker pawn"))
    rules = ROW.replace(pawn + "\n", line)
    result = CliRunner().invoke(cli, ["check", str(write(tmp_path, rules, CARDS))])
    assert result.exit_code == 1
    assert result.output.replace(str(tmp_path) + "/", "") == message


def test_catastropolis_names_its_heroes_where_they_stand_at_an_80_column_terminal(tmp_path):
    child = spawn(tmp_path, "run", CATASTROPOLIS, "--players", "2", "--human", "1", "--seed", "3")
    child.expect("\r\n> ")
    screen = ANSI.sub("", child.before).replace("\r", "")
    child.sendline("quit")
    child.close()
    assert "32 Hero HQ [here: player 1's hero, player 2's hero]" in screen
    assert max(len(line) for line in screen.split("\n")) <= 80


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_catastropolis_map_in_the_browser_draws_the_heroes_and_the_situations(browser, tmp_path):
    from PIL import Image

    hub, table = new_hub(tmp_path / "games", rules=CATASTROPOLIS, players=3, humans=(0,), seed=3)
    st = table.state
    expected = {st.program.card_names[c]: [label for _, label in found] for c, found in markers(st, 0).items()}
    assert any(len(labels) == 3 for labels in expected.values())  # the heroes start together
    pages: list = []
    with running(hub) as base, screenshots_on_failure(pages, tmp_path / "screenshots"):
        page = open_page(browser, base, hub.links(table)[0], pages, "player1")
        shown(page, table)
        drawn = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('svg.board g.space')]
            .filter((g) => g.querySelector('g.marker'))
            .map((g) => [g.dataset.name, [...g.querySelectorAll('g.marker')].map((m) => m.dataset.label)]))""")
        assert drawn == expected
        hero = page.locator('svg.board g.marker[data-marker="hero"] circle').first
        assert hero.get_attribute("fill") == "#d62728"
        picture = Image.open(io.BytesIO(hero.screenshot())).convert("RGB")
        pixels = picture.tobytes()
        red = sum(1 for i in range(0, len(pixels), 3) if pixels[i] > 190 and pixels[i + 1] < 80 and pixels[i + 2] < 80)
        assert red > 50, red  # the disc is drawn, in the hero's colour
        assert page.errors == []
