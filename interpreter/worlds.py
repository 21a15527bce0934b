"""Sample a world consistent with what one player may see.

Cards the player cannot see (hidden zones, other players' owner-only zones) are
shuffled among the places they occupy, the cards of each back among its own
places (`backs:` in the rules; by default every card has the same back, so a
card of one kind may land where one of another lay); everything visible stays, and so do the
cards still in the zone all cards start in (left out of the game by public
rules), and the cards the player knows where they lie (seen going face down,
looked at, revealed to it: `state.known`). A card the player knows to lie
somewhere in a zone, not where (it saw it shuffled in: `state.known_in`),
lands at one of that zone's unseen places. Counters on a card (per-card
counters) are seen on its back, so they stay with the place, not with the
card that moves; so does what the other players know of the card at a place
(which card that is, the sample does not know). Counters the player never
sees (hidden counters, other players' owner-only counters) are set to their
lowest value, so the sample carries none of their values. Search bots work on
such samples, never on the true state.

A zone declared `size hidden` that the player does not see does not tell
it how many cards it holds, so a sample does not keep that number either:
the unknown cards of all such zones with nothing on their backs are pooled
with the other unseen cards of their back, the places whose number the
player knows are filled first, and each card left over lands in one of the
size-hidden zones, chosen uniformly at random, at a uniformly random place
in it (the prior: every such zone as likely as another, whatever it held).
What the player knows there stays: its known cards and the places with
something on their backs keep their order. Slotted zones and zones on cards
keep their number of cards (their places are counted on the table).

While a simultaneous choice is being made, the picks the other players have
made so far are hidden: a sample makes them again, each at random among the
options that player has in the sample (the player's own pick stays).
"""
from __future__ import annotations

from . import rng as _rng
from .runtime.ops import zone_to_change
from .engine.run import run
from .visibility import counter_visible, instance_visible, unseen_places


def determinize(st, player: int, seed_state: int):
    """A clone of `st` with the unseen cards redistributed; returns (clone, rng)."""
    world = st.clone()
    world.forget_history()  # the sample is no position the true actions lead to
    on_card = [world.ctr[c.index] for c in world.program.counter_list if c.scope == "card"]
    on_card.append(world.known)
    uncounted = _uncounted_zones(world, player)
    by_back, loose, blanks = _unseen_by_back(world, player, uncounted, on_card)
    spare = []
    for back in sorted(by_back.keys() | loose.keys(), key=repr):
        seed_state, left_over = _deal_back(world, player, by_back.get(back, []), loose.get(back, []), on_card,
                                           seed_state)
        spare += left_over
    seed_state = _deal_uncounted(world, sorted(uncounted), blanks, spare, on_card, seed_state)
    _forget_unseen_counters(world, player)
    seed_state = _pick_secrets_again(world, player, seed_state)
    # The world's own future randomness must not be the true one either.
    world.rng, _ = _rng.next_u64(seed_state)
    return world, seed_state


def _unseen_by_back(world, player: int, uncounted: set, on_card: list) -> tuple:
    """The places of the cards `player` cannot see, by back; and the cards
    lying in a zone of `uncounted` with nothing on their backs (nor known to
    lie in that zone), by back, with the places they leave, by zone."""
    backs = world.program.card_backs
    bit = 1 << player
    pinned = world.known_in or ()  # (per card: the seats that know it lies in its zone instance)
    by_back: dict = {}
    loose: dict = {}
    blanks: dict = {}
    for zi, i in unseen_places(world, player):
        card = world.z[zi][i]
        if zi in uncounted and not any(values[card] for values in on_card) and not (pinned and pinned[card] & bit):
            loose.setdefault(backs[card], []).append(card)
            blanks.setdefault(zi, set()).add(i)
        else:
            by_back.setdefault(backs[card], []).append((zi, i))
    return by_back, loose, blanks


def _deal_back(world, player: int, places: list, loose: list, on_card: list, seed_state: int) -> tuple:
    """The cards of one back dealt anew to its `places` (those of `loose`
    too); what lies on a place's back stays with the place. (rng, the cards
    left over for the zones whose size is not told)."""
    # in a fixed order first, so the sample cannot depend on where the
    # unseen cards really are
    pinned = world.known_in or ()
    bit = 1 << player
    there = [world.z[zi][i] for zi, i in places]
    kept = [card for card in there if pinned and pinned[card] & bit]
    cards = sorted(set(there).difference(kept) | set(loose))
    seed_state = _rng.shuffle(seed_state, cards)
    if kept:
        seed_state, cards = _keep_in_their_zones(world, places, kept, cards, seed_state)
    marks = [[values[card] for card in there] for values in on_card]  # (per counter: one pass each)
    loc = world.loc
    for (zi, i), card in zip(places, cards):
        zone_to_change(world, zi)[i] = card
        loc[card] = zi
    for values, counts in zip(on_card, marks):
        for card, count in zip(cards, counts):
            values[card] = count
    return seed_state, cards[len(places):]


def _keep_in_their_zones(world, places: list, kept: list, cards: list, seed_state: int):
    """The cards for `places`, in their order: each card of `kept` (known
    to lie somewhere in its zone instance) at a place of that instance
    chosen at random, the shuffled `cards` at the places left (and after
    them, those left over)."""
    out = [None] * len(places)
    for zi in sorted({world.loc[card] for card in kept}):
        mine = sorted(card for card in kept if world.loc[card] == zi)
        slots = [j for j, (zone, _) in enumerate(places) if zone == zi]
        seed_state = _rng.shuffle(seed_state, slots)
        for j, card in zip(slots, mine):
            out[j] = card
    rest = iter(cards)
    out = [card if card is not None else next(rest) for card in out]
    return seed_state, out + list(rest)


def _uncounted_zones(st, viewer: int) -> set:
    """The zone instances whose number of cards `viewer` is not told and a
    sample may change: `size hidden`, not seen, neither slotted nor on a card,
    and of a seat in the game (the rules' largest table has instances for more)."""
    program = st.program
    home = program.zones[program.setup_zone].base
    found = set()
    for info in program.zones.values():  # (the few zones, not their many instances)
        if info.size_hidden and not info.slots and info.scope != "card":
            seats = range(info.base, info.base + (st.n if info.scope == "player" else info.count))
            found.update(zi for zi in seats if zi != home and not instance_visible(st, zi, viewer))
    return found


def _deal_uncounted(world, zones: list, blanks: dict, spare: list, on_card: list, seed_state: int) -> int:
    """Take the loose cards out of `zones` (their places `blanks`), then put
    each card of `spare` in one of `zones` at random, at a random place, with
    nothing on its back."""
    for zi, places in blanks.items():
        zone = zone_to_change(world, zi)
        zone[:] = [card for i, card in enumerate(zone) if i not in places]
    for card in spare:
        seed_state, k = _rng.below(seed_state, len(zones))
        zone = zone_to_change(world, zones[k])
        seed_state, i = _rng.below(seed_state, len(zone) + 1)
        zone.insert(i, card)
        world.loc[card] = zones[k]
        for values in on_card:
            values[card] = 0
    return seed_state


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
        if info.holds_player:
            low = None  # no player
        for owner in range(len(row)):
            if not counter_visible(info, owner if info.scope == "player" else None, player):
                row[owner] = low
