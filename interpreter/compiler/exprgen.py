"""Expressions of the checked AST as Python expression source.

`ExprGen.gen(expr, names)` returns the text of one Python expression over the
generated function's locals (`st`, `L`, `ctr`, `z`) and namespace constants.
Counters, zones and card fields become list subscripts with indices fixed at
compile time; definitions are inlined at their call sites when their
arguments are plain names, else called as generated functions.
"""
from __future__ import annotations

import re
from contextlib import ExitStack

from .. import limits
from ..language.builtins import FUNCTIONS, VALUES
from ..language import nodes as n
from ..language.names import LOCALS, resolve_name
from ..language.reads import names_used, withheld_word
from ..language.types import Types
from ..language.value_types import CARD, CARDS, NUMBER, PLAYER, PLAYERS
from ..language.visitor import Visitor
from ..runtime import helpers as rt
from ..runtime import values as rv
from ..runtime.failures import blame
from .blocks import state_locals
from .hoist import KEYS, Hoister, group_parts, lifted
from .listfacts import ListFacts
from .scope import Names
from . import extremes, fusion
from .tables import Tables

_SIMPLE = re.compile(r"^(L\[\d+\]|[vtsp]\d+|-?\d+|st\.me|K\d+|None|True|False)$")
_ELEMENT_KIND = {CARD: "card", PLAYER: "player"}
# Aggregates of a field over one group of cards (values.py `of_group`): the operation, and its value for no card.
_OF_GROUP = {"sum": "sum, 0", "lowest": "min, None", "highest": "max, None"}
INLINE_LIMIT = limits.INLINE_CODE


