"""Run batches of games: in this process, on local worker processes, or on a
Dask distributed cluster. Every runner takes a list of tasks
`(spec, start, stop)` and yields `(task number, batch result)` as batches
finish; the caller orders them. Results do not depend on the runner, the
number of workers or the batch size (see `runner.game_seed`).
"""
from __future__ import annotations

import contextlib
import gc
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from .. import limits
from ..errors import RulesError
from .runner import Stop, load, on_interrupt, run_batch


def available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def split(start: int, stop: int, workers: int, per_worker: int = 8, largest: int = 250) -> list:
    """Ranges covering start..stop-1: about `per_worker` batches per worker
    (for load balance and a smooth progress bar), never more than `largest`
    games each. With several workers the last batches shrink (each at most
    1/(2 x workers) of the games left, down to one game), so that the workers
    run out of games at about the same time instead of all waiting for the
    one that drew the last full batch.

    >>> split(0, 10, 2, per_worker=1, largest=4)
    [(0, 3), (3, 5), (5, 7), (7, 8), (8, 9), (9, 10)]
    >>> split(0, 10, 1, per_worker=2)
    [(0, 5), (5, 10)]
    """
    n = stop - start
    if n <= 0:
        return []
    size = max(1, min(largest, math.ceil(n / max(1, workers * per_worker))))
    if workers <= 1:
        return [(a, min(a + size, stop)) for a in range(start, stop, size)]
    ranges, a = [], start
    while a < stop:
        b = a + min(size, math.ceil((stop - a) / (2 * workers)))
        ranges.append((a, b))
        a = b
    return ranges


LOOK = 0.2  # seconds between two looks at a Ctrl-C while batches run elsewhere
GRACE = 1.0  # seconds a worker has to send back the games it finished, once interrupted
CLOSE_TIMEOUT = 5  # seconds to leave a Dask cluster, results in hand


def _quiet_worker():
    """A worker stops its batch on Ctrl-C (the terminal's, or the parent's
    when it stops the sweep) and sends back the games it finished."""
    Stop.requested = Stop.playing = False
    signal.signal(signal.SIGINT, on_interrupt)


@contextlib.contextmanager
def interruptible():
    """Ctrl-C stops the sweeps run inside: this process's SIGINT asks them to
    stop (see `runner.on_interrupt`) instead of raising anywhere. Only the
    main thread can set a signal handler; elsewhere Ctrl-C raises as usual."""
    Stop.requested = Stop.playing = False
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _task(task):
    spec, start, stop = task
    return run_batch(spec, start, stop)


class InlineRunner:
    """Plays every batch in this process, in order."""

    workers = 1

    def run(self, tasks):
        for i, task in enumerate(tasks):
            if Stop.requested:
                return
            yield i, _task(task)

    def interrupt(self):
        return iter(())  # a batch cut short here was sent back already

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
        self.forking = False
        self.unread: dict = {}  # future -> task number, of batches not yet given back

    def _start(self, tasks):
        if self.pool is None:
            methods = multiprocessing.get_all_start_methods()
            method = "fork" if "fork" in methods and threading.active_count() == 1 else "spawn"
            if method == "fork":
                _compile_first(tasks)
            self.pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context(method),
                                            initializer=_quiet_worker)
            self.forking = method == "fork"
        return self.pool

    def run(self, tasks):
        if not tasks:
            return
        pool = self._start(tasks)
        waiting = _window(tasks, self.workers)
        with _frozen(self.forking):  # the first submit forks the workers
            self.unread = {pool.submit(_task, task): i for i, task in next(waiting)}
        while self.unread and not Stop.requested:
            done, _ = wait(self.unread, timeout=LOOK, return_when=FIRST_COMPLETED)
            for fut in done:
                self.unread.update((pool.submit(_task, task), i) for i, task in next(waiting))
                yield self.unread.pop(fut), fut.result()

    def interrupt(self):
        """Stop the sweep at once: batches not started are dropped, the
        running ones are cut short (each worker abandons its game and sends
        back those it finished, within GRACE seconds), and the workers end.
        Yields (task number, batch) for every batch sent back meanwhile."""
        unread, self.unread = self.unread, {}
        for fut in unread:
            fut.cancel()
        pool, self.pool = self.pool, None
        if pool is None:
            return
        workers = list(getattr(pool, "_processes", {}).values())  # CPython's pool keeps them there
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                os.kill(worker.pid, signal.SIGINT)
        running = [fut for fut in unread if not fut.cancelled()]
        wait(running, timeout=GRACE)
        for fut in running:
            if fut.done() and fut.exception() is None:
                yield unread[fut], fut.result()
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                worker.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self):
        if self.pool is not None:
            for fut in self.unread:
                fut.cancel()
            self.unread = {}
            self.pool.shutdown(cancel_futures=True)
            self.pool = None


