"""Values remembered together with the parts of the position they were read from.

A search values many positions that differ only in places a given player's
value never looks at: during one player's turn, the other players' values
read their own cards and counters, which that turn leaves alone. `Recall`
keeps each computed value with a note of what its computation read (which
zone instances, which counter entries, which cards' locations) and the
contents found there. A later position whose noted parts hold the same
contents gets the same value without computing it: the computation depends
only on what it reads, so it would read the same things, take the same path
and return the same number. This is exact, whatever the rules; a value is
computed again as soon as anything it read differs.

Reads are noted by running the computation, the first time, on the state
with its zone list, counters and locations replaced by noting copies (the
zones' own card lists are shared, so the computation sees and restores the
real ones), and with the state's class replaced by one whose round's
bookkeeping (player count, first player, round, turn...) notes each read:
a value that never asks which turn it is serves every turn.
"""
from __future__ import annotations

import re
import threading
from operator import itemgetter

from ..engine.state import fields_of
from ..runtime.audit import Allowed, function

EVERYTHING = None  # a read of the whole list (iterated, measured, sliced)
_MISSING = object()


class _Noted(list):
    """A list that notes the indices read from it."""

    __slots__ = ("read", "note")

    # (every read of a position's lists comes here: the fewest lookups it can take)
    def __getitem__(self, i, _int=int, _get=list.__getitem__):
        self.note(i if i.__class__ is _int else EVERYTHING)
        return _get(self, i)


def _noted(items) -> _Noted:
    """A noting copy of the list `items` (made where a computation starts:
    a function, not an `__init__`, saves a call each time)."""
    # Copying noting lists (a remembered value computed inside another's
    # computation) is no read: the inner value's key is read from them
    # when it is looked up or kept, and that notes what it depends on.
    noted = _Noted(list.copy(items) if items.__class__ is _Noted else items)
    noted.read = read = set()
    noted.note = read.add
    return noted


def reads_entry(row, i: int, compute) -> tuple:
    """(compute(), whether it read entry `i` of `row`), for a computation
    being noted (`row` one of the noting copies): its reads of `row` are
    noted apart, then added to the row's own. A computation that did not
    read the entry gives the same value whatever the entry holds (the
    principle of this module). Outside a noted computation it cannot tell,
    and says True."""
    if row.__class__ is not _Noted:
        return compute(), True
    outer = row.read
    probe = row.read = set()
    row.note = probe.add
    try:
        value = compute()
    finally:
        row.read, row.note = outer, outer.add
        outer |= probe
    return value, i in probe or EVERYTHING in probe


def _reads_everything(method):
    def read_all(self, *args):
        self.read.add(EVERYTHING)
        return method(self, *args)

    return read_all


# Every other way of reading a list reads all of it.
for _name in ("__iter__", "__len__", "__contains__", "__reversed__", "index", "count", "copy",
              "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__add__", "__mul__", "__rmul__"):
    setattr(_Noted, _name, _reads_everything(getattr(list, _name)))
_Noted.__hash__ = None


class _NotedRows(list):
    """The counters: a plain list of rows that note their own reads. Which
    rows were read is what the rows noted: the list of rows itself has the
    same length and order in every position of a program, so reading it
    (rather than a row) depends on nothing a position holds."""

    __slots__ = ()

    def __init__(self, rows):
        super().__init__([_noted(row) for row in rows])

    def reads(self):
        """(row, indices or EVERYTHING) for each row read, in order."""
        return tuple([(k, _sorted_reads(row)) for k, row in enumerate(self) if row.read])


def _sorted_reads(noted: _Noted):
    return EVERYTHING if EVERYTHING in noted.read else tuple(sorted(noted.read))


# How a computation's reads of each part of a state (engine/state.py: PARTS)
# are noted: the zones, counters and locations through noting copies, the
# round's bookkeeping through the noting class; the acting player is the
# player a value is for, part of every key. The other parts are never read
# by a value computation (a test holds this table to PARTS).
NOTED_BY_COPIES = ("zones", "counters", "locations")
NOTED_BY_CLASS = ("bookkeeping",)
KEYED = ("acting",)
NOT_READ = ("knowledge", "random", "execution", "decision", "record", "working")
# The number of players: bookkeeping, but part of every key (values are
# kept per player count: it sets the length of the counters' rows), so a
# read of it, frequent (`for each player`), needs no noting.
KEYED_BOOKKEEPING = ("n",)
# The round's bookkeeping a computation's reads of are noted: the state's
# attributes it may read besides the zones, counters and locations.
BOOKKEEPING = tuple(name for name in fields_of("bookkeeping") if name not in KEYED_BOOKKEEPING)
# Per thread (bots of several tables may think at once: serve runs them in
# threads), per computation being noted (innermost last), the names it read.
_noting = threading.local()
_NOTING_CLASSES: dict = {}  # a state's class -> the same class noting reads of BOOKKEEPING


