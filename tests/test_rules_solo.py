"""Scenario tests for rules/solo.rules, the official solo mode (seed 001), which
extends rules/catalyst.rules; one or more per rule, in the order of the solo
rules. Seat 0 is you, seat 1 the automaton (the "AI"). Every docstring quotes
the solo rules; every test drives the game through the decision API; cards are
picked by predicate, never by name (see tests/scenario.py)."""
from __future__ import annotations

import pytest

from interpreter.loader import load_game

from .conftest import RULES, checked_game, random_game
from .scenario import (
    Picker, building, clear_scoring, data, ended, fresh, give, give_building, ids, is_action_choice, keep_deck, labels,
    play,
)

SOLO = RULES / "solo.rules"
YOU, AI = 0, 1


@pytest.fixture(scope="session")
def solo():
    """The solo mode from the real rules/solo.rules, checking invariants after every action."""
    return checked_game(SOLO)


# ================================================================== PREPARATION
def test_deck_is_the_two_player_deck(solo):
    """"Follow the instructions for preparing a 2-player game": only the cards
    marked 2, of which 10 set aside and 5 on the board."""
    st = solo.new_initial_state(players=2, seed=3)
    in_play = st.zone("deck") + st.zone("final_stack") + st.zone("market")
    assert sorted(in_play) == sorted(ids(solo, "catalyst", lambda c: c.data["players"] <= 2))
    assert len(in_play) == 40  # the 2-player deck rules/cards.yaml is built for
    assert len(st.zone("final_stack")) == 10 and None not in st.zone("market")


def test_you_are_the_first_player(solo):
    """"Follow the instructions for preparing a 2-player game. You are the first
    player." (Starting coins as the first player: 4; the AI keeps no coins.)"""
    for seed in range(10):
        st = solo.new_initial_state(players=2, seed=seed)
        assert st.first == YOU and st.current_player() == YOU
        assert st.counter("coins", YOU) == 4 and st.counter("coins", AI) == 0


def test_four_buildings_of_costs_1_to_4_in_four_colours(solo):
    """"Return all building cards to the box with the exception of a building
    costing 1, one that costs 2, one that costs 3 and one that costs 4. They
    must all be of a different color and randomly selected.\""""
    layouts = set()
    for seed in range(20):
        st = solo.new_initial_state(players=2, seed=seed)
        supply = [(data(solo, b)["level"], data(solo, b)["colour"]) for b in st.zone("building_supply")]
        assert sorted(level for level, _ in supply) == [1, 2, 3, 4]
        assert len({colour for _, colour in supply}) == 4
        layouts.add(tuple(sorted(supply)))
    assert len(layouts) > 3, "the buildings do not vary with the seed"


@pytest.mark.parametrize("level, owned", [(1, 0), (2, 0), (3, 0), (4, 0), (3, 1)],
                         ids=["cost-1", "cost-2", "cost-3", "cost-4", "cost-3-owning-one"])
def test_building_price_is_printed_cost_plus_buildings_owned(solo, level, owned):
    """With one Building per colour, each costs the number printed on it; "you
    must also pay 1 additional coin for each Building you already own.\""""
    pick = Picker(solo)
    st = fresh(solo, seed=5)
    by_level = {data(solo, b)["level"]: b for b in st.zone("building_supply")}
    target = by_level[level]
    if owned:
        other = by_level[1]  # owning the "1" building's colour
        give_building(st, other, YOU)
    give(st, pick.effects("build"), YOU)
    st.set_counter("coins", 8, YOU)
    st.refresh()
    play(st, "activate_one", "1:build")
    assert labels(st)[target].endswith(f"for {level + owned} coins")
    play(st, target)
    assert st.where(target) == ("buildings", YOU)
    assert st.counter("coins", YOU) == 8 - (level + owned)


