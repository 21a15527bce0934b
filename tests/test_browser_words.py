"""What a person reads in the browser (Debian's chromium through Playwright,
as in test_serve_browser): cards side by side merged but never cards apart,
options chosen by their numbers, the tiebreak said on the end screen."""
from __future__ import annotations

import pytest

from .serving import drawn, new_hub, running
from .test_serve_browser import browser, click_option, open_page, screenshots_on_failure, shown  # noqa: F401
from .test_table_words import write

CARDS = """\
thing:
  - {name: Apple, cost: 1}
  - {name: Pear, cost: 2}
  - {name: Apple, cost: 3}
  - {name: Apple, cost: 4}
  - {name: Fig, cost: 5}
  - {name: Kiwi, cost: 6}
  - {name: Lime, cost: 7}
"""

# The pile keeps the cards in the order they were laid: Apple, Pear, Apple, Apple;
# the first player takes two of Fig, Kiwi and Lime from the shelf, one after the other.
PILE = """\
game "Pile"
players 2..2
cards "cards.yaml" into box
zone box: shared, hidden
zone pile: shared, stack, visible
zone shelf: shared, visible
zone hand: per player, visible
setup:
    for each c in box where c.cost <= 4:
        move c to pile
    for each c in box:
        move c to shelf
turn:
    repeat 2 times:
        choose c in shelf as "take {c.name}":
            move c to hand
    end game after 0 more rounds
score:
    "Nothing": 0
tiebreak 0 - me
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_the_page_keeps_a_pile_s_order_numbers_options_and_says_the_tiebreak(browser, tmp_path):
    hub, table = new_hub(tmp_path / "games", rules=write(tmp_path, PILE, CARDS), players=2, humans=(0, 1))
    pages: list = []
    with running(hub) as base, screenshots_on_failure(pages, tmp_path / "screenshots"):
        page = open_page(browser, base, hub.links(table)[0], pages, "player1")
        shown(page, table)
        pile = page.locator('tr.zone[data-zone="pile"] td').inner_text()
        assert pile.split() == ["Apple", "Pear", "Apple", "×2"], pile
        for key, taken in (("1", "take Fig"), ("3", "take Lime")):  # Lime is still 3 once Fig is gone
            before = page.evaluate("document.body.dataset.version")
            page.keyboard.press(key)  # typing a number chooses the option listed with it
            page.wait_for_function("v => document.body.dataset.version !== v", arg=before, timeout=20_000)
            assert table.decisions[-1]["label"] == taken
            shown(page, table)
        while not table.state.is_terminal():
            table.play(table.state.option_ids[0])
        hub_view = drawn(table, 0)
        page.reload()
        shown(page, table)
        assert page.locator("#status").inner_text() == \
            "The game is over: " + hub_view["end"]["said"]
        assert "on the tiebreak: tied with player 2 on 0" in hub_view["end"]["said"]
        assert page.errors == []


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_every_screen_of_a_three_player_game_in_the_browser_speaks_players_words(browser, tmp_path):
    """A whole 3-player game of Catalyst, each seat's page read after every
    decision: no error text, rule name, counter id or raw rules text."""
    import random
    import re

    from .conftest import CATALYST
    from .test_terminal_screens import SNAKE

    hub, table = new_hub(tmp_path / "games", rules=CATALYST, players=3, humans=(0, 1, 2), seed=5)
    rnd, pages = random.Random(3), []
    with running(hub) as base, screenshots_on_failure(pages, tmp_path / "screenshots"):
        seats = [open_page(browser, base, hub.links(table)[seat], pages, f"player{seat + 1}") for seat in range(3)]
        screens = 0
        while True:
            for page in seats:
                shown(page, table)
                text = page.inner_text("body")
                screens += 1
                assert "<no field" not in text and not SNAKE.findall(text), (SNAKE.findall(text), text)
                assert not re.search(r"\b(count|sum) \w+ in \w+", text), text
            if table.state.is_terminal():
                break
            click_option(seats[table.state.current_player()], rnd.choice(table.state.option_ids))
        assert screens > 60 and all(page.errors == [] for page in seats)
