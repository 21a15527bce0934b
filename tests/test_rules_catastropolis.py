"""One scenario per rule of the Catastropolis rule text (seed 002), through the
decision API on the real rules/catastropolis/catastropolis.rules. Each
docstring quotes the rule it checks ("Reading:" for a reconstructed part)."""
from __future__ import annotations

import json
from collections import deque

import pytest

from interpreter.events import tell_all

from .city import (
    after_draft, cards, clear_situations, data, give_powers, labels, plain_power, play, points, power, put,
    safe, situation, space, stand, where_is,
)

PILES = ("situation_pile", "reserve", "face_down", "resolution_pile", "search_pile", "power_deck")


def crime(game, exclude=(), **fields):
    return situation(game, exclude, safe, type="crime", **fields)


def disaster(game, exclude=(), **fields):
    return situation(game, exclude, safe, type="disaster", **fields)


def resolver_of(game, situation_id):
    """A plain power that resolves the situation."""
    return plain_power(game, next(s for s in data(game, situation_id)["needs"]
                                  if cards(game, "power", lambda d: d["grants"] == [s], timing="passive")))


def a_position(game, players=2, seed=1):
    """After the draft, no situation in play, every hero with one plain power
    (no power acts at the start of a turn or round)."""
    st = after_draft(game, players, seed)
    clear_situations(st)
    for p in range(players):
        give_powers(st, p, plain_power(game, "strength") if p == 0 else plain_power(game, "tech"))
    return st


# ================================================================== SETUP
@pytest.mark.parametrize("players", [2, 3, 4])
def test_situation_pile_active_queue_and_reserve(catastropolis, players):
    """SETUP 1-5: Crimes and Disasters in two piles, each shuffled; as many of
    each as players drawn and shuffled together into the Situation Pile; as
    many cards as players face down on the Active Situation queue; the rest
    shuffled together into the Reserve Pile."""
    st = catastropolis.new_initial_state(players, seed=3)
    drawn = st.zone("face_down") + st.zone("situation_pile")
    types = [data(st, c)["type"] for c in drawn]
    assert types.count("crime") == players and types.count("disaster") == players
    assert len(st.zone("face_down")) == players and st.zone("revealed") == []
    assert sorted(drawn + st.zone("reserve")) == sorted(cards(st, "situation"))
    assert st.zone("crimes") == st.zone("disasters") == []
    queues = {tuple(catastropolis.new_initial_state(players, seed).zone("face_down")) for seed in range(8)}
    assert len(queues) > 4, "the situations are not shuffled"


def test_resolution_and_search_piles(catastropolis):
    """SETUP 6-7: the Resolution cards and the Reveal (search) cards, each shuffled into a pile."""
    resolutions, searches = set(), set()
    for seed in range(6):
        st = catastropolis.new_initial_state(2, seed)
        assert sorted(st.zone("resolution_pile")) == sorted(cards(st, "resolution"))
        assert sorted(st.zone("search_pile")) == sorted(cards(st, "search"))
        resolutions.add(tuple(st.zone("resolution_pile")))
        searches.add(tuple(st.zone("search_pile")))
    assert len(resolutions) == len(searches) == 6


def test_piles_and_face_down_cards_stay_hidden(catastropolis):
    """Face-down cards are hidden: an observation shows how many, never which."""
    st = after_draft(catastropolis, 3, seed=2)
    for p in range(3):
        obs = st.observation(p)
        for zone in PILES:
            assert obs["zones"][zone] == {"count": len(st.zone(zone))}
        text = json.dumps(obs)
        assert not any(cid in text for zone in PILES for cid in st.zone(zone))


# ================================================================== POWERS DRAFT
def test_draft_queue_of_five_and_replacement(catastropolis):
    """POWERS DRAFT 1-3: five cards face up in a queue; the player who goes
    first chooses one for the hero, then the top card of the deck replaces it."""
    st = catastropolis.new_initial_state(2, seed=4)
    queue = st.zone("draft_queue")
    assert len(queue) == 5 and st.current_player() == 0
    assert st.legal_actions() == queue + ["pass"]
    chosen = queue[1]
    assert labels(st)[chosen].startswith(f"draft {data(st, chosen)['name']} ({data(st, chosen)['points']} point")
    next_card = st.zone("power_deck")[-1]
    play(st, chosen)
    assert st.zone("powers", 0) == [chosen]
    assert sorted(st.zone("draft_queue")) == sorted([c for c in queue if c != chosen] + [next_card])
    assert st.current_player() == 1  # POWERS DRAFT 4: the next player repeats this routine


