"""The words a table says to its players, at the terminal and in the
browser's seat views: who won and why, who plays each seat, the hints."""
from __future__ import annotations

import re

from click.testing import CliRunner

from cli.main import cli

from .serving import new_hub

CARDS = """\
thing:
  - {name: Alpha, cost: 1}
  - {name: Beta, cost: 2}
"""

# One card each: always a tie on score, which the tiebreak (the card's cost) breaks.
TIED = """\
game "Tied"
players 2..2
cards "cards.yaml" into box
zone box: shared, visible
zone hand: per player, visible
setup:
    pass
turn:
    choose c in box as "take {c.name}":
        move c to hand
    end game after 0 more rounds
score:
    "Cards": size(hand)
tiebreak sum c.cost for c in hand
"""


def write(folder, rules: str, cards: str = CARDS):
    (folder / "cards.yaml").write_text(cards)
    path = folder / "game.rules"
    path.write_text(rules)
    return path


def test_a_tie_broken_by_the_tiebreak_is_said_at_the_terminal(tmp_path):
    result = CliRunner().invoke(cli, ["run", str(write(tmp_path, TIED)), "--bots", "random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    said = result.output.strip().splitlines()[-1]
    assert re.fullmatch(r"player (\d) wins on the tiebreak: tied with player (\d) on 1", said), said


def test_a_tie_broken_by_the_tiebreak_is_said_on_the_browser_s_end_screen(tmp_path):
    hub, table = new_hub(tmp_path / "store", rules=write(tmp_path, TIED), players=2, humans=(0, 1))
    while not table.state.is_terminal():
        table.play(table.state.option_ids[0])
    end = hub.view(table, 0)["end"]
    assert end["scores"] == [1, 1]
    assert end["said"] == f"player {end['winners'][0] + 1} wins on the tiebreak: tied with player " \
                          f"{2 - end['winners'][0]} on 1"
