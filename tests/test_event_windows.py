"""Reactions to the events the engine announces itself (turn_start,
turn_end, phase_start, phase_end), on two small real rules files
(tests/flow/watch.rules in turns, tests/flow/harbour.rules in phases) driven
through the decision API, saves, logs and replay, the bots, the agent
adapters and the command line."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import AGENTS, make_agents
from interpreter.language.builtin_events import EVENTS
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import ROOT, asked, play

FLOW = ROOT / "tests" / "flow"
WATCH = FLOW / "watch.rules"
HARBOUR = FLOW / "harbour.rules"


@pytest.fixture(scope="module")
def watch():
    return load_game(WATCH)


@pytest.fixture(scope="module")
def harbour():
    return load_game(HARBOUR)



def window(st, prompt) -> list:
    """The players asked in a row with `prompt`, each declining."""
    order = []
    while not st.is_terminal() and st.decision().prompt == prompt:
        order.append(st.current_player())
        play(st, "no")
    return order


# ---------------------------------------------------------------- turns
def test_the_other_player_is_offered_the_reaction_on_a_turn_not_its_own(watch):
    st = watch.new_initial_state(2, seed=1)
    assert asked(st) == (1, "react to turn start", "cheer player 1 on")
    play(st, "no")
    assert asked(st) == (0, "turn", "dig for 2 gold")
    play(st, "yes")
    # the end of player 1's turn: player 2 may take 1 gold from player 1
    assert asked(st) == (1, "react to turn end", "spend a token to take 1 gold from player 1")
    play(st, "yes")
    assert (st.counter("gold", 0), st.counter("gold", 1), st.counter("tokens", 1)) == (1, 1, 0)
    # player 2's turn: player 1 is offered both windows, player 2 neither
    assert asked(st) == (0, "react to turn start", "cheer player 2 on")
    play(st, "no", "yes")
    assert asked(st) == (0, "react to turn end", "spend a token to take 1 gold from player 2")
    play(st, "no")
    assert st.turns == 3 and asked(st) == (1, "react to turn start", "cheer player 1 on")


def test_two_responders_are_asked_in_seat_order_after_the_player_whose_turn_it_is(watch):
    st = watch.new_initial_state(3, seed=1)
    assert window(st, "react to turn start") == [1, 2]
    play(st, "yes")
    assert window(st, "react to turn end") == [1, 2]
    assert st.turns == 2 and window(st, "react to turn start") == [2, 0]  # player 2's turn: 3, then 1
    play(st, "yes")
    assert window(st, "react to turn end") == [2, 0]
    assert st.turns == 3 and window(st, "react to turn start") == [0, 1]


def test_the_windows_sit_inside_the_turn_hooks(watch):
    """at start of turn, the turn_start window, the turn, the turn_end
    window, at end of turn (`mark` is 1, 2, 3 after each of them)."""
    st = watch.new_initial_state(2, seed=1)
    play(st, "yes", "yes", "yes")
    assert st.counter("seen_start", 1) == 1 and st.counter("seen_end", 1) == 2


def test_a_reaction_whose_condition_fails_is_not_offered(watch):
    st = watch.new_initial_state(2, seed=1)
    play(st, "yes", "no")  # player 2 cheers (once a game); player 1 takes 1 gold
    play(st, "yes")  # player 2 spends its only token on it
    play(st, "yes", "no", "no")  # player 1 cheers; player 2's turn; player 1 keeps its token
    # player 1's turn: player 2 has cheered and has no token: no window at all
    assert st.turns == 3 and asked(st) == (0, "turn", "dig for 2 gold")
    play(st, "no")
    # player 2's turn: player 1 has cheered (no turn_start window), and player
    # 2's turn_end window comes after the turn
    assert st.turns == 4 and asked(st) == (1, "turn", "dig for 2 gold")
    play(st, "no")
    assert asked(st) == (0, "react to turn end", "spend a token to take 1 gold from player 2")


def test_saves_load_in_the_middle_of_a_window(watch):
    st = watch.new_initial_state(3, seed=2)
    play(st, "no", "no", "yes", "no")  # player 1's turn_end window: player 2 has declined
    assert asked(st)[:2] == (2, "react to turn end")
    resumed = watch.state_from_json(st.to_json())
    assert resumed.to_json() == st.to_json() and asked(resumed) == asked(st)
    play(resumed, "yes")
    play(st, "yes")
    assert resumed.to_json() == st.to_json() and resumed.counter("tokens", 2) == 0
    # a position without its history (checked field by field) resumes the window too
    st = watch.new_initial_state(3, seed=2)
    play(st, "no", "no", "yes", "no")
    st.forget_history()
    loaded = watch.state_from_json(st.to_json())
    assert asked(loaded) == (2, "react to turn end", "spend a token to take 1 gold from player 1")
    play(loaded, "yes")
    assert loaded.counter("gold", 2) == 1 and loaded.turns == 2


def test_a_logged_game_with_windows_replays(tmp_path):
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(cli, ["run", str(WATCH), "--players", "3", "--seed", "6", "--bots", "random",
                                      "--quiet", "--log", str(log)])
    assert result.exit_code == 0, result.output
    taken = [json.loads(line).get("label", "") for line in log.read_text().splitlines()]
    reactions = [label for label in taken if label.startswith(("spend a token", "cheer"))]
    assert reactions
    replayed = CliRunner().invoke(cli, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert all(label in replayed.output for label in reactions)


def test_the_rules_pass_check_strict_without_any_announce():
    """No "which no rule announces" warning for a reaction to the engine's events."""
    for rules in (WATCH, HARBOUR):
        result = CliRunner().invoke(cli, ["check", "--strict", str(rules)])
        assert result.exit_code == 0 and result.output.strip().endswith(": ok"), result.output


