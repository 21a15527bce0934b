"""Generated code of the statements that shape the order of play:
simultaneous choices, response windows (`announce`) and `pass phase`.

A mixin of the rule generator (stmtgen.RuleGen): the methods use its
output helpers (`var`, `emit`, `place`, `ask`, `suspend`, `call`).
"""
from __future__ import annotations

from ..language import nodes as n
from ..language.builtin_events import EVENTS
from ..language.reads import reads_private_counter
from . import decisions as dp
from .blocks import slot_index
from .codegen import Label
from .exprgen import Names


class FlowGen:
    """The order-of-play statements of a rule generator."""

    def visit_PassPhase(self, s, names):
        self.emit(f"R_pass_phase(st, {self.m.const(s.span)})", s.span)

    def simultaneous_choice(self, s, names):
        """`simultaneously [may] choose x in L ...`: each player of the round's
        order in turn is asked (L, its condition and labels read as that
        player), the picks kept in the frame; once all have chosen, they are
        revealed and the body runs for each player with its pick (the else
        body for a player who passed or had no option; one with no option
        was not asked, and the reveal does not name it)."""
        kind = self.x.element_kind(s.iterable, names)
        slot, seats, picks, index, saved = (self.var(True) for _ in range(5))
        inner = names.bind(s.var, slot, self.x.types.element(s.iterable, names.types))
        label = self.x.function(s.label, inner, self.name, s.span, template=True) if s.label is not None else None
        point = dp.SimultaneousPoint(slot_index(slot), kind, label, self.prompt, slot_index(picks), slot_index(seats))
        self.emit(f"{saved} = st.me; {seats} = R_seats_together(st); {picks} = ()", s.span)
        reveal, top, end = Label(), Label(), Label()
        self.ask(point, s.span)
        self.jump_if(f"len({picks}) >= len({seats})", reveal, s.span)
        self.emit(f"st.me = {seats}[len({picks})]", s.span)
        values, ids = self.options_of(s, names, kind)
        self.emit(f"vals = {values}", s.span)
        self.emit("if not vals:" if s.optional else "if len(vals) <= 1:", s.span)
        self.emit(f"    {slot} = vals[0] if vals else {self.m.const(dp.NOT_ASKED)}", s.span)
        self.emit(f"    if st.events is not None and vals: R_forced(st, {point.id}, vals[0])", s.span)
        self.emit(f"    {picks} = {picks} + ({slot},)", s.span)
        self.indent += 1
        self.jump(point.ask, s.span)
        self.indent -= 1
        self.emit(f"ids = {ids}", s.span)
        if s.optional:
            self.emit(f"ids.append({self.m.const('pass')}); vals.append({self.m.const(dp.PASS)})", s.span)
        self.suspend(point, "ids", "vals", s.span)
        self.place(reveal)
        self.emit(f"if st.events is not None: R_reveal(st, {point.id}, {seats}, {picks})", s.span)
        self.emit(f"{index} = 0", s.span)
        self.place(top)
        self.jump_if(f"{index} >= len({seats})", end, s.span)
        self.emit(f"st.me = {seats}[{index}]; {slot} = {picks}[{index}]; {index} += 1", s.span)
        other = Label() if s.else_body else top
        self.jump_if(f"{slot} in {self.m.const((dp.PASS, dp.NOT_ASKED))}", other, s.span)
        self.block(s.body, inner)
        self.jump(top, s.span)
        if s.else_body:
            self.place(other)
            self.block(s.else_body, names)
            self.jump(top, s.span)
        self.place(end)
        self.emit(f"st.me = {saved}", s.span)

    def visit_Announce(self, s, names):
        """`announce EVENT(args) [from P] [first only]`: each other player in
        seat order from P (the next player) is offered, one reaction after
        the other in the order they are written, each reaction to EVENT whose
        condition holds for that player, as `may "label"`; where the
        condition reads what not every player sees, every player is asked,
        one for whom it does not hold with "no" alone; a reaction taken runs
        as that player. With `first only`, the first reaction taken
        closes the window."""
        reactions = [(name, d) for name, d in self.ctx.model.reactions.items() if d.event == s.event]
        saved, seats, k, taken = (self.var(True) for _ in range(4))
        slots = [self.var(True) for _ in s.args]
        for slot, arg in zip(slots, s.args):
            self.emit(f"{slot} = {self.x.gen(arg, names)}", s.span)
        if s.everyone:
            offered = "R_seats_together(st)"
        else:
            start = self.x.gen(s.start, names) if s.start is not None else "None"
            offered = f"R_responders(st, {start}, {self.m.const(s.span)})"
        self.emit(f"{saved} = st.me; {seats} = {offered}; {k} = 0; {taken} = False", s.span)
        top, end = Label(), Label()
        yes_no = self.m.const(["yes", "no"])
        self.place(top)
        self.jump_if(f"{k} >= len({seats})" + (f" or {taken}" if s.first_only else ""), end, s.span)
        self.emit(f"st.me = {seats}[{k}]; {k} += 1", s.span)
        for name, decl in reactions:
            bound = Names()
            for param, slot, arg in zip(decl.params, slots, s.args):
                bound = bound.bind(param, slot, self.x.type_of(arg, names))
            skip = Label()
            options = self.reaction_options(decl, bound, skip, yes_no)
            label = self.x.function(decl.label, bound, f"reaction {name}", decl.span, template=True)
            point = dp.MayPoint(label, f"react to {s.event.replace('_', ' ')}", s.event)
            self.ask(point, s.span)
            if options is not yes_no:
                self.emit(f"vals = {options}", decl.when.span)
                options = "vals"
            self.suspend(point, options, options, s.span)
            point.body, point.other = Label(), skip
            self.place(point.body)
            self.emit(f"{taken} = True", s.span)
            self.call(self.ctx.code_index[("reaction", name)], slots, s.span)
            if s.first_only:
                self.jump(end, s.span)
            self.place(skip)
        self.jump(top, s.span)
        self.place(end)
        self.emit(f"st.me = {saved}", s.span)


    def reaction_options(self, decl, bound, skip, yes_no: str) -> str:
        """The options offered a player for reaction `decl` (`yes_no`, or an
        expression choosing between it and "no" alone), after a jump to
        `skip` where its player is not asked. A player for whom the
        condition does not hold is not asked where that condition reads only
        what every player sees (or the rules say `publicly`); elsewhere it
        is asked all the same, and may only decline."""
        if decl.when is None:
            return yes_no
        when = self.x.gen(decl.when, bound)
        sources = "" if decl.publicly else self.x.card_sources(decl.when, bound)
        private = not decl.publicly and reads_private_counter(decl.when, self.ctx.model)
        if not private:
            public = f" and R_public(st, ({sources},))" if sources else ""
            self.jump_if(f"not ({when}){public}", skip, decl.when.span)
        if sources or private:
            return f"({yes_no} if ({when}) else {self.m.const(['no'])})"
        return yes_no


def hooks_with_windows(model) -> dict:
    """The rules' hooks (moment -> HookDecl), each with the response window
    of the engine's own event at that moment placed in it when a reaction
    answers that event: after the block of a start hook, before the block of
    an end hook (a hook the rules do not write is made for it). The window is
    an `announce` like one written by hand, from `me` (whose turn it is), or
    for a phase to every player of the round's order."""
    hooks = dict(model.hooks)
    for event in EVENTS.values():
        answers = [d for d in model.reactions.values() if d.event == event.name]
        if not answers or (event.phased and not model.phases):
            continue
        span = answers[0].span
        args = tuple(n.Name("me", span=span) for _ in event.params)
        window = n.Announce(event.name, args, None, False, event.everyone, span=span)
        hook = hooks.get(event.moment)
        body = hook.body if hook is not None else ()
        body = (*body, window) if event.after_hook else (window, *body)
        hooks[event.moment] = n.HookDecl(event.moment, body, span=hook.span if hook is not None else span)
    return hooks
