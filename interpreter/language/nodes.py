"""Typed, frozen AST nodes of the rules language, each with its source span.

Spans are excluded from equality so tests can compare trees built by hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Optional, Union

from ..errors import NO_SPAN, Span

# The fixed vocabularies of the language.
Scope = Literal["player", "shared", "card"]  # whose a counter or zone is
Visibility = Literal["visible", "owner", "others", "hidden"]  # who sees a zone or counter
ArithOp = Literal["+", "-", "*", "//", "%"]
CompareOp = Literal["==", "!=", "<=", ">=", "<", ">"]
AggregateOp = Literal["sum", "count", "highest", "lowest", "any", "every"]
HookMoment = Literal["start of turn", "end of turn", "start of round", "end of round", "start of phase", "end of phase"]
PhasePlay = Literal["once", "until passes", "until passes final", "together"]  # a phase's order of play
FieldType = Literal["effects", "expression", "expression map"]
BoolOpName = Literal["and", "or"]
TieMode = Literal["share", "full"]
Place = Literal["top", "bottom"]  # where moved cards go in a stack
ResolveMode = Literal["all", "any"]


@dataclass(frozen=True)
class Node:
    span: Span = field(default=NO_SPAN, compare=False, repr=False, kw_only=True)


# ---------------------------------------------------------------- expressions
class Expr(Node):
    pass


@dataclass(frozen=True)
class Literal(Expr):
    value: object


@dataclass(frozen=True)
class Template(Expr):
    """A label such as "take {c.name}": text parts and expressions."""

    parts: tuple[Union[str, "Expr"], ...]


@dataclass(frozen=True)
class Name(Expr):
    name: str


@dataclass(frozen=True)
class NameOf(Expr):
    """`gold of p`, `guest of c`: a counter or zone of an owner."""

    name: str
    owner: Expr


@dataclass(frozen=True)
class Field(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True)
class Call(Expr):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class MapLit(Expr):
    items: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True)
class Comprehension(Expr):
    expr: Expr
    loops: tuple[tuple[str, Expr], ...]  # (variable, what it goes through)
    cond: Optional[Expr]


@dataclass(frozen=True)
class Arith(Expr):
    op: ArithOp
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True)
class Compare(Expr):
    op: CompareOp
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Contains(Expr):
    item: Expr
    container: Expr
    negate: bool = False


@dataclass(frozen=True)
class IsKind(Expr):
    operand: Expr
    kind: str


@dataclass(frozen=True)
class BoolOp(Expr):
    op: BoolOpName
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class Conditional(Expr):
    """`if C then A else B`."""

    cond: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class Aggregate(Expr):
    """`sum E for x in L where C`, `count x in L`, highest/lowest/any/every."""

    op: AggregateOp
    expr: Optional[Expr]  # None for count, any and every
    var: str
    iterable: Expr
    cond: Optional[Expr]


@dataclass(frozen=True)
class Rank(Expr):
    """`rank V award A ties share at least M`: the award of my place by V."""

    value: Expr
    awards: Expr
    ties: TieMode
    at_least: Optional[Expr]


# ---------------------------------------------------------------- statements
class Stmt(Node):
    pass


@dataclass(frozen=True)
class Ref(Node):
    """A counter or zone, optionally of an owner (a player or a card)."""

    name: str
    owner: Optional[Expr] = None


@dataclass(frozen=True)
class Gain(Stmt):
    amount: Expr
    target: Ref


@dataclass(frozen=True)
class Pay(Stmt):
    amount: Expr
    target: Ref


@dataclass(frozen=True)
class Lose(Stmt):
    amount: Expr
    target: Ref


@dataclass(frozen=True)
class SetCounter(Stmt):
    target: Ref
    value: Expr


@dataclass(frozen=True)
class Move(Stmt):
    cards: Expr
    dest: Ref
    place: Place = "top"


@dataclass(frozen=True)
class Deal(Stmt):
    count: Expr
    source: Ref
    dest: Ref


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Ref


@dataclass(frozen=True)
class Slide(Stmt):
    zone: Ref


@dataclass(frozen=True)
class Refill(Stmt):
    zone: Ref
    source: Ref


# -- who knows what (docs/constructs-knowledge.md)
@dataclass(frozen=True)
class LookAt(Stmt):
    """`look at X`: the acting player sees the card or cards X where they lie."""

    cards: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    """`reveal X to P`: the player (or players) P see the card or cards X."""

    cards: Expr
    to: Expr


@dataclass(frozen=True)
class Reorder(Stmt):
    """`reorder X`: the acting player puts the cards X (lying in one zone)
    back in the order it chooses, top first; it sees them, others lose track."""

    cards: Expr


@dataclass(frozen=True)
class CallStmt(Stmt):
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Stop(Stmt):
    pass


@dataclass(frozen=True)
class Pass(Stmt):
    pass


@dataclass(frozen=True)
class PassPhase(Stmt):
    """`pass phase`: the player whose turn it is passes in a phase played
    until everyone passes."""


@dataclass(frozen=True)
class EndGame(Stmt):
    after_rounds: Optional[Expr]  # None = now
    lost: bool = False  # `end game lost`: now, and every player has lost
    won: bool = False  # `end game won`: now, and the players have won together


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Resolve(Stmt):
    mode: ResolveMode  # any: any or all of them, in any order
    effects: Expr


@dataclass(frozen=True)
class Announce(Stmt):
    """`announce EVENT(args) [from P] [first only]`: a response window."""

    event: str
    args: tuple[Expr, ...]
    start: Optional[Expr]  # the first player offered a reaction (None: the next player)
    first_only: bool  # the window closes once one player has reacted
    everyone: bool = False  # offered to every player of the round's order (the engine's phase windows)


@dataclass(frozen=True)
class ChooseAction(Stmt):
    pass


@dataclass(frozen=True)
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]  # (condition, body) of `if` and each `elif`
    else_body: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class ForEach(Stmt):
    var: str
    iterable: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class RepeatWhile(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class RepeatTimes(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Choose(Stmt):
    optional: bool
    var: str
    iterable: Expr
    cond: Optional[Expr]
    label: Optional[Template]
    body: tuple[Stmt, ...]
    else_body: tuple[Stmt, ...] = ()
    simultaneous: bool = False  # every player chooses unseen; the bodies run once all have chosen


@dataclass(frozen=True)
class May(Stmt):
    label: Template
    body: tuple[Stmt, ...]
    else_body: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class ActAs(Stmt):
    """`as p:` — run the block with `me` = p; p makes its decisions."""

    player: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class PickRandom(Stmt):
    var: str
    iterable: Expr
    cond: Optional[Expr]
    body: tuple[Stmt, ...]


# The statements that ask a player a decision (a rule holding one may pause there).
DECIDING = (Choose, May, ChooseAction, Resolve, Announce, Reorder)


# ---------------------------------------------------------------- declarations
class Decl(Node):
    pass


@dataclass(frozen=True)
class GameDecl(Decl):
    title: str


@dataclass(frozen=True)
class PlayersDecl(Decl):
    minimum: int
    maximum: int


@dataclass(frozen=True)
class CardsDecl(Decl):
    path: str
    schema: Optional[str]
    zone: str


@dataclass(frozen=True)
class ExtendsDecl(Decl):
    path: str


@dataclass(frozen=True)
class ParamDecl(Decl):
    """`param NAME = VALUE [one of LIST | within LOW..HIGH]`."""

    name: str
    value: Expr
    allowed: Optional[Expr] = None  # `one of [...]`: the values `--set` may give
    low: Optional[int] = None  # `within LOW..HIGH`
    high: Optional[int] = None


@dataclass(frozen=True)
class TurnOrderDecl(Decl):
    seats: Expr


@dataclass(frozen=True)
class ShowDecl(Decl):
    """`show shop as "{card.name} for {price(card)}"`: how cards of a zone
    (or, with `cards`, any card) are shown to people. `card` is the card."""

    name: str
    template: Template


@dataclass(frozen=True)
class ShowValueDecl(Decl):
    """`show NAME per player [, owner only]`: a definition's value for each
    player, shown at the table and part of each player's observation."""

    name: str
    visibility: Visibility = "visible"


