"""Who may see what: the one place that decides it.

A viewer is a seat, PUBLIC for what every player sees, or EVERYTHING for
what anyone may see once a game is over (the final table, a game's log).
The rules declare each zone and counter `visible` (everyone), `owner only`
(the player it belongs to), `others only` (every player but its owner) or
`hidden` (no one). From that:

- the cards of a zone instance are seen by whoever sees the zone; a card is
  seen where it lies, if its zone is seen and, for a card held by a card (a
  per-card zone), if the card holding it is seen too;
- a card is also seen, where it lies unseen, by the players who know it
  (`state.known`): who saw it leave a place they see, who looked at it
  (`look at`), to whom it was revealed (`reveal ... to`); a shuffle of its
  zone makes it unknown again (runtime/ops.py keeps the marks);
- a counter's value is seen by whoever its visibility allows; a per-card
  counter is seen with its card, and on the card's back, by place, by who
  does not see the card (`marks_on_backs`);
- an option of a decision is seen by the deciding player; by others only if
  every card it names is seen by them;
- cards left in the zone every card starts in (set aside by public rules) are
  not secrets: a sampled world leaves them where they are.

`observation()`, the terminal view, the worlds bots search (`worlds.py`) and
the agent encoders all ask this module.
"""
from __future__ import annotations

from .runtime.values import Only, cards_read
from .language.builtins import host_of

PUBLIC = -1  # the viewer "every player": sees only what everyone sees
EVERYTHING = -2  # the viewer who sees every card and counter: a finished game, a game's log

VISIBLE, OWNER, OTHERS, HIDDEN = "visible", "owner", "others", "hidden"


def _declared_visible(info, owner, viewer: int) -> bool:
    """What a zone's or counter's declared visibility says of `viewer` and
    the instance that belongs to `owner` (a seat for a per-player one)."""
    if info.visibility == VISIBLE or viewer == EVERYTHING:
        return True
    if info.visibility == OWNER:
        return info.scope == "player" and viewer >= 0 and owner == viewer
    if info.visibility == OTHERS:
        return info.scope == "player" and viewer >= 0 and owner != viewer
    return False


def zone_visible(info, owner, viewer: int) -> bool:
    """Whether `viewer` sees the cards of the instance of zone `info` that
    belongs to `owner` (a seat for a per-player zone, else a card or None)."""
    return _declared_visible(info, owner, viewer)


def seer_masks(program) -> list:
    """Per zone instance, the seats that see its cards as a bit mask
    (every seat the rules allow: all bits of max_players): a card leaving the
    instance stays known to them. A card held by a card is judged by its zone
    alone (its holder may move)."""
    return [sum(1 << seat for seat in range(program.max_players) if zone_visible(info, zi - info.base, seat))
            for zi, info in enumerate(program.zone_of_instance)]


def knows(st, card: int, viewer: int) -> bool:
    """Whether `viewer` knows `card` where it lies, seen there or not."""
    if viewer >= 0:  # (the common case, without a call)
        return bool(st.known[card] >> viewer & 1)
    bits = knowing_bits(st, viewer)
    return st.known[card] & bits == bits


def knowing_bits(st, viewer: int) -> int:
    """The seats' bits of `st.known[card]` that must all be set for `viewer`
    to know the card: its own; every seat's for the public; none for a
    viewer seeing everything."""
    if viewer >= 0:
        return 1 << viewer
    return 0 if viewer == EVERYTHING else (1 << st.n) - 1


def instance_visible(st, zi: int, viewer: int) -> bool:
    """Whether `viewer` sees the cards of zone instance `zi`."""
    info = st.program.zone_of_instance[zi]
    owner = zi - info.base
    if not zone_visible(info, owner if info.scope != "shared" else None, viewer):
        return False
    return info.scope != "card" or card_visible(st, owner, viewer)


def card_visible(st, card: int, viewer: int) -> bool:
    """Whether `viewer` sees which card `card` is, where it lies (or knows it)."""
    if st.known[card] and knows(st, card, viewer):
        return True
    return card_seen_in_place(st, card, viewer)


