"""The primitive operations on zones that generated rule code calls.

A card is an int; `st.z` holds every zone instance as a list of cards (a
slotted zone has one entry per slot, None for an empty one) and `st.loc`
says which instance holds each card. Moving a card keeps the two in step
and fires the `becomes empty` trigger of the zone it leaves. When someone
listens (`st.events` is a list), each move and shuffle is told there.

What the players know follows the cards: a card leaving a zone instance
stays known (`st.known`, a bit mask of seats per card) to the seats that saw
it there, wherever it goes unseen, until a shuffle of the zone it lies in,
or a player chooses a card of its place unseen by them (`chosen`). A shuffle
turns knowing where a card lies into knowing that it lies somewhere in that
zone (`st.known_in`), until a card leaves the zone unseen (`leaving`).

A clone shares its zone instances' lists with the state it was cloned from
(most of them never change before the clone is thrown away): whatever
changes a zone instance asks for it with `zone_to_change`, which copies the
list first unless this state already did since it was made or cloned.
"""
from __future__ import annotations

from itertools import filterfalse

from .. import rng as _rng
from ..errors import RulesRuntimeError
from .calls import run_nested


def zone_to_change(st, zi: int) -> list:
    """The list of zone instance `zi`, this state's own (copied first if it may be shared)."""
    owned = st.owned
    if owned is None:
        owned = st.owned = set()
    elif zi in owned:
        return st.z[zi]
    owned.add(zi)
    zone = st.z[zi] = st.z[zi][:]
    return zone


def free_slot(zone: list, info, bottom: bool) -> int:
    """Where a card placed in slotted `zone` goes: its last empty slot (its
    first, at the bottom)."""
    if None not in zone:
        raise RulesRuntimeError(f"zone '{info.name}' is full ({info.slots} slots)")
    return zone.index(None) if bottom else len(zone) - 1 - zone[::-1].index(None)


def put(st, card: int, zi: int, bottom: bool = False) -> None:
    """Place a card that is in no zone into zone instance `zi`."""
    zone = zone_to_change(st, zi)
    info = st.program.zone_of_instance[zi]
    if info.slots:
        zone[free_slot(zone, info, bottom)] = card
    elif bottom:
        zone.insert(0, card)
    else:
        zone.append(card)
    st.loc[card] = zi


def move(st, card: int, zi: int, bottom: bool = False) -> None:
    """Move a card to zone instance `zi`. If the card leaves its zone empty,
    the zone's `becomes empty` trigger fires once the card has arrived, so a
    trigger that ends the game finds every card in a place. (The most frequent
    operation of a game, so written out rather than split into helpers: the
    lists are asked of `zone_to_change` only when this state may share them.)"""
    loc = st.loc
    src = loc[card]
    program = st.program
    infos = program.zone_of_instance
    owned = st.owned
    source = st.z[src] if owned is not None and src in owned else zone_to_change(st, src)
    left = infos[src]
    if left.slots:
        source[source.index(card)] = None
    else:
        source.remove(card)
    if st.known_in is not None:
        leaving(st, card, src, zi)
    seers = program.seers[src]
    if seers:
        st.known[card] |= seers
    arriving = infos[zi]
    target = st.z[zi] if owned is not None and zi in owned else zone_to_change(st, zi)
    if arriving.slots:
        target[free_slot(target, arriving, bottom)] = card
    elif bottom:
        target.insert(0, card)
    else:
        target.append(card)
    loc[card] = zi
    if left.top_visible:
        show_top(st, src)
    if arriving.top_visible:
        show_top(st, zi)
    if st.events is not None:
        st.events.append(("move", card, src, zi, tuple(st.known)))
    if left.empty_hook is not None and (source.count(None) == len(source) if left.slots else not source):
        run_nested(st, left.empty_hook)


