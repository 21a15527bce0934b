"""Run-time helpers of a choice of several at once (`simultaneously choose
N x in L`): each player picks up to N values, one decision per pick, each
pick hidden from the others until every player has picked (as any
simultaneous pick: decisions.SimultaneousPoint); the body then runs once
per player with the list of its picks.

Picking one value at a time keeps every decision's options the values
themselves (card ids, at most the size of L) where one decision over the
combinations would offer C(|L|, N) options to every agent's action space.
"""
from __future__ import annotations

from ..errors import RulesRuntimeError
from .helpers import NOT_ASKED, PASS


def seats_repeated(seats: tuple, count, span=None) -> tuple:
    """Each seat `count` times in a row: the order the picks are asked in."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise RulesRuntimeError(f"how many are picked must be a whole number from 0, got {count!r}", span)
    return tuple(seat for seat in seats for _ in range(count))


def not_picked(values: list, seats: tuple, picks: tuple) -> list:
    """The values the player asked next (`seats[len(picks)]`) has not picked yet."""
    seat = seats[len(picks)]
    mine = [pick for who, pick in zip(seats, picks) if who == seat]
    return [v for v in values if v not in mine] if mine else values


def picks_by_seat(seats: tuple, picks: tuple) -> tuple:
    """(the seats, each once, in order; for each, the list of its picks, passes left out)."""
    order, lists = [], {}
    for seat, pick in zip(seats, picks):
        if seat not in lists:
            order.append(seat)
            lists[seat] = []
        if pick not in (PASS, NOT_ASKED):
            lists[seat].append(pick)
    return tuple(order), tuple(lists[seat] for seat in order)
