"""Cutting a rule into numbered blocks, and the dispatch loop that runs them.

A resumable rule function is written as blocks of lines; a line is
`(indent, text, span)`, where the text may be a marker: ("jump", label) or
("set", label) (store the block to resume at in the frame). Whoever makes a
rule's frame makes it with room for all its locals (see `frame_of`). Once every block is written,
unreachable blocks are dropped, jumps through blocks that only jump on are
shortened, a jump to a block that only ends the rule ends it in place, and the
blocks are rendered inside `while True:` behind `if pc ==` checks, grouped so
that entering a late block costs few comparisons.
"""
from __future__ import annotations

import re

from .codegen import Label

# The first lines of every rule function: locals for the state's counters and zones.
HEAD = [(1, "ctr = st.ctr", None), (1, "z = st.z", None)]


class BlockWriter:
    """Writes the lines of one function, in blocks when it is resumable."""

    def __init__(self):
        self.blocks: list = []  # one list of lines per finished block
        self.lines: list = []  # the lines being written
        self.indent = 0

    def emit(self, text, span=None):
        self.lines.append((self.indent, text, span))

    def jump(self, label: Label, span=None):
        self.lines.append((self.indent, ("jump", label), span))

    def jump_if(self, test: str, label: Label, span=None, then: tuple = ()):
        """`if TEST:` run the lines `then`, and go to `label`."""
        self.emit(f"if {test}:", span)
        for line in then:
            self.emit(f"    {line}", span)
        self.indent += 1
        self.jump(label, span)
        self.indent -= 1

    def place(self, label: Label) -> None:
        """Start a new block at `label` (the current one falls through to it)."""
        if self.blocks or self.lines:
            if not self._ends(self.lines):
                self.jump(label)
            self.blocks.append(self.lines)
        label.n = len(self.blocks)
        self.lines = []

    def prune(self, points) -> None:
        """Make each call in tail position in place of the rule, then drop
        blocks nothing can reach (left behind by jumps that were forwarded,
        or where such a call would have resumed) and number the rest in order."""
        forward = self._forwarding()
        ends = {k for k, lines in self._returns().items() if lines == _END}
        self.blocks = [_tail_calls(block, ends, forward) for block in self.blocks]
        used = self._labels_used(points)
        targets = {0} | {forward(label.n) for label in used}
        live = []
        for k, block in enumerate(self.blocks):
            if k in targets or (live and not self._ends(self.blocks[live[-1]]) and live[-1] == k - 1):
                live.append(k)
        renumber = {old: new for new, old in enumerate(live)}
        for label in used:
            label.n = renumber[forward(label.n)]
        self.blocks = [self.blocks[k] for k in live]

    def _labels_used(self, points):
        seen = {}
        for block in self.blocks:
            for _, text, _ in block:
                if isinstance(text, tuple) and text[1] is not None:
                    seen[id(text[1])] = text[1]
        for point in points:
            for value in vars(point).values():
                if isinstance(value, Label):
                    seen[id(value)] = value
        return list(seen.values())

    @staticmethod
    def _ends(block) -> bool:
        if not block:
            return False
        indent, text, _ = block[-1]
        return indent == 0 and ((isinstance(text, str) and text.startswith("return "))
                                or (isinstance(text, tuple) and text[0] == "jump"))

    def render(self, fname: str) -> list:
        """The dispatch loop over the blocks. Blocks are checked in groups
        (`if pc < 8:` around blocks 4-7), so resuming at a late block costs a
        few comparisons, not one per block; a block falls through to the next
        one, and a jump elsewhere restarts the dispatch."""
        out = [(0, f"def {fname}(st, fr):", None), (1, "L = fr[2]", None), *HEAD,
               (1, "pc = fr[1]", None), (1, "while True:", None)]
        group = max(3, int(len(self.blocks) ** 0.5 + 0.5))
        ends = self._returns()
        for k, block in enumerate(self.blocks):
            if k % group == 0 and len(self.blocks) > group:
                out.append((2, f"if pc < {k + group}:", None))
            base = 3 if len(self.blocks) > group else 2
            out.append((base, f"if pc == {k}:", None))
            last = len(block) - 1
            for j, (indent, text, span) in enumerate(block):
                if isinstance(text, tuple):
                    kind, label = text
                    if kind == "set":
                        out.append((indent + base + 1, f"fr[1] = {label.n}", span))
                        continue
                    target = label.n
                    if target in ends:  # (the block it would go to only returns)
                        out += [(indent + base + 1 + i, t, span) for i, t in ends[target]]
                        continue
                    out.append((indent + base + 1, f"pc = {target}", span))
                    if not (j == last and indent == 0 and target > k):
                        out.append((indent + base + 1, "continue", span))
                    continue
                out.append((indent + base + 1, text, span))
        return out

    def _returns(self) -> dict:
        """Block number -> its lines, for the short blocks that only end the
        rule (`return None`): a jump there runs them in
        place instead of going round the dispatch loop."""
        ends = {}
        for k, block in enumerate(self.blocks):
            if (len(block) <= 2 and all(isinstance(text, str) and indent == 0 for indent, text, _ in block)
                    and block[-1][1] in ("return S", "return None")):
                ends[k] = [(indent, text) for indent, text, _ in block]
        return ends

    def _forwarding(self):
        """Block number -> the block execution really continues at, skipping
        blocks that only jump on."""
        hops = {}
        for k, block in enumerate(self.blocks):
            if len(block) == 1 and block[0][0] == 0 and isinstance(block[0][1], tuple) and block[0][1][0] == "jump":
                hops[k] = block[0][1][1].n

        def forward(k):
            seen = set()
            while k in hops and k not in seen:
                seen.add(k)
                k = hops[k]
            return k
        return forward

    # ------------------------------------------------------------ statements


