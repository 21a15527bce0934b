"""The VS Code / TextMate grammar highlights every keyword of the Lark grammar."""
from __future__ import annotations

import json
import re

from interpreter.language.grammar import lark_parser

from .conftest import ROOT

TM = ROOT / "editors" / "vscode" / "syntaxes" / "rules.tmLanguage.json"


def lark_keywords() -> set:
    words = set()
    for terminal in lark_parser().terminals:
        if terminal.name in ("NAME", "INT", "STRING", "COMMENT", "_NL") or terminal.name.startswith("__"):
            continue
        text = terminal.pattern.value if terminal.pattern.type == "str" else terminal.pattern.value.replace("\\", " ")
        words.update(re.findall(r"[a-z]+", text))
    return words


def highlighted_words() -> set:
    grammar = json.loads(TM.read_text())
    words = set()
    for rule in grammar["repository"].values():
        match = rule.get("match", "")
        words.update(w for group in re.findall(r"\\b\(([a-z_|]+)\)\\b", match) for w in group.split("|"))
    return words


def test_every_keyword_is_highlighted():
    missing = lark_keywords() - highlighted_words()
    assert not missing, f"keywords missing from {TM.name}: {sorted(missing)}"


def test_grammar_files_are_valid_json():
    for path in (ROOT / "editors" / "vscode").rglob("*.json"):
        json.loads(path.read_text())