@dataclass(frozen=True)
class BoardDecl(Decl):
    """`board space: a next to b when abs(a.x - b.x) + abs(a.y - b.y) == 1`:
    the cards of kind `name` are the spaces of a board, and space `a` leads to
    space `b` when `adjacent` holds (fixed for the game: fields and parameters)."""

    name: str  # the kind of the space cards
    a: str
    b: str
    adjacent: Expr
    zone: Optional[str] = None  # `board KIND in ZONE`: the spaces are the cards lying in ZONE (it grows)


@dataclass(frozen=True)
class CounterDecl(Decl):
    name: str
    scope: Scope
    minimum: Optional[int] = None
    maximum: Optional[int] = None
    visibility: Visibility = "visible"


@dataclass(frozen=True)
class ZoneDecl(Decl):
    name: str
    scope: Scope
    stack: bool = False
    slots: Optional[int] = None
    visibility: Visibility = "visible"
    size_hidden: bool = False  # `size hidden`: who does not see the cards is not told how many there are


@dataclass(frozen=True)
class KindDecl(Decl):
    name: str
    fields: tuple[tuple[str, FieldType], ...]


@dataclass(frozen=True)
class DefineDecl(Decl):
    name: str
    params: tuple[str, ...]
    expr: Expr


@dataclass(frozen=True)
class EffectDecl(Decl):
    name: str
    label: Optional[str]
    body: tuple[Stmt, ...]
    when: Optional[Expr] = None  # offered to resolve only while this holds