def _noting_class(cls):
    found = _NOTING_CLASSES.get(cls)
    if found is None:
        attributes = {name: _noting_attribute(getattr(cls, name), name) for name in BOOKKEEPING}
        found = _NOTING_CLASSES[cls] = type(cls.__name__, (cls,), {"__slots__": (), "noting": True, **attributes})
    return found


def _noting_attribute(slot, name: str) -> property:
    def get(st):
        _noting.reads[-1].add(name)
        return slot.__get__(st)

    def put(st, value):
        slot.__set__(st, value)

    return property(get, put)


def _picker(indices):
    """seq -> the tuple of seq's items at `indices` (all of them for EVERYTHING)."""
    if indices is EVERYTHING:
        return tuple
    if len(indices) > 1:
        return itemgetter(*indices)
    if indices:
        i = indices[0]
        return lambda seq: (seq[i],)
    return lambda seq: ()


def _numbers_maker(counters, places, bookkeeping):
    """st -> the bookkeeping, counter entries and locations named (a few
    numbers, in one tuple). Every lookup reads them: the function is
    written out for the trace, each number one subscript."""
    if not (set(bookkeeping) <= set(BOOKKEEPING) and all(type(i) is int for i in _numbers_in(counters, places))):
        raise TypeError("a trace names only bookkeeping attributes and whole-number indices")
    parts = [f"st.{name}" for name in bookkeeping]
    for k, entries in counters:
        parts += [f"tuple(ctr[{k}])"] if entries is EVERYTHING else [f"ctr[{k}][{i}]" for i in entries]
    parts += ["tuple(st.loc)"] if places is EVERYTHING else [f"loc[{i}]" for i in places]
    # (only numbers and the names of BOOKKEEPING go into the source; compiled
    # and audited as all generated code is, runtime/audit.py)
    source = f"def numbers(st):\n    ctr, loc = st.ctr, st.loc\n    return ({', '.join(parts)}{',' if parts else ''})\n"
    return function(source, "numbers", {"tuple": tuple}, _NUMBERS, "<recall numbers>")


_NUMBERS = Allowed(frozenset({"numbers", "tuple", "ctr", "loc", *BOOKKEEPING}), re.compile(r"^(st|ctr|loc)$"))


def _numbers_in(counters, places):
    for k, entries in counters:
        yield k
        yield from () if entries is EVERYTHING else entries
    yield from () if places is EVERYTHING else places


def _cards_maker(zones):
    """st -> the cards of the zone instances named (longer to read). A
    trace of a few zones (most of them: a counter's share reads one to
    three, or none) has them read one by one, at twice the speed."""
    if zones is not EVERYTHING and len(zones) <= 3:
        return _FEW_ZONES[len(zones)](*zones)
    held = _picker(zones)

    def cards(st):
        return tuple(map(tuple, held(st.z)))

    return cards


def _no_zone():
    return lambda st: ()


def _one_zone(a):
    return lambda st: (tuple(st.z[a]),)


def _two_zones(a, b):
    def cards(st):
        z = st.z
        return tuple(z[a]), tuple(z[b])

    return cards


def _three_zones(a, b, c):
    def cards(st):
        z = st.z
        return tuple(z[a]), tuple(z[b]), tuple(z[c])

    return cards


_FEW_ZONES = (_no_zone, _one_zone, _two_zones, _three_zones)


