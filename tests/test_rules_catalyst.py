"""Scenario tests for rules/catalyst.rules: one or more per rule of the Catalyst
rulebook (seed 000), in the order of the rulebook's sections. Every docstring
quotes the rulebook sentence the test checks, and every test drives the game
through the decision API from an arranged position. Cards are picked by
predicate, never by name (see tests/scenario.py)."""
from __future__ import annotations

from collections import Counter

import pytest

from .conftest import random_game
from .scenario import (
    COUNTER, MODIFIER, SIMPLE, Picker, building, card_of, cards, clear_scoring, collect_until_over, counters, data,
    effects, empty_the_deck, ended, fresh, give, give_building, host_for, ids, is_action_choice, item_id, keep_deck,
    labels, play, reference_goal_points, resolve_only, set_goal, shows, simple_items,
)

PLAYERS = pytest.mark.parametrize("players", [2, 3, 4], ids=["2p", "3p", "4p"])


def two_simple_items(c) -> bool:
    """Predicate: two different plain effects, the second not a chain token
    (a token taken would be discarded at the end of the turn)."""
    items = effects(c)
    return simple_items(c) and len(set(items)) == len(items) == 2 and items[1] != "chain"


# ================================================================== PREPARATION
@pytest.mark.parametrize("players, size", [(2, 40), (3, 52), (4, 60)], ids=["2p", "3p", "4p"])
def test_deck_uses_only_cards_marked_for_the_player_count(catalyst, players, size):
    """"Remove all the Catalyst cards that show in their lower left corner a
    number higher than the player count ... With 4 players, use all the cards.\""""
    st = catalyst.new_initial_state(players=players, seed=3)
    in_play = [c for zone in ("deck", "final_stack", "market") for c in st.zone(zone) if c]
    assert sorted(in_play) == sorted(ids(catalyst, "catalyst", lambda c: c.data["players"] <= players))
    assert len(in_play) == size  # the deck sizes rules/cards.yaml is built for
    if players == 4:
        assert sorted(in_play) == sorted(ids(catalyst, "catalyst"))


@PLAYERS
def test_setup_final_stack_market_deck_and_goal(catalyst, players):
    """"Deal 10 cards face down in a stack ... Place the rest of the deck on the
    left side of the board, then draw the top 5 cards and lay them face up ...
    place one [Goal card] face up near the board. Remove the rest.\""""
    st = catalyst.new_initial_state(players=players, seed=5)
    used = len(ids(catalyst, "catalyst", lambda c: c.data["players"] <= players))
    assert len(st.zone("final_stack")) == 10
    assert len(st.zone("market")) == 5 and None not in st.zone("market")
    assert len(st.zone("deck")) == used - 15
    goals = ids(catalyst, "goal")
    assert len(st.zone("goals")) == 1
    assert sorted(st.zone("goals") + st.zone("goal_deck")) == sorted(goals)
    # the goal cards out of play are hidden from everybody
    assert st.observation(0)["zones"]["goal_deck"] == {"count": len(goals) - 1}


@pytest.mark.parametrize("players, levels", [(2, {1, 3}), (3, {1, 2, 3}), (4, {1, 2, 3, 4})], ids=["2p", "3p", "4p"])
def test_buildings_by_player_count(catalyst, players, levels):
    """"For a 3-player game, only use the "1", "2", and "3" Buildings; for 2
    players, use only Buildings "1" and "3"—remove the others.\""""
    st = catalyst.new_initial_state(players=players, seed=2)
    colours = {c.data["colour"] for c in cards(catalyst, "building")}
    supply = [(data(catalyst, b)["colour"], data(catalyst, b)["level"]) for b in st.zone("building_supply")]
    assert sorted(supply) == sorted((colour, level) for colour in colours for level in levels)


def test_goal_card_is_drawn_at_random(catalyst):
    """"Shuffle the Goal cards and place one face up near the board.\""""
    drawn = {catalyst.new_initial_state(players=2, seed=seed).zone("goals")[0] for seed in range(20)}
    assert len(drawn) > 1


@PLAYERS
def test_starting_coins_by_position_in_turn_order(catalyst, players):
    """"Choose a starting player at random ... Player Order 1 2 3 4 —
    Starting Coins 4 5 5 6.\""""
    firsts = set()
    for seed in range(12):
        st = catalyst.new_initial_state(players=players, seed=seed)
        firsts.add(st.first)
        assert st.current_player() == st.first
        assert [st.counter("coins", (st.first + k) % players) for k in range(players)] == [4, 5, 5, 6][:players]
    assert len(firsts) > 1, "the starting player never changes with the seed"


# ================================================================== PLAYING THE GAME
def test_three_actions_and_only_one_per_turn(catalyst):
    """"On your turn, you must choose and perform only one of the following
    actions: Collect Contributions, Recruit a Catalyst, Activate a Catalyst.\""""
    pick = Picker(catalyst)
    st = fresh(catalyst, market=pick.cost(2, 5))
    me = st.current_player()
    give(st, pick.effects("coin"), me)
    st.refresh()
    assert st.legal_actions() == ["collect", "recruit", "activate_one"]
    play(st, "collect")
    assert is_action_choice(st) and st.current_player() == (me + 1) % 2


