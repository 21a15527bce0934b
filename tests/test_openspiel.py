"""The OpenSpiel adapter (extra `openspiel`): any rules file as a pyspiel game."""
from __future__ import annotations

import pickle

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the `openspiel` extra is not installed (pip install -e '.[openspiel]'); "
    "docs/agent_apis.md shows these tests passing locally")
np = pytest.importorskip("numpy", reason="numpy is needed by open_spiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interpreter.adapters import openspiel_game as osg  # noqa: E402
from interpreter.loader import load_game  # noqa: E402

from .conftest import CATALYST  # noqa: E402


@pytest.fixture(scope="module")
def base():
    return osg.load(CATALYST, players=2)


def play_to(state, n_decisions, seed=0):
    r = np.random.RandomState(seed)
    while not state.is_terminal() and n_decisions > 0:
        if state.is_chance_node():
            state.apply_action(int(r.randint(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(r.choice(state.legal_actions())))
            n_decisions -= 1
    return state


def test_game_type_and_info_are_derived_from_the_rules(base):
    t = base.get_type()
    assert t.short_name == "python_rules_catalyst"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert base.num_players() == 2 and base.max_chance_outcomes() == osg.DEFAULT_SEEDS
    assert base.num_distinct_actions() == osg._CONTEXTS[t.short_name].encoding.num_actions
    assert (base.min_utility(), base.max_utility(), base.utility_sum()) == (0.0, 1.0, 1.0)
    # loadable by name and parameters once registered, like any OpenSpiel game
    four = pyspiel.load_game("python_rules_catalyst(players=4)")
    assert four.num_players() == 4
    with pytest.raises(Exception, match="played by 2 to 4 players"):
        pyspiel.load_game("python_rules_catalyst(players=5)")


def test_chance_outcome_k_is_the_engine_game_of_seed_k(base):
    state = base.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == osg.DEFAULT_SEEDS and sum(p for _, p in outcomes) == 1.0
    state.apply_action(123)
    engine = load_game(CATALYST).new_initial_state(2, seed=123)
    assert state.engine_state.to_json() == engine.to_json()
    assert [base.action_to_string(0, a) for a in state.legal_actions()] == engine.legal_actions()
    assert [state.action_to_string(a) for a in state.legal_actions()] == engine.legal_actions()


def test_serialize_and_pickle_restore_exactly(base):
    state = play_to(base.new_initial_state(), 40, seed=1)
    state.information_state_string(0)  # some histories are tracked
    text = pyspiel.serialize_game_and_state(base, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    state3 = pickle.loads(pickle.dumps(state))
    for other in (state2, state3):
        assert str(other) == str(state) and other.history() == state.history()
        for p in range(2):
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
    a = play_to(state.clone(), 30, seed=2)
    b = play_to(state2, 30, seed=2)
    assert str(a) == str(b)


def test_observations_never_show_hidden_cards(base):
    state = play_to(base.new_initial_state(), 50, seed=3)
    for player in range(2):
        world = osg.resample(state, player, seed=99)
        assert str(world) != str(state)  # unseen cards moved
        assert world.observation_string(player) == state.observation_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.information_state_tensor(player) == state.information_state_tensor(player)
        assert world.legal_actions() == state.legal_actions() or world.current_player() != player


def test_information_state_has_perfect_recall(base):
    state = play_to(base.new_initial_state(), 10, seed=4)
    untracked = state.clone()
    before = state.information_state_string(0)  # from now on kept up to date on `state`
    tracked = play_to(state, 3, seed=5)
    replayed = play_to(untracked, 3, seed=5)  # made on request by replaying the history
    assert tracked.information_state_string(0) == replayed.information_state_string(0) != before
    assert replayed.information_state_string(1).startswith("player 1; history of")
    assert tracked.information_state_tensor(0) == replayed.information_state_tensor(0)


def test_histories_made_late_match_histories_made_as_the_game_went(base):
    """A history is brought up to date only when asked for; states cloned in
    between, and going different ways, each get their own."""
    state = play_to(base.new_initial_state(), 6, seed=1)
    untracked = state.clone()
    state.information_state_string(0)
    state.information_state_string(1)  # both players' histories are kept from here
    play_to(state, 2, seed=2)
    fork = state.clone()  # two actions not yet in the histories
    play_to(state, 3, seed=3)
    play_to(fork, 1, seed=4)
    assert pickle.loads(pickle.dumps(fork)).information_state_string(1) == fork.information_state_string(1)
    for tracked, seeds in ((state, (2, 3)), (fork, (2, 4))):
        replayed = untracked.clone()
        play_to(replayed, 2, seed=seeds[0])
        play_to(replayed, 3 if seeds[1] == 3 else 1, seed=seeds[1])
        for player in (0, 1):
            assert tracked.information_state_string(player) == replayed.information_state_string(player)
            assert tracked.information_state_tensor(player) == replayed.information_state_tensor(player)
    assert state.information_state_string(0) != fork.information_state_string(0)


@pytest.mark.slow
def test_mcts_bot_plays_a_full_game(base):
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bots = [mcts.MCTSBot(base, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rs) for _ in range(2)]
    state = base.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([0.0, 1.0], [0.5, 0.5])
    assert state.engine_state.is_terminal()


def test_ismcts_with_the_resampler_picks_legal_moves(base):
    rs = np.random.RandomState(8)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(base, evaluator, uct_c=2.0, max_simulations=15, random_state=rs)
    bot.set_resampler(osg.resampler(seed=1))
    default = ismcts.ISMCTSBot(base, evaluator, uct_c=2.0, max_simulations=10, random_state=rs)
    state = play_to(base.new_initial_state(), 20, seed=6)
    for b in (bot, default, bot):
        if state.is_terminal():
            break
        action = b.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_max_game_length_cuts_the_game_and_scores_it_as_it_stands():
    game = osg.load(CATALYST, players=3, max_game_length=12)
    state = play_to(game.new_initial_state(), 100, seed=2)
    assert state.is_terminal() and len(state.history()) == 12
    assert sum(state.returns()) == pytest.approx(1.0)


CARDS = """\
thing:
  - {name: Alpha, cost: 1}
  - {name: Beta, cost: 2}
  - {name: Gamma, cost: 3}
"""

OPEN_DRAFT = """\
game "Open draft"
players 2
cards "cards.yaml" into box
zone box: shared, visible
zone hand: per player, visible
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
    if size(box) == 0:
        end game now
score:
    "Cards": sum c.cost for c in hand
"""


def test_rules_without_randomness_or_secrets_are_deterministic_perfect_information(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "draft.rules").write_text(OPEN_DRAFT)
    game = osg.load(tmp_path / "draft.rules", short_name="python_rules_test_open_draft")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    assert not state.is_chance_node() and state.current_player() == 0
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    (tmp_path / "lost.rules").write_text(OPEN_DRAFT.replace("end game now", "end game lost"))
    lost = osg.load(tmp_path / "lost.rules", short_name="python_rules_test_lost_draft")
    assert lost.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    with pytest.raises(ValueError, match="already registered for other rules"):
        osg.register(tmp_path / "lost.rules", short_name="python_rules_test_open_draft")
