"""Bots in a game the players win together: partners are not rivals.

In rules/catastropolis every player wins or loses with the city, and the
reputation each one collects is only a title among friends. An evaluation
that compares a player with the best other one sees a partner's gain as a
loss and a game won together as a tie. These tests drive the real rules.
"""
from __future__ import annotations

import pytest

from interpreter.agents import make_agents
from interpreter.agents.evaluate import TOGETHER, Evaluator
from interpreter.play import play_game

from .city import cards, data


def _midgame(game, seed=2):
    st = game.new_initial_state(2, seed)
    agents = make_agents("random", 2, seed)
    while st.decisions < 12:
        st.apply_action(agents[st.decider].choose_id(st.option_ids))
    return st


def _reputation_card(game, st):
    """A situation card in a pile, worth reputation once collected."""
    piles = set(st.zone("situation_pile")) | set(st.zone("reserve"))
    return next(c for c in cards(game, "situation", lambda d: (d.get("reputation") or 0) > 0) if c in piles)


def test_the_rules_say_the_game_is_won_together(catastropolis):
    assert catastropolis.program.won_together
    assert catastropolis.traits.can_end_won


def test_a_partners_gain_is_the_players_gain_too(catastropolis):
    ev = Evaluator(catastropolis.program)
    st = _midgame(catastropolis)
    card = _reputation_card(catastropolis, st)
    before = [ev.margin(st, p) for p in (0, 1)]
    st.place(card, "collected", owner=1)  # player 2 collects it
    after = [ev.margin(st, p) for p in (0, 1)]
    gain = data(catastropolis, card)["reputation"]
    assert after[1] > before[1]
    assert after[0] > before[0], "the other player's collected card must count for player 1 as well"
    assert after[0] - before[0] == pytest.approx(gain, abs=gain) and after[0] == after[1]


def test_a_game_won_together_outranks_any_score_and_a_lost_one_is_worst(catastropolis):
    ev = Evaluator(catastropolis.program)
    st = _midgame(catastropolis)
    going = ev.margin(st, 0)
    won, lost = st.clone(), st.clone()
    won.won = won.over = True
    lost.lost = lost.over = True
    assert ev.margin(won, 0) == pytest.approx(going + TOGETHER)
    assert ev.margin(lost, 0) == pytest.approx(going - TOGETHER)


@pytest.mark.slow
def test_greedy_partners_save_the_city_at_least_as_often_as_random_ones(catastropolis):
    """Over fixed seeds, 3 and 4 players: greedy teams win at least as many
    games as random teams (with partners taken for rivals, greedy won none)."""
    def wins(bots):
        return sum(play_game(catastropolis, n, seed, make_agents(bots, n, seed)).outcome() == "won"
                   for n in (3, 4) for seed in range(20))
    greedy, random = wins("greedy"), wins("random")
    print(f"games won of 40: greedy {greedy}, random {random}")
    assert greedy >= random and greedy > 0