def test_actions_offered_only_when_possible(catalyst):
    """Recruit needs a card on the board you can pay for; Activate needs a
    Catalyst in front of you that is not yet activated."""
    pick = Picker(catalyst)
    st = fresh(catalyst, market=pick.cost(3, 5))
    me = st.current_player()
    give(st, pick.effects("coin"), me)
    st.set_counter("coins", 1, me)
    st.refresh()
    assert st.legal_actions() == ["collect", "activate_one"]
    st = fresh(catalyst, market=pick.cost(3, 5))
    st.refresh()
    assert st.legal_actions() == ["collect", "recruit"]


# ================================================================== 1. COLLECT CONTRIBUTIONS
@pytest.mark.parametrize("space", [0, 3], ids=["on the +1 space", "on a -1 space"])
def test_collect_takes_the_highest_printed_cost(catalyst, space):
    """"Take a number of coins equal to the highest cost visible on the Catalyst
    cards on the board. Note: Costs or discounts based on the card positions are
    not applied.\""""
    pick = Picker(catalyst)
    market = pick.cost(1, 5)
    market[space] = pick.cost(5, 1)[0]
    st = fresh(catalyst, market=market)
    me = st.current_player()
    st.set_counter("coins", 0, me)
    st.refresh()
    assert labels(st)["collect"] == "Collect Contributions: take 5 coins"
    play(st, "collect")
    assert st.counter("coins", me) == 5


def rulebook_board(game):
    """The rulebook's example board: printed costs 3, 1, 2, 2, 3 (Collect takes
    3 coins; the actual costs are 4, 1, 2, 1, 2)."""
    pick = Picker(game)
    return [pick.cost(cost, 1)[0] for cost in (3, 1, 2, 2, 3)]


def test_collect_rulebook_example(catalyst):
    """"Example: In this case, you take 3 coins.\""""
    st = fresh(catalyst, market=rulebook_board(catalyst))
    me = st.current_player()
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "collect")
    assert st.counter("coins", me) == 3


# ================================================================== 2. RECRUIT A CATALYST
@pytest.mark.parametrize("space, price", list(enumerate([4, 1, 2, 1, 2])), ids=[f"space{i}" for i in range(1, 6)])
def test_recruit_pays_cost_plus_space_modifier(catalyst, space, price):
    """"Pay the Catalyst's cost ... counting any additional costs or discounts
    based on the position of the card on the board (+1, 0, -1). Example: the
    actual costs of the cards, from left to right, are 4, 1, 2, 1, 2.\""""
    market = rulebook_board(catalyst)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    st.set_counter("coins", 6, me)
    st.refresh()
    play(st, "recruit")
    assert labels(st)[market[space]].endswith(f"from space {space + 1} for {price} coins")
    play(st, market[space])
    assert st.counter("coins", me) == 6 - price
    assert st.where(market[space]) == ("playing_area", me)


def test_recruit_price_never_below_zero(catalyst):
    """Reading (min_price): a discount makes a "1" card free, never pays you."""
    pick = Picker(catalyst)
    market = pick.cost(1, 5)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "recruit")
    assert sorted(st.legal_actions()) == sorted(market[3:])
    play(st, market[4])
    assert st.counter("coins", me) == 0 and st.where(market[4]) == ("playing_area", me)


def test_recruit_offers_only_affordable_cards(catalyst):
    """"You must discard the number of coins shown" — with 2 coins only the
    "3" cards on the -1 spaces can be paid."""
    pick = Picker(catalyst)
    market = pick.cost(3, 5)
    st = fresh(catalyst, market=market)
    st.set_counter("coins", 2, st.current_player())
    st.refresh()
    play(st, "recruit")
    assert sorted(st.legal_actions()) == sorted(market[3:])


def test_recruit_must_occupy_an_empty_building(catalyst):
    """"If you have an empty Building in front of you ..., you must occupy the
    Building with the Catalyst you just recruited.\""""
    pick = Picker(catalyst)
    market = pick.cost(2, 5)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    b = building(catalyst, "Cathedral")
    give_building(st, b, me)
    st.refresh()
    play(st, "recruit", market[1])
    assert st.where(market[1]) == ("occupant", b)
    assert st.zone("playing_area", me) == []


def test_recruit_chooses_among_several_empty_buildings(catalyst):
    """"If you have several empty Buildings, you choose which one to occupy.\""""
    pick = Picker(catalyst)
    market = pick.cost(2, 5)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    b1, b2 = building(catalyst, "Cathedral"), building(catalyst, "Academy")
    give_building(st, b1, me)
    give_building(st, b2, me)
    st.refresh()
    play(st, "recruit", market[1])
    assert sorted(st.legal_actions()) == sorted([b1, b2])
    play(st, b2)
    assert st.where(market[1]) == ("occupant", b2) and st.zone("occupant", b1) == [None]


def test_recruit_without_empty_building_goes_to_playing_area(catalyst):
    """"If you have no empty Buildings, place the Catalyst by itself in your
    playing area." (Each Building may only host one Catalyst at a time.)"""
    pick = Picker(catalyst)
    market = pick.cost(2, 5)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    b = building(catalyst, "Cathedral")
    give_building(st, b, me, occupant=pick.cost(4, 1)[0])
    st.refresh()
    play(st, "recruit", market[1])
    assert st.where(market[1]) == ("playing_area", me)


