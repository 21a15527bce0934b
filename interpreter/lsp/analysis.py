"""Loading and checking one rules file as `check` does, with the work that
did not change kept: parsed declarations (by text, in the parser), the card
database (by card text and schema) and the card fields parsed from it.

An Analysis holds what the editor features read: the diagnostics, the
merged model, the card data and the symbol index.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from .frontend import (CardDataError, Diagnostic, FileRefused, RulesError, card_files, check_loaded, evaluate_params,
                       load_card_fields, load_cards, load_model, parse_rules, read_text, source_text, unreadable_cards)
from .index import SymbolIndex, index_game, normal_path


@dataclass
class Analysis:
    root: str  # the rules file analysed (a normal path)
    diagnostics: list = field(default_factory=list)  # errors and warnings, as `check` finds them
    files: list = field(default_factory=list)  # rules files of the game, base first (normal paths)
    texts: dict = field(default_factory=dict)  # normal path -> text read, for rules and card files
    model: object = None  # the merged RulesModel, when every file parsed
    db: object = None  # the CardDB, when the card data loaded
    params: dict = field(default_factory=dict)  # parameter values
    card_fields: dict = field(default_factory=dict)  # field -> parsed value per card
    trees: dict = field(default_factory=dict)  # normal path -> parsed rules file
    index: SymbolIndex = field(default_factory=SymbolIndex)
    card_file: str | None = None
    schema_file: str | None = None

    @property
    def loaded(self) -> bool:
        return self.model is not None

    def depends_on(self, path: str) -> bool:
        return path in self.files or path in (self.card_file, self.schema_file)


class _Recent(OrderedDict):
    """A mapping that keeps only its most recently used entries."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def remember(self, key, value):
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value

    def recall(self, key):
        if key in self:
            self.move_to_end(key)
            return self[key]
        return None


class Analyser:
    """Analyses rules files against the texts an editor holds, reusing the
    card work of earlier analyses whose inputs are unchanged."""

    def __init__(self):
        self._cards = _Recent(8)  # (card path, text, schema path, text) -> CardDB, or its problems
        self._fields = _Recent(8)  # (id of a CardDB, kinds' fields) -> (card fields, problems)

    def analyse(self, path: str, texts: dict, check: bool = True) -> Analysis:
        """Load `path` (and what it extends and loads); with `check`, find
        every problem the `check` command finds. `texts`: resolved Path -> text."""
        result = Analysis(normal_path(path))
        try:
            result.texts[result.root] = source_text(Path(path), texts)
            self._load(result, path, texts, check)
        except RulesError as err:
            result.diagnostics = list(err.diagnostics)
        except RecursionError:
            result.diagnostics = [Diagnostic("error", f"{path}: the rules are nested too deeply to read "
                                             "(an expression or block hundreds of levels deep)")]
        if result.model is not None:
            result.trees = {normal_path(f): parse_rules(result.texts[normal_path(f)], f) for f in result.model.files}
            result.index = index_game(result.model, result.trees, result.texts, result.db, result.card_fields)
        return result

    def _load(self, result: Analysis, path: str, texts: dict, check: bool):
        model, problems = load_model(path, texts)
        result.files = [normal_path(f) for f in model.files]
        for f in model.files:
            result.texts[normal_path(f)] = source_text(Path(f), texts)
        result.model = model
        if problems:
            result.diagnostics = problems
            return
        card_path, schema_path = card_files(model, path, texts)
        result.card_file = normal_path(str(card_path))
        result.schema_file = normal_path(str(schema_path)) if schema_path else None
        try:
            result.db = db = self.cards(card_path, schema_path, texts)
        except FileRefused as err:
            raise unreadable_cards(model, card_path, err) from None
        result.texts[result.card_file] = db.source.text
        result.params, problems = evaluate_params(model, {})
        result.card_fields, field_problems = self.fields(model, db)
        if check:
            result.diagnostics = check_loaded(model, db, result.params, result.card_fields, problems + field_problems)

    def cards(self, card_path: Path, schema_path: Path | None, texts: dict):
        """The card database, loaded again only when the card text or the
        schema changed."""
        try:
            key = (str(card_path), _text(card_path, texts),
                   str(schema_path), _text(schema_path, texts) if schema_path else None)
        except RulesError:
            return load_cards(card_path, schema_path, texts)  # unreadable: let it say why
        found = self._cards.recall(key)
        if found is None:
            try:
                found = load_cards(card_path, schema_path, texts)
            except CardDataError as err:
                found = list(err.diagnostics)
            self._cards.remember(key, found)
        if isinstance(found, list):
            raise CardDataError(found)
        return found

    def fields(self, model, db):
        """The card fields the rules declare as effects or expressions, parsed
        again only when the card data or the kinds changed."""
        kinds = tuple((k.name, tuple(k.fields)) for k in model.kinds.values())
        key = (id(db), kinds)
        found = self._fields.recall(key)
        if found is None or found[0] is not db:
            found = self._fields.remember(key, (db, *load_card_fields(model, db)))
        return found[1], list(found[2])


def _text(path: Path, texts: dict) -> str:
    text = texts.get(Path(path).resolve()) if texts else None
    return text if text is not None else read_text(path)
