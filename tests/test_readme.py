"""Every code block of README.md, run, so the README stays true.

- Commands (`catalyst ...` lines) run through the real CLI, in a folder holding
  copies of rules/, schemas/ and tests/diagnostics/, each block's commands in
  order (a `replay` reads the log the command above it wrote). Installing and
  running the test suite are not run here. Commands that play thousands of
  games play a few: only the numbers in SHORTER change (a leak check plays
  one game at each player count, not four), so the command a reader types is
  the one tested.
- Sessions (`$ catalyst ...` followed by what it prints) run and must print
  those lines; `...` stands for lines left out, `> ANSWER` lines are what the
  player types.
- Rules blocks: a whole file (named by its first comment) must pass
  `catalyst check`; an abridged one (with `...`) must be made of lines of the
  file the sentence above it names.
- Python blocks run as scripts (those needing an extra are skipped without it).
"""
from __future__ import annotations

import contextlib
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from cli.main import cli

from .conftest import ROOT

README = ROOT / "README.md"
COPIED = ("rules", "schemas", "tests/diagnostics")
# Commands not run by the tests: installing (the tests' browser too), and the test suite itself.
NOT_RUN = ("pip", "pytest", "sh")
# What makes a long command short, and nothing else is changed.
SHORTER = [
    (re.compile(r"(?<=\s)-n \d+"), "-n 3"),
    (re.compile(r"--budget \d+"), "--budget 8 --first-games 2"),
    (re.compile(r"\bmcts:\d+"), "mcts:8"),
    # 12 games with twin positions at each decision took 77 s of a busy 2-core
    # machine, 3 take a quarter of that (tests/test_leaks.py tests the check)
    (re.compile(r"--leaks(?= )"), "--leaks -n 1"),
]
# Python blocks that need an optional extra: the module they import.
EXTRAS = {"pettingzoo_env": "pettingzoo", "openspiel_game": "pyspiel"}


@dataclass
class Block:
    line: int  # of the opening fence
    info: str
    text: str
    before: str  # the paragraph above the block

    @property
    def kind(self) -> str:
        first = next(line for line in self.text.splitlines() if line.strip())
        if self.info == "python":
            return "python"
        if first.startswith("$ "):
            return "session"
        code = [line for line in self.text.splitlines() if line.strip() and not line.startswith("#")]
        if code and re.match(r"(game|extends)\b", code[0]):
            return "rules"
        return "commands"

    def __repr__(self) -> str:
        return f"README.md:{self.line} ({self.kind})"


def readme_blocks() -> list[Block]:
    blocks, lines = [], README.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            start, info = i, lines[i][3:].strip()
            end = lines.index("```", i + 1)
            above = start - 1
            while above >= 0 and not lines[above].strip():
                above -= 1
            paragraph_start = above
            while paragraph_start > 0 and lines[paragraph_start - 1].strip():
                paragraph_start -= 1
            blocks.append(Block(start + 1, info, "\n".join(lines[start + 1:end]) + "\n",
                                "\n".join(lines[paragraph_start:above + 1])))
            i = end + 1
        else:
            i += 1
    return blocks


