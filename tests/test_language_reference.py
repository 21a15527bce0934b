"""docs/language.md, the language reference, kept true to the language.

Every fenced block of the page is an example checked here by the real
`catalyst check` (click's CliRunner): whole files, pieces of the page's first
game, expressions, commands with the output they show, and errors with their
messages. The word after the opening fence says what a block is (the page's
last section lists them). The page must name every keyword of the grammar
and every built-in, and its built-ins section is the one generated from the
registry: `UPDATE_GOLDEN=1 pytest tests/test_language_reference.py` writes it
again (review the diff).
"""
from __future__ import annotations

import os
import re
import shlex
import textwrap
from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.errors import RulesError
from interpreter.language.builtins import FUNCTIONS, VALUES
from interpreter.language.incremental import declaration_chunks
from interpreter.language.parser import parse_rules
from interpreter.language.reference import (
    builtins_section, committed_builtins_section, grammar_keywords, name_order, replace_builtins_section)
from interpreter.language import nodes

from .conftest import ROOT

DOC = ROOT / "docs" / "language.md"
FENCE = re.compile(r"^```(?P<info>[^`]*)$")
RULES_FLAGS = {"fragment", "expression", "error"}


@dataclass
class Block:
    line: int  # the line of the opening fence
    lang: str
    words: tuple  # the rest of the info string
    text: str


@dataclass
class Example:
    block: Block
    kind: str  # "rules", "fragment", "expression" or "console"
    name: str  # the file a whole rules file is written as
    files: dict  # the files the page has given so far: name -> text
    error: list = field(default_factory=list)  # lines the error must show (an example meant to fail)

    @property
    def id(self) -> str:
        return f"line {self.block.line}: {self.kind}" + (f" {self.name}" if self.kind == "rules" else "") + \
            (" error" if self.error else "")


def fenced_blocks(text: str) -> list[Block]:
    out, open_block, lines = [], None, []
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if open_block is None and match:
            info = match.group("info").split()
            open_block, lines = (number, info[0] if info else "", tuple(info[1:])), []
        elif open_block is not None and line == "```":
            out.append(Block(*open_block, "\n".join(lines) + "\n"))
            open_block = None
        elif open_block is not None:
            lines.append(line)
    assert open_block is None, f"{DOC.name}: the block opened at line {open_block[0]} is never closed"
    return out


def examples(blocks: list[Block]) -> tuple[list[Example], list[str]]:
    """The examples of the page, and what is wrong with its blocks."""
    found, problems, files = [], [], {}
    for i, block in enumerate(blocks):
        where = f"{DOC.name}:{block.line}"
        if block.lang == "yaml":
            if len(block.words) != 1:
                problems.append(f"{where}: a yaml block names its file: ```yaml NAME")
            else:
                files[block.words[0]] = block.text
        elif block.lang == "rules":
            flags = set(block.words) & RULES_FLAGS
            names = [w for w in block.words if w not in RULES_FLAGS]
            if len(names) > 1 or (names and not names[0].endswith(".rules")) or (names and flags - {"error"}):
                problems.append(f"{where}: expected ```rules [NAME.rules] [error] or ```rules fragment|expression [error]")
                continue
            kind = "expression" if "expression" in flags else "fragment" if "fragment" in flags else "rules"
            error = []
            if "error" in flags:
                after = blocks[i + 1] if i + 1 < len(blocks) else None
                if after is None or after.lang != "text":
                    problems.append(f"{where}: an error example is followed by a ```text block of what it shows")
                    continue
                error = [line.strip() for line in after.text.splitlines() if line.strip()]
            name = names[0] if names else "game.rules"
            if kind == "rules" and not error:
                files[name] = block.text
            found.append(Example(block, kind, name, dict(files), error))
        elif block.lang == "console":
            found.append(Example(block, "console", "", dict(files)))
        elif block.lang == "text":
            if not (i and blocks[i - 1].lang == "rules" and "error" in blocks[i - 1].words):
                problems.append(f"{where}: a text block shows the error of the rules block just above it")
        else:
            problems.append(f"{where}: a ```{block.lang} block is not checked; use yaml, rules, console or text")
    return found, problems


TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = fenced_blocks(TEXT)
EXAMPLES, BLOCK_PROBLEMS = examples(BLOCKS)
FIRST_GAME = next(e for e in EXAMPLES if e.kind == "rules" and not e.error)


# ---------------------------------------------------------------- checking a file
def check(tmp_path, monkeypatch, files: dict, name: str, *args):
    """`catalyst check NAME` (or another command) where `files` lie."""
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, list(args) or ["check", name])


def shows_in_order(output: str, expected: list) -> str | None:
    """The first expected line the output does not show (after the one before it), or None."""
    lines = output.splitlines()
    at = 0
    for want in expected:
        while at < len(lines) and want not in lines[at]:
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def declaration_keys(text: str) -> set:
    """What each declaration of a text declares: its kind and name."""
    keys = set()
    for item in parse_rules(text).items:
        decl = item.decl if isinstance(item, nodes.Override) else item
        keys.add((type(decl).__name__, getattr(decl, "name", None) or getattr(decl, "moment", None)
                  or getattr(decl, "zone", None)))
    return keys


def in_first_game(fragment: str) -> str:
    """The page's first game with a fragment in place: declarations replace
    the game's declarations of the same kind and name (or are added);
    statements run in a procedure where `c` is a card and `p` a player."""
    game = FIRST_GAME.block.text
    try:
        replaced = declaration_keys(fragment)
    except RulesError:
        replaced = None  # not declarations: statements
    if replaced is not None:
        kept = [chunk for _, chunk in declaration_chunks(game) if not declaration_keys(chunk) & replaced]
        return "".join(kept) + "\n" + fragment
    body = textwrap.indent(fragment, " " * 12)
    return game + "\nprocedure reference_example:\n    for each c in deck:\n        for each p in seats:\n" + body


