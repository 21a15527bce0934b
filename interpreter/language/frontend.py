"""The front end: read a rules file and the files it extends, load its cards,
evaluate its parameters, parse typed card fields and check everything.
Nothing is compiled; `loader.load_game` compiles what passes.

`check_rules` is the whole step; the language server runs its parts
(`card_files`, `check_loaded`) itself, to keep the work that did not change.
`texts` maps resolved paths to texts that stand for the files on disk (an
editor's unsaved buffers).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Mapping

from ..errors import CheckError, Diagnostic, Source, Span
from ..files import FileRefused
from .cards import CardDB, load_card_fields, load_cards
from .checker import check
from .model import RulesModel
from .params import evaluate_params
from .shows import unfit_shows
from .sources import load_model, source_text
from .typecheck import type_problems


@dataclass
class CheckedRules:
    """A rules file after every check: what compiling it needs, and what was found."""

    path: str
    model: RulesModel
    db: CardDB
    params: dict  # name -> value, with overrides applied
    card_fields: dict  # field name -> parsed value per card (effects, expressions)
    diagnostics: list  # errors and warnings, in the order found

    @property
    def errors(self) -> list:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list:
        return own_warnings(self.diagnostics, self.path, self.db)


def check_rules(path: str | Path, overrides: dict | None = None, texts: Mapping[Path, str] | None = None) -> CheckedRules:
    """Check a rules file. Problems that stop checking early (syntax, a file
    that cannot be read, a card file that breaks its schema) raise a
    RulesError; every other problem is in the result's diagnostics."""
    model, problems = load_model(path, texts)
    if problems:
        raise CheckError(problems)
    db = _load_declared_cards(model, path, texts)
    params, problems = evaluate_params(model, dict(overrides or {}))
    card_fields, field_problems = load_card_fields(model, db)
    diagnostics = check_loaded(model, db, params, card_fields, problems + field_problems)
    return CheckedRules(str(path), model, db, params, card_fields, diagnostics)


def _load_declared_cards(model: RulesModel, path, texts) -> CardDB:
    card_path, schema_path = card_files(model, path, texts)
    try:
        return load_cards(card_path, schema_path, texts)
    except FileRefused as err:
        raise unreadable_cards(model, card_path, err) from None


def unreadable_cards(model: RulesModel, card_path: Path, err: FileRefused) -> CheckError:
    """A card file or schema that cannot be read, reported on the `cards`
    line that names it (in whichever file declares it), by the name written there."""
    decl = model.cards
    written = {str(card_path): decl.path}
    if decl.schema:
        written[str(card_path.parent / decl.schema)] = decl.schema
    hint = f"the path is read from the folder of the file that names it: {card_path.parent}"

    def placed(d: Diagnostic) -> Diagnostic:
        message = d.message
        for full, name in written.items():
            message = message.replace(f" {full}:", f" \"{name}\":")
        return replace(d, message=message, span=decl.span, hint=d.hint or hint)

    return CheckError([d if d.span.source else placed(d) for d in err.diagnostics])


def card_files(model: RulesModel, path, texts: Mapping[Path, str] | None = None) -> tuple[Path, Path | None]:
    """The card file and its schema that the rules load. Rules without a
    `cards` declaration raise a CheckError that also names the other
    declarations every game needs and the rules lack."""
    if model.cards is None:
        top = Span(Source(str(path), source_text(Path(path), texts)), 1, 1, 1, 2)
        missing = [Diagnostic("error", f"the rules have no '{what}' declaration", top)
                   for what in ("game", "players", "setup", "turn") if getattr(model, what) is None
                   and not (what == "turn" and model.phases)]
        missing.append(Diagnostic("error", "the rules declare no card file (`cards \"cards.yaml\" into box`)", top))
        raise CheckError(missing)
    base = Path(model.cards_dir or Path(path).parent)
    return base / model.cards.path, (base / model.cards.schema if model.cards.schema else None)


def check_loaded(model: RulesModel, db, params: dict, card_fields: dict, problems: list) -> list:
    """The problems found while loading, then the checker's, then the types'
    (only once every name is known): errors and warnings."""
    diagnostics = problems + check(model, db, params, card_fields)
    if not any(d.severity == "error" for d in diagnostics):
        diagnostics += type_problems(model, db, params, card_fields) + unfit_shows(model, db)
    return diagnostics


def own_warnings(diagnostics: list, path, db) -> list:
    """The warnings about the rules file itself and its card data: warnings
    about a base file belong to checking that file, not its extensions."""
    return [d for d in diagnostics if d.severity == "warning"
            and (not d.span.source or d.span.filename in (str(path), db.source.name))]
