"""Assemble a checked rules model and its cards into a runnable Program."""
from __future__ import annotations

import hashlib
import json

from ..engine.vm import build_main
from ..language.nodes import EffectList
from .boards import build_boards
from .expressions import ExprCompiler
from .program import CounterInfo, Program, Scope, ZoneInfo
from .statements import StmtCompiler


def compile_program(model, db, params: dict, card_fields: dict) -> Program:
    """`card_fields`: field name -> list per card of parsed values (EffectList,
    Expr, or dict of Expr) for the fields the rules declare typed."""
    cards = db.cards
    fields: dict = {}
    for card in cards:
        for name in card.data:
            fields.setdefault(name, [None] * len(cards))
    for name, values in fields.items():
        for card in cards:
            values[card.index] = _frozen(card.data.get(name))

    counters = {
        name: CounterInfo(name, i, d.scope, d.minimum, d.maximum, d.visibility)
        for i, (name, d) in enumerate(model.counters.items())
    }
    zones = {
        name: ZoneInfo(name, i, d.scope, d.slots, d.stack, d.visibility)
        for i, (name, d) in enumerate(model.zones.items())
    }
    program = Program(
        title=model.game.title if model.game else "game",
        min_players=model.players.minimum,
        max_players=model.players.maximum,
        params=params,
        cards=db,
        card_ids=[c.id for c in cards],
        card_names=[c.name for c in cards],
        card_kinds=[c.kind for c in cards],
        fields=fields,
        counters=counters,
        zones=zones,
        codes=[],
        main=0,
        setup_zone=model.cards.zone,
        effect_codes={},
        effect_labels={name: d.label or name for name, d in model.effects.items()},
        actions=[],
        score_terms=[],
        tiebreaks=[],
        turn_order=None,
        counter_list=list(counters.values()),
    )
    program.layout_zones()

    defines: dict = {}
    exprs = ExprCompiler(program, model, defines)
    # Effects first: card expressions may read effect fields (`draw in c.effects`).
    for name, values in card_fields.items():
        if any(isinstance(v, EffectList) for v in values):
            fields[name] = [_card_value(exprs, v) for v in values]
    for name, values in card_fields.items():
        if not any(isinstance(v, EffectList) for v in values):
            fields[name] = [_card_value(exprs, v) for v in values]
    for name, decl in model.defines.items():
        defines[name] = exprs.compile_define(decl)
    program.boards = build_boards(program, model, exprs)

    code_index: dict = {}
    bodies = []
    for name, decl in model.effects.items():
        bodies.append((name, f"effect {name}", (), decl.body, f"effect {name}"))
    for name, decl in model.procedures.items():
        bodies.append((name, f"procedure {name}", decl.params, decl.body, name.replace("_", " ")))
    for name, decl in model.actions.items():
        bodies.append((("action", name), f"action {name}", (), decl.body, name.replace("_", " ")))
    for moment, decl in model.hooks.items():
        bodies.append((("hook", moment), f"at {moment}", (), decl.body, moment))
    for zone, decl in model.empty_hooks.items():
        bodies.append((("empty", zone), f"when {zone} becomes empty", (), decl.body, f"{zone} empty"))
    bodies.append((("setup",), "setup", (), model.setup.body, "setup"))
    bodies.append((("turn",), "turn", (), model.turn.body, "turn"))
    for i, (key, *_rest) in enumerate(bodies):
        code_index[key] = i + 1  # code 0 is the main loop
    program.codes = [None]
    for key, name, params_, body, prompt in bodies:
        program.codes.append(StmtCompiler(program, exprs, model, code_index).compile_code(name, params_, body, prompt))
    program.effect_codes = {name: code_index[name] for name in model.effects}
    for zone, decl in model.empty_hooks.items():
        zones[zone].empty_hook = code_index[("empty", zone)]
    hooks = {moment: code_index[("hook", moment)] for moment in model.hooks}
    program.codes[0] = build_main(program, code_index[("setup",)], code_index[("turn",)], hooks)

    for label, term in model.score_terms.items():
        program.score_terms.append((label, _closed(exprs, term.expr)))
    if model.tiebreak is not None:
        program.tiebreaks = [_closed(exprs, e) for e in model.tiebreak.exprs]
    if model.turn_order is not None:
        order = _closed(exprs, model.turn_order.seats)
        program.turn_order = lambda st: order(st)
    for name, decl in model.shows.items():
        program.card_views[name] = _card_view(exprs, decl.template)
    program.fingerprint = fingerprint(model, db, params)
    return program


def _closed(exprs, expr):
    """A closure over its own locals, callable as fn(st)."""
    scope = Scope()
    fn = exprs.compile(expr, scope)
    size = max(scope.size, 1)
    return lambda st, L=None: fn(st, [None] * size)


def _card_view(exprs, template):
    """fn(st, card) -> text, for a `show` template with `card` bound."""
    scope = Scope({"card": 0}, 1, {"card": "card"})
    fn = exprs.template(template, scope)
    return lambda st, card: fn(st, [card] + [None] * (scope.size - 1))


def _card_value(exprs, value):
    """Effects become tuples of alternatives; expressions become closures."""
    if value is None:
        return None
    if isinstance(value, EffectList):
        return tuple(item.alternatives for item in value.items)
    if isinstance(value, dict):
        return {k: _closed(exprs, v) for k, v in value.items()}
    return _closed(exprs, value)


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def fingerprint(model, db, params) -> str:
    """A hash of everything that defines the game, to match saves to rules."""
    h = hashlib.sha256()
    for path in model.files:
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(path.encode())
    h.update(db.source.text.encode())
    h.update(json.dumps(params, sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]