@pytest.mark.parametrize("players", [2, 3, 4])
def test_draft_until_every_hero_has_four_points(catastropolis, players):
    """POWERS DRAFT 4: until each player has power cards with values equal to 4
    points; a player who has them drafts no more."""
    for seed in range(5):
        st = catastropolis.new_initial_state(players, seed)
        deciders = []
        while st.turns == 0:
            deciders.append(st.current_player())
            assert points(st, st.current_player()) < 4
            play(st, next(a for a in st.legal_actions() if a != "pass"))
        assert deciders[:players] == list(range(players))
        assert all(points(st, p) == 4 for p in range(players))


def test_a_card_past_four_points_cannot_be_drafted(catastropolis):
    """Reading of POWERS DRAFT 4 and DEATH: a card that would take the hero past
    4 points is not offered."""
    st = catastropolis.new_initial_state(2, seed=1)
    three = power(catastropolis, points=3)
    two = power(catastropolis, points=2)
    one = power(catastropolis, points=1)
    for cid in st.zone("draft_queue"):
        st.place(cid, "power_deck")
    st.place(three, "powers", owner=0)
    for cid in (two, one):
        st.place(cid, "draft_queue")
    st.refresh()
    assert st.legal_actions() == [one, "pass"]


def test_three_passes_renew_the_queue_and_force_a_choice(catastropolis):
    """POWERS DRAFT 5: a player may pass instead of drafting up to three times;
    after the third pass the queue is discarded, five new cards drawn, and that
    player must choose a card."""
    st = catastropolis.new_initial_state(2, seed=5)
    for _ in range(2):
        assert st.current_player() == 0
        play(st, "pass")  # the pass ends the player's turn of the draft
        assert st.current_player() == 1 and st.zone("powers", 0) == []
        play(st, next(a for a in st.legal_actions() if a != "pass"))
    old_queue = st.zone("draft_queue")
    assert st.current_player() == 0 and "pass" in st.legal_actions()
    play(st, "pass")
    assert st.counter("passes", 0) == 3
    assert st.current_player() == 0, "after the third pass the same player must choose"
    assert "pass" not in st.legal_actions()
    assert not set(old_queue) & set(st.zone("draft_queue")) and len(st.zone("draft_queue")) == 5
    assert set(old_queue) <= set(st.zone("power_discard"))
    play(st, st.legal_actions()[0])
    # and no pass is offered to that player again
    while st.turns == 0:
        if st.current_player() == 0:
            assert "pass" not in st.legal_actions()
        play(st, st.legal_actions()[0] if st.current_player() == 0 else
             next(a for a in st.legal_actions() if a != "pass"))


# ================================================================== ROUNDS
def test_a_round_is_one_turn_each_in_order(catastropolis):
    """ROUNDS: when a player is done, play continues with the player on their
    left until each player has had a turn; then the next round."""
    st = a_position(catastropolis, players=3)
    st.refresh()
    seen = []
    for _ in range(7):
        seen.append((st.round, st.current_player()))
        play(st, "rest")
    assert seen == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]


def test_end_of_round_time_counters_and_the_next_situation(catastropolis):
    """ROUNDS: at the end of each round the top card of the Situation Deck goes
    onto the Active Queue face down; a time counter goes on every card already
    in the queue (face down or revealed)."""
    st = a_position(catastropolis)
    hidden, shown, nxt = crime(catastropolis), crime(catastropolis, exclude=[crime(catastropolis)]), disaster(catastropolis)
    put(st, hidden, "face_down", counters=1)
    put(st, shown, "revealed", counters=0)
    put(st, nxt, "situation_pile")
    st.refresh()
    play(st, "rest", "rest")
    assert st.round == 2
    assert st.zone("face_down") == [hidden, nxt] and st.zone("situation_pile") == []
    assert st.counter("time_counters", hidden) == 2
    assert st.counter("time_counters", shown) == 1
    assert st.counter("time_counters", nxt) == 0


