"""Typed, frozen AST nodes of the rules language, each with its source span.

A node class lists its fields as annotations (`name: str`, with a default
where it has one), after those of the classes it extends; `Node` gives
every class its constructor, equality, hash and repr from that list, as a
frozen dataclass would. Spans are passed by keyword and excluded from
equality, so tests can compare trees built by hand. (Every command parses
rules, and making eighty dataclasses took an eighth of checking a file.)
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Literal as OneOf  # (`Literal` is the node class of a written value, below)
from typing import NamedTuple, Optional, Union

from ..errors import NO_SPAN, Span

# The fixed vocabularies of the language.
Scope = OneOf["player", "shared", "card"]  # whose a counter or zone is
Visibility = OneOf["visible", "owner", "others", "hidden"]  # who sees a zone or counter
ArithOp = OneOf["+", "-", "*", "//", "%"]
CompareOp = OneOf["==", "!=", "<=", ">=", "<", ">"]
AggregateOp = OneOf["sum", "count", "highest", "lowest", "any", "every"]
HookMoment = OneOf["start of turn", "end of turn", "start of round", "end of round", "start of phase", "end of phase"]
PhasePlay = OneOf["once", "until passes", "until passes final", "together"]  # a phase's order of play
FieldType = OneOf["effects", "expression", "expression map"]
BoolOpName = OneOf["and", "or"]
TieMode = OneOf["share", "full"]
Place = OneOf["top", "bottom"]  # where moved cards go in a stack
ResolveMode = OneOf["all", "any"]
BacksBy = OneOf["kind", "kinds", "field"]  # what tells face-down cards apart
PhaseOrderBy = OneOf["from", "by", "reversed"]  # how a phase orders the round's players


class Node:
    """A node: its fields, in order, are the annotations of its class and
    of the classes it extends (theirs first); a field with a value in the
    class body has that value as its default. `span` is keyword-only."""

    _fields: tuple[str, ...] = ()
    _defaults: dict = {}
    span: Span

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        own = [name for name in cls.__dict__.get("__annotations__", {}) if name not in cls._fields]
        defaults = dict(cls._defaults)
        for name in own:
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
            elif defaults:
                raise TypeError(f"{cls.__name__}.{name}: a field without a default after one with a default")
        cls._fields = cls._fields + tuple(own)
        cls._defaults = defaults

    def __init__(self, *args, span: Span = NO_SPAN, **kwargs):
        fields = self._fields
        if len(args) == len(fields) and not kwargs:
            values = dict(zip(fields, args))
        else:
            values = self._arguments(args, kwargs)
        values["span"] = span
        object.__setattr__(self, "__dict__", values)

    def _arguments(self, args: tuple, kwargs: dict) -> dict:
        name, fields = type(self).__name__, self._fields
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} positional arguments but {len(args)} were given")
        values = dict(zip(fields, args))
        for field in fields[len(args):]:
            if field in kwargs:
                values[field] = kwargs.pop(field)
            elif field in self._defaults:
                values[field] = self._defaults[field]
            else:
                raise TypeError(f"{name}() missing argument {field!r}")
        if kwargs:
            raise TypeError(f"{name}() got unexpected or repeated arguments: {', '.join(kwargs)}")
        return values

    def _key(self) -> tuple:
        return tuple(map(self.__dict__.__getitem__, self._fields))

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self._key()))
        return f"{type(self).__name__}({shown})"

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")


# ---------------------------------------------------------------- expressions
class Expr(Node):
    pass


class Literal(Expr):
    value: object


class Template(Expr):
    """A label such as "take {c.name}": text parts and expressions."""

    parts: tuple[Union[str, "Expr"], ...]


class Name(Expr):
    name: str


class NameOf(Expr):
    """`gold of p`, `guest of c`: a counter or zone of an owner."""

    name: str
    owner: Expr


class Field(Expr):
    obj: Expr
    name: str


class Index(Expr):
    obj: Expr
    index: Expr


class Call(Expr):
    name: str
    args: tuple[Expr, ...]


class ListLit(Expr):
    items: tuple[Expr, ...]


class Range(Expr):
    """`low..high`: the whole numbers from low to high, both included."""

    low: Expr
    high: Expr


class MapLit(Expr):
    items: tuple[tuple[Expr, Expr], ...]


class Comprehension(Expr):
    expr: Expr
    loops: tuple[tuple[str, Expr], ...]  # (variable, what it goes through)
    cond: Optional[Expr]


class Arith(Expr):
    op: ArithOp
    left: Expr
    right: Expr


class Neg(Expr):
    operand: Expr


class Compare(Expr):
    op: CompareOp
    left: Expr
    right: Expr


class Contains(Expr):
    item: Expr
    container: Expr
    negate: bool = False


class IsKind(Expr):
    operand: Expr
    kind: str


class BoolOp(Expr):
    op: BoolOpName
    operands: tuple[Expr, ...]


class Not(Expr):
    operand: Expr


class Conditional(Expr):
    """`if C then A else B`."""

    cond: Expr
    then: Expr
    otherwise: Expr


class Aggregate(Expr):
    """`sum E for x in L where C`, `count x in L`, highest/lowest/any/every."""

    op: AggregateOp
    expr: Optional[Expr]  # None for count, any and every
    var: str
    iterable: Expr
    cond: Optional[Expr]


class Rank(Expr):
    """`rank V award A ties share at least M`: the award of my place by V."""

    value: Expr
    awards: Expr
    ties: TieMode
    at_least: Optional[Expr]


# ---------------------------------------------------------------- statements
class Stmt(Node):
    """A statement. What its kind does is declared once, in STMT_FACTS
    below, and read as `stmt.facts` by every pass that needs to know."""

    # `facts` (a StmtFacts, not a field) is set on each kind from STMT_FACTS.

    def lets_others_decide(self) -> bool:
        """Whether another player than `me` may decide in it."""
        others = self.facts.others_decide
        return getattr(self, others) if isinstance(others, str) else others


class Ref(Node):
    """A counter or zone, optionally of an owner (a player or a card)."""

    name: str
    owner: Optional[Expr] = None


class Gain(Stmt):
    amount: Expr
    target: Ref


class Pay(Stmt):
    amount: Expr
    target: Ref


class Lose(Stmt):
    amount: Expr
    target: Ref


class SetCounter(Stmt):
    target: Ref
    value: Expr


class Move(Stmt):
    cards: Expr
    dest: Ref
    place: Place = "top"
    at: Optional[Expr] = None  # `at place N`: the N-th place from the top (1: on top)


class Deal(Stmt):
    count: Expr
    source: Ref
    dest: Ref


class Shuffle(Stmt):
    zone: Ref


class Slide(Stmt):
    zone: Ref


class Refill(Stmt):
    zone: Ref
    source: Ref


# -- who knows what (docs/constructs-knowledge.md)
class LookAt(Stmt):
    """`look at X`: the acting player sees the card or cards X where they lie."""

    cards: Expr


class Reveal(Stmt):
    """`reveal X to P`: the player (or players) P see the card or cards X."""

    cards: Expr
    to: Expr


class Forget(Stmt):
    """`forget X`: the players who do not see where the cards X lie no longer know them."""

    cards: Expr


class Reorder(Stmt):
    """`reorder X`: the acting player puts the cards X (lying in one zone)
    back in the order it chooses, top first; it sees them, others lose track."""

    cards: Expr


class Tell(Stmt):
    """`tell "text"`: a line of the story for the whole table, each part of
    the text read from cards withheld from who does not see them."""

    text: Template


class CallStmt(Stmt):
    name: str
    args: tuple[Expr, ...]


class Stop(Stmt):
    pass


class Pass(Stmt):
    pass


class PassPhase(Stmt):
    """`pass phase`: the player whose turn it is passes in a phase played
    until everyone passes."""


class EndGame(Stmt):
    after_rounds: Optional[Expr]  # None = now
    lost: bool = False  # `end game lost`: now, and every player has lost
    won: bool = False  # `end game won`: now, and the players have won together


class Let(Stmt):
    name: str
    value: Expr


class Resolve(Stmt):
    mode: ResolveMode  # any: any or all of them, in any order
    effects: Expr


class Announce(Stmt):
    """`announce EVENT(args) [from P] [first only]`: a response window."""

    event: str
    args: tuple[Expr, ...]
    start: Optional[Expr]  # the first player offered a reaction (None: the next player)
    first_only: bool  # the window closes once one player has reacted
    everyone: bool = False  # offered to every player of the round's order (the engine's phase windows)
    first_to_speak: bool = False  # `first to speak`: asked at once, in secret; the first who answers takes it


class ChooseAction(Stmt):
    pass


class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]  # (condition, body) of `if` and each `elif`
    else_body: tuple[Stmt, ...] = ()


class ForEach(Stmt):
    var: str
    iterable: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


class RepeatWhile(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


class RepeatTimes(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


class Choose(Stmt):
    optional: bool
    var: str
    iterable: Expr
    cond: Optional[Expr]
    label: Optional[Template]
    body: tuple[Stmt, ...]
    else_body: tuple[Stmt, ...] = ()
    simultaneous: bool = False  # every player chooses unseen; the bodies run once all have chosen
    secretly: bool = False  # `choose ... secretly`: told to its player alone
    count: Optional[Expr] = None  # `choose N x in L`: N picks per player, one at a time; the body gets the list
    else_label: Optional[Template] = None  # `may choose ... else "label":`: the label of passing (None: "pass")


class May(Stmt):
    label: Template
    body: tuple[Stmt, ...]
    else_body: tuple[Stmt, ...] = ()
    else_label: Optional[Template] = None  # `else "label":`: the other branch's label (None: "pass")


class ActAs(Stmt):
    """`as p:` — run the block with `me` = p; p makes its decisions."""

    player: Expr
    body: tuple[Stmt, ...]


class PickRandom(Stmt):
    var: str
    iterable: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


class StmtFacts(NamedTuple):
    """What a kind of statement does, as the passes need to know it."""

    decides: bool  # may ask someone a decision: a rule holding it may pause there
    asks_me: bool  # may put a question to the player it runs as (`me`)
    asks_each_run: bool  # asks a decision each time it runs (a loop of it is never run unasked)
    random: bool  # draws from the game's random generator (OpenSpiel's chance mode)
    others_decide: Union[bool, str]  # lets another player decide: always, or when the field named is set
    changes: str  # what of the position it changes itself (one of CHANGES; the statements nested in it say their own)


# What a statement may change itself: nothing; the counter (or built-in
# value) it names; where cards lie (a zone left empty runs its `becomes
# empty` trigger); what players know; whose turn or decision it is, the
# phase, the game's end; or anything, by running other rules.
CHANGES = ("nothing", "counter", "cards", "knowledge", "play", "rules")


_ = False
T = True
# Every kind of statement, with its facts (tests/test_nodes.py checks each kind has its row).
STMT_FACTS = {
    #                     decides asks_me each  random others_decide  changes
    Gain: StmtFacts(      _,      _,      _,    _,     _,              "counter"),
    Pay: StmtFacts(       _,      _,      _,    _,     _,              "counter"),
    Lose: StmtFacts(      _,      _,      _,    _,     _,              "counter"),
    SetCounter: StmtFacts(_,      _,      _,    _,     _,              "counter"),
    Move: StmtFacts(      _,      _,      _,    _,     _,              "cards"),
    Deal: StmtFacts(      _,      _,      _,    _,     _,              "cards"),
    Shuffle: StmtFacts(   _,      _,      _,    T,     _,              "cards"),
    Slide: StmtFacts(     _,      _,      _,    _,     _,              "cards"),
    Refill: StmtFacts(    _,      _,      _,    _,     _,              "cards"),
    LookAt: StmtFacts(    _,      _,      _,    _,     _,              "knowledge"),
    Reveal: StmtFacts(    _,      _,      _,    _,     _,              "knowledge"),
    Reorder: StmtFacts(   T,      _,      _,    _,     _,              "cards"),
    CallStmt: StmtFacts(  _,      _,      _,    _,     _,              "rules"),  # (what the called rule does is followed by name)
    Stop: StmtFacts(      _,      _,      _,    _,     _,              "play"),
    Pass: StmtFacts(      _,      _,      _,    _,     _,              "play"),
    PassPhase: StmtFacts( _,      _,      _,    _,     _,              "play"),
    EndGame: StmtFacts(   _,      _,      _,    _,     _,              "play"),
    Let: StmtFacts(       _,      _,      _,    _,     _,              "nothing"),
    Resolve: StmtFacts(   T,      T,      _,    _,     _,              "rules"),
    Announce: StmtFacts(  T,      _,      _,    _,     T,              "rules"),  # (the reactions to it decide)
    ChooseAction: StmtFacts(T,    T,      T,    _,     _,              "rules"),
    If: StmtFacts(        _,      _,      _,    _,     _,              "nothing"),
    ForEach: StmtFacts(   _,      _,      _,    _,     _,              "nothing"),
    RepeatWhile: StmtFacts(_,     _,      _,    _,     _,              "nothing"),
    RepeatTimes: StmtFacts(_,     _,      _,    _,     _,              "nothing"),
    Choose: StmtFacts(    T,      T,      T,    _,     "simultaneous", "nothing"),
    May: StmtFacts(       T,      T,      T,    _,     _,              "nothing"),
    ActAs: StmtFacts(     _,      _,      _,    _,     T,              "play"),  # (who `me` is)
    PickRandom: StmtFacts(_,      _,      _,    T,     _,              "nothing"),
    Forget: StmtFacts(    _,      _,      _,    _,     _,              "knowledge"),
    Tell: StmtFacts(      _,      _,      _,    _,     _,              "knowledge"),
}
for _kind, _facts in STMT_FACTS.items():
    _kind.facts = _facts
del _, T, _kind, _facts


# ---------------------------------------------------------------- declarations
class Decl(Node):
    pass


class GameDecl(Decl):
    title: str


class PlayersDecl(Decl):
    minimum: int
    maximum: int


class CardsDecl(Decl):
    path: str
    schema: Optional[str]
    zone: str


class ExtendsDecl(Decl):
    path: str


class ParamDecl(Decl):
    """`param NAME = VALUE [one of LIST | within LOW..HIGH]`."""

    name: str
    value: Expr
    allowed: Optional[Expr] = None  # `one of [...]`: the values `--set` may give
    low: Optional[int] = None  # `within LOW..HIGH`
    high: Optional[int] = None


class TurnOrderDecl(Decl):
    seats: Expr


class ShowDecl(Decl):
    """`show shop as "{card.name} for {price(card)}"`: how cards of a zone
    (or, with `cards`, any card) are shown to people. `card` is the card."""

    name: str
    template: Template


class ShowValueDecl(Decl):
    """`show NAME per player [, owner only]`: a definition's value for each
    player, shown at the table and part of each player's observation."""

    name: str
    visibility: Visibility = "visible"


