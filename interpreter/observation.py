"""What one player may see of a position, as plain data: `observation()`.

The observation is asked for at every decision a bot answers, and an
OpenSpiel search asks it after every move it makes. What can be decided once
per rules, viewer and player count (which zones and counters the viewer
sees, where they lie in the state's lists) is: `build` writes an observer
for it, one dict display, and compiles it. Per position what is left is
copying the rows the viewer sees, asking visibility.py about the instances
it does not see (answered at once where no card there is known and none
carries a counter), and searching the per-card zones and counters (one
instance per card, nearly all empty) with C-level filters
(`itertools.compress`) for the few cards that hold something.

A state keeps the observations made of its position, one per viewer, until
the position changes (see `GameState.observation`).
"""
from __future__ import annotations

import re
from itertools import compress

from .runtime.audit import Allowed, function
from .visibility import HIDDEN, back_counters, card_visible, counter_visible, unseen_instance, zone_visible


SPELLED_OUT = 8  # seats up to which a per-player zone's instances are written out one by one


def build(st, viewer: int) -> dict:
    """The observation of `st` for `viewer` (a seat, PUBLIC or EVERYTHING)."""
    observe = st.program.observers.get((viewer, st.n))
    if observe is None:
        observe = st.program.observers[(viewer, st.n)] = _observer(st, viewer)
    return observe(st)


def _observer(st, viewer: int):
    """`observe(st)` for one viewer and player count, written out as one
    dict display from what can be decided once (which zones and counters the
    viewer sees, their places in the state's lists) and compiled: what is
    left to do per position is copying rows and asking about unseen cards."""
    program = st.program
    ncards = len(program.card_ids)
    consts: dict = {}

    def const(value) -> str:
        name = f"c{len(consts)}"
        consts[name] = value
        return name

    counters = _counter_entries(st, viewer, const)
    backs = tuple(info.index for info in back_counters(program, viewer))
    anything_marked = " or ".join([f"st.known.count(0) != {ncards}", "st.known_in is not None"]
                                  + [f"ctr[{i}].count(0) != {ncards}" for i in backs])
    plain: list = []  # the instances without slots the viewer does not see
    zones = _zone_entries(st, viewer, const, plain)

    values = f"st.shown_values({viewer})" if program.shown_values else "{}"
    phases = ", 'phase': st.phase, 'passed': sorted(st.passed)" if program.phases else ""
    source = ("def observe(st):\n"
              "    z = st.z; ctr = st.ctr\n"
              + (f"    marked = marked_cards(st, {backs}) if {anything_marked} else None\n" if plain else "") +
              f"    return {{'player': {viewer}, 'current_player': st.current_player(), 'round': st.round, "
              f"'turn': st.turns, 'first_player': st.first, 'counters': {{{', '.join(counters)}}}, "
              f"'zones': {{{', '.join(zones)}}}, 'values': {values}{phases}}}\n")
    ids = program.card_ids
    namespace = {"ids": ids, "name": ids.__getitem__, "unseen": unseen_instance, "marked_cards": _marked_cards,
                 "masked": _masked, "slotted": _slot_ids, "card_counter": _card_counter, "card_zone": _card_zone,
                 **consts}
    allowed = Allowed(_NAMES | namespace.keys(), _LOCALS, _WORDS)
    return function(source, "observe", namespace, allowed, "<observation>")


def _counter_entries(st, viewer: int, const) -> list:
    """The observer's `name: value` entries of the counters `viewer` sees
    (`const(value)`: a namespace name holding value)."""
    ncards = len(st.program.card_ids)
    counters = []
    for info in st.program.counter_list:
        key, i = const(info.name), info.index
        if info.scope == "card":
            # all 0 (`count(0)` is the quickest test: small ints compare by identity) is the usual case
            value = (f"(card_counter(st, {i}, {viewer}) if ctr[{i}].count(0) != {ncards} else {{}})"
                     if counter_visible(info, 0, viewer) else "{}")
        elif info.visibility == HIDDEN:
            continue
        else:
            seen = [counter_visible(info, owner, viewer) for owner in range(len(st.ctr[i]))]
            value = f"ctr[{i}][:]" if all(seen) else f"masked(ctr[{i}], {const(seen)})"
        counters.append(f"{key}: {value}")
    return counters


