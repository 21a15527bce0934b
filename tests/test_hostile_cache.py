"""The grammar's cached parse tables: nothing loaded from the cache can run
code, and a cache another user could have written is not read. A planted
pickle, a damaged or foreign entry, links, FIFOs and folders others can
write to are all ignored (the tables are built again); each case runs
under a time limit."""
from __future__ import annotations

import json
import os
import pickle
import stat
import time

import pytest

from interpreter.language import cache, grammar

from .conftest import CATALYST
from .hostile import expect, run_process, time_limit


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A cache of our own (XDG_CACHE_HOME) for this test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "rules-interpreter" / "grammar"


def entry_name() -> str:
    """The name the current grammar's tables are cached under."""
    with time_limit():
        grammar.lark_parser.__wrapped__()  # builds or reads, and writes the entry
    return next(p.name for p in (cache.root() / "grammar").iterdir() if p.name.startswith("grammar-"))


def fresh_parser():
    with time_limit():
        return grammar.lark_parser.__wrapped__()


def parses(parser) -> bool:
    return parser.parse("1 + 2 * size(box)", start="expression").data == "expression"


class Planted:
    """Unpickling this creates a file: proof that a pickle was loaded."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


# ---------------------------------------------------------------- what is written
@pytest.mark.slow
def test_the_tables_are_written_as_json_in_a_private_folder(home, tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "TMPDIR": str(tmp_path / "tmp")}
    (tmp_path / "tmp").mkdir()
    result = run_process("check", CATALYST, env=env)
    expect(result, 0, "catalyst.rules: ok")
    entries = list(home.iterdir())
    assert len(entries) == 1 and entries[0].name.startswith("grammar-") and entries[0].suffix == ".json"
    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    assert stat.S_IMODE(entries[0].stat().st_mode) == 0o600
    head = json.loads(entries[0].read_bytes().split(b"\n", 1)[0])
    assert set(head) == {"format", "key", "sha256"}
    assert list((tmp_path / "tmp").iterdir()) == []  # nothing in the shared temporary folder
    again = run_process("check", CATALYST, env=env)
    expect(again, 0, "catalyst.rules: ok")
    print(f"catalyst check: {result.seconds:.2f} s building the tables, {again.seconds:.2f} s with them cached")


@pytest.mark.slow
def test_a_planted_pickle_is_never_loaded(home, tmp_path):
    name = entry_name()
    marker = tmp_path / "code-ran"
    (home / name).write_bytes(pickle.dumps(Planted(marker)))
    os.chmod(home / name, 0o600)
    result = run_process("check", CATALYST, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    expect(result, 0, "catalyst.rules: ok")
    assert not marker.exists()
    assert (home / name).read_bytes().startswith(b'{"format"')  # replaced by tables


@pytest.mark.slow
def test_a_planted_pickle_in_lark_s_own_cache_format_is_never_loaded(home, tmp_path):
    """Lark's cache files start with the grammar's hash, then a pickle."""
    name = entry_name()
    marker = tmp_path / "code-ran"
    (home / name).write_bytes(b"0" * 64 + b"\n" + pickle.dumps(Planted(marker)))
    assert parses(fresh_parser())
    assert not marker.exists()


@pytest.mark.parametrize("damage", [
    lambda raw: b"",
    lambda raw: raw[: len(raw) // 2],
    lambda raw: raw.replace(b'"sha256": "', b'"sha256": "0', 1),
    lambda raw: raw.split(b"\n", 1)[0] + b"\n" + b"[]",
    lambda raw: raw.replace(b'"key": "', b'"key": "f', 1),
    lambda raw: json.dumps({"format": "rules-grammar-tables/0"}).encode() + b"\n" + raw.split(b"\n", 1)[1],
], ids=["empty", "cut", "wrong-hash", "other-body", "other-key", "other-format"])
@pytest.mark.slow
def test_a_damaged_or_foreign_entry_is_built_again(home, damage):
    name = entry_name()
    raw = (home / name).read_bytes()
    key = json.loads(raw.split(b"\n", 1)[0])["key"]
    (home / name).write_bytes(damage(raw))
    os.chmod(home / name, 0o600)
    assert grammar._from_cache((home / name).read_bytes(), key) is None
    assert parses(fresh_parser())
    assert grammar._from_cache((home / name).read_bytes(), key) is not None  # written again, whole


def test_an_intact_entry_is_used(home):
    name = entry_name()
    key = json.loads((home / name).read_bytes().split(b"\n", 1)[0])["key"]
    start = time.perf_counter()
    parser = grammar._from_cache(cache.read("grammar", name), key)
    print(f"tables read from the cache in {time.perf_counter() - start:.3f} s")
    assert parser is not None and parses(parser)


# ---------------------------------------------------------------- whose cache
@pytest.mark.slow
def test_a_folder_others_can_write_to_is_not_used(home):
    name = entry_name()
    os.chmod(home, 0o777)
    assert cache.folder("grammar") is None
    assert cache.read("grammar", name) is None
    assert parses(fresh_parser())


@pytest.mark.slow
def test_an_entry_others_can_write_to_is_not_read(home):
    name = entry_name()
    os.chmod(home / name, 0o666)
    assert cache.read("grammar", name) is None


@pytest.mark.slow
def test_an_entry_that_is_a_link_is_not_followed(home, tmp_path):
    name = entry_name()
    os.replace(home / name, tmp_path / "elsewhere.json")
    os.symlink(tmp_path / "elsewhere.json", home / name)
    assert cache.read("grammar", name) is None


@pytest.mark.slow
def test_an_entry_that_is_a_fifo_is_not_read(home):
    name = entry_name()
    os.unlink(home / name)
    os.mkfifo(home / name, 0o600)
    with time_limit(10):
        assert cache.read("grammar", name) is None


@pytest.mark.slow
def test_a_cache_folder_that_is_a_link_is_not_used(home, tmp_path):
    entry_name()
    os.replace(home, tmp_path / "other")
    os.symlink(tmp_path / "other", home)
    assert cache.folder("grammar") is None


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root")
def test_a_cache_owned_by_someone_else_is_not_used(home):
    name = entry_name()
    os.chown(home / name, 65534, 65534)
    assert cache.read("grammar", name) is None
    os.chown(home, 65534, 65534)
    assert cache.folder("grammar") is None


def test_a_relative_cache_home_is_ignored(monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cache.root() == cache.Path(os.path.expanduser("~")) / ".cache" / "rules-interpreter"


@pytest.mark.slow
def test_a_cache_that_cannot_be_made_leaves_the_tool_working(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert cache.folder("grammar") is None
    assert parses(fresh_parser())