class BoardDecl(Decl):
    """`board space: a next to b when abs(a.x - b.x) + abs(a.y - b.y) == 1`:
    the cards of kind `name` are the spaces of a board, and space `a` leads to
    space `b` when `adjacent` holds (fixed for the game: fields and parameters)."""

    name: str  # the kind of the space cards
    a: str
    b: str
    adjacent: Expr
    zone: Optional[str] = None  # `board KIND in ZONE`: the spaces are the cards lying in ZONE (it grows)


class MarkerDecl(Decl):
    """`marker pawn "{p}" for each p in seats on space_of(p)`: for each value
    `var` of `iterable`, a piece labelled `label` on the board space `space`
    (a card; none: not on the board), shown on the map and named with it."""

    name: str
    label: Template
    var: str
    iterable: Expr
    space: Expr


class BacksDecl(Decl):
    """What tells face-down cards apart (`backs: ...`): "kind" (each kind its
    own back), "kinds" (the kinds of `names` each their own, the others one),
    or "field" (the value of the card field `names[0]`)."""

    by: BacksBy
    names: tuple[str, ...] = ()


class CounterDecl(Decl):
    name: str
    scope: Scope
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    visibility: Visibility = "visible"
    holds_player: bool = False  # `holds player`: its value is a player (none at first), changed only by `set`
    unlisted: bool = False  # `unlisted`: not shown at the table nor in the story, though not hidden