# ================================================================== 3. ACTIVATE A CATALYST
def test_activate_resolves_effects_in_any_order(catalyst):
    """"Resolve any or all of the effects shown on the card, in any order you choose.\""""
    pick = Picker(catalyst)
    cid = pick.where(two_simple_items)
    first, second = effects(card_of(catalyst, cid))
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, cid, me)
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one")
    assert st.legal_actions() == [f"1:{first}", f"2:{second}", "done"]
    before = counters(st, me)
    play(st, f"2:{second}")
    assert st.legal_actions() == [f"1:{first}", "done"]
    play(st, f"1:{first}")
    after = counters(st, me)  # the building's yes/no question is pending
    assert {k: after[k] - before[k] for k in after} == {COUNTER[e]: int(e in (first, second)) for e in SIMPLE}


@pytest.mark.parametrize("resolve_second", [False, True], ids=["none", "only-some"])
def test_activate_may_skip_effects(catalyst, resolve_second):
    """"You are not forced to use all of the effects shown: you may execute only
    some, or even none of them." The card is activated all the same."""
    cid = Picker(catalyst).where(two_simple_items)
    first, second = effects(card_of(catalyst, cid))
    st = fresh(catalyst)
    me = st.current_player()
    give(st, cid, me)
    st.set_counter("coins", 0, me)
    st.refresh()
    before = counters(st, me)
    play(st, "activate_one")
    if resolve_second:
        play(st, f"2:{second}")
        assert st.legal_actions() == [f"1:{first}", "done"]
    play(st, "done")
    after = counters(st, me)
    assert {k: after[k] - before[k] for k in after} == {COUNTER[e]: int(resolve_second and e == second) for e in SIMPLE}
    assert st.where(cid) == ("scoring_pile", me)


@pytest.mark.parametrize("use, coins", [("yes", 2), ("no", 0)], ids=["use", "decline"])
def test_building_effect_after_the_catalyst_and_optional(catalyst, use, coins):
    """"If you activate a Catalyst in a Building, after you resolve all of the
    effects of the Catalyst card you may also use the Building's effects."
    (Marketplace: take 2 coins; "using a Building's effect is always optional".)"""
    pick = Picker(catalyst)
    cid = pick.effects("military")
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, cid, me, "Marketplace")
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one")
    assert "1:military" in st.legal_actions()  # the catalyst's effects come first
    play(st, "1:military")
    assert st.legal_actions() == ["yes", "no"]
    play(st, use)
    assert st.counter("coins", me) == coins and st.counter("military", me) == 1


def test_no_building_effect_for_a_catalyst_outside_buildings(catalyst):
    """Only "a Catalyst in a Building" gives its Building's effects."""
    pick = Picker(catalyst)
    free, hosted = pick.effects("military"), pick.cost(4, 1)[0]
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, hosted, me, "Marketplace")
    give(st, free, me)
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one", free, "1:military")
    assert is_action_choice(st) and st.current_player() != me  # no yes/no question: the turn is over
    assert st.counter("coins", me) == 0


def test_activated_catalysts_go_face_down_to_the_scoring_pile(catalyst):
    """"At the end of your turn ..., place the activated Catalyst card (or
    cards) face down in your own Scoring Pile.\""""
    pick = Picker(catalyst)
    cid = pick.effects("coin")
    st = fresh(catalyst)
    me, other = st.current_player(), 1 - st.current_player()
    give(st, cid, me)
    st.refresh()
    play(st, "activate_one", "1:coin")
    assert st.where(cid) == ("scoring_pile", me)
    assert st.counter("activated", cid) == 0
    assert st.observation(me)["zones"]["scoring_pile"][me] == [cid]
    # face down: the other player sees one card there, and remembers which, having seen it go
    assert st.observation(other)["zones"]["scoring_pile"][me] == {"count": 1, "known": [cid]}


def test_free_catalysts_fill_empty_buildings_at_end_of_turn(catalyst):
    """"If you now have one or more empty Buildings and Catalysts that are not in
    Buildings, you must move those Catalysts into your empty Buildings.\""""
    pick = Picker(catalyst)
    hosted = pick.effects("coin")
    free1, free2 = pick.cost(4, 2)
    st = fresh(catalyst)
    me = st.current_player()
    b = host_for(st, hosted, me)
    give(st, free1, me)
    give(st, free2, me)
    st.refresh()
    play(st, "activate_one", hosted, "done", "no")
    assert sorted(st.legal_actions()) == sorted([free1, free2])  # you choose which one moves in
    play(st, free2)
    assert st.zone("occupant", b) == [free2] and st.zone("playing_area", me) == [free1]
    assert st.current_player() != me


# ================================================================== CHAIN ACTIVATION TOKENS
def test_chain_tokens_activate_catalysts_not_yet_activated(catalyst):
    """"After taking your action for your turn, you may spend one of your Chain
    Activation tokens to activate one of your Catalyst cards which has not yet
    been activated this turn ... You may repeat this any number of times.\""""
    pick = Picker(catalyst)
    starter = pick.effects("chain")
    b, c = pick.effects("coin"), pick.effects("military")
    st = fresh(catalyst)
    me = st.current_player()
    for cid in (starter, b, c):
        give(st, cid, me)
    st.set_counter("chain_tokens", 1, me)
    st.refresh()
    assert "pass" not in st.legal_actions()  # tokens are spent only after the action
    play(st, "activate_one", starter, "1:chain")
    assert st.counter("chain_tokens", me) == 2
    assert sorted(st.legal_actions()) == sorted([b, c, "pass"])
    assert labels(st)[b].startswith("spend a chain token to activate ")
    play(st, b)
    assert st.counter("chain_tokens", me) == 1
    play(st, "1:coin")
    assert sorted(st.legal_actions()) == sorted([c, "pass"])
    play(st, c, "1:military")
    assert sorted(st.zone("scoring_pile", me)) == sorted([starter, b, c])


