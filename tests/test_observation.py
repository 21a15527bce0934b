"""`observation()` is written out per rules, viewer and player count
(interpreter/observation.py); these tests compare it, over positions of
every game in `rules/` and the knowledge fixtures, with an observation
made instance by instance from visibility.py's rules alone."""
from __future__ import annotations

import shutil

import pytest

from interpreter import visibility as vis
from interpreter.agents import make_agents
from interpreter.loader import load_game

from .conftest import ROOT

GAMES = sorted((ROOT / "rules").rglob("*.rules")) + [ROOT / "tests/fixtures/hidden_sizes/vaults.rules",
                                                    ROOT / "tests/fixtures/knowledge/peek.rules"]


def _reference(st, viewer: int) -> dict:
    program, ids = st.program, st.program.card_ids
    name = ids.__getitem__

    def instance(zi: int):
        if vis.instance_visible(st, zi, viewer):
            return [name(c) if c is not None else None for c in st.z[zi]]
        return vis.unseen_instance(st, zi, viewer, name)

    zones = {}
    for info in program.zones.values():
        if info.scope == "shared":
            zones[info.name] = instance(info.base)
        elif info.scope == "player":
            zones[info.name] = [instance(info.base + p) for p in range(st.n)]
        else:
            zones[info.name] = {ids[c]: instance(info.base + c) for c in range(len(ids))
                                if any(x is not None for x in st.z[info.base + c]) and vis.card_visible(st, c, viewer)}
    counters = {}
    for info in program.counter_list:
        values = st.ctr[info.index]
        if info.scope == "card":
            counters[info.name] = {ids[c]: v for c, v in enumerate(values)
                                   if v and vis.card_counter_visible(st, info, c, viewer)}
        elif info.visibility != vis.HIDDEN:
            counters[info.name] = [v if vis.counter_visible(info, o, viewer) else None for o, v in enumerate(values)]
    seen = {"player": viewer, "current_player": st.current_player(), "round": st.round, "turn": st.turns,
            "first_player": st.first, "counters": counters, "zones": zones,
            "values": st.shown_values(viewer) if program.shown_values else {}}
    if program.phases:
        seen["phase"], seen["passed"] = st.phase, sorted(st.passed)
    return seen


def _compare(game, players: int, seeds=range(3), decisions: int = 60) -> int:
    compared = 0
    for seed in seeds:
        st = game.new_initial_state(players, seed)
        agents = make_agents("random", players, seed)
        while True:
            for viewer in (*range(players), vis.PUBLIC, vis.EVERYTHING):
                assert st.observation(viewer) == _reference(st, viewer), (players, seed, st.decisions, viewer)
                compared += 1
            if st.over or st.decisions >= decisions:
                break
            st.apply_action(agents[st.decider].choose_id(st.option_ids))
    return compared


@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_observation_is_what_visibility_allows(path):
    game = load_game(path)
    players = sorted({game.program.min_players, game.program.max_players})
    assert sum(_compare(game, n) for n in players) > 100


def test_the_observation_with_more_seats_than_are_written_out(tmp_path):
    """Past observation.SPELLED_OUT seats, a per-player zone is a loop over
    the seats: `hand` (owner only) and `brow` (others only) seen by some
    seats and not others."""
    peek = ROOT / "tests/fixtures/knowledge"
    (tmp_path / "peek.rules").write_text((peek / "peek.rules").read_text().replace("players 2..3", "players 2..12"))
    shutil.copy(peek / "cards.yaml", tmp_path)
    game = load_game(tmp_path / "peek.rules")
    assert _compare(game, 12, seeds=range(2), decisions=30) > 100


def _unseen_the_long_way(st, zi: int, viewer: int, name) -> dict:
    """`visibility.unseen_instance` made from `knows` card by card, each part
    asking again what it needs (the instance's cards, whether its size is told)."""
    cards = [c for c in st.z[zi] if c is not None]
    sized = vis.size_seen(st, zi, viewer)
    view = {"count": len(cards) if sized else None}
    places = [c if c is not None and vis.knows(st, c, viewer) and st.known[c] else None for c in st.z[zi]]
    if any(c is not None for c in places):
        view["known"] = [name(c) if c is not None else None for c in (places if sized else
                                                                     [c for c in places if c is not None])]
    somewhere = vis.known_inside(st, cards, viewer)
    if somewhere:
        view["inside"] = sorted(map(name, somewhere))
    rows = [(info.name, st.ctr[info.index]) for info in vis.back_counters(st.program, viewer)
            if any(st.ctr[info.index][c] for c in cards)]
    if rows:
        zone = st.z[zi] if sized else [c for c in st.z[zi] if c is not None and any(row[c] for _, row in rows)]
        view["marks"] = {n: [row[c] if c is not None else 0 for c in zone] for n, row in rows}
    return view


@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_an_unseen_instance_is_told_as_the_long_way_tells_it(path):
    """What a viewer is told of an instance it does not see (the instance's
    cards and whether its size is told worked out once, `knows` written
    out) is what asking card by card tells."""
    game = load_game(path)
    name, told = game.program.card_ids.__getitem__, 0
    for seed in range(2):
        st = game.new_initial_state(game.program.max_players, seed)
        agents = make_agents("random", st.n, seed)
        while not st.over and st.decisions < 60:
            for viewer in (*range(st.n), vis.PUBLIC):
                for zi in range(len(st.z)):
                    if st.z[zi] and not vis.instance_visible(st, zi, viewer):
                        assert vis.unseen_instance(st, zi, viewer, name) == _unseen_the_long_way(st, zi, viewer, name)
                        told += 1
            st.apply_action(agents[st.decider].choose_id(st.option_ids))
    assert told
