"""Hostile files and command lines: writes aimed at FIFOs, links, devices and
folders; FIFOs and /dev/zero as inputs; paths with NUL bytes; a full disk;
a closed stdin; --jobs and -n without limit. Nothing is destroyed, nothing
hangs, every case exits with its message within a time limit."""
from __future__ import annotations

import errno
import json
import os
import socket
import stat

import pytest

from interpreter import limits
from interpreter.errors import RulesError
from interpreter.simulation import simulate

from .conftest import RULES
from .hostile import TINY_RULES, expect, invoke, run_process, tiny_game

KINDS = {
    "fifo": "it is a named pipe (FIFO)",
    "link": "it is a symbolic link",
    "dangling-link": "it is a symbolic link",
    "device": "it is a character device",
    "socket": "it is a socket",
}


def make(kind: str, path):
    """A thing of `kind` at `path` that is not a regular file; returns a
    check that it is still there, untouched."""
    if kind == "fifo":
        os.mkfifo(path)
        return lambda: stat.S_ISFIFO(os.lstat(path).st_mode)
    if kind == "link":
        target = path.parent / (path.name + ".target")
        target.write_text("precious")
        os.symlink(target, path)
        return lambda: os.path.islink(path) and target.read_text() == "precious"
    if kind == "dangling-link":
        os.symlink(path.parent / "nowhere" / "file", path)
        return lambda: os.path.islink(path) and not (path.parent / "nowhere").exists()
    if kind == "device":
        try:
            os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # a /dev/null of our own
        except PermissionError:
            pytest.skip("making a device node needs root")
        return lambda: stat.S_ISCHR(os.lstat(path).st_mode)
    if kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
        server.close()
        return lambda: stat.S_ISSOCK(os.lstat(path).st_mode)
    raise ValueError(kind)


@pytest.fixture
def game(tmp_path):
    return tiny_game(tmp_path)


# ---------------------------------------------------------------- writes
@pytest.mark.parametrize("kind", list(KINDS))
def test_the_log_is_never_written_over_anything_but_a_regular_file(game, tmp_path, kind):
    target = tmp_path / "target.jsonl"
    intact = make(kind, target)
    expect(invoke("run", game, "--bots", "random", "--quiet", "--log", target), 1,
           f"refusing to write the log to {target}: {KINDS[kind]}; name a new file or a regular file")
    assert intact()


@pytest.mark.parametrize("kind", list(KINDS))
def test_simulation_records_are_never_written_over_anything_but_a_regular_file(game, tmp_path, kind):
    target = tmp_path / "records.jsonl"
    intact = make(kind, target)
    expect(invoke("simulate", game, "-n", "3", "--jobs", "1", "--out", target), 1,
           f"refusing to write the game records to {target}: {KINDS[kind]}")
    assert intact()


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_save_is_never_written_over_anything_but_a_regular_file(game, tmp_path, kind):
    target = tmp_path / "save.json"
    intact = make(kind, target)
    result = expect(invoke("run", game, "--human", "1", input=f"save {target}\nquit\n"), 0,
                    f"Not saved: refusing to write the saved game to {target}: {KINDS[kind]}")
    assert "Saved to" not in result.output
    assert intact()


@pytest.mark.parametrize("kind", ["fifo", "link", "device", "socket"])
def test_a_report_is_never_written_into_anything_but_a_folder(game, tmp_path, kind):
    target = tmp_path / "report"
    if kind == "link":
        (tmp_path / "real").mkdir()
        os.symlink(tmp_path / "real", target)
        intact = lambda: os.path.islink(target) and list((tmp_path / "real").iterdir()) == []  # noqa: E731
        message = "it is a symbolic link, not a folder"
    else:
        intact = make(kind, target)
        message = KINDS[kind] + ", not a folder"
    expect(invoke("simulate", game, "-n", "3", "--jobs", "1", "--report", target), 1,
           f"refusing to write the report into {target}: {message}")
    assert intact()


