"""The served pages in a real browser: Debian's chromium, headless, driven
through Playwright. A whole solo game played by clicking; a 3-player game
with two people in two browser contexts and a bot, where neither page ever
holds a card the other seat hides; the designer's time travel bringing an
earlier position back to a player's page. A failing test leaves a
screenshot of every page it opened (the path is printed)."""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path

import pytest

from interpreter.agents import make_agents

from .conftest import RULES
from .serving import HANDS, new_hub, running, wait_until
from .test_serve import hidden_names

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
INSTALL = ("the browser tests need Debian's chromium at {path}: run `sh tests/setup.sh` "
           "(or `sudo apt-get install -y chromium`), or set CHROMIUM to a Chromium binary")
STEP_MS = 20_000  # the longest a page may take to show a change


@pytest.fixture(scope="module")
def browser():
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        pytest.fail(INSTALL.format(path=CHROMIUM), pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()


@contextlib.contextmanager
def screenshots_on_failure(pages: list, folder: Path):
    """Screenshots of `pages` (name -> page) in `folder` when the block fails."""
    try:
        yield
    except BaseException:
        folder.mkdir(parents=True, exist_ok=True)
        for name, page in pages:
            with contextlib.suppress(Exception):
                page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        print(f"\nscreenshots of the pages: {folder}")
        raise


def open_page(browser, base: str, link: str, pages: list, name: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(base + link)
    page.errors = errors
    pages.append((name, page))
    return page


def shown(page, table) -> None:
    """Wait until `page` draws the table as it is now."""
    page.wait_for_function("v => document.body.dataset.version === v", arg=f"{table.epoch}:{table.version}",
                           timeout=STEP_MS)


def click_option(page, option_id: str) -> None:
    before = page.evaluate("document.body.dataset.version")
    page.locator(f'#options button.option[data-id="{option_id}"]').click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=before, timeout=STEP_MS)


@pytest.mark.slow
def test_a_whole_solo_game_in_the_browser(browser, tmp_path):
    hub, table = new_hub(tmp_path / "games", rules=RULES / "solo.rules", players=2, humans=(0,), seed=4)
    chooser = make_agents("random", 2, 4)[0]  # which option to click: a seeded bot's choice
    pages: list = []
    with running(hub) as base, screenshots_on_failure(pages, tmp_path / "screenshots"):
        page = open_page(browser, base, hub.links(table)[0], pages, "solo")
        clicks = 0
        while not table.state.is_terminal():
            shown(page, table)
            st = table.state
            assert page.locator("#status").inner_text().startswith("Your decision")
            click_option(page, chooser.choose(st.decision(), st.observation(0), None))
            clicks += 1
        shown(page, table)
        end = page.locator("#end")
        assert end.is_visible()
        rows = end.locator("table.scores tbody tr")
        assert rows.count() == 2
        assert [int(rows.nth(p).locator("td.total").inner_text()) for p in range(2)] == table.state.result()["scores"]
        assert page.locator("#status").inner_text().startswith("The game is over")
        assert page.locator("#history li").count() > clicks  # forced moves and the automaton's steps are told too
        assert page.errors == []
    print(f"\nsolo game in the browser: {clicks} decisions clicked")


@pytest.mark.slow
def test_two_people_in_two_browsers_and_a_bot_and_the_designer_travels_back(browser, tmp_path):
    hub, table = new_hub(tmp_path / "games", rules=HANDS, players=3, humans=(0, 2), seed=8)
    links = hub.links(table)
    pages: list = []
    with running(hub) as base, screenshots_on_failure(pages, tmp_path / "screenshots"):
        seats = {seat: open_page(browser, base, links[seat], pages, f"player{seat + 1}") for seat in (0, 2)}
        positions = []  # (the decision's number, player 1's table as drawn before it)
        while True:
            wait_until(lambda: table.state.is_terminal() or table.is_person(table.state.current_player()),
                       what="a person's decision")
            st = table.state
            for seat, page in seats.items():
                shown(page, table)
                if st.is_terminal():
                    continue  # the end shows every card
                html = page.content()
                hidden = hidden_names(st, seat)
                assert not [name for name in hidden if name in html], f"player {seat + 1}'s page shows hidden cards"
                assert (page.locator("#options button.option").count() > 0) == (st.current_player() == seat)
            if st.is_terminal():
                break
            positions.append((len(table.decisions), seats[0].locator("#table").inner_text()))
            decider = st.current_player()
            options = seats[decider].locator("#options button.option")
            click_option(seats[decider], options.nth(options.count() - 1).get_attribute("data-id"))
        assert len(positions) >= 6  # both people decided several times
        for page in seats.values():
            assert page.locator("#end").is_visible()
            assert page.locator("#end table.scores tbody tr").count() == 3
            assert page.errors == []

        # The designer goes back to before a decision taken in the middle of the game.
        designer = open_page(browser, base, links["designer"], pages, "designer")
        shown(designer, table)
        step, drawn = positions[len(positions) // 2]
        designer.locator(f'#decisions li[data-n="{step + 1}"] button.travel').click()
        wait_until(lambda: len(table.decisions) == step, what="the trip back")
        shown(designer, table)
        shown(seats[0], table)
        assert seats[0].locator("#table").inner_text() == drawn
        assert seats[0].locator("#end").is_hidden()
        assert designer.locator("#branches li[data-branch]").count() == 1
        assert designer.errors == []