class ExprGen(ListFacts, Visitor):
    """Turns expressions into Python source; knows the program's layout."""

    def __init__(self, program, model, module, types: Types, coverage: bool = False):
        self.p = program
        # Coverage: each rule counts its runs (RuleGen.generate), and every
        # field read goes through R_read, which counts the card in the
        # state's coverage. Only a program compiled for coverage does this;
        # the texts people read (labels, `show`) are not uses and are never
        # counted.
        self.coverage = coverage
        self._in_text = False
        self.model = model
        self.module = module
        self.types = types
        self._fields: dict = {}  # field name -> namespace name of its per-card list
        self._kind_sets: dict = {}
        self._defines: dict = {}  # define name -> generated function name
        self._define_sizes: dict = {}  # define name -> length of its generated code, once generated
        self._depth = 0  # loops of the expression being generated that enclose the current point
        # Loop variables walking a slotted zone's slots -> [what is walked, the
        # name of its slot number if `slot(var)` was asked for, else None,
        # how many slots the zone has (the slot numbers a walk gives: 0 to that less 1)].
        self._slots: dict = {}
        self._inlining: set = set()
        self._uses: dict = {}
        self._same_tables: dict = {}  # field name -> namespace name of its table of first cards with the same value
        # Sub-expressions of loops computed once per value (hoist.py); not where
        # every read of a card is counted, since a value kept is a read not made.
        self.hoist = Hoister(module, self._same, enabled=not coverage)
        self.tables = Tables(self, module, enabled=not coverage)  # expressions of card data (tables.py)
        for name in ("add", "times", "sized", "highest", "lowest", "shows", "rank", "rank_row", "render", "render_player",
                     "memo", "told", "public", "only", "group", "in_group", "of_group",
                     "extremes"):
            module.helper(f"R_{name}", getattr(rv, name))
        module.helper("R_steps", rt.steps)
        module.helper("R_fail", blame)  # the error to report, for an error computing an expression
        for name, b in [*FUNCTIONS.items(), *VALUES.items()]:
            module.helper(f"B_{name}", b.fn)

    # ------------------------------------------------------------ entry points
    def gen(self, expr: n.Expr, names: Names) -> str:
        return self.visit(expr, names)

    def visit(self, node, *args):
        """The source of `node`, or the use of a memo computing it once for
        the loops around it where it is worth it (hoist.py), or of a table
        of its values where it reads only card data (tables.py)."""
        if args and self.tables.candidate(node, args[0]):
            text = self.tables.generate(node, args[0], super().visit)
        else:
            text = super().visit(node, *args)
        return self.hoist.hoisted(text) if self.hoist.frames else text

    def type_of(self, expr, names: Names):
        return self.types.of(expr, names.types)

    def element_kind(self, expr, names: Names):
        """'card' or 'player' if `expr` is a list of cards or players (option ids)."""
        return _ELEMENT_KIND.get(self.types.element(expr, names.types))

    def scalar_kind(self, expr, names: Names):
        return _ELEMENT_KIND.get(self.type_of(expr, names))

    def template(self, tmpl: n.Template, names: Names) -> str:
        """A text with `{...}` parts; a player is written as people count
        players ("player 2"), a value of any other kind as `render` writes it.
        Where a part reads cards (language/reads.py), the text is a
        `runtime.Told`, keeping beside each such part the cards it read, so
        each viewer is told it only if it sees them (visibility.told_to)."""
        parts, sourced = [], False
        outer, self._in_text = self._in_text, True
        try:
            for part in tmpl.parts:
                if isinstance(part, str):
                    parts.append(self.module.const(part))
                    continue
                text = (f"R_render_player({self.visit(part, names)})" if self.type_of(part, names) in (PLAYER, PLAYERS)
                        else f"R_render({self.visit(part, names)})")
                sources = self.card_sources(part, names)
                if names.secret & names_used(part):  # read from a secret choice: its player's alone
                    sources = ", ".join(filter(None, (sources, "R_only(st.me)")))
                if sources:
                    sourced = True
                    text = f"({text}, ({sources},), {self.module.const(withheld_word(part, names.types, self.types))})"
                parts.append(text)
        finally:
            self._in_text = outer
        if not parts:
            return self.module.const("")
        if sourced:
            return f"R_told(({', '.join(parts)},))"
        return parts[0] if len(parts) == 1 and isinstance(tmpl.parts[0], str) else "(" + " + ".join(parts) + ")"

    def function(self, expr, names: Names, rule: str, span=None, template=False, name: str | None = None) -> str:
        """A generated function `(st, L)` returning the expression's value (or
        the template's text), named `name` or after `rule` (a name made only of
        the rules' identifiers: free text such as a score label stays out of
        it); errors come out located at `span`."""
        tested = None if template else self.returned(expr, names)
        body = self.template(expr, names) if template else tested[1] if tested else self.visit(expr, names)
        fname = self.module.function_name(name or f"{rule} {'label' if template else 'value'}")
        where = self.module.const(span or expr.span)
        returned = [(d + 2, t, span or expr.span) for d, t in tested[0]] if tested else [(2, f"return {body}", span or expr.span)]
        head, returned = state_locals(returned)
        lines = [(0, f"def {fname}(st, L=None):", None), *head, (1, "try:", None),
                 *returned, (1, "except Exception as t0:", None),
                 (2, f"raise R_fail(t0, {where}) from t0", None)]
        self.module.add_function(fname, rule, lines, span or expr.span)
        return fname

    # ------------------------------------------------------------ visitors
    def visit_Literal(self, expr, names):
        return self.literal(expr.value)

    def literal(self, value) -> str:
        """Source for a constant: None, yes/no and numbers as themselves (a
        negative one in brackets), anything else (texts, lists, maps) by name."""
        if value is None or isinstance(value, bool):
            return repr(value)
        if isinstance(value, int) and abs(value) < 1 << 62:
            return repr(value) if value >= 0 else f"({value})"
        return self.module.const(value)

    def visit_Template(self, expr, names):
        return self.template(expr, names)

    def visit_Name(self, expr, names):
        name = expr.name
        namespace = resolve_name(name, self.model, names.access)
        if namespace == LOCALS:
            return names.access[name]
        p = self.p
        if namespace == "params":
            return self.literal(p.params[name])
        if namespace == "counters":
            info = p.counters[name]
            return f"ctr[{info.index}][0]" if info.scope == "shared" else f"ctr[{info.index}][st.me]"
        if namespace == "zones":
            info = p.zones[name]
            return self.zone_cards(info, "" if info.scope == "shared" else " + st.me")
        if namespace == "defines":
            return self.call_define(name, (), names)
        if namespace == "effects":
            return self.module.const(name)
        value = VALUES[name]
        return value.source or f"B_{name}(st)"

    def iterate(self, expr, names: Names, var: str) -> str:
        """`for VAR in ...` clause of a comprehension over the values of `expr`.
        Inside another loop of the expression, the values are counted against
        the step budget, unless they are a zone's (a zone holds at most every card)."""
        source, guard = self.loop(expr, names, var)
        if self._depth and not self._is_zone(expr, names):
            source = f"R_steps(st, {source}, {self.module.const(expr.span)})"
        return f"for {var} in {source}" + (f" if {guard}" if guard else "")

    def numbered(self, text: str, var: str) -> str:
        """`text`, holding the loop `for VAR in` a slotted zone, with the loop
        numbering the slots if `slot(VAR)` was asked for inside it: the slot
        is the loop's count, not a search of the zone for the card (nothing
        moves while an expression is evaluated)."""
        source, number, _ = self._slots.pop(var, (None, None, None))
        if number is None:
            return text
        return text.replace(f"for {var} in {source}", f"for {number}, {var} in enumerate({source})", 1)

    def _is_zone(self, expr, names: Names) -> bool:
        if isinstance(expr, n.Name):
            return expr.name not in names.access and expr.name in self.p.zones
        return isinstance(expr, n.NameOf) and expr.name in self.p.zones

    def loop(self, expr, names: Names, var: str):
        """(what to iterate, condition each value must meet or None) for the
        values of `expr`: a slotted zone is walked as it is, skipping its
        empty slots, instead of being copied."""
        info = self._slotted_zone(expr, names)
        if info is None:
            return self.visit(expr, names), None
        source = self.zone_cards(info, self._zone_offset(expr, names), raw=True)
        self._slots[var] = [source, None, info.slots]  # `slot(var)` inside the loop is its count (see `numbered`)
        return source, f"{var} is not None"

    def _zone_offset(self, expr, names: Names) -> str:
        """The owner part of a zone instance index, for a zone named by `expr`."""
        info = self.p.zones[expr.name]
        if info.scope == "shared":
            return ""
        return " + st.me" if isinstance(expr, n.Name) else f" + {self.visit(expr.owner, names)}"

    def returned(self, expr, names: Names):
        """(statement lines returning the value of `expr`, their text) where
        they do better than returning the expression: `any x in L where C`
        returning at the first match (`tested`), or a fold of a list walked
        by a loop, making no list (fusion.fold_lines); else None."""
        tested = self.tested(expr, names)
        if tested is not None:
            return tested
        folded = fusion.fold_lines(self, expr, names)
        if folded is None:
            return None
        lines = [*folded[0], (0, f"return {folded[1]}")]
        return lines, "\n".join(text for _, text in lines)

    def tested(self, expr, names: Names):
        """(statement lines returning the value, their text) for `any x in L
        where C`, the body of a function of its own: a loop that returns at
        the first match, with no generator; else None."""
        target = fusion.defined(self, expr, names)[0]  # (through definitions without parameters, as test_lines)
        if not (isinstance(target, n.Aggregate) and target.op == "any" and target.cond is not None):
            return None
        lines = [*self.test_lines(expr, names, "return True"), (0, "return False")]
        return lines, "\n".join(text for _, text in lines)

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
            lists = fusion.parts(self, expr.iterable, names)
            if len(lists) > 1:  # a concatenation: walked part after part (fusion.py)
                test = (expr.var, self.types.element(expr.iterable, names.types), expr.cond, names)
                return fusion.any_lines(self, lists, test, then)
            v = self.module.name("v")
            source, guard = self.loop(expr.iterable, names, v)
            inner = names.bind(expr.var, v, self.types.element(expr.iterable, names.types))
            self._depth += 1  # inside the loop (as visit_Aggregate): a loop of the condition counts its steps
            try:
                with self.hoist.loop(v) as frame:
                    tops = extremes.filtered(self, expr.iterable, names, v, expr.cond, inner)
                    source, cond = tops if tops is not None else (source, self.visit(expr.cond, inner))
            finally:
                self._depth -= 1
            steady, tests = lifted(self.module, [] if cond is None else [cond])
            tests = ([guard] if guard else []) + tests
            body = [(0, then), *([] if then.startswith("return ") else [(0, "break")])]
            if tests:
                body = [(0, f"if {' and '.join(tests)}:"), *((d + 1, t) for d, t in body)]
            return [*((0, line) for line in [*steady, *frame.lines()]), (0, self.numbered(f"for {v} in {source}:", v)),
                    *((d + 1, t) for d, t in body)]
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
            v = self.module.name("v")
            return f"[{v} for {v} in {where} if {v} is not None]"
        return where

    def visit_NameOf(self, expr, names):
        owner = self.visit(expr.owner, names)
        if expr.name in self.p.counters:
            return f"ctr[{self.p.counters[expr.name].index}][{owner}]"
        return self.zone_cards(self.p.zones[expr.name], f" + {owner}")

    def visit_Field(self, expr, names):
        obj = self.visit(expr.obj, names)
        if self.coverage and not self._in_text:
            obj = f"R_read(st, {obj})"
        values = self.field_list(expr.name)
        if self.field_type(expr.name) == "expression":
            return f"{values}[{obj}](st)"
        return f"{values}[{obj}]"

    def field_list(self, name: str) -> str:
        """The namespace name of a field's list of values, indexed by card; a
        card without the field holds a value whose every use is an error."""
        if name not in self._fields:
            self._fields[name] = self.module.named_value(f"field {name}", self._filled(name))
            self.module.lets[self._fields[name]] = name
        return self._fields[name]

    def _filled(self, name: str) -> list:
        values = self.p.fields.get(name) or [None] * len(self.p.card_ids)
        return [rv.Missing(self.p.card_names[i], name) if v is None else v for i, v in enumerate(values)]

    def refresh_fields(self) -> None:
        """Copy the program's field values (now with functions for card
        expressions) into the lists generated code reads."""
        for name, ns_name in self._fields.items():
            self.module.ns[ns_name][:] = self._filled(name)

    def _same(self, values: str):
        """The namespace name of a table giving, for each card, the first card
        with the same value of the field whose list is `values` (itself if it
        has no value); None for a field of expressions, or a list that is no
        field's."""
        name = next((f for f, ns in self._fields.items() if ns == values), None)
        if name is None or self.field_type(name) in ("expression", "expression map"):
            return None
        if name not in self._same_tables:
            first, table = {}, []
            for card, value in enumerate(self.p.fields.get(name) or [None] * len(self.p.card_ids)):
                table.append(card if value is None else first.setdefault((type(value), repr(value)), card))
            self._same_tables[name] = self.module.named_value(f"same {name}", table)
        return self._same_tables[name]

    def field_type(self, name):
        for kind in self.model.kinds.values():
            for fname, ftype in kind.fields:
                if fname == name:
                    return ftype
        return None

    def visit_Index(self, expr, names):
        obj = self.visit(expr.obj, names)
        index = self.visit(expr.index, names)
        if isinstance(expr.obj, n.Field) and self.field_type(expr.obj.name) == "expression map":
            return f"{obj}[{index}](st)"
        return f"{obj}[{index}]"

    def visit_Call(self, expr, names):
        if expr.name in self.model.defines:
            return self.call_define(expr.name, expr.args, names)
        if expr.name == "size" and len(expr.args) == 1:
            info = self._slotted_zone(expr.args[0], names)
            if info is not None:  # the cards in a slotted zone: its slots less its gaps
                where = self.zone_cards(info, self._zone_offset(expr.args[0], names), raw=True)
                return f"({info.slots} - {where}.count(None))"
        args = [self.visit(a, names) for a in expr.args]
        if expr.name == "slot" and args[0] in self._slots:  # a card met walking a slotted zone
            walk = self._slots[args[0]]
            if walk[1] is None:
                walk[1] = self.module.name("v")
                self.hoist.slot(args[0], walk[1])
            return walk[1]
        inline = FUNCTIONS[expr.name].inline_for(args, all(_SIMPLE.match(a) for a in args))
        if inline is not None:
            return f"({inline})"
        return f"B_{expr.name}(st, {', '.join(args)})"

    def call_define(self, name, args, names: Names) -> str:
        """Inline a definition when every argument is a plain name or number
        (its body sees only its parameters) and its code is short; else call
        its generated function. Each definition's function is generated once
        and only short ones are copied, so the code grows with the rules, not
        with the ways definitions use one another."""
        inner, texts = self.inlined(name, args, names)
        if inner is not None:
            self._inlining.add(name)
            try:
                return self.visit(self.model.defines[name].expr, inner)
            finally:
                self._inlining.discard(name)
        return f"{self.define_function(name)}({', '.join(['st', *texts])})"

    def inlined(self, name, args, names: Names) -> tuple:
        """(the names the body of definition `name` is generated with where its
        call with `args` is written out in place, else None; the arguments' texts)."""
        decl = self.model.defines[name]
        texts = [self.visit(a, names) for a in args]
        if (name in self._inlining or not all(_SIMPLE.match(t) for t in texts)
                or self._define_size(name) > INLINE_LIMIT):
            return None, texts
        inner = Names()
        for param, arg, text in zip(decl.params, args, texts):
            inner = inner.bind(param, text, self.type_of(arg, names))
        return inner, texts

    def _define_size(self, name: str) -> int:
        if name not in self._define_sizes:
            self.define_function(name)
        return self._define_sizes.get(name, 0)  # 0 while it is being generated

    def define_function(self, name: str) -> str:
        if name not in self._defines:
            decl = self.model.defines[name]
            fname = self._defines[name] = self.module.function_name(f"define {name}")
            params = [self.module.name("p") for _ in decl.params]
            inner = Names()
            given = self.types.parameters("define", decl)
            for param, text in zip(decl.params, params):
                inner = inner.bind(param, text, given[param])
            self._inlining.add(name)
            outer, self._in_text = self._in_text, False  # one function serves rules and texts alike
            try:
                with self.hoist.scope([]):
                    tested = self.returned(decl.expr, inner)
                    body = tested[1] if tested else self.visit(decl.expr, inner)
            finally:
                self._inlining.discard(name)
                self._in_text = outer
            self._define_sizes[name] = len(body)
            # Each call counts as a step, so definitions that call one another
            # without end, or twice over at every level, are stopped in time.
            where = self.module.const(decl.span)
            returned = [(d + 1, t, decl.span) for d, t in tested[0]] if tested else [(1, f"return {body}", decl.span)]
            head, returned = state_locals(returned)
            lines = [(0, f"def {fname}({', '.join(['st', *params])}):", None), *head,
                     (1, "st.steps += 1", None), (1, f"if st.steps > BUDGET: R_runaway(st, {where})", None),
                     *returned]
            self.module.add_function(fname, f"define {name}", lines, decl.span)
        return self._defines[name]

    def visit_ListLit(self, expr, names):
        return "[" + ", ".join(self.visit(i, names) for i in expr.items) + "]"

    def visit_Range(self, expr, names):
        """`a..b`: counted by its length first, so a range past the items
        budget stops the rule before it is made."""
        return f"list(R_sized(range({self.visit(expr.low, names)}, {self.visit(expr.high, names)} + 1)))"

    def visit_MapLit(self, expr, names):
        return "{" + ", ".join(f"{self.visit(k, names)}: {self.visit(v, names)}" for k, v in expr.items) + "}"

    def visit_Comprehension(self, expr, names):
        loops, loop_vars = [], []
        depth = self._depth
        try:
            with ExitStack() as frames:
                for var, iterable in expr.loops:
                    v = self.module.name("v")
                    loop_vars.append(v)
                    loops.append((self.iterate(iterable, names, v), frames.enter_context(self.hoist.loop(v))))
                    outer, names = names, names.bind(var, v, self.types.element(iterable, names.types))
                    self._depth = depth + 1
                body = self.visit(expr.expr, names)
                tops = extremes.filtered(self, iterable, outer, v, expr.cond, names) if len(expr.loops) == 1 else None
                if tops is not None:
                    loops[0] = (f"for {v} in {tops[0]}", loops[0][1])
                    cond = f" if {tops[1]}" if tops[1] is not None else ""
                else:
                    cond = f" if {self.visit(expr.cond, names)}" if expr.cond is not None else ""
                loops = [frame.clauses() + loop for loop, frame in loops]
        finally:
            self._depth = depth
        text = f"[{body} {' '.join(loops)}{cond}]"
        for var in loop_vars:
            text = self.numbered(text, var)
        return text

    def visit_Arith(self, expr, names):
        left, right = self.visit(expr.left, names), self.visit(expr.right, names)
        if expr.op == "+":
            lt, rt_ = self.type_of(expr.left, names), self.type_of(expr.right, names)
            if not (lt == rt_ == NUMBER or (lt in (CARDS, PLAYERS) and rt_ in (CARDS, PLAYERS))):
                sizes = self._longest(expr.left, names), self._longest(expr.right, names)
                if None not in sizes and sum(sizes) <= rv.ITEMS:
                    return f"({left} + {right})"  # two new lists, whose sizes together stay within the budget
                return f"R_add({left}, {right})"
            if lt != NUMBER and not self.distinct(expr, names):  # a list that may repeat cards may keep growing
                return f"R_sized({left} + {right})"
        elif expr.op == "*" and not (self._constant(expr.left, names) or self._constant(expr.right, names)):
            # the one operation whose result may have many more digits than its operands (a product
            # by a number written in the rules grows by at most 18 digits a call)
            return f"R_times({left}, {right})"
        return f"({left} {expr.op} {right})"

    def _longest(self, expr, names: Names):
        """The most items of the new list `expr` makes, where it is known at
        compile time (a list written out; a comprehension going once through
        a zone, which holds no more than every card), else None: two such
        lists within the items a rule may build are added with no count."""
        if isinstance(expr, n.ListLit):
            return len(expr.items)
        if isinstance(expr, n.Comprehension) and len(expr.loops) == 1 and self._is_zone(expr.loops[0][1], names):
            return len(self.p.card_ids)
        return None

    def _constant(self, expr, names: Names) -> bool:
        """Whether `expr` is a number written in the rules: a literal, a
        parameter, an item of a parameter's list."""
        if isinstance(expr, n.Index):
            expr = expr.obj
        if isinstance(expr, n.Neg):
            expr = expr.operand
        return isinstance(expr, n.Literal) or (isinstance(expr, n.Name) and expr.name not in names.access
                                                and expr.name in self.p.params)

    def visit_Neg(self, expr, names):
        return f"(-{self.visit(expr.operand, names)})"

    def visit_Compare(self, expr, names):
        return f"({self.visit(expr.left, names)} {expr.op} {self.visit(expr.right, names)})"

    def shown_effect(self, expr, names=None):
        """For `E in c.effects` (a list of effects), the effect's name where
        E names one, "" where E is another expression; else None."""
        if not (isinstance(expr.container, n.Field) and self.field_type(expr.container.name) == "effects"):
            return None
        item = expr.item
        # `draw in c.effects` names the effect, even if a counter shares the name
        named = isinstance(item, n.Name) and item.name in self.model.effects
        return item.name if named and (names is None or item.name not in names.access) else ""

    def visit_Contains(self, expr, names):
        container = self.visit(expr.container, names)
        shown = self.shown_effect(expr, names)
        if shown is not None:
            item = self.module.const(shown) if shown else self.visit(expr.item, names)
            return f"({'not ' if expr.negate else ''}R_shows({item}, {container}))"
        return f"({self.visit(expr.item, names)} {'not in' if expr.negate else 'in'} {container})"

    def visit_IsKind(self, expr, names):
        if expr.kind not in self._kind_sets:
            cards = frozenset(i for i, k in enumerate(self.p.card_kinds) if k == expr.kind)
            self._kind_sets[expr.kind] = self.module.named_value(f"kind {expr.kind}", cards)
        return f"({self.visit(expr.operand, names)} in {self._kind_sets[expr.kind]})"

    def visit_BoolOp(self, expr, names):
        return "(" + f" {expr.op} ".join(self.hoist.merged([self.visit(o, names) for o in expr.operands], expr.op)) + ")"

    def visit_Not(self, expr, names):
        return f"(not {self.visit(expr.operand, names)})"

    def visit_Conditional(self, expr, names):
        cond, then, otherwise = (self.visit(e, names) for e in (expr.cond, expr.then, expr.otherwise))
        return f"({then} if {cond} else {otherwise})"

    def visit_Aggregate(self, expr, names):
        grouped = self._grouped(expr, names)
        if grouped is not None:
            return grouped
        v = self.module.name("v")
        loop = self.iterate(expr.iterable, names, v)
        inner = names.bind(expr.var, v, self.types.element(expr.iterable, names.types))
        self._depth += 1
        try:
            with self.hoist.loop(v) as frame:
                tops = extremes.filtered(self, expr.iterable, names, v, expr.cond, inner)
                if tops is not None:
                    loop, cond = f"for {v} in {tops[0]}", tops[1]
                else:
                    cond = self.visit(expr.cond, inner) if expr.cond is not None else None
                body = self.visit(expr.expr, inner) if expr.expr is not None else None
            loop = frame.clauses() + loop
        finally:
            self._depth -= 1
        return self.numbered(self._aggregate(expr.op, body, cond, loop), v)

    def _grouped(self, expr, names):
        """An aggregate inside another loop going through one group of a
        zone's cards by a field (hoist.group_parts), or None."""
        parts = group_parts(expr, names.access.__contains__)
        if (parts is None or not self.hoist.inside() or not self._is_zone(expr.iterable, names)
                or self._slotted_zone(expr.iterable, names) is not None or self.field_type(parts[0]) is not None
                or not all(isinstance(x, KEYS) for x in self.p.fields.get(parts[0]) or ())):
            return None
        field, key, rest = parts
        table = self.hoist.hoisted(f"R_group({self.visit(expr.iterable, names)}, {self.field_list(field)})", always=True)
        source = f"R_in_group({table}, {self.visit(key, names)})"
        v = self.module.name("v")
        inner = names.bind(expr.var, v, self.types.element(expr.iterable, names.types))
        self._depth += 1
        try:
            with self.hoist.loop(v) as frame:
                cond = "(" + " and ".join(self.hoist.merged([self.visit(c, inner) for c in rest], "and")) + ")"
                body = self.visit(expr.expr, inner) if expr.expr is not None else None
            loop = frame.clauses() + f"for {v} in {source}"
        finally:
            self._depth -= 1
        if expr.op == "count" and not rest:
            return f"len({source})"
        if expr.op in _OF_GROUP and not rest and isinstance(expr.expr, n.Field) and body == f"{self.field_list(expr.expr.name)}[{v}]":
            # (a field's values over the group, gone through in C: no comprehension, no list)
            return f"R_of_group({table}, {self.visit(key, names)}, {self.field_list(expr.expr.name)}, {_OF_GROUP[expr.op]})"
        return self._aggregate(expr.op, body, cond if rest else None, loop)

    @staticmethod
    def _aggregate(op, body, cond, loop) -> str:
        where = f" if {cond}" if cond is not None else ""
        if op == "count":
            return f"len([1 {loop}{where}])"
        if op == "any":
            return f"any(True {loop}{where})" if cond is None else f"any({cond} {loop})"
        if op == "every":
            return "True" if cond is None else f"all({cond} {loop})"
        values = f"[{body} {loop}{where}]"
        if op == "sum":
            return f"sum({values})"
        return f"R_{op}({values})"

    def visit_Rank(self, expr, names):
        with self.hoist.scope([None]):  # evaluated as each player in turn: nothing in it leaves the lambda
            value = self.visit(expr.value, names)
        awards = self.visit(expr.awards, names)
        at_least = self.visit(expr.at_least, names) if expr.at_least is not None else "None"
        share = expr.ties == 'share'
        row = _OWN_ROW.fullmatch(value)
        if row is not None:  # a counter each player has, as the acting player: ranked from its row
            return f"R_rank_row(st, ctr[{row.group(1)}], {awards}, {at_least}, {share})"
        return f"R_rank(st, lambda: {value}, {awards}, {at_least}, {share})"


# A player counter read as the acting player (`visit_Name`).
_OWN_ROW = re.compile(r"ctr\[(\d+)\]\[st\.me\]")
