"""Game state as plain data, and the primitive operations on zones and counters.

A state holds only lists, ints, strings and None (plus a reference to its
compiled program), so `clone()` is a few list copies and `to_json()` is exact,
including the frames that say where rule execution stands.
"""
from __future__ import annotations

from ..errors import RulesRuntimeError
from . import rng as _rng


class GameOver(Exception):
    """Raised by `end game now` to unwind rule execution."""


class State:
    __slots__ = (
        "program", "n", "ctr", "z", "loc", "rng", "frames", "me", "cur", "first",
        "order", "pos", "round", "turns", "end_round", "over", "pending", "decisions", "cov", "lost",
        "won",
        "steps",  # loop steps since the last decision (the runaway budget); not part of the position
    )

    def clone(self) -> "State":
        other = self.__class__.__new__(self.__class__)
        other.program = self.program
        other.n = self.n
        other.ctr = [c[:] for c in self.ctr]
        other.z = [z[:] for z in self.z]
        other.loc = self.loc[:]
        other.rng = self.rng
        other.frames = [[f[0], f[1], f[2][:]] for f in self.frames]
        other.me = self.me
        other.cur = self.cur
        other.first = self.first
        other.order = self.order
        other.pos = self.pos
        other.round = self.round
        other.turns = self.turns
        other.end_round = self.end_round
        other.over = self.over
        other.pending = self.pending
        other.decisions = self.decisions
        other.cov = self.cov[:] if self.cov is not None else None
        other.lost = self.lost
        other.won = self.won
        other.steps = 0
        return other

    # -- plain-data round trip
    _FIELDS = ("n", "ctr", "z", "loc", "rng", "frames", "me", "cur", "first", "order",
               "pos", "round", "turns", "end_round", "over", "pending", "decisions", "cov", "lost", "won")

    def to_data(self) -> dict:
        return {name: _plain(getattr(self, name)) for name in self._FIELDS}

    @classmethod
    def from_data(cls, program, data: dict) -> "State":
        st = cls.__new__(cls)
        st.program = program
        for name in cls._FIELDS:
            setattr(st, name, _from_plain(data.get(name)))
        st.steps = 0
        return st


def _plain(value):
    if isinstance(value, tuple):
        return {"t": [_plain(v) for v in value]}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _from_plain(value):
    if isinstance(value, dict) and set(value) == {"t"}:
        return tuple(_from_plain(v) for v in value["t"])
    if isinstance(value, list):
        return [_from_plain(v) for v in value]
    return value


# ---------------------------------------------------------------- card moves
def put(st: State, card: int, zi: int, bottom: bool = False) -> None:
    zone = st.z[zi]
    info = st.program.zone_of_instance[zi]
    if info.slots:
        for i in range(len(zone) - 1, -1, -1) if not bottom else range(len(zone)):
            if zone[i] is None:
                zone[i] = card
                break
        else:
            raise RulesRuntimeError(f"zone '{info.name}' is full ({info.slots} slots)")
    elif bottom:
        zone.insert(0, card)
    else:
        zone.append(card)
    st.loc[card] = zi


def move(st: State, card: int, zi: int, bottom: bool = False) -> None:
    """Move a card to zone instance `zi`. If the card leaves its zone empty,
    the zone's `becomes empty` trigger fires once the card has arrived, so a
    trigger that ends the game finds every card in a place. (The most frequent
    operation of a game, so written out rather than split into helpers.)"""
    loc = st.loc
    src = loc[card]
    zones = st.z
    infos = st.program.zone_of_instance
    source = zones[src]
    left = infos[src]
    if left.slots:
        source[source.index(card)] = None
    else:
        source.remove(card)
    if infos[zi].slots:
        put(st, card, zi, bottom)
    elif bottom:
        zones[zi].insert(0, card)
        loc[card] = zi
    else:
        zones[zi].append(card)
        loc[card] = zi
    if left.empty_hook is not None and not any(c is not None for c in source):
        run_hook(st, left.empty_hook)


def top(st: State, zi: int):
    """The top card of a zone (the last one placed), or none."""
    zone = st.z[zi]
    for card in reversed(zone):
        if card is not None:
            return card
    return None


def deal(st: State, count: int, src: int, dst: int) -> None:
    for _ in range(count):
        card = top(st, src)
        if card is None:
            return
        move(st, card, dst)


def shuffle(st: State, zi: int) -> None:
    zone = st.z[zi]
    st.rng = _rng.shuffle(st.rng, zone)


def slide(st: State, zi: int) -> None:
    """Close the gaps of a slotted zone, pushing cards toward its last slot."""
    zone = st.z[zi]
    gaps = zone.count(None)
    if gaps:
        zone[:] = [None] * gaps + [c for c in zone if c is not None]


def refill(st: State, zi: int, src: int) -> None:
    """Fill the empty slots of a zone from the top of `src`, last slot first."""
    zone = st.z[zi]
    if None not in zone:
        return
    source = st.z[src]
    info = st.program.zone_of_instance[src]
    loc = st.loc
    for i in range(len(zone) - 1, -1, -1):
        if zone[i] is None:
            if info.slots:
                card = top(st, src)
                if card is None:
                    return
                source[source.index(card)] = None
            else:
                if not source:
                    return
                card = source.pop()
            zone[i] = card
            loc[card] = zi
            if info.empty_hook is not None and not any(c is not None for c in source):
                run_hook(st, info.empty_hook)


def run_hook(st: State, code: int) -> None:
    from .vm import run_nested

    run_nested(st, code)