def as_statements(expressions: str) -> str:
    return "".join(f"let reference_value_{i} = {line.strip()}\n"
                   for i, line in enumerate(expressions.splitlines()) if line.strip())


def check_example(example: Example, tmp_path, monkeypatch):
    if example.kind == "rules":
        files, name = {**example.files, example.name: example.block.text}, example.name
    else:
        text = example.block.text if example.kind == "fragment" else as_statements(example.block.text)
        files, name = {**FIRST_GAME.files, "example.rules": in_first_game(text)}, "example.rules"
    result = check(tmp_path, monkeypatch, files, name)
    where = f"{DOC.name}:{example.block.line}"
    if not example.error:
        assert result.exit_code == 0, f"{where}: `catalyst check` fails on this example:\n{result.output}" + \
            (f"\nas checked inside the first game:\n{files[name]}" if example.kind != "rules" else "")
        return
    assert result.exit_code == 1, f"{where}: this example should fail `catalyst check`; it gives:\n{result.output}"
    missing = shows_in_order(result.output, example.error)
    assert missing is None, f"{where}: the error does not show {missing!r}; it is:\n{result.output}"


def run_console(example: Example, tmp_path, monkeypatch):
    commands, current = [], None
    for line in example.block.text.splitlines():
        if line.startswith("$ "):
            current = (line[2:], [])
            commands.append(current)
        elif current is not None and line.strip() and line.strip() != "...":
            current[1].append(line.strip())
        elif line.strip():
            pytest.fail(f"{DOC.name}:{example.block.line}: a console block starts with a `$ catalyst ...` line")
    for command, expected in commands:
        words = shlex.split(command)
        assert words[0] == "catalyst", f"{DOC.name}:{example.block.line}: only `catalyst` commands are run: {command}"
        result = check(tmp_path, monkeypatch, example.files, "", *words[1:])
        fails = any("error" in line.lower() or ": leak: " in line for line in expected)
        assert (result.exit_code != 0) == fails, \
            f"{DOC.name}:{example.block.line}: `{command}` exited {result.exit_code}:\n{result.output}"
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        missing = shows_in_order(result.output, expected)
        assert missing is None, f"`{command}` does not show {missing!r}; it shows:\n{result.output}"


# ---------------------------------------------------------------- the tests
def test_every_block_of_the_page_is_an_example_the_tests_read():
    assert not BLOCK_PROBLEMS, "\n".join(BLOCK_PROBLEMS)
    assert FIRST_GAME.name.endswith(".rules") and FIRST_GAME.block.words, "the first rules block is a named whole file"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind != "console"], ids=lambda e: e.id)
def test_rules_example(example, tmp_path, monkeypatch):
    check_example(example, tmp_path, monkeypatch)


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "console"], ids=lambda e: e.id)
def test_console_example(example, tmp_path, monkeypatch):
    run_console(example, tmp_path, monkeypatch)


@pytest.mark.parametrize("name", sorted(FUNCTIONS) + sorted(VALUES))
def test_every_builtin_example_checks(name, tmp_path, monkeypatch):
    """The registry's example of each built-in, as an expression of the first game."""
    entry = FUNCTIONS.get(name) or VALUES[name]
    example = Example(Block(0, "rules", ("expression",), entry.example + "\n"), "expression", "", {})
    check_example(example, tmp_path, monkeypatch)


def hand_written(text: str) -> str:
    """The page without its generated built-ins section."""
    return text.replace(committed_builtins_section(text), "")


def code_words(text: str) -> set:
    """The words written as code: in `spans` and in rules and console blocks."""
    words, prose, inside = set(), [], False
    for line in text.splitlines():
        if not inside and FENCE.match(line):
            inside = True
        elif inside and line == "```":
            inside = False
        elif not inside:
            prose.append(line)
    for _ticks, span in re.findall(r"(`+)(.+?)\1", "\n".join(prose)):
        words.update(re.findall(r"[A-Za-z_]+", span))
    for block in fenced_blocks(text):
        if block.lang in ("rules", "console"):
            words.update(re.findall(r"[A-Za-z_]+", block.text))
    return words


def test_every_keyword_of_the_grammar_is_in_the_reference():
    missing = sorted(grammar_keywords() - code_words(hand_written(TEXT)))
    assert not missing, (f"words of the grammar that {DOC.name} never shows as code: {missing}; "
                         "document them (with an example) in the section of their construct")


def test_the_reference_states_the_order_names_are_looked_up_in():
    """The order the checker, the compiler and the editor read names in
    (language/names.py) is the order the reference states."""
    assert f"A name in an expression is the first of: {name_order()}." in " ".join(TEXT.split())


def test_every_builtin_is_in_the_reference():
    section = committed_builtins_section(TEXT)
    missing = [b.usage for b in FUNCTIONS.values() if f"`{b.usage}`" not in section]
    missing += [name for name in VALUES if f"| `{name}` |" not in section]
    assert not missing, f"built-ins missing from {DOC.name}: {missing}; " \
                        "UPDATE_GOLDEN=1 pytest tests/test_language_reference.py writes the section again"


def test_builtins_section_is_the_one_generated_from_the_registry():
    if os.environ.get("UPDATE_GOLDEN"):
        DOC.write_text(replace_builtins_section(TEXT), encoding="utf-8")
        return
    assert committed_builtins_section(TEXT) == builtins_section(), (
        f"the built-ins section of {DOC.name} differs from the registry (interpreter/language/builtins.py): "
        "write it again with UPDATE_GOLDEN=1 pytest tests/test_language_reference.py, and review the diff")
