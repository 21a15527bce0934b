"""What happened in a game, told to one viewer.

When someone listens (`state.events = []`, or `new_initial_state(...,
listen=True)` to hear the setup too), the engine records each step as a
small tuple: decisions (also those taken without asking, when one option was
left), counter changes, card moves, shuffles, triggers, rounds and turns,
and the end of the game with its reason. `tell(st, event, viewer)` words one
for a viewer, saying only what that viewer may see (visibility.py): a card
moving between places the viewer cannot see is "a card", another player's
choice of a card the viewer cannot see is not named, and unseen cards going
in or out of a zone whose size the viewer is not told (`size hidden`) are
not counted ("cards: deck -> player 2's vault"). `tell_all(st, events,
viewer)` words a whole batch the way a person reads it: the cards moved
together on one line, a counter's successive values on one line, and each
card judged where it lay when the event happened, not where it lies now.

Event tuples (the first item is the kind; `knew` is `state.known` as it was
then, so that a line says what its viewer knew when it happened, not what it
learnt later in the batch):
  ("decision", player, point, value, label, forced, knew)
  ("counter", counter index, owner, before, after)
  ("move", card, from zone instance, to zone instance, knew)
  ("shuffle", zone instance)
  ("look", seats mask, cards, looker seat or None for a reveal)
  ("forget", ((zone instance, seats mask that forgot cards there), ...))
  ("trigger", rule code)
  ("round", round)            ("turn", turn number, player)
  ("phase", phase number, label)
  ("speak", point, player, label)  who speaks first in a window where the first to speak takes the offer
  ("tell", text)              a line the rules tell the table (`tell "..."`), a runtime.Told where it reads cards
  ("reveal", point, ((player, value, label), ...), knew)  the picks of a simultaneous choice
  ("last round", round, span) ("end", "now" | "lost" | "won" | "rounds", span or round)

Where a rule ends the game, its words say where (file:line) and quote the
comment written just above that line in the rules file: the rules' own
reason, in the designer's words.
"""
from __future__ import annotations

import os
from types import SimpleNamespace

from . import visibility
from .compiler.decisions import UNSEEN_CARD


def player_name(seat: int) -> str:
    """How people read a seat: seats count from 0 in the API, players from 1 at the table."""
    return f"player {seat + 1}"


def outcome_words(result: dict) -> str:
    """Who won, in words; a game won or lost together names its top scorers."""
    def names(seats):
        return " and ".join(player_name(p) for p in seats)

    outcome = result.get("outcome")
    if "shared_score" in result:
        shared = f"{result['shared_score']} out of {result['best_score']}"
        return {"won": f"the players win together: a shared score of {shared}",
                "lost": f"the players lose together: a shared score of {shared}"}.get(
                    outcome, f"the players score {shared} together")
    if "teams" in result and outcome is None:
        return team_words(result)
    if outcome in ("won", "lost"):
        top = result["top_scorers"]
        together = "the players win together" if outcome == "won" else "the players lose together"
        return f"{together}; top score: {names(top)}" + (" (shared)" if len(top) > 1 else "")
    winners = result["winners"]
    if not winners:
        return "nobody wins"
    said = f"{names(winners)} win (shared)" if len(winners) > 1 else f"{names(winners)} wins"
    scores = result["scores"]
    tied = [p for p, score in enumerate(scores) if score == scores[winners[0]] and p not in winners]
    if tied:  # the same score as a winner, yet not a winner: the tiebreak decided
        said += f" on the tiebreak: tied with {names(tied)} on {scores[winners[0]]}"
    return said


