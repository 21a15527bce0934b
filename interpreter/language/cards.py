"""The card database: YAML card files loaded safely, validated, with positions;
and the card fields the rules declare as effects or expressions, parsed.

Cards are numbered 0..N-1 in file order; a card's stable id is its slugged name
(with a number when several cards share a name), unique by construction.
Schema errors name the card and the field path and point at the YAML line.
Loading takes time linear in the file: the YAML graph is walked once, each
node once, however many aliases point at it; aliases that would expand the
data past a budget, a key given twice and a value that contains itself are
errors at their line.
"""
from __future__ import annotations

import gc
import math
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import yaml

from .. import files, limits
from ..errors import CardDataError, Diagnostic, RulesError, Source, Span, shift
from . import nodes as n
from . import treecache
from .card_schema import schema_problems
from .parser import parse_effects, parse_expression


@dataclass
class Card:
    index: int
    kind: str
    id: str
    name: str
    data: dict
    spans: dict = field(default_factory=dict)  # field name (`field.key` in a map) -> Span of its value
    entry: int = 0  # the card file's entry it comes from (several identical cards with `copies: N`)
    group: str = ""  # the id its entry's cards share: the card's own id, unless the entry has copies


@dataclass
class CardDB:
    source: Source
    cards: list
    kinds: list  # kind names in file order
    _ids: dict = field(default_factory=dict, repr=False, compare=False)

    def by_id(self, card_id: str) -> Card | None:
        if len(self._ids) != len(self.cards):
            self._ids = {card.id: card for card in self.cards}
        return self._ids.get(card_id)

    def field_names(self) -> set:
        return {name for card in self.cards for name in card.data}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def assign_ids(cards: list) -> None:
    """Give every card its id: the slug of its name, numbered (`-1`, `-2`...)
    when several names share a slug. A number that is already another card's
    own id ("X 1" beside two "X") is skipped, so no two cards share an id."""
    groups: dict = {}
    for card in cards:
        groups.setdefault(_slug(card.name), []).append(card)
    taken = {slug for slug, group in groups.items() if len(group) == 1}
    for slug, group in groups.items():
        if len(group) == 1:
            group[0].id = slug
            continue
        number = 0
        for card in group:
            number += 1
            while f"{slug}-{number}" in taken:
                number += 1
            card.id = f"{slug}-{number}"
            taken.add(card.id)


def assign_groups(cards: list, entries: list) -> None:
    """The copies of one entry share a group id: the slug of the entry's name,
    numbered like ids when several entries share it, and never another card's
    own id. A card alone in its entry is its own group."""
    sizes: dict = {}
    for card in cards:
        sizes[card.entry] = sizes.get(card.entry, 0) + 1
    taken = {card.id for card in cards}
    slugs: dict = {}
    for entry, name in enumerate(entries):
        slugs.setdefault(_slug(name), []).append(entry)
    groups: dict = {}
    for slug, group in slugs.items():
        for number, entry in enumerate(group, 1):
            if sizes.get(entry, 0) > 1:
                name = slug if len(group) == 1 else f"{slug}-copies-{number}"
                while name in taken:
                    name += "-copies"
                groups[entry] = name
                taken.add(name)
    for card in cards:
        card.group = groups.get(card.entry, card.id)


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
        shown = name if not isinstance(name, str) or len(name) <= 60 else name[:57] + "..."
        card = f"{kind}[{idx}]" + (f" ({shown!r})" if name else "")
        rest = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[2:])
        return f"card {card}" + (f", field '{rest.lstrip('.')}'" if rest else "")
    return "top level" if not path else "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


# ---------------------------------------------------------------- YAML
class _KeysOnce:
    """A constructor that records a key given twice in one mapping (YAML
    keeps the last silently: a card kind written twice would lose cards)."""

    def __init__(self, stream):
        super().__init__(stream)
        self.duplicates: list = []  # (key, mark of the second, mark of the first, the mapping node)

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue  # `<<: *base` merges keys the mapping may then override
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node.start_mark)
            except TypeError:
                continue  # an unhashable key: the constructor says so
            if first is not key_node.start_mark:
                self.duplicates.append((key, key_node.start_mark, first, node))
        return super().construct_mapping(node, deep)


