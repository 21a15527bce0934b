"""Texts told to every player that read the faces of cards not every player sees.

A pure pass beside the checker (as sizecheck.py is for the sizes of zones).
A value shown `per player, visible` is told to every player as the rules
compute it: where it reads the face of a card of a zone not every player
sees (`sum c.points for c in hand`), it tells the others what that zone
holds. That may be the rule (a score everyone keeps track of) or a leak;
the warning lets the designer judge. (A label's part read from such a card
is withheld from whoever does not see it: language/reads.py.)
"""
from __future__ import annotations

from ..errors import Diagnostic
from . import nodes as n
from .reads import card_sources, names_used
from .sizecheck import told_texts, texts_read


def face_leaks(model, types) -> list[Diagnostic]:
    """A warning for each value shown to every player, and each label of an
    action, a `may` or a reaction, that reads the face of a card lying
    where not every player sees it."""
    problems = _labels_withheld(model, types) + _counters_told(model)
    for name, decl in model.shown_values.items():
        target = model.defines.get(name)
        if decl.visibility == "owner" or target is None or target.params:
            continue
        hidden = _hidden_zones(model, types, target.expr)
        if hidden:
            problems.append(Diagnostic(
                "warning", f"`show {name} per player` tells every player a value read from the cards of zone "
                           f"'{hidden[0]}', which not every player sees", decl.span,
                "write `show ... per player, owner only` if only its player may know it; "
                "`check --leaks` shows what it tells"))
    return problems


def _labels_withheld(model, types) -> list[Diagnostic]:
    """Labels read as the deciding player's words by everyone (an action's,
    a `may`'s, a reaction's) with a part read from a hidden zone's cards:
    that part is withheld from the players who do not see them."""
    problems = []
    for text, what, everyone, span in texts_read(model):
        if not everyone or not isinstance(text, n.Template):
            continue
        hidden = _hidden_zones(model, types, text)
        if hidden:
            problems.append(Diagnostic(
                "warning", f"{what} reads the cards of zone '{hidden[0]}', which not every player sees: "
                           "that part is withheld from the players who do not see them", span,
                "name the card in the block (a choice's label), or leave it out of the label"))
    return problems


def _counters_told(model) -> list[Diagnostic]:
    """A `tell` is told to every player; a part of it read from a counter
    not every player sees is withheld only where it is the acting player's
    own `owner only` counter (named alone): any other is told to all."""
    problems = []
    for text, what, _, span in told_texts(model):
        for part in text.parts:
            told = _private_counters(model, part, frozenset())
            if told:
                problems.append(Diagnostic(
                    "warning", f"{what} reads counter '{told[0]}', which not every player sees: every player is told it",
                    part.span, "only the acting player's own `owner only` counter, named alone, is withheld from the others"))
                break
    return problems


def _private_counters(model, expr, seen: frozenset) -> list:
    """The counters `expr` reads that not every player sees, but for an
    `owner only` counter per player named alone (the acting player's own);
    definitions followed."""
    if isinstance(expr, str):
        return []
    found = []
    for node in n.walk(expr):
        counter = model.counters.get(node.name) if isinstance(node, (n.Name, n.NameOf)) else None
        own = isinstance(node, n.Name) and counter is not None and counter.scope == "player" and counter.visibility == "owner"
        if counter is not None and counter.visibility != "visible" and not own:
            found.append(node.name)
        if isinstance(node, (n.Name, n.Call)) and node.name in model.defines and node.name not in seen:
            found += _private_counters(model, model.defines[node.name].expr, seen | {node.name})
    return found


def _hidden_zones(model, types, expr) -> list:
    zones = set().union(*(_zones(model, source, frozenset()) for source, _ in card_sources(expr, {}, types, model)))
    return sorted(zone for zone in zones if model.zones[zone].visibility != "visible")


def _zones(model, expr, seen: frozenset) -> set:
    """The zones `expr` names, definitions followed."""
    found = set()
    for name in names_used(expr):
        if name in model.zones:
            found.add(name)
        elif name in model.defines and name not in seen:
            found |= _zones(model, model.defines[name].expr, seen | {name})
    return found
