"""The real terminal: `catalyst run` from this environment's bin, driven
through a pseudo-terminal (pexpect) as a person types at it.

What the table must show is computed independently through the API: the
game is replayed from its log's actions, and every line the rules tell the
player (forced moves, the automaton's gains, other players' actions,
triggers, the end) must appear on the screen, in order."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli.narrate import short
from interpreter.events import asked, tell_all
from interpreter.loader import load_game

from .conftest import ROOT

pexpect = pytest.importorskip("pexpect")

CATALYST_BIN = str(Path(sys.executable).parent / "catalyst")
PROMPT = "\r\n> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
OPTION = re.compile(r"^\s*(\d+)\. ", re.M)


def spawn(args, cwd):
    return pexpect.spawn(CATALYST_BIN, [str(a) for a in args], cwd=str(cwd), encoding="utf-8", timeout=30,
                         dimensions=(60, 200), env={"PATH": str(Path(sys.executable).parent), "TERM": "xterm",
                                                    "NO_COLOR": "1", "HOME": str(cwd)})


def plain(text: str) -> str:
    """Screen text with colours removed and every run of spaces and line breaks made one space."""
    return re.sub(r"\s+", " ", ANSI.sub("", text)).strip()


class Table:
    """A game at the terminal: what it printed, and how to answer it."""

    def __init__(self, child):
        self.child, self.screen = child, []

    def wait(self) -> bool:
        """Read up to the next prompt (True) or the end (False)."""
        found = self.child.expect([PROMPT, pexpect.EOF])
        self.screen.append(self.child.before)
        return found == 0

    def numbers(self) -> list[int]:
        """The numbers listed under the last question (an option keeps its number from the question before)."""
        asked_at = re.split(r"player \d+, [^\n]*:\r?\n", ANSI.sub("", self.screen[-1]))[-1]
        return [int(n) for n in OPTION.findall(asked_at)]

    def options(self) -> int:
        """How many options the last prompt offered."""
        return len(self.numbers())

    def say(self, line: str) -> str:
        """Type a command that does not answer the decision; what it printed."""
        self.child.sendline(line)
        assert self.wait()
        return self.screen[-1]

    def play(self, choose, limit=None):
        """Answer every decision with the option listed `choose(number of options)`-th (at most `limit` times)."""
        answered = 0
        while (limit is None or answered < limit) and self.wait():
            self.child.sendline(str(self.numbers()[choose(self.options()) - 1]))  # the n-th option listed
            answered += 1
        return answered

    def text(self) -> str:
        return plain("".join(self.screen))


def told_to(rules, viewer, log_path) -> list[str]:
    """What the table should tell `viewer` of the logged game, computed
    through the API: every line, but the options that player chose when asked."""
    lines = [json.loads(line) for line in Path(log_path).read_text().splitlines()]
    header, entries = lines[0], lines[1:-1]
    game = load_game(rules)
    st = game.new_initial_state(header["players"], header["seed"], listen=True)
    expected = [short(text, event) for event, text in tell_all(st, st.events, viewer)]
    st.events.clear()
    for entry in entries:
        player = st.current_player()
        st.apply_action(entry["action"])
        for event, text in tell_all(st, st.events, viewer):
            if not (asked(event) and player == viewer):
                expected.append(short(text, event))
        st.events.clear()
    return expected


def assert_shown_in_order(screen: str, lines: list[str]) -> None:
    at = 0
    for line in lines:
        found = screen.find(plain(line), at)
        assert found >= 0, f"not on screen (after position {at}): {line!r}"
        at = found + len(plain(line))


@pytest.fixture
def folders(tmp_path):
    """Two folders: `one` holds a copy of the sample games, `two` is elsewhere."""
    one, two = tmp_path / "one", tmp_path / "two" / "deeper"
    shutil.copytree(ROOT / "rules", one / "rules")
    shutil.copytree(ROOT / "schemas", one / "schemas")
    two.mkdir(parents=True)
    return one, two


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_whole_solo_game_looked_up_saved_in_one_folder_and_finished_in_another(folders):
    one, two = folders
    first = Table(spawn(["run", "rules/solo.rules", "--seed", 11], one))
    assert first.wait()
    opening = first.text()
    assert "Catalyst: solo mode — seed 11" in opening and "player 1 (you)" in opening
    assert "1. Collect Contributions" in opening
    # A card at a position of the table, a card by name, the public cards, the history.
    shown = plain(first.say("card @1"))
    assert re.search(r"\(catalyst\) where market, position 1 shown .+ cost \d players 2 effects ", shown), shown
    shown = plain(first.say("card iron pact"))
    assert "The Iron Pact (goal)" in shown and "score Cathedral: count c in scoring_pile" in shown
    shown = plain(first.say("table"))
    assert "the cards every player sees:" in shown and "The Iron Pact (goal): score: Cathedral:" in shown
    shown = plain(first.say("history 2"))
    assert shown.startswith("history 2 round 1 turn 1: player 1")
    shown = plain(first.say("?"))
    assert "card NAME" in shown and "history [N]" in shown and "@P" in shown
    # Always the last option: the game moves on (the first option, collecting, would never end it).
    first.child.sendline("2")  # Recruit a Catalyst
    assert first.wait()
    count = first.options()
    first.child.sendline(f"@{count}")  # the option naming the card at the last position of the market
    assert first.play(lambda n: n, limit=18) == 18
    save = one / "game.save"
    first.say(f"save {save.name}")
    first.child.sendline("quit")
    first.child.expect(pexpect.EOF)
    first.screen.append(first.child.before)
    assert "Saved to game.save." in first.text() and "Game left unfinished." in first.text()
    # Resumed from another folder: the save names its rules relative to itself.
    log = two / "game.jsonl"
    second = Table(spawn(["run", "--load", Path("..") / ".." / "one" / "game.save", "--log", log.name], two))
    assert second.play(lambda n: n) > 5
    end = second.text()
    assert "a saved game of seed 11" in end
    assert "Catalyst: solo mode — the end, every card shown" in end
    assert "triggered: when deck becomes empty" in end
    assert "the game ends now: The reserve is empty: the game ends at once; the rest of this turn is not played." \
        in end
    assert "player 2 wins" in end or "player 1 wins" in end
    # Everything the rules told player 1 is on one screen or the other, in order;
    # among it every forced move and every gain of the automaton.
    expected = told_to(one / "rules" / "solo.rules", 0, log)
    assert any(line.endswith("(the only option)") for line in expected)
    assert any(line.startswith("player 2: military") for line in expected)
    assert any(line.endswith("-> player 2's scoring pile") for line in expected)
    assert_shown_in_order(first.text() + " " + end, expected)
    result = json.loads(log.read_text().splitlines()[-1])["result"]
    row = end[end.index("player 1 (first)"):end.index("player 2", end.index("player 1 (first)"))]
    assert [float(x) for x in re.findall(r"\d+(?:\.\d+)?", row[len("player 1"):])] == \
        [float(x) for x in [*result["breakdown"][0].values(), result["scores"][0]]]


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_three_player_game_against_two_bots(folders):
    one, _ = folders
    table = Table(spawn(["run", "rules/catalyst.rules", "--players", 3, "--seed", 5, "--human", 1, "--bots", "random",
                         "--log", "game.jsonl"], one))
    assert table.play(lambda n: 1) > 10
    screen = table.text()
    expected = told_to(one / "rules" / "catalyst.rules", 0, one / "game.jsonl")
    others = [line for line in expected if re.match(r"player [23]: ", line)]
    assert any("Recruit a Catalyst" in line for line in others)  # the bots' own choices
    # whether another player had a choice is its own: only player 1's forced choices say so
    assert all(line.startswith("player 1: ") for line in expected if line.endswith("(the only option)"))
    assert any(line.startswith("the game will end after round") for line in expected)
    assert_shown_in_order(screen, expected)
    assert "the game ends: round" in screen
    # The end shows every scoring pile, hidden during the game.
    end = screen[screen.index("the end, every card shown"):]
    assert "(hidden)" not in end


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_plain_runs_deal_different_games_and_print_seeds_that_replay_them(folders):
    one, _ = folders

    def run(*extra):
        done = subprocess.run([CATALYST_BIN, "run", "rules/catalyst.rules", *extra], cwd=one, capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
        seed = re.match(r"Catalyst — seed (\d+) \(the same deal again: catalyst run rules/catalyst.rules "
                        r"--players 2 --seed \1\)", done.stdout)
        assert seed, done.stdout[:300]
        return int(seed.group(1)), done.stdout

    (seed_a, game_a), (seed_b, game_b) = run(), run()
    assert seed_a != seed_b and game_a != game_b
    assert run("--players", "2", "--seed", str(seed_a)) == (seed_a, game_a)
    # At the terminal too: the printed seed deals the same table.
    tables = []
    for args in ([], ["--seed", seed_a], ["--seed", seed_a]):
        table = Table(spawn(["run", "rules/catalyst.rules", *args], one))
        assert table.wait()
        table.child.sendline("quit")
        table.child.expect(pexpect.EOF)
        tables.append(table.text()[table.text().index("╭"):])
    assert tables[1] == tables[2] and tables[0] != tables[1]
