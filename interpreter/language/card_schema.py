"""The JSON Schema a card file is validated against.

A schema is checked against its meta-schema (an invalid schema is an error
at its line, not a crash); its `$ref`s resolve only to files beside it, in
its folder or below (never the network, never another folder); every error
names the card and the field path.

Validating needs the jsonschema import, which costs more than the rest of
`check`, so a card file that passed is recorded in the user's private cache
folder (cache.py). The record is keyed by everything that decides validity:
the card text, the schema text, the jsonschema version, and the text of
every sub-schema the validation read (kept in the record with its hash and
compared before the record is believed). An empty or foreign record counts
for nothing.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

from .. import files, limits
from ..errors import CardDataError, Diagnostic, RulesError, Source, Span
from . import cache

RECORD_FORMAT = "rules-valid-cards/2"


class SchemaFiles:
    """The schema and the sub-schemas its `$ref`s reach, read only from its folder tree."""

    def __init__(self, path: Path, text: str | None = None):
        self.path = Path(path)
        # read first: it refuses a path that cannot be resolved (a NUL byte); `text`: an editor's unsaved text
        self.text = text if text is not None else _read(self.path)
        self.folder = self.path.resolve().parent
        self.schema = _parse(self.path, self.text)
        self.read: dict = {}  # sub-schema file -> its text, as validation asked for them

    def local_file(self, uri: str) -> Path:
        """The file a `$ref` URI names, if it is a file in the schema's folder tree."""
        parts = urlsplit(uri)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise CardDataError(f"{self.path}: the schema refers to {uri}; a card schema may refer only to "
                                "files beside it (no network addresses)")
        name = unquote(parts.path)
        if "\0" in name:
            raise CardDataError(f"{self.path}: the schema refers to a file name with a NUL byte")
        target = Path(name).resolve()
        if target != self.folder and self.folder not in target.parents:
            raise CardDataError(f"{self.path}: the schema refers to {target}, outside its folder {self.folder}; "
                                "a card schema may refer only to files in its own folder or below")
        return target

    def retrieve(self, uri: str):
        """`referencing`'s retrieve hook: local files only, each checked against the meta-schema."""
        from referencing import Resource
        from referencing.jsonschema import DRAFT202012

        target = self.local_file(uri)
        text = _read(target)
        schema = _parse(target, text)
        _check_against_meta_schema(target, text, schema)
        self.read[str(target)] = text
        return Resource.from_contents(schema, default_specification=DRAFT202012)

    def validator(self):
        import jsonschema
        from jsonschema_specifications import REGISTRY as META_SCHEMAS
        from referencing import Registry

        _check_against_meta_schema(self.path, self.text, self.schema)
        # The meta-schemas come with jsonschema; anything else goes through `retrieve`.
        registry = META_SCHEMAS.combine(Registry(retrieve=self.retrieve))
        root = self.path.resolve().as_uri()
        schema = self.schema if not isinstance(self.schema, dict) or "$id" in self.schema else {**self.schema, "$id": root}
        return jsonschema.Draft202012Validator(schema, registry=registry)


def _read(path: Path) -> str:
    raw = files.read_bytes(path, "card schema", limits.SCHEMA_FILE_BYTES)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CardDataError(f"cannot read card schema {path}: not UTF-8 text (byte {err.start})") from None


_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')


def _not_finite(word: str):
    raise _NotFinite(word)


class _NotFinite(ValueError):
    """A schema number that is not finite (NaN, Infinity, 1e999): Python's json
    reads them, but they are not JSON and a bound of NaN would let any value pass."""


def _parse(path: Path, text: str):
    try:
        return json.loads(text, parse_constant=_not_finite,
                          parse_float=lambda word: float(word) if math.isfinite(float(word)) else _not_finite(word))
    except _NotFinite as err:
        at = next((m.start() for m in _JSON_TOKEN.finditer(text) if m.group() == str(err)), 0)
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        raise CardDataError(f"the card schema holds {err}, which is not a finite JSON number",
                            Span(Source(str(path), text), line, column, line, column + len(str(err)))) from None
    except ValueError as err:
        line, column = getattr(err, "lineno", 1), getattr(err, "colno", 1)
        raise CardDataError(f"the card schema is not valid JSON: {getattr(err, 'msg', err)}",
                            Span(Source(str(path), text), line, column, line, column + 1)) from None
    except RecursionError:
        raise CardDataError(f"the card schema {path} is nested too deeply to read") from None


