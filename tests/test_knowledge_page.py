"""docs/constructs-knowledge.md, the page on who knows what, kept true: each
of its rules blocks is an excerpt of the game tests/test_knowledge.py plays
(tests/fixtures/knowledge/peek.rules), and `catalyst check` accepts the game
with the block's declarations in place of its own (or added)."""
from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.language.incremental import declaration_chunks

from .conftest import ROOT
from .test_language_reference import declaration_keys, fenced_blocks

PAGE = ROOT / "docs" / "constructs-knowledge.md"
GAME = ROOT / "tests" / "fixtures" / "knowledge" / "peek.rules"
BLOCKS = fenced_blocks(PAGE.read_text(encoding="utf-8"))


def test_every_block_says_what_it_is():
    assert BLOCKS and all(block.lang in ("rules", "json") for block in BLOCKS), \
        [f"{PAGE.name}:{b.line}: ```{b.lang}" for b in BLOCKS if b.lang not in ("rules", "json")]


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "rules"], ids=lambda b: f"line {b.line}")
def test_rules_block_checks_in_the_game_it_comes_from(block, tmp_path, monkeypatch):
    game = GAME.read_text(encoding="utf-8")
    replaced = declaration_keys(block.text)
    kept = [chunk for _, chunk in declaration_chunks(game) if not declaration_keys(chunk) & replaced]
    shutil.copy(GAME.parent / "cards.yaml", tmp_path / "cards.yaml")
    (tmp_path / "example.rules").write_text("".join(kept) + "\n" + block.text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--strict", "example.rules"])
    assert result.exit_code == 0, f"{PAGE.name}:{block.line}: `catalyst check` fails on this block:\n{result.output}"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "json"], ids=lambda b: f"line {b.line}")
def test_json_block_is_json(block):
    json.loads(block.text)