def test_report_images_are_not_written_through_links(game, tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "report"
    folder.mkdir()
    (tmp_path / "elsewhere.png").write_text("precious")
    os.symlink(tmp_path / "elsewhere.png", folder / "scores.png")
    expect(invoke("simulate", game, "-n", "3", "--jobs", "1", "--report", folder), 1,
           f"refusing to write the report's image to {folder / 'scores.png'}: it is a symbolic link")
    assert (tmp_path / "elsewhere.png").read_text() == "precious"


@pytest.mark.parametrize("args, message", [
    (["run", "{game}", "--bots", "random", "--quiet", "--log", "{dir}/missing/log.jsonl"],
     "cannot write the log to {dir}/missing/log.jsonl: the folder {dir}/missing does not exist"),
    (["simulate", "{game}", "-n", "3", "--jobs", "1", "--out", "{dir}/missing/records.jsonl"],
     "cannot write the game records to {dir}/missing/records.jsonl: the folder {dir}/missing does not exist"),
], ids=["log", "records"])
def test_a_missing_folder_is_named_before_any_game_is_played(game, tmp_path, args, message):
    args = [a.replace("{game}", str(game)).replace("{dir}", str(tmp_path)) for a in args]
    expect(invoke(*args), 1, message.replace("{dir}", str(tmp_path)))


def test_a_save_into_a_missing_folder_says_so_and_the_game_goes_on(game, tmp_path):
    target = tmp_path / "missing" / "save.json"
    expect(invoke("run", game, "--human", "1", input=f"save {target}\n1\n1\n"), 0,
           f"Not saved: cannot write the saved game to {target}: the folder {tmp_path / 'missing'} does not exist",
           "final scores")


def test_a_report_folder_is_made_with_its_parents(game, tmp_path):
    pytest.importorskip("matplotlib")
    expect(invoke("simulate", game, "-n", "3", "--jobs", "1", "--report", tmp_path / "a" / "b"), 0, "report:")
    assert (tmp_path / "a" / "b" / "report.html").is_file()


def full_disk(monkeypatch):
    def no_space(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)


@pytest.mark.parametrize("args, message", [
    (["run", "{game}", "--bots", "random", "--quiet", "--log", "{target}"], "cannot write the log to {target}: No space left on device"),
    (["simulate", "{game}", "-n", "3", "--jobs", "1", "--out", "{target}"], "cannot write the game records to {target}: No space left on device"),
], ids=["log", "records"])
def test_a_full_disk_leaves_the_old_file_as_it_was(game, tmp_path, monkeypatch, args, message):
    target = tmp_path / "old.jsonl"
    target.write_text("precious")
    full_disk(monkeypatch)
    args = [a.replace("{game}", str(game)).replace("{target}", str(target)) for a in args]
    expect(invoke(*args), 1, message.replace("{target}", str(target)))
    assert target.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards.yaml", "game.rules", "old.jsonl"]


def test_a_full_disk_at_save_keeps_the_old_save(game, tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    target.write_text("precious")
    full_disk(monkeypatch)
    expect(invoke("run", game, "--human", "1", input=f"save {target}\nquit\n"), 0,
           f"Not saved: cannot write the saved game to {target}: No space left on device")
    assert target.read_text() == "precious"


def test_a_replaced_file_keeps_its_mode_and_a_new_file_gets_the_usual_one(game, tmp_path):
    old = tmp_path / "old.jsonl"
    old.write_text("old")
    os.chmod(old, 0o640)
    expect(invoke("run", game, "--bots", "random", "--quiet", "--log", old), 0)
    assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_text().startswith("{")
    new = tmp_path / "new.jsonl"
    expect(invoke("run", game, "--bots", "random", "--quiet", "--log", new), 0)
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~mask


# ---------------------------------------------------------------- reads
def fifo(tmp_path, name):
    os.mkfifo(tmp_path / name)
    return tmp_path / name


@pytest.mark.parametrize("source, message", [
    ("fifo", "cannot read rules file {path}: it is a named pipe (FIFO), not a regular file"),
    ("/dev/zero", "cannot read rules file /dev/zero: it is a character device, not a regular file"),
    ("socket", "cannot read rules file {path}: it is a socket, not a regular file"),
    ("big", "cannot read rules file {path}: it is larger than 512 KB, the limit for a rules file"),
], ids=["fifo", "dev-zero", "socket", "too-big"])
def test_a_rules_file_that_is_not_a_regular_file_is_refused_unread(tmp_path, source, message):
    if source == "fifo":
        path = fifo(tmp_path, "game.rules")
    elif source == "socket":
        path = tmp_path / "game.rules"
        make("socket", path)
    elif source == "big":
        path = tmp_path / "game.rules"
        path.write_text("# " + "x" * (600 << 10) + "\n")
    else:
        path = source
    expect(invoke("check", path, seconds=10), 1, message.replace("{path}", str(path)))


@pytest.mark.parametrize("declaration, message", [
    ('cards "pipe.yaml" into box', 'cannot read card file "pipe.yaml": it is a named pipe (FIFO)'),
    ('cards "/dev/zero" into box', 'cannot read card file "/dev/zero": it is a character device'),
    ('cards "cards.yaml" schema "pipe.yaml" into box', 'cannot read card schema "pipe.yaml": it is a named pipe (FIFO)'),
    ('cards "cards.yaml" schema "/dev/zero" into box', 'cannot read card schema "/dev/zero": it is a character device'),
    ('cards "." into box', 'cannot read card file ".": it is a folder, not a regular file'),
], ids=["cards-fifo", "cards-dev-zero", "schema-fifo", "schema-dev-zero", "cards-folder"])
def test_card_and_schema_files_named_by_the_rules_must_be_regular_files(tmp_path, declaration, message):
    fifo(tmp_path, "pipe.yaml")
    game = tiny_game(tmp_path, TINY_RULES.replace('cards "cards.yaml" into box', declaration))
    expect(invoke("check", game, seconds=10), 1, message.replace("{dir}", str(tmp_path)))


def test_an_extended_file_that_is_a_fifo_is_refused_unread(tmp_path):
    fifo(tmp_path, "base.rules")
    (tmp_path / "variant.rules").write_text('extends "base.rules"\n')
    expect(invoke("check", tmp_path / "variant.rules", seconds=10), 1, "base.rules: it is a named pipe (FIFO)")


@pytest.mark.parametrize("source, message", [
    ("fifo", "cannot read saved game {path}: it is a named pipe (FIFO), not a regular file"),
    ("/dev/zero", "cannot read saved game /dev/zero: it is a character device, not a regular file"),
    ("big", "cannot read saved game {path}: it is larger than 16 MB, the limit for a saved game"),
], ids=["fifo", "dev-zero", "too-big"])
def test_a_save_that_is_not_a_regular_file_is_refused_unread(tmp_path, source, message):
    if source == "fifo":
        path = fifo(tmp_path, "save.json")
    elif source == "big":
        path = tmp_path / "save.json"
        path.write_text(" " * (17 << 20))
    else:
        path = source
    expect(invoke("run", "--load", path, "--bots", "random", seconds=10), 1, message.replace("{path}", str(path)))


@pytest.mark.parametrize("source, message", [
    ("fifo", "cannot read game log {path}: it is a named pipe (FIFO), not a regular file"),
    ("/dev/zero", "cannot read game log /dev/zero: it is a character device, not a regular file"),
    ("big", "cannot read game log {path}: it is larger than 1 KB, the limit for a game log"),
], ids=["fifo", "dev-zero", "too-big"])
def test_a_log_that_is_not_a_regular_file_is_refused_unread(tmp_path, monkeypatch, source, message):
    monkeypatch.setattr(limits, "LOG_FILE_BYTES", 1024)
    if source == "fifo":
        path = fifo(tmp_path, "game.jsonl")
    elif source == "big":
        path = tmp_path / "game.jsonl"
        path.write_text("{}\n" * 1000)
    else:
        path = source
    expect(invoke("replay", path, seconds=10), 1, message.replace("{path}", str(path)))


# ---------------------------------------------------------------- NUL bytes
@pytest.mark.parametrize("args, option", [
    (["check", "a\0b"], "RULES..."),
    (["run", "{game}", "--bots", "random", "--log", "a\0b"], "--log"),
    (["run", "--load", "a\0b", "--bots", "random"], "--load"),
    (["replay", "a\0b"], "LOG"),
    (["simulate", "{game}", "-n", "3", "--out", "a\0b"], "--out"),
    (["simulate", "{game}", "-n", "3", "--report", "a\0b"], "--report"),
    (["cards", "a\0b"], "RULES"),
    (["games", "--copy", "a\0b"], "--copy"),
], ids=["check", "log", "load", "replay", "out", "report", "cards", "games-copy"])
def test_a_nul_byte_in_a_command_line_path_is_a_usage_error(game, args, option):
    args = [a.replace("{game}", str(game)) for a in args]
    expect(invoke(*args), 2, f"Invalid value for '{option}': 'a\\x00b' contains a NUL byte")


@pytest.mark.parametrize("declaration, message", [
    ('cards "car\0ds.yaml" into box', "cannot read card file '{dir}/car\\x00ds.yaml': the path contains a NUL byte"),
    ('cards "cards.yaml" schema "s\0.json" into box', "cannot read card schema '{dir}/s\\x00.json': the path contains a NUL byte"),
], ids=["cards", "schema"])
def test_a_nul_byte_in_a_path_the_rules_name_is_refused(tmp_path, declaration, message):
    game = tiny_game(tmp_path, TINY_RULES.replace('cards "cards.yaml" into box', declaration))
    expect(invoke("check", game), 1, message.replace("{dir}", str(tmp_path)))


def test_a_nul_byte_in_an_extended_path_is_refused(tmp_path):
    (tmp_path / "variant.rules").write_text('extends "ba\0se.rules"\n')
    expect(invoke("check", tmp_path / "variant.rules"), 1, "variant.rules:1:1: error: extended rules file not found: ba\\0se.rules")


def test_a_nul_byte_in_a_saved_rules_path_is_refused(tmp_path):
    save = tmp_path / "save.json"
    expect(invoke("run", RULES / "solo.rules", "--human", "1", input=f"save {save}\nquit\n"), 0, "Saved to")
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, "rules": "a\0b.rules"}))
    expect(invoke("run", "--load", save, "--bots", "random"), 1, "a\\x00b.rules': the path contains a NUL byte")


