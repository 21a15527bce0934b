"""The interpreter knows no game, and no user text reaches eval/exec/pickle."""
from __future__ import annotations

import re

import pytest

from .conftest import ROOT

GAME_WORDS = re.compile(r"\b(coins?|military|recruit(s|ed|ing)?|catalysts?|markets?|solo|chain[ _]tokens?|buildings?|goal[ _]cards?)\b", re.I)
# The second game's words (rules/catastropolis): none of them in the generic code either.
SECOND_GAME_WORDS = re.compile(
    r"\b(catastropolis|heroe?s?|superheroe?s?|villains?|supervillains?|crimes?|disasters?|situations?|powers?|"
    r"cit(y|ies)|reputation|(tele)?phone|booths?|weaken(ed|s)?|beloved|clues?|lairs?|mad[ _]scientists?|aliens?|"
    r"signatures?|time[ _]counters?)\b", re.I)
UNSAFE = re.compile(r"(^|[^.\w])(eval|exec)\(|pickle\.loads?|yaml\.load\(|marshal\.loads?")


def source_files(folder):
    return sorted(p for p in (ROOT / folder).rglob("*") if p.suffix in {".py", ".lark"})


@pytest.mark.parametrize("folder", ["interpreter", "cli"])
def test_no_game_words(folder):
    hits = []
    for path in source_files(folder):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            text = line.replace("prog_name=\"catalyst\"", "").replace("`catalyst`", "")
            if folder == "cli":
                text = re.sub(r"\bcatalyst\b", "", text)  # the program's own name
            if GAME_WORDS.search(text) or SECOND_GAME_WORDS.search(text):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "game words in the generic code:\n" + "\n".join(hits)


def test_no_eval_exec_pickle_or_unsafe_yaml():
    hits = [f"{p.relative_to(ROOT)}:{n}" for folder in ("interpreter", "cli")
            for p in source_files(folder)
            for n, line in enumerate(p.read_text().splitlines(), 1) if UNSAFE.search(line)]
    assert not hits, hits


def test_yaml_is_loaded_safely():
    text = (ROOT / "interpreter" / "language" / "cards.py").read_text()
    loaders = set(re.findall(r"\b(\w*Loader)\b", text))
    assert loaders == {"CSafeLoader", "SafeLoader"}
    assert "yaml.load(" not in text and "yaml.unsafe" not in text and "FullLoader" not in text
