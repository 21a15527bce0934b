"""Generated code for the statements that ask a decision: `choose`, `may`,
the choice of an action and `resolve` (any, all), with the decision points
they register (how a choice is asked, answered inline or suspended, and
how its options are listed).

A mixin of the rule generator (stmtgen.RuleGen): it uses the generator's
blocks, labels, expressions and frames.
"""
from __future__ import annotations

from ..language.reads import options_list, reads_private_counter
from ..runtime import helpers as rt
from ..runtime.explain import not_open
from . import decisions as dp
from . import fusion
from .blocks import PENDING, slot_index
from .codegen import Label
from .scope import Names


class ChoiceGen:
    """`visit_` methods for the statements that ask a decision."""

    def ask(self, point, span) -> None:
        """Register a decision point and start its block (where it is asked again)."""
        point.code, point.span = self.index, span
        point.ask = Label()
        self.place(point.ask)
        self.ctx.add_point(point)
        self.points.append(point)

    def suspend(self, point, ids: str, values: str, span, taken=None) -> None:
        """Ask the decision: a state playing on by itself has it answered
        here and goes on at the block the answer names, without suspending.
        `taken`: (the locals' slot, the block to go on at) where taking an
        option is only keeping its value there (the point's `apply`, done
        here: `R_answered` takes the decision, never set pending, and gives
        the option's index). Ids looked up in a table (`ids_of`) are made
        only where they are needed: `R_answered` looks up the one taken,
        and a decision left pending lists them all."""
        table = getattr(ids, "table", None) if values == "vals" else None
        if table is None and ids != "ids":
            self.emit(f"ids = {ids}", span)
        answer = f"R_answered(st, vals, {table})" if table is not None else "R_answered(st, ids)"
        lazy = [f"ids = {ids}"] if table is not None else []
        pending = PENDING.format(point=point.id, values=values if taken else "vals")
        if taken is None:
            if values != "vals":
                self.emit(f"vals = {values}", span)
            if point.kind == "card" and not point.shown:  # the player deciding knows the cards offered from then on
                self.emit("R_show_options(st, vals)", span)
            i = self.temp()
            self.emit(f"if st.auto is not None and ({i} := {answer}) >= 0:", span)
            take = self.module.named_value(f"take {point.id}", point.apply)  # (as `apply_action` would)
            self.emit(f"    {take}(st, fr, vals[{i}])", span)
            self.lines.append((self.indent + 1, ("resume", None), span))  # (at the block the option set)
            for line in [*lazy, pending]:
                self.emit(line, span)
        else:
            slot, then = taken
            if point.kind == "card" and not point.shown:  # (taken inline: no pass among the options)
                self.emit(f"R_show_cards(st, {values})", span)
            i = self.temp()
            self.emit(f"if st.auto is None or ({i} := {answer}) < 0:", span)
            for line in [*lazy, pending, "return S"]:
                self.emit("    " + line, span)
            self.emit(f"{slot} = {values}[{i}]", span)
            if point.kind == "card" and not point.in_sight:  # as ChoosePoint.apply
                self.emit(f"R_chosen(st, {slot})", span)
            self.lines.append((self.indent, ("set", then), span))
            self.jump(then, span)  # (to the next block, as a rule is written: no new dispatch)
            return
        self.emit("return S", span)

    def visit_Choose(self, s, names):
        if s.simultaneous:
            return self.simultaneous_choice(s, names)
        kind = self.x.element_kind(s.iterable, names)
        slot = self.var(True)
        chosen = names.bind(s.var, slot, self.x.types.element(s.iterable, names.types), secret=s.secretly)
        label = self.x.function(s.label, chosen, self.name, s.span, template=True) if s.label is not None else None
        point = dp.ChoosePoint(slot_index(slot), kind, label, self.prompt)
        point.in_sight = kind == "card" and self.x.taken_in_sight(s.iterable, names)
        point.shown = point.in_sight and self.x.taken_in_sight(s.iterable, names, held=False)
        point.secretly = s.secretly
        self.pass_label(point, s, names)
        self.ask(point, s.span)
        copies = kind == "card" and self.ctx.program.has_copies
        fused = (not copies and self.x.distinct(s.iterable, names)
                 and self.fused_list(s.iterable, names, s.span, "vals", (s.var, s.cond), whole=True))
        values, ids = (None, self.option_ids(kind)) if fused else self.options_of(s, names, kind)
        if not fused:
            self.emit(f"vals = {values}", s.span)
        body, end = Label(), Label()
        other = Label() if s.else_body else end
        if s.optional:
            self.jump_if("not vals", other, s.span)
            self.emit(f"ids = {ids}; ids.append({self.module.const('pass')}); vals.append({self.module.const(dp.PASS)})", s.span)
        told_alike = not s.optional and self.options_told_alike(s, names, kind, point, slot, ids, body, other)
        # a choice that never offers to pass is taken by keeping the value chosen
        self.suspend(point, ids if told_alike == "True" else "ids", "vals", s.span,
                     (slot, body) if told_alike == "True" else None)
        point.body, point.other = body, other
        self.place(body)
        self.branches(s.body, chosen,
                      s.else_body, names, other, end, s.span)

    def pass_label(self, point, s, names) -> None:
        """`may choose ... else "label":`: passing is offered with that label."""
        if s.else_label is not None:
            point.other_fn = self.x.function(s.else_label, names, self.name, s.span, template=True)

    def options_told_alike(self, s, names, kind, point, slot, ids: str, body, other) -> str:
        """The options of a choice one must make: none skip it, one is taken
        without asking. Where how many there are depends on what not every
        player sees (a hidden counter; the face of a card not every player
        sees, tested when it is read), the player is asked all the same, so
        that the others cannot tell: with no option, "pass" alone. Returns
        the test of whether the options are told alike ("True": always, so
        "pass" is never offered)."""
        private = reads_private_counter(s.iterable, self.ctx.model) or reads_private_counter(s.cond, self.ctx.model)
        sources = "" if private else self.x.card_sources(options_list(s.var, s.iterable, s.cond), names, unseen_only=True)
        public = "False" if private else (f"R_public(st, ({sources},))" if sources else "True")
        if public == "True":
            self.jump_if("not vals", other, s.span)
        else:
            self.jump_if(f"not vals and {public}", other, s.span)
            self.emit("if not vals:", s.span)
            self.emit(f"    ids = [{self.module.const('pass')}]; vals = [{self.module.const(dp.PASS)}]", s.span)
            self.emit("else:", s.span)
            self.indent += 1
        if public != "False":
            unseen = kind == "card" and not point.in_sight  # taken unseen, as if chosen (ops.chosen)
            self.jump_if(f"len(vals) == 1{'' if public == 'True' else ' and ' + public}", body, s.span,
                         (f"{slot} = vals[0]", *([f"R_chosen(st, {slot})"] if unseen else []),
                          f"if st.events is not None: R_forced(st, fr, {point.id}, vals[0])"))
        if public != "True":  # (else `suspend` makes the ids where they are needed)
            self.emit(f"ids = {ids}", s.span)
            self.indent -= 1
        return public

    def options_of(self, s, names, kind) -> tuple[str, str]:
        """Sources of a choice's option values and (over `vals`) their ids."""
        values = self._filtered(s.iterable, s.var, s.cond, names)
        if not self.x.distinct(s.iterable, names):
            values = f"R_unique({values})"
        copies = kind == "card" and self.ctx.program.has_copies
        if copies:  # identical copies lying together are one option
            values = f"R_collapse(st, {values})"
        return values, self.option_ids(kind)

    def option_ids(self, kind) -> str:
        """Source of the ids of a choice's options, over `vals`."""
        if kind == "card" and self.ctx.program.has_copies:
            return "R_card_option_ids(st, vals)"
        if kind == "card":
            return self.ids_of("CARD_IDS")
        return f"R_option_ids(st.program, {self.module.const(kind)}, vals)"

    def ids_of(self, table: str) -> str:
        """The ids of the options `vals` by their place in `table` (a
        comprehension: cheaper than mapping for a few options), which
        `suspend` makes only where they are needed."""
        v = self.module.name("v")
        return TableIds(f"[{table}[{v}] for {v} in vals]", table)

    def fused_list(self, iterable, names, span, target=None, test=None, whole=False):
        """Where `iterable` is a concatenation or a comprehension (or, if
        `whole`, anything: a loop of statements makes a short list faster
        than a comprehension): lines making `target` (a new temporary if
        None) the new list of its items (that pass `test`: (variable,
        condition or None)) by walking each part in place (compiler/fusion.py),
        and `target`'s name; else None, nothing emitted."""
        lists = fusion.parts(self.x, iterable, names)
        if len(lists) < 2 and not whole and not fusion.walked(self.x, lists[0][0]):
            return None
        target = target or self.temp()
        if test is not None and test[1] is not None:
            test = (test[0], self.x.types.element(iterable, names.types), test[1], names)
        else:
            test = None
        for depth, text in fusion.list_lines(self.x, lists, target, test):
            self.indent += depth
            self.emit(text, span)
            self.indent -= depth
        return target

    def resolve_any_answered(self, point, rem: str, cur: str, call, end, span) -> None:
        """`resolve any`'s decision, answered where it is asked in a state
        playing on by itself, taken as ResolveAnyPoint.apply takes it: "done"
        ends the statement; an item's alternative leaves the items left and
        is the effect called."""
        i, value, left, k = self.temp(), self.temp(), self.temp(), self.temp()
        self.emit(f"if st.auto is not None and ({i} := R_answered(st, ids)) >= 0:", span)
        self.indent += 1
        self.emit(f"{value} = vals[{i}]", span)
        self.emit(f"if {value} == {self.module.const(rt.DONE)}:", span)
        self.lines.append((self.indent + 1, ("set", end), span))
        self.lines.append((self.indent + 1, ("jump", end), span))
        self.emit(f"{left} = {rem}; {k} = {left}.index({value}[0]); "
                  f"{rem} = {left}[:{k}] + {left}[{k} + 1:]; {cur} = {value}[1]", span)
        self.lines.append((self.indent, ("set", call), span))
        self.jump(call, span)
        self.indent -= 1
        self.emit(PENDING.format(point=point.id, values="vals"), span)
        self.emit("return S", span)

    def visit_May(self, s, names):
        label = self.x.function(s.label, names, self.name, s.span, template=True)
        point = dp.MayPoint(label, self.prompt)
        if s.else_label is not None:
            point.other_fn = self.x.function(s.else_label, names, self.name, s.span, template=True)
        self.ask(point, s.span)
        self.suspend(point, self.module.const(["yes", "no"]), self.module.const(["yes", "no"]), s.span)
        body, end = Label(), Label()
        other = Label() if s.else_body else end
        point.body, point.other = body, other
        self.place(body)
        self.branches(s.body, names, s.else_body, names, other, end, s.span)

    def visit_ChooseAction(self, s, names):
        actions = list(self.ctx.model.actions.items())
        slot = self.var(True)
        labels = [self.x.function(decl.label, Names(), f"action {name}", decl.span, template=True) for name, decl in actions]
        point = dp.ActionPoint([name for name, _ in actions], labels, slot_index(slot),
                               [not_open(decl) for _, decl in actions])
        self.ask(point, s.span)
        always = 0  # the actions open whatever the position, before the first with a condition: the list's start
        while always < len(actions) and actions[always][1].when is None:
            always += 1
        self.emit(f"vals = [{', '.join(map(str, range(always)))}]", s.span)
        for k, (name, decl) in enumerate(actions[always:], always):
            if decl.when is None:
                self.emit(f"vals.append({k})", s.span)
                continue
            for depth, text in self.x.test_lines(decl.when, Names(), f"vals.append({k})"):
                self.indent += depth
                self.emit(text, decl.when.span)
                self.indent -= depth
        dispatch, end = Label(), Label()
        if all(decl.when is not None for _, decl in actions):  # (else one is always open)
            self.emit(f"if not vals: R_no_action({self.module.const(s.span)})", s.span)
        # One action left is taken without asking only where which actions
        # were open reads nothing hidden (as a choice's options, visit_Choose)
        whens = [decl.when for _, decl in actions if decl.when is not None]
        if not any(reads_private_counter(when, self.ctx.model) for when in whens):
            sources = ", ".join(filter(None, (self.x.card_sources(when, Names(), unseen_only=True) for when in whens)))
            self.jump_if("len(vals) == 1" + (f" and R_public(st, ({sources},))" if sources else ""), dispatch, s.span,
                         (f"{slot} = vals[0]", f"if st.events is not None: R_forced(st, fr, {point.id}, vals[0])"))
        self.suspend(point, self.ids_of(self.module.const([name for name, _ in actions])), "vals", s.span,
                     (slot, dispatch))
        point.dispatch = dispatch
        self.place(dispatch)
        codes = [self.ctx.code_index[("action", name)] for name, _ in actions]
        for k, code in enumerate(codes):
            self.emit(f"{'if' if k == 0 else 'elif'} {slot} == {k}:", s.span)
            self.indent += 1
            if code in self.ctx.resumable:
                self.call_rule(code, [], end, s.span)
            else:
                self.emit(f"{self.ctx.function_names[code]}(st)", s.span)
            self.indent -= 1
        self.place(end)

    def visit_Resolve(self, s, names):
        effects = self.x.gen(s.effects, names)
        fx, cur = self.var(True), self.var(True)
        end, call = Label(), Label()
        if s.mode == "any":
            rem = self.var(True)
            self.emit(f"{fx} = {effects}; {rem} = R_all_items[len({fx})] if len({fx}) < {len(rt.ALL_ITEMS)} "
                      f"else tuple(range(len({fx})))", s.span)
            point = dp.ResolveAnyPoint(slot_index(rem), slot_index(fx), slot_index(cur))
            self.ask(point, s.span)
            self.emit(f"ids, vals = R_resolve_options(st, {rem}, {fx})", s.span)
            self.jump_if("not ids", end, s.span)
            self.resolve_any_answered(point, rem, cur, call, end, s.span)
            point.call, point.end = call, end
            self.place(call)
            self.effect_call(cur, point.ask, s.span)
            self.place(end)
            return
        idx = self.var(True)
        self.emit(f"{fx} = {effects}; {idx} = 0", s.span)
        point = dp.ResolveAllPoint(slot_index(idx), slot_index(cur), slot_index(fx))
        self.ask(point, s.span)
        i, alts = self.temp(), self.temp()
        self.emit(f"{i} = {idx}", s.span)
        self.jump_if(f"{i} >= len({fx})", end, s.span)
        if self.ctx.model.has_effect_conditions():
            # only the alternatives that can do something; an item with none is skipped
            self.emit(f"{alts} = R_possible(st, {fx}[{i}])", s.span)
            self.jump_if(f"not {alts}", point.ask, s.span, (f"{idx} = {i} + 1",))
        else:
            self.emit(f"{alts} = {fx}[{i}]", s.span)
        self.jump_if(f"len({alts}) == 1", call, s.span,
                     (f"{idx} = {i} + 1; {cur} = {alts}[0]", f"if st.events is not None: R_forced(st, fr, {point.id}, {alts}[0])"))
        self.suspend(point, f"list({alts})", f"list({alts})", s.span)
        point.call = call
        self.place(call)
        self.effect_call(cur, point.ask, s.span)
        self.place(end)


class TableIds(str):
    """The source of a choice's option ids (`ChoiceGen.ids_of`), knowing the
    table they are looked up in."""

    def __new__(cls, text: str, table: str):
        made = super().__new__(cls, text)
        made.table = table
        return made