def team_words(result: dict) -> str:
    """Which team won, in words: a team named by a text is called by it
    ("team red"), any other by its players; with each team's total score."""
    def names(seats):
        return " and ".join(player_name(p) for p in seats)

    groups: dict = {}
    for seat, team in enumerate(result["teams"]):
        groups.setdefault(team, []).append(seat)
    totals = {team: sum(result["scores"][p] for p in seats) for team, seats in groups.items()}

    def called(team):
        return f"team {team} ({names(groups[team])})" if isinstance(team, str) else f"the team of {names(groups[team])}"
    won = [team for team, seats in groups.items() if seats[0] in result["winners"]]
    if not won:
        return "nobody wins"
    if len(won) > 1:
        return f"{' and '.join(called(t) for t in won)} share the win on {totals[won[0]]}"
    others = [str(totals[t]) for t in groups if t != won[0]]
    return f"{called(won[0])} wins with {totals[won[0]]}" + (f" against {', '.join(others)}" if others else "")


def team_of_words(result: dict) -> list | None:
    """Each seat's team for a row of the final scores ("team red", "with
    player 3"); None without `teams by`."""
    teams = result.get("teams")
    if teams is None:
        return None
    out = []
    for seat, team in enumerate(teams):
        mates = [p for p, t in enumerate(teams) if t == team and p != seat]
        out.append(f"team {team}" if isinstance(team, str)
                   else "with " + " and ".join(player_name(p) for p in mates) if mates else "alone")
    return out


def place(st, zi: int) -> str:
    """A zone instance in words: "deck", "player 2's hand", "the occupant of Barracks"."""
    info = st.program.zone_of_instance[zi]
    name = info.name.replace("_", " ")
    owner = zi - info.base
    if info.scope == "player":
        return f"{player_name(owner)}'s {name}"
    if info.scope == "card":
        return f"the {name} of {st.program.card_names[owner]}"
    return name


def tell(st, event, viewer: int) -> str | None:
    """`event` in words for `viewer` (a seat, visibility.PUBLIC or
    visibility.EVERYTHING); None for an event not worth telling that viewer
    (a change of a counter it cannot see)."""
    teller = _TELLERS.get(event[0])
    return teller(st, event, viewer) if teller else None


def tell_all(st, events, viewer: int) -> list[tuple[tuple, str]]:
    """The events of a batch (all that happened since some moment until the
    state `st`) in words for `viewer`: (first event of the line, line) pairs.
    Consecutive moves between the same two places make one line, and so do
    consecutive changes of one counter ("gold 8 -> 13 -> 8")."""
    told = _told_where_cards_were(st, events, viewer)
    lines: list[list] = []  # [first event, text, merge key, parts]
    for event, text in told:
        key, part = _merge_key(st, event, viewer, text)
        if key is not None and lines and lines[-1][2] == key:
            lines[-1][3].append(part)
            lines[-1][1] = _merged_text(st, event, viewer, lines[-1][3])
            continue
        lines.append([event, text, key, [part]])
    return [(first, text) for first, text, _, _ in lines]


def asked(event) -> bool:
    """Whether `event` is a decision a player was asked (not one taken without
    asking because one option was left): the choice itself, said elsewhere."""
    return event[0] == "decision" and not event[5]


def _told_where_cards_were(st, events, viewer):
    """(event, text) for each event the viewer is told, each judged with the
    cards where they lay just after it (the later moves of the batch undone)
    and with who knew which card then (the event's `knew`, else that of the
    next event that has one)."""
    loc = list(st.loc)
    moment = SimpleNamespace(program=st.program, loc=loc, known=st.known, n=st.n)
    told = []
    for event in reversed(events):
        if event[0] in KNEW_AT:
            moment.known = event[-1]
        text = tell(moment, event, viewer)
        if text is not None:
            told.append((event, text))
        if event[0] == "move":
            loc[event[1]] = event[2]
    told.reverse()
    return told


KNEW_AT = ("decision", "move", "reveal")  # the kinds of events that end with `knew`


def _merge_key(st, event, viewer, text):
    """What a line must share with the previous one to be merged with it,
    and this event's part of the merged line."""
    if event[0] == "move":
        _, _, source, dest, _ = event
        return ("move", source, dest), text[:-len(f": {place(st, source)} -> {place(st, dest)}")]
    if event[0] == "counter":
        _, index, owner, before, after = event
        return ("counter", index, owner), (before, after)
    return None, None


