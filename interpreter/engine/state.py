"""Game state as plain data: its fields are declared once, in `FIELDS`.

A state holds only lists, ints, strings and None (plus a reference to its
compiled program). Everything that copies or reads a state as a whole is
derived from `FIELDS`: `clone()` (generated from the table, so it copies
each field the cheapest way its kind allows: the zones' rows are shared
until changed), `to_data()` / `from_data()`
(exact JSON-able saves, including the frames that say where rule execution
stands) and `fingerprint()`. Each field also says which part of the game it
holds (`PARTS`): code that treats fields by what they hold asks `fields_of`.

Rule execution is a stack of frames, each `[code, block, locals]` (a list,
indexed by FRAME_CODE, FRAME_BLOCK and FRAME_LOCALS, because generated code
reads and writes them in its inner loops); `execution()` gives them as
typed `Frame` records. The pending decision is four fields: `decider`,
`point`, `option_ids` and `option_values`; `pending()` gives them as a
typed `Pending` record.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import NamedTuple, Optional

from ..runtime.audit import Allowed, function
from ..runtime.calls import FRAME_BLOCK, FRAME_CODE, FRAME_LOCALS


@dataclass(frozen=True)
class StateField:
    name: str
    copy: str  # how a clone copies it: "value", "list", "rows" (list of lists), "shared rows" or "frames"
    doc: str
    saved: bool = True  # part of the position (saves, fingerprints); else reset by clone and load
    default: object = None  # the value of a new state (and of a field not saved, in clones and loads)
    derived: bool = False  # saved in snapshots, but recomputed by the engine when a save is loaded
    part: str = ""  # which part of the game it holds: one of PARTS (a test checks every field names one)


# What each part of a state holds: code that must treat the state's fields
# by what they hold (agents/recall.py notes what a value computation reads)
# asks for the fields of a part here, never lists them itself.
PARTS = {
    "bookkeeping": "the round's plain values (players, turn order, round, turn, phase, passes, the end): "
                   "rules' expressions may read them",
    "zones": "the cards of each zone instance",
    "counters": "the counters' values",
    "locations": "where each card lies",
    "acting": "the player the rules act for (`me`)",
    "knowledge": "what each seat knows of cards it cannot see",
    "random": "the random generator",
    "execution": "where rule execution stands",
    "decision": "the pending decision",
    "record": "what led to the position and what it cost (seed, history, counts)",
    "working": "what the engine keeps while it works, never part of the position (not saved)",
}


FIELDS = (
    StateField("n", "value", "number of players", default=0, part="bookkeeping"),
    StateField("seed", "value", "the seed the game started from (None for a position arranged by hand)",
               part="record"),
    StateField("history", "value", "the actions taken since the start, as nested pairs (earlier, action id), "
                                   "newest outermost; None at the start and for a position arranged by hand",
               part="record"),
    StateField("ctr", "rows", "counter values: one row per counter, one entry per owner", part="counters"),
    StateField("z", "shared rows", "zone instances: the cards in each, bottom first (None: an empty slot); "
                                   "a clone shares them until one of the two states changes one "
                                   "(runtime/ops.py: `zone_to_change`)", part="zones"),
    StateField("loc", "list", "the zone instance holding each card", part="locations"),
    StateField("known", "list", "per card, the seats that know it where it lies unseen, as a bit mask "
                                "(bit p: seat p): see interpreter/visibility.py", part="knowledge"),
    StateField("known_in", "list", "per card, the seats that know it lies somewhere in its zone instance, not where "
                                   "(a shuffle turns knowing where into this), as a bit mask; None until a shuffle "
                                   "makes any (runtime/ops.py)", part="knowledge"),
    StateField("rng", "value", "the random generator's state (SplitMix64, one integer)", part="random"),
    StateField("frames", "frames", "where rule execution stands: [code, block, locals] per running rule",
               part="execution"),
    StateField("me", "value", "the acting player", default=0, part="acting"),
    StateField("cur", "value", "the player whose turn it is", default=0, part="bookkeeping"),
    StateField("first", "value", "the first player", default=0, part="bookkeeping"),
    StateField("order", "value", "the turn order of this round (a tuple of seats)", default=(), part="bookkeeping"),
    StateField("pos", "value", "the place in the turn order whose turn it is", default=0, part="bookkeeping"),
    StateField("round", "value", "the round, from 1", default=1, part="bookkeeping"),
    StateField("turns", "value", "turns begun so far", default=0, part="bookkeeping"),
    StateField("phase", "value", "the phase of the round being played, from 1 (0 in a game without phases)",
               default=0, part="bookkeeping"),
    StateField("passed", "value", "the players who have passed in this phase (a tuple of seats)", default=(),
               part="bookkeeping"),
    StateField("end_round", "value", "the last round, once a rule has said when the game ends", part="bookkeeping"),
    StateField("over", "value", "whether the game has ended", default=False, part="bookkeeping"),
    StateField("decider", "value", "the player who must decide (None when no decision is pending)", derived=True,
               part="decision"),
    StateField("point", "value", "the decision point of the rules that is pending", part="decision"),
    StateField("option_ids", "value", "the ids of the legal options (never changed in place)", derived=True,
               part="decision"),
    StateField("option_values", "value", "the values of the legal options, in the order of their ids",
               derived=True, part="decision"),
    StateField("decisions", "value", "decisions taken so far", default=0, part="record"),
    StateField("cov", "list", "how often each rule ran, when coverage is counted (else None)", part="record"),
    StateField("lost", "value", "whether the rules ended the game lost for everyone", default=False,
               part="bookkeeping"),
    StateField("won", "value", "whether the rules ended the game won by everyone together", default=False,
               part="bookkeeping"),
    StateField("owned", "value", "the zone instances this state has copied for itself since it was made or "
                                 "last cloned (None: none); the others may be shared with clones",
               saved=False, default=None, part="working"),
    StateField("observed", "value", "the observations made of this position, by viewer, until it changes "
                                    "(see GameState.observation)", saved=False, default=None, part="working"),
    StateField("events", "value", "what happened, as the engine tells it, when someone listens (else None): "
                                  "see interpreter/events.py", saved=False, default=None, part="working"),
    StateField("steps", "value", "loop steps since the last decision (the runaway budget)", saved=False, default=0,
               part="working"),
    StateField("nesting", "value", "triggers running inside triggers", saved=False, default=0, part="working"),
    StateField("auto", "value", "while the state plays on by itself (GameState.play_out): per seat, the function "
                                "answering its decisions where they are asked (None: that seat's are not)",
               saved=False, default=None, part="working"),
)
SAVED = tuple(f.name for f in FIELDS if f.saved)
DERIVED = tuple(f.name for f in FIELDS if f.derived)


def fields_of(part: str) -> tuple:
    """The names of the fields holding `part` of a state (one of PARTS), in FIELDS' order."""
    if part not in PARTS:
        raise KeyError(f"no part of a state is called {part!r}")
    return tuple(f.name for f in FIELDS if f.part == part)


