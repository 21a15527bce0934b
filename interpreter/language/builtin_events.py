"""The events the engine announces itself, in one registry.

A reaction to one of them (`reaction NAME(p) "label" to turn_end: ...`) is
offered without any `announce` in the rules: the compiler places the
response window next to the hook of the same moment, and the checker reads
the events' names and parameters from here. The language reference's table
of events is written from this registry too.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BuiltinEvent:
    """An event announced at a moment of the order of play."""

    name: str
    params: tuple  # the values it gives, by what they are ("player": whose turn it is)
    moment: str  # the hook moment (`at start of turn`) the window sits next to
    after_hook: bool  # the window follows that hook's block (else it comes before it)
    doc: str  # when it is announced and to whom it is offered
    example: str  # a reaction's head answering it (checked by tests/test_event_windows.py)

    @property
    def phased(self) -> bool:
        """Announced only in a game played in phases."""
        return self.moment.endswith("phase")

    @property
    def everyone(self) -> bool:
        """Offered to every player of the round's order: a phase is no one's turn."""
        return self.phased

    @property
    def usage(self) -> str:
        return f"{self.name}({', '.join(self.params)})" if self.params else self.name


EVENTS = {e.name: e for e in (
    BuiltinEvent("turn_start", ("player",), "start of turn", True,
                 "A turn has begun: after `at start of turn`, before the turn's block. Offered to the other "
                 "players, in seat order from the one after the player whose turn it is.",
                 'reaction ambush(p) "ambush {p}" to turn_start'),
    BuiltinEvent("turn_end", ("player",), "end of turn", False,
                 "A turn's block is over: before `at end of turn`. Offered to the other players, in seat "
                 "order from the one after the player whose turn it is.",
                 'reaction trade(p) "trade with {p}" to turn_end'),
    BuiltinEvent("phase_start", (), "start of phase", True,
                 "A phase has begun: after `at start of phase`, before its first turn. Offered to every "
                 "player, in the round's order (`phase` says which phase).",
                 'reaction stock_up "stock up" to phase_start when phase == 1'),
    BuiltinEvent("phase_end", (), "end of phase", False,
                 "A phase's last turn is over: before `at end of phase`. Offered to every player, in the "
                 "round's order.",
                 'reaction tidy "tidy up" to phase_end'),
)}
