"""Rules (procedures, effects, actions, hooks, setup, turn) as generated Python functions.

A rule that can never reach a decision becomes a plain function
`C<k>(st, *args)` whose statements are straight Python (`for`, `while`, `if`).
A rule that can reach one becomes a resumable function `C<k>(st, fr)` over its
frame `[k, pc, locals]`: its statements are cut into numbered blocks at every
decision and at every call that may suspend, and a dispatch loop enters the
block `pc` names. Suspending stores the block to resume at in the frame and
returns SUSPEND, so the whole execution position stays plain data. Inside a
block, statements that cannot suspend are again straight Python.
"""
from __future__ import annotations

import re

from ..language import nodes as n
from ..language.reads import names_used
from ..language.builtins import VALUES
from . import fusion, loopfilter
from .blocks import BlockWriter, frame_of, state_locals
from .choicegen import ChoiceGen
from .codegen import Label
from ..language.value_types import CARD
from ..language.visitor import Visitor
from .scope import Names
from ..runtime.explain import nothing_from
from .flowgen import FlowGen
from .hoist import rows_lifted
from .knowgen import KnowledgeGen
from .program import Code
from ..runtime.helpers import LARGEST

_TEMP = re.compile(r"^t\d+$")  # a temporary holding a new list (fused_list)
_NUMBER = re.compile(r"^(?:\d+|\(-\d+\))$")  # a whole number as generated (a literal or a parameter's value)


def resumable_rules(model, keys: dict) -> set:
    """Keys (as in `keys`: procedure name -> body) of the rules that may reach a decision."""
    found: set = set()
    changed = True
    while changed:
        changed = False
        for key, body in keys.items():
            if key not in found and any(may_suspend(s, found) for s in body):
                found.add(key)
                changed = True
    return found


def may_suspend(stmt, resumable_names: set) -> bool:
    """Whether `stmt`, or a statement nested in it, may reach a decision
    (calling a rule in `resumable_names` does)."""
    return any(s.facts.decides or (isinstance(s, n.CallStmt) and s.name in resumable_names)
               for s in n.walk(stmt) if isinstance(s, n.Stmt))


