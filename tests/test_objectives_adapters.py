"""The adapters reward what the players play for: the shared score of a
`cooperative score` game, and a team's result for each of its players."""
from __future__ import annotations

import pytest

np = pytest.importorskip("numpy", reason="the `rl` extra is not installed (pip install -e '.[rl]')")

from .conftest import ROOT  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
COOP = FIXTURES / "coop_points.rules"
PARTNERS = FIXTURES / "partners.rules"


def env_rewards(env, seed: int) -> dict:
    """Play the PettingZoo environment to its end with seeded random actions;
    the rewards each agent collected."""
    env.reset(seed=seed)
    env.action_space(env.possible_agents[0]).seed(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, r, term, trunc, info = env.last()
        totals[agent] += r
        if term or trunc:
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    return totals


@pytest.fixture(scope="module")
def RulesEnv():
    for module in ("gymnasium", "pettingzoo"):
        pytest.importorskip(module)
    from interpreter.adapters.pettingzoo_env import RulesEnv

    return RulesEnv


def test_pettingzoo_rewards_every_seat_with_the_shared_score(RulesEnv):
    seen = set()
    for seed in range(4):
        for reward in ("score", "win"):
            env = RulesEnv(str(COOP), players=3, reward=reward)
            totals = env_rewards(env, seed)
            st = env.game_state
            shared = st.result()["shared_score"]
            expected = shared if reward == "score" else shared / 12
            assert list(totals.values()) == pytest.approx([expected] * 3)
            seen.add(shared)
    assert max(seen) > 0  # not 0 for every seat, as a score difference would be


def test_pettingzoo_rewards_each_player_with_its_teams_result(RulesEnv):
    for seed in range(3):
        env = RulesEnv(str(PARTNERS), players=4, reward="score")
        totals = env_rewards(env, seed)
        s = env.game_state.scores()
        team_a, team_b = s[0] + s[2], s[1] + s[3]
        assert [totals[a] for a in env.possible_agents] == pytest.approx(
            [team_a - team_b, team_b - team_a, team_a - team_b, team_b - team_a])
        env = RulesEnv(str(PARTNERS), players=4, reward="win")
        totals = env_rewards(env, seed)
        st = env.game_state
        won = [1.0 if p in st.winners() else 0.0 for p in range(4)]
        if len(st.winners()) == 4:
            won = [0.5] * 4  # the two teams tied: each team half a win
        assert [totals[a] for a in env.possible_agents] == won
        assert won[0] == won[2] and won[1] == won[3]


def test_openspiel_returns_are_the_shared_score_and_the_teams_result():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg

    for path, players in ((COOP, 2), (PARTNERS, 4)):
        game = osg.load(path, players=players)
        assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
        r = np.random.RandomState(0)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(r.randint(len(state.chance_outcomes()))))
            else:
                state.apply_action(int(r.choice(state.legal_actions())))
        engine = state.engine_state
        assert state.returns() == engine.objectives()
        if path == COOP:
            assert state.returns() == [engine.result()["shared_score"] / 12] * 2
        else:
            assert state.returns()[0] == state.returns()[2] and state.returns()[1] == state.returns()[3]