class _FastYaml(_KeysOnce, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    pass


class _PlainYaml(_KeysOnce, yaml.SafeLoader):
    """Pure Python: its error messages read the same on every machine."""


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def _survey(root, source: Source) -> dict:
    """Walk the YAML node graph once, each node once: the position of each
    JSON path (an aliased value is found at its anchor), refusing a value
    that contains itself and aliases that expand past the budget."""
    positions: dict = {}
    sizes: dict = {}  # id(node) -> values once aliases are expanded
    open_nodes: set = set()
    stack = [(root, (), False)]
    while stack:
        node, path, closing = stack.pop()
        key = id(node)
        if closing:
            open_nodes.discard(key)
            sizes[key] = 1 + sum(sizes[id(child)] for child in _children(node))
            if sizes[key] > limits.CARD_VALUES:
                raise CardDataError(
                    f"the card file holds more than {limits.CARD_VALUES:,} values once its YAML aliases (*name) are "
                    "expanded: that is the limit", _span_at(source, node.start_mark),
                    "write the values out, or refer to big values fewer times")
            continue
        positions.setdefault(path, node.start_mark)
        if key in sizes:
            continue
        if key in open_nodes:
            raise CardDataError("this YAML alias refers to a value that contains it: the card data would never end",
                                _span_at(source, node.start_mark))
        if isinstance(node, yaml.ScalarNode):
            sizes[key] = 1
            continue
        open_nodes.add(key)
        stack.append((node, path, True))
        if isinstance(node, yaml.MappingNode):
            for k, v in reversed(node.value):
                positions.setdefault(path + (k.value, "<key>"), k.start_mark)
                stack.append((v, path + (k.value,), False))
                stack.append((k, path + (k.value, "<key>"), False))
        else:
            for i in range(len(node.value) - 1, -1, -1):
                stack.append((node.value[i], path + (i,), False))
    return positions


def _duplicate_problems(loader, root, source: Source) -> list:
    out = []
    for key, mark, first, mapping in loader.duplicates:
        shown = key if not isinstance(key, str) or len(key) <= 60 else key[:57] + "..."
        if mapping is root:
            message = f"card kind {shown!r} appears twice (first at line {first.line + 1})"
            hint = "YAML would keep only the second list of cards: put every card of a kind in one list"
        else:
            message = f"key {shown!r} is given twice in one mapping (first at line {first.line + 1})"
            hint = "YAML would keep only the last value: remove or rename one of them"
        out.append(Diagnostic("error", message, _span_at(source, mark, len(str(key))), hint))
    return out


_OPENING = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSING = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def _check_nesting(text: str, loader_class, source: Source) -> None:
    """Refuse values nested past the budget before a tree is built: the C
    composer recurses without a limit, and `[` * 100000 crashed Python."""
    depth = 0
    for event in yaml.parse(text, loader_class):
        kind = type(event)
        if kind in _OPENING:
            depth += 1
            if depth > limits.CARD_NESTING:
                raise CardDataError(f"the card file nests lists and mappings more than {limits.CARD_NESTING} deep "
                                    "(the limit)", _span_at(source, event.start_mark))
        elif kind in _CLOSING:
            depth -= 1


def _load_yaml(text: str, loader_class, source: Source):
    """The data, and the position of each JSON path in it."""
    _check_nesting(text, loader_class, source)
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        positions = _survey(node, source)
        data = loader.construct_document(node)
        problems = _duplicate_problems(loader, node, source)
        if problems:
            raise CardDataError(problems)
        return data, positions
    finally:
        loader.dispose()


def _read_yaml(text: str, source: Source):
    try:
        try:
            return _load_yaml(text, _FastYaml, source)
        except yaml.YAMLError:
            return _load_yaml(text, _PlainYaml, source)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        span = _span_at(source, mark) if mark else Span(source, 1, 1, 1, 2)
        problem = getattr(err, "problem", None) or str(err)
        raise CardDataError(f"malformed YAML: {problem}", span) from None
    except RecursionError:
        raise CardDataError("the card file is nested too deeply to read", Span(source, 1, 1, 1, 2)) from None


def _non_finite_path(data):
    """The JSON path of the first NaN or infinity in the card data (`.nan`,
    `.inf`, `1e999`), or None. A list or mapping reached through several
    aliases is looked into once."""
    clean: set = set()
    stack = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, float):
            if not math.isfinite(value):
                return path, value
            continue
        if not isinstance(value, (dict, list)) or id(value) in clean:
            continue
        clean.add(id(value))  # a problem inside is found the first time, so a second visit finds nothing
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in reversed(list(items)):
            if isinstance(key, float) and not math.isfinite(key):
                return path + (key,), key
            stack.append((item, path + (key,)))
    return None


