"""Which `show` template shows which card, and the warning for a template
some cards cannot fill.

A `show` names a zone, a kind of card, or `cards` (every card). A template
reads fields of the card (`{card.colour}`); a card that lacks one of them
(a card of a kind without that field) is not shown by it: it is shown by the next
template that fits, else by its name. The order, most particular first:
the zone's template, the card's kind's, then `cards`. One place decides it
(`template_for`), read by the table view; the warning (`check --strict`)
follows the same order.
"""
from __future__ import annotations

from ..errors import Diagnostic
from . import nodes as n

ALWAYS = frozenset({"name"})  # fields every card has


def fields_read(template) -> frozenset:
    """The fields a template reads of `card` itself (not through a definition)."""
    return frozenset(node.name for node in n.walk(template)
                     if isinstance(node, n.Field) and isinstance(node.obj, n.Name) and node.obj.name == "card") - ALWAYS


def fields_by_show(model) -> dict:
    """`show` name (zone, kind or `cards`) -> the fields its template reads of the card."""
    return {name: fields_read(decl.template) for name, decl in model.shows.items()}


def template_for(shows: dict, zone: str | None, kind: str, lacks) -> str | None:
    """The `show` that shows a card of `kind` in `zone`: the first of the
    zone's, the kind's and `cards` that exists and reads no field the card
    lacks (`lacks(field)`); None: the card is shown by its name."""
    for name in (zone, kind, "cards"):
        if name is not None and name in shows and not any(lacks(f) for f in shows[name]):
            return name
    return None


def unfit_shows(model, db) -> list[Diagnostic]:
    """A warning where `show cards` reads a field some kind of card lacks
    and that kind has no template of its own: those cards would be shown by
    their bare name in every zone without its own `show`, and any card may
    lie in such a zone (the zone every card starts in, shown at the end).
    Which kinds reach a zone with its own `show` is not known before play,
    so a zone's template is not judged."""
    shows = fields_by_show(model)
    decl = model.shows.get("cards")
    if decl is None:
        return []
    problems = []
    for kind in db.kinds:
        cards = [c for c in db.cards if c.kind == kind]
        missing = sorted(f for f in shows["cards"] if any(c.data.get(f) is None for c in cards))
        if missing and not _shown_by_kind(shows, kind, cards):
            lacking = next(c for c in cards if any(c.data.get(f) is None for f in missing))
            fields = ", ".join(f"'{f}'" for f in missing)
            problems.append(Diagnostic(
                "warning", f"`show cards` reads {fields}, which cards of kind '{kind}' lack (e.g. '{lacking.name}'); "
                "they are shown by their name alone", decl.span,
                f"write `show {kind} as \"...\"` to say how cards of kind '{kind}' are shown"))
    return problems


def _shown_by_kind(shows: dict, kind: str, cards: list) -> bool:
    """Whether the kind's own template shows every card of it."""
    return kind in shows and all(c.data.get(f) is not None for c in cards for f in shows[kind])
