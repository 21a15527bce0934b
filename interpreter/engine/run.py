"""The run loop: run rule functions until a decision is pending or the game ends.

Anything that goes wrong inside generated code becomes an error at the rule's
line in its file.
"""
from __future__ import annotations

from ..compiler.calls import SUSPEND, GameOver
from ..compiler.runtime import ERRORS
from ..errors import NO_SPAN, Diagnostic, RulesError, RulesRuntimeError


def run(st) -> None:
    """Run rules until a decision is pending or the game is over."""
    codes = st.program.codes
    frames = st.frames
    st.steps = 0
    try:
        while frames:
            fr = frames[-1]
            if codes[fr[0]].fn(st, fr) is SUSPEND:
                return
    except GameOver:
        finish(st)
    except RecursionError as err:
        raise _endless_calls(st, err) from None
    except RulesError as err:
        raise _with_location(st, err, err.__traceback__) from None
    except ERRORS as err:
        raise _with_location(st, RulesRuntimeError(f"rule failed: {err}"), err.__traceback__) from None


def finish(st) -> None:
    st.over = True
    st.frames = []
    st.clear_pending()


def _generated_frame(st, tb):
    """The innermost traceback entry inside generated rule code: (rule name, span)."""
    module = st.program.module
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if module is not None and code.co_filename == module.filename:
            found = (module.rule_names.get(code.co_name), module.span_at(tb.tb_lineno))
        tb = tb.tb_next
    return found


def _with_location(st, err: RulesError, tb) -> RulesError:
    if any(d.span.source for d in err.diagnostics):
        return err
    found = _generated_frame(st, tb)
    if found is None or found[1] is None:
        return err
    rule, span = found
    return RulesRuntimeError([Diagnostic(d.severity, f"{d.message} (in '{rule}')", span, d.hint) for d in err.diagnostics])


def _endless_calls(st, err) -> RulesRuntimeError:
    rule, span = _generated_frame(st, err.__traceback__) or ("?", None)
    return RulesRuntimeError(f"rule '{rule}' calls itself without end: it never reaches a decision",
                             span or NO_SPAN, "give the rule a condition under which it stops calling itself")