def _zone_entries(st, viewer: int, const, plain: list) -> list:
    """The observer's `name: value` entries of the zones (`plain` gets the
    instances without slots the viewer does not see)."""
    zones = []
    for name, scope, info, places in _zone_plan(st.program, viewer, st.n):
        if scope == "shared":
            value = _instance_view(*places, info, viewer, plain)
        elif scope == "player" and len(places) <= SPELLED_OUT:
            value = "[" + ", ".join(_instance_view(zi, seen, info, viewer, plain) for zi, seen in places) + "]"
        elif scope == "player":  # a loop over the seats: the observer's size does not grow with them
            seats = f"range({places[0][0]}, {places[0][0] + len(places)})"
            flags = tuple(seen for _, seen in places)
            if all(flags) or not any(flags):
                value = f"[{_instance_view('i', flags[0], info, viewer, plain)} for i in {seats}]"
            else:
                value = (f"[{_instance_view('i', True, info, viewer, plain)} if s else "
                         f"{_instance_view('i', False, info, viewer, plain)} for i, s in zip({seats}, {const(flags)})]")
        else:
            value = f"card_zone(st, {const(info)}, {const(places)}, {viewer})"
        zones.append(f"{const(name)}: {value}")
    return zones


def _instance_view(zi, seen: bool, info, viewer: int, plain: list) -> str:
    """The view of instance `zi` (a number, or the name of a variable holding it)."""
    if not seen and not info.slots:
        # answered at once when none of its cards is marked (known, or carrying a counter);
        # the viewer is told how many cards it holds unless its size is hidden
        plain.append(zi)
        count = "None" if info.size_hidden else f"len(z[{zi}])"
        return (f"({{'count': {count}}} if not marked or marked.isdisjoint(z[{zi}]) "
                f"else unseen(st, {zi}, {viewer}, name))")
    if not seen:
        return f"unseen(st, {zi}, {viewer}, name)"
    return f"slotted(z[{zi}], ids)" if info.slots else f"list(map(name, z[{zi}]))"


# What an observer's source holds besides its namespace: the state's
# attributes and the built-ins it reads, its locals, and the keys of the
# observation (the names of the rules' zones and counters are namespace
# constants, never part of the source).
_NAMES = frozenset({"observe", "z", "ctr", "count", "known", "known_in", "current_player", "round", "turns", "first",
                    "shown_values", "phase", "passed", "isdisjoint", "len", "list", "map", "sorted", "range", "zip"})
_LOCALS = re.compile(r"^(st|z|ctr|marked|i|s)$")
_WORDS = frozenset({"player", "current_player", "round", "turn", "first_player", "counters", "zones", "values", "phase",
                    "passed", "count"})


def _marked_cards(st, backs: tuple) -> set:
    """The cards some seat knows where they lie (or knows to lie somewhere
    in their zone), or that carry one of the per-card counters `backs`
    (seen on their backs)."""
    cards = range(len(st.known))
    marked = set(compress(cards, st.known))
    if st.known_in is not None:
        marked.update(compress(cards, st.known_in))
    for i in backs:
        marked.update(compress(cards, st.ctr[i]))
    return marked


def _masked(values: list, seen: list) -> list:
    return [v if s else None for v, s in zip(values, seen)]


def _card_counter(st, index: int, viewer: int) -> dict:
    """A per-card counter's values on the cards `viewer` sees, where not 0."""
    values, ids = st.ctr[index], st.program.card_ids
    return {ids[c]: values[c] for c in compress(range(len(values)), values) if card_visible(st, c, viewer)}


def _card_zone(st, info, places, viewer: int) -> dict:
    """A per-card zone's instances that hold something, on the cards `viewer` sees."""
    base, seen, empty = places
    ids = st.program.card_ids
    ncards = len(ids)
    rows = st.z[base:base + ncards]
    if empty is None:  # an instance holds something when its list is not empty
        held = compress(range(ncards), rows)
    elif rows.count(empty) == ncards:  # a slotted instance is never an empty list: compared with its empty form
        return {}
    else:  # the instances the cards in the zone lie in
        end = base + ncards
        held = sorted({zi - base for zi in st.loc if base <= zi < end})
    return {ids[c]: _instance(st, base + c, seen, info, viewer) for c in held if card_visible(st, c, viewer)}


def _zone_plan(program, viewer: int, players: int) -> list:
    """What can be decided once per rules, viewer and player count: for each
    zone, its instances and whether `viewer` sees them (for a per-card zone,
    whether its instances are seen when their card is)."""
    plan = []
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
    return _slot_ids(cards, ids) if info.slots else list(map(ids.__getitem__, cards))


def _slot_ids(cards: list, ids: list) -> list:
    return [ids[c] if c is not None else None for c in cards]
