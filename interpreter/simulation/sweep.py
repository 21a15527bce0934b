"""Drive sweeps: split games into batches, hand them to a runner, take the
records back in game order, and check that every batch read the same rules."""
from __future__ import annotations

import contextlib
import sys
import time
from array import array
from functools import cached_property
from typing import Callable, Optional

from ..errors import RulesError
from .parallel import interruptible, split
from .runner import Stop, SweepSpec, load, rule_names
from .summary import Tally


class Sweep:
    """One rules file under one set of settings: its spec, its compiled game
    (loaded here, so errors in the rules show before any game is played) and
    what the games played so far add up to.

    Records arrive in game order and go to `tally` (the summary), to `out`
    (e.g. a JSON-lines file), to `records` if `keep_records`, and, if
    `metrics` is given (a function of a record returning {name: number}), to
    per-metric arrays in `values` (for paired comparisons).
    """

    def __init__(self, spec: SweepSpec, out: Optional[Callable] = None, keep_records: bool = False,
                 metrics: Optional[Callable] = None):
        self.spec = spec
        self.game = load(spec)
        p = self.game.program
        if not p.min_players <= spec.players <= p.max_players:
            allowed = str(p.min_players) if p.min_players == p.max_players else f"{p.min_players} to {p.max_players}"
            raise RulesError(f"{p.title} is played by {allowed} players, not {spec.players}")
        from ..agents import make_agents

        make_agents(",".join(spec.bots), spec.players, spec.seed)  # unknown bots fail here
        self.fingerprint = p.fingerprint
        self.tally = Tally(self.meta)
        self.records: list = []
        self.keep_records = keep_records
        self.metrics = metrics
        self.values: dict = {}
        self.seconds = 0.0
        self.out = out
        self.played = 0  # games 0 to played - 1 are in
        self._waiting: dict = {}

    @cached_property
    def meta(self) -> dict:
        p = self.game.program
        first_of_group: dict = {}
        for card, group in enumerate(p.card_groups):
            first_of_group.setdefault(group, card)
        return {
            "rules": self.spec.rules, "title": p.title, "sets": dict(self.spec.sets),
            "players": self.spec.players, "bots": list(self.spec.bots), "seed": self.spec.seed,
            # cards by group: the copies of one entry count as one card
            "card_ids": list(first_of_group),
            "card_names": [p.card_names[card] for card in first_of_group.values()],
            "rule_names": rule_names(self.game, self.spec.players) if self.spec.coverage else [],
            "terms": [label for label, _ in p.score_terms], "coverage": self.spec.coverage,
            "team": self.game.traits.together or self.game.traits.cooperative,
            "hands": self.game.traits.starts_hands,
        }

    def summary(self) -> dict:
        return self.tally.summary(self.seconds)

    def samples(self) -> dict:
        """Per-game numbers for plots: every final score, every game length."""
        return {"scores": list(self.tally.scores), "turns": list(self.tally.turns)}

    def _accept(self, batch: dict) -> None:
        if "error" in batch:
            raise RulesError(batch["error"])
        if batch["fingerprint"] != self.fingerprint:
            raise RulesError(f"a worker read different rules, cards or parameters for {self.spec.rules} "
                             f"(fingerprint {batch['fingerprint']}, expected {self.fingerprint})")
        self._waiting[batch["start"]] = batch["records"]
        while self.played in self._waiting:
            for record in self._waiting.pop(self.played):
                self._take(record)

    def drain(self) -> None:
        """Take the games still waiting behind a batch cut short (a sweep
        interrupted): every finished game counts, in game order, gaps and all."""
        for start in sorted(self._waiting):
            for record in self._waiting.pop(start):
                self._take(record, in_order=False)

    def _take(self, record: dict, in_order: bool = True) -> None:
        assert record["game"] == self.played or not in_order
        self.played += 1
        self.tally.add(record)
        if self.out is not None:
            self.out(record)
        if self.keep_records:
            self.records.append(_compact(record))
        if self.metrics is not None:
            # a metric a game lacks counts 0 there (the win rate of a team
            # no player of that game was on), so every array has a value per game
            games = self.played - 1
            measured = self.metrics(record)
            for name, value in measured.items():
                self.values.setdefault(name, array("d", [0.0] * games)).append(value)
            for name, column in self.values.items():
                if name not in measured:
                    column.append(0.0)


def _compact(record: dict) -> dict:
    """Share the strings records repeat (card ids, labels, bot names)."""
    intern = sys.intern
    record["bots"] = [intern(b) for b in record["bots"]]
    record["cards"] = [[intern(c) for c in cards] for cards in record["cards"]]
    record["breakdown"] = [{intern(k): v for k, v in b.items()} for b in record["breakdown"]]
    return record


class Interrupted(Exception):
    """A sweep stopped by Ctrl-C, its finished games taken (see `play`)."""


@contextlib.contextmanager
def aborted_on_interrupt():
    """Ctrl-C ends the sweeps inside at once (their runner interrupted), as a
    KeyboardInterrupt: for a comparison or a search, which half played gives
    nothing to report."""
    with interruptible():
        try:
            yield
        except Interrupted:
            raise KeyboardInterrupt from None


def play(sweeps: list, stop, runner, progress: Optional[Callable] = None) -> None:
    """Extend every sweep to `stop` games (or each to its own, if `stop` is a
    list), all sweeps' batches sharing the runner; `progress(games)` is
    called as batches finish. Ctrl-C stops the runner at once: every game
    finished by then is taken, and `Interrupted` is raised."""
    stops = list(stop) if isinstance(stop, (list, tuple)) else [stop] * len(sweeps)
    tasks, owners = [], []
    for sweep, end in zip(sweeps, stops):
        for a, b in split(sweep.played, end, getattr(runner, "workers", 1)):
            tasks.append((sweep.spec, a, b))
            owners.append(sweep)
    began = time.perf_counter()
    try:
        for i, batch in runner.run(tasks):
            owners[i]._accept(batch)
            if progress is not None:
                progress(len(batch["records"]))
            if batch.get("interrupted"):
                Stop.requested = True
                break
    except KeyboardInterrupt:  # where nothing turned Ctrl-C into a request (see parallel.interruptible)
        Stop.requested = True
    if Stop.requested:
        for i, batch in runner.interrupt():
            owners[i]._accept(batch)
        for sweep in sweeps:
            sweep.drain()
            sweep.seconds += time.perf_counter() - began
        raise Interrupted()
    spent = time.perf_counter() - began
    # Time is shared among the sweeps in proportion to the games they played.
    total = sum(b - a for _, a, b in tasks) or 1
    for sweep in sweeps:
        mine = sum(b - a for (s, a, b), o in zip(tasks, owners) if o is sweep)
        sweep.seconds += spent * mine / total
    for sweep, end in zip(sweeps, stops):
        if sweep.played < end:
            raise RulesError(f"the sweep of {sweep.spec.rules} stopped at game {sweep.played} of {end}")
