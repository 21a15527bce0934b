"""Built-in functions and values of the rules language, in one registry.

One entry holds everything about a built-in: its name and parameters, the
kinds of value each parameter accepts, what it gives back, its documentation
and an example, its implementation, and the Python source generated code uses
for it. The checker, the type checker, the compiler, the language reference
(docs/language.md) and the editor support all read it from here.

Implementations take the game state first. They read it through its
documented shape only (`st.z`, `st.loc`, `st.program.zone_of_instance`, ...),
so this module imports nothing below the language.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..errors import RulesRuntimeError
from .value_types import BOOL, CARD, CARDS, LIST, MAP, NUMBER, PLAYER, PLAYERS, TEXT

ANY = frozenset()  # a parameter that accepts any value


@dataclass(frozen=True)
class Builtin:
    """A built-in function: `name(params...)`."""

    name: str
    params: tuple  # parameter names, shown in its usage: `size(items)`
    accepts: tuple  # per parameter: the types it accepts (ANY: anything)
    returns: Optional[str]  # the type of the result (None: depends on the arguments)
    doc: str  # one sentence: what it gives
    example: str  # an expression using it (checked by the reference's tests)
    fn: Callable  # the implementation: fn(st, *args)
    variadic: bool = False  # the last parameter may be repeated (up to 8 arguments)
    fixed: bool = False  # depends only on its arguments, never on the state (usable in a board)
    inline: Optional[str] = None  # Python source over `st`, `z` and the arguments `{0}`, `{1}`
    # (or `{args}`, all of them), which generated code uses instead of calling `fn`

    @property
    def arity(self) -> tuple[int, int]:
        n = len(self.params)
        return (n, 8) if self.variadic else (n, n)

    @property
    def usage(self) -> str:
        args = ", ".join(self.params) + (", ..." if self.variadic else "")
        return f"{self.name}({args})"

    def result_type(self, nargs: int) -> Optional[str]:
        """The type of a call with `nargs` arguments."""
        if self.variadic and nargs == 1:
            return None  # the largest element of one list: whatever the list holds
        return self.returns

    def inline_for(self, args: list, simple: bool) -> Optional[str]:
        """Python source computing the call on `args` (source texts), or None
        to call the implementation. A template that names an argument twice
        is used only when every argument is `simple` (evaluated once anyway)."""
        if self.inline is None:
            return None
        if "{args}" in self.inline:
            return self.inline.format(args=", ".join(args))
        if not simple and any(self.inline.count("{%d}" % i) > 1 for i in range(len(args))):
            return None
        return self.inline.format(*args)


@dataclass(frozen=True)
class BuiltinValue:
    """A built-in name standing for a value of the game: `me`, `round`."""

    name: str
    returns: str
    doc: str
    example: str
    fn: Callable  # fn(st)
    source: Optional[str] = None  # Python source over `st` (else `fn` is called)
    settable: bool = False  # `set NAME to X` changes it


FUNCTIONS: dict[str, Builtin] = {}
VALUES: dict[str, BuiltinValue] = {}


def builtin(name, params, accepts, returns, example, variadic=False, fixed=False, inline=None):
    """Register the decorated implementation as built-in `name`; its docstring is the doc."""
    def register(fn):
        FUNCTIONS[name] = Builtin(name, tuple(params), tuple(frozenset(a) for a in accepts), returns,
                                  " ".join((fn.__doc__ or "").split()), example, fn, variadic, fixed, inline)
        return fn
    return register


def value(name, returns, example, source=None, settable=False):
    def register(fn):
        VALUES[name] = BuiltinValue(name, returns, " ".join((fn.__doc__ or "").split()), example, fn, source, settable)
        return fn
    return register


# ---------------------------------------------------------------- cards and their hosts
def owner_of(st, card: int) -> Optional[int]:
    """The player whose zone holds `card`, directly or through the cards
    hosting it, or None. A chain of hosts longer than the number of cards
    would be a loop, so it is never followed further."""
    for _ in range(len(st.loc)):
        zi = st.loc[card]
        info = st.program.zone_of_instance[zi]
        if info.scope == "player":
            return zi - info.base
        if info.scope != "card":
            return None
        card = zi - info.base
    return None


def hosted_cards(st, card: int) -> list:
    """(card, zone instance) of every card held by `card`, by the cards they
    hold, and so on, depth first; each card at most once."""
    zones = [info for info in st.program.zones.values() if info.scope == "card"]

    def held(host):
        return ((inner, info.base + host) for info in zones for inner in st.z[info.base + host] if inner is not None)

    out: list = []
    seen = {card}
    stack = [held(card)]
    while stack:
        for inner, zi in stack[-1]:
            if inner not in seen:
                seen.add(inner)
                out.append((inner, zi))
                stack.append(held(inner))
                break
        else:
            stack.pop()
    return out


# ---------------------------------------------------------------- functions
@builtin("max", ["a"], [ANY], NUMBER, "max(0, gold - 1)", variadic=True, fixed=True, inline="max({args})")
def _max(st, *values):
    """The largest of its arguments; with one list argument, the list's largest element (an empty list is an error: `max(L + [0])` gives 0 for it)."""
    return max(values[0]) if len(values) == 1 else max(values)


