"""General constructs on small games: acting for another player, a shared
loss, triggers, hooks, rankings with shared places."""
from __future__ import annotations

from interpreter.loader import load_game

from .conftest import game_files

CARDS = """\
thing:
  - {name: Alpha, cost: 1}
  - {name: Beta, cost: 2}
  - {name: Gamma, cost: 3}
  - {name: Delta, cost: 4}
"""

DRAFT = """\
game "Draft"
players 2..3
cards "cards.yaml" into box
counter gold: per player, min 0
counter danger: shared, min 0
zone box: shared, visible
zone hand: per player, visible
setup:
    # every player picks a card in setup, in seat order
    for each p in seats:
        as p:
            choose c in box as "draft {c.name}":
                move c to hand
turn:
    gain 1 gold
    gain 1 danger
at end of round:
    if danger >= limit:
        end game lost
param limit = 4
score:
    "Cards": sum c.cost for c in hand
"""


def load(rules):
    return load_game(text=rules, cards={"cards.yaml": CARDS})


def test_as_gives_the_decision_to_that_player():
    st = load(DRAFT).new_initial_state(2, seed=1)
    assert st.current_player() == 0 and len(st.legal_actions()) == 4
    st.apply_action("gamma")
    assert st.current_player() == 1 and "gamma" not in st.legal_actions()
    st.apply_action("alpha")
    assert st.zone("hand", 0) == ["gamma"] and st.zone("hand", 1) == ["alpha"]


def test_end_game_lost_means_nobody_wins():
    st = load(DRAFT).new_initial_state(2, seed=1)
    st.apply_action("gamma")
    st.apply_action("alpha")
    assert st.is_terminal()  # turns have no decisions: the game runs to its loss
    assert st.counter("danger") == 4
    assert st.winners() == [] and st.returns() == [0.0, 0.0]
    assert st.result()["lost"] is True
    assert st.scores() == [3, 1]  # scores still count ("most beloved" among losers)


def test_without_the_loss_the_best_score_wins():
    rules = DRAFT.replace("        end game lost", "        end game now")
    st = load(rules).new_initial_state(2, seed=1)
    st.apply_action("gamma")
    st.apply_action("alpha")
    assert st.winners() == [0] and st.returns() == [1.0, 0.0] and st.result()["lost"] is False


def test_stop_may_not_leave_an_as_block():
    import pytest

    from interpreter.errors import CheckError

    rules = DRAFT.replace("            choose c in box", "            repeat while true:\n                stop\n            choose c in box")
    load(rules)  # a loop inside the block is fine
    rules = DRAFT.replace("    for each p in seats:\n        as p:\n", "    for each p in seats:\n        as p:\n            stop\n")
    with pytest.raises(CheckError, match="'stop' outside a loop"):
        load(rules)


def make(text, cards=CARDS):
    return load_game(text=text, cards={"cards.yaml": cards})


VALUES = """\
game "Values"
players 2
cards "cards.yaml" into box
counter energy: per player
counter spent: per player
zone box: shared, visible
define energy_left = energy - spent
define secret_plan = spent * 10
show energy_left per player
show secret_plan per player, owner only
setup:
    for each p in seats:
        set energy of p to 5 + p
turn:
    may "spend 1 energy":
        gain 1 spent
    if round >= 2:
        end game now
score:
    "left": energy_left
"""


def test_a_value_shown_per_player_is_in_the_observation_as_each_may_see_it():
    """`show NAME per player` works a definition out as each player; `owner
    only` shows each player their own value alone."""
    game = make(VALUES)
    st = game.new_initial_state(2, 1)
    st.apply_action("yes")
    seen = st.observation(0)["values"]
    assert seen["energy_left"] == [5 - st.counter("spent", 0), 6 - st.counter("spent", 1)]
    assert seen["secret_plan"][0] == st.counter("spent", 0) * 10 and seen["secret_plan"][1] is None
    assert st.observation(1)["values"]["secret_plan"][0] is None


def test_a_value_shown_per_player_is_drawn_at_the_table(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli

    result = CliRunner().invoke(cli, ["run", str(game_files(tmp_path, VALUES, CARDS)), "--human", "1", "--seed", "1"], input="quit\n")
    assert "energy left" in result.output and "secret plan" in result.output


KNOCKOUT = """\
game "Knockout"
players 3
cards "cards.yaml" into box
counter alive: per player, min 0, max 1
counter turns_taken: per player
zone box: shared, visible
turn order [p for p in seats where alive of p == 1]
setup:
    for each p in seats:
        set alive of p to 1
turn:
    gain 1 turns_taken
    # the first player knocks out the last one, mid-round
    if me == 0 and round == 1:
        set alive of 2 to 0
    if round >= 2:
        end game now
score:
    "turns": turns_taken
"""


def test_a_player_left_out_of_the_turn_order_mid_round_takes_no_further_turn():
    """`turn order` is read again before every turn."""
    from interpreter.agents import make_agents
    from interpreter.play import play_game

    final = play_game(make(KNOCKOUT), 3, 1, make_agents("random", 3, 1))
    assert [final.counter("turns_taken", p) for p in range(3)] == [2, 1, 0]


def test_a_definition_shown_per_player_counts_as_used(tmp_path):
    from click.testing import CliRunner

    from cli.main import cli

    # `secret_plan` is read only by its `show`
    result = CliRunner().invoke(cli, ["check", "--strict", str(game_files(tmp_path, VALUES, CARDS))])
    assert result.exit_code == 0, result.output
    assert "never used" not in result.output
