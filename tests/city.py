"""Arranging positions of rules/catastropolis for scenario tests.

Cards are picked by their data (kind, type, symbol, what a power grants...),
never by name, except the spaces of the map and the villains the rule text
names; so the scenarios hold for any card set in the format of the schema.
"""
from __future__ import annotations

from .conftest import RULES, labels, play  # noqa: F401 (play: used by the scenario files)

CATASTROPOLIS = RULES / "catastropolis" / "catastropolis.rules"
SITUATION_ZONES = ("crimes", "disasters", "situation_pile", "reserve", "face_down", "revealed", "situation_discard")


# ------------------------------------------------------------------ the card database
def cards(game, kind, where=lambda d: True, **fields) -> list[str]:
    """Ids of the cards of `kind` whose data has `fields` and satisfies `where(data)`."""
    return [c.id for c in game.program.cards.cards
            if c.kind == kind and all(c.data.get(k) == v for k, v in fields.items()) and where(c.data)]


def data(game, card_id) -> dict:
    return game.program.cards.by_id(card_id).data


def space(game, name) -> str:
    """The id of the map space called `name`."""
    found = cards(game, "space", name=name)
    assert found, f"no space {name!r} on the map"
    return found[0]


def number(game, space_id) -> int:
    return data(game, space_id)["number"]


def power(game, where=lambda d: True, exclude=(), **fields) -> str:
    for cid in cards(game, "power", where, **fields):
        if cid not in exclude:
            return cid
    raise LookupError(f"no power with {fields}")


def plain_power(game, symbol, exclude=()) -> str:
    """A passive power that grants exactly `symbol` and does nothing else."""
    return power(game, lambda d: d["grants"] == [symbol] and d["moves"] == 0 and not d["flies"],
                 exclude=exclude, timing="passive")


def situation(game, exclude=(), where=lambda d: True, **fields) -> str:
    for cid in cards(game, "situation", where, **fields):
        if cid not in exclude:
            return cid
    raise LookupError(f"no situation with {fields}")


def safe(d) -> bool:
    """A situation (or resolution) without a result for the hero."""
    return "effects" not in d


# ------------------------------------------------------------------ positions
def after_draft(game, players=2, seed=1):
    """A new game once the draft is done (each player takes the first card
    offered), at the first player's choice of action."""
    st = game.new_initial_state(players, seed)
    while st.turns == 0:
        st.apply_action(next(a for a in st.legal_actions() if a != "pass"))
    assert st.decision().prompt == "Choose an action", st.decision()
    return st


def points(st, player) -> int:
    return sum(data(st, c)["points"] for c in st.zone("powers", player))


def give_powers(st, player, *power_ids):
    """The player's hero has exactly these powers (its others go back to the deck)."""
    for cid in st.zone("powers", player):
        st.place(cid, "power_deck")
    for cid in power_ids:
        st.place(cid, "powers", owner=player)


def stand(st, player, space_name):
    st.set_counter("at", number(st, space(st, space_name)), player)


def where_is(st, player) -> str:
    """The name of the space the player's hero stands on."""
    at = st.counter("at", player)
    return next(c.name for c in st.program.cards.cards if c.kind == "space" and c.data["number"] == at)


def clear_situations(st):
    """No situation anywhere: the piles and the queue are empty (cards to the box)."""
    for zone in SITUATION_ZONES:
        for cid in st.zone(zone):
            st.place(cid, "box")
            st.set_counter("time_counters", 0, cid)


def put(st, card_id, zone, counters=0):
    """A situation on top of `zone` (the newest of the queue) with its time counters."""
    st.place(card_id, zone)
    st.set_counter("time_counters", counters, card_id)


def top_of(st, zone, card_id):
    """`card_id` on top of a pile (it stays in the pile if it is there)."""
    st.place(card_id, zone)


def rest_until_round(st, round_number):
    """Every player rests until round `round_number` begins (or the game ends)."""
    while not st.is_terminal() and st.round < round_number:
        play(st, "rest")
    return st
