"""What one player sees of the table, as plain data for a display.

Built only from what the viewer may see: hidden zones give their size, other
players' owner-only zones give their size, with the cards the viewer knows
there (looked at, revealed to it, seen going face down) by place and the
counters on their backs. Cards are shown with the rules'
`show` templates; cards held by a card (a per-card zone) and per-card counters
are shown with the card that holds them. A card holding nothing shows no
mark: every card has every per-card zone, and most never hold anything.
"""
from __future__ import annotations

from . import visibility
from .events import counter_words
from .compiler.decisions import ChoosePoint, MayPoint, SpeakPoint
from .runtime.values import render_player
from .language.shows import template_for


def markers(st, viewer: int) -> dict:
    """Board space -> (marker name, label) of each marker on it (`marker`),
    as `viewer` is told them: a marker of a card the viewer cannot see is
    not shown, and a label's parts read from such cards are withheld."""
    found: dict = {}
    for name, cards, values, label, space in st.program.markers:
        for value in values(st):
            if cards and not visibility.card_visible(st, value, viewer):
                continue
            where = space(st, [value])
            if where is not None:
                found.setdefault(where, []).append((name, visibility.told_to(st, label(st, [value]), viewer)))
    return found


def card_text(st, card: int, viewer: int, zone: str | None = None, pieces: bool = True) -> str:
    """A card as `viewer` sees it: its `show` text, the counters on it, the
    cards it holds (or how many, where `viewer` does not see them) and, on a
    board space, the markers on it (unless `pieces` is false: a map draws them)."""
    program = st.program
    data = program.cards.cards[card].data
    # a program compiled without its model (no Game made for it) trusts every template
    fields = program.shown_fields or dict.fromkeys(program.card_views, ())
    shown = template_for(fields, zone, program.card_kinds[card], lambda f: data.get(f) is None)
    text = program.card_views[shown](st, card) if shown else program.card_names[card]
    marks = [f"{words(info.name)} {st.ctr[info.index][card]}" for info in program.counter_list
             if info.scope == "card" and not info.unlisted and st.ctr[info.index][card]
             and visibility.counter_visible(info, card, viewer)]
    if marks:
        text += " (" + ", ".join(marks) + ")"
    for info in program.zones.values():
        if info.scope == "card":
            zi = info.base + card
            held = [c for c in st.z[zi] if c is not None]
            if held and not visibility.instance_visible(st, zi, viewer):
                hidden = f"{len(held)} hidden" if visibility.size_seen(st, zi, viewer) else "hidden"
                text += f" [{words(info.name)}: {hidden}]"
            elif held:
                text += f" [{words(info.name)}: " + ", ".join(card_text(st, c, viewer, info.name) for c in held) + "]"
    if pieces and program.markers and program.boards is not None and card in program.boards.links:
        here = markers(st, viewer).get(card)
        if here:
            text += " [here: " + ", ".join(label for _, label in here) + "]"
    return text


def _zone(st, info, zi, viewer):
    cards = st.z[zi]
    if not visibility.instance_visible(st, zi, viewer):
        view = visibility.unseen_instance(st, zi, viewer, lambda c: card_text(st, c, viewer, info.name))
        unlisted = [c.name for c in program_unlisted(st.program)]
        if unlisted and view.get("marks"):
            view["marks"] = {name: row for name, row in view["marks"].items() if name not in unlisted}
        return view
    if info.slots:
        return {"slots": [card_text(st, c, viewer, info.name) if c is not None else None for c in cards]}
    return {"cards": [card_text(st, c, viewer, info.name) for c in cards]}


def program_unlisted(program) -> list:
    """The counters kept off the table (`unlisted`)."""
    return [info for info in program.counter_list if info.unlisted]


def table_view(st, viewer: int) -> dict:
    program = st.program
    home = program.setup_zone
    shared = []
    for info in program.zones.values():
        if info.scope == "shared" and not (info.name == home and not visibility.instance_visible(st, info.base, viewer)):
            shared.append((info.name, _zone(st, info, info.base, viewer)))
    players = []
    for p in range(st.n):
        counters = {info.name: _counter_value(info, st.ctr[info.index][p]) for info in program.counter_list
                    if info.scope == "player" and not info.unlisted and visibility.counter_visible(info, p, viewer)}
        zones = [(info.name, _zone(st, info, info.base + p, viewer))
                 for info in program.zones.values() if info.scope == "player"]
        values = {name: render_player(shown[p]) if name in program.shown_players else shown[p]
                  for name, shown in st.shown_values(viewer).items() if shown[p] is not None}
        players.append({"seat": p, "counters": counters, "values": values, "zones": zones})
    shared_counters = {info.name: _counter_value(info, st.ctr[info.index][0]) for info in program.counter_list
                       if info.scope == "shared" and not info.unlisted
                       and visibility.counter_visible(info, None, viewer)}
    return {"title": program.title, "round": st.round, "turn": st.turns, "when": when_words(st),
            "first_player": st.first, "current_player": st.current_player(), "viewer": viewer,
            "shared": shared, "shared_counters": shared_counters, "players": players}