@contextlib.contextmanager
def _frozen(forking: bool):
    """While workers are forked: the objects this process holds are moved
    out of the collector's reach (`gc.freeze`), so a worker's collections
    never walk, and so never copy, the memory pages it shares with this
    process (the compiled rules, the modules). Only for the fork itself:
    this process collects them again afterwards."""
    if not forking:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _window(tasks: list, workers: int):
    """Tasks to hand out, numbered: first enough to keep every worker busy
    (as many as `split` makes for a sweep of ordinary size), then one for
    each batch that comes back (an empty list once all are out). A long
    sweep never has more out at once, so Ctrl-C has few to stop and the
    driver few futures to watch."""
    numbered = iter(enumerate(tasks))
    yield [t for _, t in zip(range(8 * workers), numbered)]
    while True:
        yield [t for _, t in zip(range(1), numbered)]


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
        self.unread: dict = {}  # future -> task number, of batches not yet given back

    def run(self, tasks):
        if not tasks:
            return

        from distributed import as_completed

        waiting = _window(tasks, self.workers)
        finished = as_completed()

        def submit(some):
            for i, task in some:
                fut = self.client.submit(_task, task, pure=False)
                self.unread[fut] = i
                finished.add(fut)

        self.unread = {}
        submit(next(waiting))
        while self.unread and not Stop.requested:
            ready = finished.next_batch(block=False)
            if not ready:
                time.sleep(LOOK / 4)  # a look at Ctrl-C now and then, not a wait without end
            for fut in ready:
                submit(next(waiting))
                yield self.unread.pop(fut), fut.result()

    def interrupt(self):
        """Stop the sweep: yield the batches finished and not yet given back,
        and let the others go (the scheduler drops tasks nobody holds; a batch
        running on a worker cannot be cut short: its games are lost)."""
        unread, self.unread = self.unread, {}
        for fut, i in unread.items():
            if fut.status == "finished":
                yield i, fut.result()

    def close(self):
        """Leave the cluster. Every result is in by now, so a slow goodbye
        (a scheduler late to answer, a connection already closed) is no
        error, and distributed's own complaints about it are not shown."""
        self.unread = {}
        if self.own:
            log = logging.getLogger("distributed")
            level = log.level
            log.setLevel(logging.CRITICAL)
            try:
                with contextlib.suppress(TimeoutError, OSError):
                    self.client.close(timeout=CLOSE_TIMEOUT)
            finally:
                log.setLevel(level)


def make_runner(jobs: int | None = None, scheduler=None):
    """The runner for `--jobs` / `--scheduler`."""
    if scheduler is not None:
        return DaskRunner(scheduler)
    jobs = available_cores() if jobs is None else jobs
    if not 1 <= jobs <= limits.JOBS:
        raise RulesError(f"--jobs {jobs}: between 1 and {limits.JOBS} worker processes (the limit)")
    return InlineRunner() if jobs == 1 else LocalRunner(jobs)
