"""The server's tables, and what keeps them moving: one change at a time per
table, saved after each, every open page told at once, bots played in the
background.

Pages hold a WebSocket open; after each change every page of the table gets
its own view again (views.py), so a page that reconnects simply gets the
current view of its seat. Every step that runs rules (a change, a bot
thinking and playing) is computed in a process of its own within a time
budget (steps.py), so the server keeps answering meanwhile; a step past
its budget stops the table, as it was before the step, with a message its
pages show. A bot's move is kept only if nothing changed the table while
it thought.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import secrets

from .. import limits
from ..errors import RulesError
from ..loader import load_game
from . import steps
from .store import Store
from .tables import HOTSEAT, Links, Setup, Table, TableError, fresh_seed
from .views import designer_view, seat_view


class Watcher:
    """An open page: its socket, whose eyes it has (a seat, HOTSEAT, or None
    for the designer), and a lock so views are sent one after the other."""

    def __init__(self, socket, seat):
        self.socket, self.seat = socket, seat
        self.sending = asyncio.Lock()


class Hub:
    def __init__(self, store: Store | None = None, bot_delay: float = 0.5, step_seconds: float = limits.STEP_SECONDS):
        self.store, self.bot_delay, self.step_seconds = store, bot_delay, step_seconds
        self.tables: dict[str, Table] = {}
        self.watchers: dict[str, set] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.bots: dict[str, asyncio.Task] = {}
        self.problems: list[str] = []  # saves that could not be resumed
        self.drawn: dict[str, tuple] = {}  # table id -> (its version, {seat or HOTSEAT or None: its view})
        self.drawing: dict[str, asyncio.Lock] = {}

    # ---------------------------------------------------------------- tables
    def resume(self) -> list[Table]:
        """The tables saved in the store, served again at their links."""
        if self.store is None:
            return []
        tables, self.problems = self.store.load_all(self.step_seconds)
        for table in tables:
            self.tables[table.id] = table
        return tables

    def new_table(self, rules: str, sets: dict, seed: int | None, players: int | None, humans, bots: str | None,
                  hotseat: bool = False) -> Table:
        """A new game of `rules`; people play the seats `humans` (from 0), bots the others."""
        game = load_game(rules, sets)
        players = game.player_range[0] if players is None else players
        humans = sorted(set(humans))
        if not humans:
            raise RulesError("no seat is played by a person: name at least one")
        for seat in humans:
            if not 0 <= seat < players:
                raise RulesError(f"player {seat + 1} does not exist with {players} players (players 1 to {players})")
        setup = Setup(os.path.abspath(rules), dict(sets), fresh_seed() if seed is None else seed, players,
                      humans, bots, hotseat)
        table_id, links = secrets.token_hex(6), Links.new(setup)
        try:  # the rules run to the first decision within the step budget, as every step
            table = steps.build(lambda: Table(table_id, game, setup, links), self.step_seconds, [game])
        except steps.Stopped as stopped:
            raise RulesError(f"{rules}: setting up the game: {stopped} (--step-time)") from None
        self.tables[table.id] = table
        self._save(table)
        return table

    def find_seat(self, token: str):
        """(table, seat) a seat's link opens, or None."""
        for table in self.tables.values():
            seat = table.seat_of(token)
            if seat is not None:
                return table, seat
        return None

    def find_designer(self, token: str):
        return next((t for t in self.tables.values() if t.opens_designer(token)), None)

    @staticmethod
    def links(table: Table) -> dict:
        """Seat (or HOTSEAT, or "designer") -> the path of its page."""
        out = {seat: f"/play/{token}" for seat, token in table.links.seats.items()}
        if table.links.hotseat:
            out[HOTSEAT] = f"/play/{table.links.hotseat}"
        out["designer"] = f"/designer/{table.links.designer}"
        return out

    async def view(self, table: Table, seat) -> dict:
        """What the page of `seat` (None: the designer's) shows. Views are
        drawn where steps are computed (a `show` template is rules too), each
        step drawing the views of the table it leaves; they are kept until
        the table changes. A table that cannot be drawn is a 503."""
        drawn = self.drawn.get(table.id)
        if drawn is None or drawn[0] != table.version:
            async with self.drawing.setdefault(table.id, asyncio.Lock()):
                drawn = self.drawn.get(table.id)
                if drawn is None or drawn[0] != table.version:
                    drawn = await self._redraw(table)
        return drawn[1][seat]

    async def _redraw(self, table: Table) -> tuple:
        version = table.version
        try:
            views, _ = await steps.compute(table, lambda: _draw(table), self.step_seconds, sent=lambda t: {})
        except (steps.Stopped, TableError, RulesError) as err:
            raise TableError(503, f"the table cannot be drawn: {_words(err)}") from None
        if table.version == version:
            self.drawn[table.id] = (version, views)
        return version, views

    # ---------------------------------------------------------------- changes
    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    async def change(self, table: Table, change, shared=()) -> None:
        """Run `change()` on the table, alone, within the step budget (in a
        process of its own, steps.py: `shared` names objects of this process
        its result may hold); then save, tell every page, and let the bots play."""
        async with self.lock(table):
            try:
                views, fields = await steps.compute(table, _step(table, change), self.step_seconds, shared,
                                                    _sent(table))
                self._take(table, fields, views)
            except steps.Stopped as stopped:
                self._stop(table, str(stopped))
            self._save(table)
        await self.broadcast(table)
        self.kick(table)

    def _take(self, table: Table, fields: dict, views) -> None:
        """The table as a step left it, and its views (see _sent)."""
        if "state" not in fields:
            self._stop(table, fields["error"])
        else:
            table.__dict__.update(fields)
            self.drawn[table.id] = (table.version, views)

    def _stop(self, table: Table, why: str) -> None:
        """Stop the game as it is, saying `why` on its pages (their views
        as drawn, with the reason and no decision to take: drawing them
        again might be what ran away)."""
        table.error = f"{why}; the game is as it was before it (the designer may go back or restart)"
        table.version += 1
        drawn = self.drawn.get(table.id)
        if drawn is not None:
            said = {"error": table.error, "version": table.version, "decision": None}
            self.drawn[table.id] = (table.version, {seat: {**view, **said} for seat, view in drawn[1].items()})

    def _save(self, table: Table) -> None:
        if self.store is not None:
            self.store.save(table)

    async def broadcast(self, table: Table) -> None:
        for watcher in list(self.watchers.get(table.id, ())):
            await self.send(table, watcher)

    async def send(self, table: Table, watcher: Watcher) -> None:
        try:
            async with watcher.sending:
                await watcher.socket.send_json(await self.view(table, watcher.seat))
        except Exception:  # a page that left: forget it (its socket says no more)
            self.unwatch(table, watcher)

    def watch(self, table: Table, socket, seat) -> Watcher:
        watcher = Watcher(socket, seat)
        self.watchers.setdefault(table.id, set()).add(watcher)
        return watcher

    def unwatch(self, table: Table, watcher: Watcher) -> None:
        self.watchers.get(table.id, set()).discard(watcher)

    # ---------------------------------------------------------------- bots
    def start(self) -> None:
        """Let the bots of every table play (once the event loop runs)."""
        for table in self.tables.values():
            self.kick(table)

    def kick(self, table: Table) -> None:
        task = self.bots.get(table.id)
        if table.bot_to_move() and (task is None or task.done()):
            self.bots[table.id] = asyncio.get_running_loop().create_task(self._play_bots(table))

    async def _play_bots(self, table: Table) -> None:
        while table.bot_to_move():
            await asyncio.sleep(self.bot_delay)
            version = table.version
            try:
                views, fields = await steps.compute(table, _step(table, lambda: _bot_move(table)),
                                                    self._thinking_seconds(table), sent=_sent(table))
            except (steps.Stopped, TableError, RulesError) as err:
                fields, stopped = None, _words(err)
            async with self.lock(table):
                if table.version != version:
                    continue  # the table changed while the bot thought: think again
                if fields is None:
                    self._stop(table, stopped)
                else:
                    self._take(table, fields, views)
                self._save(table)
            await self.broadcast(table)

    def _thinking_seconds(self, table: Table) -> float:
        """The step budget, plus the time a bot is told to think (`mcts:2s`)."""
        ms = getattr(table.agents[table.state.current_player()], "ms", None)
        return self.step_seconds + (ms / 1000 if isinstance(ms, (int, float)) else 0)

    async def stop(self) -> None:
        for task in self.bots.values():
            task.cancel()
        for task in self.bots.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        steps.end_all()


