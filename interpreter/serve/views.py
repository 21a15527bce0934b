"""What a page shows, as JSON: a seat's view, the hot-seat view, the
designer's view, a card looked up.

A seat's table is view.table_view for that seat (what the seat may see is
decided there and in visibility.py, nothing is added here) with the names
of the cards it shows, so a page can look them up, and the numbers of the
options that name each card, so a card can be picked where it lies. The
prompt and options of a decision go to the deciding seat only; the others
learn who is deciding. The history is what events.tell_all told that seat.
At the end every seat also gets the result and the table with every card
shown (the cards that never left the zone every card starts in excepted).
"""
from __future__ import annotations

from ..events import outcome_words, player_name, team_of_words
from ..view import card_text, markers, prompt_words, table_view, unseen_words
from ..visibility import EVERYTHING, PUBLIC, card_visible
from .board import layouts
from .tables import HOTSEAT

MOST_LOOKED_UP = 8  # cards one lookup returns


# ---------------------------------------------------------------- the table
def table_json(st, viewer: int, picks: dict | None = None, boards: list | None = None) -> dict:
    """view.table_view as JSON, each card shown with its name and the options
    (`picks`: card -> option numbers) that name it; a zone whose cards are
    all spaces of a drawn board points at that board instead."""
    picks = picks or {}
    view = table_view(st, viewer)
    program = st.program
    shared = [_zone_json(st, program.zones[name], program.zones[name].base, None, zone, picks, boards)
              for name, zone in view["shared"]]
    players = []
    for player in view["players"]:
        seat = player["seat"]
        zones = [_zone_json(st, program.zones[name], program.zones[name].base + seat, seat, zone, picks, boards)
                 for name, zone in player["zones"]]
        players.append({"seat": seat, "name": player_name(seat), "counters": _labelled(player["counters"]),
                        "values": _labelled(player["values"]), "zones": zones})
    return {"title": view["title"], "round": view["round"], "turn": view["turn"], "when": view["when"],
            "first_player": view["first_player"], "current_player": _seat_or_none(view["current_player"]),
            "shared": shared, "shared_counters": _labelled(view["shared_counters"]), "players": players}


def _zone_json(st, info, zi, owner, zone: dict, picks: dict, boards) -> dict:
    out = {"zone": info.name, "label": _words(info.name), "owner": owner}
    if "count" in zone:
        out["hidden"] = unseen_words(zone)  # lines: how many, the cards known there, marks on backs
        return out
    texts = zone["slots"] if "slots" in zone else zone["cards"]
    cards = st.z[zi] if "slots" in zone else [c for c in st.z[zi] if c is not None]
    out["slots"] = "slots" in zone
    out["cards"] = [None if text is None else {"text": text, "name": st.program.card_names[c],
                                                "options": picks.get(c, [])}
                    for c, text in zip(cards, texts)]
    board = next((i for i, b in enumerate(boards or []) if b["zone"] == info.name and owner is None), None)
    if board is not None and all(c is not None for c in cards):
        out["board"] = board
    return out


def _labelled(values: dict) -> list:
    return [{"name": name, "label": _words(name), "value": value} for name, value in values.items()]


def _words(name: str) -> str:
    return name.replace("_", " ")


def _seat_or_none(player):
    return player if isinstance(player, int) and player >= 0 else None


# ---------------------------------------------------------------- options and boards
def option_picks(st, numbers: dict) -> dict:
    """card -> numbers (`numbers`: option id -> number) of the options of the pending decision that name it."""
    pending = st.pending()
    if st.is_terminal() or pending is None:
        return {}
    kind = getattr(st.program.decisions[pending.point], "kind", None)
    picks: dict = {}
    if kind != "card":
        return picks
    for option, value in zip(st.option_ids, pending.values):
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(st.program.card_ids):
            picks.setdefault(value, []).append(numbers[option])
    return {card: sorted(found) for card, found in picks.items()}


def decision_json(st, numbers: dict) -> dict:
    """The pending decision, its options listed by their numbers (`numbers`: option id -> number)."""
    decision = st.decision()
    options = sorted(decision.options, key=lambda o: numbers[o.id])
    return {"player": decision.player, "name": player_name(decision.player), "prompt": prompt_words(st),
            "options": [{"number": numbers[o.id], "id": o.id, "label": o.label} for o in options],
            "unavailable": [{"label": o.label, "reason": o.reason} for o in decision.unavailable]}


def boards_json(st, viewer: int, picks: dict) -> list:
    """Each board of the rules: the spaces `viewer` sees where they lie, their
    positions, the links between them, and the options naming each."""
    program = st.program
    if program.board_layouts is None:  # (a board never changes during a game: kept with the program)
        program.board_layouts = layouts(program)
    drawn = []
    pieces = markers(st, viewer) if program.markers else {}
    for kind, layout in program.board_layouts.items():
        shown = [c for c in layout["spaces"] if card_visible(st, c, viewer)]
        if not shown:
            continue
        index = {c: i for i, c in enumerate(shown)}
        spaces = []
        for c in shown:
            x, y = layout["spaces"][c]
            where = program.zone_of_instance[st.loc[c]].name
            spaces.append({"x": x, "y": y, "name": program.card_names[c],
                           "text": card_text(st, c, viewer, where, pieces=False),
                           "options": picks.get(c, []), "markers": [{"marker": name, "label": label} for name, label in pieces.get(c, [])]})
        zones = {program.zone_of_instance[st.loc[c]].name for c in shown}
        drawn.append({"kind": kind, "zone": zones.pop() if len(zones) == 1 else None, "spaces": spaces,
                      "edges": [[index[a], index[b]] for a, b in layout["edges"] if a in index and b in index]})
    return drawn