def test_unused_chain_tokens_are_discarded(catalyst):
    """"At the end of your turn, you must always discard any unused Chain
    Activation tokens you have left—you cannot save them for a later turn.\""""
    pick = Picker(catalyst)
    starter, spare = pick.effects("chain"), pick.effects("coin")
    st = fresh(catalyst)
    me = st.current_player()
    give(st, starter, me)
    give(st, spare, me)
    st.set_counter("chain_tokens", 2, me)  # several tokens: every one of them goes
    st.refresh()
    play(st, "activate_one", starter, "1:chain")
    assert st.counter("chain_tokens", me) == 3
    play(st, "pass")
    assert st.current_player() != me and st.counter("chain_tokens", me) == 0


# ================================================================== THE END OF YOUR TURN
@pytest.mark.parametrize("space", range(5), ids=[f"space{i}" for i in range(1, 6)])
def test_board_slides_away_from_the_deck_and_refills(catalyst, space):
    """"Slide the other cards to the right until there are no gaps, then draw new
    cards from the deck to fill the board back up to 5 cards.\""""
    pick = Picker(catalyst)
    market = pick.cost(1, 5)
    st = fresh(catalyst, market=market)
    top = st.zone("deck")[-1]
    play(st, "recruit", market[space])
    assert st.zone("market") == [top] + market[:space] + market[space + 1:]


def test_board_refills_two_gaps(catalyst):
    """Two Catalysts recruited in one turn: the others slide right, in order,
    and two new cards from the deck fill the board."""
    pick = Picker(catalyst)
    market = pick.cost(1, 5)
    recruiter = pick.effects("recruit")
    st = fresh(catalyst, market=market)
    me = st.current_player()
    give(st, recruiter, me)
    st.set_counter("chain_tokens", 1, me)
    st.refresh()
    top_two = st.zone("deck")[-2:]
    play(st, "recruit", market[1], recruiter, "1:recruit", market[3])
    assert st.current_player() != me
    assert sorted(st.zone("market")[:2]) == sorted(top_two)
    assert st.zone("market")[2:] == [market[0], market[2], market[4]]


@pytest.mark.parametrize("start, during, end", [(7, 12, 8), (3, 8, 8), (2, 7, 7)], ids=["over", "exactly 8", "under"])
def test_coin_limit_only_at_end_of_turn(catalyst, start, during, end):
    """"If you now have more than 8 coins, you must discard down to 8. This limit
    applies only at the end of your turn; going above this limit during your
    turn is fine.\""""
    pick = Picker(catalyst)
    market = pick.cost(1, 4) + pick.cost(5, 1)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    give(st, pick.effects("coin"), me)
    st.set_counter("coins", start, me)
    st.set_counter("chain_tokens", 1, me)  # keeps the turn open after the action
    st.refresh()
    play(st, "collect")
    assert st.counter("coins", me) == during
    play(st, "pass")
    assert st.counter("coins", me) == end


# ================================================================== THE END OF THE GAME
@pytest.mark.parametrize("players, before, turns", [
    (2, 0, 4), (2, 1, 4), (2, 3, 6), (3, 0, 6), (3, 2, 6), (4, 1, 8), (4, 3, 8), (4, 5, 12),
], ids=["2p-first-turn", "2p-last-of-round", "2p-round-2", "3p-first", "3p-last-of-round",
        "4p-second", "4p-last-of-round", "4p-round-2"])