def _check_against_meta_schema(path: Path, text: str, schema) -> None:
    import jsonschema

    try:
        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(
            jsonschema.Draft202012Validator.META_SCHEMA).iter_errors(schema))
    except RecursionError:
        raise CardDataError(f"the card schema {path} is nested too deeply to check") from None
    if error is None:
        return
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".") or "top level"
    raise CardDataError(f"the card schema is not a valid JSON Schema: at {where}: {_shorten(error.message)}",
                        _json_span(path, text, tuple(error.absolute_path)))


def _json_span(path: Path, text: str, where: tuple) -> Span:
    """Where a JSON path is in the text (JSON read as YAML gives positions)."""
    source = Source(str(path), text)
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        for part in where:
            if isinstance(node, yaml.MappingNode):
                node = next(v for k, v in node.value if k.value == part)
            elif isinstance(node, yaml.SequenceNode):
                node = node.value[part]
        mark = node.start_mark
        return Span(source, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2)
    except Exception:  # positions are a courtesy: any failure points at the top
        return Span(source, 1, 1, 1, 2)


def _shorten(text: str, most: int = 160) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def schema_problems(data, card_text: str, schema_path: Path, describe, span_for, schema_text: str | None = None) -> list:
    """Every violation of the schema by the card data, as diagnostics
    naming the card and field; none if a trusted record says the data passed.
    `schema_text`: the schema's text as an editor holds it, if not the disk's."""
    schema = SchemaFiles(schema_path, schema_text)
    key = _record_key(schema.text, card_text)
    if _recorded_valid(key):
        return []
    validator = schema.validator()
    problems = []
    try:
        errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    except RulesError:
        raise
    except RecursionError:
        raise CardDataError(f"the card schema {schema_path} refers to itself without end") from None
    except Exception as err:  # a reference that failed: say why, with our own message if it is one
        raise _reference_failure(err, schema_path) from None
    for error in errors:
        path = tuple(error.absolute_path)
        problems.append(Diagnostic("error", f"{describe(data, path)}: {_schema_message(error)}", span_for(path)))
    if not problems:
        _record_valid(key, schema.read)
    return problems


def _reference_failure(err: Exception, schema_path: Path) -> RulesError:
    cause = err
    while cause is not None:
        if isinstance(cause, RulesError):
            return cause
        cause = cause.__cause__ or cause.__context__
    return CardDataError(f"the card schema {schema_path} cannot be used: {_shorten(str(err))}")


def _jsonschema_version() -> str:
    return cache.package_version("jsonschema")


def _record_key(schema_text: str, card_text: str) -> str:
    h = hashlib.sha256()
    for part in (RECORD_FORMAT, _jsonschema_version(), schema_text, card_text):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def _recorded_valid(key: str) -> bool:
    raw = cache.read("valid-cards", key[:40] + ".json")
    if raw is None:
        return False
    try:
        record = json.loads(raw)
        if record.get("format") != RECORD_FORMAT or record.get("key") != key or record.get("valid") is not True:
            return False
        for name, digest in record["schemas"].items():
            text = files.read_bytes(name, "card schema", limits.SCHEMA_FILE_BYTES).decode("utf-8")
            if hashlib.sha256(text.encode()).hexdigest() != digest:
                return False
        return True
    except Exception:  # a damaged record, or a sub-schema gone: validate again
        return False


def _record_valid(key: str, read: dict) -> None:
    record = {"format": RECORD_FORMAT, "key": key, "valid": True,
              "schemas": {name: hashlib.sha256(text.encode()).hexdigest() for name, text in sorted(read.items())}}
    cache.write("valid-cards", key[:40] + ".json", json.dumps(record).encode())


def _schema_message(error) -> str:
    if error.validator == "additionalProperties":
        extra = re.findall(r"'([^']+)' (?:was|were) unexpected", error.message)
        allowed = sorted(error.schema.get("properties", {}))
        return (f"unknown field {_shorten(extra[0] if extra else '', 60)!r}; allowed fields: {', '.join(allowed)}"
                if allowed else _shorten(error.message))
    if error.validator == "required":
        return _shorten(error.message.replace("is a required property", "is required"))
    if error.validator == "enum":
        return f"{_value(error.instance)} is not one of {', '.join(map(repr, error.validator_value))}"
    if error.validator == "pattern":
        return f"{_value(error.instance)} does not match the expected form ({error.schema.get('description', error.validator_value)})"
    return _shorten(error.message)


def _value(value) -> str:
    """A value from the card file, shown short: a message quotes it, not all of it."""
    return _shorten(repr(value), 60)
