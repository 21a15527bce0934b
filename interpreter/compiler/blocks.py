"""Cutting a rule into numbered blocks, and the dispatch loop that runs them.

A resumable rule function is written as blocks of lines; a line is
`(indent, text, span)`, where the text may be a marker: ("jump", label),
("set", label) (store the block to resume at in the frame) or ("resume",
None) (go on at the block stored in the frame). Whoever makes a rule's
frame makes it with room for all its locals (see `frame_of`). Once every
block is written, unreachable blocks are dropped, jumps through blocks that
only jump on are shortened, a jump to a block that only ends the rule ends
it in place, and the blocks are rendered inside `while True:` behind
`if pc ==` checks, grouped so that entering a late block costs few
comparisons. A rule function is `f(st, fr, pc=0)`: `pc` is the block to
resume at, given by the run loop for a waiting frame (its `fr[1]`), and 0
for a call anew, which its callers make with the frame alone. A rule
called anew (block 0) runs its blocks written out one after another,
without those checks, as far as it goes straight on
(`BlockWriter.from_start`); a rule that neither jumps back nor is ever
resumed (it waits only in the frame of a rule it calls in tail position)
is those blocks alone, without the dispatch loop.
"""
from __future__ import annotations

import re

from .codegen import Label


_ME = re.compile(r"\bst\.me\b")
_ME_SET = re.compile(r"\bst\.me\s*=(?!=)")
ME_READS = 4  # the reads of the acting player that make a local of it pay
PENDING = "st.decider = st.me; st.point = {point}; st.option_ids = ids; st.option_values = {values}"  # (a decision asked)
_ASKED = PENDING[:PENDING.index(";") + 1]  # how the line leaving a decision pending begins


def state_locals(lines: list, indent: int = 1) -> tuple:
    """The first lines of a generated function, and its `lines` as they are
    then: local names for the state's counters and zones, each where the
    lines read it, and for the acting player (`me`) where they read it
    often and never set it (a rule they call that acts as another player
    sets it back before it returns, and one that waits returns at once)."""
    body = "\n".join(text for _, text, _ in lines if isinstance(text, str))
    head = [(indent, f"{name} = st.{name}", None) for name in ("ctr", "z") if re.search(rf"\b{name}\b", body)]
    waiting = "\n".join(t for _, t, _ in lines if isinstance(t, str) and t.startswith(_ASKED))  # (rules seldom wait)
    if len(_ME.findall(body)) - len(_ME.findall(waiting)) >= ME_READS and not _ME_SET.search(body):
        head.append((indent, "me = st.me", None))
        lines = [(d, _ME.sub("me", text) if isinstance(text, str) else text, span) for d, text, span in lines]
    return head, lines