class Pending(NamedTuple):
    """The decision a state waits for."""

    player: int
    point: int  # the decision point of the rules (an index into program.decisions)
    ids: list  # the legal option ids
    values: list  # the option values, in the order of `ids`


class Frame(NamedTuple):
    """One running rule: which rule, the block it resumes at, its locals."""

    rule: str
    code: int
    block: int
    locals: tuple


_COPY = {
    "value": "{0}",
    "list": "{0}[:] if {0} is not None else None",
    "rows": "[*map(copy, {0})]",  # (each row copied at C speed, without a comprehension's frame)
    # the list of rows is copied, the rows are shared: neither state owns them any more
    "shared rows": "{0}[:]; self.owned = None",
    "frames": "[[f[0], f[1], f[2][:]] for f in {0}]",
}


def _clone_function():
    """`clone(self)`, written out field by field from FIELDS and compiled once."""
    lines = ["def clone(self):", "    o = new(self.__class__)", "    o.program = self.program"]
    for f in FIELDS:
        value = _COPY[f.copy].format(f"self.{f.name}") if f.saved else repr(f.default)
        lines.append(f"    o.{f.name} = {value}")
    lines.append("    return o")
    allowed = Allowed(frozenset({"clone", "new", "copy", "map", "program", "owned", "__class__",
                                 *(f.name for f in FIELDS)}), re.compile(r"^(self|o|f)$"))
    return function("\n".join(lines) + "\n", "clone", {"new": object.__new__, "copy": list.copy}, allowed,
                    "<state fields>")


