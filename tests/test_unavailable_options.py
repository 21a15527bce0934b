"""Options a player cannot take now but could in principle (an action or an
effect whose `when` does not hold) are shown beside the options, unnumbered,
with the reason the rules give (or their condition in words), unless the
rules say `else hidden`; they are never legal actions. Through the decision
API, twin positions (a hidden card swapped), a pseudo-terminal 80 columns
wide and real Chromium."""
from __future__ import annotations

import pytest

from interpreter.leaks import twins
from interpreter.loader import load_game

from .serving import new_hub, running
from .test_serve_browser import browser, open_page, screenshots_on_failure, shown  # noqa: F401
from .test_table_words import write
from .test_terminal_screens import ANSI, spawn

# Player 1 holds one card; buying it needs 2 gold (an owner-only counter),
# resting needs 3 energy, spending energy (an effect) needs 2.
SHOP = """\
game "Shop"
players 2
cards "cards.yaml" into deck
counter gold: per player, owner only, min 0
counter energy: per player, min 0
kind thing:
    effects: effects
zone deck: shared, stack, hidden
zone hand: per player, owner only
setup:
    for each p in seats:
        deal 1 from deck to hand of p
effect coin "take 1 gold": gain 1 gold
effect spend "spend 2 energy for 3 gold" when energy >= 2: gain 3 gold
turn:
    choose action
    if gold >= 3:
        end game now
action work "Work":
    resolve any of top(hand).effects
action buy "Buy {top(hand).name}" when gold >= 2 else "you need 2 gold":
    lose 2 gold
action rest "Rest" when energy_rich:
    gain 1 energy
action cheat "Cheat" when energy > 5 else hidden:
    pass
define energy_rich = energy >= 3
score:
    "Gold": gold
"""
CARDS = "thing:\n" + "".join(f"  - {{name: {name}, effects: \"coin spend\"}}\n"
                             for name in ("Apple", "Pear", "Fig", "Kiwi"))


@pytest.fixture(scope="module")
def shop():
    return load_game(text=SHOP, cards={"cards.yaml": CARDS})


def cards_in(st, zone: str, owner: int = 0) -> list:
    return st.z[st.program.zones[zone].base + owner]


def not_now(decision) -> list:
    return [(o.label, o.reason) for o in decision.unavailable]


def test_actions_and_effects_not_open_are_shown_with_why_and_never_legal(shop):
    st = shop.new_initial_state(2, 1)
    held = st.program.card_names[cards_in(st, "hand")[0]]
    decision = st.decision()
    assert [o.id for o in decision.options] == st.legal_actions() == ["work"]
    assert not_now(decision) == [(f"Buy {held}", "you need 2 gold"), ("Rest", "needs energy rich")]
    st.apply_action("work")
    decision = st.decision()
    assert st.legal_actions() == ["1:coin", "done"]
    assert not_now(decision) == [("spend 2 energy for 3 gold", "needs energy >= 2")]


def test_what_another_player_is_shown_of_them_names_no_hidden_card(shop):
    """Twins that differ only by player 1's card (which player 2 cannot see):
    player 2 is told the same list in both; player 1 sees its own card."""
    st = shop.new_initial_state(2, 1)
    mine, hidden = cards_in(st, "hand")[0], cards_in(st, "deck")[0]
    first, second = twins(st, mine, hidden)
    assert not_now(first.decision(viewer=1)) == not_now(second.decision(viewer=1)) == \
        [("Buy a card", "you need 2 gold"), ("Rest", "needs energy rich")]
    assert not_now(first.decision(viewer=0)) != not_now(second.decision(viewer=0))


@pytest.mark.timeout(120)
def test_at_an_80_column_terminal_they_are_listed_unnumbered(tmp_path):
    child = spawn(tmp_path, "run", write(tmp_path, SHOP, CARDS), "--human", "1", "--bots", "random", "--seed", "1")
    child.expect("\r\n> ")
    first = ANSI.sub("", child.before).replace("\r", "")
    child.sendline("1")
    child.expect("\r\n> ")
    second = ANSI.sub("", child.before).replace("\r", "")
    child.sendline("quit")
    child.close()
    held = load_game(text=SHOP, cards={"cards.yaml": CARDS}).new_initial_state(2, 1)
    held = held.program.card_names[cards_in(held, "hand")[0]]
    assert first.endswith(f"player 1, choose an action:\n   1. Work\n   -  Buy {held} (not now: you need 2 gold)\n"
                          "   -  Rest (not now: needs energy rich)"), first
    assert "Cheat" not in first
    assert second.endswith("   1. take 1 gold\n   2. done (skip the remaining effects)\n"
                           "   -  spend 2 energy for 3 gold (not now: needs energy >= 2)"), second


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_in_the_browser_they_are_disabled_buttons_with_the_reason(browser, tmp_path):
    hub, table = new_hub(tmp_path / "games", rules=write(tmp_path, SHOP, CARDS), players=2, humans=(0, 1), seed=1)
    pages: list = []
    with running(hub) as base, screenshots_on_failure(pages, tmp_path / "screenshots"):
        page = open_page(browser, base, hub.links(table)[0], pages, "player1")
        shown(page, table)
        off = page.locator("#options button.unavailable")
        held = table.state.program.card_names[cards_in(table.state, "hand")[0]]
        assert off.all_inner_texts() == [f"Buy {held} (not now: you need 2 gold)", "Rest (not now: needs energy rich)"]
        assert all(button.is_disabled() for button in off.all())
        assert page.locator("#options button.option").all_inner_texts() == ["1. Work"]
        other = open_page(browser, base, hub.links(table)[1], pages, "player2")
        shown(other, table)
        assert other.locator("#options button").count() == 0
        assert held not in other.content()
        assert page.errors == [] and other.errors == []


def test_an_alternative_of_resolve_all_not_open_now_is_shown_with_why():
    rules = SHOP.replace('effect coin "take 1 gold": gain 1 gold\n',
                         'effect coin "take 1 gold": gain 1 gold\neffect two "take 2 energy": gain 2 energy\n')
    rules = rules.replace("    resolve any of top(hand).effects", "    resolve all of top(hand).effects")
    cards = CARDS.replace('"coin spend"', '"coin/spend/two"')
    st = load_game(text=rules, cards={"cards.yaml": cards}).new_initial_state(2, 1)
    st.apply_action("work")
    assert st.legal_actions() == ["coin", "two"]
    assert not_now(st.decision()) == [("spend 2 energy for 3 gold", "needs energy >= 2")]
