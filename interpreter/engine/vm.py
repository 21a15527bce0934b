"""The run loop: run rule functions until a decision is pending or the game ends.

Also the main code object (setup, then turns and rounds), triggers run inside
the statement that fired them, and the translation of anything that goes
wrong inside generated code into an error at the rule's line in its file.
"""
from __future__ import annotations

from ..compiler.program import Code
from ..compiler.runtime import ERRORS, SUSPEND, active_rules, call
from ..errors import NO_SPAN, Diagnostic, RulesError, RulesRuntimeError
from .state import GameOver, State


def run(st: State) -> None:
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


_MAX_NESTED_TRIGGERS = 64
_nesting = [0]  # triggers running inside triggers, in this process


def run_nested(st: State, code: int) -> None:
    """Run a trigger's rule to completion inside the current statement."""
    if _nesting[0] >= _MAX_NESTED_TRIGGERS:
        raise RulesRuntimeError(
            f"the trigger '{st.program.codes[code].name}' fired inside itself {_MAX_NESTED_TRIGGERS} times: "
            f"it never settles (active rules: {active_rules(st)})")
    _nesting[0] += 1
    try:
        depth = len(st.frames)
        if call(st, code) is SUSPEND:
            st.pending = None
            del st.frames[depth:]
            raise RulesRuntimeError(
                f"the trigger '{st.program.codes[code].name}' asked for a decision; "
                "triggers run inside another rule and must not ask")
    finally:
        _nesting[0] -= 1


def finish(st: State) -> None:
    st.over = True
    st.frames = []
    st.pending = None


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


def _with_location(st: State, err: RulesError, tb) -> RulesError:
    if any(d.span.source for d in err.diagnostics):
        return err
    found = _generated_frame(st, tb)
    if found is None or found[1] is None:
        return err
    rule, span = found
    return RulesRuntimeError([Diagnostic(d.severity, f"{d.message} (in '{rule}')", span, d.hint) for d in err.diagnostics])


def _endless_calls(st: State, err) -> RulesRuntimeError:
    rule, span = _generated_frame(st, err.__traceback__) or ("?", None)
    return RulesRuntimeError(f"rule '{rule}' calls itself without end: it never reaches a decision",
                             span or NO_SPAN, "give the rule a condition under which it stops calling itself")


# ---------------------------------------------------------------- main code
def build_main(program, setup: int, turn: int, hooks: dict) -> Code:
    """setup; then each round: fix the turn order, start-of-round hooks, and for
    each seat start-of-turn hooks, the turn, end-of-turn hooks; at the round's
    end the end-of-round hooks and the end-of-game check."""
    start_round, start_turn = hooks.get("start of round"), hooks.get("start of turn")
    end_turn, end_round = hooks.get("end of turn"), hooks.get("end of round")

    def main(st, fr):
        pc = fr[1]
        while True:
            if pc == 0:
                fr[1] = 1
                if call(st, setup) is SUSPEND:
                    return SUSPEND
                pc = 1
            if pc == 1:
                _start_round(st)
                fr[1] = 2
                if start_round is not None and call(st, start_round) is SUSPEND:
                    return SUSPEND
                pc = 2
            if pc == 2:
                st.cur = st.me = st.order[st.pos]
                st.turns += 1
                if st.turns > st.program.turn_budget:
                    _too_many_turns(st)
                fr[1] = 3
                if start_turn is not None and call(st, start_turn) is SUSPEND:
                    return SUSPEND
                pc = 3
            if pc == 3:
                fr[1] = 4
                if call(st, turn) is SUSPEND:
                    return SUSPEND
                pc = 4
            if pc == 4:
                fr[1] = 5
                if end_turn is not None and call(st, end_turn) is SUSPEND:
                    return SUSPEND
                pc = 5
            if pc == 5:
                st.pos += 1
                if st.pos < len(st.order):
                    pc = 2
                    continue
                fr[1] = 6
                if end_round is not None and call(st, end_round) is SUSPEND:
                    return SUSPEND
                pc = 6
            if pc == 6:
                if st.end_round is not None and st.round >= st.end_round:
                    raise GameOver()
                st.round += 1
                pc = 1

    return Code("game", 0, light=False, nblocks=7, fn=main)


def _start_round(st):
    if st.program.turn_order:
        st.order = tuple(st.program.turn_order(st))
        if not st.order:
            raise RulesRuntimeError("the turn order is empty")
    else:
        first, n = st.first, st.n
        st.order = tuple([(first + i) % n for i in range(n)])
    st.pos = 0


def _too_many_turns(st):
    raise RulesRuntimeError(
        f"the game did not end after {st.program.turn_budget} turns: the rule 'turn' has run that often "
        "and no rule ended the game; check the end condition (e.g. `end game after 1 more round` is never reached)"
    )
