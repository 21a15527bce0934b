"""The run loop: run rule functions until a decision is pending or the game ends.

Anything raised while rules run is reported to the right party
(runtime/failures.py): a mistake of the rules at the rule's line in its
file, a fault of the interpreter as an internal error naming the rule.
"""
from __future__ import annotations

from ..runtime.calls import SUSPEND, GameOver
from ..runtime.failures import blame, generated_frame, generated_rules
from ..errors import NO_SPAN, RulesRuntimeError


def run(st) -> None:
    """Run rules until a decision is pending or the game is over: the rule
    on top of `st.frames` goes on where it waits; when it ends, the rule
    below it. The rules it calls that suspend push their frames from the
    inside out (runtime/calls.py), turned here to outermost first."""
    codes = st.program.codes
    frames = st.frames
    st.steps = 0
    try:
        while frames:
            fr = frames[-1]
            depth = len(frames)
            if codes[fr[0]].fn(st, fr, fr[1]) is SUSPEND:  # (resumed at its block; a call anew starts at 0)
                if len(frames) > depth + 1:
                    frames[depth:] = frames[:depth - 1:-1]
                return
            frames.pop()
    except GameOver:
        finish(st)
    except RecursionError as err:
        raise _endless_calls(st, err) from err
    except Exception as err:
        raise blame(err) from err


def finish(st) -> None:
    st.over = True
    st.frames = []
    st.clear_pending()


def _endless_calls(st, err) -> RulesRuntimeError:
    rule, span, _ = generated_frame(err.__traceback__) or ("?", None, None)
    rules = generated_rules(err.__traceback__)
    if rules.count(rule) > 1 or not rules:
        return RulesRuntimeError(f"rule '{rule}' calls itself without end: it never reaches a decision",
                                 span or NO_SPAN, "give the rule a condition under which it stops calling itself")
    return RulesRuntimeError(f"rules call one another {len(rules)} deep, from '{rules[0]}' to '{rule}': "
                             "deeper than the interpreter can follow", span or NO_SPAN,
                             "make the chain of calls shorter (a `repeat` or `for each` can do the same work)")
