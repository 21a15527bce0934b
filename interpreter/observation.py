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

from .visibility import HIDDEN, card_visible, counter_visible, unseen_instance, zone_visible


def build(st, viewer: int) -> dict:
    """The observation of `st` for `viewer` (a seat, PUBLIC or EVERYTHING)."""
    seen = {
        "player": viewer, "current_player": st.current_player(), "round": st.round,
        "turn": st.turns, "first_player": st.first, "counters": _counters(st, viewer),
        "zones": _zones(st, viewer), "values": st.shown_values(viewer) if st.program.shown_values else {},
    }
    if st.program.phases:  # the phase of the round, and who has passed in it (everyone sees a pass)
        seen["phase"], seen["passed"] = st.phase, sorted(st.passed)
    return seen


def _counters(st, viewer: int) -> dict:
    program, ctr = st.program, st.ctr
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
    for name, scope, info, places in _zone_plan(program, viewer, st.n):
        if scope == "shared":
            zi, seen = places
            out[name] = _instance(st, zi, seen, info, viewer)
        elif scope == "player":
            out[name] = [_instance(st, zi, seen, info, viewer) for zi, seen in places]
        else:
            base, seen, empty = places
            ncards = len(ids)
            rows = z[base:base + ncards]
            # the cards whose instance holds something: a slotted instance is never
            # an empty list, so it is compared with its empty form
            held = rows if empty is None else map(empty.__ne__, rows)
            out[name] = {ids[c]: _instance(st, base + c, seen, info, viewer) for c in compress(range(ncards), held)
                         if card_visible(st, c, viewer)}
    return out


def _zone_plan(program, viewer: int, players: int) -> list:
    """What can be decided once per rules, viewer and player count: for each
    zone, its instances and whether `viewer` sees them (for a per-card zone,
    whether its instances are seen when their card is)."""
    plans = program.__dict__.setdefault("_observation_plans", {})
    plan = plans.get((viewer, players))
    if plan is None:
        plan = plans[(viewer, players)] = []
        for info in program.zones.values():
            if info.scope == "shared":
                places = (info.base, zone_visible(info, None, viewer))
            elif info.scope == "player":
                places = [(info.base + p, zone_visible(info, p, viewer)) for p in range(players)]
            else:
                places = (info.base, zone_visible(info, 0, viewer), [None] * info.slots if info.slots else None)
            plan.append((info.name, info.scope, info, places))
    return plan


def _instance(st, zi: int, seen: bool, info, viewer: int):
    """Zone instance `zi` as `viewer` sees it: its card ids, or what it is told of it."""
    ids = st.program.card_ids
    return _ids(st.z[zi], info, ids) if seen else unseen_instance(st, zi, viewer, ids.__getitem__)


def _ids(cards: list, info, ids: list) -> list:
    """The card ids of a zone instance the viewer sees (None for an empty slot)."""
    if info.slots:
        return [ids[c] if c is not None else None for c in cards]
    return list(map(ids.__getitem__, cards))
