"""Telling a game as it is played: the events of each step in words, for the
people at the table (what their player may see) or for a game's log (everything).

`Narrator.take(st)` collects what happened since it last looked (the state
listens: `st.events` is a list) and keeps it for `history`. What a line
shows follows events.tell_all; what the table leaves out of its live report
is only the decision a person just typed (they know it), never a forced
move, another player's action, a trigger or the end."""
from __future__ import annotations

import re


from interpreter.events import asked, tell_all

from .text import safe

MOST_NAMES = 6  # a printed line names at most this many cards moved together
UNSEEN = re.compile(r"\d+ cards")


def listen(st) -> None:
    """Make `st` record its events from now on (a clone or a loaded save does not)."""
    if st.events is None:
        st.events = []


class Narrator:
    """The events of a game told to one viewer, kept in order."""

    def __init__(self, viewer: int):
        self.viewer = viewer
        self.told: list[tuple[tuple, str]] = []

    def take(self, st) -> list[tuple[tuple, str]]:
        """The events since the last call, in words; the state forgets them."""
        listen(st)
        lines = tell_all(st, st.events, self.viewer)
        st.events.clear()
        self.told.extend(lines)
        return lines

    def history(self, count: int) -> list[tuple[tuple, str]]:
        return self.told[-count:] if count > 0 else []


def after_choice(lines) -> list[tuple[tuple, str]]:
    """The lines of a step without the chosen option itself (it is said
    separately: typed at the table, or the decision line of a log)."""
    return [(event, text) for event, text in lines if not asked(event)]


def short(text: str, event) -> str:
    """A line that names many cards moved together, shortened to their number."""
    if event[0] != "move":
        return text
    names, _, rest = text.partition(": ")
    parts = names.split(", ")
    if len(parts) <= MOST_NAMES:
        return text
    # the cards a viewer does not see are told as one part: "a card", "12 cards", or "cards" (how many is not told)
    counted = [int(part.split()[0]) if UNSEEN.fullmatch(part) else 1 for part in parts if part != "cards"]
    many = f"{sum(counted)} cards" if len(counted) == len(parts) else f"{sum(counted)} cards and more"
    return f"{many}: {rest}"


STYLES = {"counter": "dim", "move": "dim", "shuffle": "dim", "round": "bold cyan", "turn": "bold cyan",
          "phase": "bold cyan",
          "trigger": "yellow", "last round": "bold yellow", "end": "bold yellow"}


def styled(event, text: str) -> str:
    """A line as rich markup, styled by the kind of its event."""
    style = STYLES.get(event[0])
    text = safe(short(text, event))
    if event[0] == "decision" and event[5]:
        style = "italic"
    return f"[{style}]{text}[/{style}]" if style else text
