"""Expressions of the checked AST as Python expression source.

`ExprGen.gen(expr, names)` returns the text of one Python expression over the
generated function's locals (`st`, `L`, `ctr`, `z`) and namespace constants.
Counters, zones and card fields become list subscripts with indices fixed at
compile time; definitions are inlined at their call sites when their
arguments are plain names, else called as generated functions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import singledispatchmethod

from ..builtins import FUNCTIONS
from ..errors import Diagnostic, RulesError, RulesRuntimeError
from ..language import nodes as n
from ..types import CARD, CARDS, NUMBER, PLAYER, PLAYERS, Types
from . import runtime as rt

_SIMPLE = re.compile(r"^(L\[\d+\]|[vtsp]\d+|-?\d+|st\.me|K\d+|None|True|False)$")
_ELEMENT_KIND = {CARD: "card", PLAYER: "player"}

BUILTIN_NAMES = frozenset({"me", "players", "seats", "others", "first_player", "round", "turn_number"})
_BUILTIN_TEXT = {"me": "st.me", "players": "st.n", "seats": "R_seats(st)", "others": "R_others(st)",
                 "first_player": "st.first", "round": "st.round", "turn_number": "st.turns"}
_INLINE_CALLS = {"size": "len", "abs": "abs"}


@dataclass(frozen=True)
class Names:
    """Local names of the rules in scope: the source text each compiles to, and its type."""

    access: dict = field(default_factory=dict)
    types: dict = field(default_factory=dict)

    def bind(self, name: str, text: str, type_=None) -> "Names":
        return Names({**self.access, name: text}, {**self.types, name: type_})


class ExprGen:
    """Turns expressions into Python source; knows the program's layout."""

    def __init__(self, program, model, module, types: Types, count_reads: bool = False):
        self.p = program
        # Coverage of cards used only by expressions: every field read goes
        # through R_read, which counts the card in the state's coverage. Only
        # a program compiled for coverage does this; the texts people read
        # (labels, `show`) are not uses and are never counted.
        self.count_reads = count_reads
        self._in_text = False
        self.model = model
        self.m = module
        self.types = types
        self._fields: dict = {}  # field name -> namespace name of its per-card list
        self._kind_sets: dict = {}
        self._defines: dict = {}  # define name -> generated function name
        self._inlining: set = set()
        self._uses: dict = {}
        for name in ("add", "highest", "lowest", "shows", "rank", "seats", "others", "render"):
            module.helper(f"R_{name}", getattr(rt, name))
        module.helper("R_errors", rt.ERRORS + (RulesError,))
        module.helper("R_fail", _fail)
        for name, b in FUNCTIONS.items():
            module.helper(f"B_{name}", b.fn)

    # ------------------------------------------------------------ entry points
    def gen(self, expr: n.Expr, names: Names) -> str:
        return self.visit(expr, names)

    def type_of(self, expr, names: Names):
        return self.types.of(expr, names.types)

    def element_kind(self, expr, names: Names):
        """'card' or 'player' if `expr` is a list of cards or players (option ids)."""
        return _ELEMENT_KIND.get(self.types.element(expr, names.types))

    def scalar_kind(self, expr, names: Names):
        return _ELEMENT_KIND.get(self.type_of(expr, names))

    def distinct(self, expr, names: Names) -> bool:
        """Whether the values of `expr` can never repeat (so options built from
        it need no de-duplication): a zone's cards, the seats, a comprehension
        that picks its loop variable from such lists, a sum of lists that read
        different zones. A card is in one zone instance at a time."""
        return self._zones_read(expr, names, set()) is not None

    def _zones_read(self, expr, names, seen):
        """The zones a repeat-free list reads, or None if it may repeat."""
        if isinstance(expr, n.Name):
            if expr.name in names.access:
                return None
            if expr.name in self.p.zones:
                return {expr.name}
            if expr.name in ("seats", "others"):
                return {"<seats>"}
            decl = self.model.defines.get(expr.name)
            if decl is None or decl.params or expr.name in seen:
                return None
            return self._zones_read(decl.expr, Names(), seen | {expr.name})
        if isinstance(expr, n.NameOf):
            return {expr.name} if expr.name in self.p.zones else None
        if isinstance(expr, n.Arith) and expr.op == "+":
            left = self._zones_read(expr.left, names, seen)
            right = self._zones_read(expr.right, names, seen)
            return left | right if left is not None and right is not None and not left & right else None
        if isinstance(expr, n.Comprehension):
            (var, iterable), *inner = expr.loops
            zones = self._zones_read(iterable, names, seen)
            for inner_var, inner_it in inner:  # `for c in zone of b`: b's instances differ
                if not (isinstance(inner_it, n.NameOf) and isinstance(inner_it.owner, n.Name)
                        and inner_it.owner.name == var and inner_it.name in self.p.zones):
                    return None
                zones = zones | {inner_it.name} if zones is not None else None
                var = inner_var
            picked = isinstance(expr.expr, n.Name) and expr.expr.name == var
            return zones if picked else None
        return None

    def template(self, tmpl: n.Template, names: Names) -> str:
        parts = []
        outer, self._in_text = self._in_text, True
        try:
            for part in tmpl.parts:
                parts.append(self.m.const(part) if isinstance(part, str) else f"R_render({self.visit(part, names)})")
        finally:
            self._in_text = outer
        if not parts:
            return self.m.const("")
        return parts[0] if len(parts) == 1 and isinstance(tmpl.parts[0], str) else "(" + " + ".join(parts) + ")"

    def function(self, expr, names: Names, rule: str, span=None, template=False) -> str:
        """A generated function `E<n>(st, L)` returning the expression's value;
        errors come out as RulesRuntimeErrors at `span`."""
        body = self.template(expr, names) if template else self.visit(expr, names)
        fname = self.m.name("E")
        where = self.m.const(span or expr.span)
        lines = [(0, f"def {fname}(st, L=None):", None), *_hoist(body, 1), (1, "try:", None),
                 (2, f"return {body}", None), (1, "except R_errors as t0:", None),
                 (2, f"raise R_fail(t0, {where}) from None", None)]
        self.m.add_function(fname, lines=lines, rule=rule)
        return fname

    # ------------------------------------------------------------ visitors
    @singledispatchmethod
    def visit(self, expr, names):
        raise TypeError(f"cannot compile {type(expr).__name__}")

    @visit.register(n.Literal)
    def _(self, expr, names):
        return self.literal(expr.value)

    def literal(self, value) -> str:
        """Source for a constant: None, yes/no and numbers as themselves (a
        negative one in brackets), anything else (texts, lists, maps) by name."""
        if value is None or isinstance(value, bool):
            return repr(value)
        if isinstance(value, int) and abs(value) < 1 << 62:
            return repr(value) if value >= 0 else f"({value})"
        return self.m.const(value)

    @visit.register(n.Template)
    def _(self, expr, names):
        return self.template(expr, names)

    @visit.register(n.Name)
    def _(self, expr, names):
        name = expr.name
        if name in names.access:
            return names.access[name]
        p = self.p
        if name in p.params:
            return self.literal(p.params[name])
        if name in p.counters:
            info = p.counters[name]
            return f"ctr[{info.index}][0]" if info.scope == "shared" else f"ctr[{info.index}][st.me]"
        if name in p.zones:
            info = p.zones[name]
            return self.zone_cards(info, "" if info.scope == "shared" else " + st.me")
        if name in self.model.defines:
            return self.call_define(name, (), names)
        if name in self.model.effects:
            return self.m.const(name)
        return _BUILTIN_TEXT[name]

    def iterate(self, expr, names: Names, var: str) -> str:
        """`for VAR in ...` clause of a comprehension over the values of `expr`."""
        source, guard = self.loop(expr, names, var)
        return f"for {var} in {source}" + (f" if {guard}" if guard else "")

    def loop(self, expr, names: Names, var: str):
        """(what to iterate, condition each value must meet or None) for the
        values of `expr`: a slotted zone is walked as it is, skipping its
        empty slots, instead of being copied."""
        info = self._slotted_zone(expr, names)
        if info is None:
            return self.visit(expr, names), None
        return self.zone_cards(info, self._zone_offset(expr, names), raw=True), f"{var} is not None"

    def _zone_offset(self, expr, names: Names) -> str:
        """The owner part of a zone instance index, for a zone named by `expr`."""
        info = self.p.zones[expr.name]
        if info.scope == "shared":
            return ""
        return " + st.me" if isinstance(expr, n.Name) else f" + {self.visit(expr.owner, names)}"

    def test_lines(self, expr, names: Names, then: str) -> list:
        """Statement lines running `then` if `expr` holds; `any x in L where C`
        becomes a loop that stops at the first match, with no generator."""
        decl = self.model.defines.get(expr.name) if isinstance(expr, n.Name) and expr.name not in names.access else None
        if decl is not None and not decl.params and expr.name not in self._inlining:
            self._inlining.add(expr.name)
            try:
                return self.test_lines(decl.expr, Names(), then)
            finally:
                self._inlining.discard(expr.name)
        if isinstance(expr, n.Aggregate) and expr.op == "any" and expr.cond is not None:
            v = self.m.name("v")
            source, guard = self.loop(expr.iterable, names, v)
            inner = names.bind(expr.var, v, self.types.element(expr.iterable, names.types))
            cond = self.visit(expr.cond, inner)
            return [(0, f"for {v} in {source}:"), (1, f"if {guard + ' and ' if guard else ''}{cond}:"),
                    (2, then), (2, "break")]
        return [(0, f"if {self.visit(expr, names)}: {then}")]

    def _slotted_zone(self, expr, names: Names):
        if isinstance(expr, n.Name) and expr.name not in names.access and expr.name in self.p.zones:
            info = self.p.zones[expr.name]
        elif isinstance(expr, n.NameOf) and expr.name in self.p.zones:
            info = self.p.zones[expr.name]
        else:
            return None
        return info if info.slots else None

    def zone_cards(self, info, offset: str, raw: bool = False) -> str:
        """The cards of a zone instance as a list (a slotted zone without its
        gaps, unless `raw`)."""
        where = f"z[{info.base}{offset}]"
        if info.slots and not raw:
            v = self.m.name("v")
            return f"[{v} for {v} in {where} if {v} is not None]"
        return where

    @visit.register(n.NameOf)
    def _(self, expr, names):
        owner = self.visit(expr.owner, names)
        if expr.name in self.p.counters:
            return f"ctr[{self.p.counters[expr.name].index}][{owner}]"
        return self.zone_cards(self.p.zones[expr.name], f" + {owner}")

    @visit.register(n.Field)
    def _(self, expr, names):
        obj = self.visit(expr.obj, names)
        if self.count_reads and not self._in_text:
            obj = f"R_read(st, {obj})"
        values = self.field_list(expr.name)
        if self.field_type(expr.name) == "expression":
            return f"{values}[{obj}](st)"
        return f"{values}[{obj}]"

    def field_list(self, name: str) -> str:
        """The namespace name of a field's list of values, indexed by card; a
        card without the field holds a value whose every use is an error."""
        if name not in self._fields:
            self._fields[name] = self.m.value("F", self._filled(name))
        return self._fields[name]

    def _filled(self, name: str) -> list:
        values = self.p.fields.get(name) or [None] * len(self.p.card_ids)
        return [rt.Missing(self.p.card_names[i], name) if v is None else v for i, v in enumerate(values)]

    def refresh_fields(self) -> None:
        """Copy the program's field values (now with functions for card
        expressions) into the lists generated code reads."""
        for name, ns_name in self._fields.items():
            self.m.ns[ns_name][:] = self._filled(name)

    def field_type(self, name):
        for kind in self.model.kinds.values():
            for fname, ftype in kind.fields:
                if fname == name:
                    return ftype
        return None

    @visit.register(n.Index)
    def _(self, expr, names):
        obj = self.visit(expr.obj, names)
        index = self.visit(expr.index, names)
        if isinstance(expr.obj, n.Field) and self.field_type(expr.obj.name) == "expression map":
            return f"{obj}[{index}](st)"
        return f"{obj}[{index}]"

    @visit.register(n.Call)
    def _(self, expr, names):
        if expr.name in self.model.defines:
            return self.call_define(expr.name, expr.args, names)
        if expr.name == "size" and len(expr.args) == 1:
            info = self._slotted_zone(expr.args[0], names)
            if info is not None:  # the cards in a slotted zone: its slots less its gaps
                where = self.zone_cards(info, self._zone_offset(expr.args[0], names), raw=True)
                return f"({info.slots} - {where}.count(None))"
        args = [self.visit(a, names) for a in expr.args]
        inline = FUNCTIONS[expr.name].inline
        if inline is not None and all(_SIMPLE.match(a) for a in args):
            return "(" + inline.format(*args) + ")"
        if expr.name in _INLINE_CALLS:
            return f"{_INLINE_CALLS[expr.name]}({args[0]})"
        if expr.name in ("max", "min"):
            return f"{expr.name}({', '.join(args)})"
        return f"B_{expr.name}(st, {', '.join(args)})"

    def call_define(self, name, args, names: Names) -> str:
        """Inline a definition when every argument is a plain name or number
        (its body sees only its parameters); else call its generated function."""
        decl = self.model.defines[name]
        texts = [self.visit(a, names) for a in args]
        if name not in self._inlining and all(_SIMPLE.match(t) for t in texts):
            inner = Names()
            for param, arg, text in zip(decl.params, args, texts):
                inner = inner.bind(param, text, self.type_of(arg, names))
            self._inlining.add(name)
            try:
                return self.visit(decl.expr, inner)
            finally:
                self._inlining.discard(name)
        return f"{self.define_function(name)}({', '.join(['st', *texts])})"

    def define_function(self, name: str) -> str:
        if name not in self._defines:
            decl = self.model.defines[name]
            fname = self._defines[name] = self.m.name("D")
            params = [self.m.name("p") for _ in decl.params]
            inner = Names()
            for param, text in zip(decl.params, params):
                inner = inner.bind(param, text)
            self._inlining.add(name)
            outer, self._in_text = self._in_text, False  # one function serves rules and texts alike
            try:
                body = self.visit(decl.expr, inner)
            finally:
                self._inlining.discard(name)
                self._in_text = outer
            lines = [(0, f"def {fname}({', '.join(['st', *params])}):", None), *_hoist(body, 1), (1, f"return {body}", decl.span)]
            self.m.add_function(fname, lines=lines, rule=f"define {name}")
        return self._defines[name]

    @visit.register(n.ListLit)
    def _(self, expr, names):
        return "[" + ", ".join(self.visit(i, names) for i in expr.items) + "]"

    @visit.register(n.MapLit)
    def _(self, expr, names):
        return "{" + ", ".join(f"{self.visit(k, names)}: {self.visit(v, names)}" for k, v in expr.items) + "}"

    @visit.register(n.Comprehension)
    def _(self, expr, names):
        loops = []
        for var, iterable in expr.loops:
            v = self.m.name("v")
            loops.append(self.iterate(iterable, names, v))
            names = names.bind(var, v, self.types.element(iterable, names.types))
        body = self.visit(expr.expr, names)
        cond = f" if {self.visit(expr.cond, names)}" if expr.cond is not None else ""
        return f"[{body} {' '.join(loops)}{cond}]"

    @visit.register(n.Arith)
    def _(self, expr, names):
        left, right = self.visit(expr.left, names), self.visit(expr.right, names)
        if expr.op == "+":
            lt, rt_ = self.type_of(expr.left, names), self.type_of(expr.right, names)
            if not (lt == rt_ == NUMBER or (lt in (CARDS, PLAYERS) and rt_ in (CARDS, PLAYERS))):
                return f"R_add({left}, {right})"
        return f"({left} {expr.op} {right})"

    @visit.register(n.Neg)
    def _(self, expr, names):
        return f"(-{self.visit(expr.operand, names)})"

    @visit.register(n.Compare)
    def _(self, expr, names):
        return f"({self.visit(expr.left, names)} {expr.op} {self.visit(expr.right, names)})"

    @visit.register(n.Contains)
    def _(self, expr, names):
        container = self.visit(expr.container, names)
        if isinstance(expr.container, n.Field) and self.field_type(expr.container.name) == "effects":
            if isinstance(expr.item, n.Name) and expr.item.name in self.model.effects and expr.item.name not in names.access:
                item = self.m.const(expr.item.name)  # `draw in c.effects` names the effect, even if a counter shares the name
            else:
                item = self.visit(expr.item, names)
            return f"({'not ' if expr.negate else ''}R_shows({item}, {container}))"
        return f"({self.visit(expr.item, names)} {'not in' if expr.negate else 'in'} {container})"

    @visit.register(n.IsKind)
    def _(self, expr, names):
        if expr.kind not in self._kind_sets:
            cards = frozenset(i for i, k in enumerate(self.p.card_kinds) if k == expr.kind)
            self._kind_sets[expr.kind] = self.m.value("X", cards)
        return f"({self.visit(expr.operand, names)} in {self._kind_sets[expr.kind]})"

    @visit.register(n.BoolOp)
    def _(self, expr, names):
        return "(" + f" {expr.op} ".join(self.visit(o, names) for o in expr.operands) + ")"

    @visit.register(n.Not)
    def _(self, expr, names):
        return f"(not {self.visit(expr.operand, names)})"

    @visit.register(n.Conditional)
    def _(self, expr, names):
        cond, then, otherwise = (self.visit(e, names) for e in (expr.cond, expr.then, expr.otherwise))
        return f"({then} if {cond} else {otherwise})"

    @visit.register(n.Aggregate)
    def _(self, expr, names):
        v = self.m.name("v")
        loop = self.iterate(expr.iterable, names, v)
        inner = names.bind(expr.var, v, self.types.element(expr.iterable, names.types))
        cond = self.visit(expr.cond, inner) if expr.cond is not None else None
        where = f" if {cond}" if cond is not None else ""
        op = expr.op
        if op == "count":
            return f"len([1 {loop}{where}])"
        if op == "any":
            return f"any(True {loop}{where})" if cond is None else f"any({cond} {loop})"
        if op == "every":
            return "True" if cond is None else f"all({cond} {loop})"
        body = self.visit(expr.expr, inner)
        values = f"[{body} {loop}{where}]"
        if op == "sum":
            return f"sum({values})"
        return f"R_{op}({values})"

    @visit.register(n.Rank)
    def _(self, expr, names):
        value = self.visit(expr.value, names)
        awards = self.visit(expr.awards, names)
        at_least = self.visit(expr.at_least, names) if expr.at_least is not None else "None"
        return f"R_rank(st, lambda: {value}, {awards}, {at_least}, {expr.ties == 'share'})"


def _fail(err, span):
    """The error to report for `err` raised while computing an expression at `span`."""
    if isinstance(err, RulesError):
        if any(d.span.source for d in err.diagnostics):
            return err
        return RulesRuntimeError([Diagnostic(d.severity, d.message, span, d.hint) for d in err.diagnostics])
    return RulesRuntimeError(f"rule failed: {err}", span)


def _hoist(body: str, indent: int) -> list:
    """Local names for the state's counters and zones, if the body reads them."""
    lines = []
    if re.search(r"\bctr\b", body):
        lines.append((indent, "ctr = st.ctr", None))
    if re.search(r"\bz\b", body):
        lines.append((indent, "z = st.z", None))
    return lines