def test_a_nul_byte_in_a_logged_rules_path_is_refused(game, tmp_path):
    log = tmp_path / "game.jsonl"
    expect(invoke("run", game, "--bots", "random", "--quiet", "--log", log), 0)
    lines = log.read_text().splitlines()
    lines[0] = json.dumps({**json.loads(lines[0]), "rules": "a\0b.rules"})
    log.write_text("\n".join(lines) + "\n")
    expect(invoke("replay", log), 1, "a\\x00b.rules': the path contains a NUL byte")


# ---------------------------------------------------------------- stdin
def test_a_closed_stdin_at_the_prompt_ends_the_game(game):
    result = run_process("run", game, "--human", "1", close_stdin=True)
    expect(result, 0, "Input ended; the game is left unfinished.")


@pytest.mark.slow
def test_a_closed_stdin_without_bots_lets_bots_play(game):
    """With no terminal to play at, bots play every player, as the help says."""
    result = run_process("run", game, close_stdin=True)
    expect(result, 0, "no terminal to play at: random bots play every player")


def test_an_empty_stdin_at_the_prompt_ends_the_game(game):
    expect(run_process("run", game, "--human", "1"), 0, "Input ended; the game is left unfinished.")


# ---------------------------------------------------------------- limits of the command line
@pytest.mark.parametrize("args, message", [
    (["simulate", "{game}", "--jobs", "100000"], "Invalid value for '--jobs' / '-j': 100000 is not in the range 1<=x<=256."),
    (["compare", "{game}", "{game}", "--jobs", "100000"], "Invalid value for '--jobs' / '-j': 100000 is not in the range 1<=x<=256."),
    (["simulate", "{game}", "--jobs", "0"], "0 is not in the range 1<=x<=256."),
    (["simulate", "{game}", "-n", "10000000"], "Invalid value for '-n' / '--games': 10000000 is not in the range 1<=x<=1000000."),
    (["compare", "{game}", "{game}", "-n", "1000000000000"], "1000000000000 is not in the range 1<=x<=1000000."),
    (["simulate", "{game}", "-n", "0"], "0 is not in the range 1<=x<=1000000."),
], ids=["jobs", "compare-jobs", "no-jobs", "games", "compare-games", "no-games"])
def test_jobs_and_games_have_limits(game, args, message):
    args = [a.replace("{game}", str(game)) for a in args]
    expect(invoke(*args), 2, message)


def test_the_simulation_api_refuses_too_many_workers(game):
    with pytest.raises(RulesError, match=r"--jobs 100000: between 1 and 256 worker processes \(the limit\)"):
        simulate(str(game), 3, jobs=100_000)


def test_a_huge_seed_plays(game):
    expect(invoke("run", game, "--bots", "random", "--quiet", "--seed", str(10 ** 40)), 0, "player 1:")
