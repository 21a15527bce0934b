"""Boards that grow: `board KIND in ZONE`, whose spaces are the cards placed
in the zone during play, next to each other by counters set as they arrive
(tests/fixtures/boards/realm.rules)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli

from .conftest import ROOT, checked_game, play

REALM = ROOT / "tests" / "fixtures" / "boards" / "realm.rules"


@pytest.fixture(scope="module")
def game():
    return checked_game(REALM)


def distance(st, a, b):
    return st.program.boards.distance(st.card_index(a), st.card_index(b), st)


def test_spaces_join_the_board_as_they_are_placed(game):
    st = game.new_initial_state(2, 1)
    order = st.zone("deck")[::-1]  # the order the tiles are drawn in
    first, second, third, fourth, fifth = order[:5]
    play(st, "0")  # player 1: first at column 0, row 0
    assert distance(st, first, first) == 0 and distance(st, first, third) is None  # third is not placed yet
    play(st, "0", "0")  # player 2: second at (0, 0) of its own realm; player 1: third at (0, 1)
    assert distance(st, first, third) == 1
    assert distance(st, first, second) is None  # another player's realm is another board
    play(st, "3", "1")  # player 2: fourth at (3, 0); player 1: fifth at (1, 0)
    assert distance(st, third, fifth) == 2 and distance(st, fifth, first) == 1
    assert distance(st, second, fourth) is None  # placed, but not joined by any way


def test_points_come_from_the_neighbours_present_when_placed(game):
    st = game.new_initial_state(2, 1)
    order = st.zone("deck")[::-1]
    value = {c: st.program.fields["value"][st.card_index(c)] for c in order}
    play(st, "0", "0", "0")  # player 1: first (0, 0), then third (0, 1) next to first
    assert st.counter("points", 0) == value[order[0]]
    play(st, "2", "1")  # player 2: fourth at (2, 0), alone; player 1: fifth (1, 0) next to first
    assert st.counter("points", 1) == 0
    assert st.counter("points", 0) == value[order[0]] * 2


def test_a_growing_board_plays_saves_and_simulates(game, tmp_path):
    st = game.new_initial_state(2, 3)
    play(st, "1", "2")
    again = game.state_from_json(st.to_json())
    assert again.fingerprint() == st.fingerprint()
    log = tmp_path / "realm.jsonl"
    result = CliRunner().invoke(cli, ["run", str(REALM), "--bots", "mcts:6", "--seed", "4", "--quiet", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(cli, ["replay", str(log)]).exit_code == 0
    assert CliRunner().invoke(cli, ["simulate", str(REALM), "-n", "20"]).exit_code == 0


def test_a_board_grows_only_in_a_declared_zone(tmp_path):
    (tmp_path / "tiles.yaml").write_text((REALM.parent / "tiles.yaml").read_text())
    (tmp_path / "realm.rules").write_text(REALM.read_text().replace("board tile in realm", "board tile in relm"))
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "realm.rules")])
    assert result.exit_code == 1
    assert "error: board 'tile' grows in zone 'relm', which is not declared" in result.output
    assert "did you mean 'realm'?" in result.output