def _counter_value(info, value):
    """A counter's value for a display: a number, or for a counter holding
    a player, the words for it ("player 2", "none")."""
    return counter_words(info, value) if info.holds_player else value


def unseen_words(zone: dict) -> list:
    """What a player is told of a zone instance it does not see (a view of
    `_zone`, as `visibility.unseen_instance` gives it), line by line: how
    many cards it holds (unless its size is hidden), the cards the player
    knows there (counted from the top where the places are told), the
    counters on their backs."""
    n = zone["count"]
    lines = [f"{n} card{'s' if n != 1 else ''} (hidden)" if n is not None else "cards (hidden, how many is not told)"]
    known = zone.get("known") or []
    if n is None:  # places are not told where the size is not
        seen = list(known)
    else:
        depth = {i: len(known) - 1 - i for i in range(len(known))}  # places counted from the top
        seen = [f"{c} ({'top' if depth[i] == 0 else f'{depth[i] + 1} from the top'})"
                for i, c in enumerate(known) if c is not None]
    if seen:
        lines.append("you know: " + ", ".join(reversed(seen)))
    if zone.get("inside"):
        lines.append("somewhere in it: " + ", ".join(zone["inside"]))
    marks = zone.get("marks") or {}
    if marks:
        lines.append("on their backs: " + "; ".join(_marks_by_place(marks, n is not None)))
    return lines


def _marks_by_place(marks: dict, placed: bool) -> list:
    """The counters on the backs of a zone's unseen cards, card by card, top
    first: "a 2 (top)", "a 1, b 1 (3 from the top)" (counters a and b); where the
    places are not told (`placed` false), the marked cards' counters alone."""
    rows = list(marks.items())
    count = len(rows[0][1])
    out = []
    for i in reversed(range(count)):
        parts = [f"{words(name)} {values[i]}" for name, values in rows if values[i]]
        if not parts:
            continue
        depth = count - 1 - i
        where = "" if not placed else " (top)" if depth == 0 else f" ({depth + 1} from the top)"
        out.append(", ".join(parts) + where)
    return out


def when_words(st) -> str:
    """Round, phase and turn as players count them: "round 3, phase 2 (II. Action), turn 21"."""
    phase = f", phase {st.phase} ({phase_label(st.program, st.phase)})" if st.program.phases and st.phase else ""
    return f"round {st.round}{phase}, turn {st.turns}"


def phase_label(program, number: int) -> str:
    """The words for phase `number` of the round (from 1): its label, else its name."""
    if not program.phases or not 1 <= number <= len(program.phases):
        return ""
    phase = program.phases[number - 1]
    return phase.label or phase.name.replace("_", " ")


def words(name: str) -> str:
    """A name of the rules (a counter, a zone) as players read it: `gold_left` is "gold left"."""
    return name.replace("_", " ")


CHOICE_WORDS = {"card": "choose a card", "player": "choose a player"}


def prompt_words(st) -> str:
    """The question of the pending decision in players' words. A `choose` or
    a `may` has no words of its own (its prompt is the name of the rule it is
    in: `turn`, a procedure's name), so it is asked as what it is; the
    engine's own points (an action, effects to resolve) keep theirs."""
    point = st.program.decisions[st.pending().point]
    if isinstance(point, (MayPoint, SpeakPoint)):  # yes or no; a window's answer, or no answer
        return "you may"
    if isinstance(point, ChoosePoint):
        return CHOICE_WORDS.get(point.kind, "choose one")
    return st.prompt()


def option_numbers(st, last: tuple | None) -> tuple:
    """The number each option of the pending decision is listed with, as
    (key, {option id: number}); `last` is what this gave for the decision
    before. Options are numbered from 1 in their order, but a decision that
    follows one of the same point and player (resolving effects one after
    the other, playing cards from a hand) keeps the numbers of the options
    left, so that a number typed as it was read names the same option; an
    option new there is numbered after the others."""
    key = (st.current_player(), st.pending().point)
    ids = st.option_ids
    if last is None or last[0] != key:
        return key, {option: number for number, option in enumerate(ids, 1)}
    numbers = {option: last[1][option] for option in ids if option in last[1]}
    following = max(last[1].values(), default=0) + 1
    for option in ids:
        if option not in numbers:
            numbers[option], following = following, following + 1
    return key, numbers
