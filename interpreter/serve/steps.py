"""Game steps computed away from the server's event loop, in a process of
their own, with a time budget.

A step (a person's action and the rules run to the next decision, a bot
thinking and playing, a trip back in time, a restart, a load, the views
drawn after it, a table set up) runs rules that may not end in reasonable
time: a `repeat` the step budget stops late, arithmetic on numbers growing
beyond measure. Such work holds Python's interpreter lock inside one
multiplication for seconds at a time, so a thread would freeze every
table, and cannot be interrupted. So each step runs in a child process
forked from the server: the child has the table as it is, does the work,
and sends the table's new fields back (pickled; the games, whose compiled
rules do not pickle, are named by their place in a list of objects both
processes hold). The server waits on the child's pipe without blocking its
loop, and kills the child when the budget is spent, when the server stops,
or when the request waiting for it is cancelled; the table then keeps the
fields it had. The child also limits its own time and memory, so it ends
even if the server dies first.

Where processes cannot be forked (Windows), the step runs in a thread,
without a time budget.
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import math
import os
import pickle
import select
import signal
import time
import warnings

from .. import limits
from ..errors import RulesError
from .tables import TableError

RUNNING: set = set()  # process ids of the steps being computed, killed when the server stops
ENDED: set = set()  # process ids of the steps killed because the server stops


class Stopped(Exception):
    """A step that did not finish: its budget was spent or its process died."""


async def compute(table, work, seconds: float, shared=(), sent=vars):
    """(what `work()` returned, `sent(table)` after it: the table's fields),
    computed in a child process on a copy of `table` within `seconds`;
    TableError or RulesError when the work raised it, Stopped when it did
    not finish. `shared`: more games the result may hold (one loaded for it)."""
    if not hasattr(os, "fork"):
        value = await asyncio.to_thread(work)
        return value, dict(sent(table))
    known = _known([table.game, *shared])
    pid, read = _fork(lambda: (work(), sent(table)), seconds, known)
    RUNNING.add(pid)
    try:
        data = await _collect(read, seconds)
    finally:
        RUNNING.discard(pid)
        end(pid)
    if pid in ENDED:
        ENDED.discard(pid)
        raise Stopped("the server stopped while a step of the rules was computed")
    return _outcome(data, known, seconds)


def build(make, seconds: float, shared=()):
    """What `make()` returns (a table set up: its rules run to the first
    decision, or its saved actions replayed), made in a child process
    within `seconds` as `compute` makes a step, by the command before it
    serves (no event loop runs yet). `shared`: the games it may hold."""
    if not hasattr(os, "fork"):
        return make()
    known = _known(shared)
    pid, read = _fork(lambda: (make(), None), seconds, known)
    try:
        data = _collect_now(read, seconds)
    finally:
        end(pid)
    return _outcome(data, known, seconds)[0]


def _known(games) -> list:
    """The objects both processes hold that a result names by place: each game and its compiled rules."""
    return [part for game in games for part in (game, getattr(game, "program", None)) if part is not None]


def _fork(work, seconds: float, known: list):
    """(the child's process id, the end of its pipe to read) of a child that runs `work`."""
    read, write = os.pipe()
    with warnings.catch_warnings():  # Python 3.12 warns of forking a process with threads: the child
        warnings.simplefilter("ignore", DeprecationWarning)  # runs the step alone and takes no lock they hold
        pid = os.fork()
    if pid == 0:  # the child: never returns
        _child(work, seconds, known, write)
    os.close(write)
    return pid, read


def _child(work, seconds: float, known: list, write: int) -> None:
    """Run `work()` -> (value, fields), send the outcome on `write`, and exit."""
    code = 1
    try:
        for name in ("SIGINT", "SIGTERM", "SIGALRM"):  # the server's handlers would keep a stray child alive
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)
        os.closerange(3, write)  # the server's sockets: a child must not keep a connection open
        os.closerange(write + 1, 1 << 16)
        _limit(seconds)
        try:
            outcome = ("done", *work())
        except TableError as err:
            outcome = ("refused", err.status, err.message)
        except RulesError as err:  # raised again by the server, where and as it was
            outcome = ("rules", type(err), err.diagnostics)
        except MemoryError:
            outcome = ("failed", f"it needed more than {limits.STEP_MEMORY >> 30} GB of memory")
        except Exception as err:  # said to the table's pages, as a rule that failed
            outcome = ("failed", f"{type(err).__name__}: {err}"[:300])
        try:
            data = _dumps(outcome, known)
        except Exception as err:
            data = _dumps(("failed", f"its result could not be sent back ({type(err).__name__}: {err})"[:300]), known)
        with os.fdopen(write, "wb") as out:
            out.write(data)
        code = 0
    finally:
        os._exit(code)


def _limit(seconds: float) -> None:
    """Bound the child's time (by the clock and by the processor), and (where the size of a process
    can be read) the memory it may add to what it has: a number squared
    beyond measure fails there, as MemoryError, rather than take the
    machine's memory."""
    try:
        import resource
    except ImportError:
        return
    limit = math.ceil(seconds) + 1
    signal.alarm(limit + 1)  # ends the child a second after the server would have, even one stuck waiting
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
    with contextlib.suppress(ValueError, OSError, IndexError):
        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        resource.setrlimit(resource.RLIMIT_AS, (size + limits.STEP_MEMORY, resource.getrlimit(resource.RLIMIT_AS)[1]))


async def _collect(fd: int, seconds: float) -> bytes:
    """Everything the child writes on `fd` until it closes it, within `seconds`."""
    loop = asyncio.get_running_loop()
    chunks: list = []
    closed = loop.create_future()

    def readable():
        try:
            chunk = os.read(fd, 1 << 20)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if chunk:
            chunks.append(chunk)
        elif not closed.done():
            closed.set_result(None)

    os.set_blocking(fd, False)
    loop.add_reader(fd, readable)
    try:
        await asyncio.wait_for(closed, seconds)
    except asyncio.TimeoutError:
        raise Stopped(_too_long(seconds)) from None
    finally:
        loop.remove_reader(fd)
        os.close(fd)
    return b"".join(chunks)


def _collect_now(fd: int, seconds: float) -> bytes:
    """_collect, waiting in this thread (Ctrl+C interrupts the wait)."""
    deadline, chunks = time.monotonic() + seconds, []
    with os.fdopen(fd, "rb", buffering=0) as pipe:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([pipe], [], [], left)[0]:
                raise Stopped(_too_long(seconds))
            chunk = pipe.read(1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _too_long(seconds: float) -> str:
    return f"a step of the rules took longer than {seconds:g} s and was stopped"


def _outcome(data: bytes, known: list, seconds: float):
    if not data:
        raise Stopped("a step of the rules was stopped before it ended (out of memory, or over "
                      f"{math.ceil(seconds) + 1} s of processor time)")
    outcome = _Unpickler(io.BytesIO(data), known).load()
    if outcome[0] == "refused":
        raise TableError(outcome[1], outcome[2])
    if outcome[0] == "rules":
        raise outcome[1](outcome[2])
    if outcome[0] == "failed":
        raise Stopped(f"a step of the rules failed: {outcome[1]}")
    return outcome[1], outcome[2]


def end(pid: int) -> None:
    """Kill a step's process if it still runs, and reap it (killed before it
    is reaped, its id cannot belong to another process yet)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def end_all() -> None:
    """End every step in progress (the server stops): the requests waiting
    for them are answered at once, so the server stops in time."""
    for pid in list(RUNNING):
        ENDED.add(pid)
        end(pid)


def _dumps(outcome, known: list) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, known).dump(outcome)
    return buffer.getvalue()


class _Pickler(pickle.Pickler):
    def __init__(self, file, known):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.known = known

    def persistent_id(self, obj):
        return next((i for i, item in enumerate(self.known) if obj is item), None)


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, known):
        super().__init__(file)
        self.known = known

    def persistent_load(self, pid):
        return self.known[pid]
