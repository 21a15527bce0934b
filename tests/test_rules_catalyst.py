"""One scenario per rule of the Catalyst rulebook, through the decision API on
the real rules/catalyst.rules. Each docstring quotes the rule it checks."""
from __future__ import annotations

import pytest

from .positions import card, card_ids, data, give_building, option_labels, play, set_market, start

MODIFIER = [1, 0, 0, -1, -1]


# ---------------------------------------------------------------- preparation
@pytest.mark.parametrize("players, in_play", [(2, 40), (3, 52), (4, 60)])
def test_deck_by_player_count(catalyst, players, in_play):
    """Remove all Catalyst cards that show a number higher than the player count."""
    st = catalyst.new_initial_state(players, 3)
    used = [c for zone in ("deck", "final_stack", "market") for c in st.zone(zone) if c]
    assert len(used) == in_play
    assert all(data(catalyst, c)["players"] <= players for c in used)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_stack_market_and_goal(catalyst, players):
    """Deal 10 cards face down under the Final Round token, 5 face up on the
    board; one Goal card face up, the rest removed."""
    st = catalyst.new_initial_state(players, 5)
    assert len(st.zone("final_stack")) == 10
    assert len([c for c in st.zone("market") if c]) == 5
    assert len(st.zone("goals")) == 1 and len(st.zone("goal_deck")) == 3
    assert len(st.zone("deck")) == {2: 40, 3: 52, 4: 60}[players] - 15


@pytest.mark.parametrize("players, levels", [(2, {1, 3}), (3, {1, 2, 3}), (4, {1, 2, 3, 4})])
def test_buildings_by_player_count(catalyst, players, levels):
    """3 players: Buildings 1, 2 and 3; 2 players: only 1 and 3."""
    st = catalyst.new_initial_state(players, 2)
    supply = st.zone("building_supply")
    assert {data(catalyst, b)["level"] for b in supply} == levels
    assert len(supply) == 4 * len(levels)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_coins_by_turn_order(catalyst, players):
    """Starting coins 4, 5, 5, 6 by position in turn order from a random starting player."""
    firsts = set()
    for seed in range(12):
        st = catalyst.new_initial_state(players, seed)
        firsts.add(st.first)
        assert st.current_player() == st.first
        for p in range(players):
            assert st.counter("coins", p) == [4, 5, 5, 6][(p - st.first) % players]
    assert len(firsts) > 1


# ---------------------------------------------------------------- the actions
def test_three_actions(catalyst):
    """On your turn you must choose and perform only one of three actions."""
    st = start(catalyst)
    me = st.current_player()
    st.place(card(catalyst, "catalyst", effects="chain"), "playing_area", owner=me)
    st.refresh()
    assert st.legal_actions() == ["collect", "recruit", "activate_one"]


def test_collect_takes_the_highest_printed_cost(catalyst):
    """Take coins equal to the highest cost visible; position modifiers are not applied."""
    st = start(catalyst)
    me = st.current_player()
    five = card(catalyst, "catalyst", cost=5)
    low = card_ids(catalyst, "catalyst", cost=1)[:4]
    set_market(st, [five] + low)  # the 5 sits on the +1 space
    st.set_counter("coins", 0, me)
    st.refresh()
    assert option_labels(st)["collect"] == "Collect Contributions: take 5 coins"
    play(st, "collect")
    assert st.counter("coins", me) == 5


def test_recruit_price_is_cost_plus_space_modifier(catalyst):
    """Pay the cost counting the +1, 0, -1 of the card's position on the board."""
    st = start(catalyst)
    me = st.current_player()
    threes = card_ids(catalyst, "catalyst", cost=3, players=2)[:5]
    set_market(st, threes)
    st.set_counter("coins", 10, me)
    st.refresh()
    play(st, "recruit")
    labels = option_labels(st)
    for slot, cid in enumerate(threes):
        assert labels[cid].endswith(f"from space {slot + 1} for {3 + MODIFIER[slot]} coins")
    play(st, threes[3])
    assert st.counter("coins", me) == 8
    assert st.where(threes[3]) == ("playing_area", me)