def _blank_function():
    """`blank(cls, program)`, written out field by field from FIELDS (one
    assignment of each default, not a `setattr` loop: a state is made at the
    start of every game) and compiled once."""
    lines = ["def blank(cls, program):", "    st = new(cls)", "    st.program = program"]
    lines += [f"    st.{f.name} = {f.default!r}" for f in FIELDS]
    lines.append("    return st")
    allowed = Allowed(frozenset({"blank", "new", "program", "cls", *(f.name for f in FIELDS)}),
                      re.compile(r"^(cls|program|st)$"))
    return function("\n".join(lines) + "\n", "blank", {"new": object.__new__}, allowed, "<state fields>")


class State:
    __slots__ = ("program",) + tuple(f.name for f in FIELDS)

    clone = _clone_function()
    # `State.blank(program)`: a state of `program` with every field at its default, to be filled
    blank = classmethod(_blank_function())

    # -- the pending decision
    def pending(self) -> Optional[Pending]:
        if self.point is None:
            return None
        return Pending(self.decider, self.point, self.option_ids, self.option_values)

    def clear_pending(self) -> None:
        self.decider = self.point = self.option_ids = self.option_values = None

    def execution(self) -> list[Frame]:
        """The running rules, outermost first (a rule whose last statement
        called another has handed its frame to it: it has nothing left to do)."""
        codes = self.program.codes
        return [Frame(codes[f[FRAME_CODE]].name, f[FRAME_CODE], f[FRAME_BLOCK], tuple(f[FRAME_LOCALS]))
                for f in self.frames]

    # -- the actions that led here
    def actions(self) -> list:
        """The action ids taken since the start, oldest first (None for a
        position arranged by hand, which no sequence of actions leads to)."""
        if self.seed is None:
            return None
        out = []
        node = self.history
        while node is not None:
            node, action = node
            out.append(action)
        out.reverse()
        return out

    def forget_history(self) -> None:
        """Mark the position as arranged: no sequence of actions leads to it,
        and the observations made of it before no longer hold."""
        self.seed = None
        self.history = None
        self.observed = None

    # -- pickling: the history written flat, as in `to_data`
    def __getstate__(self):
        names = [name for klass in type(self).__mro__ for name in getattr(klass, "__slots__", ())]
        fields = {name: getattr(self, name) for name in names if hasattr(self, name)}
        fields["history"] = self.actions() if self.seed is not None else None
        return fields

    def __setstate__(self, fields):
        history = None
        for action in fields.pop("history") or ():
            history = (history, action)
        for name, value in fields.items():
            setattr(self, name, value)
        self.history = history

    # -- plain-data round trip
    def to_data(self) -> dict:
        # The history is nested pairs as deep as the game is long: it is
        # written out flat by `actions()`, never walked recursively.
        return {name: self.actions() if name == "history" else plain(getattr(self, name)) for name in SAVED}

    @classmethod
    def from_data(cls, program, data: dict) -> "State":
        """A state holding exactly `data`'s fields (unchecked: see saves.py)."""
        st = cls.__new__(cls)
        st.program = program
        for f in FIELDS:
            setattr(st, f.name, from_plain(data.get(f.name)) if f.saved else f.default)
        history = None
        for action in data.get("history") or ():
            history = (history, action)
        st.history = history
        return st

    def fingerprint(self) -> str:
        """A hash of the whole position (every saved field)."""
        text = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def plain(value):
    """A field's value as JSON-able data (a tuple becomes {"t": [...]})."""
    if isinstance(value, tuple):
        return {"t": [plain(v) for v in value]}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def from_plain(value):
    """The inverse of `plain` (anything else is left as it is, for the caller to refuse)."""
    if isinstance(value, dict) and set(value) == {"t"} and isinstance(value["t"], list):
        return tuple(from_plain(v) for v in value["t"])
    if isinstance(value, list):
        return [from_plain(v) for v in value]
    return value