def test_an_expired_crime_is_replaced_from_the_reserve(catastropolis):
    """ROUNDS: a revealed Crime with time counters >= its time value is
    discarded, and a new card from the top of the Reserve Pile goes on the
    bottom of the Situation Pile."""
    st = a_position(catastropolis)
    late = crime(catastropolis)
    pile_top, from_reserve = disaster(catastropolis), crime(catastropolis, exclude=[late])
    put(st, late, "revealed", counters=data(st, late)["time"] - 1)
    put(st, pile_top, "situation_pile")
    put(st, from_reserve, "reserve")
    st.refresh()
    play(st, "rest", "rest")
    assert not st.is_terminal()
    assert st.zone("situation_discard") == [late] and st.zone("revealed") == []
    assert st.zone("situation_pile") == [from_reserve]  # at the bottom, then the top card moved on
    assert st.zone("face_down") == [pile_top]


def test_an_expired_disaster_destroys_the_city(catastropolis):
    """ROUNDS / END OF GAME: a revealed Disaster with time counters >= its time
    value: the city is destroyed, the game is over and the heroes have lost."""
    st = a_position(catastropolis)
    doom = disaster(catastropolis)
    put(st, doom, "revealed", counters=data(st, doom)["time"] - 2)
    st.refresh()
    play(st, "rest", "rest")
    assert not st.is_terminal()  # one counter short
    st.events = []
    play(st, "rest", "rest")
    assert st.is_terminal()
    told = [text for _, text in tell_all(st, st.events, 0)]  # which disaster it was, then why the game ended
    assert f"{data(st, doom)['name']}: revealed -> destroyed the city" in told, told
    assert told[-1].startswith("the game ends: everyone has lost: ROUNDS: a revealed Disaster whose time is up")
    result = st.result()
    assert result["outcome"] == "lost" and result["lost"] is True
    assert st.winners() == [] and st.returns() == [0.0, 0.0]


def test_face_down_situations_expire_only_once_revealed(catastropolis):
    """ROUNDS: only a *revealed* situation expires; revealed with its time up,
    it expires at once ("if at any time...")."""
    st = a_position(catastropolis)
    doom = disaster(catastropolis)
    put(st, doom, "face_down", counters=data(st, doom)["time"] + 1)
    put(st, crime(catastropolis), "situation_pile")
    st.refresh()
    play(st, "rest", "rest")
    assert not st.is_terminal() and doom in st.zone("face_down")
    stand(st, 0, "Phone Booth F6")
    tip = cards(st, "search", lambda d: d.get("effects") == "reveal_oldest")[0]
    st.place(tip, "search_pile")
    st.refresh()
    play(st, "search")
    assert st.is_terminal() and st.result()["outcome"] == "lost"


def test_an_empty_situation_pile_is_fed_from_the_reserve(catastropolis):
    """Reading of ROUNDS: with the Situation Pile empty, the top card of the
    Reserve Pile goes onto the Active Queue; with both empty, the oldest
    face-down situation is revealed."""
    st = a_position(catastropolis)
    old, reserve_top = crime(catastropolis), crime(catastropolis, exclude=[crime(catastropolis)])
    put(st, old, "face_down")
    put(st, reserve_top, "reserve")
    st.refresh()
    play(st, "rest", "rest")
    assert st.zone("face_down") == [old, reserve_top] and st.zone("reserve") == []
    play(st, "rest", "rest")
    assert st.zone("revealed") == [old] and st.zone("face_down") == [reserve_top]


# ================================================================== TURNS
def test_one_of_five_actions_per_turn(catastropolis):
    """TURNS: a player may only perform ONE of Move, Use a Special Ability,
    Search the City, Resolve a Revealed Active Situation, Rest."""
    st = a_position(catastropolis)
    give_powers(st, 0, power(catastropolis, lambda d: d.get("effects") == "teleport"))
    stand(st, 0, "Phone Booth F6")
    put(st, crime(catastropolis), "face_down")
    st.refresh()
    assert st.legal_actions() == ["move", "special", "search", "rest"]
    play(st, "search")
    while st.current_player() == 0 and not st.is_terminal():
        play(st, st.legal_actions()[0])  # what the search card asks
    assert st.current_player() == 1 and st.decision().prompt == "Choose an action"
    assert where_is(st, 0) == "Phone Booth F6"