def card_seen_in_place(st, card: int, viewer: int) -> bool:
    """Whether `viewer` sees `card` face up where it lies: its zone is seen,
    and so is every card holding it."""
    for _ in range(len(st.loc)):  # through the cards holding it (a longer chain would be a loop)
        zi = st.loc[card]
        info = st.program.zone_of_instance[zi]
        owner = zi - info.base
        if not zone_visible(info, owner if info.scope == "player" else None, viewer):
            return False
        host = host_of(st, card)
        if host is None:
            return True
        card = host
    return False


def counter_visible(info, owner, viewer: int) -> bool:
    """Whether `viewer` sees the value of counter `info` of `owner` (a seat,
    a card or None). A per-card counter's card must be seen as well: see
    `card_counter_visible`."""
    return _declared_visible(info, owner, viewer)


def card_counter_visible(st, info, card: int, viewer: int) -> bool:
    return counter_visible(info, card, viewer) and card_visible(st, card, viewer)


def option_visible(st, kind, value, decider: int, viewer: int) -> bool:
    """Whether `viewer` may see which option `decider` took: the decider
    always; another player if the option names no card that player cannot
    see where it lies (knowing which card lies there is not enough: the
    decider handles the cards of a place the others do not see unseen)."""
    if viewer == decider:
        return True
    if kind == "card" and isinstance(value, int) and not isinstance(value, bool):
        return card_seen_in_place(st, value, viewer)
    return True


def told_to(st, text, viewer: int) -> str:
    """`text` (a label, a story line's words) as `viewer` is told it: each
    part read from cards (a `Told`'s parts, see runtime/values.py) only if
    the viewer sees every one of them where it lies, else what the part
    says instead ("a card")."""
    parts = getattr(text, "parts", None)
    if parts is None or viewer == EVERYTHING:
        return text
    out = []
    for part in parts:
        if part.__class__ is str:
            out.append(part)
        else:
            words, sources, instead = part
            mine = all(s.seat == viewer for s in sources if isinstance(s, Only))
            out.append(words if mine and all(card_visible(st, card, viewer) for card in cards_read(sources))
                       else instead)
    return "".join(out)


def size_seen(st, zi: int, viewer: int) -> bool:
    """Whether `viewer` is told how many cards instance `zi` holds: always,
    unless the rules declare its size hidden and the viewer does not see it."""
    return not st.program.zone_of_instance[zi].size_hidden or instance_visible(st, zi, viewer)


def known_places(st, zi: int, viewer: int, cards: list | None = None, sized: bool | None = None):
    """For an instance `viewer` does not see: per place, bottom first, the
    card it knows there or None; None when it knows none of them. Where the
    viewer is not told the instance's size, only the cards it knows, bottom
    first, without the places between them (their count would tell it).
    (`cards`, `_cards_of`, and `sized`, `size_seen`: where the caller has them.)"""
    zone = st.z[zi]
    known = st.known
    if cards is None:
        cards = _cards_of(st, zi)
    if not any(map(known.__getitem__, cards)):  # nobody knows any card here (the common case)
        return None
    bits = knowing_bits(st, viewer)  # (`knows`, written out for every card)
    places = [c if c is not None and known[c] and known[c] & bits == bits else None for c in zone]
    if places.count(None) == len(places):
        return None
    if sized is None:
        sized = size_seen(st, zi, viewer)
    return places if sized else [c for c in places if c is not None]


def unseen_instance(st, zi: int, viewer: int, name) -> dict:
    """What `viewer` is told of zone instance `zi`, whose cards it does not
    see: {"count": how many cards (None where its size is hidden from the
    viewer)}, with "known" (`known_places`, each card as `name(card)`),
    "inside" (`known_inside`, by name, sorted) and "marks"
    (`marks_on_backs`) where there are any."""
    cards = _cards_of(st, zi)
    sized = size_seen(st, zi, viewer)
    view = {"count": len(cards) if sized else None}
    if not cards:
        return view
    known = known_places(st, zi, viewer, cards, sized)
    if known is not None:
        view["known"] = [name(c) if c is not None else None for c in known]
    if st.known_in is not None:
        somewhere = known_inside(st, cards, viewer)
        if somewhere:
            view["inside"] = sorted(map(name, somewhere))
    marks = marks_on_backs(st, zi, viewer, cards, sized)
    if marks:
        view["marks"] = marks
    return view