# ---------------------------------------------------------------- seats
def seat_view(table, seat) -> dict:
    """What the page of `seat` (a number, or HOTSEAT) shows."""
    st = table.state
    decider = None if st.is_terminal() else st.current_player()
    if seat == HOTSEAT:
        viewer = decider if decider is not None and table.is_person(decider) else PUBLIC
        history = table.told[PUBLIC]  # several people at one screen hear what all players hear
    else:
        viewer, history = seat, table.told[seat]
    deciding = decider is not None and decider == viewer and table.error is None
    picks = option_picks(st, table.numbers()) if deciding else {}
    boards = boards_json(st, viewer, picks)
    return {
        "kind": "seat", "title": st.program.title, "version": table.version, "epoch": table.epoch,
        "you": viewer if viewer >= 0 else None, "hotseat": seat == HOTSEAT,
        "seats": _seats(table, viewer), "table": table_json(st, viewer, picks, boards), "boards": boards,
        "decision": decision_json(st, table.numbers()) if deciding else None,
        "waiting_for": None if deciding or decider is None else {"player": decider, "name": player_name(decider)},
        "history": history, "end": end_json(st) if st.is_terminal() else None, "error": table.error,
    }


def _seats(table, viewer) -> list:
    return [{"seat": p, "name": player_name(p), "who": table.who(p), "you": p == viewer}
            for p in range(table.setup.players)]


def end_json(st) -> dict:
    """The result, each player's breakdown, and the table with every card shown."""
    result = st.result()
    reveal = table_json(st, EVERYTHING)
    home = st.program.setup_zone
    reveal["shared"] = [z for z in reveal["shared"] if z["zone"] != home]  # never in the game
    labels = list(result["breakdown"][0]) if result["breakdown"] else []
    return {"scores": result["scores"], "breakdown": result["breakdown"], "labels": labels,
            "winners": result["winners"], "outcome": result.get("outcome"),
            "top_scorers": result.get("top_scorers"), "turns": result["turns"],
            "first_player": result["first_player"], "said": outcome_words(result), "reveal": reveal,
            "teams": team_of_words(result)}


# ---------------------------------------------------------------- the designer
def designer_view(table, links: dict) -> dict:
    """Everything: the whole table, the pending decision, every decision
    taken and every event, the branches left behind, the set-up."""
    st = table.state
    picks = option_picks(st, table.numbers())
    boards = boards_json(st, EVERYTHING, picks)
    setup = table.setup
    return {
        "kind": "designer", "title": st.program.title, "version": table.version, "epoch": table.epoch,
        "rules": setup.rules,
        "seed": setup.seed, "players": setup.players, "sets": dict(setup.sets), "hotseat": setup.hotseat,
        "params": {name: param_text(value) for name, value in st.program.params.items()},
        "seats": [{**s, "link": links.get(s["seat"])} for s in _seats(table, EVERYTHING)],
        "hotseat_link": links.get(HOTSEAT),
        "table": table_json(st, EVERYTHING, picks, boards), "boards": boards,
        "decision": None if st.is_terminal() or table.error else decision_json(st, table.numbers()),
        "decisions": table.decisions, "log": table.told[EVERYTHING],
        "branches": [{"index": i, "decisions": table.branch_decisions(i)} for i in range(len(table.branches))],
        "end": end_json(st) if st.is_terminal() else None, "error": table.error,
    }


def param_text(value) -> str:
    """A parameter's value as `--set` would write it."""
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(param_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{param_text(k)}: {param_text(v)}" for k, v in value.items()) + "}"
    return str(value)


# ---------------------------------------------------------------- cards looked up
def cards_named(st, text: str) -> list[dict]:
    """The printed data of the cards called `text` (any case; else those whose
    name begins with it; else contains it): public, as the card file is.
    Where a card lies is not said: the page shows what its seat sees."""
    wanted = text.strip().lower()
    names = [name.lower() for name in st.program.card_names]
    found: list[int] = []
    for test in (str.__eq__, str.startswith, str.__contains__):
        found = [c for c, name in enumerate(names) if wanted and test(name, wanted)]
        if found:
            break
    out, seen = [], set()
    for card in found:
        data = st.program.cards.cards[card].data
        key = (st.program.card_names[card], repr(sorted(data.items(), key=lambda kv: kv[0])))
        if key in seen:  # copies of one card
            continue
        seen.add(key)
        out.append({"name": st.program.card_names[card], "kind": st.program.card_kinds[card],
                    "fields": [{"name": k, "value": _field_text(v), "words": _effect_words(st.program, card, k)}
                               for k, v in data.items() if k != "name"]})
        if len(out) == MOST_LOOKED_UP:
            break
    return out


def _field_text(value) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def _effect_words(program, card, name) -> str:
    """What a field of effects does, in the effects' own labels ("" for other fields)."""
    parsed = program.fields.get(name, [None] * (card + 1))[card]
    if not (isinstance(parsed, tuple) and parsed and all(isinstance(v, tuple) for v in parsed)):
        return ""
    return "; ".join(" or ".join(program.effect_labels.get(e, e) for e in alternatives) for alternatives in parsed)