def reference_distances(game, origin):
    """Steps between map spaces side by side (not diagonally), by search."""
    squares = {(d["x"], d["y"]): d["name"] for d in (data(game, c) for c in cards(game, "space"))}
    start = next((x, y) for (x, y), name in squares.items() if name == origin)
    found, queue = {start: 0}, deque([start])
    while queue:
        x, y = queue.popleft()
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nxt in squares and nxt not in found:
                found[nxt] = found[(x, y)] + 1
                queue.append(nxt)
    return {squares[sq]: d for sq, d in found.items()}


def test_move_up_to_three_spaces_not_diagonally(catastropolis):
    """TURNS 1: each hero may move up to 3 spaces each turn, not diagonally
    (around the city blocks of the reconstructed map)."""
    st = a_position(catastropolis)
    stand(st, 0, "Street B5")
    st.refresh()
    assert labels(st)["move"] == "Move (up to 3 spaces)"
    play(st, "move")
    steps = reference_distances(catastropolis, "Street B5")
    expected = {space(st, name): d for name, d in steps.items() if 1 <= d <= 3}
    assert set(st.legal_actions()) == set(expected)
    assert labels(st)[space(st, "Street A5".replace("Street A5", "Phone Booth A5"))] == "move to Phone Booth A5 (1 space)"
    assert labels(st)[space(st, "Hospital")] == "move to Hospital (1 space)"
    assert space(st, "Street B3") not in st.legal_actions()  # two squares up, but a block is in between
    assert space(st, "Museum") in st.legal_actions() and labels(st)[space(st, "Museum")] == "move to Museum (3 spaces)"
    play(st, space(st, "Museum"))
    assert where_is(st, 0) == "Museum" and st.current_player() == 1


def test_flight_passes_over_the_blocks(catastropolis):
    """POWERS: powers help heroes move around the city (Flight: fly over the blocks)."""
    st = a_position(catastropolis)
    give_powers(st, 0, power(catastropolis, flies=True, points=2))
    stand(st, 0, "Street B5")
    st.refresh()
    play(st, "move")
    assert labels(st)[space(st, "Street B3")] == "move to Street B3 (2 spaces)"


def test_movement_powers_add_spaces(catastropolis):
    """POWERS: powers help heroes move (Super Speed: 2 more spaces)."""
    st = a_position(catastropolis)
    give_powers(st, 0, power(catastropolis, lambda d: d["moves"] == 2))
    st.refresh()
    assert labels(st)["move"] == "Move (up to 5 spaces)"


def test_special_ability_from_a_power_card(catastropolis):
    """TURNS 2 / POWERS: some powers grant a special ability that may be used on
    a player's turn (Teleportation: move to any space)."""
    st = a_position(catastropolis)
    st.refresh()
    assert "special" not in st.legal_actions()
    teleport = power(catastropolis, lambda d: d.get("effects") == "teleport")
    give_powers(st, 0, teleport)
    st.refresh()
    assert "special" in st.legal_actions()
    play(st, "special")
    assert len(st.legal_actions()) == len(cards(st, "space")) - 1
    play(st, space(st, "Airport"))
    assert where_is(st, 0) == "Airport" and st.current_player() == 1


def test_search_the_city_from_a_phone_booth(catastropolis):
    """TURNS 3: your hero must be on a Red Telephone Booth space. Reading: the
    top Search card is drawn, followed and discarded; a face-down situation is
    chosen by its place in the queue, never by name."""
    st = a_position(catastropolis)
    first, second = crime(catastropolis), disaster(catastropolis)
    put(st, first, "face_down", counters=2)
    put(st, second, "face_down", counters=1)
    put(st, crime(catastropolis, exclude=[first]), "situation_pile")
    scanner = cards(st, "search", lambda d: d.get("effects") == "reveal")[0]
    st.place(scanner, "search_pile")
    stand(st, 0, "Hero HQ")
    st.refresh()
    assert "search" not in st.legal_actions()
    stand(st, 0, "Phone Booth F6")
    st.refresh()
    assert labels(st)["search"] == "Search the City from Phone Booth F6"
    play(st, "search")
    assert labels(st) == {"1": "reveal face-down situation 1 of 2 (2 time counters)",
                          "2": "reveal face-down situation 2 of 2 (1 time counter)"}
    play(st, "2")
    assert st.zone("revealed") == [second] and st.zone("face_down") == [first]
    assert st.zone("search_discard") == [scanner]


