"""What happened in a game, told to one viewer.

When someone listens (`state.events = []`), the engine records each step as
a small tuple: decisions (also those taken without asking, when one option
was left), counter changes, card moves, shuffles, triggers, rounds and turns,
and the end of the game with its reason. `tell(st, event, viewer)` words one
for a viewer, saying only what that viewer may see (visibility.py): a card
moving between places the viewer cannot see is "a card", another player's
choice of a card the viewer cannot see is not named.

Event tuples (the first item is the kind):
  ("decision", player, point, value, label, forced)
  ("counter", counter index, owner, before, after)
  ("move", card, from zone instance, to zone instance)
  ("shuffle", zone instance)
  ("trigger", rule code)
  ("round", round)            ("turn", turn number, player)
  ("last round", round, span) ("end", "now" | "lost" | "won" | "rounds", span or round)
"""
from __future__ import annotations

from . import visibility


def player_name(seat: int) -> str:
    """How people read a seat: seats count from 0 in the API, players from 1 at the table."""
    return f"player {seat + 1}"


def place(st, zi: int) -> str:
    """A zone instance in words: "deck", "player 2's hand", "the occupant of Barracks"."""
    info = st.program.zone_of_instance[zi]
    name = info.name.replace("_", " ")
    owner = zi - info.base
    if info.scope == "player":
        return f"{player_name(owner)}'s {name}"
    if info.scope == "card":
        return f"the {name} of {st.program.card_names[owner]}"
    return name


def tell(st, event, viewer: int) -> str | None:
    """`event` in words for `viewer` (a seat, or visibility.PUBLIC); None for
    an event not worth telling that viewer (a change of a counter it cannot see)."""
    kind = event[0]
    teller = _TELLERS.get(kind)
    return teller(st, event, viewer) if teller else None


def _decision(st, event, viewer):
    _, player, point, value, label, forced = event
    kind = getattr(st.program.decisions[point], "kind", None)
    if not visibility.option_visible(st, kind, value, player, viewer):
        label = "chose a card you cannot see"
    return f"{player_name(player)}: {label}" + (" (the only option)" if forced else "")


def _counter(st, event, viewer):
    _, index, owner, before, after = event
    info = st.program.counter_list[index]
    if info.scope == "card":
        if not visibility.card_counter_visible(st, info, owner, viewer):
            return None
        whose = st.program.card_names[owner]
    else:
        if not visibility.counter_visible(info, owner if info.scope == "player" else None, viewer):
            return None
        whose = player_name(owner) if info.scope == "player" else "the table"
    return f"{whose}: {info.name.replace('_', ' ')} {_number(before)} -> {_number(after)}"


def _move(st, event, viewer):
    _, card, source, dest = event
    seen = visibility.instance_visible(st, source, viewer) or visibility.instance_visible(st, dest, viewer)
    name = st.program.card_names[card] if seen else "a card"
    return f"{name}: {place(st, source)} -> {place(st, dest)}"


def _shuffle(st, event, viewer):
    return f"{place(st, event[1])} shuffled"


def _trigger(st, event, viewer):
    return f"rule '{st.program.codes[event[1]].name}'"


def _round(st, event, viewer):
    return f"round {event[1]}"


def _turn(st, event, viewer):
    return f"turn {event[1]}: {player_name(event[2])}"


def _last_round(st, event, viewer):
    _, round_, span = event
    where = f" ({span.filename}:{span.line})" if span is not None and span.source else ""
    return f"the game will end after round {round_}{where}"


def _end(st, event, viewer):
    _, how, where = event
    if how == "rounds":
        return f"the game ends: round {where} was the last"
    line = f" ({where.filename}:{where.line})" if where is not None and getattr(where, "source", None) else ""
    return {"now": "the game ends now", "lost": "the game ends: everyone has lost",
            "won": "the game ends: the players have won together"}[how] + line


def _number(value):
    return value if isinstance(value, int) else float(value)


_TELLERS = {"decision": _decision, "counter": _counter, "move": _move, "shuffle": _shuffle, "trigger": _trigger,
            "round": _round, "turn": _turn, "last round": _last_round, "end": _end}
