"""The editors' highlighting grammars highlight exactly the keywords of the
Lark grammar, and the built-ins of the registry, no more and no fewer."""
from __future__ import annotations

import json
import re

import pytest

from interpreter.language.builtins import FUNCTIONS, VALUES
from interpreter.language.reference import grammar_keywords

from .conftest import ROOT

EDITORS = ROOT / "editors"
GRAMMARS = sorted(EDITORS.rglob("*.tmLanguage.json"))
BUILTIN_FUNCTION, BUILTIN_VALUE = "support.function.builtin.", "variable.language."


def listed_words(rule: dict) -> set:
    """The words a rule's `\\b(a|b|c)\\b` alternations list."""
    return {w for group in re.findall(r"\\b\(([A-Za-z_|]+)\)\\b", rule.get("match", "")) for w in group.split("|")}


def words_by_role(grammar: dict) -> dict:
    """The words the grammar highlights, as keywords, built-in functions and built-in values."""
    roles = {"keywords": set(), "functions": set(), "values": set()}
    for rule in grammar["repository"].values():
        scope = rule.get("name", "")
        role = "functions" if scope.startswith(BUILTIN_FUNCTION) else "values" if scope.startswith(BUILTIN_VALUE) \
            else "keywords"
        roles[role] |= listed_words(rule)
    return roles


def test_there_is_a_highlighting_grammar():
    assert GRAMMARS, "no *.tmLanguage.json under editors/"
    other = [p for p in EDITORS.rglob("*") if p.is_file() and re.search(r"(highlights\.scm|\.vim|\.sublime-syntax)$", p.name)]
    assert not other, f"highlighting files this test does not read yet: {other}; teach it to read them"


@pytest.mark.parametrize("path", GRAMMARS, ids=lambda p: p.name)
def test_keywords_highlighted_are_exactly_the_grammars(path):
    highlighted = words_by_role(json.loads(path.read_text()))["keywords"]
    keywords = grammar_keywords()
    assert not keywords - highlighted, f"keywords missing from {path.name}: {sorted(keywords - highlighted)}"
    assert not highlighted - keywords, f"{path.name} highlights words the grammar does not reserve: " \
                                       f"{sorted(highlighted - keywords)}"


@pytest.mark.parametrize("path", GRAMMARS, ids=lambda p: p.name)
def test_builtins_highlighted_are_exactly_the_registrys(path):
    roles = words_by_role(json.loads(path.read_text()))
    assert roles["functions"] == set(FUNCTIONS), (
        f"built-in functions: missing {sorted(set(FUNCTIONS) - roles['functions'])}, "
        f"not built-ins {sorted(roles['functions'] - set(FUNCTIONS))}")
    assert roles["values"] == set(VALUES), (
        f"built-in values: missing {sorted(set(VALUES) - roles['values'])}, "
        f"not built-ins {sorted(roles['values'] - set(VALUES))}")


@pytest.mark.parametrize("path", GRAMMARS, ids=lambda p: p.name)
def test_every_rule_of_the_grammar_is_used(path):
    grammar = json.loads(path.read_text())
    included = {p["include"].lstrip("#") for p in grammar["patterns"]}
    assert set(grammar["repository"]) <= included, f"rules never included: {set(grammar['repository']) - included}"


def test_grammar_files_are_valid_json():
    for path in (ROOT / "editors" / "vscode").rglob("*.json"):
        json.loads(path.read_text())
