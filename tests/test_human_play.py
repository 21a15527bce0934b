"""Playing at the terminal: a whole solo game typed on stdin, with an invalid
entry, an undo and a save/--load round trip, ends exactly like the same
choices made through the API."""
from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import make_agent
from interpreter.view import option_numbers

from .conftest import RULES

SOLO = str(RULES / "solo.rules")


def planned_game(solo, seed, resumed_at=None):
    """Numbers a player would type (as the table lists the options, see
    view.option_numbers; numbered afresh where the game is resumed), and the result."""
    st = solo.new_initial_state(2, seed)
    bot = make_agent("random", seed, 0)
    typed, numbering = [], None
    while not st.is_terminal():
        decision = st.decision()
        choice = bot.choose(decision, {})
        numbering = option_numbers(st, None if len(typed) == resumed_at else numbering)
        typed.append(str(numbering[1][choice]))
        st.apply_action(choice)
    return typed, st.result()


def test_whole_solo_game_on_stdin_with_undo_save_and_load(tmp_path):
    from interpreter import load_game

    solo = load_game(SOLO)
    typed, expected = planned_game(solo, seed=4)
    assert len(typed) > 20
    half = len(typed) // 2
    typed, expected = planned_game(solo, seed=4, resumed_at=half)
    save = tmp_path / "game.json"
    # An invalid entry and an out-of-range one are asked again; undo goes back
    # one decision, which is then answered again.
    first = ["x", "99", typed[0], typed[1], "undo", typed[1]] + typed[2:half] + [f"save {save}", "quit"]
    runner = CliRunner()
    out = runner.invoke(cli, ["run", SOLO, "--human", "1", "--seed", "4"], input="\n".join(first) + "\n")
    assert out.exit_code == 0, out.output
    assert "Please type a number from 1 to" in out.output
    assert "Back to your previous decision." in out.output
    assert f"Saved to {save}." in out.output
    assert "Traceback" not in out.output
    assert json.loads(save.read_text())["human"] == [0]

    rest = runner.invoke(cli, ["run", "--load", str(save), "--json"], input="\n".join(typed[half:]) + "\n")
    assert rest.exit_code == 0, rest.output
    result = json.loads(rest.output.strip().splitlines()[-1])
    for key in ("scores", "breakdown", "winners", "turns"):
        assert result[key] == expected[key]


def test_table_shows_market_prices_and_options(tmp_path):
    out = CliRunner().invoke(cli, ["run", SOLO, "--human", "1", "--seed", "2"], input="?\nquit\n")
    assert out.exit_code == 0, out.output
    assert "market" in out.output and "coins" in out.output
    assert "1. Collect Contributions" in out.output
    assert "undo          go back to your previous decision" in out.output
    assert "card NAME     a card's details" in out.output and "history [N]" in out.output


def test_no_terminal_and_no_bots_lets_random_bots_play(tmp_path):
    """As `run --help` says: away from a terminal and without --bots, random
    bots play every player (and a note on standard error says so)."""
    out = CliRunner().invoke(cli, ["run", SOLO, "--seed", "3"])
    assert out.exit_code == 0, out.output
    assert "no terminal to play at: random bots play every player" in out.output
    same = CliRunner().invoke(cli, ["run", SOLO, "--seed", "3", "--bots", "random"])
    assert out.output.splitlines()[1:] == same.output.splitlines()


def test_solo_with_a_bot_finishes(tmp_path):
    out = CliRunner().invoke(cli, ["run", SOLO, "--bots", "greedy", "--seed", "3", "--quiet"])
    assert out.exit_code == 0, out.output
    assert len(out.output.strip().splitlines()) == 2


def test_load_of_a_damaged_save_is_an_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rules-game-save/1", "rules": 3}')
    out = CliRunner().invoke(cli, ["run", "--load", str(bad)])
    assert out.exit_code == 1
    assert "damaged" in out.output and "Traceback" not in out.output


def test_lookups_positions_history_and_undo_at_the_table():
    """`card N` shows the card option N names; `@P` picks the option naming
    the card at position P; `history` holds the player's own choices and what
    followed, and forgets what an undo took back."""
    typed = ["2", "card 4", "@5", "history 6", "undo", "history 2", "@9", "quit"]
    out = CliRunner().invoke(cli, ["run", SOLO, "--human", "1", "--seed", "3"], input="\n".join(typed) + "\n")
    assert out.exit_code == 0, out.output
    text = out.output
    card = text[text.index("> card 4"):text.index("> @5")]
    assert "Glimmer Page (catalyst)" in card and "where    market, position 5" in card
    assert "effects  chain/coin build (take 1 chain token or take 1 coin; acquire 1 building)" in card
    after = text[text.index("> @5"):text.index("> history 6")]
    assert "Glimmer Page: market -> player 1's playing area" in after
    history = text[text.index("> history 6"):text.index("> undo")]
    assert "player 1: recruit Glimmer Page from space 5 for 0 coins" in history
    back = text[text.index("> history 2"):text.index("> @9")]
    assert "Glimmer Page: market" not in back and "player 1: Recruit a Catalyst" in back
    assert "No option names a card at position 9." in text
