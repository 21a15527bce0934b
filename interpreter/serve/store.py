"""Where a server keeps its games: one save per table in a private folder.

Each table is saved after every change, as the terminal saves a game
(`rules-game-save/2`, resumable with the command line's `run --load`), with the
table's links and branches added; a server started on the same folder
serves the same games at the same links. The saves are the user's own
(files 600): the links in them open every seat. A folder the server makes
is the user's own too (700); one that exists keeps its mode, with a warning
when others may open it.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

from .. import files, limits
from ..errors import RulesError, SaveFileError
from ..loader import load_named_game
from ..replay import rules_named_in
from ..saves import session_data
from . import steps
from .tables import Links, Setup, Table, TableError

SUFFIX = ".json"


def default_folder(tool: str) -> Path:
    """The user's data folder for the served games of the program called
    `tool` (XDG on Linux, Application Support on macOS, LOCALAPPDATA on Windows)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / tool / "served-games"


class Store:
    """The saves of a server's tables in one folder."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.warnings: list[str] = []  # said by the command before it serves
        made = _make_private(self.folder)
        files.prepare_folder(self.folder, "the served games")
        if not made:
            self._check_private()

    def _check_private(self) -> None:
        """A folder the server did not make keeps its mode (it may be shared
        on purpose); the saves in it are still private (600), but other users
        who may open the folder see which games are kept."""
        if os.name != "posix":
            return
        mode = stat.S_IMODE(os.stat(self.folder).st_mode)
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            self.warnings.append(f"the folder {self.folder} may be opened by other users (mode {mode:o}); "
                                 f"each saved game in it is readable by you alone")

    def path(self, table: Table) -> Path:
        return self.folder / f"{table.id}{SUFFIX}"

    def save(self, table: Table) -> None:
        path = self.path(table)
        if not path.exists():  # created private, so the text never lies in a file others may read
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        files.write_text(path, table.save_text(str(path), with_links=True), "a served game")

    def load_all(self, seconds: float = limits.STEP_SECONDS) -> tuple[list[Table], list[str]]:
        """Every table saved in the folder, and a message for each save that
        could not be resumed (its rules moved or changed, it is damaged, or
        replaying it takes longer than `seconds`)."""
        tables, problems = [], []
        for path in sorted(self.folder.glob(f"*{SUFFIX}")):
            try:
                tables.append(self.load(path, seconds))
            except RulesError as err:
                problems.append(f"{path}: not resumed: {err.diagnostics[0].message}")
            except TableError as err:  # a saved action that is not legal there
                problems.append(f"{path}: not resumed: {err.message}")
        return tables, problems

    def load(self, path: Path, seconds: float = limits.STEP_SECONDS) -> Table:
        raw = files.read_bytes(path, "a served game", limits.SAVE_FILE_BYTES)
        data = session_data(raw, str(path))
        serve = data.get("serve")
        if not isinstance(serve, dict) or not isinstance(serve.get("links"), dict):
            raise SaveFileError(f"{path}: a saved game, but not one this server keeps (no links)")
        rules = rules_named_in(str(path), data["rules"], "served game")
        game = load_named_game(rules, data["sets"], str(path), "served game")
        if game.program.fingerprint != data["fingerprint"]:
            raise SaveFileError(f"the rules {rules} changed since the game was saved")
        state = game.state_from_json(json.dumps(data["game"]))
        hotseat = serve.get("hotseat") is True
        setup = Setup(os.path.abspath(rules), data["sets"], data["seed"], data["players"],
                      sorted(set(data["human"])), data.get("bots"), hotseat)
        links = _links(serve["links"], setup, path)

        def replayed():
            table = Table(path.stem, game, setup, links, state.actions() or [])
            table.branches = _branches(table, serve.get("branches"))
            return table
        try:  # the saved actions replayed within the step budget, as every step
            return steps.build(replayed, seconds, [game])
        except steps.Stopped as stopped:
            raise SaveFileError(f"{path}: replaying the game: {stopped} (--step-time)") from None


def _make_private(folder: Path) -> bool:
    """Make `folder` (its parents as usual) readable by the user alone, if
    it is missing: whether it was made here."""
    try:
        if os.path.lexists(folder):
            return False
        os.makedirs(folder.parent, exist_ok=True)
        os.mkdir(folder, stat.S_IRWXU)
    except (OSError, ValueError):  # files.prepare_folder says what is wrong
        return False
    return True


def _links(plain: dict, setup: Setup, path) -> Links:
    designer, seats, hotseat = plain.get("designer"), plain.get("seats"), plain.get("hotseat")
    tokens = [designer, hotseat] + (list(seats.values()) if isinstance(seats, dict) else [])
    if not isinstance(seats, dict) or not all(isinstance(t, str) and len(t) >= 16 for t in tokens if t is not None) \
            or designer is None or (setup.hotseat and hotseat is None):
        raise SaveFileError(f"{path}: the links of the saved game are damaged")
    try:
        by_seat = {int(seat): token for seat, token in seats.items()}
    except ValueError:
        raise SaveFileError(f"{path}: the links of the saved game are damaged") from None
    if not setup.hotseat and sorted(by_seat) != setup.humans:
        raise SaveFileError(f"{path}: the links of the saved game do not match its people's seats")
    return Links(designer, by_seat, hotseat if setup.hotseat else None)


def _branches(table: Table, saved) -> list:
    """The saved branches that still replay under these rules (others are dropped)."""
    if not isinstance(saved, list):
        return []
    kept = []
    for line in saved:
        if not isinstance(line, list) or not all(isinstance(a, str) for a in line):
            continue
        table.branches = kept + [line]
        try:
            table.branch_decisions(len(kept))
        except (RulesError, TableError):
            continue
        kept.append(line)
    return kept
