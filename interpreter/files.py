"""Files named by users, read and written so that no input can hang the
tool or destroy something that is not a file.

Reading: only regular files (a FIFO or a device such as /dev/zero would
block or never end), each kind with a size cap; the type and size are
checked on the open descriptor, so nothing is read from anything else.
Writing: only to a new path or over a regular file, never over or through
a symbolic link, a FIFO, a device or a folder; the text goes to a temporary
file beside the target, which replaces it only once complete, so a full
disk or a crash leaves the old file as it was.

Outputs never replace inputs: while a command runs inside `inputs_kept()`,
every file it reads is remembered by its identity (device and inode, so a
link or another spelling of the path is the same file), and a write over
one of them is refused.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import stat

from .errors import RulesError

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class FileRefused(RulesError):
    """A file named by a user that the tool will not read or write."""


# (st_dev, st_ino) -> (path as named, what it is) of each file read inside
# `inputs_kept()`; None outside it (a server or a language server reads and
# writes its own files for as long as it runs, and keeps no such record).
_inputs: dict | None = None


@contextlib.contextmanager
def inputs_kept():
    """Within the block, no file that was read may be written over (see the module)."""
    global _inputs
    outer, _inputs = _inputs, {} if _inputs is None else _inputs
    try:
        yield
    finally:
        _inputs = outer


# The files read inside `reads_noted()`: [(path, what, limit, contents)].
_noted: contextvars.ContextVar = contextvars.ContextVar("noted", default=None)


@contextlib.contextmanager
def reads_noted():
    """Within the block, note every file read with what it held: the list
    given tells whether a result computed from them still holds
    (`still_read_as`)."""
    noted: list = []
    token = _noted.set(noted)
    try:
        yield noted
    finally:
        _noted.reset(token)


def still_read_as(noted: list) -> bool:
    """Whether every file noted by `reads_noted` reads the same today."""
    for path, what, limit, contents in noted:
        try:
            if read_bytes(path, what, limit) != contents:
                return False
        except RulesError:
            return False
    return True


def _remember(path, what: str, info) -> None:
    if _inputs is not None:
        _inputs.setdefault((info.st_dev, info.st_ino), (os.fspath(path), what))


def _refuse_an_input(path, what: str, info) -> None:
    """Refuse to write over a file this command reads (compared by identity, not by name)."""
    read = _inputs.get((info.st_dev, info.st_ino)) if _inputs is not None else None
    if read is not None:
        named, kind = read
        same = "" if os.path.abspath(named) == os.path.abspath(path) else f" ({named})"
        raise FileRefused(f"refusing to write {what} to {path}: it is the {kind}{same} this command reads; "
                          "name another file")


def kind_of(mode: int) -> str:
    """What a file is, in words (for anything but a regular file)."""
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def _size(limit: int) -> str:
    for unit, size in (("MB", 1 << 20), ("KB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


def _open_regular(path, what: str, limit: int, missing: str | None = None) -> int:
    """A descriptor of the regular file `path`, at most `limit` bytes long.
    Opened without blocking (a FIFO would wait for a writer) and checked on
    the descriptor itself, so what is read is what was checked."""
    if not isinstance(path, (str, os.PathLike)):  # an int would be taken for an open file descriptor
        raise FileRefused(f"cannot read {what}: {path!r} is not a file name")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except ValueError:
        raise FileRefused(f"cannot read {what} {os.fspath(path)!r}: the path contains a NUL byte") from None
    except FileNotFoundError:
        raise FileRefused(missing or f"cannot read {what} {path}: no such file") from None
    except OSError as err:
        try:  # a socket cannot even be opened: say what it is
            mode = os.stat(path).st_mode
        except OSError:
            mode = stat.S_IFREG
        if not stat.S_ISREG(mode):
            raise FileRefused(f"cannot read {what} {path}: it is {kind_of(mode)}, not a regular file") from None
        raise FileRefused(f"cannot read {what} {path}: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"cannot read {what} {path}: it is {kind_of(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise _too_large(path, what, limit)
        _remember(path, what, info)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _too_large(path, what: str, limit: int) -> FileRefused:
    return FileRefused(f"cannot read {what} {path}: it is larger than {_size(limit)}, the limit for a {what}")


def read_bytes(path, what: str, limit: int, missing: str | None = None) -> bytes:
    """The contents of the regular file `path` (a `what`: "rules file",
    "card file"...), at most `limit` bytes; anything else is refused.
    `missing`: the message if there is no such file."""
    fd = _open_regular(path, what, limit, missing)
    try:
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as err:
        raise FileRefused(f"cannot read {what} {path}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if total > limit:  # it grew since it was opened
        raise _too_large(path, what, limit)
    contents = b"".join(chunks)
    noted = _noted.get()
    if noted is not None:
        noted.append((path, what, limit, contents))
    return contents


def check_readable(path, what: str, limit: int) -> None:
    """Refuse `path` now, reading nothing, if `read_bytes` would refuse it."""
    os.close(_open_regular(path, what, limit))


# ---------------------------------------------------------------- writing
def check_writable(path, what: str) -> None:
    """Refuse a target that is not a new path in an existing folder or a
    regular file (a symbolic link is refused, not followed)."""
    try:
        info = os.lstat(path)
    except ValueError:
        raise FileRefused(f"cannot write {what} to {os.fspath(path)!r}: the path contains a NUL byte") from None
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise FileRefused(f"cannot write {what} to {path}: the folder {folder} does not exist") from None
        return
    except OSError as err:
        raise FileRefused(f"cannot write {what} to {path}: {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"refusing to write {what} to {path}: it is {kind_of(info.st_mode)}; "
                          "name a new file or a regular file")
    _refuse_an_input(path, what, info)


def _new_file_mode(path) -> int:
    """The mode the written file gets: the old file's, else the usual one for a new file."""
    try:
        return stat.S_IMODE(os.lstat(path).st_mode)
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