def test_a_dead_end_search_finds_nothing(catastropolis):
    st = a_position(catastropolis)
    put(st, crime(catastropolis), "face_down")
    dead_end = cards(st, "search", lambda d: "effects" not in d)[0]
    st.place(dead_end, "search_pile")
    stand(st, 0, "Phone Booth F6")
    st.refresh()
    play(st, "search")
    assert st.zone("revealed") == [] and st.zone("search_discard") == [dead_end] and st.current_player() == 1


@pytest.mark.parametrize("at_location, with_power", [(True, True), (True, False), (False, True)])
def test_resolve_at_the_location_with_a_matching_power(catastropolis, at_location, with_power):
    """TURNS 4: on the space that matches the location on the Situation Card,
    with a power that matches one listed on it, the player takes the card off
    the queue and places it in front of them, then draws a Resolution card to
    keep and follows any instructions on it."""
    st = a_position(catastropolis)
    target = crime(catastropolis)
    put(st, target, "revealed", counters=1)
    put(st, crime(catastropolis, exclude=[target]), "situation_pile")
    if with_power:
        give_powers(st, 0, resolver_of(catastropolis, target))
    else:
        give_powers(st, 0, power(catastropolis, lambda d: not set(d["grants"]) & set(data(st, target)["needs"])
                                 and d["timing"] == "passive"))
    stand(st, 0, data(st, target)["location"] if at_location else "Hero HQ")
    keep = cards(st, "resolution", safe)[0]
    st.place(keep, "resolution_pile")
    st.refresh()
    if not (at_location and with_power):
        assert "resolve" not in st.legal_actions()
        return
    play(st, "resolve")  # the only situation it can resolve: chosen without asking
    assert st.zone("collected", 0) == [target, keep]
    assert st.zone("revealed") == [] and st.counter("time_counters", target) == 0
    assert st.current_player() == 1


def test_a_power_with_lesser_powers_resolves_with_any_of_them(catastropolis):
    """POWERS: some powers contain other lesser powers (each symbol counts)."""
    st = a_position(catastropolis)
    big = power(catastropolis, lambda d: len(d["grants"]) == 3)
    target = situation(catastropolis, (), lambda d: d["needs"][-1] in data(catastropolis, big)["grants"]
                       and not set(d["needs"][:-1]) & set(data(catastropolis, big)["grants"]))
    give_powers(st, 0, big)
    put(st, target, "revealed")
    stand(st, 0, data(st, target)["location"])
    st.refresh()
    assert "resolve" in st.legal_actions()


def test_a_resolution_card_can_weaken(catastropolis):
    """WEAKENED: effects such as those from Resolution cards can weaken a hero."""
    st = a_position(catastropolis)
    target = crime(catastropolis)
    put(st, target, "revealed")
    give_powers(st, 0, resolver_of(catastropolis, target))
    stand(st, 0, data(st, target)["location"])
    ambush = cards(st, "resolution", lambda d: d.get("effects") == "weaken")[0]
    st.place(ambush, "resolution_pile")
    st.refresh()
    play(st, "resolve")
    assert st.counter("weakened", 0) == 1 and st.zone("collected", 0) == [target, ambush]


def test_rest_recovers_a_weakened_hero(catastropolis):
    """TURNS 5 / WEAKENED: a hero may Rest to return to a healthy condition by
    skipping a turn."""
    st = a_position(catastropolis)
    st.set_counter("weakened", 1, 0)
    st.refresh()
    assert labels(st)["rest"] == "Rest: skip the turn and recover from weakness"
    play(st, "rest")
    assert st.counter("weakened", 0) == 0 and where_is(st, 0) == "Hero HQ" and st.current_player() == 1


@pytest.mark.parametrize("speed, normal, weakened", [(False, 3, 2), (True, 5, 4)])
def test_a_weakened_hero_moves_two_thirds_rounded_up(catastropolis, speed, normal, weakened):
    """WEAKENED: a weakened hero moves at 2/3 of their normal movement rate
    (round up): 2 spaces instead of 3."""
    st = a_position(catastropolis)
    if speed:
        give_powers(st, 0, power(catastropolis, lambda d: d["moves"] == 2))
    st.refresh()
    assert labels(st)["move"] == f"Move (up to {normal} spaces)"
    st.set_counter("weakened", 1, 0)
    st.refresh()
    assert labels(st)["move"] == f"Move (up to {weakened} spaces)"
    play(st, "move")
    steps = reference_distances(catastropolis, "Hero HQ")
    assert set(st.legal_actions()) == {space(st, n) for n, d in steps.items() if 1 <= d <= weakened}


