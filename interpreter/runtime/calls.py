"""Calling rules: frames, suspension, triggers, and naming the rules that run.

A rule that may reach a decision runs in a frame `[code, block, locals]`
(see `FRAME_*`) and returns SUSPEND when a decision is pending. `st.frames`
holds the frames of the rules waiting for it, outermost first; a rule
running without having waited has its frame only in its caller's hands,
and goes on the stack only if it suspends: whoever called it pushes its
frame then, as the rules return SUSPEND from the inside out (the run loop
puts those frames outermost first, `engine/run.py`). So a call that does
not suspend, the most common, neither pushes nor pops a frame.
"""
from __future__ import annotations

import sys

from .. import limits
from ..errors import NO_SPAN, Diagnostic, RulesRuntimeError

# A running rule's frame is a list `[code, block, locals]`: the rule's code
# index, the block to resume at, and its locals (arguments first).
FRAME_CODE, FRAME_BLOCK, FRAME_LOCALS = 0, 1, 2

class _Suspend:
    """The value a rule function returns when a decision is pending. Code
    compares it by identity, so it must stay the one object through pickling
    (a copied game's generated code refers to it by name) and copying."""

    __slots__ = ()

    def __reduce__(self):
        return "SUSPEND"

    def __repr__(self):
        return "SUSPEND"


SUSPEND = _Suspend()


class GameOver(Exception):
    """Raised by `end game now` (lost, won) to unwind rule execution."""


def call(st, code: int, args=()):
    """Run code object `code` (a rule): to completion if it cannot suspend,
    else in a new frame, pushed if it suspends; returns SUSPEND if a
    decision became pending."""
    c = st.program.codes[code]
    if not c.resumable:  # (most often an effect, with no argument: a plain call costs less than one with *)
        return c.fn(st, *args) if args else c.fn(st)
    fr = [code, 0, [*args, *c.room]]  # its arguments, then room for its other locals
    if c.fn(st, fr) is SUSPEND:
        st.frames.append(fr)
        return SUSPEND
    return None


MAX_NESTED_TRIGGERS = limits.NESTED_TRIGGERS


def run_nested(st, code: int) -> None:
    """Run a trigger's rule to completion inside the current statement."""
    if st.nesting >= MAX_NESTED_TRIGGERS:
        raise RulesRuntimeError(
            f"the trigger '{st.program.codes[code].name}' fired inside itself {MAX_NESTED_TRIGGERS} times: "
            f"it never settles (active rules: {active_rules(st)})")
    st.nesting += 1
    auto, st.auto = st.auto, None  # (nothing is answered inline inside a trigger: what it asks is reported)
    if st.events is not None:
        st.events.append(("trigger", code))
    try:
        depth = len(st.frames)
        if call(st, code) is SUSPEND:
            st.clear_pending()
            del st.frames[depth:]
            raise RulesRuntimeError(
                f"the trigger '{st.program.codes[code].name}' asked for a decision; "
                "triggers run inside another rule and must not ask")
    finally:
        st.nesting -= 1
        st.auto = auto


# ---------------------------------------------------------------- runaway rules
def runaway(st, span):
    """Raised by a loop (or the calls of definitions) that ran past the step
    budget without a decision."""
    frame = sys._getframe(1)
    while frame is not None and rule_of(frame.f_code, st.program) is None:
        frame = frame.f_back
    rule = rule_of(frame.f_code, st.program) if frame is not None else "?"
    budget = st.program.step_budget
    raise RulesRuntimeError([Diagnostic(
        "error", f"rule '{rule}' ran {budget} steps without a decision: it never ends (active rules: {active_rules(st)})",
        span or NO_SPAN, "raise the step budget if the rules really need more, or give the loop a condition that ends",
    )])


def active_rules(st) -> str:
    """The chain of rules running now, outermost first: the frames of rules
    waiting below the rules on the Python stack, then those. (A rule that
    called another in tail position left its frame to it: the rules running
    are read off the Python stack, the frames only for those below.)"""
    names = [st.program.codes[f[0]].name for f in st.frames]
    inner = []
    f = sys._getframe(1)
    while f is not None:
        name = rule_of(f.f_code, st.program)
        if name is not None:
            inner.append(name)
        f = f.f_back
    inner.reverse()
    while names and names[-1] in inner:
        names.pop()
    return " -> ".join(dict.fromkeys(names + inner))


def rule_of(code, program):
    """The name of the rule whose generated function runs `code`, or None."""
    module = getattr(program, "module", None)
    if module is None or code.co_filename != module.filename:
        return None
    return module.rule_names.get(code.co_name)
