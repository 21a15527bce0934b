"""The Rivals for Catan sample (rules/samples/rivals/, seed 003, "The Era of
Sages"): the production roll and the owls of the sages, action attack cards
and the Grove of Peace answering them on the other player's turn, a private
look through a draw stack, played through the real command line, the
decision API, every bot, `simulate` and both agent adapters."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import AGENTS, make_agents
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import ROOT, play

RIVALS = ROOT / "rules" / "samples" / "rivals" / "rivals.rules"
TRADE = 1  # the event die's "Trade" face: nothing happens in this set
SAGES = {"forest-6": "peter-sage-of-the-forest", "hills-5": "frederich-sage-of-the-hills",
         "pasture-4": "michaela-sage-of-the-pasture", "fields-3": "barbara-sage-of-the-fields",
         "mountains-2": "piet-sage-of-the-mountains", "gold-field-1": "walther-sage-of-the-gold-field"}


@pytest.fixture(scope="module")
def rivals():
    return load_game(RIVALS)


def at_first_action(rivals, event=TRADE):
    """Games whose first turn rolled `event` and stands at player 1's choice of action."""
    for seed in range(200):
        st = rivals.new_initial_state(2, seed=seed)
        if st.counter("event_roll") == event and st.decision().prompt == "Choose an action":
            yield st


def stock(st, region):
    return st.counter("stock", region)


def play_card(st, card_group):
    """Player 1 plays an action card of the group (copies share one option;
    a single playable card is taken without asking)."""
    play(st, "play")
    chosen = [a for a in st.legal_actions() if a.startswith(card_group)]
    if st.current_player() == 0 and chosen:
        play(st, chosen[0])
    assert any(c.startswith(card_group) for c in st.zone("discards"))


def end_turn(st):
    """Player 1 ends the action phase, refills the hand and exchanges no card."""
    turn = st.turns
    while st.turns == turn:
        legal = st.legal_actions()
        play(st, next((a for a in ("end_actions", "pass") if a in legal), legal[0]))


def with_sage(st, region, owls):
    st.place(SAGES.get(region, "peter-sage-of-the-forest"), "beside", owner=region, slot=0)
    st.set_counter("owls", owls, SAGES.get(region, "peter-sage-of-the-forest"))


def test_check_strict_passes():
    result = CliRunner().invoke(cli, ["check", "--strict", str(RIVALS)])
    assert result.exit_code == 0, result.output


def test_the_production_roll_fills_the_regions_of_both_players_with_the_number(rivals):
    st = next(at_first_action(rivals))
    rolled = st.counter("production_roll")
    for p in (0, 1):
        for region in st.zone("regions", p):
            die = int(region.rsplit("-", 1)[1])
            assert stock(st, region) == (2 if die == rolled else 1), region


def test_a_sage_beside_the_region_rolled_receives_an_owl(rivals):
    checked = 0
    for st in at_first_action(rivals):
        for region in SAGES:  # a sage beside each of player 2's regions
            st.place(SAGES[region], "beside", owner=region, slot=0)
        st.refresh()
        before = {r: stock(st, r) for r in SAGES}
        end_turn(st)
        if st.current_player() != 1 or st.counter("event_roll") != TRADE:
            continue
        rolled = st.counter("production_roll")
        for region, sage in SAGES.items():
            hit = int(region.rsplit("-", 1)[1]) == rolled
            assert st.counter("owls", sage) == (1 if hit else 0), sage
            assert stock(st, region) == min(3, before[region] + hit)
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_first_city_brings_the_manifesto(rivals):
    st = next(at_first_action(rivals))
    st.set_counter("stock", 3, "mountains-5")
    st.set_counter("stock", 3, "fields-4")
    st.refresh()
    assert st.zone("markers", 0) == []
    play(st, "city")
    assert st.counter("cities", 0) == 1 and st.counter("settlements", 0) == 1
    assert st.zone("markers", 0)[0].startswith("manifesto-of-humane-conduct")
    assert (stock(st, "mountains-5"), stock(st, "fields-4")) == (0, 1)


def wise_protection_position(st, peace):
    """Player 1 holds Wise Protection and a sage with 1 owl; player 2 holds an
    action attack card, and with `peace` the Grove of Peace and an owl."""
    st.place("wise-protection-1", "hand", owner=0)
    with_sage(st, "forest-1", 1)
    st.place("dispute-of-the-sages-1", "hand", owner=1)
    if peace:
        st.place("grove-of-peace", "expansions", owner=1)
        with_sage(st, "hills-5", 1)
    st.refresh()


def test_wise_protection_sends_a_hand_holding_an_attack_card_under_the_stacks(rivals):
    st = next(at_first_action(rivals))
    wise_protection_position(st, peace=False)
    hand = st.zone("hand", 1)
    play_card(st, "wise-protection")
    assert st.counter("owls", "peter-sage-of-the-forest") == 0  # it costs 1 owl
    while st.current_player() == 1:  # the opponent decides which stacks
        play(st, st.legal_actions()[0])
    assert st.zone("hand", 1) == []
    assert set(st.zone("stack1")[:len(hand)]) == set(hand)


