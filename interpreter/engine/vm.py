"""The run loop: execute instructions until a decision is pending or the game ends.

Also builds the main code object (setup, then turns and rounds) and runs
triggers synchronously inside the statement that fired them.
"""
from __future__ import annotations

from ..compiler.program import Code
from ..compiler.decisions import SUSPEND
from ..errors import NO_SPAN, Diagnostic, RulesError, RulesRuntimeError
from .state import GameOver, State, enter


def run(st: State) -> None:
    """Run rules until a decision is pending or the game is over."""
    codes = st.program.codes
    frames = st.frames
    budget = st.program.step_budget
    steps = 0
    try:
        while frames:
            fr = frames[-1]
            pc = fr[1]
            fr[1] = pc + 1
            if codes[fr[0]].instrs[pc](st, fr) is SUSPEND:
                return
            steps += 1
            if steps > budget:
                raise _runaway(st, budget)
    except GameOver:
        finish(st)
    except RulesError as err:
        raise _with_location(st, err) from None
    except (ArithmeticError, TypeError, IndexError, KeyError, ValueError, AttributeError) as err:
        raise _with_location(st, RulesRuntimeError(f"rule failed: {err}")) from None


_MAX_NESTED_TRIGGERS = 64
_nesting = [0]  # triggers running inside triggers, in this process


def run_nested(st: State, code: int) -> None:
    """Run a trigger's code to completion inside the current statement."""
    if _nesting[0] >= _MAX_NESTED_TRIGGERS:
        chain = " -> ".join(dict.fromkeys(st.program.codes[f[0]].name for f in st.frames))
        raise RulesRuntimeError(
            f"the trigger '{st.program.codes[code].name}' fired inside itself {_MAX_NESTED_TRIGGERS} times: "
            f"it never settles (active rules: {chain})")
    _nesting[0] += 1
    try:
        _run_trigger(st, code)
    finally:
        _nesting[0] -= 1


def _run_trigger(st: State, code: int) -> None:
    frames = st.frames
    depth = len(frames)
    enter(st, code)
    codes = st.program.codes
    steps = 0
    while len(frames) > depth:
        fr = frames[-1]
        pc = fr[1]
        fr[1] = pc + 1
        if codes[fr[0]].instrs[pc](st, fr) is SUSPEND:
            st.pending = None
            raise RulesRuntimeError(
                f"the trigger '{codes[code].name}' asked for a decision; triggers run inside another rule and must not ask",
                codes[fr[0]].spans[pc],
            )
        steps += 1
        if steps > st.program.step_budget:
            raise _runaway(st, st.program.step_budget)


def finish(st: State) -> None:
    st.over = True
    st.frames = []
    st.pending = None


def _current_span(st: State):
    if not st.frames:
        return None, None
    fr = st.frames[-1]
    code = st.program.codes[fr[0]]
    pc = max(fr[1] - 1, 0)
    return code, code.spans[pc] if pc < len(code.spans) else None


def _runaway(st: State, budget: int) -> RulesRuntimeError:
    code, span = _current_span(st)
    chain = " -> ".join(dict.fromkeys(st.program.codes[f[0]].name for f in st.frames))
    return RulesRuntimeError([Diagnostic(
        "error", f"rule '{code.name}' ran {budget} steps without a decision: it never ends (active rules: {chain})",
        span or NO_SPAN, "raise the step budget if the rules really need more, or give the loop a condition that ends",
    )])


def _with_location(st: State, err: RulesError) -> RulesError:
    if any(d.span.source for d in err.diagnostics):
        return err
    code, span = _current_span(st)
    if span is None:
        return err
    where = f" (in '{code.name}')" if code else ""
    return RulesRuntimeError([Diagnostic(d.severity, d.message + where, span, d.hint) for d in err.diagnostics])


# ---------------------------------------------------------------- main code
def build_main(program, setup: int, turn: int, hooks: dict) -> Code:
    """setup; then each round: fix the turn order, start-of-round hooks, and for
    each seat start-of-turn hooks, the turn, end-of-turn hooks; at the round's
    end the end-of-round hooks and the end-of-game check."""
    code = Code("game", 0)
    emit = code.instrs.append

    def call(index):
        def push(st, fr):
            enter(st, index)
        return push

    emit(call(setup))
    round_top = len(code.instrs)
    emit(_start_round)
    if "start of round" in hooks:
        emit(call(hooks["start of round"]))
    turn_top = len(code.instrs)
    emit(_begin_turn)
    if "start of turn" in hooks:
        emit(call(hooks["start of turn"]))
    emit(call(turn))
    if "end of turn" in hooks:
        emit(call(hooks["end of turn"]))
    emit(_advance_to(turn_top))
    if "end of round" in hooks:
        emit(call(hooks["end of round"]))
    emit(_end_round_jumping_to(round_top))
    code.spans = [None] * len(code.instrs)
    return code


def _advance_to(target):
    def advance(st, fr):
        st.pos += 1
        if st.pos < len(st.order):
            fr[1] = target
    return advance


def _end_round_jumping_to(target):
    def end_round(st, fr):
        if st.end_round is not None and st.round >= st.end_round:
            raise GameOver()
        st.round += 1
        fr[1] = target
    return end_round


def _start_round(st, fr):
    order = st.program.turn_order(st) if st.program.turn_order else None
    st.order = tuple(order) if order is not None else tuple((st.first + i) % st.n for i in range(st.n))
    if not st.order:
        raise RulesRuntimeError("the turn order is empty")
    st.pos = 0


def _begin_turn(st, fr):
    st.cur = st.me = st.order[st.pos]
    st.turns += 1
    if st.turns > st.program.turn_budget:
        raise RulesRuntimeError(
            f"the game did not end after {st.program.turn_budget} turns: the rule 'turn' has run that often "
            "and no rule ended the game; check the end condition (e.g. `end game after 1 more round` is never reached)"
        )
