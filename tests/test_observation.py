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