def test_the_grove_of_peace_answers_an_attack_on_the_other_players_turn(rivals):
    outcomes = set()
    for st in at_first_action(rivals):
        wise_protection_position(st, peace=True)
        hand = st.zone("hand", 1)
        play_card(st, "wise-protection")
        # the attacker has paid; the defender is offered the grove
        assert st.counter("owls", "peter-sage-of-the-forest") == 0
        assert st.current_player() == 1 and st.legal_actions() == ["yes", "no"]
        assert "Grove of Peace" in st.decision().options[0].label
        play(st, "yes")
        fended = st.counter("fended") == 1
        assert st.counter("owls", SAGES["hills-5"]) == 0
        if fended:
            assert st.zone("hand", 1) == hand and st.current_player() == 0
        else:
            while st.current_player() == 1:
                play(st, st.legal_actions()[0])
            assert st.zone("hand", 1) == []
        outcomes.add(fended)
        if outcomes == {True, False}:
            break
    assert outcomes == {True, False}


def test_the_grove_of_freedom_looks_through_a_stack_in_private(rivals):
    st = next(at_first_action(rivals))
    st.place("grove-of-freedom", "expansions", owner=0)
    with_sage(st, "forest-1", 1)
    st.refresh()
    order = st.zone("stack1")
    play(st, "freedom", "1")
    # the player reads the cards of the stack; the other player does not
    names = [o.label for o in st.legal_options(viewer=0)]
    assert len(names) > 1 and all(n.startswith("take ") for n in names)
    assert {o.label for o in st.legal_options(viewer=1)} == {"a card you cannot see"}
    taken = st.legal_actions()[0]
    play(st, taken)
    after = st.zone("stack1")
    gone = [c for c in order if c not in after]  # (one copy of the card taken)
    assert len(gone) == 1 and gone[0].startswith(taken)
    assert after == [c for c in order if c != gone[0]]  # order unchanged
    assert any(c.startswith(taken) for c in st.zone("hand", 0))


def test_the_grove_of_great_foresight_puts_seen_cards_under_the_stack(rivals):
    st = next(at_first_action(rivals))
    st.place("grove-of-great-foresight", "expansions", owner=0)
    with_sage(st, "forest-1", 1)
    st.refresh()
    play(st, "foresight", "1")
    top3 = st.zone("stack1")[-3:]  # the top card last
    assert {o.label for o in st.legal_options(viewer=1)} - {"pass"} == {"a card you cannot see"}
    under = next(a for a in st.legal_actions() if top3[1].startswith(a))
    play(st, under, "pass")
    # the card put under is at the bottom; the others keep their order on top
    assert st.zone("stack1")[0] == top3[1]
    assert st.zone("stack1")[-2:] == [top3[0], top3[2]]
    assert st.counter("owls", "peter-sage-of-the-forest") == 0


def test_the_council_of_the_sages_gives_two_owls(rivals):
    for st in at_first_action(rivals):
        with_sage(st, "forest-1", 0)
        st.place("council-of-the-sages-1", "events")  # on top of the event card stack
        st.refresh()
        end_turn(st)
        if st.counter("event_roll") < 4 or st.zone("events")[0] != "council-of-the-sages-1":
            continue
        # player 1 (with a sage) chooses first; player 2 has no sage and is not asked
        assert st.current_player() == 0
        play(st, "2 owls")
        assert st.counter("owls", "peter-sage-of-the-forest") == 2
        return
    pytest.fail("no game drew the Council of the Sages")


def test_the_brigands_count_resources_and_not_owls(rivals):
    for st in at_first_action(rivals):
        # player 1: 7 resources and 3 owls; player 2: 8 resources
        for region, amount in zip(st.zone("regions", 0), (2, 1, 1, 1, 1, 1)):
            st.set_counter("stock", amount, region)
        for region, amount in zip(st.zone("regions", 1), (2, 2, 1, 1, 1, 1)):
            st.set_counter("stock", amount, region)
        with_sage(st, "forest-1", 3)
        st.refresh()
        end_turn(st)
        if st.counter("event_roll") != 0:
            continue
        rolled = st.counter("production_roll")
        for p, robbed in ((0, False), (1, True)):
            for region in st.zone("regions", p):
                if region.startswith(("pasture", "gold-field")):
                    produced = int(region.rsplit("-", 1)[1]) == rolled
                    assert stock(st, region) == (0 if robbed else 1) + produced, region
        return
    pytest.fail("no game rolled the Brigand Attack")


def test_cli_plays_a_game():
    result = CliRunner().invoke(cli, ["run", str(RIVALS), "--players", "2", "--seed", "5", "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert "production roll" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(AGENTS))
def test_every_bot_plays_to_the_end(rivals, bot):
    spec = "mcts:5" if bot == "mcts" else bot
    final = play_game(rivals, 2, 7, make_agents(spec, 2, 7))
    assert final.is_terminal()
    assert max(final.scores()) >= 12 or final.round == 30


@pytest.mark.slow
def test_simulate_200_games():
    result = CliRunner().invoke(cli, ["simulate", str(RIVALS), "-n", "200", "--players", "2", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "200 games" in result.output