def known_inside(st, cards, viewer: int) -> list:
    """Of `cards` (lying unseen in one zone instance), those `viewer` knows
    lie somewhere there without knowing where (`st.known_in`)."""
    known_in = st.known_in
    if known_in is None:
        return []
    bits = knowing_bits(st, viewer)
    return [c for c in cards if known_in[c] & bits == bits and bits and not knows(st, c, viewer)]


def marks_on_backs(st, zi: int, viewer: int, cards: list | None = None, sized: bool | None = None) -> dict:
    """For an instance `viewer` does not see: the per-card counters it sees
    on the backs of its cards, {counter: [value per place, bottom first]},
    only those not 0 everywhere. A counter on a card lies on top of it, seen
    whoever may see that counter, even when the card is face down. Where the
    viewer is not told the instance's size, only the cards with a counter
    count as places (their values, bottom first). (`cards`, `sized`: as `known_places`.)"""
    if cards is None:
        cards = _cards_of(st, zi)
    rows = [(name, row) for name, row in _card_counter_rows(st, viewer) if any(map(row.__getitem__, cards))]
    if not rows:  # no counter on the back of any card here (the common case)
        return {}
    zone = st.z[zi]
    if not (size_seen(st, zi, viewer) if sized is None else sized):
        zone = [c for c in zone if c is not None and any(row[c] for _, row in rows)]
    return {name: [row[c] if c is not None else 0 for c in zone] for name, row in rows}


def _cards_of(st, zi: int) -> list:
    """The cards of instance `zi`, without its empty slots."""
    zone = st.z[zi]
    return [c for c in zone if c is not None] if st.program.zone_of_instance[zi].slots else zone


def back_counters(program, viewer: int) -> list:
    """The per-card counters `viewer` sees on the backs of cards it does not see."""
    return [info for info in program.counter_list if info.scope == "card" and counter_visible(info, None, viewer)]


def _card_counter_rows(st, viewer: int) -> list:
    """(name, values) of the per-card counters `viewer` may see on cards' backs."""
    return [(info.name, st.ctr[info.index]) for info in back_counters(st.program, viewer)]


def unseen_places(st, viewer: int) -> list:
    """(zone instance, position) of every card `viewer` cannot see, except the
    cards left in the zone every card starts in. Only the instances holding
    cards are looked at, found from the cards' locations (most instances are
    empty: zones on cards above all), in order; who sees an instance is
    asked only when it holds cards the viewer does not know (asking walks
    the cards holding it)."""
    places = []
    z, known = st.z, st.known
    bits = knowing_bits(st, viewer)  # (`knows`, written out for every card)
    for zi in sorted(_maybe_unseen(st.program, viewer).intersection(st.loc)):
        held = [(zi, i) for i, card in enumerate(z[zi]) if card is not None and known[card] & bits != bits]
        if held and not instance_visible(st, zi, viewer):
            places.extend(held)
    return places


def _maybe_unseen(program, viewer: int) -> frozenset:
    """The zone instances whose cards `viewer` may not see, but the one
    every card starts in: an instance not on a card is seen or not by its
    declared visibility alone, so this is worked out once per program and
    viewer (and kept on the program)."""
    found = program.maybe_unseen.get(viewer)
    if found is None:
        home = program.zones[program.setup_zone].base
        found = program.maybe_unseen[viewer] = frozenset(
            zi for zi, info in enumerate(program.zone_of_instance) if zi != home and (
                info.scope == "card" or not zone_visible(info, zi - info.base if info.scope != "shared" else None, viewer)))
    return found


def seen_by_all(st, card: int) -> bool:
    """Whether every player sees `card` where it lies (the run-time test of
    runtime/values.py's `public`, set on the program by the game)."""
    return card_visible(st, card, PUBLIC)


def zone_ever_seen(info) -> bool:
    """Whether some player may ever see the cards of zone `info`."""
    return info.visibility != HIDDEN


def counter_ever_seen(info) -> bool:
    """Whether some player may ever see the values of counter `info`."""
    return info.visibility != HIDDEN


def has_hidden_parts(program) -> bool:
    """Whether some zone (other than the one every card starts in) or some
    counter is not visible to every player, or players choose simultaneously
    (each pick hidden from the others until all are made)."""
    return (any(z.visibility != VISIBLE and z.name != program.setup_zone for z in program.zones.values())
            or any(c.visibility != VISIBLE for c in program.counter_list)
            or any(getattr(d, "secret", False) for d in program.decisions))