@pytest.mark.parametrize("bot", sorted(AGENTS))
def test_every_bot_plays_to_the_end(watch, harbour, bot):
    spec = f"{bot}:30" if bot == "mcts" else bot
    for game in (watch, harbour):
        for players in (2, 3, 4):
            final = play_game(game, players, 3, make_agents(spec, players, 3))
            assert final.is_terminal()


# ---------------------------------------------------------------- phases
def test_a_phase_window_is_offered_to_every_player_in_the_rounds_order(harbour):
    st = harbour.new_initial_state(3, seed=1)
    # the Load phase needs no decision; its end: everyone with gold may rest, first player first
    assert asked(st) == (0, "react to phase end", "rest after phase 1") and st.phase == 1
    play(st, "yes", "no", "yes")
    assert [st.counter("rested", p) for p in range(3)] == [1, 0, 1]
    # the Sail phase has begun (after `at start of phase`, which set mark to 2): prepare
    assert asked(st) == (0, "react to phase start", "make ready to sail (phase 2)") and st.phase == 2
    play(st, "yes")
    assert st.counter("gold", 0) == 1 + 2
    assert window(st, "react to phase start") == [1, 2]
    assert (st.current_player(), st.decision().prompt) == (0, "sail")


def test_a_phase_window_whose_conditions_fail_asks_nothing(harbour):
    """`prepare` answers only the start of the second phase, and only once a
    game: in the second round only the ends of the phases are offered."""
    st = harbour.new_initial_state(2, seed=1)
    play(st, "no", "no", "yes", "yes")  # nobody rests; both make ready
    play(st, "no", "no")  # nobody sails
    # the end of Sail, then (round 2, Load asks nothing) the end of Load, and no phase_start window
    assert window(st, "react to phase end") == [0, 1, 0, 1]
    assert st.round == 2 and st.phase == 2 and st.decision().prompt == "sail"


def test_phase_windows_run_before_the_end_of_phase_hook(harbour):
    st = harbour.new_initial_state(2, seed=1)
    assert st.counter("mark") == 1  # `at end of phase` (mark 0) has not run yet
    play(st, "no", "no")
    assert st.counter("mark") == 2 and st.phase == 2


# ---------------------------------------------------------------- the registry
@pytest.mark.parametrize("name", sorted(EVENTS))
def test_every_engine_event_example_checks(name, tmp_path):
    """The registry's example reaction of each event, in a game with phases."""
    (tmp_path / "cards.yaml").write_text((FLOW / "cards.yaml").read_text())
    rules = tmp_path / "game.rules"
    rules.write_text(HARBOUR.read_text().replace("score:\n", f"{EVENTS[name].example}:\n    gain 1 gold\nscore:\n"))
    result = CliRunner().invoke(cli, ["check", "--strict", str(rules)])
    assert result.exit_code == 0, result.output


def test_the_story_tells_a_decline_to_the_player_who_declined_alone(watch):
    """A player is told which window it let pass; the others are not told
    that it could react (a decline reads as not being able to)."""
    from interpreter.events import tell_all
    from interpreter.visibility import EVERYTHING, PUBLIC

    st = watch.new_initial_state(2, seed=1, listen=True)
    st.events = []
    assert asked(st)[:2] == (1, "react to turn start")
    play(st, "no")
    told = {viewer: [text for _, text in tell_all(st, st.events, viewer)] for viewer in (0, 1, PUBLIC, EVERYTHING)}
    assert "player 2: no reaction to turn start" in told[1]
    assert "player 2: no reaction to turn start" in told[EVERYTHING]
    assert not any("reaction" in line for line in told[0] + told[PUBLIC])
