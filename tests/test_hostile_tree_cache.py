"""Cached parsed trees (interpreter/language/treecache.py) are untrusted
input: a planted pickle, a damaged, cut, foreign or hand-edited entry (even
one whose hash was made to match), an entry nested too deeply to read and
one others can write to are all ignored. The file is then parsed again,
with the same result as without a cache, and its entry written anew; nothing
crashes and nothing runs. Each case runs under a time limit."""
from __future__ import annotations

import hashlib
import json
import os
import pickle

import pytest

from interpreter.language import cache, cards, treecache
from interpreter.language.frontend import check_rules

from .conftest import CATALYST
from .hostile import time_limit
from .test_hostile_cache import Planted
from .test_tree_cache import Parses, forget_parsed, home, same  # noqa: F401 (home is a fixture)


def rules_entry(home):
    return home / treecache._entry("rules", str(CATALYST))


def card_texts_entry(home, checked):
    return home / treecache._entry("card texts", checked.db.source.name)


def signed(kind: str, filename: str, text: str, body: bytes) -> bytes:
    """An entry with this body and a header that matches it: what a
    hand-edit that also fixed the hash would leave."""
    head = {"format": treecache.FORMAT, "key": treecache._key(kind, filename, text),
            "sha256": hashlib.sha256(body).hexdigest()}
    return json.dumps(head).encode() + b"\n" + body


def plant(path, data: bytes) -> None:
    path.write_bytes(data)
    os.chmod(path, 0o600)


def check_again(monkeypatch):
    """check_rules of CATALYST as a new process would run it: (result, what was parsed)."""
    forget_parsed()
    parses = Parses(monkeypatch)
    with time_limit():
        return check_rules(CATALYST), parses


def edited_rules_body(raw: bytes, edit) -> bytes:
    body = json.loads(raw.split(b"\n", 1)[1])
    edit(body)
    return json.dumps(body).encode()


def cut_tree(body):
    body["tree"] = body["tree"][:-1]