# ================================================================== YOUR TURNS
def test_only_you_take_turns(solo):
    """"Play multiple turns in a row until the game ends." The AI never decides."""
    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(2, 5))
    st.refresh()
    for turn in range(3):
        assert is_action_choice(st) and st.current_player() == YOU and st.turns == turn + 1
        play(st, "collect")

    deciders = set()
    for seed in range(4):
        final = random_game(solo, 2, seed, on_decision=lambda s, d, choice: deciders.add(d.player))
        assert final.is_terminal()
        assert final.turns == final.round  # one turn per round: only you play
    assert deciders == {YOU}


def test_collect_gives_the_ai_one_military(solo):
    """"Collect Contributions: you get coins as usual, and the AI gets a military
    power token.\""""
    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(1, 4) + pick.cost(4, 1))
    st.set_counter("coins", 0, YOU)
    st.refresh()
    play(st, "collect")
    assert st.counter("coins", YOU) == 4
    assert st.counter("military", AI) == 1 and st.counter("military", YOU) == 0
    assert st.counter("coins", AI) == 0


@pytest.mark.parametrize("space", range(1, 5), ids=[f"space{i}" for i in range(2, 6)])
def test_recruit_gives_the_ai_the_card_toward_the_deck(solo, space):
    """"Recruit a Catalyst: You recruit a Catalyst as usual, then take the first
    card to the left of the one you recruited and place it ... in the deck of
    AI's scoring pile.\""""
    pick = Picker(solo)
    market = pick.cost(1, 5)
    st = fresh(solo, market=market)
    st.set_counter("coins", 8, YOU)
    st.refresh()
    play(st, "recruit", market[space])
    assert st.where(market[space]) == ("playing_area", YOU)
    assert st.zone("scoring_pile", AI) == [market[space - 1]]
    assert None not in st.zone("market")  # the board is refilled as usual


def test_recruit_from_the_plus_one_space_gives_the_ai_the_deck_top(solo):
    """"If you recruit the first Catalyst to the right of the deck (the one on
    the space marked with "+1"), then place the top card of the draw pile ...
    in the scoring pile of the AI.\""""
    pick = Picker(solo)
    market = pick.cost(1, 5)
    st = fresh(solo, market=market)
    st.set_counter("coins", 8, YOU)
    st.refresh()
    top = st.zone("deck")[-1]
    play(st, "recruit", market[0])
    assert st.zone("scoring_pile", AI) == [top]
    assert set(market[1:]) <= set(st.zone("market"))


def test_activate_gives_the_ai_the_deck_top_and_effects_give_nothing(solo):
    """"Activate a Catalyst: activate a Catalyst as usual, then place the card on
    top of the drawing deck ... in the AI's scoring pile." and "When you get
    coins or actions to recruit a Catalyst through a Catalyst or a building's
    effects, and when you spend Chain activation tokens to activate Catalysts,
    the additions to the normal rules do not apply.\""""
    pick = Picker(solo)
    market = pick.cost(1, 5)
    recruiter, coiner = pick.effects("recruit"), pick.effects("coin")
    st = fresh(solo, market=market)
    give(st, recruiter, YOU)
    give(st, coiner, YOU)
    st.set_counter("chain_tokens", 1, YOU)
    st.set_counter("coins", 5, YOU)
    st.refresh()
    top = st.zone("deck")[-1]
    play(st, "activate_one", recruiter, "1:recruit", market[2])  # recruit through an effect
    play(st, coiner, "1:coin")                                   # a chain activation, coins through an effect
    assert is_action_choice(st)
    assert st.zone("scoring_pile", AI) == [top]
    assert st.counter("military", AI) == 0
    assert sorted(st.zone("scoring_pile", YOU)) == sorted([recruiter, coiner])


# ================================================================== THE END
def drop_final_stack(st):
    for cid in st.zone("final_stack"):
        st.place(cid, "box")


