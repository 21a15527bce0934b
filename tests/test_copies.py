"""Card copies: one entry of the card file standing for N identical cards.

The copies get their own ids and move one by one, but a player cannot tell
them apart: options over copies lying together are one option with the
entry's id, the table counts them ("Token ×40"), the action vocabulary holds
their ids, and card impact counts the entry once."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.loader import load_game

CARDS = """\
token:
  - {name: Token, cost: 1, copies: 40}
  - {name: Gem, cost: 3}
  - {name: Pebble, cost: 0, copies: 2}
"""

RULES = """\
game "Tokens"
players 2
cards "cards.yaml" into box
counter worn: per card, min 0
zone box: shared, visible
zone hand: per player, visible
setup:
    pass
turn:
    choose c in box + hand of next_player(me) as "take {c.name}":
        move c to hand
    if round >= 4:
        end game now
score:
    "cost": sum c.cost for c in hand
"""


@pytest.fixture
def game():
    return load_game(text=RULES, cards={"cards.yaml": CARDS})


def test_each_copy_is_a_card_with_its_own_id(game):
    ids = game.program.card_ids
    assert len(ids) == 43
    assert len(set(ids)) == 43
    assert [game.program.card_groups[i] for i, c in enumerate(ids) if c.startswith("token")] == ["token"] * 40
    assert game.program.card_groups[ids.index("gem")] == "gem"


def test_options_over_copies_lying_together_are_one(game):
    st = game.new_initial_state(2, 1)
    assert sorted(st.legal_actions()) == ["gem", "pebble", "token"]
    st.apply_action("token")
    assert len(st.zone("hand", 0)) == 1 and st.zone("hand", 0)[0].startswith("token")
    assert st.zone("box").count(st.zone("hand", 0)[0]) == 0
    assert len(st.zone("box")) == 42


def test_copies_in_different_places_are_told_apart_by_place(game):
    st = game.new_initial_state(2, 1)
    st.apply_action("token")  # player 1 takes a token
    st.apply_action("pebble")  # player 2 takes a pebble
    # player 1 may take from the box or from player 2's hand
    assert sorted(st.legal_actions()) == ["gem", "pebble@box", "pebble@hand-2", "token"]
    labels = {o.id: o.label for o in st.legal_options()}
    assert labels["pebble@hand-2"] == labels["pebble@box"] == "take Pebble"
    st.apply_action("pebble@hand-2")
    assert st.zone("hand", 1) == [] and len(st.zone("hand", 0)) == 2


def test_copies_bearing_different_counters_are_not_one_option(game):
    st = game.new_initial_state(2, 1)
    worn = st.zone("box")[0]
    st.set_counter("worn", 1, worn)
    st.refresh()
    tokens = [i for i in st.legal_actions() if i.startswith("token")]
    assert len(tokens) == 2 and len(set(tokens)) == 2
    assert sorted(tokens) == sorted(["token", worn])  # the copy that differs is named by its own id


def test_every_id_a_copy_can_take_is_in_the_action_vocabulary(game):
    from interpreter.adapters.encoding import action_vocabulary

    vocabulary = set(action_vocabulary(game))
    st = game.new_initial_state(2, 3)
    while not st.is_terminal():
        assert set(st.legal_actions()) <= vocabulary
        st.apply_action(st.legal_actions()[-1])


def on_disk(folder):
    """The game's files, for the command line."""
    (folder / "cards.yaml").write_text(CARDS)
    (folder / "game.rules").write_text(RULES)
    return str(folder / "game.rules")


def test_the_table_counts_copies(tmp_path):
    result = CliRunner().invoke(cli, ["run", on_disk(tmp_path), "--human", "1", "--seed", "1"], input="quit\n")
    assert "Token ×40" in result.output
    assert "Pebble ×2" in result.output
    assert "token-40" not in result.output


def test_card_impact_counts_an_entry_once(tmp_path):
    out = tmp_path / "games.jsonl"
    result = CliRunner().invoke(cli, ["simulate", on_disk(tmp_path), "--players", "2", "-n", "20",
                                      "--bots", "random", "--seed", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    seen = set()
    for line in out.read_text().splitlines():
        record = json.loads(line)
        for cards in record.get("cards", []):
            seen.update(cards)
    assert seen and seen <= {"token", "gem", "pebble"}
