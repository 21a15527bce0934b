"""The program's main code: setup, then rounds of turns with their hooks.

Code 0 of every program. Like a generated rule it runs in a frame and
suspends when a rule it calls asks for a decision; its blocks are the steps
of the round below.
"""
from __future__ import annotations

from ..errors import RulesRuntimeError
from .calls import SUSPEND, GameOver, call
from .program import Code


def build_main(program, setup: int, turn: int, hooks: dict) -> Code:
    """setup; then each round: fix the turn order, start-of-round hooks, and for
    each seat start-of-turn hooks, the turn, end-of-turn hooks; at the round's
    end the end-of-round hooks and the end-of-game check."""
    start_round, start_turn = hooks.get("start of round"), hooks.get("start of turn")
    end_turn, end_round = hooks.get("end of turn"), hooks.get("end of round")

    def main(st, fr):
        pc = fr[1]
        while True:
            if pc == 0:
                fr[1] = 1
                if call(st, setup) is SUSPEND:
                    return SUSPEND
                pc = 1
            if pc == 1:
                start_of_round(st)
                if st.events is not None:
                    st.events.append(("round", st.round))
                fr[1] = 2
                if start_round is not None and call(st, start_round) is SUSPEND:
                    return SUSPEND
                pc = 2
            if pc == 2:
                st.cur = st.me = st.order[st.pos]
                st.turns += 1
                if st.events is not None:
                    st.events.append(("turn", st.turns, st.me))
                if st.turns > st.program.turn_budget:
                    too_many_turns(st)
                fr[1] = 3
                if start_turn is not None and call(st, start_turn) is SUSPEND:
                    return SUSPEND
                pc = 3
            if pc == 3:
                fr[1] = 4
                if call(st, turn) is SUSPEND:
                    return SUSPEND
                pc = 4
            if pc == 4:
                fr[1] = 5
                if end_turn is not None and call(st, end_turn) is SUSPEND:
                    return SUSPEND
                pc = 5
            if pc == 5:
                st.pos += 1
                if next_in_order(st):
                    pc = 2
                    continue
                fr[1] = 6
                if end_round is not None and call(st, end_round) is SUSPEND:
                    return SUSPEND
                pc = 6
            if pc == 6:
                if st.end_round is not None and st.round >= st.end_round:
                    if st.events is not None:
                        st.events.append(("end", "rounds", st.round))
                    raise GameOver()
                st.round += 1
                pc = 1

    return Code("game", 0, light=False, nblocks=7, fn=main)


def start_of_round(st) -> None:
    """The round's order of play: the rules' `turn order`, or seat order from
    the first player (so `set first_player` takes effect at the next round)."""
    if st.program.turn_order:
        st.order = _turn_order(st)
        if not st.order:
            raise RulesRuntimeError("the turn order is empty")
    else:
        first, n = st.first, st.n
        st.order = tuple([(first + i) % n for i in range(n)])
    st.pos = 0


def next_in_order(st) -> bool:
    """Whether someone else plays this round. A `turn order` is read again
    before every turn: a player it leaves out (knocked out) takes no further
    turn, and one it adds plays after those who have played."""
    if st.program.turn_order:
        played = st.order[:st.pos]
        st.order = played + tuple(p for p in _turn_order(st) if p not in played)
    return st.pos < len(st.order)


def _turn_order(st) -> tuple:
    order = tuple(st.program.turn_order(st))
    for p in order:
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < st.n:
            raise RulesRuntimeError(f"the turn order holds {p!r}, which is not a player's seat")
    if len(set(order)) != len(order):
        raise RulesRuntimeError(f"the turn order names a player twice: {', '.join(f'player {p + 1}' for p in order)}")
    return order


def too_many_turns(st):
    raise RulesRuntimeError(
        f"the game did not end after {st.program.turn_budget} turns: the rule 'turn' has run that often "
        "and no rule ended the game; check the end condition (e.g. `end game after 1 more round` is never reached)"
    )
