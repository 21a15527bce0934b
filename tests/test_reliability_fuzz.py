"""Fuzzing: mutated and generated rules text only ever gives a diagnostic or a
valid program (which then plays or stops with a rules error), never an
internal exception."""
from __future__ import annotations

import pytest

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.agents import make_agents
from interpreter.errors import RulesError
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import ROOT

CORPUS = ROOT / "tests" / "diagnostics"
VALID = (CORPUS / "valid.rules").read_text()
SOLO_LIKE = (ROOT / "rules" / "variants" / "no_final_round.rules").read_text()
WORKDIR = Path(tempfile.mkdtemp(prefix="rules-fuzz-"))
(WORKDIR / "cards.yaml").write_text((CORPUS / "cards.yaml").read_text())

TOKENS = ["game", "players", "cards", "into", "param", "counter", "zone", "kind", "define", "effect", "procedure",
          "action", "setup", "turn", "score", "tiebreak", "when", "becomes", "empty", "at", "end", "of", "round",
          "choose", "may", "pick", "random", "as", "if", "elif", "else", "for", "each", "in", "where", "repeat",
          "while", "times", "stop", "pass", "gain", "pay", "lose", "set", "to", "move", "deal", "from", "shuffle",
          "slide", "refill", "let", "resolve", "any", "all", "sum", "count", "highest", "lowest", "every", "rank",
          "award", "ties", "share", "least", "and", "or", "not", "is", "then", "override", "extends", "show",
          "gold", "hand", "box", "deck", "row", "c", "me", "seats", "value", "bonus", "thing", "cost", "name",
          "0", "1", "2", "99", "-1", '"x"', '"{c.name}"', ":", ",", ".", "(", ")", "[", "]", "{", "}", "+", "-", "*",
          "//", "%", "==", "!=", "<", "<=", ">", ">=", "/", "..", "\n", "\n    ", "\n        ", "    ", "#"]

SETTINGS = settings(max_examples=700, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def load_and_play(text: str) -> None:
    path = WORKDIR / "fuzz.rules"
    path.write_text(text, encoding="utf-8")
    try:
        game = load_game(path)
    except RulesError:
        return
    game.set_limits(steps=5_000, turns=200, check_invariants=True)
    low = game.player_range[0]
    try:
        play_game(game, low, 1, make_agents("random", low, 1))
    except RulesError:
        pass


def mutate(text: str, data) -> str:
    lines = text.split("\n")
    kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "token", "insert", "truncate", "indent"]))
    i = data.draw(st.integers(0, len(lines) - 1))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "token":
        words = lines[i].split(" ")
        k = data.draw(st.integers(0, len(words) - 1))
        words[k] = data.draw(st.sampled_from(TOKENS))
        lines[i] = " ".join(words)
    elif kind == "insert":
        pos = data.draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:pos] + data.draw(st.text(max_size=4)) + lines[i][pos:]
    elif kind == "truncate":
        return "\n".join(lines)[: data.draw(st.integers(0, len(text)))]
    else:
        lines[i] = data.draw(st.sampled_from(["", " ", "  ", "\t", "        "])) + lines[i]
    return "\n".join(lines)


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_mutations_of_a_valid_game(data):
    text = VALID
    for _ in range(data.draw(st.integers(1, 3))):
        text = mutate(text, data)
    load_and_play(text)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutations_of_a_real_variant(data):
    """Mutations of a file that extends the real base rules."""
    text = mutate(SOLO_LIKE.replace('"../catalyst.rules"', f'"{ROOT / "rules" / "catalyst.rules"}"'), data)
    path = WORKDIR / "variant.rules"
    path.write_text(text)
    try:
        load_game(path)
    except RulesError:
        pass


@pytest.mark.slow
@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_generated_token_sequences(tokens):
    load_and_play(" ".join(tokens))


@pytest.mark.slow
@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=12))
def test_generated_statements_inside_a_valid_game(tokens):
    """Grammar-shaped: random statements placed in the turn of a valid game."""
    load_and_play(VALID.replace("turn:\n    choose action\n", "turn:\n    choose action\n    " + " ".join(tokens) + "\n"))


RULES_FILES = sorted(p for p in (ROOT / "rules").rglob("*.rules") if "catastropolis" not in p.relative_to(ROOT).parts)
GAMES = {}


def game_for(path):
    if path not in GAMES:
        GAMES[path] = load_game(path)
        GAMES[path].set_limits(check_invariants=True)
    return GAMES[path]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(RULES_FILES), st.integers(0, 2**32), st.lists(st.integers(0, 10**6), max_size=400), st.integers(0, 3))
def test_property_invariants_and_save_load(path, seed, choices, extra_players):
    """Any seed and any sequence of legal choices keeps every invariant, and
    save -> load -> save is identical at the end."""
    game = game_for(path)
    low, high = game.player_range
    state = game.new_initial_state(low + extra_players % (high - low + 1), seed)
    for choice in choices:
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[choice % len(actions)])
    text = state.to_json()
    assert game.state_from_json(text).to_json() == text