@pytest.mark.parametrize("action", ["recruit", "activate"])
def test_deck_runs_out_then_the_set_aside_stack_is_used(solo, action):
    """The 10 cards set aside in the 2-player preparation are part of the
    reserve (reading): when the deck runs out, whether its last card is put on
    the board or discarded to the AI, play goes on with them."""
    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(1, 5))
    keep_deck(st, 1)
    stack = st.zone("final_stack")
    st.set_counter("coins", 8, YOU)
    if action == "activate":
        give(st, pick.effects("coin"), YOU)
    st.refresh()
    if action == "recruit":
        play(st, "recruit", st.zone("market")[2])  # two gaps: the deck's last card and one from the stack
    else:
        play(st, "activate_one", "1:coin")  # the AI takes the deck's last card; no gap on the board
    drawn = 1 if action == "recruit" else 0
    assert not st.is_terminal() and is_action_choice(st)
    assert st.zone("final_stack") == [] and len(st.zone("deck")) == len(stack) - drawn
    assert set(st.zone("deck")) <= set(stack)
    assert None not in st.zone("market")


def test_game_ends_when_the_last_card_is_put_on_the_board(solo):
    """"When the last card of the reserve deck is discarded or put on the board,
    the game ends immediately" (no final round).\""""
    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(1, 5))
    keep_deck(st, 1)
    drop_final_stack(st)
    last = st.zone("deck")[0]
    st.set_counter("coins", 8, YOU)
    st.refresh()
    play(st, "recruit", st.zone("market")[2])
    assert st.is_terminal()
    assert last in st.zone("market")


def test_game_ends_when_the_last_card_goes_to_the_ai_from_the_plus_one_space(solo):
    """Recruiting from the "+1" space discards the reserve's last card to the AI:
    the game ends immediately."""
    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(1, 5))
    keep_deck(st, 1)
    drop_final_stack(st)
    last = st.zone("deck")[0]
    st.set_counter("coins", 8, YOU)
    st.refresh()
    play(st, "recruit", st.zone("market")[0])
    assert st.is_terminal() and st.zone("scoring_pile", AI) == [last]


def test_game_ends_immediately_after_an_activation_takes_the_last_card(solo):
    """"The game ends immediately": after the Activate action takes the last
    card, no Chain Activation token can be spent any more."""
    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(1, 5))
    keep_deck(st, 1)
    drop_final_stack(st)
    first, second = pick.effects("coin"), pick.effects("military")
    give(st, first, YOU)
    give(st, second, YOU)
    st.set_counter("chain_tokens", 1, YOU)
    st.refresh()
    play(st, "activate_one", first, "1:coin")
    assert st.is_terminal()
    assert st.counter("activated", second) == 0
    assert st.where(first) == ("playing_area", YOU)  # the end of the turn never comes


def test_the_immediate_end_skips_the_end_of_the_turn_and_says_why(solo):
    """Reading of "the game ends immediately" (written in rules/solo.rules):
    when the automaton takes the reserve's last card after an Activate action,
    the end-of-turn steps never run. The activated catalyst stays in play and
    is not scored, and coins above the limit of 8 are kept and scored (1 VP
    per 3). The end is told with the line of the rule and its comment."""
    from interpreter.events import tell_all

    pick = Picker(solo)
    st = fresh(solo, market=pick.cost(1, 5))
    keep_deck(st, 1)
    drop_final_stack(st)
    clear_scoring(st)
    coin = pick.effects("coin")
    give(st, coin, YOU)
    st.set_counter("coins", 8, YOU)
    st.refresh()
    st.events = []
    play(st, "activate_one", "1:coin")  # the only catalyst in play is activated without asking
    assert st.is_terminal()
    assert st.counter("coins", YOU) == 9  # not cut to the limit
    assert st.where(coin) == ("playing_area", YOU) and st.counter("activated", coin) == 1
    assert st.score_breakdown(YOU)["Coins"] == 3 and st.score_breakdown(YOU)["Catalysts"] == 0
    told = [text for _, text in tell_all(st, st.events, YOU)]
    name = data(solo, coin)["name"]
    assert told[:2] == ["player 1: Activate a Catalyst", f"player 1: activate {name} (the only option)"]
    assert told[-2] == "triggered: when deck becomes empty"
    ending, _, where = told[-1].rpartition(" (")
    assert ending == ("the game ends now: The reserve is empty: the game ends at once; "
                      "the rest of this turn is not played.")
    assert where.startswith(str(SOLO)) or where.split(":")[0].endswith("solo.rules")


