"""Run-time of `forget X`: memory that ends. A player knows a card it
cannot see once it saw it go face down, looked at it or was shown it
(`st.known`, `st.known_in`: interpreter/visibility.py); rules where players
may recall only, say, the last trick say when that knowledge ends. Every
player who does not see where a card of X lies forgets it there: its
observation no longer names it, the story no longer names it when it
moves, and the worlds its bots sample deal it anew among the cards they
cannot tell apart.
"""
from __future__ import annotations

from ..errors import RulesRuntimeError


def forget(st, cards, span=None) -> None:
    """`forget X` (a card, a list of cards or a zone)."""
    if cards is None:
        raise RulesRuntimeError("nothing to forget (the value is none)", span)
    cards = (cards,) if isinstance(cards, int) else tuple(c for c in cards if c is not None)
    program, known, known_in = st.program, st.known, st.known_in
    everyone = (1 << st.n) - 1
    told = {}  # zone instance -> the seats that forgot something there
    for card in cards:
        zi = st.loc[card]
        info = program.zone_of_instance[zi]
        if info.top_visible and st.z[zi] and st.z[zi][-1] == card:
            continue  # a top card lying face up is seen, not remembered
        forgets = everyone & ~program.seers[zi] & (known[card] | (known_in[card] if known_in else 0))
        if forgets:
            known[card] &= ~forgets
            if known_in:
                known_in[card] &= ~forgets
            told[zi] = told.get(zi, 0) | forgets
    if told and st.events is not None:
        st.events.append(("forget", tuple(sorted(told.items()))))
