"""What one player may see of a position, as plain data: `observation()`.

The observation is asked for at every decision a bot answers, and an
OpenSpiel search asks it after every move it makes, so it is built from the
state's lists directly: whole rows are copied where the viewer sees all of
them, and the per-card zones and counters (one instance per card, nearly all
empty) are searched with C-level filters (`itertools.compress`) for the few
cards that hold something, rather than card by card. Who sees what is asked
of visibility.py, once per zone or counter where the answer cannot depend on
where cards lie, and per card where it can.

A state keeps the observations made of its position, one per viewer, until
the position changes (see `GameState.observation`).
"""
from __future__ import annotations

from itertools import compress

from .visibility import HIDDEN, card_visible, counter_visible, zone_visible


def build(st, viewer: int) -> dict:
    """The observation of `st` for `viewer` (a seat, PUBLIC or EVERYTHING)."""
    return {
        "player": viewer, "current_player": st.current_player(), "round": st.round,
        "turn": st.turns, "first_player": st.first, "counters": _counters(st, viewer),
        "zones": _zones(st, viewer), "values": st.shown_values(viewer) if st.program.shown_values else {},
    }


def _counters(st, viewer: int) -> dict:
    program, ctr, n = st.program, st.ctr, st.n
    out = {}
    for info in program.counter_list:
        values = ctr[info.index]
        if info.scope == "card":
            # whether the value is seen depends on the counter, then on where its card lies
            if not counter_visible(info, 0, viewer):
                out[info.name] = {}
                continue
            ids = program.card_ids
            out[info.name] = {ids[c]: values[c] for c in compress(range(len(values)), values)
                              if card_visible(st, c, viewer)}
        elif info.visibility != HIDDEN:
            seen = [counter_visible(info, i, viewer) for i in range(len(values))]
            out[info.name] = values[:] if all(seen) else [v if s else None for v, s in zip(values, seen)]
    return out


def _zones(st, viewer: int) -> dict:
    program, z = st.program, st.z
    ids = program.card_ids
    out = {}
    for info in program.zones.values():
        base = info.base
        if info.scope == "shared":
            out[info.name] = _cards(z[base], info, zone_visible(info, None, viewer), ids)
        elif info.scope == "player":
            out[info.name] = [_cards(z[base + p], info, zone_visible(info, p, viewer), ids) for p in range(st.n)]
        else:
            ncards = len(ids)
            rows = z[base:base + ncards]
            # the cards whose instance holds something: a slotted instance is never
            # an empty list, so it is compared with its empty form
            held = rows if not info.slots else map(([None] * info.slots).__ne__, rows)
            seen = zone_visible(info, 0, viewer)  # the same for every card's instance
            out[info.name] = {ids[c]: _cards(rows[c], info, seen, ids)
                              for c in compress(range(ncards), held) if card_visible(st, c, viewer)}
    return out


def _cards(cards: list, info, seen: bool, ids: list):
    """A zone instance: its card ids (None for an empty slot), or {"count": n}."""
    if info.slots:
        if not seen:
            return {"count": len(cards) - cards.count(None)}
        return [ids[c] if c is not None else None for c in cards]
    if not seen:
        return {"count": len(cards)}
    return list(map(ids.__getitem__, cards))