class BlockWriter:
    """Writes the lines of one function, in blocks when it is resumable."""

    def __init__(self):
        self.blocks: list = []  # one list of lines per finished block
        self.entries: set = set()  # the blocks a decision or a call resumes at, or asks again at (once pruned)
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
        self.entries = {v.n for point in points for v in vars(point).values() if isinstance(v, Label)}
        self.entries |= {text[1].n for block in self.blocks for _, text, _ in block
                         if isinstance(text, tuple) and text[0] == "set"}

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
        """The dispatch loop over the blocks: block 0 written out with the
        blocks it goes on to (`from_start`), then every other block entered
        otherwise. Blocks are checked in groups (`if pc < 8:` around blocks
        4-7), so resuming at a late block costs a few comparisons, not one
        per block; a block falls through to the next one, and a jump
        elsewhere restarts the dispatch."""
        out = [(1, text, None) for text in _DISPATCH]
        ends = self._returns()
        start, jumped = self.from_start(ends)
        entered = self._entered(jumped | self.entries, ends)
        if not entered and not any(t == "continue" or t.startswith("pc = ") for _, t, _ in start):
            # never resumed (it waits only in the frame of a rule it calls in tail position) and
            # never jumping: its first blocks alone, without the dispatch
            return self._function(fname, [(i + 1, t, s) for i, t, s in start])
        out += [(2, _FRESH, None),
                *[(i + 3, t, s) for i, t, s in start]]
        if entered:
            out.append((2, "# (resumed after waiting, or jumped to: the block `pc` names)", None))
        later = len(entered)
        group = max(3, int(later ** 0.5 + 0.5))
        for n, k in enumerate(entered):
            block = self.blocks[k]
            if n % group == 0 and later > group:  # (up to the next group's first block, or past the last)
                bound = entered[n + group] if n + group < later else entered[-1] + 1
                out.append((2, f"if pc < {bound}:", None))
            base = 3 if later > group else 2
            out.append((base, f"if pc == {k}:", None))
            last = len(block) - 1
            for j, (indent, text, span) in enumerate(block):
                if isinstance(text, tuple):
                    out += self._marker(text, indent + base + 1, span, ends, k if j == last and indent == 0 else None)
                else:
                    out.append((indent + base + 1, text, span))
        return self._function(fname, out)

    @staticmethod
    def _function(fname: str, lines: list) -> list:
        """The function of a resumable rule with `lines` its body."""
        frame = [(1, "L = fr[2]", None)] if any(re.search(r"\bL\b", t) for _, t, _ in lines) else []
        head, lines = state_locals(lines)
        return [(0, f"def {fname}(st, fr, pc=0):", None), *frame, *head, *lines]

    @staticmethod
    def _marker(text: tuple, indent: int, span, ends: dict, ending=None) -> list:
        """The lines of a marker. A jump sets `pc` and restarts the dispatch,
        or, where it ends block `ending` of the dispatch and goes to a later
        block, falls into the checks after it."""
        kind, label = text
        if kind == "set":
            return [(indent, f"fr[1] = {label.n}", span)]
        if kind == "resume":
            return [(indent, "pc = fr[1]", span), (indent, "continue", span)]
        target = label.n
        if target in ends:  # (the block it would go to only returns)
            return [(indent + i, t, span) for i, t in ends[target]]
        if ending is not None and target > ending:
            return [(indent, f"pc = {target}", span)]
        return [(indent, f"pc = {target}", span), (indent, "continue", span)]

    def from_start(self, ends: dict) -> list:
        """Block 0 and the blocks it goes on to, written out in a row, and the
        blocks it jumps to: a block that ends by going to a later block not
        written yet is followed by it; a jump ahead taken `if TEST` (after
        some lines, or none) becomes `if TEST: ... else:` (or
        `if not (TEST):`) over what follows up to the block it jumps to,
        which follows; any other jump (back to a loop's start, to a block
        written already, to the block an option set) restarts the dispatch.
        So a rule called anew runs without a `pc` check until it loops or
        comes back from waiting."""
        done: set = set()
        jumped: set = set()  # the blocks it jumps to

        def walk(k: int, j: int, stop, depth: int) -> list:
            out = []
            while k != stop:
                if j == 0:
                    if k in done:
                        jumped.add(k)
                        return out + [(depth, f"pc = {k}", None), (depth, "continue", None)]
                    done.add(k)
                block, after = self.blocks[k], None
                while j < len(block):
                    indent, text, span = block[j]
                    if isinstance(text, tuple):
                        target = text[1].n if text[0] == "jump" else None
                        if j == len(block) - 1 and indent == 0 and target not in ends and goes_on(k, target, stop):
                            after = target
                        else:
                            out += self._marker(text, depth + indent, span, ends)
                            jumped.add(target)
                        j += 1
                    elif indent == 0 and (then := _jump_if(block, j)) is not None:
                        target = block[j + len(then) + 1][1][1].n
                        if target in ends or not goes_on(k, target, stop):
                            out.append((depth, text, span))
                            j += 1
                            continue
                        if then:  # if TEST: THEN; else: what follows
                            out += [(depth, text, span), *[(depth, line, s) for _, line, s in then], (depth, "else:", span)]
                        else:
                            out.append((depth, f"if {_negated(text[3:-1])}:", span))
                        out += walk(k, j + len(then) + 2, target, depth + 1)
                        after, j = target, len(block)
                    else:
                        out.append((depth + indent, text, span))
                        j += 1
                if after is None:  # (the block returns, or jumps where the dispatch goes on)
                    return out
                k, j = after, 0
            return out

        def goes_on(k: int, target, stop) -> bool:
            """Whether block `target` can follow block `k` in place."""
            return target is not None and (target == stop or (k < target and target not in done
                                                              and (stop is None or target < stop)))

        return walk(0, 0, None, 0), jumped - {None}

    def _entered(self, wanted: set, ends: dict) -> list:
        """The blocks after the first that the dispatch must hold: those
        jumped to from the first blocks written out, resumed or asked again
        at, and those their own jumps go to (a block only ever followed in
        place is not)."""
        held, todo = set(), [k for k in wanted if k]
        while todo:
            k = todo.pop()
            if k in held:
                continue
            held.add(k)
            todo += [text[1].n for _, text, _ in self.blocks[k]  # (a jump to a block that only ends the rule ends it)
                     if isinstance(text, tuple) and text[0] == "jump" and text[1].n and text[1].n not in ends]
        return sorted(held)

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