def test_a_discount_never_goes_below_zero(catalyst):
    """Reading: a cost-1 card on a -1 space is free."""
    st = start(catalyst)
    me = st.current_player()
    ones = card_ids(catalyst, "catalyst", cost=1)[:5]
    set_market(st, ones)
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "recruit")
    assert sorted(st.legal_actions()) == sorted(ones[3:])  # only the free ones
    play(st, ones[4])
    assert st.counter("coins", me) == 0


def test_only_affordable_cards_can_be_recruited(catalyst):
    st = start(catalyst)
    me = st.current_player()
    threes = card_ids(catalyst, "catalyst", cost=3)[:5]
    set_market(st, threes)
    st.set_counter("coins", 2, me)
    st.refresh()
    play(st, "recruit")
    assert sorted(st.legal_actions()) == sorted(threes[3:])
    # with 1 coin nothing is affordable: the recruit action is not offered
    st2 = start(catalyst)
    set_market(st2, threes)
    ready(st2, "chain")
    st2.set_counter("coins", 1, st2.current_player())
    st2.refresh()
    assert st2.legal_actions() == ["collect", "activate_one"]


def test_recruit_must_occupy_an_empty_building(catalyst):
    """If you have an empty Building you must occupy it with the recruited Catalyst."""
    st = start(catalyst)
    me = st.current_player()
    cathedral = card(catalyst, "building", name="Cathedral", level=1)
    give_building(st, cathedral, me)
    st.set_counter("coins", 10, me)
    st.refresh()
    target = [c for c in st.zone("market") if c][2]
    play(st, "recruit", target)
    assert st.where(target) == ("occupant", cathedral)


def test_recruit_with_two_empty_buildings_asks_which(catalyst):
    """If you have several empty Buildings, you choose which one to occupy."""
    st = start(catalyst)
    me = st.current_player()
    cathedral = card(catalyst, "building", name="Cathedral", level=1)
    academy = card(catalyst, "building", name="Academy", level=1)
    give_building(st, cathedral, me)
    give_building(st, academy, me)
    st.set_counter("coins", 10, me)
    st.refresh()
    target = [c for c in st.zone("market") if c][2]
    play(st, "recruit", target)
    assert sorted(st.legal_actions()) == sorted([cathedral, academy])
    play(st, academy)
    assert st.where(target) == ("occupant", academy)


def test_recruit_without_empty_building_goes_to_playing_area(catalyst):
    """If you have no empty Buildings, place the Catalyst by itself in your playing area."""
    st = start(catalyst)
    me = st.current_player()
    cathedral = card(catalyst, "building", name="Cathedral", level=1)
    give_building(st, cathedral, me, occupant=card(catalyst, "catalyst", effects="chain"))
    st.set_counter("coins", 10, me)
    st.refresh()
    target = [c for c in st.zone("market") if c][2]
    play(st, "recruit", target)
    assert st.where(target) == ("playing_area", me)


# ---------------------------------------------------------------- activation
def ready(st, effects, exclude=()):
    """Put a catalyst with these effects in the current player's playing area."""
    cid = card(st, "catalyst", exclude=exclude, effects=effects)
    st.place(cid, "playing_area", owner=st.current_player())
    return cid


def test_activate_any_or_all_in_any_order(catalyst):
    """Resolve any or all of the effects shown on the card, in any order you choose."""
    st = start(catalyst)
    me = st.current_player()
    x = ready(st, "chain coin")
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one")
    assert st.legal_actions() == ["1:chain", "2:coin", "done"]
    play(st, "2:coin")  # the second effect first
    assert st.legal_actions() == ["1:chain", "done"]
    play(st, "done")  # and skip the other
    assert st.counter("coins", me) == 1 and st.counter("chain_tokens", me) == 0
    assert st.where(x) == ("scoring_pile", me)


def test_a_slash_means_or(catalyst):
    """A slash means "or": take either effect, not both."""
    st = start(catalyst)
    me = st.current_player()
    ready(st, "military/coin")
    st.refresh()
    play(st, "activate_one")
    assert st.legal_actions() == ["1:military", "1:coin", "done"]
    coins = st.counter("coins", me)
    play(st, "1:military")
    assert st.counter("military", me) == 1 and st.counter("coins", me) == coins
    assert st.current_player() != me  # nothing left to resolve: the turn is over


