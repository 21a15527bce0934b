"""Assemble a checked rules model and its cards into a runnable Program."""
from __future__ import annotations

import hashlib
import json

from ..errors import RulesRuntimeError
from ..language import nodes as n
from ..language.nodes import EffectList
from ..language.typecheck import typed
from ..language.value_types import CARD, PLAYER, PLAYERS
from ..runtime import calls, memory, ops, picks
from ..runtime import helpers as rt
from .blocks import fill_rooms, forward_calls
from .boards import adjacency_functions, build_boards
from .codegen import Module
from .decisions import spoke
from ..runtime.explain import not_open
from .exprgen import ExprGen
from .scope import Names
from .flowgen import hooks_with_windows
from .program import CounterInfo, Program, ZoneInfo
from .rounds import Phase, build_main, pass_phase
from .stmtgen import RuleGen, resumable_rules


def compile_program(model, db, params: dict, card_fields: dict, coverage: bool = False) -> Program:
    """`card_fields`: field name -> list per card of parsed values (EffectList,
    Expr, or dict of Expr) for the fields the rules declare typed. With
    `coverage`, the code counts every run of each rule and every read of a
    card's field in the coverage of states started with coverage
    (`GameState.rule_coverage`, `GameState.card_reads`); without, it has no
    counting at all.

    The steps run in this order, which is also the order names are given in
    the generated module (the `compile` command's text depends on it)."""
    program = _layout(model, db, params)
    module = Module(model.files[-1] if model.files else program.title)
    program.coverage = coverage
    program.won_together = any(isinstance(x, n.EndGame) and x.won for x in model.nodes())
    exprs = ExprGen(program, model, module, typed(model, db, params, card_fields), coverage)
    for name, values in card_fields.items():
        program.fields[name] = [_card_value(exprs, v, name) for v in values]
    adjacency = adjacency_functions(model, exprs)
    bodies, hook_decls = _rule_bodies(model, exprs)
    ctx = _generate_rules(program, model, module, exprs, bodies)
    functions = _expression_functions(model, exprs)

    _register_runtime(module, program, ctx.runs)
    module.build()
    ns = module.ns
    exprs.tables.finish(ns)
    _resolve_card_functions(program.fields, card_fields, ns)
    program.boards = build_boards(program, model, {kind: ns[fn] for kind, fn in adjacency.items()})
    _link_rules(program, model, ctx, hook_decls, functions)
    exprs.refresh_fields()
    _link_expressions(program, model, exprs, functions, ns)
    program.module = module
    program.set_step_budget(program.step_budget)
    program.fingerprint = fingerprint(model, db, params)
    return program


