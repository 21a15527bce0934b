"""What a state shares to be fast, and what it must never let leak.

A clone shares its zone instances' lists with the state it was cloned from
until one of them changes a zone, and a new game shares the program's empty
zones the same way; a state keeps the observations made of its
position until the position changes. Both are invisible from outside: these
tests play clones, worlds and arranged positions and compare with states
rebuilt from saves, which share nothing.
"""
from __future__ import annotations

from interpreter.agents import make_agents
from interpreter.play import play_game
from interpreter.worlds import determinize

from .conftest import CATALYST
from interpreter.loader import load_game


def _midgame(game, seed=4, decisions=25):
    st = game.new_initial_state(2, seed)
    agents = make_agents("random", 2, seed)
    while st.decisions < decisions:
        st.apply_action(agents[st.decider].choose_id(st.option_ids))
    return st


def test_games_played_leave_the_empty_zones_new_games_share_empty():
    for rules in (CATALYST, CATALYST.parent / "catastropolis" / "catastropolis.rules"):
        game = load_game(rules)
        empty = game.program.empty_zones
        made = [game.new_initial_state(seed=seed) for seed in range(3)]
        assert any(zone is shared for st in made for zone, shared in zip(st.z, empty))  # shared, not copied
        played = [play_game(game, st.n, seed, make_agents("random", st.n, seed), state=st).fingerprint()
                  for seed, st in enumerate(made)]
        assert all(zone.count(None) == len(zone) for zone in empty), rules
        again = [play_game(game, st.n, seed, make_agents("random", st.n, seed)).fingerprint()
                 for seed, st in enumerate(made)]
        assert again == played


def test_a_clone_played_to_the_end_leaves_its_original_as_it_was():
    game = load_game(CATALYST)
    st = _midgame(game)
    before, zones = st.fingerprint(), [row[:] for row in st.z]
    for seed in range(3):
        other = st.clone()
        play_game(game, 2, seed, make_agents("random", 2, seed), state=other)
        assert other.over
    assert st.fingerprint() == before and st.z == zones
    # and the original still plays on exactly as a fresh copy of it does
    fresh = game.state_from_json(st.to_json())
    a = play_game(game, 2, 9, make_agents("random", 2, 9), state=st)
    b = play_game(game, 2, 9, make_agents("random", 2, 9), state=fresh)
    assert a.fingerprint() == b.fingerprint() and a.scores() == b.scores()


def test_the_original_played_on_leaves_its_clones_as_they_were():
    game = load_game(CATALYST)
    st = _midgame(game)
    clones = [st.clone() for _ in range(3)]
    saved = st.to_json()
    play_game(game, 2, 1, make_agents("random", 2, 1), state=st)
    for other in clones:
        assert other.to_json() == saved


def test_a_sampled_world_leaves_the_true_position_as_it_was():
    game = load_game(CATALYST)
    st = _midgame(game)
    before = st.fingerprint()
    seed_state = 5
    for _ in range(5):
        world, seed_state = determinize(st, st.decider, seed_state)
        assert world.z != st.z  # the unseen cards were redistributed in the world only
    assert st.fingerprint() == before


def test_an_observation_is_kept_until_the_position_changes():
    game = load_game(CATALYST)
    st = _midgame(game)
    first = st.observation(0)
    assert st.observation(0) is first
    assert st.observation(1) is not first and st.observation(1)["player"] == 1
    agents = make_agents("random", 2, 3)
    for _ in range(15):
        st.apply_action(agents[st.decider].choose_id(st.option_ids))
        fresh = game.state_from_json(st.to_json())
        for viewer in (0, 1):
            assert st.observation(viewer) == fresh.observation(viewer)
    assert st.observation(0) != first


def test_arranging_a_position_changes_its_observation():
    game = load_game(CATALYST)
    st = _midgame(game)
    seen = st.observation(0)
    card = next(c for c in seen["zones"]["market"] if c is not None)
    st.place(card, "playing_area", owner=0)
    st.set_counter("coins", 7, owner=1)
    now = st.observation(0)
    assert card in now["zones"]["playing_area"][0] and card not in now["zones"]["market"]
    assert now["counters"]["coins"][1] == 7
    assert now == game.state_from_json(st.to_json()).observation(0)


def test_a_clone_copies_each_field_as_its_kind_says():
    """`clone` is written out from FIELDS: a "rows" field (the counters) gets
    rows of its own holding the same values, a "list" field a list of its
    own, a "shared rows" field the same rows in a list of its own."""
    from interpreter.engine.state import FIELDS

    game = load_game(CATALYST)
    st = _midgame(game)
    other = st.clone()
    for f in FIELDS:
        mine, theirs = getattr(st, f.name), getattr(other, f.name)
        if not f.saved:
            assert theirs == f.default, f.name
        elif f.copy == "value":
            assert theirs is mine, f.name
        else:
            assert theirs == mine and (theirs is None or theirs is not mine), f.name
        if f.copy == "rows":
            assert all(a == b and a is not b and type(a) is list for a, b in zip(mine, theirs)), f.name
        if f.copy == "shared rows":
            assert all(a is b for a, b in zip(mine, theirs)), f.name
    other.ctr[0][0] += 1
    assert other.ctr[0][0] != st.ctr[0][0]
