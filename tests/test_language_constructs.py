"""General constructs on small games: acting for another player, a shared
loss, triggers, hooks, rankings with shared places."""
from __future__ import annotations

from interpreter.loader import load_game

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


def load(tmp_path, rules):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(rules)
    return load_game(tmp_path / "game.rules")


def test_as_gives_the_decision_to_that_player(tmp_path):
    st = load(tmp_path, DRAFT).new_initial_state(2, seed=1)
    assert st.current_player() == 0 and len(st.legal_actions()) == 4
    st.apply_action("gamma")
    assert st.current_player() == 1 and "gamma" not in st.legal_actions()
    st.apply_action("alpha")
    assert st.zone("hand", 0) == ["gamma"] and st.zone("hand", 1) == ["alpha"]


def test_end_game_lost_means_nobody_wins(tmp_path):
    st = load(tmp_path, DRAFT).new_initial_state(2, seed=1)
    st.apply_action("gamma")
    st.apply_action("alpha")
    assert st.is_terminal()  # turns have no decisions: the game runs to its loss
    assert st.counter("danger") == 4
    assert st.winners() == [] and st.returns() == [0.0, 0.0]
    assert st.result()["lost"] is True
    assert st.scores() == [3, 1]  # scores still count ("most beloved" among losers)


def test_without_the_loss_the_best_score_wins(tmp_path):
    rules = DRAFT.replace("        end game lost", "        end game now")
    st = load(tmp_path, rules).new_initial_state(2, seed=1)
    st.apply_action("gamma")
    st.apply_action("alpha")
    assert st.winners() == [0] and st.returns() == [1.0, 0.0] and st.result()["lost"] is False


def test_stop_may_not_leave_an_as_block(tmp_path):
    import pytest

    from interpreter.errors import CheckError

    rules = DRAFT.replace("            choose c in box", "            repeat while true:\n                stop\n            choose c in box")
    load(tmp_path, rules)  # a loop inside the block is fine
    rules = DRAFT.replace("    for each p in seats:\n        as p:\n", "    for each p in seats:\n        as p:\n            stop\n")
    with pytest.raises(CheckError, match="'stop' outside a loop"):
        load(tmp_path, rules)
