"""Sample a world consistent with what one player may see.

Cards the player cannot see (hidden zones, other players' owner-only zones) are
shuffled among the places they occupy, each card kind among its own places
(kinds are told apart by their backs); everything visible stays, and so do the
cards still in the zone all cards start in (left out of the game by public
rules). Counters on a card (per-card counters) are seen on its back, so they
stay with the place, not with the card that moves. Counters the player never
sees (hidden counters, other players' owner-only counters) are set to their
lowest value, so the sample carries none of their values. Search bots work on
such samples, never on the true state.
"""
from __future__ import annotations

from . import rng as _rng
from .compiler.ops import zone_to_change
from .visibility import counter_visible, instance_visible


def determinize(st, player: int, seed_state: int):
    """A clone of `st` with the unseen cards redistributed; returns (clone, rng)."""
    world = st.clone()
    world.forget_history()  # the sample is no position the true actions lead to
    kinds = world.program.card_kinds
    on_card = [world.ctr[c.index] for c in world.program.counter_list if c.scope == "card"]
    by_kind: dict = {}
    for zi, i in _unseen_places(world, player):
        by_kind.setdefault(kinds[world.z[zi][i]], []).append((zi, i))
    for kind in sorted(by_kind):
        places = by_kind[kind]
        # in a fixed order first, so the sample cannot depend on where the
        # unseen cards really are
        cards = sorted(world.z[zi][i] for zi, i in places)
        seed_state = _rng.shuffle(seed_state, cards)
        marks = [[values[world.z[zi][i]] for values in on_card] for zi, i in places]
        for (zi, i), card, counts in zip(places, cards, marks):
            zone_to_change(world, zi)[i] = card
            world.loc[card] = zi
            for values, count in zip(on_card, counts):
                values[card] = count
    _forget_unseen_counters(world, player)
    # The world's own future randomness must not be the true one either.
    world.rng, _ = _rng.next_u64(seed_state)
    return world, seed_state


def _unseen_places(st, viewer: int) -> list:
    """`visibility.unseen_places`, in the same order, asking who sees a zone
    instance only when it holds cards (most zones on cards are empty, and
    asking walks the cards holding them)."""
    program = st.program
    home = program.zones[program.setup_zone].base
    places = []
    for zi, zone in enumerate(st.z):
        if zi == home:
            continue
        held = [(zi, i) for i, card in enumerate(zone) if card is not None]
        if held and not instance_visible(st, zi, viewer):
            places.extend(held)
    return places


def _forget_unseen_counters(world, player: int) -> None:
    """Set every player or shared counter value `player` never sees to the
    counter's lowest value."""
    for info in world.program.counter_list:
        if info.scope == "card":
            continue
        row = world.ctr[info.index]
        low = info.minimum if info.minimum is not None else 0
        if info.maximum is not None:
            low = min(low, info.maximum)
        for owner in range(len(row)):
            if not counter_visible(info, owner if info.scope == "player" else None, player):
                row[owner] = low
