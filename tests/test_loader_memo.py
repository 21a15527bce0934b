"""A process that loads the same rules again checks them once: the checked
rules are kept while every file their check read reads the same (loader.py).
What is kept must never be stale, and each game keeps its own program."""
from __future__ import annotations

import pytest

from interpreter import loader
from interpreter.errors import RulesError

from .conftest import game_files

RULES = '''\
game "Memo"
players 2
cards "cards.yaml" into box
param start = 3
counter gold: per player
zone box: shared, hidden
setup:
    for each p in seats:
        set gold of p to start
turn:
    end game now
score:
    "Gold": gold
'''
CARDS = "thing:\n  - {name: A}\n"


@pytest.fixture
def checks(monkeypatch):
    """The number of times the rules were checked (not taken from the memo)."""
    count = []
    real = loader.check_rules

    def counted(*args, **kwargs):
        count.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(loader, "check_rules", counted)
    return count


def gold(game) -> int:
    return game.new_initial_state(2, 0).counter("gold", 0)


def test_the_same_rules_loaded_again_are_checked_once(tmp_path, checks):
    path = game_files(tmp_path, RULES, CARDS)
    first, second = loader.load_game(path), loader.load_game(path)
    assert len(checks) == 1
    assert gold(first) == gold(second) == 3
    assert first.program is not second.program  # each game compiles its own program


def test_an_edited_rules_file_is_checked_again(tmp_path, checks):
    path = game_files(tmp_path, RULES, CARDS)
    assert gold(loader.load_game(path)) == 3
    path.write_text(RULES.replace("param start = 3", "param start = 5"))
    assert gold(loader.load_game(path)) == 5
    assert len(checks) == 2


def test_an_edited_card_file_is_checked_again(tmp_path, checks):
    path = game_files(tmp_path, RULES, CARDS)
    loader.load_game(path)
    (tmp_path / "cards.yaml").write_text("thing:\n  - {name: A}\n  - {name: A}\n  - {name: B}\n")
    assert len(loader.load_game(path).program.card_ids) == 3


def test_a_file_made_unreadable_is_reported_not_remembered(tmp_path):
    path = game_files(tmp_path, RULES, CARDS)
    loader.load_game(path)
    (tmp_path / "cards.yaml").write_text("thing: [")
    with pytest.raises(RulesError, match="malformed YAML"):
        loader.load_game(path)


def test_overrides_and_given_texts_are_part_of_what_is_kept(tmp_path, checks):
    path = game_files(tmp_path, RULES, CARDS)
    assert gold(loader.load_game(path, {"start": 7})) == 7
    assert gold(loader.load_game(path)) == 3
    assert gold(loader.load_game(path, text=RULES.replace("= 3", "= 4"))) == 4
    assert len(checks) == 3


def test_limits_set_on_one_game_are_not_another_s(tmp_path):
    path = game_files(tmp_path, RULES, CARDS)
    first, second = loader.load_game(path), loader.load_game(path)
    first.set_limits(steps=10, check_invariants=True)
    assert second.program.step_budget != 10 and not second.program.check_invariants