def _merged_text(st, event, viewer, parts):
    if event[0] == "move":
        names = [p for p in parts if p not in ("a card", _UNCOUNTED)]
        unseen = len(parts) - len(names)
        if _UNCOUNTED in parts:
            names.append(_UNCOUNTED)
        elif unseen:
            names.append(f"{unseen} cards" if unseen > 1 else "a card")
        return f"{', '.join(names)}: {place(st, event[2])} -> {place(st, event[3])}"
    values = [parts[0][0]] + [after for _, after in parts]
    _, index, owner, _, _ = event
    info = st.program.counter_list[index]
    steps = " -> ".join(counter_words(info, v) for v in values)
    return f"{_owner_name(st, info, owner)}: {info.name.replace('_', ' ')} {steps}"


def _decision(st, event, viewer):
    """A choice, as `viewer` is told it: a card it cannot see unnamed, the
    parts of the label read from such cards withheld; a decline of a
    reaction and whether there was any other option are the player's own
    (the others cannot tell a player who declined from one who could not
    react, nor a forced choice from a free one)."""
    _, player, point, value, label, forced, _ = event
    decision = st.program.decisions[point]
    kind = getattr(decision, "kind", None)
    own = viewer in (player, visibility.EVERYTHING)
    if getattr(decision, "secret", False) and not own:
        return f"{player_name(player)} {decision.secret_words}"
    if decision.secretly and not own:
        return f"{player_name(player)} chose in secret"
    if value == "no" and getattr(decision, "window", None):  # "pass" alone would not say to what
        return f"{player_name(player)}: no reaction to {decision.window.replace('_', ' ')}" if own else None
    if not visibility.option_visible(st, kind, value, player, viewer):
        label = f"chose {UNSEEN_CARD}"
    else:
        label = visibility.told_to(st, label, viewer)
    return f"{player_name(player)}: {label}" + (" (the only option)" if forced and own else "")


def _counter(st, event, viewer):
    _, index, owner, before, after = event
    info = st.program.counter_list[index]
    if info.unlisted:  # bookkeeping kept off the table, and so out of the story
        return None
    if info.scope == "card":
        if not visibility.card_counter_visible(st, info, owner, viewer):
            return None
    elif not visibility.counter_visible(info, owner if info.scope == "player" else None, viewer):
        return None
    return (f"{_owner_name(st, info, owner)}: {info.name.replace('_', ' ')} "
            f"{counter_words(info, before)} -> {counter_words(info, after)}")


def _owner_name(st, info, owner) -> str:
    if info.scope == "card":
        return st.program.card_names[owner]
    return player_name(owner) if info.scope == "player" else "the table"


def _move(st, event, viewer):
    _, card, source, dest, _ = event
    seen = (visibility.instance_visible(st, source, viewer) or visibility.instance_visible(st, dest, viewer)
            or visibility.knows(st, card, viewer))
    if seen:
        name = st.program.card_names[card]
    else:
        name = "a card" if _sizes_told(st, viewer, source, dest) else _UNCOUNTED
    return f"{name}: {place(st, source)} -> {place(st, dest)}"


_UNCOUNTED = "cards"  # unseen cards moving in or out of a zone whose size the viewer is not told


def _sizes_told(st, viewer, *zones) -> bool:
    """Whether `viewer` is told how many cards each of `zones` holds: if not,
    the story does not count the unseen cards going in or out either."""
    return all(visibility.size_seen(st, zi, viewer) for zi in zones)


