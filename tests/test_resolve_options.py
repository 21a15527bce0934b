"""The options of `resolve any` (runtime/helpers.py `resolve_options`): the
kept options of a card's items, with only the effects that have a
condition asked, are at every decision the options that asking every
alternative's condition in turn gives; while every effect can do something
the kept lists themselves are offered."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_game
from interpreter.compiler.decisions import ResolveAnyPoint
from interpreter.rng import Draws, seed_state
from interpreter.runtime.helpers import DONE

RULES = Path(__file__).resolve().parents[1] / "rules" / "catalyst.rules"


def every_alternative_asked(st, remaining, effects):
    """The options as they were first written: each alternative of each
    remaining item whose effect's condition holds (or has none), then done."""
    conditions = st.program.effect_conditions
    ids, values = [], []
    for i in remaining:
        for alt in effects[i]:
            when = conditions.get(alt)
            if when is None or when(st):
                ids.append(f"{i + 1}:{alt}")
                values.append((i, alt))
    if not ids:
        return [], []
    return ids + ["done"], values + [DONE]


@pytest.mark.parametrize("players", [2, 4])
def test_resolve_any_offers_what_asking_each_alternative_offers(players):
    game = load_game(RULES)
    seen = {"some shut": 0, "all open": 0}
    for seed in range(6):
        st = game.new_initial_state(players, seed)
        draws = Draws(seed_state(seed))
        while not st.is_terminal():
            point = st.program.decisions[st.point]
            if isinstance(point, ResolveAnyPoint):
                L = st.frames[-1][2]
                remaining, effects = L[point.rem], L[point.fx]
                assert (st.option_ids, st.option_values) == every_alternative_asked(st, remaining, effects)
                offered = sum(len(effects[i]) for i in remaining)
                if len(st.option_ids) == offered + 1:  # the kept lists themselves: none made per decision
                    seen["all open"] += 1
                    assert st.option_ids is st.program.resolve_options[(remaining, effects)][0]
                else:
                    seen["some shut"] += 1
            st.apply_action(draws.choose_id(st.legal_actions()))
    assert all(seen.values()), seen



@pytest.mark.parametrize("items", [1, 31, 32, 40])
def test_resolve_any_offers_every_item_of_a_short_or_long_list(items):
    """The items left at the start of `resolve any` come from a table made
    once for lists of up to 31 items and are counted out for longer ones:
    either way every item is offered, then done."""
    rules = """\
game "Many"
players 2
cards "cards.yaml" into box
counter gold: per player, min 0
zone box: shared, visible
kind thing:
    effects: effects
effect coin "take 1 gold": gain 1 gold
setup:
    end game after 1 more rounds
turn:
    resolve any of top(box).effects
score:
    "Gold": gold
"""
    cards = "thing:\n  - {name: A, effects: \"" + " ".join(["coin"] * items) + "\"}\n"
    st = load_game(text=rules, cards={"cards.yaml": cards}).new_initial_state(2, 0)
    assert st.legal_actions() == [f"{i + 1}:coin" for i in range(items)] + ["done"]
    st.apply_action("1:coin")
    assert st.legal_actions() == [f"{i + 1}:coin" for i in range(1 if items > 1 else 0, items)] + ["done"]