_CALL = re.compile(r"if (\w+)\(st, nf\) is S:")
_END = [(0, "return None")]


def _tail_calls(block: list, ends: set, forward) -> list:
    """`block` with each call in tail position (the block it resumes at only
    ends the rule) made in place of the rule: the callee's frame is written
    over the caller's, wherever that is kept (on `st.frames`, or by the
    caller's caller until it suspends), and the callee's result is the
    rule's, so nothing is left to resume (as `call_rule` writes a call: set
    the resume block, make the frame, call, on SUSPEND push the frame and
    return; else go to the resume block)."""
    out, j = [], 0
    while j < len(block):
        window = block[j:j + 6]
        if len(window) == 6 and _is_tail_call(window, ends, forward):
            indent, span = window[1][0], window[2][2]
            callee = _CALL.fullmatch(window[2][1]).group(1)
            out += [(indent, "fr[:] = " + window[1][1][len("nf = "):] + "  # (a call in tail position)", span),
                    (indent, f"return {callee}(st, fr)", span)]
            j += 6
        else:
            out.append(block[j])
            j += 1
    return out


def _is_tail_call(window, ends: set, forward) -> bool:
    (i0, t0, _), (i1, t1, _), (i2, t2, _), (i3, t3, _), (i4, t4, _), (i5, t5, _) = window
    return (i0 == i1 == i2 == i5 and i3 == i4 == i0 + 1 and isinstance(t0, tuple) and t0[0] == "set"
            and isinstance(t1, str) and t1.startswith("nf = ") and isinstance(t2, str) and _CALL.fullmatch(t2) is not None
            and t3 == "st.frames.append(nf)" and t4 == "return S"
            and isinstance(t5, tuple) and t5[0] == "jump" and t0[1] is t5[1] and forward(t5[1].n) in ends)


# A rule's frame as its caller writes it: `frame_of(code, args)` stands for
# its locals until every rule is generated, when `fill_rooms` writes the
# nones of the locals after the arguments (the callee's count is known then).
_ROOM = re.compile("(\\[?)\x00room(\\d+)\x00")


def frame_of(code: int, args: list) -> str:
    """`[code, 0, [args, None, ...]]`: a new frame of rule `code`."""
    return f"[{code}, 0, [{', '.join(args)}\x00room{code}\x00]]"


def fill_rooms(functions: list, codes: list) -> None:
    """Write the nones of each frame made by the generated functions."""
    def room(m):
        nones = ", ".join(["None"] * len(codes[int(m.group(2))].room))
        return m.group(1) + nones if m.group(1) or not nones else ", " + nones
    for _, lines in functions:
        for k, (indent, text, span) in enumerate(lines):
            if isinstance(text, str) and "\x00" in text:
                lines[k] = (indent, _ROOM.sub(room, text), span)


def slot_index(text: str) -> int:
    """The frame slot of `L[i]`."""
    return int(text[2:-1])