def _layout(model, db, params: dict) -> Program:
    """The program's layout before any code: the cards' fields, counters and
    zones (with their instances laid out), names and labels."""
    cards = db.cards
    fields: dict = {}
    for card in cards:
        for name in card.data:
            if name not in fields:  # (setdefault would build the list for every card: quadratic)
                fields[name] = [None] * len(cards)
    for name, values in fields.items():
        for card in cards:
            values[card.index] = _frozen(card.data.get(name))

    counters = {
        name: CounterInfo(name, i, d.scope, d.minimum, d.maximum, d.visibility, d.holds_player, d.unlisted)
        for i, (name, d) in enumerate(model.counters.items())
    }
    zones = {
        name: ZoneInfo(name, i, d.scope, d.slots, d.stack, d.visibility, size_hidden=d.size_hidden,
                       top_visible=d.top_visible)
        for i, (name, d) in enumerate(model.zones.items())
    }
    program = Program(
        title=model.game.title if model.game else "game",
        min_players=model.players.minimum,
        max_players=model.players.maximum,
        params=params,
        cards=db,
        card_ids=[c.id for c in cards],
        card_groups=[c.group for c in cards],
        card_names=[c.name for c in cards],
        card_kinds=[c.kind for c in cards],
        card_backs=card_backs(model.backs, cards),
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
    return program


def _rule_bodies(model, exprs) -> tuple:
    """Every rule to compile to a function, in code order, as (key, rule
    name, parameters (name -> type), body, prompt, declaration); and the
    hooks (with the engine's response windows added)."""
    bodies = []
    for name, decl in model.effects.items():
        bodies.append((name, f"effect {name}", {}, decl.body, f"effect {name}", decl))
    for name, decl in model.procedures.items():
        bodies.append((name, f"procedure {name}", exprs.types.parameters("procedure", decl), decl.body, name.replace("_", " "), decl))
    for name, decl in model.actions.items():
        bodies.append((("action", name), f"action {name}", {}, decl.body, name.replace("_", " "), decl))
    for name, decl in model.reactions.items():
        bodies.append((("reaction", name), f"reaction {name}", exprs.types.parameters("reaction", decl), decl.body, name.replace("_", " "), decl))
    hook_decls = hooks_with_windows(model)
    for moment, decl in hook_decls.items():
        bodies.append((("hook", moment), f"at {moment}", {}, decl.body, moment, decl))
    for zone, decl in model.empty_hooks.items():
        bodies.append((("empty", zone), f"when {zone} becomes empty", {}, decl.body, f"{zone} empty", decl))
    bodies.append((("setup",), "setup", {}, model.setup.body, "setup", model.setup))
    if model.phases:
        for name, decl in model.phases.items():
            bodies.append((("phase", name), f"phase {name}", {}, decl.body, name.replace("_", " "), decl))
    else:
        bodies.append((("turn",), "turn", {}, model.turn.body, "turn", model.turn))
    return bodies, hook_decls


def _generate_rules(program, model, module, exprs, bodies) -> "RuleContext":
    """Generate the function of each rule (code 0, the main loop, is made
    once the module is built)."""
    code_index = {key: i + 1 for i, (key, *_rest) in enumerate(bodies)}
    resumable = resumable_rules(model, {key: body for key, _, _, body, _, _ in bodies})
    ctx = RuleContext(program, model, module, exprs, code_index,
                      {code_index[key] for key in resumable})
    ctx.function_names = {code_index[key]: module.function_name(name) for key, name, *_ in bodies}
    program.codes = [None]
    for key, name, params_, body, prompt, decl in bodies:
        gen = RuleGen(ctx, code_index[key], name, params_, body, prompt, code_index[key] in ctx.resumable, decl.span)
        program.codes.append(gen.generate())
    fill_rooms(module.functions, program.codes)
    ctx.runs = forward_calls(module.functions, ctx.function_names, program.codes)
    program.effect_codes = {name: code_index[name] for name in model.effects}
    program.actions = list(model.actions)
    return ctx


def _expression_functions(model, exprs) -> dict:
    """The names of the generated functions of the expressions the program
    keeps: effects' conditions, score terms, tiebreaks, turn orders (the
    game's and the phases' own), the best cooperative score, teams, shown values and card views."""
    return {
        "conditions": {name: exprs.function(decl.when, Names(), f"effect {name}", name=f"effect {name} when")
                       for name, decl in model.effects.items() if decl.when is not None},
        "score_terms": [(label, exprs.function(term.expr, Names(), f"score {label}", name=f"score term {i + 1}"))
                        for i, (label, term) in enumerate(model.score_terms.items())],
        "tiebreaks": [exprs.function(e, Names(), "tiebreak", name=f"tiebreak {i + 1}")
                      for i, e in enumerate(model.tiebreak.exprs)] if model.tiebreak is not None else [],
        "order": exprs.function(model.turn_order.seats, Names(), "turn order") if model.turn_order is not None else None,
        "best": exprs.function(model.cooperative.best, Names(), "cooperative score") if model.cooperative else None,
        "team": exprs.function(model.teams.team, Names(), "teams by") if model.teams else None,
        "markers": [_marker_functions(exprs, decl) for decl in model.markers.values()],
        "phase_orders": {name: exprs.function(decl.order.expr, Names(), f"phase {name} order", decl.order.span)
                         for name, decl in model.phases.items() if decl.order is not None and decl.order.expr is not None},
        "shown": [exprs.function(n.Name(name, span=decl.span), Names(), f"show {name}", decl.span, name=f"show {name}")
                  for name, decl in model.shown_values.items()],
        "views": {name: exprs.function(decl.template, Names().bind("card", "L[0]", CARD), f"show {name}", decl.span,
                                       template=True)
                  for name, decl in model.shows.items()},
    }


def _link_rules(program, model, ctx, hook_decls, functions: dict) -> None:
    """Give each rule its built function, the zones their `becomes empty`
    hooks, the phases their codes, and the program its main loop and
    decision points."""
    ns, code_index, zones = ctx.module.ns, ctx.code_index, program.zones
    for zone in model.empty_hooks:
        zones[zone].empty_hook = code_index[("empty", zone)]
    hooks = {moment: code_index[("hook", moment)] for moment in hook_decls}
    for i, code in enumerate(program.codes[1:], 1):
        code.fn = ns[ctx.function_names[i]]
    if model.phases:
        program.phases = [Phase(code_index[("phase", name)], decl.play, name, decl.label,
                                _phase_order(decl, ns.get(functions["phase_orders"].get(name))))
                          for name, decl in model.phases.items()]
        phases = program.phases
    else:
        phases = [Phase(code_index[("turn",)], "once")]
    program.codes[0] = build_main(program, code_index[("setup",)], phases, hooks)
    program.decisions = ctx.points
    for point in ctx.points:
        point.finish(ns)


def _link_expressions(program, model, exprs, functions: dict, ns: dict) -> None:
    """Put the built functions of the kept expressions in their places."""
    program.score_terms = [(label, ns[fn]) for label, fn in functions["score_terms"]]
    program.effect_conditions = {name: ns[fn] for name, fn in functions["conditions"].items()}
    program.tiebreaks = [ns[fn] for fn in functions["tiebreaks"]]
    program.turn_order = ns[functions["order"]] if functions["order"] else None
    program.shared_best = ns[functions["best"]] if functions["best"] else None
    program.team_of = ns[functions["team"]] if functions["team"] else None
    program.effect_reasons = {name: not_open(decl) for name, decl in model.effects.items() if not_open(decl)}
    program.card_views = {name: _card_view(ns[fn]) for name, fn in functions["views"].items()}
    program.shown_values = {name: (decl.visibility, ns[fn])
                            for (name, decl), fn in zip(model.shown_values.items(), functions["shown"])}
    program.shown_players = {name for name in model.shown_values
                             if exprs.types.of(n.Name(name), {}) in (PLAYER, PLAYERS)}
    program.markers = [(name, cards, *(ns[fn] for fn in fns)) for name, cards, *fns in functions["markers"]]


class RuleContext:
    """What the rule generators of one program share."""

    def __init__(self, program, model, module, exprs, code_index: dict, resumable: set):
        self.program, self.model, self.module, self.exprs = program, model, module, exprs
        self.code_index = code_index
        self.resumable = resumable  # code indices of rules that may reach a decision
        # the names of the resumable procedures and effects (a call to one may reach a decision)
        self.resumable_names = {key for key, i in code_index.items() if i in resumable and isinstance(key, str)}
        self.points: list = []
        self.function_names: dict = {}  # code index -> the name of its generated function
        self.runs: dict = {}  # code index -> the code a call of it runs in its place (blocks.forward_calls)

    def add_point(self, point) -> None:
        point.id = len(self.points)
        self.points.append(point)


def _register_runtime(module, program, runs: dict) -> None:
    ops_helpers = {"move": ops.move, "deal": ops.deal, "shuffle": ops.shuffle, "slide": ops.slide, "refill": ops.refill,
                   "lay": ops.lay, "show_options": ops.show_options, "show_cards": ops.show_cards,
                   "chosen": ops.chosen,
                   "walked": ops.walked}
    for name, fn in ops_helpers.items():
        module.helper(f"R_{name}", fn)
    for name in ("move_all", "cannot_pay", "negative", "too_large", "seat", "no_action", "end_now", "end_after",
                 "pick", "option_ids", "unique", "resolve_options", "possible", "forced", "counter_changed",
                 "collapse", "card_option_ids", "seats_together", "reveal", "responders", "look",
                 "reorder_start", "answered", "move_to_place"):
        module.helper(f"R_{name}", getattr(rt, name))
    for name in ("seats_repeated", "not_picked", "picks_by_seat"):
        module.helper(f"R_{name}", getattr(picks, name))
    module.helper("R_forget", memory.forget)
    module.helper("R_runaway", calls.runaway)
    module.helper("R_pass_phase", pass_phase)
    module.helper("R_spoke", spoke)
    effects = {name: runs.get(code, code) for name, code in program.effect_codes.items()}

    def effect(st, name, span):
        """Run the effect `name` (named by card data); SUSPEND if it asks."""
        code = effects.get(name)
        if code is None:
            raise RulesRuntimeError(f"unknown effect '{name}'", span)
        c = st.program.codes[code]
        if not c.resumable:  # (an effect takes no argument: run here, without calls.call's frame of its own)
            return c.fn(st)
        return calls.call(st, code)

    module.helper("R_effect", effect)
    module.helper("R_read", _read_counter(program))
    module.helper("S", calls.SUSPEND)
    module.helper("R_all_items", rt.ALL_ITEMS)
    module.helper("CARD_IDS", program.card_ids)
    module.helper("BUDGET", program.step_budget)


def _resolve_card_functions(fields: dict, card_fields: dict, ns: dict) -> None:
    """Card expressions were compiled by name; put the functions in their place."""
    for name, values in card_fields.items():
        resolved = fields[name]
        for i, value in enumerate(resolved):
            if isinstance(value, str):
                resolved[i] = ns[value]
            elif isinstance(value, dict):
                resolved[i] = {k: ns[v] for k, v in value.items()}


def _read_counter(program):
    """R_read(st, card) -> card, counting the read in the state's coverage
    (after the rules' counts) unless the card is still where every card
    starts: the rules sorting the box at setup do not use its cards."""
    base = len(program.codes)
    home = program.zones[program.setup_zone].base

    def read(st, card):
        cov = st.cov
        if cov is not None and card.__class__ is int and st.loc[card] != home:
            cov[base + card] += 1
        return card

    return read


def _card_view(fn):
    """fn(st, card) -> text, for a `show` template with `card` bound."""
    return lambda st, card: fn(st, [card])


def _card_value(exprs, value, field: str):
    """Effects become tuples of alternatives; expressions become the names of
    generated functions (functions once the module is built)."""
    if value is None:
        return None
    if isinstance(value, EffectList):
        return tuple(item.alternatives for item in value.items)
    if isinstance(value, dict):
        return {k: exprs.function(v, Names(), f"card field {field}", name="card field value") for k, v in value.items()}
    return exprs.function(value, Names(), f"card field {field}", name="card field value")


def _frozen(value):
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def fingerprint(model, db, params) -> str:
    """A hash of everything that defines the game, to match saves to rules."""
    h = hashlib.sha256()
    for path in model.files:
        if path in model.texts:  # read from a text given in place of the file
            h.update(model.texts[path].encode())
            continue
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:
            h.update(path.encode())
    h.update(db.source.text.encode())
    h.update(json.dumps(params, sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def card_backs(decl, cards) -> list:
    """Per card, its back (`backs:`): one back for all cards unless the
    rules say what tells them apart face down."""
    if decl is None:
        return [0] * len(cards)
    if decl.by == "kind":
        return [c.kind for c in cards]
    if decl.by == "kinds":
        return [c.kind if c.kind in decl.names else "" for c in cards]
    return [repr(c.data.get(decl.names[0])) for c in cards]


def _phase_order(decl, fn):
    """A phase's own order of play as rounds.py plays it: (how, function, where), or None."""
    if decl.order is None:
        return None
    return decl.order.by, fn, decl.order.span


def _marker_functions(exprs, decl) -> tuple:
    """(name, whether its values are cards, values, label, space) of a
    `marker`: the generated functions giving its list, and the label and the
    space of one of its values (L[0])."""
    rule = f"marker {decl.name}"
    kind = exprs.types.element(decl.iterable, Names().types)
    one = Names().bind(decl.var, "L[0]", kind)
    return (decl.name, kind == CARD, exprs.function(decl.iterable, Names(), rule, name=f"{rule} values"),
            exprs.function(decl.label, one, rule, decl.span, template=True),
            exprs.function(decl.space, one, rule, name=f"{rule} space"))