@dataclass(frozen=True)
class ProcedureDecl(Decl):
    name: str
    params: tuple[str, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ActionDecl(Decl):
    name: str
    label: Template
    when: Optional[Expr]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class SetupDecl(Decl):
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class TurnDecl(Decl):
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class PhaseDecl(Decl):
    """`phase NAME "label" [until everyone passes[, passing is final]]: ...`"""

    name: str
    label: Optional[str]
    play: PhasePlay
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ReactionDecl(Decl):
    """`reaction NAME(params) "label" to EVENT when C: ...`"""

    name: str
    params: tuple[str, ...]
    label: Template
    event: str
    when: Optional[Expr]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class HookDecl(Decl):
    moment: HookMoment
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class EmptyHookDecl(Decl):
    zone: str
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ScoreTerm(Node):
    label: str
    expr: Expr


@dataclass(frozen=True)
class ScoreDecl(Decl):
    terms: tuple[ScoreTerm, ...]


@dataclass(frozen=True)
class TiebreakDecl(Decl):
    exprs: tuple[Expr, ...]


@dataclass(frozen=True)
class Override(Decl):
    """`override DECL`: replaces the base rules' declaration of the same name."""

    decl: Decl


@dataclass(frozen=True)
class RulesFile(Node):
    items: tuple[Decl, ...]


# ---------------------------------------------------------------- card effects
@dataclass(frozen=True)
class EffectItem(Node):
    """One symbol group on a card: `draw` or alternatives `gold/wood`."""

    alternatives: tuple[str, ...]  # effect names


@dataclass(frozen=True)
class EffectList(Node):
    items: tuple[EffectItem, ...]


# ---------------------------------------------------------------- traversal
def children(node):
    """The nodes directly inside `node` (in fields and in tuples at any depth,
    such as the (condition, body) pairs of an `if`)."""
    for name in getattr(node, "__dataclass_fields__", {}):
        if name == "span":
            continue
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