class ZoneDecl(Decl):
    name: str
    scope: Scope
    stack: bool = False
    slots: Optional[int] = None
    visibility: Visibility = "visible"
    size_hidden: bool = False  # `size hidden`: who does not see the cards is not told how many there are
    top_visible: bool = False  # `top visible`: every player sees its top card


class KindDecl(Decl):
    name: str
    fields: tuple[tuple[str, FieldType], ...]


class DefineDecl(Decl):
    name: str
    params: tuple[str, ...]
    expr: Expr


class EffectDecl(Decl):
    name: str
    label: Optional[str]
    body: tuple[Stmt, ...]
    when: Optional[Expr] = None  # offered to resolve only while this holds
    otherwise: Optional[str] = None  # while `when` does not hold, the reason shown (`else "..."`)
    unlisted: bool = False  # `else hidden`: while `when` does not hold, not shown at all


class ProcedureDecl(Decl):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]


class ActionDecl(Decl):
    name: str
    label: Template
    when: Optional[Expr]
    body: tuple[Stmt, ...]
    otherwise: Optional[str] = None  # as in EffectDecl
    unlisted: bool = False


class SetupDecl(Decl):
    body: tuple[Stmt, ...]


class TurnDecl(Decl):
    body: tuple[Stmt, ...]


class PhaseOrder(Node):
    """`order from P`, `order by KEY`, `order reversed`: a phase's order of
    play, made from the round's."""

    by: PhaseOrderBy
    expr: Optional[Expr] = None  # the player of `from`, the key of `by`


