"""What a person reads at a terminal 80 columns wide: a whole game played
through a pseudo-terminal (pexpect), every line within the width, in words
(no `<no field ...>`, no names_with_underscores, no rule names as questions)."""
from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

pexpect = pytest.importorskip("pexpect")

CATALYST_BIN = str(Path(sys.executable).parent / "catalyst")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
OPTION = re.compile(r"^\s*(\d+)\. ", re.M)
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def spawn(home, *args):
    return pexpect.spawn(CATALYST_BIN, [str(a) for a in args], cwd=str(ROOT), encoding="utf-8", timeout=60,
                         dimensions=(24, 80), env={"PATH": str(Path(sys.executable).parent), "TERM": "xterm",
                                                   "NO_COLOR": "1", "HOME": str(home)})


def play_out(child, seed: int) -> str:
    """Answer every question with a random option number; the whole screen, colours removed."""
    rnd, screen = random.Random(seed), []
    while child.expect(["\r\n> ", pexpect.EOF]) == 0:
        screen.append(child.before)
        child.sendline(rnd.choice(OPTION.findall(child.before.rpartition(":\r\n")[2])))
    screen.append(child.before)
    return ANSI.sub("", "".join(screen)).replace("\r", "")


@pytest.mark.timeout(180)
def test_a_whole_solo_game_fits_80_columns_in_players_words(tmp_path):
    screen = play_out(spawn(tmp_path, "run", "rules/solo.rules", "--seed", 11), seed=1)
    assert "final scores" in screen
    lines = screen.split("\n")
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert "<no field" not in screen
    assert SNAKE.findall(screen) == []
    questions = set(re.findall(r"^player \d+, (.*):$", screen, re.M))
    assert questions and questions <= {"choose a card", "choose a player", "choose one", "you may",
                                       "choose an action", "resolve effects in any order", "choose one effect"}


def test_bots_on_every_seat_in_a_terminal_say_how_to_take_one(tmp_path):
    child = spawn(tmp_path, "run", "rules/catalyst.rules", "--bots", "random", "--seed", 3)
    child.expect("bots play every seat; add --human 1 to play player 1")
    child.expect(pexpect.EOF)


def questions(screen: str) -> list:
    """Each question asked: (its words, {option label: number})."""
    asked = []
    for block in re.split(r"^(?=player \d+, .*:$)", screen, flags=re.M)[1:]:
        words, _, rest = block.partition(":\n")
        options = re.findall(r"^\s*(\d+)\. (.*?)(?:\n|$)", rest.split("\n> ")[0].split(">")[0], re.M)
        asked.append((words, {label: int(number) for number, label in options}))
    return asked


def test_an_option_keeps_its_number_from_one_question_to_the_next(tmp_path):
    """Resolving effects one after the other: the options left keep their numbers
    (typing the number read before chooses what it named)."""
    screen = play_out(spawn(tmp_path, "run", "rules/solo.rules", "--seed", 11), seed=1)
    pairs = [(a, b) for (a, b) in zip(questions(screen), questions(screen)[1:])
             if a[0] == b[0] == "player 1, resolve effects in any order"]
    assert pairs
    for (_, before), (_, after) in pairs:
        assert all(before[label] == number for label, number in after.items() if label in before), (before, after)


def test_history_0_says_how_history_is_asked(tmp_path):
    child = spawn(tmp_path, "run", "rules/solo.rules", "--seed", 3)
    child.expect("\r\n> ")
    child.sendline("history 0")
    child.expect("\r\n> ")
    said = ANSI.sub("", child.before).replace("\r", "").split("\n")
    assert said[1:] == ["history 0 shows nothing; history N shows the last N steps."]
    child.sendline("history 2")
    child.expect("\r\n> ")
    assert ANSI.sub("", child.before).replace("\r", "").split("\n")[1:] == ["round 1", "turn 1: player 1"]
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_the_card_table_fits_the_terminal(tmp_path):
    child = spawn(tmp_path, "cards", "rules/catalyst.rules")
    child.expect(pexpect.EOF)
    lines = ANSI.sub("", child.before).replace("\r", "").split("\n")
    assert "80 cards" in lines[0] and max(len(line) for line in lines) <= 80


@pytest.mark.timeout(180)
def test_the_readme_s_first_command_speaks_players_words_at_80_columns(tmp_path):
    """`catalyst run rules/catalyst.rules --players 3 --seed 7 --bots random`, the
    README's first command, played to its end: no error text, rule name,
    counter id or raw rules text on screen, every line within the width."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "catalyst run rules/catalyst.rules --players 3 --seed 7 --bots random"
    assert command in readme.split("```")[1]  # the first block: install and play
    child = spawn(tmp_path, *command.split()[1:])
    child.expect(pexpect.EOF)
    screen = ANSI.sub("", child.before).replace("\r", "")
    assert "final scores" in screen
    assert max(len(line) for line in screen.split("\n")) <= 80
    assert "<no field" not in screen and SNAKE.findall(screen) == []
    assert not re.search(r"\b(count|sum) \w+ in \w+", screen)  # a goal's scoring as rules text