def move_many(st, cards: tuple, zi: int, bottom: bool = False, kept: list | None = None) -> bool:
    """Move `cards`, which all lie in one other zone instance, to instance
    `zi` in one pass over each list, leaving everything as `move` of each
    in turn would (a setup moves a zone's worth of cards at once); False,
    with nothing done, where one at a time may differ or needs more: slots,
    a top card everyone sees, knowledge of cards somewhere in a zone
    (`known_in`), someone listening, a card named twice or lying elsewhere.
    The zone left fires its `becomes empty` trigger once every card has
    arrived, as the last card's move would. `kept`, from a caller that took
    `cards` from the zone's list itself, is what that list keeps."""
    loc = st.loc
    src = loc[cards[0]] if cards[0].__class__ is int and cards[0] >= 0 else zi
    if src == zi or st.known_in is not None or st.events is not None:
        return False
    program = st.program
    left, arriving = program.zone_of_instance[src], program.zone_of_instance[zi]
    if left.slots or arriving.slots or left.top_visible or arriving.top_visible:
        return False
    if kept is None:
        moving = set(cards)
        kept = list(filterfalse(moving.__contains__, st.z[src]))  # (a loop in C: setups move whole zones)
        if len(st.z[src]) - len(kept) != len(cards):  # a card twice, or lying elsewhere
            return False
    source, target = zone_to_change(st, src), zone_to_change(st, zi)
    source[:] = kept
    if bottom:
        target[:0] = cards[::-1]
    else:
        target.extend(cards)
    for card in cards:
        loc[card] = zi
    seers = program.seers[src]
    if seers:
        known = st.known
        for card in cards:
            known[card] |= seers
    if left.empty_hook is not None and not source:
        run_nested(st, left.empty_hook)
    return True


def knew_in(st, card: int, seats: int) -> None:
    """`seats`, who knew where `card` lies, know no more than that it lies
    somewhere in its zone instance."""
    if seats:
        if st.known_in is None:
            st.known_in = [0] * len(st.known)
        st.known_in[card] |= seats


def leaving(st, card: int, src: int, dst: int) -> None:
    """`card` leaves instance `src` for `dst`. A player who knew only that
    some cards lie somewhere in `src` (`st.known_in`), and cannot tell which
    card left (it sees neither place nor knows where the card lay), no
    longer knows that of any of them: which one left it cannot say. The card
    itself is now known by place alone (to those who followed it)."""
    known_in = st.known_in
    seers = st.program.seers
    unfollowed = ((1 << st.n) - 1) & ~(seers[src] | seers[dst] | st.known[card])
    known_in[card] = 0
    if unfollowed:
        for other in st.z[src]:
            if other is not None and known_in[other] & unfollowed:
                known_in[other] &= ~unfollowed


def top(st, zi: int):
    """The top card of a zone (the last one placed), or none."""
    zone = st.z[zi]
    for card in reversed(zone):
        if card is not None:
            return card
    return None


def show_top(st, zi: int) -> None:
    """The top card of a `top visible` instance is seen by every player:
    they know it from then on, and where it goes (as a card seen leaving a
    place one sees)."""
    card = top(st, zi)
    if card is not None:
        st.known[card] |= (1 << st.n) - 1


def deal(st, count: int, src: int, dst: int) -> None:
    zone = st.z[src]
    if 1 < count < len(zone) and move_many(st, tuple(zone[:-count - 1:-1]), dst, kept=zone[:-count]):
        return  # (the zone keeps cards: no trigger may refill it between two cards)
    for _ in range(count):
        card = top(st, src)
        if card is None:
            return
        move(st, card, dst)


def shuffle(st, zi: int) -> None:
    """Shuffle a zone: where its cards lie is known to no one any more."""
    zone = zone_to_change(st, zi)
    st.rng = _rng.shuffle(st.rng, zone)
    known = st.known
    for card in zone:
        if card is not None and known[card]:  # knowing where becomes knowing it is there
            knew_in(st, card, known[card])
            known[card] = 0
    if st.program.zone_of_instance[zi].top_visible:
        show_top(st, zi)
    if st.events is not None:
        st.events.append(("shuffle", zi))