# ================================================================== SCORING
def test_you_count_your_vp_as_usual(solo):
    """"Count your VPs as usual, including the goal card's points.\""""
    pick = Picker(solo)
    st = fresh(solo)
    clear_scoring(st)
    give(st, pick.cost(3, 1)[0], YOU, "scoring_pile")
    goal = st.zone("goals")[0]
    flat = [name for name, entry in data(solo, goal)["score"].items() if entry == "4"]
    if flat:
        give_building(st, building(solo, flat[0]), YOU)
    st.set_counter("coins", 7, YOU)
    st.set_counter("military", 3, YOU)
    assert st.score_breakdown(YOU) == {
        "Catalysts": 3, "Buildings": 4 if flat else 0, "Military": 1, "Majority": 6, "Coins": 2, "Difficulty": 0}


@pytest.mark.parametrize("difficulty, bonus", [(None, 20), ("easy", 10), ("standard", 20), ("advanced", 30)],
                         ids=["default-standard", "easy", "standard", "advanced"])
def test_ai_score(solo, difficulty, bonus):
    """"The AI instead obtains the VPs written on the cards in its scoring pile,
    the VPs provided by each pair of its military power tokens (and for the
    majority), and additional VPs depending on the difficulty level chosen:
    easy (+10 PV), standard (+20 PV), advanced (+30 PV).\""""
    game = solo if difficulty is None else load_game(SOLO, {"difficulty": f'"{difficulty}"'})
    pick = Picker(game)
    st = fresh(game)
    clear_scoring(st)
    for cid in pick.cost(2, 1) + pick.cost(5, 1):
        give(st, cid, AI, "scoring_pile")
    st.set_counter("military", 5, AI)
    st.set_counter("military", 1, YOU)
    assert st.score_breakdown(AI) == {
        "Catalysts": 7, "Buildings": 0, "Military": 2, "Majority": 6, "Coins": 0, "Difficulty": bonus}
    assert st.score_breakdown(YOU)["Difficulty"] == 0 and st.score_breakdown(YOU)["Majority"] == 3
    assert st.scores()[AI] == 7 + 2 + 6 + bonus


def test_ai_never_scores_buildings_or_coins(solo):
    """The AI has no Buildings and no coins: those terms give it nothing."""
    for seed in range(4):
        st = random_game(solo, 2, seed)
        assert st.zone("buildings", AI) == [] and st.counter("coins", AI) == 0
        assert st.score_breakdown(AI)["Buildings"] == 0 and st.score_breakdown(AI)["Coins"] == 0


@pytest.mark.parametrize("extra, winners", [(0, [AI]), (1, [YOU])], ids=["tie-goes-to-the-ai", "one-more-wins"])
def test_you_win_only_with_at_least_one_vp_more(solo, extra, winners):
    """"If you scored at least 1 VP more than the AI, you won – otherwise, try
    harder!" A tie goes to the AI, even with more VP in your scoring pile."""
    pick = Picker(solo)
    st = ended(solo, final_stack=False)
    assert st.is_terminal()
    for cid in pick.cost(5, 4):  # 20 VP, all in your scoring pile
        give(st, cid, YOU, "scoring_pile")
    st.set_counter("coins", 3 * extra, YOU)
    assert st.scores() == [20 + extra, 20]  # the AI: the standard difficulty bonus only
    assert st.winners() == winners
    assert st.returns() == [1.0 if p in winners else 0.0 for p in (YOU, AI)]
