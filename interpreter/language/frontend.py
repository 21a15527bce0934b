"""The front end as one step: read a rules file and the files it extends,
load its cards, evaluate its parameters, parse typed card fields and check
everything. Nothing is compiled; `loader.load_game` compiles what passes.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import CheckError, Diagnostic, Source, Span
from .cards import CardDB, load_card_fields, load_cards
from .checker import check
from .model import RulesModel
from .params import evaluate_params
from .sources import load_model, read_text
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
        """Warnings about this file and its cards (a base file's own warnings
        belong to checking that file, not the files extending it)."""
        own = (self.path, self.db.source.name)
        return [d for d in self.diagnostics
                if d.severity == "warning" and (not d.span.source or d.span.filename in own)]


def check_rules(path: str | Path, overrides: dict | None = None) -> CheckedRules:
    """Check a rules file. Problems that stop checking early (syntax, a file
    that cannot be read, a card file that breaks its schema) raise a
    RulesError; every other problem is in the result's diagnostics."""
    model, problems = load_model(path)
    if problems:
        raise CheckError(problems)
    if model.cards is None:
        top = Span(Source(str(path), read_text(Path(path))), 1, 1, 1, 2)
        missing = [Diagnostic("error", f"the rules have no '{what}' declaration", top)
                   for what in ("game", "players", "setup", "turn") if getattr(model, what) is None]
        missing.append(Diagnostic("error", "the rules declare no card file (`cards \"cards.yaml\" into box`)", top))
        raise CheckError(missing)
    base = Path(model.cards_dir or Path(path).parent)
    db = load_cards(base / model.cards.path, base / model.cards.schema if model.cards.schema else None)
    params, problems = evaluate_params(model, dict(overrides or {}))
    card_fields, field_problems = load_card_fields(model, db)
    diagnostics = problems + field_problems + check(model, db, params, card_fields)
    if not any(d.severity == "error" for d in diagnostics):
        diagnostics += type_problems(model, db, params)  # types only once every name is known
    return CheckedRules(str(path), model, db, params, card_fields, diagnostics)