@builtin("min", ["a"], [ANY], NUMBER, "min(gold, 8)", variadic=True, fixed=True, inline="min({args})")
def _min(st, *values):
    """The smallest of its arguments; with one list argument, the list's smallest element (an empty list is an error)."""
    return min(values[0]) if len(values) == 1 else min(values)


@builtin("abs", ["x"], [{NUMBER}], NUMBER, "abs(gold - 5)", fixed=True, inline="abs({0})")
def _abs(st, x):
    """The absolute value of a number: `abs(-2)` is 2."""
    return abs(x)


@builtin("size", ["items"], [{CARDS, PLAYERS, LIST, MAP, TEXT}], NUMBER, "size(hand)", fixed=True, inline="len({0})")
def _size(st, items):
    """How many cards a zone holds, or how many elements a list or map (or characters a text) has."""
    return len(items)


@builtin("slot", ["card"], [{CARD}], NUMBER, "slot(top(row)) + 1", inline="z[st.loc[{0}]].index({0})")
def _slot(st, card):
    """The slot a card lies in, 0 for the first slot of a slotted zone (in a zone without slots, its place from the bottom)."""
    return st.z[st.loc[card]].index(card)


@builtin("host", ["card"], [{CARD}], CARD, "host(c) != none")
def host_of(st, card):
    """The card whose per-card zone holds the card (a card under or inside another), or none."""
    zi = st.loc[card]
    info = st.program.zone_of_instance[zi]
    return zi - info.base if info.scope == "card" else None


@builtin("owner", ["card"], [{CARD}], PLAYER, "owner(c) == me")
def _owner(st, card):
    """The player whose zone holds the card (through the cards hosting it), or none."""
    return owner_of(st, card)


@builtin("top", ["items"], [{CARDS, LIST}], CARD, "top(deck)", fixed=True)
def _top(st, items):
    """The top card of a zone (the last placed; in a slotted zone, the card in the highest slot) or the last card of a list; none if there is none."""
    for card in reversed(items):
        if card is not None:
            return card
    return None


@builtin("bottom", ["items"], [{CARDS, LIST}], CARD, "bottom(deck)", fixed=True)
def _bottom(st, items):
    """The bottom card of a zone (the first placed; in a slotted zone, the card in the lowest slot) or the first card of a list; none if there is none."""
    for card in items:
        if card is not None:
            return card
    return None


@builtin("top_cards", ["items", "count"], [{CARDS, LIST}, {NUMBER}], CARDS, "top_cards(deck, 3)", fixed=True)
def _top_cards(st, items, count):
    """The top `count` cards of a zone or list (fewer if it holds fewer), the top one first."""
    cards = [card for card in items if card is not None]
    return cards[::-1][:max(0, count)]


