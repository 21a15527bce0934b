"""Built-in functions of the rules language, in one registry.

Each built-in is a small function of the state and its evaluated arguments.
The checker reads `arity` from here; the compiler calls `fn`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Builtin:
    name: str
    arity: tuple  # (min, max) number of arguments
    fn: Callable
    returns: str | None  # "card", "player" or None: what the value is, for option ids
    doc: str
    fixed: bool = False  # depends only on its arguments, never on the state (usable in a board)
    inline: str | None = None  # the same computation as Python source over `st`, `z` and
    # the arguments `{0}`, `{1}`; generated code uses it when the arguments are plain names


FUNCTIONS: dict[str, Builtin] = {}


def builtin(name: str, arity, returns=None, fixed=False, inline=None):
    def register(fn):
        lo, hi = (arity, arity) if isinstance(arity, int) else arity
        FUNCTIONS[name] = Builtin(name, (lo, hi), fn, returns, (fn.__doc__ or "").strip(), fixed, inline)
        return fn

    return register


@builtin("max", (1, 8), fixed=True)
def _max(st, *values):
    """The largest value: `max(0, c.cost - 1)`; one list argument takes its largest element."""
    return max(values[0]) if len(values) == 1 else max(values)


@builtin("min", (1, 8), fixed=True)
def _min(st, *values):
    """The smallest value: `min(gold, 8)`."""
    return min(values[0]) if len(values) == 1 else min(values)


@builtin("abs", 1, fixed=True)
def _abs(st, value):
    """Absolute value: `abs(-2)` is 2."""
    return abs(value)


@builtin("size", 1, fixed=True)
def _size(st, items):
    """How many cards (or elements) a zone or list holds: `size(hand)`."""
    return len(items)


@builtin("slot", 1, inline="z[st.loc[{0}]].index({0})")
def _slot(st, card):
    """The 0-based slot of a card in a slotted zone: `slot(c)` is 0 for the first slot."""
    return st.z[st.loc[card]].index(card)


@builtin("host", 1, returns="card")
def _host(st, card):
    """The card whose per-card zone holds `card`, or none: `host(c)`."""
    info = st.program.zone_of_instance[st.loc[card]]
    if info.scope != "card":
        return None
    return st.loc[card] - info.base


@builtin("owner", 1, returns="player")
def _owner(st, card):
    """The player whose zone holds `card` (through hosting cards), or none: `owner(c)`."""
    seen = 0
    while seen < 64:
        info = st.program.zone_of_instance[st.loc[card]]
        if info.scope == "player":
            return st.loc[card] - info.base
        if info.scope != "card":
            return None
        card = st.loc[card] - info.base
        seen += 1
    return None


@builtin("top", 1, returns="card")
def _top(st, items):
    """The top (last placed) card of a zone or list, or none: `top(deck)`."""
    for card in reversed(items):
        if card is not None:
            return card
    return None


@builtin("bottom", 1, returns="card")
def _bottom(st, items):
    """The bottom (first) card of a zone or list, or none: `bottom(deck)`."""
    for card in items:
        if card is not None:
            return card
    return None


@builtin("position", 1, inline="({0} - st.first) % st.n")
def _position(st, player):
    """A player's place in turn order, 0 for the first player: `position(me)`."""
    return (player - st.first) % st.n


@builtin("next_player", 1, returns="player")
def _next_player(st, player):
    """The player after `player` in turn order (to the left): `next_player(me)`."""
    return (player + 1) % st.n


@builtin("distance", 2)
def _distance(st, a, b):
    """Steps on the shortest way from space `a` to space `b` of a board (see
    `board`), none if no way leads there: `distance(here, c) <= 3`."""
    return st.program.boards.distance(a, b)


@builtin("has", 2, fixed=True)
def _has(st, card, name):
    """Whether the card data gives card `card` a value for the field `name`:
    `has(c, "effects")`."""
    values = st.program.fields.get(name)
    return card is not None and values is not None and values[card] is not None