def _refuse_non_finite(data, span_for) -> None:
    """Card values are finite: a NaN compares unequal to itself and an
    infinity has no whole value, so either would make the game silently wrong."""
    found = _non_finite_path(data)
    if found is None:
        return
    path, value = found
    shown = ".nan" if value != value else (".inf" if value > 0 else "-.inf")
    raise CardDataError(f"{_describe_path(data, path)}: {shown} is not a finite number", span_for(path),
                        "card values must be finite numbers")


@contextmanager
def _without_cycle_collection():
    """Loading makes hundreds of thousands of objects and no garbage cycles;
    Python's cycle collector, passing over them again and again as they
    accumulate, would make loading grow faster than the file."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_cards(path: Path, schema_path: Path | None, texts: Mapping[Path, str] | None = None) -> CardDB:
    """Load and validate a card file. `texts` holds, by resolved path, the
    text of files an editor has open (unsaved), read in place of the disk's."""
    with _without_cycle_collection():
        return _load_cards(path, schema_path, texts)


def _load_cards(path: Path, schema_path: Path | None, texts: Mapping[Path, str] | None) -> CardDB:
    text = texts.get(Path(path).resolve()) if texts else None
    if text is None:
        raw = files.read_bytes(path, "card file", limits.CARD_FILE_BYTES)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise CardDataError(f"{path}: not UTF-8 text (byte {err.start})") from None
    source = Source(str(path), text)
    data, positions = _read_yaml(text, source)

    def span_for(p, length=1):
        while p not in positions and p:
            p = p[:-1]
        mark = positions.get(p)
        return _span_at(source, mark, length) if mark else Span(source, 1, 1, 1, 2)

    _refuse_non_finite(data, span_for)
    problems = []
    if schema_path is not None:
        schema_text = texts.get(Path(schema_path).resolve()) if texts else None
        problems += schema_problems(data, text, schema_path, _describe_path, span_for, schema_text)
    if not problems and not isinstance(data, dict):
        problems.append(Diagnostic("error", "the card file must be a mapping of card kinds to lists of cards", span_for(())))
    if problems:
        raise CardDataError(problems)

    cards, problems, entries = [], [], []
    for kind, items in data.items():
        if not isinstance(items, list):
            problems.append(Diagnostic("error", f"card kind '{kind}' must be a list of cards", span_for((kind,))))
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                problems.append(Diagnostic("error", f"{_describe_path(data, (kind, i))}: every card needs a 'name'", span_for((kind, i))))
                continue
            copies = item.get("copies", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) or not 1 <= copies <= limits.COPIES:
                problems.append(Diagnostic("error", f"{_describe_path(data, (kind, i, 'copies'))}: `copies` must be a "
                                           f"whole number from 1 to {limits.COPIES:,}, got {copies!r}",
                                           span_for((kind, i, "copies"))))
                continue
            if len(cards) + copies > limits.CARDS:
                problems.append(Diagnostic("error", f"the card file makes more than {limits.CARDS:,} cards (the limit)",
                                           span_for((kind, i, "copies"))))
                break
            spans = {k: span_for((kind, i, k)) for k in item}
            for k, value in item.items():  # each entry of a map field (expressions by name) has its own place
                if isinstance(value, dict):
                    spans.update({f"{k}.{sub}": span_for((kind, i, k, str(sub))) for sub in value})
            fields_ = {k: v for k, v in item.items() if k != "copies"}  # one entry, several identical cards
            entry = len(entries)
            entries.append(item["name"])
            for _ in range(copies):
                cards.append(Card(len(cards), kind, "", item["name"], fields_, spans, entry))
    if problems:
        raise CardDataError(problems)
    assign_ids(cards)
    assign_groups(cards, entries)
    return CardDB(source, cards, list(data))


def load_card_fields(model, db) -> tuple[dict, list]:
    """Parse the card fields the rules declare as effects or expressions.
    A text many cards share is parsed once, then placed at each card."""
    with _without_cycle_collection():
        return _load_card_fields(model, db)


