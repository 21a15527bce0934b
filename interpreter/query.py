"""Select cards of a game's database with an expression over their fields,
e.g. ``cost >= 4 and colour == "red"`` (used by the `cards --where` command)."""
from __future__ import annotations

from .compiler.codegen import Module
from .compiler.exprgen import ExprGen
from .compiler.scope import Names
from .errors import Diagnostic, RulesError, RulesRuntimeError, Source, did_you_mean
from .language.builtins import FUNCTIONS
from .language import nodes as n
from .language.parser import parse_expression
from .language.types import Types


def card_fields(game) -> list[str]:
    """Field names in the order they first appear in the card file."""
    names: list = []
    for card in game.program.cards.cards:
        for name in card.data:
            if name not in names:
                names.append(name)
    return names


def _field_value(game, name, card):
    value = game.program.fields.get(name, [None] * (card.index + 1))[card.index]
    if isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
        return tuple(alt for item in value for alt in item)  # `draw in effects`
    return value if value is not None and not callable(value) and not isinstance(value, dict) else card.data.get(name)


def select_cards(game, where: str | None = None, kind: str | None = None) -> list:
    cards = game.program.cards.cards
    if kind is not None:
        kinds = game.program.cards.kinds
        if kind not in kinds:
            raise RulesError(f"no card kind '{kind}'", hint=did_you_mean(kind, kinds) or f"kinds: {', '.join(kinds)}")
        cards = [c for c in cards if c.kind == kind]
    if not where:
        return list(cards)
    source = Source("--where", where)
    expr = parse_expression(where, source)
    fields = card_fields(game)
    known = set(fields) | set(game.program.params) | set(game.program.effect_codes) | {"kind", "id"}
    unknown = [node for node in _names(expr) if node.name not in known]
    if unknown:
        texts = {v for card in cards for v in card.data.values() if isinstance(v, str)}
        raise RulesError([Diagnostic("error", f"unknown card field '{u.name}'", u.span,
                                     f'to compare with the text {u.name}, write it in quotes: "{u.name}"'
                                     if u.name in texts else did_you_mean(u.name, known)) for u in unknown])
    fixed = sorted(name for name, b in FUNCTIONS.items() if b.fixed)
    for node in n.walk(expr):
        if isinstance(node, n.Call) and node.name not in fixed:
            raise RulesError(f"{node.name}() reads a game in progress; a card query can use only the card's "
                             "fields, parameters and fixed functions", node.span, f"functions: {', '.join(fixed)}")
    names = Names()
    for i, name in enumerate(fields + ["kind", "id"]):
        names = names.bind(name, f"L[{i}]")
    module = Module("--where")
    exprs = ExprGen(game.program, game.model, module, Types(game.model, game.program.cards, game.program.params))
    fn_name = exprs.function(expr, names, "--where")
    module.build()
    fn = module.ns[fn_name]
    chosen = []
    for card in cards:
        L = [_field_value(game, name, card) for name in fields] + [card.kind, card.id]
        try:
            keep = fn(None, L)
        except RulesRuntimeError:
            keep = False  # e.g. a field this card does not have
        if keep:
            chosen.append(card)
    return chosen


def _names(expr):
    """Free names of an expression (not the variables it binds)."""
    bound = {node.var for node in n.walk(expr) if isinstance(node, n.Aggregate)}
    return [node for node in n.walk(expr) if isinstance(node, n.Name) and node.name not in bound]