def _words(err: Exception) -> str:
    return err.diagnostics[0].message if isinstance(err, RulesError) else str(err)


def _draw(table: Table) -> dict:
    """Every view of the table: each person's seat (or the hot seat), and the designer's."""
    seats = [*table.links.seats, *([HOTSEAT] if table.links.hotseat else []), None]
    links = Hub.links(table)
    return {seat: designer_view(table, links) if seat is None else seat_view(table, seat) for seat in seats}


def _step(table: Table, work):
    """`work`, then the views of the table it leaves (none when it stopped
    the game: see _sent), as a step's process computes them."""
    before = table.error

    def step():
        work()
        return None if before is None and table.error is not None else _draw(table)
    return step


def _sent(table: Table):
    """What a step's process sends back: the table's fields, or only the
    rules error that stopped the game during the step (its step budget
    spent): the game then stays as it was before it."""
    before = table.error
    return lambda t: {"error": t.error} if before is None and t.error is not None else vars(t)


def _bot_move(table: Table) -> None:
    """The deciding bot chooses and plays (in a step's process); a rules
    error while it thinks stops the game with its message."""
    try:
        choice = table.bot_choice(table.state.clone())
    except RulesError as err:
        table.error, table.version = err.diagnostics[0].message, table.version + 1
        return
    table.play(choice)


__all__ = ["Hub", "TableError", "HOTSEAT"]
