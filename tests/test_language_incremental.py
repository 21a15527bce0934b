"""Parsing an edited rules file again reuses the declarations that did not
change, and gives exactly the tree (and the places) that parsing the new
text whole gives, or the same syntax error."""
from __future__ import annotations

import itertools

import pytest

from interpreter.errors import RulesSyntaxError
from interpreter.language import nodes as n
from interpreter.language.incremental import declaration_chunks
from interpreter.language.parser import parse_rules

from .conftest import ROOT

GAMES = sorted((ROOT / "rules").rglob("*.rules"))
BROKEN = sorted(p for folder in ("tests/diagnostics", "tests/fixtures") for p in (ROOT / folder).rglob("*.rules"))
_names = itertools.count()


def fresh_name() -> str:
    """A file name never parsed before: its text is parsed whole."""
    return f"<fresh {next(_names)}>"


def places(tree) -> list:
    """Every node of a tree with its place (spans do not take part in equality)."""
    return [(type(node).__name__, node.span.line, node.span.column, node.span.end_line, node.span.end_column)
            for node in n.walk(tree)]


def outcome(text: str, name: str):
    try:
        tree = parse_rules(text, name)
    except RulesSyntaxError as err:
        return "error", err.render().replace(name, "FILE")
    return tree, places(tree)


def edits(text: str, places: int):
    """Edits a designer makes: a changed number, a line added at the top (every
    declaration moves), a declaration added; at `places` lines, the line
    removed, doubled or dedented."""
    lines = text.splitlines(keepends=True)
    yield "number", text.replace("1", "7", 1)
    yield "comment on top", "# a new first line\n" + text
    middle = len(lines) // 2
    yield "declaration added", "".join(lines[:middle] + ["param added_here = 3\n"] + lines[middle:])
    for i in range(0, len(lines), max(len(lines) // places, 1)):
        yield f"line {i + 1} removed", "".join(lines[:i] + lines[i + 1:])
        yield f"line {i + 1} doubled", "".join(lines[:i + 1] + lines[i:])
        yield f"line {i + 1} dedented", "".join(lines[:i] + [lines[i].lstrip()] + lines[i + 1:])


def check_edits(path, places: int):
    text = path.read_text()
    for label, edited in edits(text, places):
        name = fresh_name()
        outcome(text, name)  # the text before the edit, as an editor saw it
        again = outcome(edited, name)
        whole = outcome(edited, fresh_name())
        assert again == whole, f"{path.name}, {label}"


@pytest.mark.parametrize("path", [ROOT / "rules" / name for name in ("catalyst.rules", "solo.rules",
                                                                   "catastropolis/catastropolis.rules")],
                         ids=lambda p: p.name)
@pytest.mark.slow
def test_an_edited_file_parses_as_its_new_text_parsed_whole(path):
    check_edits(path, places=3)


@pytest.mark.slow
@pytest.mark.parametrize("path", GAMES, ids=lambda p: str(p.relative_to(ROOT)))
def test_many_edits_of_every_game_parse_as_their_texts_parsed_whole(path):
    check_edits(path, places=12)


@pytest.mark.slow
@pytest.mark.parametrize("path", BROKEN, ids=lambda p: str(p.relative_to(ROOT)))
def test_edits_of_every_broken_file_parse_as_their_texts_parsed_whole(path):
    """The diagnostic corpus's files are a few lines each: edits at four
    places reach most of their lines."""
    check_edits(path, places=4)


def test_only_the_changed_declaration_is_parsed_again():
    text = (ROOT / "rules" / "catalyst.rules").read_text()
    name = fresh_name()
    before = parse_rules(text, name)
    after = parse_rules(text.replace("param coin_limit = 8", "param coin_limit = 9"), name)
    changed = [(a, b) for a, b in zip(before.items, after.items) if a is not b]
    assert [(a.name, a.value.value, b.value.value) for a, b in changed] == [("coin_limit", 8, 9)]


def test_chunks_start_at_declarations_outside_brackets():
    text = 'param a = [1,\n2]\nparam b = "x # (" \\\n  + "y"\n# note\nparam c = (1 +\nd)\n'
    assert [line for line, _ in declaration_chunks(text)] == [1, 3, 6]
    assert "".join(chunk for _, chunk in declaration_chunks(text)) == text