# ================================================================== POWERS AT THE START
def test_a_power_acting_at_the_start_of_the_turn(catastropolis):
    """POWERS: some powers have actions that must be performed at the beginning
    of a turn (Regeneration: a weakened hero recovers)."""
    for regenerates in (True, False):
        st = a_position(catastropolis)
        if regenerates:
            give_powers(st, 0, power(catastropolis, timing="start of turn"))
        st.set_counter("weakened", 1, 0)
        st.refresh()
        play(st, "move")
        play(st, st.legal_actions()[0], "rest")
        assert st.current_player() == 0
        assert st.counter("weakened", 0) == (0 if regenerates else 1)


def test_a_power_acting_at_the_start_of_the_round(catastropolis):
    """POWERS: some powers have actions that must be performed at the beginning
    of a round (Precognition: the oldest face-down situation is revealed)."""
    st = a_position(catastropolis)
    give_powers(st, 1, power(catastropolis, timing="start of round"))
    oldest, newer = crime(catastropolis), crime(catastropolis, exclude=[crime(catastropolis)])
    put(st, oldest, "face_down")
    put(st, newer, "face_down")
    put(st, disaster(catastropolis), "situation_pile")
    st.refresh()
    play(st, "rest", "rest")
    assert st.round == 2 and st.zone("revealed") == [oldest]


# ================================================================== DEATH
def test_weakened_twice_the_hero_dies_and_a_new_one_is_made(catastropolis):
    """DEATH: weakened when already weakened, the hero has died: the player
    discards every card accumulated; a new hero gets powers from the shuffled
    unused power cards, turned over one by one until they total 4 points, a
    card that would exceed it discarded and ignored; the new hero is placed at
    Start and plays from the player's next turn."""
    for seed in range(8):  # the unused cards come in another order each time
        dies_and_returns(catastropolis, seed)


def dies_and_returns(game, seed):
    st = a_position(game, seed=seed)
    cosmic = power(game, lambda d: len(d["grants"]) == 3)
    danger = situation(game, (), lambda d: d.get("effects") == "weaken" and set(d["needs"]) & set(data(game, cosmic)["grants"]),
                       type="crime")
    threes = [cosmic] + cards(game, "power", lambda d: d["points"] == 3 and d["name"] != data(game, cosmic)["name"])
    one = power(game, points=1)
    # every other power is held by player 2: the unused cards are three 3s and one 1
    for cid in cards(game, "power"):
        st.place(cid, "powers", owner=1)
    for cid in threes[1:] + [one]:
        st.place(cid, "power_deck")
    st.place(cosmic, "powers", owner=0)
    kept_crime, kept_resolution = crime(game, exclude=[danger]), cards(game, "resolution")[0]
    st.place(kept_crime, "collected", owner=0)
    st.place(kept_resolution, "collected", owner=0)
    put(st, danger, "revealed")
    stand(st, 0, data(st, danger)["location"])
    st.set_counter("weakened", 1, 0)
    pile_top = st.zone("resolution_pile")[-1]
    st.refresh()
    play(st, "resolve")
    assert st.counter("deaths", 0) == 1
    assert st.zone("collected", 0) == []
    assert {kept_crime, danger} <= set(st.zone("situation_discard"))
    assert kept_resolution in st.zone("resolution_discard")
    assert st.zone("resolution_pile")[-1] == pile_top  # a dead hero draws no Resolution card
    new = st.zone("powers", 0)
    assert sorted(data(st, c)["points"] for c in new) == [1, 3] and one in new
    assert all(data(st, c)["points"] == 3 for c in st.zone("power_deck") + st.zone("power_discard"))
    assert where_is(st, 0) == "Hero HQ" and st.counter("weakened", 0) == 0
    assert st.current_player() == 1 and st.decision().prompt == "Choose an action"


# ================================================================== VILLAINS
def villain(game, name):
    return cards(game, "villain", name=name)[0]