def _look(st, event, viewer):
    """Who looked at what: the cards named to the players who saw them."""
    _, mask, cards, looker = event
    sees = viewer == visibility.EVERYTHING or (viewer >= 0 and mask >> viewer & 1)
    where = place(st, st.loc[cards[0]])
    if sees:
        what = ", ".join(st.program.card_names[c] for c in cards)
    elif not _sizes_told(st, viewer, st.loc[cards[0]]):
        what = _UNCOUNTED
    else:
        what = f"{len(cards)} cards" if len(cards) > 1 else "a card"
    if looker is not None:
        return f"{player_name(looker)} looks at {what} ({where})"
    if viewer != visibility.EVERYTHING:  # who else was shown is not told (it may name a hidden team)
        return f"{what} ({where}) shown to you" if sees else f"{what} ({where}) shown privately"
    seats = [player_name(p) for p in range(max(mask.bit_length(), 0)) if mask >> p & 1]
    return f"{what} ({where}) shown to {', '.join(seats)}"


def _shuffle(st, event, viewer):
    return f"{place(st, event[1])} shuffled"


def _trigger(st, event, viewer):
    return f"triggered: {st.program.codes[event[1]].name}"


def _reveal(st, event, viewer):
    _, point, picks, _ = event
    kind = getattr(st.program.decisions[point], "kind", None)
    told = [f"{player_name(player)}: "
            + (visibility.told_to(st, label, viewer) if visibility.option_visible(st, kind, value, player, viewer)
               else UNSEEN_CARD)
            for player, value, label in picks]
    return "all have chosen: " + "; ".join(told)


def _forget(st, event, viewer):
    """What a player forgot, told to it alone: where the cards lie."""
    places = [place(st, zi) for zi, seats in event[1]
              if viewer == visibility.EVERYTHING or (viewer >= 0 and seats >> viewer & 1)]
    if not places:
        return None
    who = "players forget" if viewer == visibility.EVERYTHING else "you forget"
    return f"{who} which cards lie in {', '.join(places)}"


def _speak(st, event, viewer):
    _, point, player, label = event
    return f"{player_name(player)} speaks first: {visibility.told_to(st, label, viewer)}"


def _tell(st, event, viewer):
    return visibility.told_to(st, event[1], viewer)


def _phase(st, event, viewer):
    return f"phase {event[1]}: {event[2]}"


def _round(st, event, viewer):
    return f"round {event[1]}"


def _turn(st, event, viewer):
    return f"turn {event[1]}: {player_name(event[2])}"


def _last_round(st, event, viewer):
    _, round_, span = event
    return f"the game will end after round {round_}" + _reason(span)


def _end(st, event, viewer):
    _, how, where = event
    if how == "rounds":
        return f"the game ends: round {where} was the last"
    return {"now": "the game ends now", "lost": "the game ends: everyone has lost",
            "won": "the game ends: the players have won together"}[how] + _reason(where)


def _reason(span) -> str:
    """": COMMENT (file:line)" for the rule at `span`: the comment lines just
    above it in its file, if any, and where it is."""
    if span is None or getattr(span, "source", None) is None:
        return ""
    comment = rule_comment(span.source, span.line)
    # The file's name alone: the same words wherever the rules lie (a log is checked against them).
    return (f": {comment}" if comment else "") + f" ({os.path.basename(span.filename)}:{span.line})"


def rule_comment(source, line: int) -> str:
    """The comment written on the lines just above `line` of `source` (its
    `#` lines, joined), or ""."""
    found = []
    number = line - 1
    while number >= 1:
        text = source.line(number).strip()
        if not text.startswith("#"):
            break
        found.append(text.lstrip("#").strip())
        number -= 1
    return " ".join(reversed([f for f in found if f]))


def _number(value):
    return value if isinstance(value, int) else float(value)


def counter_words(info, value) -> str:
    """A counter's value as people read it: a number, or, for a counter
    holding a player, "player 2" (seat 1) or "none"."""
    if info.holds_player:
        return "none" if value is None else player_name(value)
    return str(_number(value))


_TELLERS = {"decision": _decision, "counter": _counter, "move": _move, "shuffle": _shuffle, "look": _look,
            "forget": _forget,
            "trigger": _trigger,
            "round": _round, "turn": _turn, "phase": _phase, "reveal": _reveal, "tell": _tell, "speak": _speak, "last round": _last_round, "end": _end}
