"""A game served to people in browsers: its seats and their links, what each
viewer has been told, the decisions taken, and time travel.

A table's position is always its seed and the actions taken since (the
state's history), so going back to an earlier decision replays a prefix of
them; the line of play left behind is kept as a branch the designer can
return to. Everything said about the game is worded once per viewer when it
happens (events.tell_all), so a seat's history holds only what that seat
was told.
"""
from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field

from ..agents import make_agents
from ..errors import RulesError
from ..events import player_name, tell_all
from ..saves import SESSION_FORMAT, session_text
from ..view import option_numbers
from ..visibility import EVERYTHING, PUBLIC

HOTSEAT = "hotseat"  # the seat of a link that plays every person's seat on one screen
TOKEN_BYTES = 24  # a link's secret: 192 random bits, written in 32 characters


class TableError(Exception):
    """A request the table refuses: `status` is the HTTP status that says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass
class Setup:
    """How a table's game was set up: what a save keeps besides the position."""

    rules: str  # absolute path of the rules file
    sets: dict
    seed: int
    players: int
    humans: list  # the seats people play, from 0
    bots: str | None  # the bots of the other seats (`--bots`), None for the default
    hotseat: bool = False


@dataclass
class Links:
    """The secrets in a table's links: one per person's seat (or one for all
    of them, hot-seat), and the designer's."""

    designer: str
    seats: dict = field(default_factory=dict)  # seat -> token
    hotseat: str | None = None

    @classmethod
    def new(cls, setup: Setup) -> "Links":
        if setup.hotseat:
            return cls(new_token(), {}, new_token())
        return cls(new_token(), {seat: new_token() for seat in setup.humans})

    def plain(self) -> dict:
        return {"designer": self.designer, "seats": {str(s): t for s, t in self.seats.items()}, "hotseat": self.hotseat}


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def fresh_seed() -> int:
    """A seed nobody chose (six digits, to be typed again): the one place
    randomness does not come from a seed, because it makes the seed."""
    return int.from_bytes(os.urandom(4), "big") % 1_000_000


