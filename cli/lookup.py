"""Looking things up at the table: a card's details, the cards at a position
of the table, the options that name them, the cards every player sees.

Positions are those the table numbers: the slots of a slotted zone (shared
or a player's), counted from 1. A card's whereabouts are told only where the
viewer sees it."""
from __future__ import annotations

from interpreter import visibility
from interpreter.events import place
from interpreter.view import card_text


def find_by_name(st, text: str) -> list[int]:
    """Cards whose name is `text` (any case); else those it begins; else those containing it."""
    wanted = text.strip().lower()
    names = [name.lower() for name in st.program.card_names]
    for test in (str.__eq__, str.startswith, str.__contains__):
        found = [c for c, name in enumerate(names) if test(name, wanted)]
        if found:
            return found
    return []


def cards_at(st, position: int, viewer: int) -> list[int]:
    """The cards the viewer sees at `position` (from 1) of the table's numbered zones."""
    found = []
    for info in st.program.zones.values():
        if not info.slots or info.scope == "card":
            continue
        for zi in range(info.base, info.base + (1 if info.scope == "shared" else st.n)):
            row = st.z[zi]
            if 0 < position <= len(row) and row[position - 1] is not None \
                    and visibility.instance_visible(st, zi, viewer):
                found.append(row[position - 1])
    return found


def position_of(st, card: int) -> int | None:
    """The position (from 1) of a card lying in a numbered zone of the table, else None."""
    zi = st.loc[card]
    info = st.program.zone_of_instance[zi]
    if not info.slots or info.scope == "card":
        return None
    return st.z[zi].index(card) + 1


def option_cards(st) -> list:
    """For each option of the pending decision, the card it names (None if it names none)."""
    pending = st.pending()
    kind = getattr(st.program.decisions[pending.point], "kind", None)
    return [v if kind == "card" and isinstance(v, int) and not isinstance(v, bool) else None for v in pending.values]


def options_at(st, position: int) -> list[int]:
    """Indexes of the options naming a card at `position` of the table."""
    return [i for i, card in enumerate(option_cards(st)) if card is not None and position_of(st, card) == position]


def public_cards(st) -> list[int]:
    """The cards of the shared zones every player sees, in the table's order."""
    program = st.program
    cards = []
    for info in program.zones.values():
        if info.scope == "shared" and visibility.instance_visible(st, info.base, visibility.PUBLIC):
            cards.extend(c for c in st.z[info.base] if c is not None)
    return cards


def card_details(st, card: int, viewer: int) -> list[str]:
    """A card as data: its name and kind, where it lies (if the viewer sees
    it), how the table shows it, every field of its data, and its effects in words."""
    program = st.program
    data = program.cards.cards[card].data
    lines = [f"{program.card_names[card]} ({program.card_kinds[card]})"]
    zi = st.loc[card]
    info = program.zone_of_instance[zi]
    if info.name == program.setup_zone:  # set aside by public rules: no secret (see visibility.py)
        lines.append(f"  where    not in play ({place(st, zi)})")
    elif visibility.card_visible(st, card, viewer):
        position = position_of(st, card)
        lines.append(f"  where    {place(st, zi)}" + (f", position {position}" if position is not None else ""))
        lines.append(f"  shown    {card_text(st, card, viewer, info.name)}")
    else:
        lines.append("  where    out of your sight")
    for name, value in data.items():
        if name == "name":
            continue
        lines.extend(_field_lines(program, card, name, value))
    return lines


def card_summary(st, card: int) -> str:
    """A card's data on one line: "Name (kind): field value, ...; map: key: value, ..."."""
    program = st.program
    parts = []
    for name, value in program.cards.cards[card].data.items():
        if name == "name":
            continue
        if isinstance(value, dict):
            parts.append(f"{name}: " + "; ".join(f"{key}: {item}" for key, item in value.items()))
        else:
            parts.append(f"{name} {value}{_effect_words(program, card, name)}")
    return f"{program.card_names[card]} ({program.card_kinds[card]}): " + ", ".join(parts)


def _effect_words(program, card, name) -> str:
    """" (what the effects do)" for a field of effects, else ""."""
    parsed = program.fields.get(name, [None] * (card + 1))[card]
    if not _is_effects(parsed):
        return ""
    return " (" + "; ".join(" or ".join(program.effect_labels.get(e, e) for e in alternatives)
                            for alternatives in parsed) + ")"


def _field_lines(program, card, name, value) -> list[str]:
    if isinstance(value, dict):
        return [f"  {name}"] + [f"    {key}: {item}" for key, item in value.items()]
    return [f"  {name:<8} {value}{_effect_words(program, card, name)}"]


def _is_effects(value) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(v, tuple) for v in value)
