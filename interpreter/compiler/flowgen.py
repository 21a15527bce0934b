"""Generated code of the statements that shape the order of play:
simultaneous choices, response windows (`announce`) and `pass phase`.

A mixin of the rule generator (stmtgen.RuleGen): the methods use its
output helpers (`var`, `emit`, `place`, `ask`, `suspend`, `call`).
"""
from __future__ import annotations

from ..language import nodes as n
from ..language.builtin_events import EVENTS
from ..language.reads import reads_private_counter
from ..language.value_types import picks_type
from . import decisions as dp
from .blocks import slot_index
from .codegen import Label
from .scope import Names


class FlowGen:
    """The order-of-play statements of a rule generator."""

    def visit_PassPhase(self, s, names):
        self.emit(f"R_pass_phase(st, {self.module.const(s.span)})", s.span)

    def simultaneous_choice(self, s, names):
        """`simultaneously [may] choose x in L ...`: each player of the round's
        order in turn is asked (L, its condition and labels read as that
        player), the picks kept in the frame; once all have chosen, they are
        revealed and the body runs for each player with its pick (the else
        body for a player who passed or had no option; one with no option
        was not asked, and the reveal does not name it)."""
        kind = self.x.element_kind(s.iterable, names)
        slot, seats, picks, index, saved = (self.var(True) for _ in range(5))
        element = self.x.types.element(s.iterable, names.types)
        inner = names.bind(s.var, slot, element)  # (with several picks: in the label, the one picked)
        body = inner if s.count is None else names.bind(s.var, slot, picks_type(element))
        label = self.x.function(s.label, inner, self.name, s.span, template=True) if s.label is not None else None
        point = dp.SimultaneousPoint(slot_index(slot), kind, label, self.prompt, slot_index(picks), slot_index(seats))
        self.pass_label(point, s, names)
        self.emit(f"{saved} = st.me; {seats} = R_seats_together(st); {picks} = ()", s.span)
        if s.count is not None:
            self.emit(f"{seats} = R_seats_repeated({seats}, {self.x.gen(s.count, names)}, "
                      f"{self.module.const(s.count.span)})", s.span)
        reveal, top, end = Label(), Label(), Label()
        self.ask(point, s.span)
        self.jump_if(f"len({picks}) >= len({seats})", reveal, s.span)
        self.emit(f"st.me = {seats}[len({picks})]", s.span)
        values, ids = self.options_of(s, names, kind)
        self.emit(f"vals = {values}", s.span)
        if s.count is not None:
            self.emit(f"vals = R_not_picked(vals, {seats}, {picks})", s.span)
        self.jump_if("not vals" if s.optional else "len(vals) <= 1", point.ask, s.span,
                     (f"{slot} = vals[0] if vals else {self.module.const(dp.NOT_ASKED)}",
                      f"if st.events is not None and vals: R_forced(st, fr, {point.id}, vals[0])",
                      f"{picks} = {picks} + ({slot},)"))
        self.emit(f"ids = {ids}", s.span)
        if s.optional:
            self.emit(f"ids.append({self.module.const('pass')}); vals.append({self.module.const(dp.PASS)})", s.span)
        self.suspend(point, "ids", "vals", s.span)
        self.place(reveal)
        self.emit(f"if st.events is not None: R_reveal(st, fr, {point.id}, {seats}, {picks})", s.span)
        if s.count is not None:
            self.emit(f"{seats}, {picks} = R_picks_by_seat({seats}, {picks})", s.span)
        self.emit(f"{index} = 0", s.span)
        self.place(top)
        self.jump_if(f"{index} >= len({seats})", end, s.span)
        self.emit(f"st.me = {seats}[{index}]; {slot} = {picks}[{index}]; {index} += 1", s.span)
        other = Label() if s.else_body else top
        self.jump_if(f"{slot} in {self.module.const((dp.PASS, dp.NOT_ASKED))}", other, s.span)
        self.block(s.body, body)
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
        reactions = [(d.name, d) for d in self.ctx.model.reactions_to(s.event)]
        if s.first_to_speak:
            self.speak_window(s, names, reactions)
            return
        saved, seats, k, taken = (self.var(True) for _ in range(4))
        slots = [self.var(True) for _ in s.args]
        for slot, arg in zip(slots, s.args):
            self.emit(f"{slot} = {self.x.gen(arg, names)}", s.span)
        if s.everyone:
            offered = "R_seats_together(st)"
        else:
            start = self.x.gen(s.start, names) if s.start is not None else "None"
            offered = f"R_responders(st, {start}, {self.module.const(s.span)})"
        self.emit(f"{saved} = st.me; {seats} = {offered}; {k} = 0; {taken} = False", s.span)
        top, end = Label(), Label()
        yes_no = self.module.const(["yes", "no"])
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


    def speak_window(self, s, names, reactions):
        """`announce EVENT(args) [from P] first to speak`: the players
        offered (as without it) answer one after the other, each unseen by
        the others, as in a simultaneous choice: "yes" (or, where several
        reactions answer EVENT, the name of the one it takes) or "no". A
        player for whom no reaction's condition holds is not asked where
        the conditions read only what every player sees, and is asked with
        "no" alone elsewhere. Once all have answered, the first in the
        order who did not say "no" takes the offer: only that is told, and
        its reaction runs as that player."""
        saved, seats, picks, k, hidden = (self.var(True) for _ in range(5))
        slots = [self.var(True) for _ in s.args]
        for slot, arg in zip(slots, s.args):
            self.emit(f"{slot} = {self.x.gen(arg, names)}", s.span)
        start = self.x.gen(s.start, names) if s.start is not None else "None"
        values = {name: "yes" if len(reactions) == 1 else name for name, _ in reactions}
        bounds, labels = {}, {}
        for name, decl in reactions:
            bound = Names()
            for param, slot, arg in zip(decl.params, slots, s.args):
                bound = bound.bind(param, slot, self.x.type_of(arg, names))
            bounds[name] = bound
            labels[values[name]] = self.x.function(decl.label, bound, f"reaction {name}", decl.span, template=True)
        point = dp.SpeakPoint(labels, f"react to {s.event.replace('_', ' ')}", s.event, slot_index(picks),
                              slot_index(seats))
        self.emit(f"{saved} = st.me; {seats} = R_responders(st, {start}, {self.module.const(s.span)}); {picks} = ()", s.span)
        decide, end = Label(), Label()
        no = self.module.const("no")
        self.ask(point, s.span)
        self.jump_if(f"len({picks}) >= len({seats})", decide, s.span)
        self.emit(f"st.me = {seats}[len({picks})]; vals = []; {hidden} = False", s.span)
        for name, decl in reactions:
            self.speak_option(decl, bounds[name], self.module.const(values[name]), hidden)
        self.jump_if(f"not vals and not {hidden}", point.ask, s.span, (f"{picks} = {picks} + ({no},)",))
        self.emit(f"vals.append({no})", s.span)
        self.suspend(point, "vals", "vals", s.span)
        self.place(decide)
        self.first_speaker(s, point, {name: values[name] for name, _ in reactions}, (seats, picks, k), slots, end)
        self.place(end)
        self.emit(f"st.me = {saved}", s.span)

    def first_speaker(self, s, point, values: dict, frame: tuple, slots: list, end) -> None:
        """Once all have answered: the first in order who did not say "no"
        (none: on to `end`) is told to the table, and its reaction (by
        `values`, reaction name -> the answer that takes it) runs as it."""
        seats, picks, k = frame
        no = self.module.const("no")
        self.emit(f"{k} = 0", s.span)
        self.emit(f"while {k} < len({picks}) and {picks}[{k}] == {no}: {k} += 1", s.span)
        self.jump_if(f"{k} >= len({picks})", end, s.span)
        self.emit(f"st.me = {seats}[{k}]; {k} = {picks}[{k}]; R_spoke(st, fr, {point.id}, st.me, {k})", s.span)
        for name, value in values.items():
            other = Label()
            self.jump_if(f"{k} != {self.module.const(value)}", other, s.span)
            self.call(self.ctx.code_index[("reaction", name)], slots, s.span)
            self.jump(end, s.span)
            self.place(other)

    def speak_option(self, decl, bound, value: str, hidden: str) -> None:
        """Offer reaction `decl` (as `value`) to the player asked where its
        condition holds; where it does not and the condition reads what not
        every player sees, the player is asked all the same (`hidden`)."""
        if decl.when is None:
            self.emit(f"vals.append({value})", decl.span)
            return
        when = self.x.gen(decl.when, bound)
        sources = "" if decl.publicly else self.x.card_sources(decl.when, bound)
        private = not decl.publicly and reads_private_counter(decl.when, self.ctx.model)
        self.emit(f"if {when}: vals.append({value})", decl.when.span)
        if private:
            self.emit(f"else: {hidden} = True", decl.when.span)
        elif sources:
            self.emit(f"elif not R_public(st, ({sources},)): {hidden} = True", decl.when.span)

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
            return f"({yes_no} if ({when}) else {self.module.const(['no'])})"
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
