"""The words a table says to its players, at the terminal and in the
browser's seat views: who won and why, who plays each seat, the hints."""
from __future__ import annotations

import random
import re

from click.testing import CliRunner

from cli.main import cli

from .serving import drawn, new_hub

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
    end = drawn(table, 0)["end"]
    assert end["scores"] == [1, 1]
    assert end["said"] == f"player {end['winners'][0] + 1} wins on the tiebreak: tied with player " \
                          f"{2 - end['winners'][0]} on 1"


# A counter on each card: 1 on Alpha, 2 on Beta.
MARKED = TIED.replace("zone box", "counter time_left: per card, min 0\nzone box").replace(
    "setup:\n    pass\n", "setup:\n    for each c in box:\n        gain c.cost time_left of c\n")


def test_a_counter_on_a_card_is_shown_in_words_with_its_number(tmp_path):
    hub, table = new_hub(tmp_path / "store", rules=write(tmp_path, MARKED), players=2, humans=(0, 1))
    box = next(z for z in drawn(table, 0)["table"]["shared"] if z["zone"] == "box")
    assert [c["text"] for c in box["cards"]] == ["Alpha (time left 1)", "Beta (time left 2)"]


SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
NAMES = ("name", "zone", "id", "kind", "epoch", "action")  # keys whose values are names for programs, not words


def words_in(view, key=None):
    """Every text of a seat view meant for people (not the names of things the page looks up)."""
    if isinstance(view, dict):
        for k, value in view.items():
            if k not in NAMES:
                yield from words_in(value, k)
    elif isinstance(view, list):
        for value in view:
            yield from words_in(value, key)
    elif isinstance(view, str):
        yield view


def test_a_three_player_game_s_seat_views_speak_players_words(tmp_path):
    hub, table = new_hub(tmp_path, rules="rules/catalyst.rules", players=3, humans=(0, 1, 2), seed=5)
    rnd, seen, prompts = random.Random(2), set(), set()
    while True:
        for seat in range(3):
            view = drawn(table, seat)
            seen.update(words_in(view))
            if view["decision"]:
                prompts.add(view["decision"]["prompt"])
        if table.state.is_terminal():
            break
        table.play(rnd.choice(table.state.option_ids))
    assert not [t for t in seen if "<no field" in t or SNAKE.search(t)]
    assert "turn" not in prompts and "recruit one" not in prompts and "choose a card" in prompts


def test_a_seat_the_rules_play_is_not_called_a_bot(tmp_path):
    hub, table = new_hub(tmp_path / "solo", rules="rules/solo.rules", players=2, humans=(0,), bots="greedy")
    assert [s["who"] for s in drawn(table, 0)["seats"]] == ["person", "the rules (automaton)"]
    hub, table = new_hub(tmp_path / "base", rules="rules/catalyst.rules", players=2, humans=(0,), bots="greedy")
    assert [s["who"] for s in drawn(table, 0)["seats"]] == ["person", "bot greedy"]


def test_an_option_keeps_its_number_in_the_seat_view_from_one_question_to_the_next(tmp_path):
    hub, table = new_hub(tmp_path, rules="rules/solo.rules", players=2, humans=(0,), seed=11)
    rnd, pairs, last = random.Random(1), 0, None
    while not table.state.is_terminal():
        decision = drawn(table, 0)["decision"]
        numbers = {o["id"]: o["number"] for o in decision["options"]}
        assert sorted(numbers.values()) == [o["number"] for o in decision["options"]]  # listed by number
        if last and last[0] == decision["prompt"] == "Resolve effects in any order":
            pairs += 1
            assert all(last[1][option] == number for option, number in numbers.items() if option in last[1])
        last = (decision["prompt"], numbers)
        table.play(rnd.choice(table.state.option_ids))
    assert pairs


def test_a_big_move_is_counted_whole():
    from cli.narrate import short

    text = "Alpha, Beta, Gamma, Delta, Epsilon, Zeta, Eta, Theta, 100 cards: box -> deck"
    assert short(text, ("move",)) == "108 cards: box -> deck"
    assert short("A, B, C, D, E, F, a card, cards: box -> deck", ("move",)) == "7 cards and more: box -> deck"


def test_cards_apart_are_never_merged_at_the_terminal():
    import io

    from rich.console import Console

    from cli.table import render_table

    view = {"title": "T", "when": "round 1", "viewer": 0, "first_player": 0,
            "shared": [("pile", {"cards": ["Apple", "Pear", "Apple", "Apple"]})], "shared_counters": {}, "players": []}
    out = io.StringIO()
    render_table(Console(file=out, width=80), view)
    assert re.findall(r"(Apple(?: ×\d)?|Pear)", out.getvalue()) == ["Apple", "Pear", "Apple ×2"]