class OutputFile:
    """A text file written in one piece: `write()` as often as needed, then
    `commit()` puts it in place; `discard()` (or an error inside a `with`
    block) leaves the target as it was."""

    def __init__(self, path, what: str, binary: bool = False):
        check_writable(path, what)
        self.path, self.what = os.fspath(path), what
        folder = os.path.dirname(os.path.abspath(self.path))
        try:
            fd, self.temp = _mkstemp(dir=folder, prefix=".", suffix=".part")
        except OSError as err:
            raise FileRefused(f"cannot write {what} to {path}: {err.strerror or err}") from None
        self.handle = os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8", newline="\n")

    def write(self, text) -> None:
        try:
            self.handle.write(text)
        except OSError as err:
            self.discard()
            raise FileRefused(f"cannot write {self.what} to {self.path}: {err.strerror or err}") from None

    def commit(self) -> None:
        try:
            self.handle.flush()
            os.fsync(self.handle.fileno())
            self.handle.close()
            os.chmod(self.temp, _new_file_mode(self.path))
            check_writable(self.path, self.what)  # it may have changed meanwhile
            os.replace(self.temp, self.path)
        except OSError as err:
            self.discard()
            raise FileRefused(f"cannot write {self.what} to {self.path}: {err.strerror or err}") from None
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        try:
            self.handle.close()
        except OSError:
            pass
        try:
            os.unlink(self.temp)
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        if kind is None:
            self.commit()
        else:
            self.discard()
        return False


def write_text(path, text: str, what: str) -> None:
    """Write `text` to `path` in one piece (see OutputFile)."""
    with OutputFile(path, what) as out:
        out.write(text)


def write_bytes(path, data: bytes, what: str) -> None:
    """Write bytes to `path` in one piece, with the same checks as text."""
    with OutputFile(path, what, binary=True) as out:
        out.write(data)


def prepare_folder(path, what: str) -> None:
    """Make sure `path` is a real folder to write into (created if missing;
    a symbolic link or anything else is refused)."""
    try:
        info = os.lstat(path)
    except ValueError:
        raise FileRefused(f"cannot write {what} to {os.fspath(path)!r}: the path contains a NUL byte") from None
    except FileNotFoundError:
        try:
            os.makedirs(path)
        except OSError as err:
            raise FileRefused(f"cannot make the folder {path} for {what}: {err.strerror or err}") from None
        return
    except OSError as err:
        raise FileRefused(f"cannot write {what} into {path}: {err.strerror or err}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise FileRefused(f"refusing to write {what} into {path}: it is {kind_of(info.st_mode)}, not a folder")


def _mkstemp(**where):
    import tempfile  # only when writing: its import is a noticeable part of a short run

    return tempfile.mkstemp(**where)
