"""Arranging positions of the real Catalyst rules for scenario tests.

Cards are picked by their data (kind, effects, cost...), never by name, so the
tests hold for any card set that has such cards.
"""
from __future__ import annotations

from .conftest import labels as option_labels, play  # noqa: F401 (used by the scenario files)


def card_ids(game, kind, **fields) -> list[str]:
    """Ids of the cards of `kind` whose fields equal `fields` (`game` may
    also be a state: both have `.program`)."""
    return [c.id for c in game.program.cards.cards
            if c.kind == kind and all(c.data.get(k) == v for k, v in fields.items())]


def card(game, kind, exclude=(), **fields) -> str:
    for cid in card_ids(game, kind, **fields):
        if cid not in exclude:
            return cid
    raise LookupError(f"no {kind} card with {fields}")


def data(game, card_id) -> dict:
    return game.program.cards.by_id(card_id).data


def start(game, players=2, seed=1):
    """A new game at the first player's first decision (choosing an action)."""
    st = game.new_initial_state(players, seed)
    assert st.legal_actions()[0] == "collect"
    return st


def set_market(st, ids):
    """Empty the board and lay `ids` on its spaces, space 1 (next to the deck) first."""
    for cid in st.zone("market"):
        if cid is not None:
            st.place(cid, "box")
    for slot, cid in enumerate(ids):
        if cid is not None:
            st.place(cid, "market", slot=slot)


def give_building(st, building_id, player, occupant=None):
    st.place(building_id, "buildings", owner=player)
    if occupant is not None:
        st.place(occupant, "occupant", owner=building_id)

