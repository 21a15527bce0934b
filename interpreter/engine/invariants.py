"""Invariants every state must satisfy; checked after each action when asked.

Every card is in exactly one place and the card index agrees; counters stay
within their declared bounds; the acting player is a seat; a game that is not
over has at least one legal action.
"""
from __future__ import annotations

from ..errors import RulesRuntimeError


def violations(st) -> list[str]:
    return _places(st) + _counters(st) + _pending(st)


def _places(st) -> list[str]:
    """Every card in exactly one place, where the card index says."""
    p = st.program
    problems = []
    seen = {}
    for zi, zone in enumerate(st.z):
        info = p.zone_of_instance[zi]
        if info.slots and len(zone) != info.slots:
            problems.append(f"zone '{info.name}' has {len(zone)} slots instead of {info.slots}")
        for card in zone:
            if card is None:
                continue
            if card in seen:
                problems.append(f"card '{p.card_ids[card]}' is in two places")
            seen[card] = zi
            if st.loc[card] != zi:
                problems.append(f"card '{p.card_ids[card]}' is in '{info.name}' but indexed elsewhere")
    if len(seen) != len(p.card_ids):
        missing = [p.card_ids[c] for c in range(len(p.card_ids)) if c not in seen]
        problems.append(f"cards lost: {', '.join(missing[:5])}")
    return problems


def _counters(st) -> list[str]:
    problems = []
    for info in st.program.counter_list:
        for owner, value in enumerate(st.ctr[info.index]):
            if info.holds_player:
                if value is not None and not 0 <= value < st.n:
                    problems.append(f"counter '{info.name}' of {owner} holds {value}, which is no seat")
                continue
            if info.minimum is not None and value < info.minimum:
                problems.append(f"counter '{info.name}' of {owner} is {value}, below its minimum {info.minimum}")
            if info.maximum is not None and value > info.maximum:
                problems.append(f"counter '{info.name}' of {owner} is {value}, above its maximum {info.maximum}")
    return problems


def _pending(st) -> list[str]:
    """A game not over waits for a decision a seat can take."""
    if st.over:
        return []
    if st.point is None:
        return ["the game is not over but no decision is pending"]
    problems = []
    if not 0 <= st.decider < st.n:
        problems.append(f"the deciding player {st.decider} is not a seat")
    if not st.option_ids:
        problems.append("the game is not over but there is no legal action")
    return problems


def check(st) -> None:
    """Raise a RulesRuntimeError naming every violated invariant."""
    problems = violations(st)
    if problems:
        raise RulesRuntimeError("invariant violated after decision %d: %s" % (st.decisions, "; ".join(problems)))