def test_building_effect_after_the_catalyst_with_nothing_in_between(catalyst):
    """After the Catalyst's effects you may use the Building's effects; no chain
    token may be spent in between."""
    st = start(catalyst)
    me = st.current_player()
    barracks = card(catalyst, "building", name="Barracks", level=1)
    x = card(catalyst, "catalyst", effects="chain")
    give_building(st, barracks, me, occupant=x)
    ready(st, "coin coin")  # a second catalyst a chain token could activate
    st.refresh()
    play(st, "activate_one", x, "1:chain")
    assert st.legal_actions() == ["yes", "no"]
    assert option_labels(st)["yes"] == "use your Barracks"
    play(st, "yes")
    assert st.counter("military", me) == 1
    assert "pass" in st.legal_actions()  # only now: spend the chain token?


def test_building_effect_is_optional(catalyst):
    st = start(catalyst)
    me = st.current_player()
    barracks = card(catalyst, "building", name="Barracks", level=1)
    x = card(catalyst, "catalyst", effects="chain")
    give_building(st, barracks, me, occupant=x)
    st.refresh()
    play(st, "activate_one", "1:chain", "no")
    assert st.counter("military", me) == 0


def test_end_of_turn_scoring_pile_and_free_catalysts_fill_buildings(catalyst):
    """At the end of your turn activated Catalysts go to your Scoring Pile; then
    free Catalysts must move into your empty Buildings."""
    st = start(catalyst)
    me = st.current_player()
    cathedral = card(catalyst, "building", name="Cathedral", level=1)
    x = card(catalyst, "catalyst", effects="chain")
    give_building(st, cathedral, me, occupant=x)
    y = ready(st, "coin coin")
    st.refresh()
    play(st, "activate_one", x, "1:chain", "no", "pass")
    assert st.where(x) == ("scoring_pile", me)
    assert st.counter("activated", x) == 0
    assert st.where(y) == ("occupant", cathedral)
    assert st.where(cathedral) == ("buildings", me)  # buildings never go to the pile


def test_scoring_pile_is_face_down(catalyst):
    st = start(catalyst)
    me = st.current_player()
    x = ready(st, "coin coin")
    st.refresh()
    play(st, "activate_one", "done")
    other = 1 - me
    assert st.observation(me)["zones"]["scoring_pile"][me] == [x]
    assert st.observation(other)["zones"]["scoring_pile"][me] == {"count": 1}


def test_chain_token_activates_another_catalyst(catalyst):
    """After your action you may spend a Chain Activation token to activate a
    Catalyst not yet activated this turn, as long as you have tokens."""
    st = start(catalyst)
    me = st.current_player()
    x = ready(st, "chain")
    y = ready(st, "coin coin", exclude=[x])
    st.set_counter("coins", 0, me)
    st.refresh()
    play(st, "activate_one", x, "1:chain")
    assert sorted(st.legal_actions()) == sorted([y, "pass"])
    assert option_labels(st)[y].startswith("spend a chain token to activate ")
    play(st, y, "1:coin", "2:coin")
    assert st.counter("chain_tokens", me) == 0 and st.counter("coins", me) == 2
    assert st.where(x) == ("scoring_pile", me) and st.where(y) == ("scoring_pile", me)


def test_unused_chain_tokens_are_discarded(catalyst):
    """At the end of your turn you must discard any unused Chain Activation tokens."""
    st = start(catalyst)
    me = st.current_player()
    ready(st, "coin coin")
    st.set_counter("chain_tokens", 3, me)
    st.refresh()
    play(st, "collect", "pass")
    assert st.counter("chain_tokens", me) == 0


def test_market_slides_away_from_the_deck_and_refills(catalyst):
    """Slide the other cards to the right until there are no gaps, then fill
    the board back up to 5 cards from the deck."""
    st = start(catalyst)
    me = st.current_player()
    st.set_counter("coins", 10, me)
    before = st.zone("market")
    next_card = st.zone("deck")[-1]
    play(st, "recruit", before[1])
    after = st.zone("market")
    assert after == [next_card, before[0], before[2], before[3], before[4]]