def test_deck_runs_out_then_round_ends_then_final_round(catalyst, players, before, turns):
    """"When the deck of Catalyst cards runs out, ... use that stack to continue
    playing as normal. When the current round is finished (with the player to
    the right of the starting player taking the last turn so that each player
    has had the same number of turns), the Final Round begins. Each player takes
    one last turn, and then the game ends.\""""
    pick = Picker(catalyst)
    st = fresh(catalyst, players, seed=4, market=pick.cost(1, 5))
    keep_deck(st, 1)
    st.refresh()
    seats = []
    for _ in range(before):
        seats.append(st.current_player())
        play(st, "collect")
    seats.append(st.current_player())
    stack = st.zone("final_stack")
    empty_the_deck(st)
    assert not st.is_terminal()
    assert st.zone("final_stack") == [] and sorted(st.zone("deck")) == sorted(stack)
    seats += collect_until_over(st)
    assert len(seats) == turns
    assert set(Counter(seats).values()) == {turns // players}
    assert seats[-1] == (st.first - 1) % players


def test_score_catalysts_in_the_scoring_pile_only(catalyst):
    """"Each Catalyst card in your Scoring Pile is worth its value in VP. Any
    Catalysts you have in play that are not in your Scoring Pile are worth 0 VP.\""""
    pick = Picker(catalyst)
    st = fresh(catalyst)
    clear_scoring(st)
    pile = pick.cost(1, 1) + pick.cost(3, 1) + pick.cost(5, 1)
    for cid in pile:
        give(st, cid, 0, "scoring_pile")
    give(st, pick.cost(4, 1)[0], 0)
    give_building(st, building(catalyst, "Academy"), 0, pick.cost(2, 1)[0])
    assert st.score_breakdown(0)["Catalysts"] == 9


def test_score_buildings_by_the_goal_card(catalyst):
    """"Each Building you own may give you additional VP (as shown on the Goal
    card). Cards in your Scoring Pile may be used to score for multiple
    Buildings." Every entry of every goal card, alone and all four together,
    checked against the rulebook's list of goal kinds."""
    st = fresh(catalyst)
    clear_scoring(st)
    pile = cards(catalyst, "catalyst")[::7]
    for c in pile:
        give(st, c.id, 0, "scoring_pile")
    st.set_counter("coins", 7, 0)
    st.set_counter("military", 3, 0)  # a counter sharing its name with an effect must not matter
    for goal in cards(catalyst, "goal"):
        set_goal(st, goal.id)
        for name, entry in goal.data["score"].items():
            for b in st.zone("buildings", 0):
                st.place(b, "box")
            give_building(st, building(catalyst, name), 0)
            assert st.score_breakdown(0)["Buildings"] == reference_goal_points(entry, pile, 7), (goal.data["name"], name)
        for name in goal.data["score"]:
            give_building(st, building(catalyst, name), 0)
        assert st.score_breakdown(0)["Buildings"] == sum(
            reference_goal_points(entry, pile, 7) for entry in goal.data["score"].values()), goal.data["name"]


@pytest.mark.parametrize("military, points", [(0, 0), (1, 0), (2, 1), (5, 2)])
def test_score_one_vp_per_two_military(catalyst, military, points):
    """"You score 1 VP for every two Military Power tokens you have.\""""
    st = fresh(catalyst)
    clear_scoring(st)
    st.set_counter("military", military, 0)
    assert st.score_breakdown(0)["Military"] == points


@pytest.mark.parametrize("military, awards", [
    ([5, 3, 1], [6, 3, 1]),
    ([5, 5, 1], [4.5, 4.5, 1]),
    ([5, 3, 3], [6, 2, 2]),
    ([3, 3, 3], [3.3333] * 3),
    ([5, 5, 3, 0], [4.5, 4.5, 1, 0]),
    ([4, 3, 2, 1], [6, 3, 1, 0]),
    ([5, 3, 3, 3], [6, 1.3333, 1.3333, 1.3333]),
    ([2, 2, 2, 1], [3.3333, 3.3333, 3.3333, 0]),
    ([2, 0, 0], [6, 0, 0]),
    ([1, 1, 0, 0], [4.5, 4.5, 0, 0]),
    ([0, 0], [0, 0]),
    ([2, 2], [4.5, 4.5]),
    ([1, 0], [6, 0]),
], ids=["plain", "tied-first", "tied-second", "all-tied", "4p-tied-first", "4p-fourth-gets-nothing",
        "4p-three-tied-second", "4p-three-tied-first", "zero-not-ranked", "zeros-share-nothing", "nobody", "2p-tie",
        "2p-one-token-ranks"])
def test_score_military_majority(catalyst, military, awards):
    """"The player who has the most Military Power tokens scores an additional 6
    VP, the second most scores 3 VP, and the third most scores 1 VP. Ties are
    scored by adding the next position and dividing the result equally among
    the tied players. (In order to be ranked, you need to have at least 1 token.)\""""
    st = fresh(catalyst, players=len(military))
    clear_scoring(st)
    for p, m in enumerate(military):
        st.set_counter("military", m, p)
    assert [st.score_breakdown(p)["Majority"] for p in range(len(military))] == awards  # shares rounded to 4 places


@pytest.mark.parametrize("coins, points", [(0, 0), (2, 0), (3, 1), (8, 2)])
def test_score_one_vp_per_three_coins(catalyst, coins, points):
    """"You score 1 VP for every 3 coins you have.\""""
    st = fresh(catalyst)
    clear_scoring(st)
    st.set_counter("coins", coins, 0)
    assert st.score_breakdown(0)["Coins"] == points


def test_most_vp_wins(catalyst):
    """"The player with the most VP wins!\""""
    pick = Picker(catalyst)
    st = ended(catalyst)
    give(st, pick.cost(2, 1)[0], 1, "scoring_pile")
    assert st.is_terminal() and st.winners() == [1] and st.returns() == [0.0, 1.0]


def test_tie_broken_by_scoring_pile_vp(catalyst):
    """"In case of a tie, the winner among the tied players is the one who has
    the highest number of VP in their Scoring Pile.\""""
    pick = Picker(catalyst)
    st = ended(catalyst)
    give(st, pick.cost(5, 1)[0], 0, "scoring_pile")  # 5 VP, all from the pile
    give(st, pick.cost(3, 1)[0], 1, "scoring_pile")  # 3 VP + 6 coins = 5 VP
    st.set_counter("coins", 6, 1)
    assert st.scores() == [5, 5]
    assert st.winners() == [0] and st.returns() == [1.0, 0.0]


def test_tie_still_tied_is_shared(catalyst):
    """"If they are still tied, the victory is shared.\""""
    pick = Picker(catalyst)
    st = ended(catalyst)
    a, b = pick.cost(4, 2)
    give(st, a, 0, "scoring_pile")
    give(st, b, 1, "scoring_pile")
    assert st.scores() == [4, 4]
    assert st.winners() == [0, 1] and st.returns() == [0.5, 0.5]


# ================================================================== THE CATALYSTS
@pytest.mark.parametrize("effect", SIMPLE)
def test_effect_takes_one(catalyst, effect):
    """"Take 1 coin." / "Take 1 Chain Activation token." / "Take 1 Military Power token.\""""
    pick = Picker(catalyst)
    cid = pick.effects(effect)
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, cid, me)
    st.set_counter("coins", 0, me)
    st.refresh()
    before = counters(st, me)
    play(st, "activate_one", f"1:{effect}")
    after = counters(st, me)  # the building's question is pending: still my turn
    assert {k: after[k] - before[k] for k in after} == {COUNTER[e]: int(e == effect) for e in SIMPLE}


