"""Texts that would tell how many cards a `size hidden` zone holds.

A pure pass beside the checker. A zone declared `size hidden` keeps its
number of cards from the players who do not see its cards; a label or a
`show` that reads `size(Z)` or `count x in Z` of such a zone would tell them.
Who reads a text:

- the label of a `choose` and a value shown `per player, owner only`: the
  deciding player (the player the value is worked out for), who may not see
  a shared zone, another player's zone, or its own `hidden` or `others only`
  zone; (the other players are told a choice only when they see the card
  it names, so a `choose` label is judged as read by its player alone);
- the label of an action, of a `may` and of a reaction, a `show` text of
  cards and a value shown to every player: every player, who may not see
  any `size hidden` zone (a visible zone cannot be `size hidden`).

Definitions are followed into their bodies; a value kept earlier with `let`
is not.
"""
from __future__ import annotations

from ..errors import Diagnostic
from . import nodes as n

def size_leaks(model) -> list[Diagnostic]:
    """A warning for each text that reads the size of a `size hidden` zone
    some player who reads the text may not see."""
    hidden = {name: decl for name, decl in model.zones.items() if decl.size_hidden}
    if not hidden:
        return []
    problems = []
    for text, what, everyone, span in (*texts_read(model), *told_texts(model)):
        found = _reads(model, hidden, text, (), set())
        leak = next((read for read in found if everyone or not read[2]), None)
        if leak is not None:
            problems.append(_warning(what, everyone, *leak, span))
    return problems


def texts_read(model):
    """(expression, what it is in words, whether every player reads it, where)."""
    for decl in model.actions.values():
        yield decl.label, f"the label of action '{decl.name}'", True, decl.label.span
    for decl in model.reactions.values():
        yield decl.label, f"the label of reaction '{decl.name}'", True, decl.label.span
    for decl in model.rules():
        for node in n.walk(decl):
            if isinstance(node, n.Choose) and node.label is not None:
                yield node.label, "the label of this choice", False, node.label.span
            if isinstance(node, n.Choose) and node.else_label is not None:
                yield node.else_label, "the label of passing this choice", False, node.else_label.span
            elif isinstance(node, n.May):
                yield node.label, "the label of this `may`", True, node.label.span
                if node.else_label is not None:
                    yield node.else_label, "the label of this `may`'s `else`", True, node.else_label.span
    for name, decl in model.shows.items():
        yield decl.template, f"`show {name}`", True, decl.template.span
    for name, decl in model.shown_values.items():
        target = model.defines.get(name)
        if target is not None and not target.params:
            yield target.expr, f"`show {name} per player`", decl.visibility != "owner", decl.span


def told_texts(model):
    """The texts of `tell`, read by every player, as texts_read gives texts."""
    for decl in model.rules():
        for node in n.walk(decl):
            if isinstance(node, n.Tell):
                yield node.text, "the text of this `tell`", True, node.text.span


def _reads(model, hidden: dict, expr, via: tuple, seen: set) -> list:
    """(zone, whether another player's, whether its reader sees it,
    definitions on the way) of each `size hidden` zone whose size `expr`
    reads, following the definitions it uses."""
    found = []
    for node in n.walk(expr):
        zone = None
        if isinstance(node, n.Call) and node.name == "size" and len(node.args) == 1:
            zone = node.args[0]
        elif isinstance(node, n.Aggregate) and node.op == "count":
            zone = node.iterable
        read = _zone_read(hidden, zone)
        if read is not None:
            found.append((*read, via))
        called = node.name if isinstance(node, (n.Name, n.Call)) else None
        if called in model.defines and called not in seen:
            seen.add(called)
            found += _reads(model, hidden, model.defines[called].expr, via + (called,), seen)
    return found


def _zone_read(hidden: dict, expr):
    """(zone, whether another player's, whether the acting player sees its
    cards) when `expr` names a `size hidden` zone, else None. `vault of p`
    may be another player's: the checker does not know p."""
    if isinstance(expr, n.Name) and expr.name in hidden:
        mine = True
    elif isinstance(expr, n.NameOf) and expr.name in hidden:
        mine = isinstance(expr.owner, n.Name) and expr.owner.name == "me"
    else:
        return None
    decl = hidden[expr.name]
    others = decl.scope == "player" and not mine
    return expr.name, others, decl.scope == "player" and mine and decl.visibility == "owner"


def _warning(what: str, everyone: bool, zone: str, others: bool, seen: bool, via: tuple, span) -> Diagnostic:
    through = f" (through the definition '{via[0]}')" if via else ""
    whose = " of another player" if others else ""
    if everyone:
        readers = "every player reads it, and not every player sees that zone's cards"
    else:
        readers = "its player may not see that zone's cards"
    return Diagnostic("warning", f"{what} tells how many cards zone '{zone}'{whose} holds{through}, "
                                 f"but '{zone}' is `size hidden`: {readers}", span,
                      "leave the number out of the text, or drop `size hidden` from the zone")
