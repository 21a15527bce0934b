"""Hostile card schemas: references to the network or to files outside the
schema's folder, schemas that break the meta-schema, and a validation
record planted in the cache. No case touches the network (a guard fails
the test if anything tries to connect), and each is refused with a located
message, exit 1, within a time limit."""
from __future__ import annotations

import hashlib
import json
import os
import socket

import pytest

from interpreter.language import cache, card_schema

from .hostile import TINY_RULES, expect, invoke, tiny_game

RULES = TINY_RULES.replace('cards "cards.yaml" into box', 'cards "cards.yaml" schema "schema/cards.json" into box')
CARD_ITEM = {"type": "object", "properties": {"name": {"type": "string"}, "cost": {"type": "integer"}},
             "required": ["name", "cost"]}


def schema_with(thing) -> str:
    return json.dumps({"type": "object", "properties": {"thing": thing}})


@pytest.fixture
def no_network(monkeypatch):
    """Any attempt to reach the network fails the test that made it."""
    attempts = []

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise AssertionError(f"the tool tried to reach the network: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    return attempts


@pytest.fixture
def game(tmp_path, monkeypatch, no_network):
    """The tiny game with its schema in schema/cards.json and its own cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "cards.json").write_text(schema_with({"type": "array", "items": CARD_ITEM}))
    return tiny_game(tmp_path, RULES)


def write_schema(game, text: str, name: str = "cards.json"):
    (game.parent / "schema" / name).write_text(text)


# ---------------------------------------------------------------- references
@pytest.mark.parametrize("ref, message", [
    ("http://127.0.0.1:9/x.json", "the schema refers to http://127.0.0.1:9/x.json; a card schema may refer only to files beside it (no network addresses)"),
    ("https://example.com/cards.json", "the schema refers to https://example.com/cards.json; a card schema may refer only to files beside it"),
    ("ftp://example.com/cards.json", "the schema refers to ftp://example.com/cards.json"),
    ("urn:example:cards", "the schema refers to urn:example:cards"),
    ("file://example.com/etc/passwd", "the schema refers to file://example.com/etc/passwd"),
    ("file:///etc/passwd", "the schema refers to /etc/passwd, outside its folder"),
    ("/etc/passwd", "the schema refers to /etc/passwd, outside its folder"),
    ("../cards.yaml", "cards.yaml, outside its folder"),
    ("defs.json%00.txt", "the schema refers to a file name with a NUL byte"),
], ids=["http", "https", "ftp", "urn", "file-host", "file-url", "absolute", "parent-folder", "nul-byte"])
def test_references_reach_only_files_beside_the_schema(game, no_network, ref, message):
    write_schema(game, schema_with({"$ref": ref}))
    expect(invoke("check", game), 1, message)
    assert no_network == []


def test_a_link_beside_the_schema_to_a_file_outside_is_refused(game, tmp_path):
    (tmp_path / "outside.json").write_text('{"type": "array"}')
    os.symlink(tmp_path / "outside.json", tmp_path / "schema" / "defs.json")
    write_schema(game, schema_with({"$ref": "defs.json"}))
    expect(invoke("check", game), 1, "outside.json, outside its folder")


def test_a_remote_base_address_makes_relative_references_remote(game, no_network):
    write_schema(game, json.dumps({"$id": "https://example.com/cards.json", "type": "object",
                                   "properties": {"thing": {"$ref": "defs.json"}}}))
    expect(invoke("check", game), 1, "the schema refers to https://example.com/defs.json")
    assert no_network == []


def test_a_missing_sub_schema_is_named(game):
    write_schema(game, schema_with({"$ref": "defs.json"}))
    expect(invoke("check", game), 1, "cannot read card schema", "defs.json: no such file")


def test_a_sub_schema_that_is_a_fifo_is_refused_unread(game):
    os.mkfifo(game.parent / "schema" / "defs.json")
    write_schema(game, schema_with({"$ref": "defs.json"}))
    expect(invoke("check", game, seconds=10), 1, "defs.json: it is a named pipe (FIFO), not a regular file")


@pytest.mark.parametrize("files", [
    {"defs.json": json.dumps({"type": "array", "items": CARD_ITEM}), "cards.json": schema_with({"$ref": "defs.json"})},
    {"defs.json": json.dumps({"type": "array", "items": {"$ref": "item.json"}}), "item.json": json.dumps(CARD_ITEM),
     "cards.json": schema_with({"$ref": "defs.json"})},
    {"parts/defs.json": json.dumps({"type": "array", "items": CARD_ITEM}),
     "cards.json": schema_with({"$ref": "parts/defs.json"})},
    {"cards.json": json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                               "$defs": {"item": CARD_ITEM},
                               "properties": {"thing": {"type": "array", "items": {"$ref": "#/$defs/item"}}}})},
], ids=["beside", "chain", "sub-folder", "same-file"])
def test_local_references_work(game, no_network, files):
    for name, text in files.items():
        (game.parent / "schema" / name).parent.mkdir(exist_ok=True)
        write_schema(game, text, name)
    expect(invoke("check", game), 0, "game.rules: ok")
    (game.parent / "cards.yaml").write_text("thing:\n  - {name: Alpha, cost: one}\n")
    expect(invoke("check", game), 1, "field 'cost': 'one' is not of type 'integer'")
    assert no_network == []


# ---------------------------------------------------------------- the meta-schema
@pytest.mark.parametrize("text, message", [
    ('{"type": "objekt"}', "schema/cards.json:1:10: error: the card schema is not a valid JSON Schema: at type: 'objekt' is not valid under any of the given schemas"),
    (schema_with({"minItems": -1}), "schema/cards.json:1:57: error: the card schema is not a valid JSON Schema: at properties.thing.minItems: -1 is less than the minimum of 0"),
    ('{"required": "name"}', "schema/cards.json:1:14: error: the card schema is not a valid JSON Schema: at required: 'name' is not of type 'array'"),
    ('{"properties": [1, 2]}', "the card schema is not a valid JSON Schema: at properties: [1, 2] is not of type 'object'"),
    ("[]", "schema/cards.json:1:1: error: the card schema is not a valid JSON Schema: at top level: [] is not of type 'object', 'boolean'"),
    ('{\n  "type": "object",\n  "properties": {"thing": {"items": {"enum": 3}}}\n}',
     "schema/cards.json:3:46: error: the card schema is not a valid JSON Schema: at properties.thing.items.enum: 3 is not of type 'array'"),
], ids=["type", "negative-count", "required", "properties", "array", "multi-line"])
def test_a_schema_that_breaks_the_meta_schema_is_a_located_error(game, text, message):
    write_schema(game, text)
    expect(invoke("check", game), 1, message)


@pytest.mark.parametrize("text, message", [
    ('{"type": "object",', "schema/cards.json:1:19: error: the card schema is not valid JSON: Expecting property name enclosed in double quotes"),
    ("[" * 100_000 + "]" * 100_000, "is nested too deeply to read"),
    (schema_with({"items": {"properties": {"name": {"pattern": "(("}}}}), "cannot be used: missing ), unterminated subpattern"),
    (schema_with({"$ref": "#/nowhere"}), "cannot be used: PointerToNowhere: '/nowhere' does not exist"),
    ('{"$ref": "#"}', "refers to itself without end"),
], ids=["not-json", "deep-json", "bad-pattern", "pointer-to-nowhere", "itself"])
def test_a_schema_that_cannot_be_used_says_why(game, text, message):
    write_schema(game, text)
    expect(invoke("check", game), 1, message)


def test_a_sub_schema_that_breaks_the_meta_schema_is_located_in_its_file(game):
    write_schema(game, '{"type": "integr"}', "defs.json")
    write_schema(game, schema_with({"$ref": "defs.json"}))
    expect(invoke("check", game), 1, "defs.json:1:10: error: the card schema is not a valid JSON Schema: at type:")


def test_a_schema_not_in_utf8_is_refused(game):
    (game.parent / "schema" / "cards.json").write_bytes(b'{"description": "caf\xe9"}')
    expect(invoke("check", game), 1, "cards.json: not UTF-8 text (byte 20)")


def test_a_schema_over_its_size_limit_is_refused_unread(game):
    write_schema(game, '{"description": "' + "x" * (1 << 20) + '"}')
    expect(invoke("check", game), 1, "it is larger than 1 MB, the limit for a card schema")


# ---------------------------------------------------------------- the validation record
def record_path(game) -> "os.PathLike":
    schema_text = (game.parent / "schema" / "cards.json").read_text()
    card_text = (game.parent / "cards.yaml").read_text()
    key = card_schema._record_key(schema_text, card_text)
    return game.parent / "cache" / "rules-interpreter" / "valid-cards" / (key[:40] + ".json")


INVALID_CARDS = "thing:\n  - {name: Alpha, cost: one}\n  - {name: Beta, cost: 2}\n"


@pytest.mark.parametrize("planted", [
    b"",
    b"not json at all",
    b'{"valid": true}',
    b'{"format": "rules-valid-cards/2", "key": "0000", "valid": true, "schemas": {}}',
    b'[1, 2, 3]',
], ids=["empty", "garbage", "no-key", "wrong-key", "a-list"])
def test_a_planted_record_does_not_let_invalid_cards_pass(game, planted):
    (game.parent / "cards.yaml").write_text(INVALID_CARDS)
    path = record_path(game)
    path.parent.mkdir(parents=True, mode=0o700)
    path.write_bytes(planted)
    expect(invoke("check", game), 1, "field 'cost': 'one' is not of type 'integer'")


def test_a_record_forged_with_the_right_key_is_still_checked_against_its_sub_schemas(game):
    """The record lists every sub-schema's hash: one changed since is validated again."""
    write_schema(game, json.dumps({"type": "array", "items": CARD_ITEM}), "defs.json")
    write_schema(game, schema_with({"$ref": "defs.json"}))
    expect(invoke("check", game), 0, "ok")
    record = json.loads(record_path(game).read_text())
    assert list(record["schemas"]) == [str((game.parent / "schema" / "defs.json").resolve())]
    write_schema(game, json.dumps({"type": "array", "items": {**CARD_ITEM, "properties": {"cost": {"type": "string"}}}}),
                 "defs.json")
    expect(invoke("check", game), 1, "field 'cost': 1 is not of type 'string'")


def test_a_marker_of_the_old_kind_counts_for_nothing(game):
    """Earlier versions took the mere existence of a file as proof of validity."""
    (game.parent / "cards.yaml").write_text(INVALID_CARDS)
    schema_text = (game.parent / "schema" / "cards.json").read_text()
    digest = hashlib.sha256(b"1\0" + schema_text.encode() + b"\0" + INVALID_CARDS.encode()).hexdigest()
    folder = game.parent / "cache" / "rules-interpreter" / "valid-cards"
    folder.mkdir(parents=True)
    (folder / digest).touch()
    expect(invoke("check", game), 1, "'one' is not of type 'integer'")


def test_records_are_private_json(game):
    expect(invoke("check", game), 0, "ok")
    path = record_path(game)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
    assert json.loads(path.read_text())["valid"] is True


def test_the_jsonschema_version_is_part_of_the_key(monkeypatch):
    before = card_schema._record_key("{}", "thing: []")
    monkeypatch.setattr(card_schema, "_jsonschema_version", lambda: "0.0.1")
    assert card_schema._record_key("{}", "thing: []") != before


def test_a_cache_folder_others_can_write_to_is_not_used(game):
    expect(invoke("check", game), 0, "ok")
    folder = game.parent / "cache" / "rules-interpreter" / "valid-cards"
    os.chmod(folder, 0o777)
    assert cache.folder("valid-cards") is None
    assert cache.read("valid-cards", record_path(game).name) is None
    (game.parent / "cards.yaml").write_text(INVALID_CARDS)
    expect(invoke("check", game), 1, "'one' is not of type 'integer'")