@builtin("position", ["player"], [{PLAYER, NUMBER}], NUMBER, "position(me)", inline="({0} - st.first) % st.n")
def _position(st, player):
    """A player's place in seat order counted from the first player: 0 for the first player, 1 for the next. A `turn order` declaration does not change it."""
    return (player - st.first) % st.n


@builtin("next_player", ["player"], [{PLAYER, NUMBER}], PLAYER, "next_player(me)")
def _next_player(st, player):
    """The player in the next seat (to the left); the last seat is followed by the first seat. A `turn order` declaration does not change it."""
    return (player + 1) % st.n


@builtin("seat_number", ["player"], [{PLAYER}], NUMBER, "seat_number(me) + 1", fixed=True, inline="{0}")
def _seat_number(st, player):
    """A player's seat as a number: 0 for the first seat (people read it as "player 1"), 1 for the next; none for none."""
    return player


@builtin("player_at", ["seat"], [{NUMBER}], PLAYER, "player_at(players - 1)")
def _player_at(st, seat):
    """The player in a seat, counted from 0 (`player_at(0)` is "player 1"); a seat no player sits at is an error."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.n:
        raise RulesRuntimeError(f"player_at needs a seat from 0 to {st.n - 1}, got {'none' if seat is None else seat}")
    return seat


@builtin("distance", ["a", "b"], [{CARD}, {CARD}], NUMBER, "distance(c, top(row)) <= 3")
def _distance(st, a, b):
    """Steps on the shortest way from space `a` to space `b` of a board (see `board`), or none if no way leads there."""
    return st.program.boards.distance(a, b, st)


@builtin("has", ["card", "field"], [{CARD}, {TEXT}], BOOL, 'has(c, "cost")', fixed=True)
def _has(st, card, name):
    """Whether the card data gives the card a value for the field named by the text."""
    values = st.program.fields.get(name)
    return card is not None and values is not None and values[card] is not None


# ---------------------------------------------------------------- values
@value("me", PLAYER, "gold of me", source="st.me")
def _me(st):
    """The acting player: whose turn it is, or the player of an `as` block. In `setup` it is the first seat; in the hooks of a round, the player whose turn came last; in a trigger, the acting player of the rule that fired it."""
    return st.me


@value("players", NUMBER, "players - 1", source="st.n")
def _players(st):
    """The number of players in this game."""
    return st.n


@value("seats", PLAYERS, "[p for p in seats where p != me]", source="list(range(st.n))")
def _seats(st):
    """Every player, in seat order: seats 0, 1, ... (people read seat 0 as "player 1")."""
    return list(range(st.n))


@value("others", PLAYERS, "count p in others where gold of p > gold")
def _others(st):
    """Every player but the acting one, in seat order."""
    return [p for p in range(st.n) if p != st.me]


@value("first_player", PLAYER, "position(first_player)", source="st.first", settable=True)
def _first_player(st):
    """The player who starts each round; `set first_player to p` takes effect when the next round begins. A `turn order` declaration ignores it."""
    return st.first


@value("round", NUMBER, "round >= 3", source="st.round")
def _round(st):
    """The round being played, from 1 (the setup is played in round 1)."""
    return st.round


@value("turn_number", NUMBER, "turn_number == 1", source="st.turns")
def _turn_number(st):
    """How many turns have begun so far in the game, this one included (0 during the setup)."""
    return st.turns


@value("phase", NUMBER, "phase == 2", source="st.phase")
def _phase(st):
    """The phase of the round being played, from 1, in the order the `phase` blocks are written (0 in a game without phases)."""
    return st.phase


@builtin("passed", ["player"], [{PLAYER}], BOOL, "passed(next_player(me))")
def _passed(st, player):
    """Whether the player has passed in the phase being played (`pass phase`); in a phase where passing is not final, a player who plays again has not passed."""
    return player in st.passed


BUILTIN_NAMES = frozenset(VALUES)  # the names of the built-in values
