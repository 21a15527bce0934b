"""Playtesting in the browser: a local web server for a game of any rules.

Each person's seat has its own link and page showing only what that seat
may see; bots play the other seats; a designer's page shows the whole game,
its log, time travel, saves and restarts. The command line's `serve` starts it.
"""
from __future__ import annotations

from .hub import Hub
from .server import bind, run
from .store import Store, default_folder
from .tables import HOTSEAT, Table, TableError

__all__ = ["HOTSEAT", "Hub", "Store", "Table", "TableError", "bind", "default_folder", "run"]
