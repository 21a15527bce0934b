"""Simulation at scale: play many games of a rules file with bots, on local
processes or a Dask cluster, and summarise them with real statistics; compare
variants with common random numbers (compare.py); search parameters toward
targets (tune.py).

    from interpreter.simulation import simulate
    result = simulate("game.rules", games=500, players=3, bots="random", seed=1, jobs=2)
    result.summary["win_rate_by_seat"]

See docs/simulation.md for what every figure means.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from .parallel import interruptible, make_runner
from .runner import SweepSpec, game_seed, seat_bots
from .summary import summarize
from .sweep import Interrupted, Sweep, play

__all__ = ["SimulationResult", "SweepSpec", "game_seed", "seat_bots", "simulate", "summarize"]


@dataclass
class SimulationResult:
    summary: dict
    records: list  # every game's record if keep_records, else empty
    meta: dict
    samples: dict  # per-game numbers for plots: "scores", "turns"
    interrupted: bool = False  # stopped by Ctrl-C: the summary is of the games finished by then


INTERRUPTED = ("stopped by Ctrl-C: the figures are of the games finished by then (those of a batch still "
               "running on a cluster are lost); `out` received every one of them, in game order")


def simulate(rules: str, games: int, players: Optional[int] = None, bots="random", sets: Optional[dict] = None,
             seed: int = 0, jobs: Optional[int] = None, scheduler=None, coverage: bool = False,
             out: Optional[Callable] = None, progress: Optional[Callable] = None,
             max_steps: Optional[int] = None, keep_records: bool = False) -> SimulationResult:
    """Play `games` games and summarise them. `out(record)` receives each
    game's record in game order; `progress(k)` is told when k more games are
    done. `scheduler` is a Dask address (or Client); else `jobs` local
    processes (default: every core). Records are kept in memory only with
    `keep_records` (a long sweep needs only the summary's running totals).
    Ctrl-C (SIGINT, in the main thread) stops the sweep within about a second
    and returns the summary of the games finished, marked `interrupted`."""
    if games < 1:
        from ..errors import RulesError

        raise RulesError("play at least one game (-n 1 or more)")
    spec = SweepSpec.make(rules, sets, players or 0, bots, seed, coverage, max_steps)
    if players is None:
        from .runner import load

        spec = SweepSpec.make(rules, sets, load(spec).player_range[0], bots, seed, coverage, max_steps)
    sweep = Sweep(spec, out=out, keep_records=keep_records)
    interrupted = False
    with interruptible():
        runner = make_runner(jobs, scheduler)
        try:
            play([sweep], games, runner, progress)
        except Interrupted:
            interrupted = True
        finally:
            runner.close()
    summary = sweep.summary()
    if interrupted:
        summary["interrupted"] = {"games": sweep.played, "of": games, "meaning": INTERRUPTED}
    return SimulationResult(summary, sweep.records, sweep.meta, sweep.samples(), interrupted)
