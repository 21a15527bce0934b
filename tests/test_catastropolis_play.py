"""Catastropolis as a whole: it checks clean, plays to a win or a loss with
every player count and every bot, and works with simulate, saves, the
PettingZoo and OpenSpiel adapters -- with no code that knows the game."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.adapters.encoding import Encoding
from interpreter.agents import make_agents
from interpreter.worlds import determinize
from interpreter import rng
from interpreter.play import play_game

from .city import CATASTROPOLIS

RULES = str(CATASTROPOLIS)
# Seeds of `catalyst run --bots random` that end in a win for the team (found
# by playing; a loss is the common end).
WON_SEEDS = {2: 13, 3: 3, 4: 16}
LOST_SEEDS = {2: 0, 3: 0, 4: 0}


def test_check_is_clean_even_strict():
    out = CliRunner().invoke(cli, ["check", "--strict", RULES])
    assert out.exit_code == 0, out.output
    assert out.output.strip().endswith("catastropolis.rules: ok")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_run_with_random_bots_ends_won_or_lost(players):
    for seeds, outcome in ((WON_SEEDS, "win"), (LOST_SEEDS, "lose")):
        out = CliRunner().invoke(cli, ["run", RULES, "--players", str(players), "--bots", "random",
                                       "--seed", str(seeds[players])])
        assert out.exit_code == 0, out.output
        assert f"the players {outcome} together; top score:" in out.output
        assert "move to " in out.output


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_in_reasonable_length(catastropolis, players):
    """Invariants are checked after every action (the fixture); every game ends
    with the team's outcome within 30 rounds."""
    outcomes = set()
    for seed in range(40):
        st = play_game(catastropolis, players, seed, make_agents("random", players, seed))
        assert st.is_terminal() and st.round <= 30
        outcomes.add(st.result()["outcome"])
    assert outcomes <= {"won", "lost"} and "lost" in outcomes


@pytest.mark.parametrize("bots", ["random", "greedy:tries=2", pytest.param("mcts:20", marks=pytest.mark.slow),
                                  "random,greedy,mcts:20"])
def test_every_bot_plays_it(catastropolis, bots):
    players = 3 if "," in bots else 2
    st = play_game(catastropolis, players, 5, make_agents(bots, players, 5))
    assert st.is_terminal() and st.result()["outcome"] in ("won", "lost")


def test_bots_never_see_face_down_cards(catastropolis):
    """A bot's sampled world redistributes every card its player cannot see,
    keeping the time counters on their places (they are visible)."""
    st = catastropolis.new_initial_state(3, seed=6)
    bot = make_agents("random", 3, 6)[0]
    for _ in range(40):
        st.apply_action(bot.choose_id(st.legal_actions()))
    enc = Encoding(catastropolis)
    moved = False
    for viewer in range(3):
        world, _ = determinize(st, viewer, rng.seed_state(viewer + 7))
        assert enc.observation_text(world, viewer) == enc.observation_text(st, viewer)
        assert enc.vector(world, viewer) == enc.vector(st, viewer)
        moved |= world.zone("face_down") != st.zone("face_down")
        on_places = [world.counter("time_counters", c) for c in world.zone("face_down")]
        assert on_places == [st.counter("time_counters", c) for c in st.zone("face_down")]
    assert moved


def test_simulate_reports_the_team_win_rate():
    out = CliRunner().invoke(cli, ["simulate", RULES, "-n", "40", "--players", "4", "--seed", "2", "-j", "1"])
    assert out.exit_code == 0, out.output
    assert "team win rate" in out.output and "top score, player 1" in out.output
    out = CliRunner().invoke(cli, ["simulate", RULES, "-n", "40", "--players", "4", "--seed", "2", "-j", "1", "--json"])
    summary = json.loads(out.output)
    team = summary["team"]
    assert team["win_rate"]["games"] == 40
    assert team["win_rate"]["wins"] == 40 - summary["lost_by_all"]["wins"]


def test_same_seed_same_game_and_saves_resume_exactly(catastropolis):
    def actions(seed):
        taken = []
        play_game(catastropolis, 3, seed, make_agents("random", 3, seed), on_decision=lambda s, d, c: taken.append(c))
        return taken

    first = actions(9)
    assert first == actions(9) and first != actions(10)
    full = catastropolis.new_initial_state(3, 9)
    for a in first:
        full.apply_action(a)
    for cut in (3, len(first) // 2, len(first) - 1):  # in the draft, mid-game, at the end
        st = catastropolis.new_initial_state(3, 9)
        for a in first[:cut]:
            st.apply_action(a)
        saved = st.to_json()
        resumed = catastropolis.state_from_json(saved)
        assert resumed.to_json() == saved
        for a in first[cut:]:
            resumed.apply_action(a)
        assert resumed.to_json() == full.to_json()


def test_every_offered_id_is_in_the_action_vocabulary(catastropolis):
    enc = Encoding(catastropolis)
    for players in (2, 3, 4):
        for seed in range(10):
            st = catastropolis.new_initial_state(players, seed)
            r = rng.seed_state(seed)
            while not st.is_terminal():
                ids = st.legal_actions()
                assert len(enc.legal_indices(st)) == len(ids)
                r, i = rng.below(r, len(ids))
                st.apply_action(ids[i])


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_environment(catastropolis):
    for module in ("numpy", "gymnasium", "pettingzoo"):
        pytest.importorskip(module)
    from interpreter.adapters.pettingzoo_env import env as rules_env

    env = rules_env(catastropolis, players=3, reward="win")
    env.reset(seed=WON_SEEDS[3])
    assert env.game_state.to_json() == catastropolis.new_initial_state(3, WON_SEEDS[3]).to_json()
    env.action_space("player_0").seed(1)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] += reward
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
    outcome = env.game_state.result()["outcome"]
    assert set(rewards.values()) == ({1.0} if outcome == "won" else {0.0})


def test_openspiel_game(catastropolis):
    pytest.importorskip("pyspiel")
    import numpy as np
    import pyspiel

    from interpreter.adapters.openspiel_game import load

    game = load(catastropolis, players=2)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    r = np.random.RandomState(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(r.randint(game.max_chance_outcomes())))
        else:
            state.apply_action(int(r.choice(state.legal_actions())))
    assert state.returns() in ([0.0, 0.0], [1.0, 1.0])