class Table:
    """One game, its seats and its story so far."""

    def __init__(self, table_id: str, game, setup: Setup, links: Links, actions=(), branches=()):
        self.id, self.game, self.setup, self.links = table_id, game, setup, links
        self.branches: list[list[str]] = [list(b) for b in branches]
        self._told_branches: dict = {}  # branch (a tuple of actions) -> its decisions
        self.version = 0  # counts changes; with `epoch` (new each time the server starts), orders a page's views
        self.epoch = secrets.token_hex(4)
        self.error: str | None = None  # a rules error that stopped the game, in words
        self.replay(list(actions))

    # ---------------------------------------------------------------- who sits where
    def viewers(self) -> list[int]:
        return [*range(self.setup.players), PUBLIC, EVERYTHING]

    def is_person(self, seat: int) -> bool:
        return seat in self.setup.humans

    def seat_of(self, token: str):
        """The seat a token opens (a number, or HOTSEAT), or None (a token
        that is not ASCII opens nothing: links are written in ASCII)."""
        if not token.isascii():
            return None
        if self.links.hotseat is not None and secrets.compare_digest(token, self.links.hotseat):
            return HOTSEAT
        for seat, secret in self.links.seats.items():
            if secrets.compare_digest(token, secret):
                return seat
        return None

    def opens_designer(self, token: str) -> bool:
        return token.isascii() and secrets.compare_digest(token, self.links.designer)

    def who(self, seat: int) -> str:
        """Who plays a seat, in words: "person", the bot's name, or the rules
        themselves for a seat that is never asked anything (an automaton the
        rules play: left out of the turn order, where no one is asked
        anything outside their turn), whatever bot stands ready for it."""
        if self.is_person(seat):
            return "person"
        if self.never_asked(seat):
            return "the rules (automaton)"
        return f"bot {self.agents[seat].name}"

    def never_asked(self, seat: int) -> bool:
        st = self.state
        return (not self.game.traits.off_turn and seat not in st.order
                and all(d["player"] != seat for d in self.decisions))

    # ---------------------------------------------------------------- playing
    def replay(self, actions: list[str]) -> None:
        """The game from its seed through `actions`, each step told to every viewer."""
        st = self.game.new_initial_state(self.setup.players, self.setup.seed, listen=True)
        self.state, self.decisions, self.numbering = st, [], None
        self.told: dict = {viewer: [] for viewer in self.viewers()}
        self._tell()
        for action in actions:
            if st.over or action not in st.option_ids:
                raise TableError(400, f"action {len(self.decisions) + 1} ('{action[:80]}') is not legal there")
            self._apply(action)
        self.agents = make_agents(self.setup.bots or "random", self.setup.players, self.setup.seed)
        self.version += 1

    def _apply(self, action: str) -> None:
        st = self.state
        decision = st.decision()
        label = next(o.label for o in decision.options if o.id == action)
        self.decisions.append({"n": len(self.decisions) + 1, "round": st.round, "turn": st.turns,
                               "player": decision.player, "action": action, "label": label})
        self.numbers()  # the numbers this decision was listed with, which the next one may keep
        st.apply_action(action)
        self.numbering = None if st.is_terminal() else option_numbers(st, self.numbering)
        self._tell()

    def numbers(self) -> dict:
        """Option id -> the number the pending decision lists it with (view.option_numbers)."""
        if self.state.is_terminal() or self.state.pending() is None:
            return {}
        if self.numbering is None:
            self.numbering = option_numbers(self.state, None)
        return self.numbering[1]

    def _tell(self) -> None:
        """What happened since the last step, worded for each viewer and kept."""
        st = self.state
        step = len(self.decisions)
        for viewer, lines in self.told.items():
            for event, text in tell_all(st, st.events, viewer):
                lines.append({"step": step, "kind": event[0], "text": text,
                              "forced": event[0] == "decision" and bool(event[5])})
        st.events.clear()

    def act(self, seat, option: str, version=None) -> None:
        """A person's choice, for `seat` (a number, or HOTSEAT for whichever
        person's seat is deciding)."""
        st = self.state
        if version is not None and version != self.version:
            raise TableError(409, "the game has moved on since this page was drawn; look again")
        if st.is_terminal():
            raise TableError(409, "the game is over")
        if self.error is not None:
            raise TableError(409, f"the game is stopped: {self.error}")
        decider = st.current_player()
        mine = self.is_person(decider) if seat == HOTSEAT else decider == seat
        if not mine:
            raise TableError(409, f"it is {player_name(decider)}'s decision, not yours")
        if not isinstance(option, str) or option not in st.option_ids:
            raise TableError(400, f"'{str(option)[:80]}' is not an option here; options: {', '.join(st.option_ids)}")
        self.play(option)

    def play(self, option: str) -> None:
        """Take an option of the pending decision (checked by the caller)."""
        try:
            self._apply(option)
        except RulesError as err:
            self.error = err.diagnostics[0].message
        self.version += 1

    def bot_to_move(self) -> bool:
        st = self.state
        return not st.is_terminal() and self.error is None and not self.is_person(st.current_player())

    def bot_choice(self, position) -> str:
        """What the bot of the deciding seat chooses in `position` (a copy of
        the state: bots may take their time while pages read the table)."""
        from ..play import world_sampler

        player = position.current_player()
        return self.agents[player].choose(position.decision(), position.observation(player),
                                          world_sampler(position, player, self.setup.seed))

    # ---------------------------------------------------------------- time travel
    def line(self) -> list[str]:
        return [d["action"] for d in self.decisions]

    def travel(self, branch: int | None, before: int) -> None:
        """Go back (or forward, along a branch) to the decision numbered
        `before` + 1 of the current line (`branch` None) or of a kept branch."""
        target = self.line() if branch is None else self._branch(branch)
        if not isinstance(before, int) or isinstance(before, bool) or not 0 <= before <= len(target):
            raise TableError(400, f"there is no decision {before} to go back to (0 to {len(target)})")
        self._keep(self.line())
        self.error = None
        self.replay(target[:before])

    def branch_decisions(self, index: int) -> list[dict]:
        """The decisions of a kept branch (n, round, turn, player, label), found by replaying it."""
        line = tuple(self._branch(index))
        if line not in self._told_branches:
            st = self.game.new_initial_state(self.setup.players, self.setup.seed)
            entries = []
            for action in line:
                if st.over or action not in st.option_ids:
                    raise TableError(400, f"branch {index} does not replay: action {len(entries) + 1} is not legal")
                decision = st.decision()
                label = next(o.label for o in decision.options if o.id == action)
                entries.append({"n": len(entries) + 1, "round": st.round, "turn": st.turns,
                                "player": decision.player, "action": action, "label": label})
                st.apply_action(action)
            self._told_branches[line] = entries
        return self._told_branches[line]

    def _branch(self, index) -> list[str]:
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.branches):
            raise TableError(400, f"there is no branch {index} (branches 0 to {len(self.branches) - 1})")
        return self.branches[index]

    def _keep(self, line: list[str]) -> None:
        """Keep a line of play as a branch, unless a kept one already holds it."""
        if not line or any(b[:len(line)] == line for b in self.branches):
            return
        self.branches = [b for b in self.branches if line[:len(b)] != b] + [line]

    def restart(self, seed: int | None) -> None:
        """A new game of the same rules and seats, from `seed` (or a fresh one)."""
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 1 << 63):
            raise TableError(400, "the seed must be a whole number")
        self.setup.seed = fresh_seed() if seed is None else seed
        self.branches, self.error = [], None  # the lines of the old seed are another game
        self.replay([])

    # ---------------------------------------------------------------- saves
    def save_text(self, path: str, with_links: bool) -> str:
        """The game as the terminal saves it (the command line's `run --load` resumes
        it); with its links and branches when the server keeps it."""
        setup = self.setup
        meta = {"sets": dict(setup.sets), "seed": setup.seed, "players": setup.players,
                "human": list(setup.humans), "bots": setup.bots}
        if with_links:
            meta["serve"] = {"id": self.id, "hotseat": setup.hotseat, "links": self.links.plain(),
                             "branches": self.branches}
        text = session_text(path, setup.rules, self.game, self.state, meta)
        if with_links:
            return text
        data = json.loads(text)
        data["rules"] = setup.rules  # a save sent away names its rules where they are
        return json.dumps(data, allow_nan=False) + "\n"

    def load(self, data: dict, game) -> None:
        """The game of a save (session_data), played with `game` (these rules,
        with the save's parameters), for the same number of seats."""
        if data["format"] != SESSION_FORMAT:
            raise TableError(400, "not a saved game of this tool")
        if data["fingerprint"] != game.program.fingerprint:
            raise TableError(400, "the save was made with other rules, cards or parameters than this table's")
        if data["players"] != self.setup.players:
            raise TableError(400, f"the save is a game of {data['players']} players; this table seats "
                                  f"{self.setup.players}")
        try:
            state = game.state_from_json(json.dumps(data["game"]))
        except RulesError as err:
            raise TableError(400, err.diagnostics[0].message) from None
        actions = state.actions()
        if actions is None:
            raise TableError(400, "the save holds a position arranged by hand, with no game leading to it")
        self.game, self.error, self.branches = game, None, []  # branches of another game lead nowhere here
        self.setup.sets, self.setup.seed = dict(data["sets"]), state.seed
        self.replay(actions)