def test_coin_limit_only_at_the_end_of_the_turn(catalyst):
    """More than 8 coins is fine during your turn; at its end discard down to 8."""
    st = start(catalyst)
    me = st.current_player()
    set_market(st, [card(catalyst, "catalyst", cost=5)] + card_ids(catalyst, "catalyst", cost=1)[:4])
    ready(st, "coin coin")
    st.set_counter("coins", 7, me)
    st.set_counter("chain_tokens", 1, me)
    st.refresh()
    play(st, "collect")
    assert st.counter("coins", me) == 12  # still my turn: the chain token decision
    play(st, "pass")
    assert st.counter("coins", me) == 8


# ---------------------------------------------------------------- the end
@pytest.mark.parametrize("players", [2, 3, 4])
def test_deck_runs_out_then_final_stack_and_final_round(catalyst, players):
    """When the deck runs out use the set-aside stack; finish the round, then
    each player takes one last turn."""
    st = start(catalyst, players, seed=2)
    me = st.current_player()
    for cid in st.zone("deck")[:-1]:
        st.place(cid, "box")
    st.set_counter("coins", 10, me)
    st.refresh()
    play(st, "recruit", st.zone("market")[4])  # the refill draws the deck's last card
    assert st.zone("final_stack") == [] and len(st.zone("deck")) == 10
    position = (me - st.first) % players
    more = 0
    while not st.is_terminal():
        play(st, "collect")
        more += 1
    assert more == (players - 1 - position) + players
    assert st.turns % players == 0  # every player had the same number of turns


# ---------------------------------------------------------------- scoring
def test_scoring_pile_buildings_military_and_coins(catalyst):
    """Catalysts in the pile score their value; each Building scores as the
    Goal card shows; 1 VP per 2 Military; 1 VP per 3 coins."""
    st = start(catalyst)
    me = st.current_player()
    for cid in card_ids(catalyst, "catalyst", cost=5)[:2] + card_ids(catalyst, "catalyst", cost=1)[:1]:
        st.place(cid, "scoring_pile", owner=me)
    goal = next(g for g in card_ids(catalyst, "goal") if "4" in data(catalyst, g)["score"].values())
    st.place(st.zone("goals")[0], "box")
    st.place(goal, "goals")
    flat = next(name for name, expr in data(catalyst, goal)["score"].items() if expr == "4")
    give_building(st, card(catalyst, "building", name=flat, level=1), me)
    st.set_counter("military", 5, me)
    st.set_counter("coins", 8, me)
    breakdown = st.score_breakdown(me)
    assert breakdown["Catalysts"] == 11
    assert breakdown["Buildings"] == 4
    assert breakdown["Military"] == 2
    assert breakdown["Coins"] == 2


@pytest.mark.parametrize("military, majority", [
    ([3, 3, 1], [4.5, 4.5, 1]),
    ([0, 2, 0], [0, 6, 0]),
    ([5, 3, 3], [6, 2, 2]),
    ([2, 2, 2, 1], [3.3333, 3.3333, 3.3333, 0]),
    ([1, 0], [6, 0]),
], ids=["tie-first", "one-ranked", "tie-second", "three-way", "two-players"])
def test_military_majority_ties_share_and_need_a_token(catalyst, military, majority):
    """6/3/1 VP to the most Military tokens; ties add the next places and
    divide them; at least 1 token to be ranked."""
    st = start(catalyst, players=len(military))
    for p, value in enumerate(military):
        st.set_counter("military", value, p)
    assert [st.score_breakdown(p)["Majority"] for p in range(len(military))] == majority