class PhaseDecl(Decl):
    """`phase NAME "label" [until everyone passes[, passing is final]] [order ...]: ...`"""

    name: str
    label: Optional[str]
    play: PhasePlay
    body: tuple[Stmt, ...]
    order: Optional[PhaseOrder] = None  # None: the round's order


class ReactionDecl(Decl):
    """`reaction NAME(params) "label" to EVENT when C: ...`"""

    name: str
    params: tuple[str, ...]
    label: Template
    event: str
    when: Optional[Expr]
    body: tuple[Stmt, ...]
    publicly: bool = False  # `when C, publicly`: only the players for whom C holds are asked


class HookDecl(Decl):
    moment: HookMoment
    body: tuple[Stmt, ...]


class EmptyHookDecl(Decl):
    zone: str
    body: tuple[Stmt, ...]


class ScoreTerm(Node):
    label: str
    expr: Expr


class ScoreDecl(Decl):
    terms: tuple[ScoreTerm, ...]


class TiebreakDecl(Decl):
    exprs: tuple[Expr, ...]


class CooperativeDecl(Decl):
    """`cooperative score out of BEST`: the players win or lose as one, by a
    shared score (the mean of their scores); BEST, the most it can reach,
    turns it into the share of the best game each player is rewarded with."""

    best: Expr


class TeamsDecl(Decl):
    """`teams by EXPR`: EXPR, read for each player (`me`), names the player's
    team; the players of equal values play together and win together."""

    team: Expr


class Override(Decl):
    """`override DECL`: replaces the base rules' declaration of the same name."""

    decl: Decl


class RulesFile(Node):
    items: tuple[Decl, ...]


# ---------------------------------------------------------------- card effects
class EffectItem(Node):
    """One symbol group on a card: `draw` or alternatives `gold/wood`."""

    alternatives: tuple[str, ...]  # effect names


class EffectList(Node):
    items: tuple[EffectItem, ...]


# ---------------------------------------------------------------- traversal
def children(node):
    """The nodes directly inside `node` (in fields and in tuples at any depth,
    such as the (condition, body) pairs of an `if`)."""
    for name in getattr(node, "_fields", ()):
        yield from _nodes_in(getattr(node, name))


def _nodes_in(value):
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


def walk(node):
    """`node` and every node inside it, depth first."""
    yield node
    for child in children(node):
        yield from walk(child)