@pytest.mark.parametrize("symbols, name", [
    (("supervillain", "supervillain", "mad scientist"), "Mr. Gemini"),
    (("alien", "supervillain", "mad scientist"), "Morphion"),
])
def test_the_first_three_disasters_name_the_villain(catastropolis, symbols, name):
    """VILLAINS: the first 3 disasters revealed give the villain's signature:
    2 Supervillain symbols and 1 Mad Scientist is Mr. Gemini; one of each is
    Morphion. A fourth disaster changes nothing."""
    game = catastropolis
    st = a_position(game)
    telepathy = power(game, lambda d: d.get("effects") == "reveal" and d["points"] == 2)
    give_powers(st, 0, telepathy)
    chosen = []
    for symbol in symbols + ("alien",):
        chosen.append(situation(game, chosen, symbol=symbol))
    for cid in chosen:
        put(st, cid, "face_down")
    for cid in cards(game, "situation", type="crime")[:4]:
        put(st, cid, "situation_pile")
    st.refresh()
    for turn in range(4):
        play(st, "special", "1", "rest")
        assert st.zone("revealed")[-1] == chosen[turn]
        if turn < 2:
            assert st.zone("villain") == []
    assert st.zone("villain") == [villain(game, name)]
    assert (st.counter("supervillain_clues"), st.counter("mad_scientist_clues"), st.counter("alien_clues")) == (
        symbols.count("supervillain"), symbols.count("mad scientist"), symbols.count("alien"))


def test_every_signature_the_disasters_can_show_names_one_villain(catastropolis):
    """VILLAINS: nine possible villains, each with a signature of three symbols."""
    from itertools import combinations

    disasters = [data(catastropolis, c)["symbol"] for c in cards(catastropolis, "situation", type="disaster")]
    villains = [data(catastropolis, c)["signature"] for c in cards(catastropolis, "villain")]
    assert len(villains) == 9
    shown = {tuple(sorted(trio)) for trio in combinations(disasters, 3)}
    for trio in shown:
        counts = {s: trio.count(s) for s in ("supervillain", "mad scientist", "alien")}
        assert villains.count(counts) == 1, trio
    assert len(shown) == 9


def test_defeating_the_villain_wins_the_game_for_everyone(catastropolis):
    """VILLAINS / END OF GAME: the villain identified and defeated as the back
    of its card requires (Mr. Gemini, reconstructed: two heroes at the Stadium
    at the same time): the game ends; players add up their reputation and the
    most points make the Most Beloved Hero."""
    game = catastropolis
    st = a_position(game)
    stand(st, 1, "Stadium")
    stand(st, 0, "Street G4")
    rep = sorted(cards(game, "resolution"), key=lambda c: -data(game, c)["reputation"])
    st.place(rep[0], "collected", owner=1)
    st.place(rep[-1], "collected", owner=0)
    st.refresh()
    play(st, "move", space(st, "Stadium"))
    assert not st.is_terminal(), "no villain identified yet"
    play(st, "rest")
    st.place(villain(game, "Mr. Gemini"), "villain")
    st.refresh()
    play(st, "move", space(st, "Street G4"))
    assert not st.is_terminal(), "only one hero at the Stadium"
    play(st, "rest", "move", space(st, "Stadium"))
    assert st.is_terminal()
    result = st.result()
    assert result["outcome"] == "won" and result["winners"] == [0, 1]
    assert st.returns() == [1.0, 1.0]
    assert result["scores"] == [data(game, rep[-1])["reputation"], data(game, rep[0])["reputation"]]
    assert result["top_scorers"] == [1]


def test_reputation_from_every_collected_card(catastropolis):
    """END OF GAME: players add up their total reputation points from all of
    their collected cards; the most points earn the title (shared on a tie)."""
    game = catastropolis
    st = a_position(game)
    crimes = cards(game, "situation", type="crime")[:2]
    resolution = cards(game, "resolution")[0]
    for cid in crimes + [resolution]:
        st.place(cid, "collected", owner=0)
    expected = sum(data(game, c)["reputation"] for c in crimes + [resolution])
    assert st.score_breakdown(0) == {"Reputation": expected} and st.scores() == [expected, 0]
    assert st.top_scorers() == [0]
    st.place(crimes[0], "collected", owner=1)
    st.place(crimes[1], "collected", owner=1)
    st.place(resolution, "collected", owner=1)
    assert st.top_scorers() == [1]
