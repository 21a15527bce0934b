"""Generated code for the statements about who knows what: `look at`,
`reveal ... to` and `reorder` (docs/constructs-knowledge.md).

A mixin of the rule generator (stmtgen.RuleGen): it uses the generator's
blocks, labels and decision points.
"""
from __future__ import annotations

from . import decisions as dp
from .blocks import slot_index
from .codegen import Label
from .scope import Names


class KnowledgeGen:
    """`visit_` methods for the knowledge statements."""

    def visit_LookAt(self, s, names):
        cards = self.x.gen(s.cards, names)
        self.emit(f"R_look(st, {cards}, st.me, True, {self.module.const(s.span)})", s.span)

    def visit_Tell(self, s, names):
        """A line of the story: worked out only while someone listens. A
        part that reads the acting player's own `owner only` counter is
        told to that player alone, as a part read from its secret choice is."""
        mine = {name for name, c in self.ctx.model.counters.items() if c.scope == "player" and c.visibility == "owner"}
        told = Names(names.access, names.types, names.secret | frozenset(mine - set(names.access)))
        text = self.x.gen(s.text, told)
        self.emit(f"if st.events is not None: st.events.append(({self.module.const('tell')}, {text}))", s.span)

    def visit_Reveal(self, s, names):
        cards, seats = self.x.gen(s.cards, names), self.x.gen(s.to, names)
        self.emit(f"R_look(st, {cards}, {seats}, False, {self.module.const(s.span)})", s.span)

    def visit_Forget(self, s, names):
        self.emit(f"R_forget(st, {self.x.gen(s.cards, names)}, {self.module.const(s.span)})", s.span)

    def visit_Reorder(self, s, names):
        """The acting player lays the cards back one by one, top first: a
        decision per card while two or more are left."""
        rest, slot = self.var(True), self.var(True)
        self.emit(f"{rest} = R_reorder_start(st, {self.x.gen(s.cards, names)}, {self.module.const(s.span)})", s.span)
        top, body, end = Label(), Label(), Label()
        self.place(top)
        self.jump_if(f"not {rest}", end, s.span)
        point = dp.ReorderPoint(slot_index(slot))
        self.ask(point, s.span)
        self.emit(f"vals = list({rest})", s.span)
        self.jump_if("len(vals) == 1", body, s.span, (f"{slot} = vals[0]",))
        self.suspend(point, self.ids_of("CARD_IDS"), "vals", s.span)
        point.body = body
        self.place(body)
        self.emit(f"{rest} = R_lay(st, {slot}, {rest})", s.span)
        self._count_step(s.span)
        self.jump(top, s.span)
        self.place(end)

