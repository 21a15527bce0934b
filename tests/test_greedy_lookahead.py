"""Greedy looking ahead to its next turn (`turns`): where a turn is one
action and what it sets up scores only on the player's next turn, the end of
the turn cannot tell the options apart; one more own turn, after the others'
decisions drawn at random, can. The setting is tuned and stored per rules
file like the evaluation's weights."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents import make_agent, make_agents
from interpreter.loader import load_game
from interpreter.play import play_game, world_sampler

SET_UP = Path(__file__).resolve().parent / "fixtures" / "set_up_next_turn.rules"
SEEDS = range(8)


@pytest.fixture(scope="module")
def set_up():
    return load_game(SET_UP)


def first_choices(game, spec: str) -> list:
    """What the bot `spec` chooses on the first decision of the game, seed by seed."""
    out = []
    for seed in SEEDS:
        st = game.new_initial_state(2, seed)
        bot = make_agent(spec, seed, 0)
        out.append(bot.choose(st.decision(), st.observation(0), world_sampler(st, 0, seed)))
    return out


def test_looking_one_turn_further_prepares_what_scores_next_turn(set_up):
    """At the end of the turn, preparing and waiting score the same: greedy
    draws between them. Looking to the end of its next turn, it sees that
    only preparing lets it cash in, and always prepares."""
    assert set(first_choices(set_up, "greedy")) == {"prepare", "wait"}
    assert first_choices(set_up, "greedy:turns=2") == ["prepare"] * len(SEEDS)


def test_a_whole_game_looking_ahead_scores_every_other_turn(set_up):
    """Four rounds: prepare, cash in, prepare, cash in, for 6 points each;
    the same seed plays the same game again."""
    st = play_game(set_up, 2, 3, make_agents("greedy:turns=2", 2, 3))
    assert st.scores() == [6, 6]
    again = play_game(set_up, 2, 3, make_agents("greedy:turns=2", 2, 3))
    assert again.to_json() == st.to_json()
    blind = play_game(set_up, 2, 3, make_agents("greedy", 2, 3))
    assert sum(blind.scores()) < 12


def test_the_turns_stored_for_the_rules_file_are_greedys_default(set_up):
    """A stored `turns` is greedy's lookahead unless its options set one;
    mcts reads the evaluation's weights (and its own horizon) from the same entry, not `turns`."""
    from interpreter.agents import weights

    program = set_up.program
    weights.store(program.fingerprint, {**weights.DEFAULTS, "turns": 2}, {"why": "a test"})
    try:
        assert first_choices(set_up, "greedy") == ["prepare"] * len(SEEDS)
        assert set(first_choices(set_up, "greedy:turns=1")) == {"prepare", "wait"}
        assert make_agent("mcts:4", 0, 0).weights(program) == {"discount": 1.0}
        st = play_game(set_up, 2, 1, make_agents("mcts:4", 2, 1))
        assert st.is_terminal()
        # so many tries that two turns would pass the limit of the work: one turn
        assert make_agent("greedy:tries=200", 0, 0).lookahead(program) == 1
        assert make_agent("greedy:tries=100", 0, 0).lookahead(program) == 2
    finally:
        (weights.cache.folder(weights.FOLDER) / f"{program.fingerprint}.json").unlink(missing_ok=True)
        weights._stored.cache_clear()


def test_the_option_is_read_and_bounded():
    assert make_agent("greedy:turns=3", 0, 0).turns == 3
    assert make_agent("greedy:4", 0, 0).turns is None  # the rules file's, when it plays