def test_effect_recruit_pays_the_cost(catalyst):
    """"Recruit 1 Catalyst. You still need to pay the costs.\""""
    pick = Picker(catalyst)
    market = pick.cost(2, 5)
    st = fresh(catalyst, market=market)
    me = st.current_player()
    give(st, pick.effects("recruit"), me)
    st.set_counter("coins", 5, me)
    st.refresh()
    play(st, "activate_one", "1:recruit", market[0])
    assert st.counter("coins", me) == 5 - (2 + MODIFIER[0])
    assert st.where(market[0]) == ("playing_area", me)


def test_effect_build_acquires_a_building(catalyst):
    """"Acquire 1 Building: see The Buildings.\""""
    st, me, _ = acquire_position(catalyst, 4)
    st.refresh()
    target = building(catalyst, "Academy")
    play(st, "activate_one", "1:build", target)
    assert st.where(target) == ("buildings", me) and st.counter("coins", me) == 7


def test_slash_means_or(catalyst):
    """"A slash means "or". So, if a card shows coin/chain, you can either take 1
    coin or 1 Chain Activation token.\""""
    def one_simple_slash(c):
        items = effects(c)
        return len(items) == 1 and "/" in items[0] and all(a in SIMPLE for a in items[0].split("/"))
    cid = Picker(catalyst).where(one_simple_slash)
    a, b = effects(card_of(catalyst, cid))[0].split("/")
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, cid, me)
    st.refresh()
    play(st, "activate_one")
    assert st.legal_actions() == [f"1:{a}", f"1:{b}", "done"]
    before = counters(st, me)
    play(st, f"1:{a}")
    assert st.legal_actions() == ["yes", "no"]  # the other half is gone: the card is resolved
    after = counters(st, me)
    assert {k: after[k] - before[k] for k in after} == {COUNTER[e]: int(e == a) for e in SIMPLE}
    play(st, "no")
    assert st.current_player() != me


# ================================================================== THE BUILDINGS
def acquire_position(game, players, coins=8, pick=None):
    """The first player holds a catalyst whose only effect is 'build' (the
    activator) and `coins` coins. Returns the state, the player and the activator."""
    pick = pick or Picker(game)
    st = fresh(game, players)
    me = st.current_player()
    activator = pick.effects("build")
    give(st, activator, me)
    st.set_counter("coins", coins, me)
    return st, me, activator


@pytest.mark.parametrize("players, taken, owned, price", [
    (2, 0, 0, 1), (2, 1, 0, 3), (3, 1, 0, 2), (3, 2, 0, 3), (4, 3, 0, 4), (2, 0, 2, 3), (2, 1, 1, 4), (4, 2, 1, 4),
], ids=["2p-first", "2p-second-costs-2-more", "3p-second", "3p-third", "4p-fourth", "2p-owning-two",
        "2p-second-owning-one",
        "rulebook-third-marketplace-as-second-building"])
def test_acquire_building_price(catalyst, players, taken, owned, price):
    """"The first Building card in each stack always costs 1 coin. Each subsequent
    Building of the same type costs 1 additional coin ... (except in a 2-player
    game: it costs 2 additional coins). You must also pay 1 additional coin for
    each Building you already own. Example: To acquire the third Marketplace
    (cost: 3 coins) as her second Building, Elizabeth must pay a total of 4 coins.\""""
    st, me, _ = acquire_position(catalyst, players)
    stack = [b for b in st.zone("building_supply") if data(catalyst, b)["name"] == "Marketplace"]
    stack.sort(key=lambda b: data(catalyst, b)["level"])
    for b in stack[:taken]:
        give_building(st, b, (me + 1) % players)
    for name in ["Academy", "Barracks"][:owned]:
        give_building(st, building(catalyst, name), me)
    st.refresh()
    play(st, "activate_one", "1:build")
    level = data(catalyst, stack[taken])["level"]
    assert labels(st)[stack[taken]] == f"acquire Marketplace (level {level}) for {price} coins"
    play(st, stack[taken])
    assert st.where(stack[taken]) == ("buildings", me)
    assert st.counter("coins", me) == 8 - price


