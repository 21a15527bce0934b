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
    return Deal(st, player).sample(seed_state)


class Deal:
    """How worlds are dealt from one position for one player: which places
    are unseen and which cards go there, by back, what lies on those
    places' backs, which zones' sizes are not told, which counters are
    forgotten. All of it is a function of the position and the player
    alone, so a search drawing many worlds from one decision works it out
    once (`sample` only shuffles and deals); the position must not change
    while its worlds are drawn (`play.world_sampler` makes a new deal when
    it does)."""

    def __init__(self, st, player: int):
        self.st, self.player = st, player
        on_card = _on_card(st)
        uncounted = _uncounted_zones(st, player)
        by_back, loose, blanks = _unseen_by_back(st, player, uncounted, on_card)
        pinned = st.known_in or ()
        bit = 1 << player
        # per back, in a fixed order: its places, the cards known to lie in their zone, the cards to
        # shuffle in a fixed order (so the sample cannot depend on where the
        # unseen cards really are), and what lies on each place's back, per
        # counter of `on_card` that the deal can change
        self.backs = []
        for back in sorted(by_back.keys() | loose.keys(), key=repr):
            places, there = by_back.get(back, ([], []))
            kept = [card for card in there if pinned[card] & bit] if pinned else []
            extra = loose.get(back)
            # (a card lies in one place: without cards kept or loose, the cards there, sorted)
            cards = sorted(set(there).difference(kept) | set(extra or ())) if kept or extra else sorted(there)
            # (without loose cards, those dealt are the ones there, in another
            # order: only the places' marks can differ, `_marks` need not look at them twice)
            self.backs.append((places, kept, cards, _marks(on_card, there, cards + kept if extra else ())))
        self.uncounted, self.blanks = sorted(uncounted), blanks
        self.forgotten = _unseen_counters(st, player)

    def sample(self, seed_state: int):
        """A world dealt anew with the generator at `seed_state`; (world, rng)."""
        world = self.st.clone()
        world.forget_history()  # the sample is no position the true actions lead to
        on_card = _on_card(world)
        spare = []
        for places, kept, cards, marks in self.backs:
            seed_state, left_over = _deal_back(world, places, kept, cards[:], marks, on_card, seed_state)
            spare += left_over
        seed_state = _deal_uncounted(world, self.uncounted, self.blanks, spare, on_card, seed_state)
        ctr = world.ctr
        for index, owner, low in self.forgotten:
            ctr[index][owner] = low
        seed_state = _pick_secrets_again(world, self.player, seed_state)
        # The world's own future randomness must not be the true one either.
        world.rng, _ = _rng.next_u64(seed_state)
        return world, seed_state


def _on_card(st) -> list:
    """What lies on a card's back, staying with its place: the per-card
    counters' rows, and what the other players know of the card there."""
    on_card = [st.ctr[c.index] for c in st.program.counter_list if c.scope == "card"]
    on_card.append(st.known)
    return on_card


def _unseen_by_back(world, player: int, uncounted: set, on_card: list) -> tuple:
    """The places of the cards `player` cannot see, by back, with the cards
    there (in the same order: the deal reads them once); and the cards
    lying in a zone of `uncounted` with nothing on their backs (nor known to
    lie in that zone), by back, with the places they leave, by zone."""
    backs = world.program.card_backs
    bit = 1 << player
    pinned = world.known_in or ()  # (per card: the seats that know it lies in its zone instance)
    by_back: dict = {}
    loose: dict = {}
    blanks: dict = {}
    z = world.z
    for place in unseen_places(world, player):
        zi, i = place
        card = z[zi][i]
        if zi in uncounted and not _on_back(on_card, card) and not (pinned and pinned[card] & bit):
            loose.setdefault(backs[card], []).append(card)
            blanks.setdefault(zi, set()).add(i)
        else:
            found = by_back.get(backs[card])
            if found is None:
                found = by_back[backs[card]] = ([], [])
            found[0].append(place)
            found[1].append(card)
    return by_back, loose, blanks


def _on_back(on_card: list, card: int) -> bool:
    """Whether anything lies on `card`'s back (a function of its own, so that
    the deal's loop keeps `card` a fast local, not a generator's cell)."""
    for values in on_card:
        if values[card]:
            return True
    return False


def _marks(on_card: list, there: list, dealt: list) -> list:
    """(k, what lies on each place's back) for each row k of `on_card` that
    dealing the cards `dealt` to the places of the cards `there` can change:
    a row where every place has the same value as every card dealt moves
    nothing (the usual case: no counter on any unseen card)."""
    marks = []
    for k, values in enumerate(on_card):
        counts = list(map(values.__getitem__, there))
        if counts and (counts.count(counts[0]) != len(counts)
                       or list(map(values.__getitem__, dealt)).count(counts[0]) != len(dealt)):
            marks.append((k, counts))
    return marks


def _deal_back(world, places: list, kept: list, cards: list, marks: list, on_card: list, seed_state: int) -> tuple:
    """The cards of one back (`cards`, shuffled here, and `kept`) dealt anew
    to its `places`; what lies on a place's back (`marks`) stays with the
    place. (rng, the cards left over for the zones whose size is not told)."""
    seed_state = _rng.shuffle(seed_state, cards)
    if kept:
        seed_state, cards = _keep_in_their_zones(world, places, kept, cards, seed_state)
    loc = world.loc
    row = last = None
    for (zi, i), card in zip(places, cards):
        if zi != last:  # (places come zone instance by zone instance)
            row, last = zone_to_change(world, zi), zi
        row[i] = card
        loc[card] = zi
    for k, counts in marks:
        values = on_card[k]
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
    while world.frames and world.frames[-1] is frame and frame[2] is local and world.point == point.id and len(local[point.picks]) < len(kept):
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


def _unseen_counters(st, player: int) -> tuple:
    """(counter, owner, lowest value) of every player or shared counter value
    `player` never sees: a world sets each to the counter's lowest value.
    Which values a player sees is declared (`counter_visible` reads no
    position): worked out once per rules, player and number of players, for
    every decision deals its worlds, and kept with the program."""
    kept = st.program.unseen_counters
    found = kept.get((player, st.n))
    if found is None:
        found = kept[(player, st.n)] = tuple(_unseen_counters_long(st, player))
    return found


def _unseen_counters_long(st, player: int):
    """`_unseen_counters` worked out, counter by counter."""
    for info in st.program.counter_list:
        if info.scope == "card":
            continue
        low = info.minimum if info.minimum is not None else 0
        if info.maximum is not None:
            low = min(low, info.maximum)
        if info.holds_player:
            low = None  # no player
        for owner in range(len(st.ctr[info.index])):
            if not counter_visible(info, owner if info.scope == "player" else None, player):
                yield info.index, owner, low
