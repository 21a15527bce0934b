"""The agent adapters on every game: one body of conformance tests
(PettingZoo's `api_test` and `seed_test`, OpenSpiel's `random_sim_test`) over
each rules file in rules/ (variants and samples included) and over the small
games of tests/ written for what the adapters must carry (phases,
simultaneous choices, reaction windows, what a player knows). The games of
rules/ are found, not listed, and a floor on their number keeps one from
silently dropping out of the run."""
from __future__ import annotations

import pytest

from interpreter.loader import load_game

from .conftest import ROOT, RULES

SHIPPED = sorted(RULES.rglob("*.rules"))
SHIPPED_FLOOR = 10  # the games rules/ holds (catalyst, solo, five variants, catastropolis, two samples)
CONSTRUCTS = [ROOT / "tests" / "flow" / name for name in ("auction.rules", "watch.rules", "harbour.rules")] + [
    ROOT / "tests" / "fixtures" / "knowledge" / "peek.rules"]
# Whole games of OpenSpiel's random simulation that take a second or more: the slow lane.
LONG = {"catalyst", "solo", "cheap_buildings", "flat_market", "high_coin_limit", "no_final_round",
        "steep_majority", "catastropolis", "capsule", "rivals", "peek"}


def _name(path) -> str:
    return str(path.relative_to(ROOT).with_suffix(""))


def _cases(slow_ones=frozenset()):
    return [pytest.param(path, id=_name(path), marks=[pytest.mark.slow] if path.stem in slow_ones else [])
            for path in SHIPPED + CONSTRUCTS]


_GAMES: dict = {}


def game_of(path):
    """Each game loaded once for the module's tests."""
    if path not in _GAMES:
        _GAMES[path] = load_game(path)
    return _GAMES[path]


def test_every_game_of_the_rules_folder_is_in_the_run():
    assert len(SHIPPED) >= SHIPPED_FLOOR, f"only {len(SHIPPED)} games found in rules/: {[_name(p) for p in SHIPPED]}"
    assert len({p.stem for p in SHIPPED + CONSTRUCTS}) == len(SHIPPED + CONSTRUCTS)  # names are the games' ids


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("path", _cases())
def test_pettingzoo_api_and_seed_tests(path):
    """The API at the fewest and the most players the game allows; the seeding
    at the most (the same for any count: the seed deals the engine's game)."""
    for module in ("numpy", "gymnasium", "pettingzoo"):
        pytest.importorskip(module, reason="the `rl` extra is not installed (pip install -e '.[rl]')")
    from pettingzoo.test import api_test, seed_test

    from interpreter.adapters.pettingzoo_env import RulesEnv

    game = game_of(path)
    for players in sorted(set(game.player_range)):
        api_test(RulesEnv(game, players=players), num_cycles=1000)
    most = game.player_range[1]
    seed_test(lambda: RulesEnv(game, players=most), num_cycles=300)


@pytest.mark.parametrize("path", _cases(LONG))
def test_openspiel_random_sim_test(path):
    """Two whole random games, each state serialized and restored on the way."""
    pyspiel = pytest.importorskip("pyspiel", reason="the `openspiel` extra is not installed")
    from interpreter.adapters import openspiel_game as osg

    game = osg.load(game_of(path), short_name=f"python_rules_conformance_{path.stem}")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