def test_tie_break_on_scoring_pile(catalyst):
    """A tie goes to the most VP in the Scoring Pile; still tied, victory is shared."""
    st = start(catalyst)
    for p in (0, 1):
        st.set_counter("coins", 0, p)
    five, three = card(catalyst, "catalyst", cost=5), card(catalyst, "catalyst", cost=3)
    st.place(five, "scoring_pile", owner=0)
    st.place(three, "scoring_pile", owner=1)
    st.set_counter("coins", 6, 1)  # 3 + 2 = 5, level with player 0's 5
    assert st.scores() == [5, 5]
    assert st.winners() == [0]
    st.set_counter("coins", 0, 1)
    st.place(card(catalyst, "catalyst", cost=2, players=2), "scoring_pile", owner=1)
    assert st.scores() == [5, 5] and st.winners() == [0, 1]


# ---------------------------------------------------------------- buildings
def test_acquire_building_price_and_top_of_stack(catalyst):
    """The first Building of a stack costs 1, each later one more (2 more with
    2 players), plus 1 coin for each Building already owned."""
    st = start(catalyst, players=2)
    me = st.current_player()
    other = 1 - me
    give_building(st, card(catalyst, "building", name="Cathedral", level=1), other)
    give_building(st, card(catalyst, "building", name="Academy", level=1), me, occupant=card(catalyst, "catalyst", effects="recruit"))
    x = ready(st, "build")
    st.set_counter("coins", 10, me)
    st.refresh()
    play(st, "activate_one", x, "1:build")
    labels = option_labels(st)
    cathedral3 = card(catalyst, "building", name="Cathedral", level=3)
    assert labels[cathedral3] == "acquire Cathedral (level 3) for 4 coins"  # 1 + 2 x 1 taken + 1 owned
    assert card(catalyst, "building", name="Cathedral", level=1) not in labels
    assert all(data(catalyst, b)["name"] != "Academy" for b in labels)  # one per colour
    assert labels[card(catalyst, "building", name="Barracks", level=1)].endswith("for 2 coins")
    play(st, cathedral3)
    assert st.counter("coins", me) == 6 and st.where(cathedral3) == ("buildings", me)


def test_acquire_building_step_with_three_players(catalyst):
    st = start(catalyst, players=3)
    me = st.current_player()
    give_building(st, card(catalyst, "building", name="Cathedral", level=1), (me + 1) % 3)
    ready(st, "build")
    st.set_counter("coins", 10, me)
    st.refresh()
    play(st, "activate_one", "1:build")
    assert option_labels(st)[card(catalyst, "building", name="Cathedral", level=2)].endswith("for 2 coins")


def test_new_building_is_occupied_at_once(catalyst):
    """When you acquire a Building you must immediately occupy it with a free Catalyst."""
    st = start(catalyst)
    me = st.current_player()
    ready(st, "build")
    y = ready(st, "coin coin")
    st.set_counter("coins", 10, me)
    st.refresh()
    play(st, "activate_one")
    x = [c for c in st.legal_actions() if data(catalyst, c)["effects"] == "build"][0]
    barracks = card(catalyst, "building", name="Barracks", level=1)
    play(st, x, "1:build", barracks)
    assert st.where(y) == ("occupant", barracks)


# ---------------------------------------------------------------- effects
@pytest.mark.parametrize("effect, counter", [("coin", "coins"), ("chain", "chain_tokens"), ("military", "military")])
def test_simple_effects(catalyst, effect, counter):
    """Take 1 coin / 1 Chain Activation token / 1 Military Power token."""
    effects = {"coin": "coin coin", "chain": "chain", "military": "military"}[effect]
    st = start(catalyst)
    me = st.current_player()
    x = ready(st, effects)
    ready(st, "chain coin", exclude=[x])  # a second catalyst keeps a chain token's turn open
    st.set_counter(counter, 0, me)
    st.refresh()
    play(st, "activate_one", x, f"1:{effect}")
    assert st.counter(counter, me) == 1


def test_recruit_effect_pays_the_cost(catalyst):
    """Recruit 1 Catalyst. You still need to pay the costs."""
    st = start(catalyst)
    me = st.current_player()
    ready(st, "recruit")
    threes = card_ids(catalyst, "catalyst", cost=3, players=2)[:5]
    set_market(st, threes)
    st.set_counter("coins", 5, me)
    st.refresh()
    play(st, "activate_one", "1:recruit", threes[0])
    assert st.counter("coins", me) == 1
    assert st.where(threes[0]) == ("playing_area", me)
