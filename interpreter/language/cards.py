"""The card database: YAML card files loaded safely, validated, with positions;
and the card fields the rules declare as effects or expressions, parsed.

Cards are numbered 0..N-1 in file order; a card's stable id is its slugged name
(with a number when several cards share a name). Schema errors name the card
and the field path and point at the YAML line.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import yaml

from ..errors import CardDataError, Diagnostic, RulesError, Source, Span
from .parser import parse_effects, parse_expression


@dataclass
class Card:
    index: int
    kind: str
    id: str
    name: str
    data: dict
    spans: dict = field(default_factory=dict)  # field name (`field.key` in a map) -> Span of its value


@dataclass
class CardDB:
    source: Source
    cards: list
    kinds: list  # kind names in file order

    def by_id(self, card_id: str) -> Card | None:
        for card in self.cards:
            if card.id == card_id:
                return card
        return None

    def field_names(self) -> set:
        return {name for card in self.cards for name in card.data}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def _positions(node, path=(), out=None) -> dict:
    """Map each JSON path in a composed YAML tree to its source mark."""
    out = {} if out is None else out
    out[path] = node.start_mark
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            out.setdefault(path + (key.value, "<key>"), key.start_mark)
            _positions(value, path + (key.value,), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _positions(item, path + (i,), out)
    return out


def _span_at(source: Source, mark, length: int = 1) -> Span:
    line, col = mark.line + 1, mark.column + 1
    return Span(source, line, col, line, col + max(length, 1))


def _describe_path(data, path) -> str:
    """`card item[3] ('Ada'), field 'cost'` — the card and the field path."""
    if len(path) >= 2 and isinstance(path[1], int):
        kind, idx = path[0], path[1]
        try:
            name = data[kind][idx].get("name")
        except (AttributeError, IndexError, KeyError, TypeError):
            name = None
        card = f"{kind}[{idx}]" + (f" ({name!r})" if name else "")
        rest = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[2:])
        return f"card {card}" + (f", field '{rest.lstrip('.')}'" if rest else "")
    return "top level" if not path else "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _compose(text: str, loader_class):
    """The YAML node tree (for positions) and the data built from it, with a
    safe loader (plain data only: no Python objects can be built)."""
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def load_cards(path: Path, schema_path: Path | None, texts: Mapping[Path, str] | None = None) -> CardDB:
    """Load and validate a card file. `texts` holds, by resolved path, the
    text of files an editor has open (unsaved), read in place of the disk's."""
    text = texts.get(Path(path).resolve()) if texts else None
    if text is None:
        text = _read_card_file(path)
    source = Source(str(path), text)
    try:
        node, data = _compose(text, getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        try:  # the pure-Python loader words its errors the same on every machine
            node, data = _compose(text, yaml.SafeLoader)
        except yaml.YAMLError as err:
            mark = getattr(err, "problem_mark", None)
            span = _span_at(source, mark) if mark else Span(source, 1, 1, 1, 2)
            problem = getattr(err, "problem", None) or str(err)
            raise CardDataError(f"malformed YAML: {problem}", span) from None
    positions = _positions(node) if node is not None else {}

    def span_for(p, length=1):
        while p not in positions and p:
            p = p[:-1]
        mark = positions.get(p)
        return _span_at(source, mark, length) if mark else Span(source, 1, 1, 1, 2)

    problems = []
    if schema_path is not None:
        schema_text = texts.get(Path(schema_path).resolve()) if texts else None
        problems += _schema_problems(data, text, schema_path, span_for, schema_text)
    if not problems and not isinstance(data, dict):
        problems.append(Diagnostic("error", "the card file must be a mapping of card kinds to lists of cards", span_for(())))
    if problems:
        raise CardDataError(problems)

    cards, problems = [], []
    names: dict = {}
    for kind, items in data.items():
        if not isinstance(items, list):
            problems.append(Diagnostic("error", f"card kind '{kind}' must be a list of cards", span_for((kind,))))
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                problems.append(Diagnostic("error", f"{_describe_path(data, (kind, i))}: every card needs a 'name'", span_for((kind, i))))
                continue
            names.setdefault(_slug(item["name"]), []).append(len(cards))
            spans = {k: span_for((kind, i, k)) for k in item}
            for k, value in item.items():  # each entry of a map field (expressions by name) has its own place
                if isinstance(value, dict):
                    spans.update({f"{k}.{sub}": span_for((kind, i, k, str(sub))) for sub in value})
            cards.append(Card(len(cards), kind, "", item["name"], dict(item), spans))
    if problems:
        raise CardDataError(problems)
    for slug, indices in names.items():
        for n, index in enumerate(indices, 1):
            cards[index].id = slug if len(indices) == 1 else f"{slug}-{n}"
    return CardDB(source, cards, list(data))


def _read_card_file(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise CardDataError(f"cannot read card file {path}: {err.strerror or err}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CardDataError(f"{path}: not UTF-8 text (byte {err.start})") from None


def _schema_problems(data, text: str, schema_path: Path, span_for, schema_text: str | None = None) -> list:
    try:
        if schema_text is None:
            schema_text = schema_path.read_text(encoding="utf-8")
        schema = json.loads(schema_text)
    except (OSError, ValueError) as err:
        raise CardDataError(f"cannot read card schema {schema_path}: {err}") from None
    marker = _validated_marker(schema_text, text)
    if marker.exists():
        return []
    import jsonschema  # imported only when there is something new to validate

    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(error.absolute_path)
        where = _describe_path(data, path)
        problems.append(Diagnostic("error", f"{where}: {_schema_message(error)}", span_for(path)))
    if not problems:
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError:
            pass  # no cache: validate again next time
    return problems


VALIDATION_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rules-interpreter" / "valid-cards"


def _validated_marker(schema_text: str, text: str) -> Path:
    """A file whose existence records that exactly this card text passed
    exactly this schema (validation needs the slow jsonschema import, and a
    designer re-checks rules far more often than the cards change)."""
    digest = hashlib.sha256(b"1\0" + schema_text.encode() + b"\0" + text.encode()).hexdigest()
    return VALIDATION_CACHE / digest


def _schema_message(error) -> str:
    if error.validator == "additionalProperties":
        extra = re.findall(r"'([^']+)' (?:was|were) unexpected", error.message)
        allowed = sorted(error.schema.get("properties", {}))
        return f"unknown field {extra[0] if extra else ''!r}; allowed fields: {', '.join(allowed)}" if allowed else error.message
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    if error.validator == "enum":
        return f"{error.instance!r} is not one of {', '.join(map(repr, error.validator_value))}"
    if error.validator == "pattern":
        return f"{error.instance!r} does not match the expected form ({error.schema.get('description', error.validator_value)})"
    return error.message


def load_card_fields(model, db) -> tuple[dict, list]:
    """Parse the card fields the rules declare as effects or expressions."""
    typed = {}
    for kind in model.kinds.values():
        for fname, ftype in kind.fields:
            typed[(kind.name, fname)] = ftype
    out: dict = {}
    problems: list = []
    for (kind, fname), ftype in typed.items():
        values = out.setdefault(fname, [None] * len(db.cards))
        for card in db.cards:
            if card.kind != kind or fname not in card.data:
                continue
            raw = card.data[fname]
            span = card.spans.get(fname)
            try:
                if ftype == "effects":
                    values[card.index] = _parse_card_text(raw, span, db, parse_effects, card, fname)
                elif ftype == "expression":
                    values[card.index] = _parse_card_text(str(raw), span, db, parse_expression, card, fname)
                else:
                    if not isinstance(raw, dict):
                        raise RulesError(f"card '{card.name}', field '{fname}': expected a map of expressions", span)
                    values[card.index] = {k: _parse_card_text(str(v), card.spans.get(f"{fname}.{k}", span), db, parse_expression,
                                                              card, f"{fname}.{k}")
                                          for k, v in raw.items()}
            except RulesError as err:
                problems.extend(err.diagnostics)
    return out, problems


def _parse_card_text(raw, span, db, parse, card, fname):
    if not isinstance(raw, str):
        raise RulesError(f"card '{card.name}', field '{fname}': expected text, got {raw!r}", span)
    offset = (span.line, span.column + 1) if span and db.source.line(span.line)[span.column - 1: span.column] in "\"'" else ((span.line, span.column) if span else (1, 1))
    try:
        return parse(raw, db.source, offset)
    except RulesError as err:
        d = err.diagnostics[0]
        raise RulesError(Diagnostic(d.severity, f"card '{card.name}', field '{fname}': {d.message}", d.span, d.hint)) from None
