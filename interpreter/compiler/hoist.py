"""Sub-expressions of a loop computed once, or once per value of a card field.

A condition inside a loop of an expression often recomputes, for each item,
a value that does not depend on the item (`size(hand)`), or depends on it
only through one of its fields: `lowest x.level for x in stock where x.suit
== c.suit`, inside a loop over `c`, is the same for every card of one suit,
and a loop over a stock of n cards computes it n times, n steps each. Such a
sub-expression, if it is worth keeping (it holds a loop or calls a
definition), is computed at most once per evaluation of the loop, for each
value of the field: a memo made just before the loop (`R_memo`, a dict that
computes what it lacks) holds it, keyed by `None`, or by the first card that
has the same value of the field (`same_<field>`, a per-card table made at
compile time), so a card without the field has a key of its own and fails
as it did.

Nothing moves while an expression is evaluated, so a value computed once is
the value each item would have computed; it is computed only when an item
first asks for it (a condition that is never reached is never computed, and
an error comes out where it did). Loops whose body can change the position
(`for each`) and the statements between decisions are not expressions and
are left alone. A loop variable of an expression is made by the `Module`, so
the names the analysis looks for are never written by the rules.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from fractions import Fraction

from ..language import nodes as n

_NAME = re.compile(r"\b[vm]\d+\b")
_USE = re.compile(r"\(m\d+\[")
_WORTH = re.compile(r" for |\bdefine_\w+\(|\bR_of_group\(")  # a loop, a call of a definition's function or of an aggregate over a group


GROUPED = ("count", "sum", "lowest", "highest")  # aggregates that can go through one group of cards
KEYS = (int, float, Fraction, str, bool, type(None))  # field values a group is found by (hashed, == as dict keys)


def group_parts(expr, local) -> tuple | None:
    """`(F, K, C)` for an aggregate `op E for x in L where x.F == K and C...`
    whose loop can go through the cards of L whose F equals K alone (a group
    of a table of L's cards by F, made once for the enclosing loops): K is a
    local, or a field of one, so looking it up computes nothing and cannot
    fail; C the other conditions, in order. None otherwise.

    Inside a loop over the cards of a pile, `lowest x.rank for x in pile
    where x.suit == c.suit` goes through the pile once in all (to make the
    table) instead of once for each suit."""
    if expr.op not in GROUPED or expr.cond is None:
        return None
    cond, rest = expr.cond, []
    if isinstance(cond, n.BoolOp) and cond.op == "and":
        cond, rest = cond.operands[0], list(cond.operands[1:])
    if not isinstance(cond, n.Compare) or cond.op != "==":
        return None
    for mine, key in ((cond.left, cond.right), (cond.right, cond.left)):
        target = key.obj if isinstance(key, n.Field) else key
        if (isinstance(mine, n.Field) and isinstance(mine.obj, n.Name) and mine.obj.name == expr.var
                and isinstance(target, n.Name) and target.name != expr.var and local(target.name)):
            return mine.name, key, rest
    return None


class Loop:
    """One loop of an expression being generated: the names it binds and the
    memos to make before it, as (memo name, source)."""

    __slots__ = ("var", "names", "memos", "distinct")

    def __init__(self, var: str):
        self.var = var
        self.names = {var}
        self.memos: list = []
        # the field list whose values the loop's items seldom share (it goes through one
        # card per group of that field: extremes.py), so a memo by that field keeps nothing
        self.distinct = None

    def clauses(self) -> str:
        """The memos as comprehension clauses, to put before the loop's `for`."""
        return "".join(f"for {m} in [{{}}] " for m in self.memos)

    def lines(self) -> list:
        """The memos as statements, to put before a statement `for` loop."""
        return [f"{m} = {{}}" for m in self.memos]


class Hoister:
    """The loops enclosing the point being generated, and the memos made so far.

    `same(list_name)`: the name of the table of first cards with the same value
    for a field's list of values, or None where the field cannot be a key."""

    def __init__(self, module, same, enabled: bool = True):
        self.module = module
        self.same = same
        self.enabled = enabled
        self.frames: list = []  # Loop, or None where a new scope starts (a lambda of the generated code)
        self.memos: dict = {}  # memo name -> (its Loop, its use, the source it replaces)
        self.keys: dict = {}  # use of a memo -> (its Loop, its key)
        self.tables: set = set()  # memos made with `always` (a table for the loop: kept where a memo of it uses it)

    @contextmanager
    def loop(self, var: str):
        frame = Loop(var)
        self.frames.append(frame)
        try:
            yield frame
        finally:
            self.frames.pop()
            for m in frame.memos:  # bound inside the loop's own text from now on
                self.keys.pop(self.memos.pop(m)[1], None)
                if self.frames and self.frames[-1] is not None:
                    self.frames[-1].names.discard(m)

    @contextmanager
    def scope(self, frames: list):
        """Generate with `frames` as the enclosing loops: [None] inside a
        lambda (nothing leaves it), [] for a function of its own."""
        outer, self.frames = self.frames, frames
        try:
            yield
        finally:
            self.frames = outer

    def slot(self, var: str, name: str) -> None:
        """`name` is bound by the loop over `var` too (its slot number)."""
        for frame in self.frames:
            if frame is not None and frame.var == var:
                frame.names.add(name)

    def inside(self) -> bool:
        """Whether the point being generated is inside a loop whose memos are made."""
        return self.enabled and bool(self.frames) and self.frames[-1] is not None

    def hoisted(self, text: str, always: bool = False) -> str:
        """`text`, or the use of a memo computing it, if it is worth one
        (`always`: it is, wherever it does not depend on the loops' items)."""
        frames = self.frames
        if not self.inside() or not (always or _WORTH.search(text) or _USE.search(text)):
            return text
        full = self._restored(text, 0, drop=False)
        if not (always or _WORTH.search(full)):
            return text
        if always:
            use = self._hoisted(text, frames, full)
            self.tables.update(m for m in re.findall(r"\((m\d+)\[", use) if m not in text)
            return use
        return self._hoisted(text, frames, full)

    def _hoisted(self, text: str, frames: list, full: str) -> str:
        names = set(_NAME.findall(full))
        j = len(frames) - 1
        while j >= 0 and frames[j] is not None and not frames[j].names & names:
            j -= 1
        if j < len(frames) - 1:  # the same for every item of the loops after frames[j]
            return self._memo(text, j + 1, None)
        inner = frames[-1]
        key = self._key(full, inner, names)
        return self._memo(text, j, key) if key is not None else text

    def merged(self, parts: list, op: str) -> list:
        """`parts` of an `and`/`or`, with neighbours kept by memos of the same
        loop and key kept by one memo instead (one lookup, one memo to make)."""
        out = []
        for part in parts:
            if out and part in self.keys and self.keys.get(out[-1]) == self.keys[part]:
                out[-1] = self.hoisted(f"({out[-1]} {op} {part})")
            else:
                out.append(part)
        return out

    def _key(self, full: str, frame: Loop, names: set):
        """`same_<field>[var]` if `full` reads the loop's variable only as one
        field of it, else None."""
        if names & frame.names != {frame.var}:
            return None
        reads = set(re.findall(rf"(?<![\w\]])(\w+)\[{frame.var}\](?!\()", full))
        if len(reads) != 1:
            return None
        values = reads.pop()  # every mention of the variable must be this read (not a counter of the card, say)
        if len(re.findall(rf"\b{frame.var}\b", full)) != len(re.findall(rf"(?<![\w\]]){values}\[{frame.var}\](?!\()", full)):
            return None
        if values == frame.distinct:
            return None
        table = self.same(values)
        return f"{table}[{frame.var}]" if table is not None else None

    def _memo(self, text: str, at: int, key) -> str:
        frame = self.frames[at]
        source = self._restored(text, at)
        for made in frame.memos:  # the same value for the same loop: one memo
            _, use, made_source = self.memos[made]
            if made_source == source and self.keys.get(use, (None, None))[1] == key:
                return use
        m = self.module.name("m")
        if key is None:
            use = f"({m}[0] if {m} else {m}.setdefault(0, {source}))"
        else:
            # the key is read again rather than named: Python allows no name to be assigned
            # in what a comprehension goes through, and a named key costs more besides
            use = f"({m}[{key}] if {key} in {m} else {m}.setdefault({key}, {source}))"
        frame.memos.append(m)
        self.memos[m] = (frame, use, source)
        self.keys[use] = (frame, key)
        if at > 0 and self.frames[at - 1] is not None:  # made before the loop: bound by the one enclosing it
            self.frames[at - 1].names.add(m)
        return use

    def _restored(self, text: str, at: int, drop: bool = True) -> str:
        """`text` with the memos it uses made before frames[at] or a loop
        inside it put back as the source they replace (and, if `drop`,
        dropped from their loop)."""
        inner = {id(f) for f in self.frames[at:] if f is not None}
        own = self.frames[at] if drop else None  # (a table made before this loop stays a table: see `hoisted`)
        found = True
        while found:
            found = False
            for m in dict.fromkeys(re.findall(r"\((m\d+)\[", text)):
                frame, use, source = self.memos.get(m, (None, None, None))
                if frame is None or id(frame) not in inner or use not in text or (frame is own and m in self.tables):
                    continue
                text, found = text.replace(use, source), True
                if drop:
                    frame.memos.remove(m)
                    del self.memos[m]
                    self.keys.pop(use, None)
        return text


# Reads of the position that no loop of an expression changes and that cannot fail:
# the acting player's (or a shared) counter, the size of a zone instance of the acting player (or shared).
_STEADY = re.compile(r"ctr\[\d+\]\[(?:st\.me|0)\]|len\(z\[\d+(?: \+ st\.me)?\]\)")


def lifted(module, texts: list) -> tuple:
    """(statements naming each steady read of `texts`, the conditions of a
    loop of statements, once before the loop; `texts` reading those names).
    A read that cannot fail and that nothing in the loop changes gives the
    same value at every item: read once, it costs a local's load each."""
    reads = dict.fromkeys(read for text in texts for read in _STEADY.findall(text))
    if not reads:
        return [], texts
    names = {read: module.name("t") for read in reads}
    pattern = re.compile("|".join(re.escape(read) for read in sorted(reads, key=len, reverse=True)))
    return [f"{t} = {read}" for read, t in names.items()], [pattern.sub(lambda m: names[m.group(0)], text) for text in texts]


# A counter's row (its values by owner): the list itself is made with the state and never replaced.
_ROW = re.compile(r"\bctr\[\d+\](?=\[)")


def rows_lifted(module, text: str) -> tuple:
    """(statements naming each counter row `text` reads, `text` reading
    those names): for the condition of a loop of statements whose body may
    change the counters' values, but never which list holds a counter's
    row, so the row is read once before the loop, not at every item."""
    rows = dict.fromkeys(_ROW.findall(text))
    names = {row: module.name("t") for row in rows}
    return [f"{t} = {row}" for row, t in names.items()], _ROW.sub(lambda m: names[m.group(0)], text)