def slide(st, zi: int) -> None:
    """Close the gaps of a slotted zone, pushing cards toward its last slot.
    (Run at every turn of some games, most often with one gap: that gap is
    taken out and put first by two list methods, not by making the row anew.
    The generated code calls it only where the zone has a gap.)"""
    zone = st.z[zi]
    owned = st.owned
    if owned is None or zi not in owned:
        zone = zone_to_change(st, zi)
    gaps = zone.count(None)
    if gaps == 1:
        zone.remove(None)
        zone.insert(0, None)
    else:
        zone[:] = [None] * gaps + [c for c in zone if c is not None]


def refill(st, zi: int, src: int) -> None:
    """Fill the empty slots of a zone from the top of `src`, last slot first.
    (Run at every turn of some games: the generated code calls it only where
    the zone has a gap, and a single gap is found by `index`, not by going
    through the slots.)"""
    zone = st.z[zi]
    owned = st.owned
    if owned is None or zi not in owned:
        zone = zone_to_change(st, zi)
    source = st.z[src] if owned is not None and src in owned else zone_to_change(st, src)
    empty = (zone.index(None),) if zone.count(None) == 1 else [i for i, c in enumerate(zone) if c is None][::-1]
    info = st.program.zone_of_instance[src]
    seers = st.program.seers[src]
    loc = st.loc
    for i in empty:
        if info.slots:
            card = top(st, src)
            if card is None:
                return
            source[source.index(card)] = None
        else:
            if not source:
                return
            card = source.pop()
        if st.known_in is not None:
            leaving(st, card, src, zi)
        zone[i] = card
        loc[card] = zi
        if seers:
            st.known[card] |= seers
        if info.top_visible:
            show_top(st, src)
        if st.events is not None:
            st.events.append(("move", card, src, zi, tuple(st.known)))
        if info.empty_hook is not None and (source.count(None) == len(source) if info.slots else not source):
            run_nested(st, info.empty_hook)


def show_options(st, values) -> None:
    """A decision offering cards (`values`) names them to the player deciding
    (the acting player), who knows them from then on, wherever they lie."""
    seat = 1 << st.me
    known = st.known
    for value in values:
        if value.__class__ is int:
            known[value] |= seat


def show_cards(st, cards) -> None:
    """`show_options` for options that are all cards (a choice never
    offering to pass): nothing to tell apart."""
    seat = 1 << st.me
    known = st.known
    for card in cards:
        known[card] |= seat


def chosen(st, card: int) -> None:
    """`me` chose `card` where it lies: a player who does not see that place
    cannot tell which of its cards was taken, so it no longer knows where
    any card of that place lies (it knew them by their places; the chooser
    handled them unseen). The story does not name the card to it either
    (visibility.option_visible)."""
    zi = st.loc[card]
    others = ((1 << st.n) - 1) & ~(st.program.seers[zi] | 1 << st.me)
    if not others:
        return
    known = st.known
    for c in st.z[zi]:
        if c is not None and known[c] & others:
            knew_in(st, c, known[c] & others)
            known[c] &= ~others


def walked(st, cards) -> None:
    """`me` goes through `cards` one by one, asking a decision for each: a
    player who does not see where a card lies cannot tell which card each
    decision is about, so it no longer knows where that card lies."""
    known = st.known
    if not any(map(known.__getitem__, cards)):  # (the common case: nobody knows any of them)
        return
    everyone, seers, loc = (1 << st.n) - 1, st.program.seers, st.loc
    for card in cards:
        if known[card]:
            keep = seers[loc[card]] | 1 << st.me | ~everyone
            knew_in(st, card, known[card] & ~keep)
            known[card] &= keep


def lay(st, card: int, rest) -> tuple:
    """Put `card` at the highest place held by the cards of `rest` (which
    holds it, all in one zone instance) and return `rest` without it: laid
    one by one, the cards of `rest` take their places in the order chosen,
    top first. Who knew which of them lay where knows it no longer."""
    zi = st.loc[card]
    zone = zone_to_change(st, zi)
    top = max(zone.index(c) for c in rest)
    here = zone.index(card)
    zone[here], zone[top] = zone[top], card
    if st.program.zone_of_instance[zi].top_visible:
        show_top(st, zi)
    return tuple(c for c in rest if c != card)