BLOCKS = readme_blocks()


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder laid out as the repository, where the README's paths work."""
    for name in COPIED:
        shutil.copytree(ROOT / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def catalyst(words: list[str], answers: str | None = None):
    with served_at_once(words):
        result = CliRunner().invoke(cli, words, input=answers)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"catalyst {shlex.join(words)} raised {result.exception!r}\n{result.output}"
    return result


@contextlib.contextmanager
def served_at_once(words: list[str]):
    """`catalyst serve` as typed, up to the printed links, without serving
    until stopped: on any free port, with its games kept in a scratch folder."""
    if words[:1] != ["serve"]:
        yield
        return
    import interpreter.serve as serve

    bind = serve.bind
    with tempfile.TemporaryDirectory() as scratch, pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", scratch)
        patch.setattr(serve, "bind", lambda host, port: bind(host, 0))
        patch.setattr(serve, "run", lambda hub, sock, **options: sock.close())
        yield


def shortened(command: str) -> str:
    for pattern, short in SHORTER:
        command = pattern.sub(short, command)
    return command


def commands_of(text: str) -> list[str]:
    """The commands of a block: continued lines joined, `&&` split, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    commands = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            commands.append(words[:cut])
            words = words[cut + 1:]
    return commands


def run_commands(block: Block):
    commands = commands_of(block.text)
    assert commands, f"{block!r}: no command in it"
    for words in commands:
        if words[0] in NOT_RUN:
            continue
        assert words[0] == "catalyst", f"{block!r}: a command the tests do not know how to run: {shlex.join(words)}"
        result = catalyst(shlex.split(shortened(shlex.join(words[1:]))))
        assert result.exit_code == 0, f"{block!r}: `{shlex.join(words)}` exited {result.exit_code}:\n{result.output}"


def run_session(block: Block):
    lines = block.text.splitlines()
    words = shlex.split(lines[0][2:])
    assert words[0] == "catalyst", f"{block!r}: a session starts with `$ catalyst ...`"
    answers = [line[2:] for line in lines[1:] if line.startswith("> ")]
    if answers and "--bots" not in words and "--human" not in words:
        words.append("--human")  # what a terminal gives without --bots; the tests have none
        words.append("1")
    result = catalyst(words[1:], "".join(a + "\n" for a in answers) if answers else None)
    expected = lines[1:]
    fails = any(": error: " in line for line in expected)
    assert (result.exit_code != 0) == fails, f"{block!r}: exited {result.exit_code}:\n{result.output}"
    missing = missing_lines(result.output.splitlines(), expected)
    assert missing is None, f"{block!r}: the output does not show {missing!r} where the README does; it is:\n" + \
        result.output


def missing_lines(output: list[str], expected: list[str]) -> str | None:
    """The first expected line the output does not show, or None: the runs
    of lines between `...` appear as they are, one after the other."""
    runs, run = [], []
    for line in expected:
        if line.strip() == "...":
            runs.append(run)
            run = []
        else:
            run.append(line.rstrip())
    runs.append(run)
    output = [line.rstrip() for line in output]
    at = 0
    for run in filter(None, runs):
        found = next((i for i in range(at, len(output) - len(run) + 1) if output[i:i + len(run)] == run), None)
        if found is None:
            matched = max(next((k for k in range(len(run)) if i + k >= len(output) or output[i + k] != run[k]),
                               len(run)) for i in range(at, len(output) + 1))
            return run[matched]
        at = found + len(run)
    return None


def without_comment(line: str) -> str:
    return line.rstrip() if line.lstrip().startswith("#") else re.sub(r"\s+#.*$", "", line).rstrip()


def check_rules(block: Block, folder):
    lines = block.text.splitlines()
    named = re.fullmatch(r"#\s*(\S+\.rules)", lines[0].strip())
    if "..." not in (line.strip() for line in lines):
        path = folder / (named.group(1) if named else "readme.rules")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block.text, encoding="utf-8")
        result = catalyst(["check", "--strict", str(path.relative_to(folder))])
        assert result.exit_code == 0, f"{block!r}: `catalyst check` fails:\n{result.output}"
        return
    mentioned = re.findall(r"`(rules/[^`]+\.rules)`", block.before)
    assert named or mentioned, f"{block!r}: an abridged rules block follows a sentence naming its file"
    source = ROOT / (named.group(1) if named else mentioned[-1])
    real = {without_comment(line) for line in source.read_text(encoding="utf-8").splitlines()}
    strayed = [line for line in map(without_comment, lines) if line.strip() not in ("", "...") and line not in real]
    assert not strayed, f"{block!r}: lines that are not in {source.relative_to(ROOT)}: {strayed}"
    assert catalyst(["check", str(source.relative_to(ROOT))]).exit_code == 0


def run_python(block: Block, folder):
    for module, package in EXTRAS.items():
        if module in block.text:
            pytest.importorskip(package)
    done = subprocess.run([sys.executable, "-c", block.text], cwd=folder, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{block!r} fails:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def slow_if(block: Block):
    """Blocks that take long even shortened: bots that search, OpenSpiel's MCTS."""
    return [pytest.mark.slow] if "mcts" in block.text else []


@pytest.mark.parametrize("block", [pytest.param(b, marks=slow_if(b), id=f"line-{b.line}-{b.kind}")
                                   for b in BLOCKS])
def test_readme_block(block, folder):
    if block.kind == "commands":
        run_commands(block)
    elif block.kind == "session":
        run_session(block)
    elif block.kind == "rules":
        check_rules(block, folder)
    else:
        run_python(block, folder)


def test_every_kind_of_block_is_there():
    """The README's blocks are all read (a block of an unknown kind would be
    taken for commands and fail), and the kinds this file knows are used."""
    assert {b.kind for b in BLOCKS} == {"commands", "session", "rules", "python"}
    assert all(b.info in ("", "python") for b in BLOCKS), [b for b in BLOCKS if b.info not in ("", "python")]


def test_the_python_example_plays_a_whole_game(folder):
    """The "From Python" example ends with a result, well before the turn limit."""
    block = next(b for b in BLOCKS if b.kind == "python" and "load_game" in b.text)
    printed = run_python(block, folder)
    assert "'winners'" in printed and "'scores'" in printed, printed
