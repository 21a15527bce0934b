"""A rules file's declarations gathered by name, after `extends` is applied.

A file that extends another replaces the base's declarations of the same name
(parameters, counters, zones, kinds, definitions, effects, procedures, actions,
hooks, score terms) and adds new ones; blocks such as `setup` and `turn` are
replaced whole.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..errors import Diagnostic, Span, did_you_mean
from . import nodes as n

# Declaration class -> (namespace, key function)
_NAMED = {
    n.ParamDecl: "params",
    n.CounterDecl: "counters",
    n.ZoneDecl: "zones",
    n.KindDecl: "kinds",
    n.DefineDecl: "defines",
    n.EffectDecl: "effects",
    n.ProcedureDecl: "procedures",
    n.ActionDecl: "actions",
    n.ShowDecl: "shows",
    n.ShowValueDecl: "shown_values",
    n.BoardDecl: "boards",
    n.PhaseDecl: "phases",
    n.ReactionDecl: "reactions",
    n.MarkerDecl: "markers",
}
_SINGLE = {
    n.GameDecl: "game",
    n.PlayersDecl: "players",
    n.CardsDecl: "cards",
    n.SetupDecl: "setup",
    n.TurnDecl: "turn",
    n.TiebreakDecl: "tiebreak",
    n.TurnOrderDecl: "turn_order",
    n.BacksDecl: "backs",
    n.CooperativeDecl: "cooperative",
    n.TeamsDecl: "teams",
}


@dataclass
class RulesModel:
    files: list = field(default_factory=list)  # paths, base first
    texts: dict = field(default_factory=dict)  # path -> text read in place of the file's (an editor's, a test's)
    game: Optional[n.GameDecl] = None
    players: Optional[n.PlayersDecl] = None
    cards: Optional[n.CardsDecl] = None
    cards_dir: Optional[str] = None  # directory the `cards` path is relative to
    setup: Optional[n.SetupDecl] = None
    turn: Optional[n.TurnDecl] = None
    tiebreak: Optional[n.TiebreakDecl] = None
    turn_order: Optional[n.TurnOrderDecl] = None
    backs: Optional[n.BacksDecl] = None
    cooperative: Optional[n.CooperativeDecl] = None  # a shared score is the players' objective
    teams: Optional[n.TeamsDecl] = None  # who plays with whom
    params: dict = field(default_factory=dict)
    counters: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)
    kinds: dict = field(default_factory=dict)
    defines: dict = field(default_factory=dict)
    effects: dict = field(default_factory=dict)
    procedures: dict = field(default_factory=dict)
    actions: dict = field(default_factory=dict)
    shows: dict = field(default_factory=dict)  # zone name or "cards" -> ShowDecl
    shown_values: dict = field(default_factory=dict)  # definition name -> ShowValueDecl
    boards: dict = field(default_factory=dict)  # kind of the space cards -> BoardDecl
    markers: dict = field(default_factory=dict)  # name -> MarkerDecl
    phases: dict = field(default_factory=dict)  # name -> PhaseDecl, in the order of play
    reactions: dict = field(default_factory=dict)  # name -> ReactionDecl, in the order they are offered
    hooks: dict = field(default_factory=dict)  # moment -> HookDecl
    empty_hooks: dict = field(default_factory=dict)  # zone -> EmptyHookDecl
    score_terms: dict = field(default_factory=dict)  # label -> ScoreTerm
    overridden: set = field(default_factory=set)  # (namespace, name) replaced by an extending file

    def callables(self) -> dict:
        """Every name a statement may call: procedures and effects."""
        return {**self.effects, **self.procedures}

    def reactions_to(self, event: str) -> list:
        """The reactions that answer `event`, in the order they are offered."""
        return [decl for decl in self.reactions.values() if decl.event == event]

    def has_effect_conditions(self) -> bool:
        return any(decl.when is not None for decl in self.effects.values())

    def rules(self):
        """Every declaration with a block of statements: effects, procedures,
        actions, hooks, phases, reactions, setup and the turn."""
        yield from (*self.callables().values(), *self.actions.values(), *self.hooks.values(),
                    *self.empty_hooks.values(), *self.phases.values(), *self.reactions.values())
        yield from (d for d in (self.setup, self.turn) if d is not None)

    def declarations(self):
        """Every declaration in force (after `extends`), each once."""
        for single in _SINGLE.values():
            decl = getattr(self, single)
            if decl is not None:
                yield decl
        for namespace in (*_NAMED.values(), "hooks", "empty_hooks", "score_terms"):
            yield from getattr(self, namespace).values()

    def nodes(self):
        """Every syntax node of the declarations in force, depth first."""
        for decl in self.declarations():
            yield from n.walk(decl)


def merge(model: RulesModel, tree: n.RulesFile, path: str, extends_base: bool) -> list:
    """Add one file's declarations to `model`; return problems.

    `extends_base` says whether `model` already holds a base file's
    declarations. Replacing one of them needs `override`; `override` of a name
    the base does not have is an error.
    """
    problems = []
    seen: dict = {}
    model.files.append(path)
    for item in tree.items:
        override = isinstance(item, n.Override)
        decl = item.decl if override else item
        key = _key(decl)
        if key is None:
            continue
        if key in seen:
            problems.append(Diagnostic(
                "error", f"{_describe(key)} is defined twice in this file",
                decl.span, f"the first definition is at line {seen[key].span.line}",
            ))
            continue
        seen[key] = decl
        namespace, name = key
        if namespace == "score":
            problems += _merge_score(model, decl, override, extends_base)
            continue
        existing = _lookup(model, namespace, name)
        if override and not extends_base:
            problems.append(Diagnostic("error", "'override' needs a base: this file extends no other rules file", item.span,
                                       'add `extends "base.rules"` at the top'))
        elif override and existing is None:
            candidates = getattr(model, namespace) if isinstance(getattr(model, namespace), dict) else {}
            hint = did_you_mean(name, candidates) if name else None
            problems.append(Diagnostic("error", f"nothing to override: the base rules have no {_describe(key)}",
                                       _name_span(decl.span, name), hint))
            continue
        elif not override and existing is not None and extends_base:
            where = f"{existing.span.filename}:{existing.span.line}" if existing.span.source else "the base rules"
            problems.append(Diagnostic("error", f"{_describe(key)} is already defined in the base rules ({where})", decl.span,
                                       "write `override` before it to replace it"))
            continue
        if override:
            model.overridden.add(key)
        _store(model, namespace, name, decl)
    return problems


def _merge_score(model, decl, override, extends_base) -> list:
    problems = []
    for term in decl.terms:
        exists = term.label in model.score_terms
        if override and not exists:
            hint = did_you_mean(term.label, model.score_terms)
            problems.append(Diagnostic("error", f"nothing to override: the base rules have no score term \"{term.label}\"", term.span, hint))
        elif not override and exists and extends_base:
            problems.append(Diagnostic("error", f"score term \"{term.label}\" is already in the base rules", term.span,
                                       "write `override score:` to replace terms of the base"))
        else:
            model.score_terms[term.label] = term
    return problems


def _key(item):
    cls = type(item)
    if cls in _NAMED:
        return (_NAMED[cls], item.name)
    if cls in _SINGLE:
        return (_SINGLE[cls], "")
    if cls is n.HookDecl:
        return ("hooks", item.moment)
    if cls is n.EmptyHookDecl:
        return ("empty_hooks", item.zone)
    if cls is n.ScoreDecl:
        return ("score", "")
    return None


def _name_span(span: Span, name: str) -> Span:
    """Where `name` is written on the first line of a declaration (`override
    param coin_limt = 10`): the place of a misspelt name, which an editor's
    quick fix replaces; the whole declaration where it is not found there."""
    found = re.search(rf"\b{re.escape(name)}\b", span.source.line(span.line)[span.column - 1:]) \
        if name and span.source else None
    if found is None:
        return span
    column = span.column + found.start()
    return Span(span.source, span.line, column, span.line, column + len(name))


def _describe(key) -> str:
    namespace, name = key
    singular = {"params": "parameter", "counters": "counter", "zones": "zone", "kinds": "kind",
                "defines": "definition", "effects": "effect", "procedures": "procedure",
                "actions": "action", "shows": "display", "shown_values": "shown value", "phases": "phase", "reactions": "reaction", "hooks": "hook",
                "empty_hooks": "trigger",
                "boards": "board"}
    if name:
        return f"{singular.get(namespace, namespace)} '{name}'"
    return f"the '{namespace.replace('_', ' ')}' block"


def _lookup(model, namespace, name):
    if namespace == "score":
        return model.score_terms or None
    value = getattr(model, namespace)
    return value.get(name) if isinstance(value, dict) else value


def _store(model, namespace, name, item):
    if namespace == "score":
        for term in item.terms:
            model.score_terms[term.label] = term
    elif isinstance(getattr(model, namespace), dict):
        getattr(model, namespace)[name] = item
    else:
        setattr(model, namespace, item)
