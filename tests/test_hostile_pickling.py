"""Compiled games survive pickle and cloudpickle and play on afterwards: a
cloudpickled game used to hang on reset(), because its generated code
compared a copied sentinel by identity. Covers the PettingZoo env, SuperSuit's
vectorised env and worker processes that receive a pickled env."""
from __future__ import annotations

import copy
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from interpreter.runtime.calls import SUSPEND
from interpreter.errors import RulesError
from interpreter.loader import load_game

from .conftest import CATALYST, RULES
from .hostile import time_limit, tiny_game

cloudpickle = pytest.importorskip("cloudpickle")
pytest.importorskip("pettingzoo")

from interpreter.adapters.pettingzoo_env import env as make_env  # noqa: E402

COPIERS = {
    "pickle": lambda x: pickle.loads(pickle.dumps(x)),
    "cloudpickle": lambda x: pickle.loads(cloudpickle.dumps(x)),
}


def play_env(e, seed: int, limit: int = 5000) -> tuple:
    """Reset `e` with `seed` and play it to the end with seeded random legal actions."""
    import numpy as np

    choose = np.random.default_rng(seed)
    e.reset(seed=seed)
    steps = 0
    for agent in e.agent_iter(max_iter=limit):
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else int(choose.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        steps += 1
    assert e.game_state.is_terminal()
    return steps, tuple(e.game_state.scores())


@pytest.mark.parametrize("copier", [pickle.loads, copy.copy, copy.deepcopy,
                                    lambda s: pickle.loads(cloudpickle.dumps(s))],
                         ids=["pickle", "copy", "deepcopy", "cloudpickle"])
def test_the_suspend_sentinel_stays_itself(copier):
    value = pickle.dumps(SUSPEND) if copier is pickle.loads else SUSPEND
    assert copier(value) is SUSPEND


@pytest.mark.parametrize("name", list(COPIERS))
def test_a_copied_game_plays_the_same_game(name):
    game = load_game(CATALYST)
    with time_limit(60):
        copied = COPIERS[name](game)
        a, b = game.new_initial_state(3, 11), copied.new_initial_state(3, 11)
        while not a.is_terminal():
            action = a.legal_actions()[len(a.legal_actions()) // 2]
            a.apply_action(action)
            b.apply_action(action)
    assert b.to_json() == a.to_json() and b.scores() == a.scores()
    assert copied.program is not game.program


@pytest.mark.parametrize("name", list(COPIERS))
def test_a_copied_state_goes_on_from_where_it_was(name):
    game = load_game(RULES / "solo.rules")
    st = game.new_initial_state(None, 5)
    for _ in range(15):
        st.apply_action(st.legal_actions()[0])
    with time_limit(60):
        other = COPIERS[name](st)
        assert other.to_json() == st.to_json()
        for _ in range(10):
            action = st.legal_actions()[-1]
            st.apply_action(action)
            other.apply_action(action)
    assert other.to_json() == st.to_json()


def test_the_limits_set_on_a_game_travel_with_it():
    game = load_game(CATALYST)
    game.set_limits(steps=1234, turns=77, check_invariants=True)
    copied = pickle.loads(pickle.dumps(game))
    assert (copied.program.step_budget, copied.program.turn_budget, copied.program.check_invariants) == (1234, 77, True)
    assert copied.program.module.ns["BUDGET"] == 1234


def test_parameters_travel_with_the_game(tmp_path):
    path = tiny_game(tmp_path, cards="thing:\n  - {name: Alpha, cost: 1}\n  - {name: Beta, cost: 2}\n")
    path.write_text(path.read_text().replace("counter gold", "param bonus = 1\ncounter gold")
                    .replace('"Gold": gold', '"Gold": gold + bonus'))
    game = load_game(path, {"bonus": "40"})
    copied = pickle.loads(pickle.dumps(game))
    assert copied.program.params["bonus"] == 40


def test_rules_changed_since_pickling_are_refused(tmp_path):
    path = tiny_game(tmp_path)
    data = pickle.dumps(load_game(path))
    (tmp_path / "cards.yaml").write_text("thing:\n  - {name: Alpha, cost: 5}\n  - {name: Beta, cost: 2}\n")
    with pytest.raises(RulesError, match="the rules, cards or parameters changed since this game was pickled"):
        pickle.loads(data)


def test_a_program_not_loaded_from_a_file_says_why_it_cannot_be_pickled():
    program = load_game(CATALYST).program
    program.origin = None
    with pytest.raises(TypeError, match="was not loaded from a rules file; it cannot be pickled"):
        pickle.dumps(program)


def test_a_cloudpickled_rule_function_still_returns_the_sentinel():
    """Generated code copied by value (cloudpickle) finds the engine's SUSPEND."""
    program = load_game(CATALYST).program
    fn = next(code.fn for code in program.codes[1:] if code is not None and code.resumable)
    copied = cloudpickle.loads(cloudpickle.dumps(fn))
    assert copied.__globals__["S"] is SUSPEND


@pytest.mark.parametrize("name", list(COPIERS))
def test_a_copied_pettingzoo_env_resets_and_plays_a_game(name):
    e = make_env(str(CATALYST), players=2)
    with time_limit(60):
        expected = play_env(e, seed=3)
        copied = COPIERS[name](e)
        assert play_env(copied, seed=3) == expected
    assert expected[0] > 10


@pytest.mark.slow
def test_supersuit_vectorised_env_runs():
    supersuit = pytest.importorskip("supersuit")
    import numpy as np

    e = make_env(str(CATALYST), players=2)
    choose = np.random.default_rng(0)
    with time_limit(120):
        venv = supersuit.vectorize_aec_env_v0(e, num_envs=2)  # copies the env with cloudpickle
        venv.reset(seed=5)
        first_games = [copy.seed_used for copy in venv.envs]
        for _ in range(1000):
            obs, reward, terminated, truncated, env_terms, env_truncs, passes, info = venv.last()
            venv.step([int(choose.choice(np.flatnonzero(obs[i]["action_mask"]))) if obs[i]["action_mask"].any() else 0
                       for i in range(2)])
    assert all(copy is not e for copy in venv.envs)
    assert [copy.seed_used for copy in venv.envs] != first_games  # games ended and new ones began


def _play_pickled_env(data: bytes, seed: int) -> tuple:
    """In a worker process: unpickle an env and play a game."""
    import pickle as worker_pickle

    return play_env(worker_pickle.loads(data), seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pickle", "cloudpickle"])
def test_worker_processes_play_pickled_envs(name):
    """A process-based vector env: spawned workers (nothing inherited) each
    receive the env pickled, reset it and play."""
    e = make_env(str(CATALYST), players=2)
    data = (pickle if name == "pickle" else cloudpickle).dumps(e)
    with time_limit(180):
        expected = [play_env(e, seed) for seed in (1, 2)]
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            results = list(pool.map(_play_pickled_env, [data, data], [1, 2]))
    assert results == expected
