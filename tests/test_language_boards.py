"""General constructs added for the second game, on small games of their own:
boards of card spaces with distances, `has`, games won together, the team
win rate of a simulation, and choices among computed positions."""
from __future__ import annotations

import pytest

from interpreter.errors import CheckError, RulesError
from interpreter.loader import load_game

from .conftest import game_files

# A 3 x 3 grid without its middle square, and a one-way shortcut from A to C.
SQUARES = """\
square:
  - {name: A, x: 0, y: 0, shortcut: C}
  - {name: B, x: 1, y: 0}
  - {name: C, x: 2, y: 0}
  - {name: D, x: 0, y: 1}
  - {name: F, x: 2, y: 1}
  - {name: G, x: 0, y: 2}
  - {name: H, x: 1, y: 2}
  - {name: I, x: 2, y: 2}
  - {name: Island, x: 9, y: 9}
token:
  - {name: Pawn}
"""

GRID = """\
game "Grid"
players 2
cards "cards.yaml" into box
counter at: per player
zone box: shared, visible
zone board: shared, visible
board square: a next to b when abs(a.x - b.x) + abs(a.y - b.y) == 1 or (has(a, "shortcut") and a.shortcut == b.name)
define here = bottom([s for s in board where s.x * 10 + s.y == at])
setup:
    move [s for s in box where s is square] to board
turn:
    choose s in board where s != here and distance(here, s) != none and distance(here, s) <= 2 as "go to {s.name} ({distance(here, s)} steps)":
        set at to s.x * 10 + s.y
    if at == 22:
        end game won
score:
    "Steps": 0
"""


def load(rules, cards=SQUARES):
    return load_game(text=rules, cards={"cards.yaml": cards})


def ids(game, *names):
    return [game.program.card_ids[game.program.card_names.index(n)] for n in names]


# ---------------------------------------------------------------- boards
def test_distance_goes_around_missing_squares():
    game = load(GRID)
    boards, names = game.program.boards, game.program.card_names
    at = {n: i for i, n in enumerate(names)}
    assert boards.distance(at["B"], at["H"]) == 4  # around the missing middle square
    assert boards.distance(at["F"], at["D"]) == 4
    assert boards.distance(at["A"], at["A"]) == 0


def test_adjacency_is_directed():
    """`a next to b` need not mean `b next to a`: a one-way shortcut."""
    game = load(GRID)
    at = {n: i for i, n in enumerate(game.program.card_names)}
    assert game.program.boards.distance(at["A"], at["C"]) == 1
    assert game.program.boards.distance(at["C"], at["A"]) == 2
    assert game.program.boards.distance(at["D"], at["F"]) == 3  # through the shortcut


def test_unreachable_space_is_none():
    game = load(GRID)
    at = {n: i for i, n in enumerate(game.program.card_names)}
    assert game.program.boards.distance(at["A"], at["Island"]) is None


def test_choices_by_distance_in_a_game():
    game = load(GRID)
    st = game.new_initial_state(2, seed=1)  # at 0: square A
    assert sorted(st.legal_actions()) == sorted(ids(game, "B", "C", "D", "F", "G"))
    labels = {o.id: o.label for o in st.legal_options()}
    assert labels[ids(game, "C")[0]] == "go to C (1 steps)" and labels[ids(game, "G")[0]] == "go to G (2 steps)"
    st.apply_action(ids(game, "G")[0])
    st.apply_action(ids(game, "B")[0])  # player 2, from A too
    st.apply_action(ids(game, "H")[0])
    st.apply_action(ids(game, "C")[0])
    st.apply_action(ids(game, "I")[0])
    assert st.is_terminal() and st.result()["outcome"] == "won"


def test_distance_of_a_card_off_the_board_is_an_error():
    rules = GRID.replace("    if at == 22:", "    if distance(here, top([t for t in box where t is token])) == 1:")
    game = load(rules)
    st = game.new_initial_state(2, seed=1)
    with pytest.raises(RulesError, match="is not a space of any board"):
        st.apply_action(st.legal_actions()[0])


def test_adjacency_may_use_fixed_definitions_but_not_the_state():
    fixed = GRID.replace("board square: a next to b when abs(a.x - b.x) + abs(a.y - b.y) == 1",
                         "define gap(a, b) = abs(a.x - b.x) + abs(a.y - b.y)\nboard square: a next to b when gap(a, b) == 1")
    assert load(fixed).program.boards is not None
    changing = fixed.replace("define gap(a, b) = abs(a.x - b.x) + abs(a.y - b.y)",
                             "define gap(a, b) = abs(a.x - b.x) + abs(a.y - b.y) + size(board)")
    with pytest.raises(CheckError, match="cannot read the definition 'gap', which reads what changes"):
        load(changing)
    for word, what in (("me", "'me', which changes"), ("slot(a)", "the function 'slot'"), ("at of 0", "'at of ...'")):
        rules = GRID.replace("abs(a.x - b.x) + abs(a.y - b.y) == 1", f"abs(a.x - b.x) + abs(a.y - b.y) == 1 + {word}")
        with pytest.raises(CheckError, match=what):
            load(rules)


