"""The tool's cache folder: private to the user, checked before every use.

Three things are cached to keep `check` fast: the parse tables of the
grammar, the record that a card file passed its schema, and the parsed
trees of rules files and card texts (treecache.py). All are data (JSON),
never code or pickles, so a planted cache file cannot run anything; and a
cache file is read only from a folder the user owns that nobody else can
write to (the folder is made 0700), only if the user owns it, nobody else
can write to it and it is a regular file. Anything else is ignored: the
tool then works without the cache.
"""
from __future__ import annotations

import importlib.util
import os
import stat
from functools import lru_cache
from pathlib import Path

APP = "rules-interpreter"
MAX_ENTRY_BYTES = 8 << 20


def _owned_by_user(info) -> bool:
    return not hasattr(os, "getuid") or info.st_uid == os.getuid()


def _private(info) -> bool:
    """Owned by the user and writable by nobody else."""
    return _owned_by_user(info) and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _safe_parent(path: Path) -> bool:
    """The folder holding the cache folder: others cannot swap the cache
    folder out of it (it is not writable by them, or sticky like /tmp)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    writable_by_others = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    return stat.S_ISDIR(info.st_mode) and (not writable_by_others or bool(info.st_mode & stat.S_ISVTX))


def root() -> Path:
    """Where the cache lives: $XDG_CACHE_HOME/rules-interpreter, else ~/.cache/rules-interpreter."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative path is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / APP


def folder(name: str) -> Path | None:
    """The private cache sub-folder `name`, made if missing; None when it
    cannot be made or is not safe to trust."""
    top = root()
    path = top / name
    try:
        os.makedirs(top.parent, 0o700, exist_ok=True)
        if not _safe_parent(top.parent):
            return None
        for place in (top, path):
            try:
                os.mkdir(place, 0o700)
            except FileExistsError:
                pass
            info = os.lstat(place)
            if not stat.S_ISDIR(info.st_mode) or not _private(info):
                return None
    except (OSError, ValueError):
        return None
    return path


def read(name: str, entry: str) -> bytes | None:
    """The bytes of cache entry `entry` of folder `name`, or None if it is
    missing or not to be trusted (see the module docstring)."""
    place = folder(name)
    if place is None:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(place / entry, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or not _private(info) or info.st_size > MAX_ENTRY_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(MAX_ENTRY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def write(name: str, entry: str, data: bytes) -> None:
    """Store a cache entry (atomically, readable by the user only); a cache
    that cannot be written is simply not written."""
    place = folder(name)
    if place is None:
        return
    try:
        fd, temp = _mkstemp(dir=place, prefix=".", suffix=".part")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(temp, place / entry)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass


@lru_cache(maxsize=None)
def package_version(package: str) -> str:
    """An installed package's version, for the keys of entries it decides,
    read from its installed metadata's folder name without importing it
    (importlib.metadata costs more to import than a warm `check` takes)."""
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.origin:
        found = sorted(Path(spec.origin).parent.parent.glob(f"{package}-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len(package) + 1:-len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "?"


def _mkstemp(**where):
    import tempfile  # only when writing: its import is a noticeable part of a short run

    return tempfile.mkstemp(**where)
