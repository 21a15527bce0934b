"""Compile statements into flat instruction lists with jumps.

An instruction is a callable `ins(state, frame)`; a frame is the plain list
`[code index, next pc, locals]`. Decision instructions (decisions.py) return
SUSPEND with a pending decision stored in the state.
"""
from __future__ import annotations

from functools import singledispatchmethod

from ..engine import rng as _rng
from ..engine import state as ops
from ..engine.state import GameOver
from ..errors import RulesRuntimeError
from ..language import nodes as n
from .decisions import ChooseActionInstr, ChooseInstr, DecisionInstr, MayInstr, ResolveAllInstr, ResolveAnyInstr
from .expressions import render
from .program import Code, Scope



# ---------------------------------------------------------------- compiler
class StmtCompiler:
    """Compiles one code object (a procedure, effect, action or block)."""

    def __init__(self, program, exprs, model, code_index: dict):
        self.p = program
        self.x = exprs
        self.model = model
        self.code_index = code_index  # procedure/effect name -> code index
        self.code: Code | None = None
        self.scope: Scope | None = None
        self.loop_ends: list = []

    def compile_code(self, name, params, body, prompt=None) -> Code:
        self.code = Code(name, 0)
        self.scope = Scope({p: i for i, p in enumerate(params)}, len(params))
        self.prompt = prompt or name.replace("_", " ")
        self.loop_ends = []
        self.block(body)
        self.emit(_ret, body[-1].span if body else None)
        self.code.nlocals = self.scope.size
        return self.code

    # -- emission helpers
    def emit(self, ins, span=None) -> int:
        self.code.instrs.append(ins)
        self.code.spans.append(span)
        if isinstance(ins, DecisionInstr):
            ins.span = span
        return len(self.code.instrs) - 1

    def here(self) -> int:
        return len(self.code.instrs)

    def jump_placeholder(self, span) -> int:
        return self.emit(None, span)

    def patch_jump(self, at: int, target: int, cond=None, negate=False):
        if cond is None:
            def jump(st, fr):
                fr[1] = target
        elif negate:
            def jump(st, fr):
                if not cond(st, fr[2]):
                    fr[1] = target
        else:
            def jump(st, fr):
                if cond(st, fr[2]):
                    fr[1] = target
        self.code.instrs[at] = jump

    def block(self, stmts):
        saved = dict(self.scope.slots)
        for stmt in stmts:
            self.stmt(stmt)
        self.scope.slots = saved

    def expr(self, e):
        return self.x.compile(e, self.scope) if e is not None else None

    def zone_instance(self, ref: n.Ref):
        info = self.p.zones[ref.name]
        base = info.base
        if info.scope == "shared":
            return lambda st, L: base
        if ref.owner is None:
            return lambda st, L: base + st.me
        owner = self.expr(ref.owner)
        return lambda st, L: base + owner(st, L)

    def counter_cell(self, ref: n.Ref):
        """(counter info, fn(st, L) -> index into the counter's list)."""
        info = self.p.counters[ref.name]
        if info.scope == "shared":
            return info, lambda st, L: 0
        if ref.owner is None:
            return info, lambda st, L: st.me
        return info, self.expr(ref.owner)

    # -- statements
    @singledispatchmethod
    def stmt(self, s):
        raise TypeError(f"cannot compile {type(s).__name__}")

    @stmt.register
    def _(self, s: n.Gain):
        amount = self.expr(s.amount)
        info, cell = self.counter_cell(s.target)
        k, hi, lo = info.index, info.maximum, info.minimum

        def gain(st, fr):
            L = fr[2]
            values = st.ctr[k]
            i = cell(st, L)
            v = values[i] + amount(st, L)
            if hi is not None and v > hi:
                v = hi
            if lo is not None and v < lo:
                v = lo
            values[i] = v
        self.emit(gain, s.span)

    @stmt.register
    def _(self, s: n.Pay):
        amount = self.expr(s.amount)
        info, cell = self.counter_cell(s.target)
        k, lo, name = info.index, info.minimum or 0, info.name

        def pay(st, fr):
            L = fr[2]
            values = st.ctr[k]
            i = cell(st, L)
            a = amount(st, L)
            if a < 0 or values[i] - a < lo:
                raise RulesRuntimeError(f"cannot pay {render(a)} {name}: only {values[i]} available", s.span)
            values[i] -= a
        self.emit(pay, s.span)

    @stmt.register
    def _(self, s: n.Lose):
        amount = self.expr(s.amount)
        info, cell = self.counter_cell(s.target)
        k, lo = info.index, info.minimum

        def lose(st, fr):
            L = fr[2]
            values = st.ctr[k]
            i = cell(st, L)
            v = values[i] - amount(st, L)
            values[i] = v if lo is None or v >= lo else lo
        self.emit(lose, s.span)

    @stmt.register
    def _(self, s: n.SetCounter):
        value = self.expr(s.value)
        if s.target.name == "first_player":
            def set_first(st, fr):
                p = value(st, fr[2])
                if not isinstance(p, int) or not 0 <= p < st.n:
                    raise RulesRuntimeError(f"first_player must be a seat, got {render(p)}", s.span)
                st.first = p
            self.emit(set_first, s.span)
            return
        info, cell = self.counter_cell(s.target)
        k, lo, hi = info.index, info.minimum, info.maximum

        def set_counter(st, fr):
            L = fr[2]
            v = value(st, L)
            if hi is not None and v > hi:
                v = hi
            if lo is not None and v < lo:
                v = lo
            st.ctr[k][cell(st, L)] = v
        self.emit(set_counter, s.span)

    @stmt.register
    def _(self, s: n.Move):
        cards = self.expr(s.cards)
        dest = self.zone_instance(s.dest)
        bottom = s.place == "bottom"

        def move(st, fr):
            L = fr[2]
            value = cards(st, L)
            zi = dest(st, L)
            if value is None:
                raise RulesRuntimeError("nothing to move (the value is none)", s.span)
            if isinstance(value, int):
                ops.move(st, value, zi, bottom)
            else:
                for card in tuple(value):
                    ops.move(st, card, zi, bottom)
        self.emit(move, s.span)

    @stmt.register
    def _(self, s: n.Deal):
        count, src, dst = self.expr(s.count), self.zone_instance(s.source), self.zone_instance(s.dest)
        self.emit(lambda st, fr: ops.deal(st, count(st, fr[2]), src(st, fr[2]), dst(st, fr[2])), s.span)

    @stmt.register
    def _(self, s: n.Shuffle):
        zone = self.zone_instance(s.zone)
        self.emit(lambda st, fr: ops.shuffle(st, zone(st, fr[2])), s.span)

    @stmt.register
    def _(self, s: n.Slide):
        zone = self.zone_instance(s.zone)
        self.emit(lambda st, fr: ops.slide(st, zone(st, fr[2])), s.span)

    @stmt.register
    def _(self, s: n.Refill):
        zone, src = self.zone_instance(s.zone), self.zone_instance(s.source)
        self.emit(lambda st, fr: ops.refill(st, zone(st, fr[2]), src(st, fr[2])), s.span)

    @stmt.register
    def _(self, s: n.CallStmt):
        args = [self.expr(a) for a in s.args]
        code_index, name = self.code_index, s.name

        def call(st, fr):
            code = code_index[name]
            L = fr[2]
            ops.enter(st, code, [a(st, L) for a in args])
        self.emit(call, s.span)

    @stmt.register
    def _(self, s: n.Stop):
        at = self.jump_placeholder(s.span)
        self.loop_ends[-1].append(at)

    @stmt.register
    def _(self, s: n.Pass):
        self.emit(lambda st, fr: None, s.span)

    @stmt.register
    def _(self, s: n.EndGame):
        if s.after_rounds is None:
            lost, won = s.lost, s.won

            def end_now(st, fr):
                if lost:
                    st.lost = True
                if won:
                    st.won = True
                raise GameOver()
            self.emit(end_now, s.span)
            return
        rounds = self.expr(s.after_rounds)

        def end_after(st, fr):
            target = st.round + rounds(st, fr[2])
            if st.end_round is None or target < st.end_round:
                st.end_round = target
        self.emit(end_after, s.span)

    @stmt.register
    def _(self, s: n.Let):
        value = self.expr(s.value)
        kind = self.x.kind(s.value, self.scope)
        slot = self.scope.bind(s.name)
        self.scope.kinds[s.name] = kind

        def let(st, fr):
            L = fr[2]
            L[slot] = value(st, L)
        self.emit(let, s.span)

    @stmt.register
    def _(self, s: n.Resolve):
        effects = self.expr(s.effects)
        a, b = self.scope.temp(), self.scope.temp()
        if s.mode == "any":
            def init_any(st, fr):
                L = fr[2]
                L[b] = effects(st, L)
                L[a] = tuple(range(len(L[b])))
            self.emit(init_any, s.span)
            self.emit(ResolveAnyInstr(a, b), s.span)
        else:
            def init_all(st, fr):
                L = fr[2]
                L[b] = effects(st, L)
                L[a] = 0
            self.emit(init_all, s.span)
            self.emit(ResolveAllInstr(a, b), s.span)

    @stmt.register
    def _(self, s: n.ChooseAction):
        actions = []
        for name, decl in self.model.actions.items():
            scope = Scope()
            label = self.x.template(decl.label, scope)
            when = self.x.compile(decl.when, scope) if decl.when is not None else None
            actions.append((name, self.code_index[("action", name)], label, when, max(scope.size, 1)))
        self.emit(ChooseActionInstr(actions), s.span)

    @stmt.register
    def _(self, s: n.If):
        ends = []
        for cond, body in s.branches:
            test = self.jump_placeholder(cond.span)
            self.block(body)
            ends.append(self.jump_placeholder(s.span))
            self.patch_jump(test, self.here(), self.expr(cond), negate=True)
        self.block(s.else_body)
        for at in ends:
            self.patch_jump(at, self.here())

    @stmt.register
    def _(self, s: n.ForEach):
        it = self.expr(s.iterable)
        kind = self.x.elem_kind(s.iterable, self.scope)
        items, idx = self.scope.temp(), self.scope.temp()
        saved = dict(self.scope.slots)
        var = self.scope.bind(s.var)
        self.scope.kinds[s.var] = kind
        cond = self.expr(s.cond)

        def init(st, fr):
            L = fr[2]
            L[items] = tuple(it(st, L))
            L[idx] = 0
        self.emit(init, s.span)
        top = self.here()
        ends = []
        self.loop_ends.append(ends)

        def step(st, fr):
            L = fr[2]
            i = L[idx]
            values = L[items]
            while i < len(values):
                L[var] = values[i]
                i += 1
                if cond is None or cond(st, L):
                    L[idx] = i
                    return None
            L[idx] = i
            fr[1] = end_pc[0]
        end_pc = [None]
        self.emit(step, s.span)
        self.block(s.body)
        self.patch_jump(self.jump_placeholder(s.span), top)
        self.loop_ends.pop()
        end_pc[0] = self.here()
        for at in ends:
            self.patch_jump(at, self.here())
        self.scope.slots = saved

    @stmt.register
    def _(self, s: n.RepeatWhile):
        top = self.here()
        test = self.jump_placeholder(s.cond.span)
        ends = [test]
        self.loop_ends.append(ends)
        self.block(s.body)
        self.patch_jump(self.jump_placeholder(s.span), top)
        self.loop_ends.pop()
        cond = self.expr(s.cond)
        self.patch_jump(test, self.here(), cond, negate=True)
        for at in ends[1:]:
            self.patch_jump(at, self.here())

    @stmt.register
    def _(self, s: n.RepeatTimes):
        count = self.expr(s.count)
        left = self.scope.temp()

        def init(st, fr):
            L = fr[2]
            L[left] = count(st, L)
        self.emit(init, s.span)
        top = self.here()
        test = self.jump_placeholder(s.span)
        ends = []
        self.loop_ends.append(ends)

        def tick(st, fr):
            fr[2][left] -= 1
        self.emit(tick, s.span)
        self.block(s.body)
        self.patch_jump(self.jump_placeholder(s.span), top)
        self.loop_ends.pop()
        self.patch_jump(test, self.here(), lambda st, L: L[left] <= 0)
        for at in ends:
            self.patch_jump(at, self.here())

    @stmt.register
    def _(self, s: n.Choose):
        it = self.expr(s.iterable)
        kind = self.x.elem_kind(s.iterable, self.scope)
        saved = dict(self.scope.slots)
        slot = self.scope.bind(s.var)
        self.scope.kinds[s.var] = kind
        cond = self.expr(s.cond)
        label = self.x.template(s.label, self.scope) if s.label is not None else None
        ins = ChooseInstr(it, cond, slot, label, s.optional, kind, self.prompt)
        self.emit(ins, s.span)
        self.block(s.body)
        self.scope.slots = saved
        self._else(ins, s.else_body, s.span)

    def _else(self, ins, else_body, span):
        if else_body:
            skip = self.jump_placeholder(span)
            ins.else_pc = self.here()
            self.block(else_body)
            self.patch_jump(skip, self.here())
        else:
            ins.else_pc = self.here()

    @stmt.register
    def _(self, s: n.May):
        ins = MayInstr(self.x.template(s.label, self.scope), self.prompt)
        self.emit(ins, s.span)
        self.block(s.body)
        self._else(ins, s.else_body, s.span)

    @stmt.register
    def _(self, s: n.ActAs):
        player = self.expr(s.player)
        saved = self.scope.temp()

        def become(st, fr):
            L = fr[2]
            p = player(st, L)
            if not isinstance(p, int) or not 0 <= p < st.n:
                raise RulesRuntimeError(f"`as` needs a seat, got {render(p)}", s.span)
            L[saved] = st.me
            st.me = p
        self.emit(become, s.span)
        self.block(s.body)

        def restore(st, fr):
            st.me = fr[2][saved]
        self.emit(restore, s.span)

    @stmt.register
    def _(self, s: n.PickRandom):
        it = self.expr(s.iterable)
        kind = self.x.elem_kind(s.iterable, self.scope)
        saved = dict(self.scope.slots)
        slot = self.scope.bind(s.var)
        self.scope.kinds[s.var] = kind
        cond = self.expr(s.cond)
        end_pc = [None]

        def pick(st, fr):
            L = fr[2]
            values = list(it(st, L))
            if cond is not None:
                kept = []
                for value in values:
                    L[slot] = value
                    if cond(st, L):
                        kept.append(value)
                values = kept
            if not values:
                fr[1] = end_pc[0]
                return
            st.rng, i = _rng.below(st.rng, len(values))
            L[slot] = values[i]
        self.emit(pick, s.span)
        self.block(s.body)
        end_pc[0] = self.here()
        self.scope.slots = saved


def _ret(st, fr):
    st.frames.pop()