def test_the_table_shows_what_a_building_under_the_top_will_cost(catalyst):
    """The table shows the top building of a stack at its price, and one
    under it at the price it will have once on top: a 2-player Marketplace 3
    "later costs 3", which is what it costs when the Marketplace 1 is gone."""
    from interpreter.view import table_view

    st, me, _ = acquire_position(catalyst, 2)

    def supply():
        return dict(table_view(st, me)["shared"])["building_supply"]["cards"]

    first, third = (building(catalyst, "Marketplace", level) for level in (1, 3))
    assert "Marketplace 1 (red, coin coin) costs 1" in supply()
    assert "Marketplace 3 (red, coin coin) later costs 3" in supply()
    give_building(st, first, (me + 1) % 2)
    st.refresh()
    assert "Marketplace 3 (red, coin coin) costs 3" in supply()
    play(st, "activate_one", "1:build")
    assert labels(st)[third] == "acquire Marketplace (level 3) for 3 coins"


def test_acquire_only_the_top_of_each_stack_and_one_per_colour(catalyst):
    """"With the "1" Building on top, followed by the "2", etc." and "You may only
    acquire one Building of each color.\""""
    st, me, _ = acquire_position(catalyst, 3)
    give_building(st, building(catalyst, "Cathedral", 1), (me + 1) % 3)  # the "1" Cathedral is gone
    give_building(st, building(catalyst, "Academy", 1), me)              # I own a yellow one
    st.refresh()
    play(st, "activate_one", "1:build")
    assert sorted(st.legal_actions()) == sorted(
        [building(catalyst, "Cathedral", 2), building(catalyst, "Marketplace", 1), building(catalyst, "Barracks", 1)])


def test_acquire_only_affordable_buildings(catalyst):
    """Acquiring a Building means paying its cost: the "3" Cathedral (3 coins
    with 2 players) is not offered to a player with 2 coins."""
    st, me, _ = acquire_position(catalyst, 2, coins=2)
    give_building(st, building(catalyst, "Cathedral", 1), 1 - me)
    st.refresh()
    play(st, "activate_one", "1:build")
    assert sorted(st.legal_actions()) == sorted(building(catalyst, n) for n in ("Academy", "Marketplace", "Barracks"))


def test_new_building_occupied_at_once_by_a_free_catalyst(catalyst):
    """"When you acquire a Building, you must immediately occupy it with any free
    Catalyst you have." The Catalyst just activated is not free (reading)."""
    pick = Picker(catalyst)
    st, me, activator = acquire_position(catalyst, 2, pick=pick)
    free1, free2 = pick.cost(4, 2)
    give(st, free1, me)
    give(st, free2, me)
    st.set_counter("chain_tokens", 1, me)  # the turn goes on after the acquisition
    st.refresh()
    target = building(catalyst, "Barracks")
    play(st, "activate_one", activator, "1:build", target)
    assert sorted(st.legal_actions()) == sorted([free1, free2])
    play(st, free1)
    assert st.zone("occupant", target) == [free1]  # at once, not at the end of the turn
    assert sorted(st.legal_actions()) == sorted([free1, free2, "pass"])
    play(st, "pass")
    assert st.zone("occupant", target) == [free1] and st.where(activator) == ("scoring_pile", me)


def test_no_chain_token_between_catalyst_and_building(catalyst):
    """"You may not take any other action between the Catalyst's effects and the
    Building's effects (such as spending a Chain Activation token).\""""
    pick = Picker(catalyst)
    cid, other = pick.effects("chain"), pick.effects("coin")
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, cid, me, "Marketplace")
    give(st, other, me)
    st.refresh()
    play(st, "activate_one", cid, "1:chain")
    assert st.legal_actions() == ["yes", "no"]
    assert labels(st)["yes"] == "use your Marketplace"
    play(st, "yes")
    assert sorted(st.legal_actions()) == sorted([other, "pass"])  # now the token may be spent


def test_rulebook_sample_turn(catalyst):
    """"A SAMPLE TURN": activate the Catalyst in your Cathedral, acquire an
    Academy (cost: 1 + 1 for the Cathedral), take a chain token, use the
    Cathedral to recruit A into the new Academy; spend the token on A, who
    recruits B (separate); the Academy gives a token, spent on B, who recruits
    C and takes a military token. At the end the activated Catalysts go to the
    Scoring Pile and C moves into one of your Buildings."""
    pick = Picker(catalyst)
    x = pick.where(shows("build", "chain"))
    a = pick.effects("recruit")
    b = pick.where(shows("recruit", "military"))
    c, filler1, filler2 = pick.cost(1, 3)
    st = fresh(catalyst, market=[a, b, c, filler1, filler2])
    me = st.current_player()
    cathedral, academy = building(catalyst, "Cathedral"), building(catalyst, "Academy")
    give_building(st, cathedral, me, x)
    st.set_counter("coins", 20, me)
    st.refresh()
    spent = 0

    play(st, "activate_one", item_id(catalyst, x, "build"), academy)  # 1 (x is the only choice)
    spent += 2
    assert st.counter("coins", me) == 20 - spent and st.zone("occupant", academy) == [None]
    resolve_only(st, catalyst, x, "chain")
    play(st, "yes", a)
    spent += data(catalyst, a)["cost"] + MODIFIER[0]
    assert st.zone("occupant", academy) == [a] and st.counter("chain_tokens", me) == 1

    play(st, a, "1:recruit", b)  # 2
    spent += data(catalyst, b)["cost"] + MODIFIER[1]
    assert st.where(b) == ("playing_area", me)
    play(st, "yes")  # 3
    assert st.counter("chain_tokens", me) == 1
    play(st, b)
    play(st, item_id(catalyst, b, "recruit"), c)
    resolve_only(st, catalyst, b, "military")
    spent += data(catalyst, c)["cost"] + MODIFIER[2]
    assert st.where(c) == ("playing_area", me) and st.counter("military", me) == 1
    assert st.counter("coins", me) == 20 - spent

    assert sorted(st.legal_actions()) == sorted([cathedral, academy])  # 4
    play(st, academy)
    assert sorted(st.zone("scoring_pile", me)) == sorted([x, a, b])
    assert st.zone("occupant", academy) == [c] and st.zone("occupant", cathedral) == [None]
    assert st.current_player() != me


