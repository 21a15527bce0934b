"""The kinds of value an expression of the rules language can have.

Types are plain strings, so messages can show them as they are; None means
unknown (the checker then stays silent rather than guess).
"""
from __future__ import annotations

NUMBER, TEXT, BOOL, CARD, CARDS, PLAYER, PLAYERS, LIST, MAP, EFFECTS, NONE = (
    "number", "text", "yes/no", "card", "cards", "player", "players", "list", "map", "effects", "none")

ELEMENT = {CARDS: CARD, PLAYERS: PLAYER}  # the type of an element of a list of cards or players


def picks_type(element) -> str:
    """The type of a list of values of type `element` (several picks of a choice)."""
    return {CARD: CARDS, PLAYER: PLAYERS}.get(element, LIST)
LISTS = frozenset({CARDS, PLAYERS, LIST})

_ARTICLE = {NUMBER: "a number", TEXT: "text", BOOL: "yes/no", CARD: "a card", CARDS: "cards", PLAYER: "a player",
            PLAYERS: "players", LIST: "a list", MAP: "a map", EFFECTS: "effects", NONE: "none"}


def describe(kind) -> str:
    """A type as it reads in a sentence: "a number", "cards"."""
    return _ARTICLE.get(kind, str(kind))


def value_type(value) -> str | None:
    """The type of a constant (a parameter's value, a card field)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if isinstance(value, (list, tuple)):
        return LIST
    if isinstance(value, dict):
        return MAP
    if value is None:
        return NONE
    return None
