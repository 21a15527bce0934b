"""Sample a world consistent with what one player may see.

Cards the player cannot see (hidden zones, other players' owner-only zones) are
shuffled among the places they occupy, each card kind among its own places
(kinds are told apart by their backs); everything visible stays, and so do the
cards still in the zone all cards start in (left out of the game by public
rules), and the cards the player knows where they lie (seen going face down,
looked at, revealed to it: `state.known`). Counters on a card (per-card
counters) are seen on its back, so they stay with the place, not with the
card that moves; so does what the other players know of the card at a place
(which card that is, the sample does not know). Counters the player never
sees (hidden counters, other players' owner-only counters) are set to their
lowest value, so the sample carries none of their values. Search bots work on
such samples, never on the true state.

While a simultaneous choice is being made, the picks the other players have
made so far are hidden: a sample makes them again, each at random among the
options that player has in the sample (the player's own pick stays).
"""
from __future__ import annotations

from . import rng as _rng
from .compiler.ops import zone_to_change
from .engine.run import run
from .visibility import counter_visible, instance_visible, knows


def determinize(st, player: int, seed_state: int):
    """A clone of `st` with the unseen cards redistributed; returns (clone, rng)."""
    world = st.clone()
    world.forget_history()  # the sample is no position the true actions lead to
    kinds = world.program.card_kinds
    on_card = [world.ctr[c.index] for c in world.program.counter_list if c.scope == "card"]
    on_card.append(world.known)
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
    seed_state = _pick_secrets_again(world, player, seed_state)
    # The world's own future randomness must not be the true one either.
    world.rng, _ = _rng.next_u64(seed_state)
    return world, seed_state


def _unseen_places(st, viewer: int) -> list:
    """`visibility.unseen_places`, in the same order, asking who sees a zone
    instance only when it holds cards it does not know (most zones on cards
    are empty, and asking walks the cards holding them)."""
    program = st.program
    home = program.zones[program.setup_zone].base
    places = []
    for zi, zone in enumerate(st.z):
        if zi == home:
            continue
        held = [(zi, i) for i, card in enumerate(zone) if card is not None and not knows(st, card, viewer)]
        if held and not instance_visible(st, zi, viewer):
            places.extend(held)
    return places


def _pick_secrets_again(world, player: int, seed_state: int) -> int:
    """When a simultaneous choice is pending, ask its players again from the
    first, in the sample: `player` picks what it picked, every other player
    one of its options in the sample at random."""
    point = world.program.decisions[world.point] if world.point is not None else None
    if not getattr(point, "secret", False):
        return seed_state
    frame = world.frames[-1]
    local = frame[2]
    kept, seats = local[point.picks], local[point.seats]
    if all(seat == player for seat in seats[:len(kept)]):
        return seed_state
    local[point.picks] = ()
    frame[1] = point.ask
    run(world)
    while world.frames and world.frames[-1] is frame and world.point == point.id and len(local[point.picks]) < len(kept):
        k = len(local[point.picks])
        options = world.option_values
        if seats[k] == player and kept[k] in options:
            value = kept[k]
        else:
            seed_state, i = _rng.below(seed_state, len(options))
            value = options[i]
        point.apply(world, frame, value)
        run(world)
    return seed_state


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