@pytest.mark.parametrize("name, gain", [
    ("Academy", {"chain_tokens": 1}), ("Marketplace", {"coins": 2}), ("Barracks", {"military": 1}),
])
def test_building_effects(catalyst, name, gain):
    """"The effects of the different Buildings are: ... Academy: Take 1 Chain
    Activation token. Marketplace: Take 2 coins. Barracks: Take 1 Military Power
    token." (Cathedral: recruit 1 Catalyst, see the sample turn.)"""
    pick = Picker(catalyst)
    cid = pick.effects("recruit")
    st = fresh(catalyst)
    me = st.current_player()
    host_for(st, cid, me, name)
    give(st, pick.cost(4, 1)[0], me)  # a token taken keeps the turn open for it
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one", cid)  # with no coins, recruiting could do nothing: it is not offered
    before = counters(st, me)
    play(st, "yes")
    after = counters(st, me)
    assert {k: after[k] - before[k] for k in after} == {k: gain.get(k, 0) for k in after}


def test_an_effect_that_can_do_nothing_is_not_offered(catalyst):
    """Reading: "resolve any or all of its effects" offers only effects that
    can do something: recruiting with no card affordable, or acquiring with no
    building affordable, is left out (and a slash then offers the other side)."""
    pick = Picker(catalyst)
    cid = pick.effects("recruit", "build")
    st = fresh(catalyst, market=pick.cost(3, 5))
    me = st.current_player()
    give(st, cid, me)
    give(st, pick.cost(4, 1)[0], me)
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one", cid)
    assert st.prompt() != "Resolve effects in any order"  # nothing to resolve: the turn goes on
    assert "1:recruit" not in st.legal_actions() and "2:build" not in st.legal_actions()
    st = fresh(catalyst, market=pick.cost(3, 5))
    give(st, cid, me)
    give(st, pick.cost(4, 1)[0], me)
    st.set_counter("coins", 20, me)
    st.refresh()
    play(st, "activate_one", cid)
    assert sorted(st.legal_actions()) == ["1:recruit", "2:build", "done"]


def test_buildings_never_go_to_the_scoring_pile(catalyst):
    """"Unlike Catalysts, Buildings can be activated multiple times during the
    game ... So do not place your Buildings in your Scoring Pile after you use them!\""""
    pick = Picker(catalyst)
    cid = pick.effects("coin")
    st = fresh(catalyst)
    me = st.current_player()
    b = host_for(st, cid, me, "Marketplace")
    st.refresh()
    play(st, "activate_one", "1:coin", "yes")
    assert st.where(b) == ("buildings", me) and st.where(cid) == ("scoring_pile", me)
    assert st.zone("occupant", b) == [None]


@PLAYERS
def test_buildings_never_in_a_scoring_pile_in_random_games(catalyst, players):
    """The same over whole random games: no scoring pile ever holds a Building."""
    all_buildings = set(ids(catalyst, "building"))

    def check(st, decision, choice):
        for p in range(st.n):
            assert not all_buildings & set(st.zone("scoring_pile", p))

    for seed in range(3):
        st = random_game(catalyst, players, seed, on_decision=check)
        check(st, None, None)


# ================================================================== THE GOAL CARDS
SYMBOL_ENTRY = "count c in scoring_pile where {} in c.effects"


@pytest.mark.parametrize("symbol", [
    "coin", "recruit", "chain", "build",
    "military",  # also a counter: in `military in c.effects` it names the effect
])
def test_score_goal_symbol_entries(catalyst, symbol):
    """"Score 1 VP for each card in your Scoring Pile that shows at least one
    [symbol]. A card showing multiple symbols of the required type still awards
    only 1 VP." (A slash shows both of its symbols.)"""
    entries = [(g, name) for g in cards(catalyst, "goal") for name, e in g.data["score"].items()
               if e == SYMBOL_ENTRY.format(symbol)]
    if not entries:
        pytest.skip(f"no goal card of this card set scores the {symbol} symbol")
    goal, name = entries[0]
    st = fresh(catalyst)
    clear_scoring(st)
    set_goal(st, goal.id)
    give_building(st, building(catalyst, name), 0)
    pile = cards(catalyst, "catalyst")
    for c in pile:
        give(st, c.id, 0, "scoring_pile")
    st.set_counter("military", 1, 0)
    expected = reference_goal_points(SYMBOL_ENTRY.format(symbol), pile, 0)
    assert 0 < expected < len(pile)
    assert st.score_breakdown(0)["Buildings"] == expected
