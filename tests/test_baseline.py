"""The hand-written baseline (benchmarks/baseline_catalyst.py) plays by the rules
of rules/catalyst.rules: the speed ratio `benchmarks/bench.py` reports is
only meaningful if both engines play the same game.

Each game is played by the interpreter first, its choices made by a policy
that sees only the option ids; then the baseline replays those choices from
the same seed, and at every decision the player and the legal option ids
must be the interpreter's, in the same order; the final scores, score
breakdowns, winners, turns and first player must be equal too.
"""
from __future__ import annotations

import importlib.util
import itertools

import pytest

from interpreter import rng
from interpreter.agents import make_agents

from .conftest import ROOT


def _load_baseline():
    spec = importlib.util.spec_from_file_location("baseline_catalyst", ROOT / "benchmarks" / "baseline_catalyst.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


baseline = _load_baseline()

DECLINE = ("pass", "no", "done", "collect")


def random_policy(players, seed):
    """The random bots the benchmark runs."""
    agents = make_agents("random", players, seed)
    return lambda player, ids: agents[player].choose_id(ids)


def eager_policy(players, seed):
    """Mostly takes the first option that does something (recruit, activate,
    use a building, resolve an effect), so games reach buildings, chains of
    activations and long resolutions more often than random play does."""
    cell = [rng.seed_state(seed * 31 + players)]

    def choose(player, ids):
        cell[0], roll = rng.below(cell[0], 10)
        if roll < 8:
            for option in ids:
                if option not in DECLINE:
                    return option
        cell[0], i = rng.below(cell[0], len(ids))
        return ids[i]

    return choose


@pytest.fixture(scope="module")
def cards():
    return baseline.Cards()


def interpreter_game(game, players, seed, policy):
    """Play with the interpreter: the result and every decision as
    (player, decision point, legal ids, chosen id)."""
    st = game.new_initial_state(players, seed)
    choose = policy(players, seed)
    trace = []
    while not st.is_terminal():
        player, ids = st.current_player(), st.legal_actions()
        choice = choose(player, ids)
        trace.append((player, st.decision_point(), ids, choice))
        st.apply_action(choice)
    result = st.result()
    assert result.pop("lost") is False
    return result, trace


def compare(game, cards, players, seed, policy) -> set:
    """Replay an interpreter game on the baseline; return the decision points asked."""
    expected, trace = interpreter_game(game, players, seed, policy)
    steps = iter(enumerate(trace))

    def replay(player, kind, options):
        ids = baseline.option_ids(cards, kind, options)
        step = next(steps, None)
        assert step is not None, f"{players}p seed {seed}: the baseline asks {ids} after the interpreter's game ended"
        i, (want_player, _, want_ids, choice) = step
        assert (player, ids) == (want_player, want_ids), f"{players}p seed {seed}, decision {i}"
        return ids.index(choice)

    result = baseline.play(cards, players, seed, replay)
    assert next(steps, None) is None, f"{players}p seed {seed}: the baseline ended before the interpreter"
    assert result == expected, f"{players}p seed {seed}"
    return {point for _, point, _, _ in trace}


def test_card_ids_are_the_interpreters(catalyst, cards):
    assert cards.ids == catalyst.program.card_ids


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_decisions_and_scores(catalyst, cards, players):
    for seed in range(12):
        compare(catalyst, cards, players, seed, random_policy)
        compare(catalyst, cards, players, seed, eager_policy)


@pytest.mark.slow
def test_same_decisions_and_scores_over_many_games(catalyst, cards):
    asked = set()
    for players, seed, policy in itertools.product([2, 3, 4], range(25, 125), [random_policy, eager_policy]):
        asked |= compare(catalyst, cards, players, seed, policy)
    # Every decision point of the rules was asked somewhere, except where the
    # cards never ask: a building whose effect offers alternatives.
    never = {i for i, p in enumerate(catalyst.program.decisions) if type(p).__name__ == "ResolveAllPoint"}
    assert asked == set(range(len(catalyst.program.decisions))) - never


def test_a_different_choice_is_caught(catalyst, cards):
    """The comparison fails when the baseline offers other options."""
    original = baseline.option_ids

    def shuffled(cards_, kind, options):
        return list(reversed(original(cards_, kind, options)))

    baseline.option_ids = shuffled
    try:
        with pytest.raises(AssertionError):
            compare(catalyst, cards, 2, 1, random_policy)
    finally:
        baseline.option_ids = original
