"""The symbols of a loaded game: every declaration and every use of a name in
its rules files and card data, with its place, resolved the way the checker and
the compiler resolve them (language/names.py).

Places are 1-based lines and columns counted in characters, the end column
exclusive, as in the front end's spans.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from .frontend import BUILTIN_NAMES, Visitor, resolve_call, resolve_name, resolve_owned
from .frontend import nodes as n

# Namespaces: those of names.py (the rules model's attribute names, "values",
# "functions" and "locals"), and those only the editor shows.
PARAM, COUNTER, ZONE, KIND, DEFINE = "params", "counters", "zones", "kinds", "defines"
EFFECT, PROCEDURE, ACTION, FIELD = "effects", "procedures", "actions", "fields"
FUNCTION, VALUE, LOCAL, FILE = "functions", "values", "locals", "files"
EVENT = "events"  # what a reaction answers: an `announce`d name or one the engine announces

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def normal_path(name: str) -> str:
    """One spelling per file: absolute, with `..` resolved."""
    return os.path.normpath(os.path.abspath(name))


def last_line(span, lines: list) -> int:
    """The last line a declaration's text is on (`lines`: of its file). Its
    span ends after the line break, which takes the comment and blank lines
    that follow."""
    last = span.end_line if span.end_column > 1 else span.end_line - 1
    last = min(last, len(lines))
    while last > span.line and (not lines[last - 1].strip() or lines[last - 1].lstrip().startswith("#")):
        last -= 1
    return max(last, span.line)


@dataclass(frozen=True)
class Occurrence:
    """A name at a place: declared there, or used."""

    path: str
    line: int
    column: int
    end_column: int
    symbol: tuple  # (namespace, name)
    declaration: bool = False
    override: bool = False  # declared with `override` in a file that extends another
    node: object = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.symbol[1]

    def contains(self, line: int, column: int) -> bool:
        return self.line == line and self.column <= column <= self.end_column


@dataclass
class LocalScope:
    """The local names (arguments, loop and `let` names) bound inside one
    top-level declaration."""

    path: str
    first_line: int
    last_line: int
    names: set


class SymbolIndex:
    def __init__(self):
        self.occurrences: list[Occurrence] = []
        self.scopes: list[LocalScope] = []

    def at(self, path: str, line: int, column: int) -> Occurrence | None:
        """The occurrence under a place (a cursor just after a name counts)."""
        found = [o for o in self.occurrences if o.path == path and o.contains(line, column)]
        if not found:
            return None
        inside = [o for o in found if o.column <= column < o.end_column]
        return (inside or found)[0]

    def of(self, symbol: tuple) -> list[Occurrence]:
        return [o for o in self.occurrences if o.symbol == symbol]

    def in_file(self, path: str) -> list[Occurrence]:
        return [o for o in self.occurrences if o.path == path]

    def locals_at(self, path: str, line: int) -> set:
        return {name for s in self.scopes if s.path == path and s.first_line <= line <= s.last_line for name in s.names}


def index_game(model, trees: dict, texts: dict, db=None, card_fields: dict | None = None) -> SymbolIndex:
    """Index the files of one game (`trees`: path -> parsed file, base first;
    `texts`: path -> text of each file, card data too) against its merged
    model, and the card data's effects and expressions. Lines are read from
    `texts`: a node reused from an earlier parse keeps an earlier Source."""
    indexer = _Indexer(model, texts)
    for path, tree in trees.items():
        for item in tree.items:
            indexer.top(item, path)
    if db is not None and card_fields:
        indexer.card_data(db, card_fields)
    # A place computed from a span can miss its name (an escaped quote before it in
    # a label, a card text over several lines): keep only places that show the name.
    indexer.index.occurrences = [o for o in indexer.index.occurrences
                                 if o.symbol[0] == FILE or _shows(indexer.lines(o.path), o)]
    return indexer.index


def _shows(lines, o: Occurrence) -> bool:
    return lines is not None and 0 < o.line <= len(lines) and lines[o.line - 1][o.column - 1:o.end_column - 1] == o.name


class _Indexer(Visitor):
    """Walks declarations (`visit(decl, override)`), statements and
    expressions (`visit(node, scope)`), one `visit_<Class>` each."""

    def __init__(self, model, texts: dict):
        self.model = model
        self.texts = texts
        self.index = SymbolIndex()
        self.path = ""
        self.bound: set = set()
        self._lines: dict = {}

    # -- recording
    def lines(self, path: str) -> list:
        if path not in self._lines:
            self._lines[path] = (self.texts.get(path) or "").splitlines()
        return self._lines[path]

    def add(self, place, name: str, namespace: str, declaration=False, override=False, node=None, length=None):
        if place is None or namespace is None:
            return
        path, line, column = place
        self.index.occurrences.append(Occurrence(path, line, column, column + (len(name) if length is None else length),
                                                 (namespace, name), declaration, override, node))

    def start(self, span):
        """The place of a name at the start of a span (a reference, a call)."""
        if not span.source or not span.line:
            return None
        return normal_path(span.filename), span.line, span.column

    def end(self, span, name: str):
        """The place of a name at the end of a span (`c.cost`, `c is kind`)."""
        if not span.source or not span.end_line:
            return None
        return normal_path(span.filename), span.end_line, span.end_column - len(name)

    def after(self, span, pattern: str, line_offset: int = 0):
        """The place of the first group of `pattern` on the span's first line
        (a declared name after its keyword, a quoted path)."""
        if not span.source or not span.line:
            return None
        lines = self.lines(normal_path(span.filename))
        number = span.line + line_offset
        if not 0 < number <= len(lines):
            return None
        text = lines[number - 1]
        match = re.compile(pattern).search(text, span.column - 1 if not line_offset else 0)
        if match is None:
            return None
        return normal_path(span.filename), number, match.start(1) + 1

    # -- declarations
    def top(self, item, path: str):
        self.path = path
        self.bound = set()
        self.visit(item, False)
        if self.bound and item.span.source:
            self.index.scopes.append(LocalScope(path, item.span.line, last_line(item.span, self.lines(path)), self.bound))

    def generic_visit(self, node, scope):
        """A declaration without names of its own (game, players); a
        statement or an expression without any: the names inside it."""
        if isinstance(node, n.Decl):
            return
        for child in n.children(node):
            self.expr(child, scope)

    def visit_Override(self, d, override):
        self.visit(d.decl, True)

    def visit_ParamDecl(self, d, override):
        self.add(self.after(d.span, r"\bparam\s+(\w+)"), d.name, PARAM, True, override, d)
        self.expr(d.value, set())

    def visit_CounterDecl(self, d, override):
        self.add(self.start(d.span), d.name, COUNTER, True, override, d)

    def visit_ZoneDecl(self, d, override):
        self.add(self.start(d.span), d.name, ZONE, True, override, d)

    def visit_KindDecl(self, d, override):
        self.add(self.after(d.span, r"\bkind\s+(\w+)"), d.name, KIND, True, override, d)
        declared = {fname for fname, _type in d.fields}
        for offset in range(1, d.span.end_line - d.span.line + 1):
            place = self.after(d.span, r"^\s*(\w+)\s*:", offset)
            if place is not None:
                name = self.lines(place[0])[place[1] - 1][place[2] - 1:].split(":")[0].strip()
                if name in declared:
                    self.add(place, name, FIELD, True, node=d)

    def visit_DefineDecl(self, d, override):
        self.add(self.after(d.span, r"\bdefine\s+(\w+)"), d.name, DEFINE, True, override, d)
        self.expr(d.expr, self.bind(d.params))

    def visit_EffectDecl(self, d, override):
        self.add(self.after(d.span, r"\beffect\s+(\w+)"), d.name, EFFECT, True, override, d)
        self.body(d.body, set())

    def visit_ProcedureDecl(self, d, override):
        self.add(self.after(d.span, r"\bprocedure\s+(\w+)"), d.name, PROCEDURE, True, override, d)
        self.body(d.body, self.bind(d.params))

    def visit_ActionDecl(self, d, override):
        self.add(self.after(d.span, r"\baction\s+(\w+)"), d.name, ACTION, True, override, d)
        self.expr(d.label, set())
        self.expr(d.when, set())
        self.body(d.body, set())

    def visit_SetupDecl(self, d, override):
        self.body(d.body, set())

    visit_TurnDecl = visit_HookDecl = visit_SetupDecl

    def visit_PhaseDecl(self, d, override):
        if d.order is not None:
            self.expr(d.order.expr, set())
        self.body(d.body, set())

    def visit_EmptyHookDecl(self, d, override):
        self.add(self.after(d.span, r"\bwhen\s+(\w+)"), d.zone, ZONE)
        self.body(d.body, set())

    def visit_ReactionDecl(self, d, override):
        self.add(self.after(d.span, r'"\s*to\s+(\w+)\s*(?:when\b|:)'), d.event, EVENT)
        scope = self.bind(d.params)
        self.expr(d.label, scope)
        self.expr(d.when, scope)
        self.body(d.body, scope)

    def visit_ScoreDecl(self, d, override):
        for term in d.terms:
            self.expr(term.expr, set())

    def visit_TiebreakDecl(self, d, override):
        for e in d.exprs:
            self.expr(e, set())

    def visit_TurnOrderDecl(self, d, override):
        self.expr(d.seats, set())

    def visit_CooperativeDecl(self, d, override):
        self.expr(d.best, set())

    def visit_TeamsDecl(self, d, override):
        self.expr(d.team, set())

    def visit_ShowDecl(self, d, override):
        if d.name != "cards":
            self.add(self.after(d.span, r"\bshow\s+(\w+)"), d.name, ZONE)
        self.expr(d.template, self.bind(("card",)))

    def visit_BoardDecl(self, d, override):
        self.add(self.start(d.span), d.name, KIND)
        self.expr(d.adjacent, self.bind((d.a, d.b)))

    def visit_MarkerDecl(self, d, override):
        self.expr(d.iterable, set())
        scope = self.bind((d.var,))
        self.expr(d.label, scope)
        self.expr(d.space, scope)

    def visit_CardsDecl(self, d, override):
        self.add(self.after(d.span, r"\binto\s+(\w+)"), d.zone, ZONE)
        self.file_link(d.span, r'\bcards\s+"([^"]*)"', d.path)
        if d.schema:
            self.file_link(d.span, r'\bschema\s+"([^"]*)"', d.schema)

    def visit_ExtendsDecl(self, d, override):
        self.file_link(d.span, r'\bextends\s+"([^"]*)"', d.path)

    def file_link(self, span, pattern, relative):
        place = self.after(span, pattern)
        if place is not None:
            target = normal_path(os.path.join(os.path.dirname(place[0]), relative))
            self.add(place, target, FILE, length=len(relative))

    def bind(self, names) -> set:
        self.bound.update(names)
        return set(names)

    # -- statements
    def body(self, stmts, scope: set):
        scope = set(scope)
        for s in stmts:
            self.visit(s, scope)

    def visit_Gain(self, s, scope):
        self.expr(s.amount, scope)
        self.ref(s.target, COUNTER, scope)

    visit_Pay = visit_Lose = visit_Gain

    def visit_SetCounter(self, s, scope):
        self.expr(s.value, scope)
        builtin = s.target.name in BUILTIN_NAMES and s.target.name not in self.model.counters
        self.ref(s.target, VALUE if builtin else COUNTER, scope)

    def visit_Move(self, s, scope):
        self.expr(s.cards, scope)
        self.ref(s.dest, ZONE, scope)

    def visit_Deal(self, s, scope):
        self.expr(s.count, scope)
        self.ref(s.source, ZONE, scope)
        self.ref(s.dest, ZONE, scope)

    def visit_Shuffle(self, s, scope):
        self.ref(s.zone, ZONE, scope)

    visit_Slide = visit_Shuffle

    def visit_Refill(self, s, scope):
        self.ref(s.zone, ZONE, scope)
        self.ref(s.source, ZONE, scope)

    def visit_CallStmt(self, s, scope):
        namespace = EFFECT if s.name in self.model.effects else PROCEDURE if s.name in self.model.procedures else None
        self.add(self.start(s.span), s.name, namespace)
        for a in s.args:
            self.expr(a, scope)

    def visit_Let(self, s, scope):
        self.expr(s.value, scope)
        scope.add(s.name)
        self.bound.add(s.name)

    def visit_If(self, s, scope):
        for cond, body in s.branches:
            self.expr(cond, scope)
            self.body(body, scope)
        self.body(s.else_body, scope)

    def visit_ForEach(self, s, scope):
        self.expr(s.iterable, scope)
        inner = scope | self.bind((s.var,))
        self.expr(s.cond, inner)
        self.body(s.body, inner)

    visit_PickRandom = visit_ForEach

    def visit_Choose(self, s, scope):
        self.expr(s.iterable, scope)
        inner = scope | self.bind((s.var,))
        self.expr(s.cond, inner)
        self.expr(s.label, inner)
        self.expr(s.else_label, scope)
        self.body(s.body, inner)
        self.body(s.else_body, scope)

    def visit_RepeatWhile(self, s, scope):
        self.expr(s.cond, scope)
        self.body(s.body, scope)

    def visit_RepeatTimes(self, s, scope):
        self.expr(s.count, scope)
        self.body(s.body, scope)

    def visit_May(self, s, scope):
        self.expr(s.label, scope)
        if s.else_label is not None:
            self.expr(s.else_label, scope)
        self.body(s.body, scope)
        self.body(s.else_body, scope)

    def visit_Announce(self, s, scope):
        self.add(self.after(s.span, r"\bannounce\s+(\w+)"), s.event, EVENT, node=s)
        for a in s.args:
            self.expr(a, scope)
        self.expr(s.start, scope)

    def visit_ActAs(self, s, scope):
        self.expr(s.player, scope)
        self.body(s.body, scope)

    def ref(self, ref: n.Ref, namespace: str, scope):
        self.add(self.start(ref.span), ref.name, namespace)
        self.expr(ref.owner, scope)

    # -- expressions
    def expr(self, e, scope):
        if e is not None:
            self.visit(e, scope)

    def visit_Name(self, e, scope):
        self.add(self.start(e.span), e.name, resolve_name(e.name, self.model, scope))

    def visit_NameOf(self, e, scope):
        self.add(self.start(e.span), e.name, resolve_owned(e.name, self.model))
        self.expr(e.owner, scope)

    def visit_Call(self, e, scope):
        m = self.model
        # (a call of an effect or a procedure is an error, but the editor still finds it)
        namespace = resolve_call(e.name, m) or (EFFECT if e.name in m.effects
                                                else PROCEDURE if e.name in m.procedures else None)
        self.add(self.start(e.span), e.name, namespace)
        for a in e.args:
            self.expr(a, scope)
        if e.name == "has" and len(e.args) == 2 and isinstance(e.args[1], n.Literal) and isinstance(e.args[1].value, str):
            quoted = self.start(e.args[1].span)
            if quoted is not None:
                self.add((quoted[0], quoted[1], quoted[2] + 1), e.args[1].value, FIELD)

    def visit_Field(self, e, scope):
        self.expr(e.obj, scope)
        self.add(self.end(e.span, e.name), e.name, FIELD)

    def visit_IsKind(self, e, scope):
        self.expr(e.operand, scope)
        self.add(self.end(e.span, e.kind), e.kind, KIND)

    def visit_Aggregate(self, e, scope):
        self.expr(e.iterable, scope)
        inner = scope | self.bind((e.var,))
        self.expr(e.expr, inner)
        self.expr(e.cond, inner)

    def visit_Comprehension(self, e, scope):
        inner = set(scope)
        for var, iterable in e.loops:
            self.expr(iterable, inner)
            inner |= self.bind((var,))
        self.expr(e.expr, inner)
        self.expr(e.cond, inner)

    def visit_Template(self, e, scope):
        for part in e.parts:
            if not isinstance(part, str):
                self.expr(part, scope)

    # -- card data
    def card_data(self, db, card_fields: dict):
        """Effects named by cards, and names read by card expressions."""
        self.bound = set()
        for values in card_fields.values():
            for value in values:
                if isinstance(value, n.EffectList):
                    for item in value.items:
                        self.effect_item(item)
                elif isinstance(value, dict):
                    for expr in value.values():
                        self.expr(expr, set())
                elif isinstance(value, n.Node):
                    self.expr(value, set())

    def effect_item(self, item: n.EffectItem):
        span = item.span
        if not span.source or span.line != span.end_line:
            return
        text = self.lines(normal_path(span.filename))[span.line - 1][span.column - 1:span.end_column - 1]
        path = normal_path(span.filename)
        for match in _WORD.finditer(text):
            if match.group() in self.model.effects:
                self.add((path, span.line, span.column + match.start()), match.group(), EFFECT)
