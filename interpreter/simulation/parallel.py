"""Run batches of games: in this process, on local worker processes, or on a
Dask distributed cluster. Every runner takes a list of tasks
`(spec, start, stop)` and yields `(task number, batch result)` as batches
finish; the caller orders them. Results do not depend on the runner, the
number of workers or the batch size (see `runner.game_seed`).
"""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from .. import limits
from ..errors import RulesError
from .runner import load, run_batch


def available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def split(start: int, stop: int, workers: int, per_worker: int = 8, largest: int = 250) -> list:
    """Ranges covering start..stop-1: about `per_worker` batches per worker
    (for load balance and a smooth progress bar), never more than `largest`
    games each.

    >>> split(0, 10, 2, per_worker=1, largest=4)
    [(0, 4), (4, 8), (8, 10)]
    """
    n = stop - start
    if n <= 0:
        return []
    size = max(1, min(largest, math.ceil(n / max(1, workers * per_worker))))
    return [(a, min(a + size, stop)) for a in range(start, stop, size)]


def _quiet_worker():
    """Workers leave Ctrl-C to the parent, which stops the sweep."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _task(task):
    spec, start, stop = task
    return run_batch(spec, start, stop)


class InlineRunner:
    """Plays every batch in this process, in order."""

    workers = 1

    def run(self, tasks):
        for i, task in enumerate(tasks):
            yield i, _task(task)

    def close(self):
        pass


class LocalRunner:
    """A pool of local worker processes, kept for the runner's life.

    Worker processes are forked when the platform allows it and no other
    thread is running (cheap, and the parent's compiled rules are inherited);
    otherwise they are spawned.
    """

    def __init__(self, jobs: int):
        self.workers = max(1, jobs)
        self.pool = None

    def _start(self, tasks):
        if self.pool is None:
            methods = multiprocessing.get_all_start_methods()
            method = "fork" if "fork" in methods and threading.active_count() == 1 else "spawn"
            if method == "fork":
                _compile_first(tasks)
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method),
                                            initializer=_quiet_worker)
        return self.pool

    def run(self, tasks):
        if not tasks:
            return
        pool = self._start(tasks)
        futures = {pool.submit(_task, task): i for i, task in enumerate(tasks)}
        pending = set(futures)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield futures[fut], fut.result()
        finally:
            for fut in pending:
                fut.cancel()

    def close(self):
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None


def _compile_first(tasks) -> None:
    """Compile the rules of the first sweeps here, before the workers are
    forked: they inherit them instead of each compiling its own copy (a
    fixed cost that would eat into the speed-up of a short sweep)."""
    for spec in dict.fromkeys(task[0] for task in tasks):
        try:
            load(spec)
        except RulesError:
            pass  # the batch reports it, with the game it was playing


class DaskRunner:
    """Batches as tasks of a Dask distributed cluster (`tcp://HOST:PORT`, or
    an existing `distributed.Client`). Workers need this package installed
    and the rules files at the same paths."""

    def __init__(self, scheduler):
        try:
            from distributed import Client
        except ImportError:
            raise RulesError("running on a cluster needs Dask: pip install 'dask[distributed]'") from None
        if isinstance(scheduler, Client):
            self.client, self.own = scheduler, False
        else:
            try:
                self.client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError, ValueError) as err:
                raise RulesError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
            self.own = True
        self.workers = max(1, sum(self.client.nthreads().values()))

    def run(self, tasks):
        if not tasks:
            return
        from distributed import as_completed

        futures = self.client.map(_task, tasks, pure=False)
        index = {fut.key: i for i, fut in enumerate(futures)}
        try:
            for fut in as_completed(futures):
                yield index[fut.key], fut.result()
        finally:
            for fut in futures:
                if not fut.done():
                    fut.cancel()

    def close(self):
        if self.own:
            self.client.close()


def make_runner(jobs: int | None = None, scheduler=None):
    """The runner for `--jobs` / `--scheduler`."""
    if scheduler is not None:
        return DaskRunner(scheduler)
    jobs = available_cores() if jobs is None else jobs
    if not 1 <= jobs <= limits.JOBS:
        raise RulesError(f"--jobs {jobs}: between 1 and {limits.JOBS} worker processes (the limit)")
    return InlineRunner() if jobs == 1 else LocalRunner(jobs)