def _negated(test: str) -> str:
    """`not (TEST)`, written without a double negation where TEST is one."""
    if test.startswith("not (") and test.endswith(")") and _closes_at_end(test[4:]) and not {"'", "\""} & set(test):
        return test[5:-1]
    if test.startswith("not ") and test[4:].replace("_", "").replace(".", "").isalnum():
        return test[4:]
    return f"not ({test})"


def _closes_at_end(text: str) -> bool:
    """Whether the parenthesis opening `text` closes at its end."""
    depth = 0
    for k, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return k == len(text) - 1
    return False


def _jump_if(block: list, j: int):
    """For `if TEST:` at line `j` of `block` that runs some lines (written
    one level in: `BlockWriter.jump_if`) and jumps, with lines after it
    outside it: those lines (maybe none). Else None."""
    head = block[j][1]
    if not (isinstance(head, str) and head.startswith("if ") and head.endswith(":")):
        return None
    then = []
    for indent, text, span in block[j + 1:]:
        if not (indent == 0 and isinstance(text, str) and text.startswith("    ")):
            break
        then.append((indent, text, span))
    rest = block[j + len(then) + 1:j + len(then) + 3]
    if len(rest) < 2:
        return None
    (i1, t1, _), (i2, t2, _) = rest
    if (i1 == 1 and isinstance(t1, tuple) and t1[0] == "jump" and i2 == 0
            and not (isinstance(t2, str) and t2.startswith(("else", "elif")))):
        return then
    return None


_CALL = re.compile(r"if (\w+)\(st, nf\) is S:")
# The lines that dispatch a resumable rule to its block, the test of a call
# anew, and the mark of a call in tail position, as the rule is written.
_DISPATCH = ("while True:",)
_FRESH = "if not pc:  # (called anew: the blocks one after another, as far as they go straight on)"
_TAIL = "  # (a call in tail position)"
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
            out += [(indent, "fr[:] = " + window[1][1][len("nf = "):] + _TAIL, span),
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


# A frame whose locals are all constants (no argument computed by the caller).
_CONSTANT_FRAME = re.compile(r"\[(\d+), 0, \[((?:None|-?\d+)(?:, (?:None|-?\d+))*)?\]\]")


def forward_calls(functions: list, names: dict, rules: list) -> dict:
    """Calls of a rule that only calls another (`action draw: draw_one`)
    made to that one: the rule would write the callee's frame over its own
    (a call in tail position) and return its result, so the caller writes
    that frame itself, and a rule waiting at a decision leaves the same
    frames. Only where neither frame holds a value the caller computes
    (arguments of constants alone). Returns, for the calls the runtime makes
    without arguments (effects), the code to run in place of such a rule's,
    where the frame made for that code alone is the same.
    `names`: code -> its function's name; `rules`: the Code of each code."""
    codes = {name: code for code, name in names.items()}
    forward = {}  # code -> (the frame it makes, as code text; the code that frame runs)
    for name, lines in functions:
        texts = [text for _, text, _ in lines]
        if name in codes and len(texts) == 3 and texts[1].startswith("fr[:] = ") and texts[1].endswith(_TAIL):
            target = _CONSTANT_FRAME.fullmatch(frame := texts[1][len("fr[:] = "):-len(_TAIL)])
            if target is not None and texts[2] == f"return {names[int(target.group(1))]}(st, fr)":
                forward[codes[name]] = (frame, int(target.group(1)))
    for code in forward:  # (a rule forwarding to one that forwards: to the last of the chain)
        seen = {code}
        while forward[code][1] in forward and forward[code][1] not in seen:
            seen.add(forward[code][1])
            forward[code] = forward[forward[code][1]]
    for _, lines in functions:
        for k in range(len(lines) - 1):
            (indent, text, span), (indent2, call, span2) = lines[k], lines[k + 1]
            if not isinstance(text, str) or not isinstance(call, str):
                continue
            head, tail = ("nf = ", "") if text.startswith("nf = ") else ("fr[:] = ", _TAIL)
            found = _CONSTANT_FRAME.fullmatch(text[len(head):len(text) - len(tail)]) if text.endswith(tail) else None
            code = int(found.group(1)) if found is not None and text.startswith(head) else None
            if code in forward and call == (f"if {names[code]}(st, nf) is S:" if tail == "" else f"return {names[code]}(st, fr)"):
                frame, callee = forward[code]
                lines[k] = (indent, head + frame + tail, span)
                lines[k + 1] = (indent2, call.replace(f"{names[code]}(", f"{names[callee]}(", 1), span2)
    return {code: callee for code, (frame, callee) in forward.items()
            if frame == f"[{callee}, 0, [{', '.join(['None'] * len(rules[callee].room))}]]"}  # (as calls.call makes it)