def test_a_field_missing_from_a_space_is_reported_at_load():
    rules = GRID.replace('(has(a, "shortcut") and a.shortcut == b.name)', "a.shortcut == b.name")
    with pytest.raises(RulesError, match="board 'square': card 'B' has no field 'shortcut'"):
        load(rules)


# ---------------------------------------------------------------- has
def test_has_tells_whether_a_card_gives_a_field():
    rules = GRID.replace('    if at == 22:', '    if has(here, "shortcut"):')
    game = load(rules)
    st = game.new_initial_state(2, seed=1)
    st.apply_action(ids(game, "B")[0])
    assert not st.is_terminal()
    st.apply_action(ids(game, "B")[0])
    st.apply_action(ids(game, "A")[0])  # player 1 back on A, which has a shortcut
    assert st.is_terminal()


# ---------------------------------------------------------------- games won together
TEAM = """\
game "Team"
players 2..3
cards "cards.yaml" into box
counter progress: shared, min 0
counter danger: shared, min 0
zone box: shared, visible
zone kept: per player, visible
setup:
    pass
turn:
    choose c in box as "keep {c.name}":
        move c to kept
    may "work on the plan":
        gain 1 progress
    else:
        gain 1 danger
    if progress >= 2:
        end game won
    if danger >= 2:
        end game lost
score:
    "Kept": count c in kept
"""


def test_a_game_won_together_is_won_by_everyone():
    game = load(TEAM)
    st = game.new_initial_state(2, seed=1)
    for action in (ids(game, "A")[0], "yes", ids(game, "B")[0], "no", ids(game, "C")[0], "yes"):
        st.apply_action(action)
    assert st.is_terminal()
    assert st.winners() == [0, 1] and st.returns() == [1.0, 1.0]
    result = st.result()
    assert result["outcome"] == "won" and result["lost"] is False
    assert result["scores"] == [2, 1] and result["top_scorers"] == [0]


def test_a_game_lost_together_names_its_top_scorers():
    game = load(TEAM)
    st = game.new_initial_state(2, seed=1)
    for action in (ids(game, "A")[0], "no", ids(game, "B")[0], "no"):
        st.apply_action(action)
    assert st.is_terminal() and st.winners() == [] and st.returns() == [0.0, 0.0]
    assert st.result()["outcome"] == "lost" and st.result()["top_scorers"] == [0, 1]


def test_an_ordinary_end_gives_no_outcome():
    game = load(TEAM.replace("        end game won", "        end game now"))
    st = game.new_initial_state(2, seed=1)
    for action in (ids(game, "A")[0], "yes", ids(game, "B")[0], "yes"):
        st.apply_action(action)
    assert st.is_terminal() and "outcome" not in st.result() and st.winners() == [0, 1]
    assert st.returns() == [0.5, 0.5]


def test_simulation_reports_the_team_win_rate(tmp_path):
    from interpreter.simulation import simulate

    result = simulate(str(game_files(tmp_path, TEAM, SQUARES)), games=60, players=2, jobs=1, seed=3)
    s = result.summary
    team = s["team"]
    lost = s["lost_by_all"]["wins"]
    assert 0 < lost < 60
    assert team["win_rate"]["wins"] == 60 - lost
    # a game won together is a whole win for every seat
    assert [row["wins"] for row in s["win_rate_by_seat"]] == [60 - lost] * 2
    assert sum(row["wins"] for row in team["top_score_by_seat"]) == pytest.approx(60)
    from cli.simulate import summary_text

    assert "team win rate" in summary_text(s)


def test_simulation_of_a_competitive_game_has_no_team_block(tmp_path):
    from interpreter.simulation import simulate

    rules = TEAM.replace("        end game won", "        end game now").replace("        end game lost", "        end game now")
    s = simulate(str(game_files(tmp_path, rules, SQUARES)), games=5, players=2, jobs=1).summary
    assert "team" not in s


def test_the_run_command_says_who_won_together(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli

    out = CliRunner().invoke(cli, ["run", str(game_files(tmp_path, TEAM, SQUARES)), "--bots", "random", "--seed", "1", "--players", "2"])
    assert out.exit_code == 0, out.output
    assert "the players win together; top score" in out.output or "the players lose together; top score" in out.output


# ---------------------------------------------------------------- choices among positions
def test_choices_among_computed_positions_are_in_the_action_vocabulary():
    from interpreter.adapters.encoding import Encoding

    rules = TEAM.replace('    choose c in box as "keep {c.name}":\n        move c to kept',
                         '    choose i in [slot(c) + 1 for c in box] as "keep the card in place {i}":\n'
                         '        move [c for c in box where slot(c) + 1 == i] to kept')
    game = load(rules)
    enc = Encoding(game)
    st = game.new_initial_state(2, seed=1)
    assert st.legal_actions() == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert len(enc.legal_indices(st)) == 10