def _load_card_fields(model, db) -> tuple[dict, list]:
    typed = {}
    for kind in model.kinds.values():
        for fname, ftype in kind.fields:
            typed[(kind.name, fname)] = ftype
    out: dict = {}
    problems: list = []
    stored = _stored_texts(db) if typed else {}
    memo: dict = {}  # the texts of this card file, as read now (kept when they differ from those stored)
    for (kind, fname), ftype in typed.items():
        values = out.setdefault(fname, [None] * len(db.cards))
        for card in db.cards:
            if card.kind != kind or fname not in card.data:
                continue
            raw = card.data[fname]
            span = card.spans.get(fname)
            try:
                if ftype == "effects":
                    values[card.index] = _parse_card_text(raw, span, db, parse_effects, card, fname, memo, stored)
                elif ftype == "expression":
                    values[card.index] = _parse_card_text(str(raw), span, db, parse_expression, card, fname, memo, stored)
                else:
                    if not isinstance(raw, dict):
                        raise RulesError(f"card '{_short(card.name)}', field '{fname}': expected a map of expressions", span)
                    values[card.index] = {k: _parse_card_text(str(v), card.spans.get(f"{fname}.{k}", span), db, parse_expression,
                                                              card, f"{fname}.{k}", memo, stored)
                                          for k, v in raw.items()}
            except RulesError as err:
                problems.extend(err.diagnostics)
    if memo.keys() != stored.keys():
        treecache.store_card_texts(db.source.name, {(_START[parse], raw): tree for (parse, raw), tree in memo.items()},
                                   _ALONE)
    return out, problems


def _stored_texts(db) -> dict:
    """The texts of this card file that were parsed before (kept in the
    cache folder: treecache.py), by (parse function, text) as `memo` holds them."""
    parse = {start: function for function, start in _START.items()}
    return {(parse[start], raw): tree for (start, raw), tree in treecache.load_card_texts(db.source.name, _ALONE).items()}


_EFFECT_NAMES = re.compile(r"[^\s/]+")
_ALONE = Source("<card text>", "")
_START = {parse_effects: "effects", parse_expression: "expression"}  # the grammar's start symbol of each


def _short(text, most: int = 60) -> str:
    text = str(text)
    return text if len(text) <= most else text[:most - 3] + "..."


def _parse_card_text(raw, span, db, parse, card, fname, memo, stored):
    if not isinstance(raw, str):
        raise RulesError(f"card '{_short(card.name)}', field '{fname}': expected text, got {_short(repr(raw))}", span)
    if parse is parse_effects:
        count = sum(1 for _ in _EFFECT_NAMES.finditer(raw))
        if count > limits.EFFECTS_PER_CARD:
            raise RulesError(f"card '{_short(card.name)}', field '{fname}': {count} effects; a card may have at most "
                             f"{limits.EFFECTS_PER_CARD} (the limit)", span)
    offset = (span.line, span.column + 1) if span and db.source.line(span.line)[span.column - 1: span.column] in "\"'" else ((span.line, span.column) if span else (1, 1))
    key = (parse, raw)
    tree = memo.get(key)
    if tree is None:
        tree = stored.get(key)
    if tree is not None:
        memo[key] = tree
    else:
        try:
            tree = memo[key] = _parsed_alone(parse, raw)
        except RulesError:
            try:  # parse it again where it is, for the error's position
                parse(raw, db.source, offset)
            except RulesError as err:
                d = err.diagnostics[0]
                raise RulesError(Diagnostic(d.severity, f"card '{_short(card.name)}', field '{fname}': {d.message}", d.span, d.hint)) from None
            raise
    return _placed(tree, db.source, offset)


@lru_cache(maxsize=4096)
def _parsed_alone(parse, raw: str):
    """A card text parsed on its own. Trees are immutable, so a text read
    again (the same card file loaded again) is parsed once per process."""
    return parse(raw, _ALONE, (1, 1))


def _placed(value, source: Source, offset):
    """A tree parsed on its own, with its spans moved to where the text sits."""
    cls = type(value)
    if cls is str or cls is int:
        return value
    if isinstance(value, n.Node):
        span = value.span
        if span.source is not None:
            span = (Span(source, *shift(span.line, span.column, offset), *shift(span.end_line, span.end_column, offset))
                    if span.line else Span(source))
        return cls(*[_placed(getattr(value, name), source, offset) for name in cls._fields], span=span)
    if cls is tuple:
        return tuple(_placed(v, source, offset) for v in value)
    if cls is list:
        return [_placed(v, source, offset) for v in value]
    return value
