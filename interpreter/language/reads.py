"""Which cards a part of a text reads: what a viewer must see to be told it.

A label or a story line is told to every player, but a value in it that is,
or is read from, the face of a card a player may not see must be withheld
from that player ("take {c.name}", "{price(c)} gold", "{sum x.cost for x in
hand}"). `card_sources(expr, scope, types, model)` finds, for one `{...}`
part of a template, the expressions whose cards it reads the face of: a
card field (`c.cost`), a kind test (`c is KIND`), a comparison of cards,
or the card itself written out. What lies on a card's back or around it is
no face: its place (`slot(c)`), the counters on it, its owner, how many
cards a list holds.

A face read through a comprehension's variable reads the list it goes
through (`sum x.cost for x in hand` reads `hand`); one through a
definition's parameter reads the argument (`price(c)` reads `c` if the body
of `price` reads `c.cost`); a definition is followed into its body, where
what it reads through names of its own (`top(deck).cost`) is read too.

Each source is (expression, inside): `inside` is None for an expression of
the part's own scope, else the name of the definition whose body holds it
(it uses no local name there, so it is evaluated with none).
"""
from __future__ import annotations

from . import nodes as n
from .value_types import CARD, CARDS


def card_sources(expr, scope: dict, types, model) -> list:
    """The sources of the card faces `expr` reads (see the module docstring)."""
    walk, sc = _Walk(types, model), _Scope(scope, {}, None, frozenset())
    walk.walk(expr, sc)
    if types.of(expr, scope) == CARD:  # the card itself, written out
        walk.add(walk.sources(expr, sc))
    return walk.found


def withheld_word(part, scope: dict, types) -> str:
    """What a viewer who may not see the cards a part reads is told instead:
    "a card" for a card or its name, "something" for any other value."""
    target = part.obj if isinstance(part, n.Field) and part.name == "name" else part
    return "a card" if types.of(target, scope) == CARD or target is not part else "something"


class _Scope:
    """Where a walk stands: local names and their types; what each bound name
    reads (a comprehension's variable: the sources of its list; a
    definition's parameter: those of its argument; () for none); the
    definition being walked; the definitions walked into."""

    def __init__(self, types: dict, reads: dict, inside, seen: frozenset):
        self.types, self.reads, self.inside, self.seen = types, reads, inside, seen

    def bind(self, name, type_, reads) -> "_Scope":
        return _Scope({**self.types, name: type_}, {**self.reads, name: tuple(reads)}, self.inside, self.seen)


class _Walk:
    def __init__(self, types, model):
        self.types, self.model = types, model
        self.found: list = []

    def walk(self, expr, sc: _Scope):
        if not isinstance(expr, n.Expr):
            return
        for target in _face_reads(expr):
            # (a field is read from a card alone: its object is one even where its type is not known)
            if self.types.of(target, sc.types) == CARD or isinstance(expr, n.Field):
                self.add(self.sources(target, sc, card=True))
        if isinstance(expr, n.Comprehension):
            self._comprehension(expr, sc)
            return
        if isinstance(expr, n.Aggregate):
            self.walk(expr.iterable, sc)
            inner = sc.bind(expr.var, self.types.element(expr.iterable, sc.types), self.sources(expr.iterable, sc))
            self.walk(expr.expr, inner)
            self.walk(expr.cond, inner)
            return
        if isinstance(expr, n.Name) and expr.name not in sc.types:
            self._define(expr.name, (), sc)
        elif isinstance(expr, n.Call):
            self._define(expr.name, expr.args, sc)
        for child in _children(expr):
            self.walk(child, sc)

    def _comprehension(self, expr, sc):
        for var, iterable in expr.loops:
            self.walk(iterable, sc)
            sc = sc.bind(var, self.types.element(iterable, sc.types), self.sources(iterable, sc))
        self.walk(expr.expr, sc)
        self.walk(expr.cond, sc)

    def sources(self, expr, sc: _Scope, card: bool = False) -> tuple:
        """Where the cards of `expr` (a card or a list of cards; with `card`,
        a card whatever its type says) come from."""
        used = names_used(expr) & sc.reads.keys()
        if used:  # read through bound names: what those read
            return tuple(s for name in sorted(used) for s in sc.reads[name])
        if not card and self.types.of(expr, sc.types) not in (CARD, CARDS):
            return ()
        return ((expr, sc.inside),)

    def _define(self, name, args, sc: _Scope):
        """Follow definition `name` into its body, its parameters reading
        what their arguments read."""
        decl = self.model.defines.get(name)
        if decl is None or name in sc.seen or len(args) != len(decl.params):
            return
        given = self.types.parameters("define", decl)
        reads = {p: self.sources(a, sc, card=self.types.of(a, sc.types) is None) for p, a in zip(decl.params, args)}
        self.walk(decl.expr, _Scope(dict(given), reads, name, sc.seen | {name}))

    def add(self, sources):
        for source in sources:
            if source not in self.found:
                self.found.append(source)


def _face_reads(expr) -> tuple:
    """The sub-expressions of `expr` whose card's face it reads directly."""
    if isinstance(expr, n.Field):
        return (expr.obj,)
    if isinstance(expr, n.IsKind):
        return (expr.operand,)
    if isinstance(expr, n.Compare) and expr.op in ("==", "!="):
        return (expr.left, expr.right)
    return ()


def _children(expr):
    for field in expr._fields:
        value = getattr(expr, field)
        if isinstance(value, n.Expr):
            yield value
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, n.Expr):
                    yield item
                elif isinstance(item, tuple):
                    yield from (x for x in item if isinstance(x, n.Expr))


def names_used(expr) -> set:
    """The names `expr` uses."""
    if isinstance(expr, n.Name):
        return {expr.name}
    found = set()
    for child in _children(expr):
        found |= names_used(child)
    return found


def reads_private_counter(expr, model, seen: frozenset = frozenset()) -> bool:
    """Whether `expr` reads a counter that is not `visible` (definitions
    followed): a choice or a response window whose options depend on one is
    asked of its player even where it leaves a single option."""
    if not isinstance(expr, n.Expr):
        return False
    if isinstance(expr, (n.Name, n.NameOf)):
        counter = model.counters.get(expr.name)
        if counter is not None and counter.visibility != "visible":
            return True
    if isinstance(expr, (n.Name, n.Call)):
        define = model.defines.get(expr.name)
        if define is not None and expr.name not in seen and reads_private_counter(define.expr, model, seen | {expr.name}):
            return True
    return any(reads_private_counter(child, model, seen) for child in _children(expr))


def options_list(var: str, iterable, cond):
    """`[VAR for VAR in ITERABLE where COND]`: the options of a choice, as one
    expression whose card sources are those its number of options depends on."""
    span = iterable.span
    return n.Comprehension(n.Name(var, span=span), ((var, iterable),), cond, span=span)
