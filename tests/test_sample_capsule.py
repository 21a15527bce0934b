"""The capsule game sample (rules/samples/capsule/, seed 004): phases with
their own order of play, simultaneous Phases II and III, bag draws, and the
offer refilled from its stacks, played through the real command line, the
decision API, every bot, `simulate` and both agent adapters."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import AGENTS, make_agents
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import ROOT, play

CAPSULE = ROOT / "rules" / "samples" / "capsule" / "capsule.rules"


@pytest.fixture(scope="module")
def capsule():
    return load_game(CAPSULE)


def test_check_strict_passes():
    result = CliRunner().invoke(cli, ["check", "--strict", str(CAPSULE)])
    assert result.exit_code == 0, result.output


def test_a_round_is_purchase_then_simultaneous_action_then_packing(capsule):
    st = capsule.new_initial_state(2, seed=1, listen=True)
    # I. Purchase: two capsules opened from each bag, their contents active
    for p in (0, 1):
        assert len(st.zone("opened", p)) == 2 and len(st.zone("bag", p)) == 2
        assert len(st.zone("active", p)) == 4
    assert st.phase == 1 and st.current_player() == 0
    assert "pass_turn" in st.legal_actions()
    play(st, "pass_turn", "pass_turn")  # both passed in a row: Phase II
    assert st.phase == 2 and st.decision().prompt.lower().startswith("act")
    first = st.current_player()
    play(st, "pass")  # player 1 ends Phase II, unseen by player 2
    assert st.phase == 2 and st.current_player() != first


def test_buying_refills_the_offer_from_its_stack(capsule):
    for seed in range(20):
        st = capsule.new_initial_state(2, seed=seed)
        if "buy" in st.legal_actions():
            break
    play(st, "buy")
    bought = st.legal_actions()[0]
    stack = len(st.zone("qubit_stack")) + len(st.zone("energy_stack"))
    play(st, bought)
    assert bought in st.zone("inactive", 0)
    assert None not in st.zone("qubit_offer") and None not in st.zone("energy_offer")
    assert len(st.zone("qubit_stack")) + len(st.zone("energy_stack")) == stack - 1


def test_the_bag_is_refilled_with_all_four_capsules_when_empty(capsule):
    st = capsule.new_initial_state(2, seed=2)
    rounds_seen = set()
    while not st.is_terminal() and st.round < 4:
        if st.phase == 1 and st.round not in rounds_seen:
            rounds_seen.add(st.round)
            # every round opens two capsules: 4, then 2 left, then back to 4 (all 4 in the bag)
            assert len(st.zone("bag", 0)) == (2 if st.round % 2 == 1 else 0)
            assert len(st.zone("opened", 0)) + len(st.zone("bag", 0)) + len(st.zone("set_aside", 0)) == 4
        st.apply_action(st.legal_actions()[-1])
    assert {1, 2, 3} <= rounds_seen


def test_cli_prints_round_and_phase():
    result = CliRunner().invoke(cli, ["run", str(CAPSULE), "--players", "2", "--seed", "5", "--bots", "random"])
    assert result.exit_code == 0, result.output
    for text in ("phase 1: I. Purchase", "phase 2: II. Action", "phase 3: III. End of the round",
                 "round  6 phase 3", "all have chosen:"):
        assert text in result.output


@pytest.mark.slow
@pytest.mark.parametrize("bot, players", [(bot, players) for bot in sorted(AGENTS) for players in (2, 3, 4)
                                          if bot != "mcts" or players == 2])  # mcts with more players: below
def test_every_bot_plays_to_the_end(capsule, bot, players):
    spec = "mcts:10" if bot == "mcts" else bot
    final = play_game(capsule, players, 7, make_agents(spec, players, 7))
    assert final.is_terminal() and final.round == 6


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_mcts_plays_to_the_end_with_more_players(capsule, players):
    assert play_game(capsule, players, 7, make_agents("mcts:20", players, 7)).is_terminal()


def test_simulate_200_games():
    result = CliRunner().invoke(cli, ["simulate", str(CAPSULE), "-n", "200", "--players", "3", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "200 games" in result.output
