"""The turn driver's loop for games of plain rounds (compiler/rounds.py
`turns_once`, going on from round to round where no hook or phase stands
between them) plays the game `main`'s general loop plays: the same events,
positions and saves at every decision."""
from __future__ import annotations

import pytest

from interpreter.compiler import rounds
from interpreter.loader import load_game

from .conftest import ROOT


@pytest.mark.parametrize("players", [2, 4])
def test_rounds_in_the_turn_loop_play_as_main_plays_them(monkeypatch, players):
    game = load_game(ROOT / "rules" / "catalyst.rules")
    general = rounds.turns_once

    def one_round_at_a_time(st, fr, pc, code, fn, rounds=False):
        return general(st, fr, pc, code, fn, False)

    for seed in range(2):
        fast = game.new_initial_state(players, seed, listen=True)
        with monkeypatch.context() as m:
            m.setattr(rounds, "turns_once", one_round_at_a_time)
            slow = game.new_initial_state(players, seed, listen=True)
        while not fast.is_terminal():
            assert fast.events == slow.events and fast.to_json() == slow.to_json()
            action = fast.legal_actions()[(seed + fast.decisions) % len(fast.legal_actions())]
            fast.apply_action(action)
            with monkeypatch.context() as m:
                m.setattr(rounds, "turns_once", one_round_at_a_time)
                slow.apply_action(action)
        assert fast.events == slow.events and fast.scores() == slow.scores() and slow.is_terminal()
        assert any(e[0] == "round" for e in fast.events) and fast.events[-1][0] == "end"
