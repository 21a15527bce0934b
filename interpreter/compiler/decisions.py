"""Decision instructions: the points where a player chooses.

Each computes its options (stable ids and the values behind them) from the
state, suspends the run loop with the decision pending, and on `apply`
resumes with the chosen value. Labels are made only when asked for.
"""
from __future__ import annotations

from ..engine import state as ops
from ..errors import RulesRuntimeError
from .expressions import render

SUSPEND = object()
PASS = "<pass>"
DONE = "<done>"


class DecisionInstr:
    """Base of the instructions that ask the acting player to choose."""

    auto_single = True
    span = None

    def options(self, st, fr):
        raise NotImplementedError

    def __call__(self, st, fr):
        ids, values = self.options(st, fr)
        if not ids:
            return self.on_empty(st, fr)
        if len(ids) == 1 and self.auto_single:
            self.apply(st, fr, values[0])
            return None
        st.pending = (st.me, fr[1] - 1, tuple(ids), tuple(values))
        return SUSPEND

    def on_empty(self, st, fr):
        return None

    def apply(self, st, fr, value):
        raise NotImplementedError

    def label(self, st, fr, value) -> str:
        return str(value)

    def prompt(self, st, fr) -> str:
        return "Choose"


def _value_id(program, kind, value) -> str:
    if kind == "card" and isinstance(value, int):
        return program.card_ids[value]
    if kind == "player" and isinstance(value, int):
        return f"player-{value + 1}"
    return render(value)


class ChooseInstr(DecisionInstr):
    def __init__(self, it, cond, slot, label, optional, kind, prompt, else_pc=None):
        self.it, self.cond, self.slot, self.label_fn = it, cond, slot, label
        self.optional, self.kind, self.prompt_text, self.else_pc = optional, kind, prompt, else_pc

    def options(self, st, fr):
        L = fr[2]
        slot, cond = self.slot, self.cond
        ids, values, seen = [], [], set()
        program = st.program
        for value in tuple(self.it(st, L)):
            if value in seen:
                continue
            if cond is not None:
                L[slot] = value
                if not cond(st, L):
                    continue
            seen.add(value)
            ids.append(_value_id(program, self.kind, value))
            values.append(value)
        if self.optional and ids:
            ids.append("pass")
            values.append(PASS)
        return ids, values

    def on_empty(self, st, fr):
        fr[1] = self.else_pc
        return None

    def apply(self, st, fr, value):
        if value == PASS:
            fr[1] = self.else_pc
        else:
            fr[2][self.slot] = value

    def label(self, st, fr, value):
        if value == PASS:
            return "pass"
        L = fr[2]
        saved = L[self.slot]
        L[self.slot] = value
        try:
            if self.label_fn is not None:
                return self.label_fn(st, L)
            if self.kind == "card":
                return st.program.card_names[value]
            if self.kind == "player":
                return f"player {value + 1}"
            return render(value)
        finally:
            L[self.slot] = saved

    def prompt(self, st, fr):
        return self.prompt_text


class MayInstr(DecisionInstr):
    auto_single = False

    def __init__(self, label, prompt, else_pc=None):
        self.label_fn, self.prompt_text, self.else_pc = label, prompt, else_pc

    def options(self, st, fr):
        return ["yes", "no"], ["yes", "no"]

    def apply(self, st, fr, value):
        if value == "no":
            fr[1] = self.else_pc

    def label(self, st, fr, value):
        return self.label_fn(st, fr[2]) if value == "yes" else "pass"

    def prompt(self, st, fr):
        return self.prompt_text


class ChooseActionInstr(DecisionInstr):
    def __init__(self, actions):
        self.actions = actions  # list of (name, code index, label fn, when fn, nlocals)

    def options(self, st, fr):
        ids, values = [], []
        for name, code, label, when, size in self.actions:
            if when is None or when(st, [None] * size):
                ids.append(name)
                values.append(name)
        return ids, values

    def on_empty(self, st, fr):
        raise RulesRuntimeError("no action is possible for the acting player", self.span)

    def apply(self, st, fr, value):
        for name, code, label, when, size in self.actions:
            if name == value:
                ops.enter(st, code)
                return

    def label(self, st, fr, value):
        for name, code, label, when, size in self.actions:
            if name == value:
                return label(st, [None] * size)
        return value

    def prompt(self, st, fr):
        return "Choose an action"


class ResolveAnyInstr(DecisionInstr):
    """Any or all of a card's effect items, in any order; `/` = choose one."""

    def __init__(self, rem_slot, fx_slot):
        self.rem, self.fx = rem_slot, fx_slot

    def options(self, st, fr):
        L = fr[2]
        effects = L[self.fx]
        ids, values = [], []
        for i in L[self.rem]:
            for alt in effects[i]:
                ids.append(f"{i + 1}:{alt}")
                values.append((i, alt))
        if ids:
            ids.append("done")
            values.append(DONE)
        return ids, values

    def apply(self, st, fr, value):
        if value == DONE:
            return
        i, alt = value
        L = fr[2]
        L[self.rem] = tuple(j for j in L[self.rem] if j != i)
        fr[1] -= 1  # come back for the remaining items
        _push_effect(st, alt, self.span)

    def label(self, st, fr, value):
        if value == DONE:
            return "done (skip the remaining effects)" if fr[2][self.rem] else "done"
        i, alt = value
        text = st.program.effect_labels.get(alt, alt)
        alts = fr[2][self.fx][i]
        if len(alts) > 1:
            text += f" (effect {i + 1}: {'/'.join(alts)})"
        return text

    def prompt(self, st, fr):
        return "Resolve effects in any order"


class ResolveAllInstr(DecisionInstr):
    """Every effect item in order; a `/` item asks which alternative."""

    def __init__(self, idx_slot, fx_slot):
        self.idx, self.fx = idx_slot, fx_slot

    def __call__(self, st, fr):
        L = fr[2]
        effects = L[self.fx]
        i = L[self.idx]
        if i >= len(effects):
            return None
        fr[1] -= 1  # come back for the next item once this one is resolved
        if len(effects[i]) == 1:
            L[self.idx] = i + 1
            _push_effect(st, effects[i][0], self.span)
            return None
        st.pending = (st.me, fr[1], tuple(effects[i]), tuple(effects[i]))
        return SUSPEND

    def apply(self, st, fr, value):
        fr[2][self.idx] += 1
        _push_effect(st, value, self.span)

    def label(self, st, fr, value):
        return st.program.effect_labels.get(value, value)

    def prompt(self, st, fr):
        return "Choose one effect"


def _push_effect(st, name, span):
    code = st.program.effect_codes.get(name)
    if code is None:
        raise RulesRuntimeError(f"unknown effect '{name}'", span)
    ops.enter(st, code)