class Recall:
    """`recall(st, player)`: `compute(st, player)`, remembered as above.

    Per player, the most recently useful traces come first; at most `traces`
    are tried, and at most `size` values are kept in all. A trace no longer
    tried keeps its values: the same cards and counters come back later in a
    game (and in the next game, which a shared evaluator also serves), and
    their values come back with the trace, when a computation reads it again.
    Under a trace, values are filed by the numbers it read first (its
    bookkeeping, counters and locations), then by its zones' cards: a trace
    that holds nothing for these numbers is passed over without reading its
    zones, and traces that read the same numbers read them once."""

    def __init__(self, compute, traces: int = 8, size: int = 50_000):
        self.compute = compute
        self.limit = traces
        self.size = size
        self.kept = 0
        # (player, player count) -> [[trace, {numbers: {cards: value}}, numbers, cards], ...]
        self.by_player: dict = {}
        self.numbers: dict = {}  # (counters, places, bookkeeping) of a trace -> its `_numbers_maker`
        self.parked: dict = {}  # (player, player count, trace) -> its entry, while not tried

    def __call__(self, st, player: int):
        # by player count too: it sets the length of the counters' rows
        entries = self.by_player.get((player, st.n))
        if not entries:
            if entries is None:
                entries = self.by_player[player, st.n] = []
            return self._search(st, player, entries, [], {})
        # the most recently useful trace on its own: most lookups end there
        first = entries[0]
        numbers = first[2](st)
        table = first[1].get(numbers)
        key = None
        if table is not None:
            key = first[3](st)
            found = table.get(key, _MISSING)
            if found is not _MISSING:
                return found
        return self._search(st, player, entries, [key], {first[2]: numbers})

    def _search(self, st, player: int, entries: list, keys: list, read: dict):
        """The value from the entries after those tried (`keys`: the key of
        each entry tried, None where its table holds nothing for its
        numbers; `read`: numbers maker -> its numbers here), else computed
        and kept."""
        for entry in entries[len(keys):]:
            numbers_of = entry[2]
            numbers = read.get(numbers_of)
            if numbers is None:
                numbers = read[numbers_of] = numbers_of(st)
            table = entry[1].get(numbers)
            if table is None:
                keys.append(None)
                continue
            key = entry[3](st)
            found = table.get(key, _MISSING)
            if found is not _MISSING:
                if keys:
                    entries.insert(0, entries.pop(len(keys)))
                return found
            keys.append(key)
        value, trace = self._noted(st, player)
        if self.kept >= self.size:
            entries, keys = [], []
            self.by_player = {(player, st.n): entries}
            self.parked, self.numbers = {}, {}
            self.kept = 0
        entry = self._keep(entries, keys, trace, st, player)
        numbers = read.get(entry[2])
        entry[1].setdefault(entry[2](st) if numbers is None else numbers, {})[keys[0]] = value
        self.kept += 1
        return value

    def _keep(self, entries: list, keys: list, trace, st, player: int) -> list:
        """Put the entry of `trace` first (found among `entries`, parked, or
        new) and its key for `st` first in `keys` (those made while looking
        up, None where none was); the entry."""
        for i, entry in enumerate(entries):
            if entry[0] == trace:
                entries.insert(0, entries.pop(i))
                keys.insert(0, keys.pop(i))
                break
        else:
            # a trace met before comes back with the values it had
            parked = self.parked
            entry = parked.pop((player, st.n, trace), None)
            entries.insert(0, entry or self._entry(trace))
            keys.insert(0, None)
            for old in entries[self.limit:]:
                parked[player, st.n, old[0]] = old
            del entries[self.limit:]
        if keys[0] is None:
            keys[0] = entries[0][3](st)
        return entries[0]

    def _entry(self, trace) -> list:
        zones, counters, places, bookkeeping = trace
        spec = counters, places, bookkeeping
        numbers = self.numbers.get(spec)
        if numbers is None:
            numbers = self.numbers[spec] = _numbers_maker(*spec)
        return [trace, {}, numbers, _cards_maker(zones)]

    def _noted(self, st, player: int):
        """Compute on noting copies; (value, trace of what was read)."""
        z, ctr, loc, cls = st.z, st.ctr, st.loc, st.__class__
        zones, counters, places = _noted(z), _NotedRows(ctr), _noted(loc)
        st.z, st.ctr, st.loc = zones, counters, places
        if "noting" not in cls.__dict__:  # (inside another computation, it already notes)
            st.__class__ = _noting_class(cls)
        reads = getattr(_noting, "reads", None)
        if reads is None:
            reads = _noting.reads = []
        reads.append(set())
        try:
            value = self.compute(st, player)
        finally:
            bookkeeping = reads.pop()
            st.z, st.ctr, st.loc, st.__class__ = z, ctr, loc, cls
        return value, (_sorted_reads(zones), counters.reads(), _sorted_reads(places), tuple(sorted(bookkeeping)))