RULES_DAMAGE = {
    "empty": lambda raw: b"",
    "cut": lambda raw: raw[: len(raw) // 2],
    "wrong-hash": lambda raw: raw.replace(b'"sha256": "', b'"sha256": "0', 1),
    "other-key": lambda raw: raw.replace(b'"key": "', b'"key": "f', 1),
    "other-format": lambda raw: raw.replace(treecache.FORMAT.encode(), b"rules-trees/0", 1),
    "not-json": lambda raw: raw.split(b"\n", 1)[0] + b"\n" + b"\x00\xff{",
}
SIGNED_BODIES = {
    "empty-list": lambda raw: b"[]",
    "no-tree": lambda raw: b'{"names": {}}',
    "unknown-class": lambda raw: edited_rules_body(raw, lambda b: b["tree"].__setitem__(0, "Planted")),
    "not-a-node-class": lambda raw: edited_rules_body(raw, lambda b: b["tree"].__setitem__(0, "Source")),
    "a-field-missing": lambda raw: edited_rules_body(raw, cut_tree),
    "span-of-text": lambda raw: edited_rules_body(raw, lambda b: b["tree"].__setitem__(1, ["1", 1, 1, 1])),
    "names-not-bools": lambda raw: edited_rules_body(raw, lambda b: b.__setitem__("names", {"gold": "yes"})),
    "a-float": lambda raw: b'{"tree": ["Literal", null, 1.5], "names": {}}',
    "nested-too-deep": lambda raw: b'{"tree": ' + b"[" * 200_000 + b"]" * 200_000 + b', "names": {}}',
}


@pytest.fixture
def parsed(home, monkeypatch):
    """CATALYST checked with no cache (its entries then written), and what was parsed then."""
    first, parses = check_again(monkeypatch)
    assert parses.files and rules_entry(home).exists()
    return first


def assert_parsed_again_as_before(home, first, monkeypatch):
    again, parses = check_again(monkeypatch)
    assert len(parses.files) == 1  # the entry was ignored
    assert not again.errors
    same(vars(again.model), vars(first.model), "model")
    for name in first.card_fields:
        same(again.card_fields[name], first.card_fields[name], f"card field {name}")
    source = again.model.setup.span.source
    assert treecache.load_rules(str(CATALYST), source.text, source) is not None  # written again, whole


@pytest.mark.parametrize("damage", list(RULES_DAMAGE.values()), ids=list(RULES_DAMAGE))
def test_a_damaged_or_foreign_rules_entry_is_parsed_again(home, parsed, monkeypatch, damage):
    plant(rules_entry(home), damage(rules_entry(home).read_bytes()))
    assert_parsed_again_as_before(home, parsed, monkeypatch)


@pytest.mark.parametrize("body", list(SIGNED_BODIES.values()), ids=list(SIGNED_BODIES))
def test_a_hand_edited_rules_entry_with_a_matching_hash_is_parsed_again(home, parsed, monkeypatch, body):
    text = parsed.model.setup.span.source.text
    plant(rules_entry(home), signed("rules", str(CATALYST), text, body(rules_entry(home).read_bytes())))
    assert_parsed_again_as_before(home, parsed, monkeypatch)


def test_a_planted_pickle_is_never_loaded(home, parsed, monkeypatch, tmp_path):
    marker = tmp_path / "code-ran"
    text = parsed.model.setup.span.source.text
    plant(rules_entry(home), pickle.dumps(Planted(marker)))
    assert_parsed_again_as_before(home, parsed, monkeypatch)
    plant(rules_entry(home), signed("rules", str(CATALYST), text, pickle.dumps(Planted(marker))))
    assert_parsed_again_as_before(home, parsed, monkeypatch)
    assert not marker.exists()


def test_another_file_s_entry_in_its_place_is_parsed_again(home, parsed, monkeypatch):
    plant(rules_entry(home), card_texts_entry(home, parsed).read_bytes())
    assert_parsed_again_as_before(home, parsed, monkeypatch)


@pytest.mark.parametrize("body", [
    b"[]", b'{"effects": []}', b'{"elsewhere": {}}', b'{"effects": {"gold": ["Planted", null]}}',
    b'{"expression": {"1": ["Literal", [1, 1, "x", 2], 1]}}', b'{"effects": {"gold": ' + b"[" * 200_000 + b"]" * 200_000 + b"}}",
    b'{"effects": {"gold": ["Literal", null, 1]}}',
], ids=["list", "list-of-trees", "other-start", "unknown-class", "span-of-text", "nested-too-deep", "not-effects"])
def test_a_hand_edited_card_texts_entry_is_parsed_again(home, parsed, monkeypatch, body):
    entry = card_texts_entry(home, parsed)
    plant(entry, signed("card texts", parsed.db.source.name, "", body))
    again, parses = check_again(monkeypatch)
    assert len(parses.card_texts) > 10  # parsed again
    for name in parsed.card_fields:
        same(again.card_fields[name], parsed.card_fields[name], f"card field {name}")
    assert treecache.load_card_texts(parsed.db.source.name, cards._ALONE)  # written again


def test_an_entry_others_can_write_to_is_not_read(home, parsed, monkeypatch):
    os.chmod(rules_entry(home), 0o666)
    assert cache.read(treecache.FOLDER, rules_entry(home).name) is None
    again, parses = check_again(monkeypatch)
    assert len(parses.files) == 1 and not again.errors


def test_an_entry_that_is_a_link_is_not_followed(home, parsed, monkeypatch, tmp_path):
    os.replace(rules_entry(home), tmp_path / "elsewhere.json")
    os.symlink(tmp_path / "elsewhere.json", rules_entry(home))
    again, parses = check_again(monkeypatch)
    assert len(parses.files) == 1 and not again.errors


def test_a_cache_that_cannot_be_made_leaves_check_working(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    first, parses = check_again(monkeypatch)
    again, parses = check_again(monkeypatch)
    assert len(parses.files) == 1 and not again.errors  # parsed each time, nothing stored
    same(vars(again.model), vars(first.model), "model")
    forget_parsed()