class RuleGen(ChoiceGen, FlowGen, KnowledgeGen, BlockWriter, Visitor):
    """Generates the function of one rule."""

    def __init__(self, ctx, index: int, name: str, params: dict, body, prompt: str, resumable: bool, span=None):
        """`params`: the rule's parameters in order, each with its type (or None)."""
        self.ctx = ctx
        self.span = span
        self.x = ctx.exprs
        self.module = ctx.module
        self.index, self.name, self.params, self.body = index, name, params, body
        self.prompt = prompt
        self.resumable = resumable
        self.nlocals = 0
        self.loops: list = []  # (end label or None for a Python loop)
        self.points: list = []
        BlockWriter.__init__(self)

    # ------------------------------------------------------------ output
    def var(self, crosses: bool) -> str:
        """A local for a rules variable: a frame slot if its value must survive
        a suspension, else a Python local."""
        if self.resumable and crosses:
            self.nlocals += 1
            return f"L[{self.nlocals - 1}]"
        return self.module.name("s")

    def temp(self) -> str:
        return self.module.name("t")

    def suspends(self, stmt) -> bool:
        return self.resumable and may_suspend(stmt, self.ctx.resumable_names)

    # ------------------------------------------------------------ the function
    def generate(self) -> Code:
        fname = self.ctx.function_names[self.index]
        names = Names()
        args = []
        for p in self.params:  # each parameter typed as the values given to it agree (or None)
            v = self.var(True)
            names = names.bind(p, v, self.params[p])
            args.append(v)
        if self.resumable:
            self.place(Label())
        if self.x.coverage:  # (a rule of a program not compiled for coverage counts nothing)
            self.emit(f"if st.cov is not None: st.cov[{self.index}] += 1")
        self.block(self.body, names)
        if self.resumable:
            self.emit("return None")
            self.blocks.append(self.lines)
            self.prune(self.points)
            lines = self.render(fname)
        else:
            lines = [(i + 1, t, s) for i, t, s in self.lines]
            head, lines = state_locals(lines)
            lines = [(0, f"def {fname}({', '.join(['st', *args])}):", None), *head, *lines]
        self.module.add_function(fname, self.name, lines, self.span)
        return Code(self.name, self.nlocals, resumable=self.resumable, nblocks=len(self.blocks) if self.resumable else 0,
                    room=(None,) * (self.nlocals - len(self.params)) if self.resumable else ())

    def block(self, stmts, names: Names) -> None:
        for stmt in stmts:
            names = self.visit(stmt, names) or names

    def body_of(self, stmts, names: Names, prelude=(), loop=False) -> None:
        """The indented body of a Python compound statement (`prelude`: its
        first lines; `loop`: a Python loop, which `stop` breaks)."""
        self.indent += 1
        for text, span in prelude:
            self.emit(text, span)
        if loop:
            self.loops.append(None)
        self.block(stmts, names)
        if loop:
            self.loops.pop()
        if not stmts and not prelude:
            self.emit("pass")
        self.indent -= 1


    def counter_cell(self, ref: n.Ref, names):
        info = self.ctx.program.counters[ref.name]
        if info.scope == "shared":
            return info, "0"
        if ref.owner is None:
            return info, "st.me"
        return info, self.x.gen(ref.owner, names)

    def zone_instance(self, ref: n.Ref, names) -> str:
        info = self.ctx.program.zones[ref.name]
        if info.scope == "shared":
            return str(info.base)
        if ref.owner is None:
            return f"{info.base} + st.me"
        return f"{info.base} + {self.x.gen(ref.owner, names)}"

    def _bound(self, t, info, span, sides=("max", "min")):
        """Hold a counter's new value `t` within its bounds (those of
        `sides`); past the largest number any counter may hold, stop with an
        error."""
        for side, bound, limit, op in (("max", info.maximum, LARGEST, ">"), ("min", info.minimum, -LARGEST, "<")):
            if side not in sides:
                continue
            if bound is not None:
                self.emit(f"if {t} {op} {bound}: {t} = {bound}", span)
            else:
                self.emit(f"if {t} {op} {self.x.literal(limit)}: R_too_large({t}, {self.module.const(info.name)}, "
                          f"{self.module.const(span)})", span)

    def _tell(self, info, owner: str, before: str, after: str, span) -> None:
        """Tell a counter's change when someone listens."""
        self.emit(f"if st.events is not None: R_counter_changed(st, {info.index}, {owner}, {before}, {after})", span)

    def visit_Gain(self, s, names):
        self._change(s, names, "+", "gain")

    def visit_Lose(self, s, names):
        self._change(s, names, "-", "lose")

    def _change(self, s, names, op, verb):
        info, cell = self.counter_cell(s.target, names)
        amount = self.value(s.amount, names, s.span)
        row, i, a, v = self.temp(), self.temp(), self.temp(), self.temp()
        self.emit(f"{row} = ctr[{info.index}]; {i} = {cell}; {a} = {amount}", s.span)
        if not amount.isdigit():  # (a number written out, not below 0, needs no check)
            self.emit(f"if {a} < 0: R_negative({a}, {self.module.const(verb)}, {self.module.const(info.name)}, "
                      f"{self.module.const(s.span)})", s.span)
        self.emit(f"{v} = {row}[{i}] {op} {a}", s.span)
        # the amount is not below 0, and the counter lies within its bounds (engine/invariants.py) where
        # its first value does: then a gain cannot pass the lower bound, nor a loss the upper one
        if info.maximum is None or info.maximum >= max(0, info.minimum or 0):
            self._bound(v, info, s.span, ("max",) if op == "+" else ("min",))
        else:
            self._bound(v, info, s.span)
        self._tell(info, i, f"{row}[{i}]", v, s.span)
        self.emit(f"{row}[{i}] = {v}", s.span)

    def visit_Pay(self, s, names):
        info, cell = self.counter_cell(s.target, names)
        amount = self.value(s.amount, names, s.span)
        row, i, a = self.temp(), self.temp(), self.temp()
        self.emit(f"{row} = ctr[{info.index}]; {i} = {cell}; {a} = {amount}", s.span)
        self.emit(f"if {a} < 0 or {row}[{i}] - {a} < {info.minimum or 0}:", s.span)
        self.emit(f"    raise R_cannot_pay({a}, {row}[{i}], {self.module.const(info.name)}, {self.module.const(s.span)})", s.span)
        self._tell(info, i, f"{row}[{i}]", f"{row}[{i}] - {a}", s.span)
        self.emit(f"{row}[{i}] -= {a}", s.span)

    def visit_SetCounter(self, s, names):
        value = self.value(s.value, names, s.span)
        builtin = VALUES.get(s.target.name)
        if builtin is not None and builtin.settable and s.target.owner is None:
            self.emit(f"{builtin.source} = R_seat(st, {value}, {self.module.const(s.target.name + ' must be a seat')}, "
                      f"{self.module.const(s.span)})", s.span)
            return
        info, cell = self.counter_cell(s.target, names)
        if info.holds_player:  # a seat or none, never bounded
            v, i = self.temp(), self.temp()
            self.emit(f"{v} = {value}; {i} = {cell}", s.span)
            self.emit(f"if {v} is not None: R_seat(st, {v}, {self.module.const(s.target.name + ' holds a player')}, "
                      f"{self.module.const(s.span)})", s.span)
            self._tell(info, i, f"ctr[{info.index}][{i}]", v, s.span)
            self.emit(f"ctr[{info.index}][{i}] = {v}", s.span)
            return
        if _NUMBER.match(value):
            number = int(value.strip("()"))  # a constant (a literal, a parameter) is bounded here, once
            if info.maximum is not None:
                number = min(number, info.maximum)
            if info.minimum is not None:
                number = max(number, info.minimum)
            i = self.temp()
            self.emit(f"{i} = {cell}", s.span)
            self._tell(info, i, f"ctr[{info.index}][{i}]", self.x.literal(number), s.span)
            self.emit(f"ctr[{info.index}][{i}] = {self.x.literal(number)}", s.span)
            return
        v, i = self.temp(), self.temp()
        self.emit(f"{v} = {value}; {i} = {cell}", s.span)
        self._bound(v, info, s.span)
        self._tell(info, i, f"ctr[{info.index}][{i}]", v, s.span)
        self.emit(f"ctr[{info.index}][{i}] = {v}", s.span)

    def visit_Move(self, s, names):
        cards = self.x.gen(s.cards, names)
        dest = self.zone_instance(s.dest, names)
        bottom = s.place == "bottom"
        if s.at is not None:  # a place read from a secret choice is its player's alone
            unseen = bool(names.secret & names_used(s.at))
            self.emit(f"R_move_to_place(st, {cards}, {dest}, {self.x.gen(s.at, names)}, {unseen}, "
                      f"{self.module.const(s.span)})", s.span)
            return
        if self.x.type_of(s.cards, names) == CARD:
            card = self.temp()
            self.emit(f"{card} = {cards}", s.span)
            self.emit(f"if {card} is None: R_move_all(st, None, 0, False, {self.module.const(s.span)})", s.span)
            self.emit(f"R_move(st, {card}, {dest}, {bottom})", s.span)
            return
        self.emit(f"R_move_all(st, {cards}, {dest}, {bottom}, {self.module.const(s.span)})", s.span)

    def visit_Deal(self, s, names):
        count = self.x.gen(s.count, names)
        self.emit(f"R_deal(st, {count}, {self.zone_instance(s.source, names)}, {self.zone_instance(s.dest, names)})", s.span)

    def visit_Shuffle(self, s, names):
        self.emit(f"R_shuffle(st, {self.zone_instance(s.zone, names)})", s.span)

    # `slide` and `refill` leave a zone without a gap as it is: often the case
    # (they run at every turn of some games), so that is asked before the call
    def visit_Slide(self, s, names):
        zi = self.zone_instance(s.zone, names)
        self.emit(f"if None in z[{zi}]: R_slide(st, {zi})", s.span)

    def visit_Refill(self, s, names):
        zi = self.zone_instance(s.zone, names)
        self.emit(f"if None in z[{zi}]: R_refill(st, {zi}, {self.zone_instance(s.source, names)})", s.span)

    def visit_CallStmt(self, s, names):
        args = [self.x.gen(a, names) for a in s.args]
        code = self.ctx.code_index[s.name]
        self.call(code, args, s.span)

    def call(self, code: int, args: list, span) -> None:
        """Call rule `code`; a call that may suspend ends the block."""
        if code not in self.ctx.resumable:
            self.emit(f"{self.ctx.function_names[code]}({', '.join(['st', *args])})", span)
            return
        after = Label()
        self.call_rule(code, args, after, span)
        self.place(after)

    def call_rule(self, code: int, args: list, resume: Label, span) -> None:
        """Call resumable rule `code` in a new frame and go on at `resume`
        when it returns; if it suspends, push its frame and wait at
        `resume` (a frame goes on the stack only then: runtime/calls.py).
        The resume block is set before the call, so that a frame waiting
        at a decision holds the same block however the decision came."""
        self.lines.append((self.indent, ("set", resume), span))
        self.emit(f"nf = {frame_of(code, args)}", span)
        self.emit(f"if {self.ctx.function_names[code]}(st, nf) is S:", span)
        self.indent += 1
        self.emit("st.frames.append(nf)", span)
        self.emit("return S", span)
        self.indent -= 1

    def effect_call(self, name: str, resume: Label, span) -> None:
        """Run the effect named by `name`'s value, then go to `resume`."""
        self.lines.append((self.indent, ("set", resume), span))
        self.emit(f"if R_effect(st, {name}, {self.module.const(span)}) is S: return S", span)
        self.jump(resume, span)

    def visit_Stop(self, s, names):
        end = self.loops[-1]
        if end is None:
            self.emit("break", s.span)
        else:
            self.jump(end, s.span)

    def visit_Pass(self, s, names):
        self.emit("pass", s.span)

    def visit_EndGame(self, s, names):
        if s.after_rounds is None:
            self.emit(f"R_end_now(st, {s.lost}, {s.won}, {self.module.const(s.span)})", s.span)
        else:
            self.emit(f"R_end_after(st, {self.x.gen(s.after_rounds, names)}, {self.module.const(s.span)})", s.span)

    def visit_Let(self, s, names):
        value = self.value(s.value, names, s.span)
        v = self.var(True)
        self.emit(f"{v} = {value}", s.span)
        self.module.lets[(self.ctx.function_names[self.index], v)] = (s.name, nothing_from(s.value))
        return names.bind(s.name, v, self.x.type_of(s.value, names))

    def visit_If(self, s, names):
        if not self.suspends(s):
            for i, (cond, body) in enumerate(s.branches):
                test = self.test(cond, names, cond.span) if i == 0 else self.x.gen(cond, names)
                self.emit(f"{'if' if i == 0 else 'elif'} {test}:", cond.span)
                self.body_of(body, names)
            if s.else_body:
                self.emit("else:", s.span)
                self.body_of(s.else_body, names)
            return
        end = Label()
        for cond, body in s.branches:
            other = Label()
            self.jump_if(f"not {self.test(cond, names, cond.span)}", other, cond.span)
            self.block(body, names)
            self.jump(end, s.span)
            self.place(other)
        self.block(s.else_body, names)
        self.place(end)

    def visit_ForEach(self, s, names):
        crosses = self.suspends(s)
        first = not crosses and loopfilter.tested_first(self.x, s, names)
        it = self.fused_list(s.iterable, names, s.span, test=(s.var, s.cond) if first else None)
        test = None if first and it is not None else s.cond  # (a list of the items that pass: the loop tests nothing)
        it = it or self.x.gen(s.iterable, names)
        v = self.var(crosses)
        inner = names.bind(s.var, v, self.x.types.element(s.iterable, names.types))
        cond = self.x.gen(test, inner) if test is not None else None
        if not crosses:
            if cond is not None:
                rows, cond = rows_lifted(self.module, cond)
                for line in rows:
                    self.emit(line, s.span)
            self.emit(f"for {v} in {it if _TEMP.match(it) else f'tuple({it})'}:", s.span)
            prelude = [(f"if not {cond}: continue", s.cond.span)] if cond is not None else []
            self.body_of(s.body, inner, prelude, loop=True)
            return
        items, idx = self.var(True), self.var(True)
        top, end = Label(), Label()
        self.emit(f"{items} = tuple({it}); {idx} = 0", s.span)
        if self.x.element_kind(s.iterable, names) == "card":  # a decision per card, in an order not all see
            self.emit(f"R_walked(st, {items})", s.span)
        self.place(top)
        i, seq = self.temp(), self.temp()
        self.emit(f"{i} = {idx}; {seq} = {items}", s.span)
        if cond is None:
            self.jump_if(f"{i} >= len({seq})", end, s.span)
            self.emit(f"{v} = {seq}[{i}]; {idx} = {i} + 1", s.span)
        else:
            self.emit(f"while {i} < len({seq}):", s.span)
            self.emit(f"    {v} = {seq}[{i}]; {i} += 1", s.span)
            self.emit(f"    if {cond}: break", s.span)
            self.emit("else:", s.span)
            self.emit(f"    {i} = -1", s.span)
            self.jump_if(f"{i} < 0", end, s.span)
            self.emit(f"{idx} = {i}", s.span)
        self.loops.append(end)
        self.block(s.body, inner)
        self.loops.pop()
        self.jump(top, s.span)
        self.place(end)

    def split_loop(self, done, body, names, span, first: str | None = None) -> None:
        """A loop whose body may suspend, as blocks: at its top, leave if
        `done` (a test, or a function emitting the lines before it and
        giving it); else `first`, the body, one counted step, and back."""
        top, end = Label(), Label()
        self.place(top)
        self.jump_if(done() if callable(done) else done, end, span)
        if first is not None:
            self.emit(first, span)
        self.loops.append(end)
        self.block(body, names)
        self.loops.pop()
        self._count_step(span)
        self.jump(top, span)
        self.place(end)

    def _step(self, span) -> list:
        """Lines counting one loop step against the budget."""
        return [("st.steps += 1", span), (f"if st.steps > BUDGET: R_runaway(st, {self.module.const(span)})", span)]

    def _count_step(self, span):
        for text, where in self._step(span):
            self.emit(text, where)

    def visit_RepeatWhile(self, s, names):
        if not self.suspends(s):
            self.emit(f"while {self.x.gen(s.cond, names)}:", s.span)
            self.body_of(s.body, names, self._step(s.span), loop=True)
            return
        self.split_loop(lambda: f"not {self.test(s.cond, names, s.span)}", s.body, names, s.span)

    def value(self, expr, names, span) -> str:
        """Source of the value `expr` of a statement, the lines computing it
        emitted first where it folds lists walked in place (fusion.py: a
        `max` of a comprehension or a `sum` aggregate, made as a loop, not a
        list)."""
        folded = fusion.fold_lines(self.x, expr, names)
        if folded is None:
            return self.x.gen(expr, names)
        self.emit_lines(folded[0], span)
        return folded[1]

    def emit_lines(self, lines: list, span) -> None:
        """Emit (depth, text) lines, each `depth` deeper than the statement."""
        for depth, text in lines:
            self.indent += depth
            self.emit(text, span)
            self.indent -= depth

    def test(self, cond, names, span) -> str:
        """Source of the condition `cond` of a statement, the lines computing
        it emitted first where it asks whether a list has an item (fusion.py:
        the list walked to its first item, not made)."""
        t = self.temp()
        lines = fusion.truth_lines(self.x, cond, names, t)
        if lines is None:
            return self.x.gen(cond, names)
        self.emit_lines(lines, span)
        return t

    def visit_RepeatTimes(self, s, names):
        count = self.x.gen(s.count, names)
        if not self.suspends(s):
            self.emit(f"for {self.temp()} in range({count}):", s.span)
            self.body_of(s.body, names, self._step(s.span), loop=True)
            return
        left = self.var(True)
        self.emit(f"{left} = {count}", s.span)
        self.split_loop(f"{left} <= 0", s.body, names, s.span, f"{left} -= 1")

    def visit_ActAs(self, s, names):
        saved = self.var(self.suspends(s))
        player = self.x.gen(s.player, names)
        self.emit(f"{saved} = st.me; st.me = R_seat(st, {player}, {self.module.const('`as` needs a seat')}, {self.module.const(s.span)})", s.span)
        self.block(s.body, names)
        self.emit(f"st.me = {saved}", s.span)

    def visit_PickRandom(self, s, names):
        crosses = self.suspends(s)
        v = self.var(crosses)
        inner = names.bind(s.var, v, self.x.types.element(s.iterable, names.types))
        values = self._filtered(s.iterable, s.var, s.cond, names)
        t = self.temp()
        self.emit(f"{t} = {values}", s.span)
        if not crosses:
            self.emit(f"if {t}:", s.span)
            self.body_of(s.body, inner, [(f"{v} = R_pick(st, {t})", s.span)])
            return
        end = Label()
        self.jump_if(f"not {t}", end, s.span)
        self.emit(f"{v} = R_pick(st, {t})", s.span)
        self.block(s.body, inner)
        self.place(end)

    def _filtered(self, iterable, var, cond, names) -> str:
        """Source of a new list of the values of `iterable` for which `cond` holds."""
        v = self.module.name("v")
        loop = self.x.iterate(iterable, names, v)
        if cond is None:
            return self.x.numbered(f"[{v} {loop}]", v)
        inner = names.bind(var, v, self.x.types.element(iterable, names.types))
        with self.x.hoist.loop(v) as frame:  # one list made at once: its conditions may share values
            test = self.x.gen(cond, inner)
        return self.x.numbered(f"[{v} {frame.clauses()}{loop} if {test}]", v)

    # ------------------------------------------------------------ decisions
    def branches(self, body, names, else_body, else_names, other: Label, end: Label, span) -> None:
        """A decision's body, then (at `other`, if there is one) its else body."""
        self.block(body, names)
        if else_body:
            self.jump(end, span)
            self.place(other)
            self.block(else_body, else_names)
        self.place(end)
