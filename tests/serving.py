"""A real server for the tests: uvicorn serving a hub on a free port of
127.0.0.1, in a thread, for as long as a `with` block lasts."""
from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

import uvicorn

from interpreter.serve import Hub, Store, bind
from interpreter.serve.app import make_app

FIXTURES = Path(__file__).parent / "fixtures" / "serve"
HANDS = FIXTURES / "hands.rules"  # every card has a name of its own, kept in private hands


@contextlib.contextmanager
def running(hub: Hub):
    """The base address of `hub` served by uvicorn, until the block ends."""
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(make_app(hub), log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(15)
        sock.close()


def new_hub(folder, rules=HANDS, players=3, humans=(0, 1), seed=7, bots=None, hotseat=False, sets=None,
            bot_delay=0.0):
    """A hub keeping its games in `folder`, with one new table; (hub, table)."""
    hub = Hub(Store(folder), bot_delay=bot_delay)
    table = hub.new_table(str(rules), dict(sets or {}), seed, players, list(humans), bots, hotseat)
    return hub, table


def wait_until(test, seconds: float = 30.0, what: str = "the condition"):
    """Poll `test()` until it is true (and return its value)."""
    deadline = time.monotonic() + seconds
    while True:
        value = test()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def drawn(table, seat):
    """The page of `seat` (None: the designer's), drawn here, as the hub's
    step processes draw it."""
    from interpreter.serve.hub import Hub
    from interpreter.serve.views import designer_view, seat_view

    return designer_view(table, Hub.links(table)) if seat is None else seat_view(table, seat)
