"""Who may see what: the one place that decides it.

A viewer is a seat, PUBLIC for what every player sees, or EVERYTHING for
what anyone may see once a game is over (the final table, a game's log).
The rules declare each zone and counter `visible` (everyone), `owner only`
(the player it belongs to) or `hidden` (no one). From that:

- the cards of a zone instance are seen by whoever sees the zone; a card is
  seen where it lies, if its zone is seen and, for a card held by a card (a
  per-card zone), if the card holding it is seen too;
- a counter's value is seen by whoever its visibility allows; a per-card
  counter is seen with its card;
- an option of a decision is seen by the deciding player; by others only if
  every card it names is seen by them;
- cards left in the zone every card starts in (set aside by public rules) are
  not secrets: a sampled world leaves them where they are.

`observation()`, the terminal view, the worlds bots search (`worlds.py`) and
the agent encoders all ask this module.
"""
from __future__ import annotations

from .language.builtins import host_of

PUBLIC = -1  # the viewer "every player": sees only what everyone sees
EVERYTHING = -2  # the viewer who sees every card and counter: a finished game, a game's log

VISIBLE, OWNER, HIDDEN = "visible", "owner", "hidden"


def zone_visible(info, owner, viewer: int) -> bool:
    """Whether `viewer` sees the cards of the instance of zone `info` that
    belongs to `owner` (a seat for a per-player zone, else a card or None)."""
    if info.visibility == VISIBLE or viewer == EVERYTHING:
        return True
    if info.visibility == OWNER:
        return info.scope == "player" and viewer >= 0 and owner == viewer
    return False


def instance_visible(st, zi: int, viewer: int) -> bool:
    """Whether `viewer` sees the cards of zone instance `zi`."""
    info = st.program.zone_of_instance[zi]
    owner = zi - info.base
    if not zone_visible(info, owner if info.scope != "shared" else None, viewer):
        return False
    return info.scope != "card" or card_visible(st, owner, viewer)


def card_visible(st, card: int, viewer: int) -> bool:
    """Whether `viewer` sees which card `card` is, where it lies."""
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
    if info.visibility == VISIBLE or viewer == EVERYTHING:
        return True
    if info.visibility == OWNER:
        return info.scope == "player" and viewer >= 0 and owner == viewer
    return False


def card_counter_visible(st, info, card: int, viewer: int) -> bool:
    return counter_visible(info, card, viewer) and card_visible(st, card, viewer)


def option_visible(st, kind, value, decider: int, viewer: int) -> bool:
    """Whether `viewer` may see which option `decider` took: the decider
    always; another player if the option names no card that player cannot see."""
    if viewer == decider:
        return True
    if kind == "card" and isinstance(value, int) and not isinstance(value, bool):
        return card_visible(st, value, viewer)
    return True


def unseen_places(st, viewer: int) -> list:
    """(zone instance, position) of every card `viewer` cannot see, except the
    cards left in the zone every card starts in."""
    program = st.program
    home = program.zones[program.setup_zone].base
    places = []
    for zi, zone in enumerate(st.z):
        if zi == home or instance_visible(st, zi, viewer):
            continue
        places.extend((zi, i) for i, card in enumerate(zone) if card is not None)
    return places


def zone_ever_seen(info) -> bool:
    """Whether some player may ever see the cards of zone `info`."""
    return info.visibility != HIDDEN


def counter_ever_seen(info) -> bool:
    """Whether some player may ever see the values of counter `info`."""
    return info.visibility != HIDDEN


def has_hidden_parts(program) -> bool:
    """Whether some zone (other than the one every card starts in) or some
    counter is not visible to every player."""
    return (any(z.visibility != VISIBLE and z.name != program.setup_zone for z in program.zones.values())
            or any(c.visibility != VISIBLE for c in program.counter_list))
