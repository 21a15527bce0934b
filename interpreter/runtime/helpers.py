"""What generated rule code calls at run time (the options of decisions,
statements, the answer of a decision where it is asked, what players look
at), and the values it shares with the engine.

Generated functions reach these through their namespace (as `R_<name>`), so
each helper is a small function of plain values; none of them knows a game.
The values rule code computes with are values.py's.
"""
from __future__ import annotations

from .. import limits
from .. import rng as _rng
from ..errors import InvalidActionError, RulesRuntimeError
from . import ops
from .calls import GameOver, runaway
from .values import render

LARGEST = limits.COUNTER_VALUE
PASS = "<pass>"  # the value of a "pass" option
NOT_ASKED = "<not asked>"  # the pick of a player a simultaneous choice had no option for
DONE = "<done>"  # the value of "done" when resolving effects in any order


# ---------------------------------------------------------------- options
def option_ids(program, kind, values) -> list:
    """Stable ids of option values: card ids, `player-N`, or the value's text."""
    if kind == "card":
        ids = program.card_ids
        return [ids[v] if isinstance(v, int) else render(v) for v in values]
    if kind == "player":
        return [f"player-{v + 1}" if isinstance(v, int) else render(v) for v in values]
    return [render(v) for v in values]


def collapse(st, cards) -> list:
    """Options over cards, with copies of one entry that lie in the same
    place (not in different slots) and bear the same counters and cards taken
    as one option: a player cannot tell them apart."""
    program = st.program
    groups, ids = program.card_groups, program.card_ids
    seen = set()
    out = []
    for card in cards:
        if not isinstance(card, int) or groups[card] == ids[card]:
            out.append(card)
            continue
        key = (groups[card], st.loc[card], _slot_if_slotted(st, card), _marks(st, card))
        if key not in seen:
            seen.add(key)
            out.append(card)
    return out


def _slot_if_slotted(st, card):
    zi = st.loc[card]
    return st.z[zi].index(card) if st.program.zone_of_instance[zi].slots else None


def _marks(st, card) -> tuple:
    """What a player sees on a card besides its face: its counters, and any
    card it holds (a card holding others is never like another)."""
    program = st.program
    held = any(c is not None for info in program.zones.values() if info.scope == "card"
               for c in st.z[info.base + card])
    return (card if held else None,) + tuple(st.ctr[c.index][card] for c in program.counter_list if c.scope == "card")


def _marked(st, card) -> bool:
    held, *counters = _marks(st, card)
    return held is not None or any(counters)


def card_option_ids(st, cards) -> list:
    """Option ids of cards after `collapse`. A copy is named by its group
    (`battery`); when several options would share that name, a copy marked
    with counters or holding cards is named by its own id (`battery-7`), and
    unmarked copies in different places by group and place (`battery@hand-2`),
    so the ids of one decision differ."""
    program = st.program
    groups, ids = program.card_groups, program.card_ids
    names = [groups[c] if isinstance(c, int) else render(c) for c in cards]
    copies = [isinstance(c, int) and groups[c] != ids[c] for c in cards]
    names = [ids[c] if copy and names.count(name) > 1 and _marked(st, c) else name
             for c, name, copy in zip(cards, names, copies)]
    return [f"{name}@{place_id(program, st.loc[c], _slot_if_slotted(st, c))}" if copy and names.count(name) > 1 else name
            for c, name, copy in zip(cards, names, copies)]


def place_id(program, zi, slot=None) -> str:
    """A place as an id: `hand-2` (player 2's hand), `row-3` (its third
    slot), `occupant-of-<card id>`."""
    info = program.zone_of_instance[zi]
    owner = zi - info.base
    if info.scope == "player":
        name = f"{info.name}-{owner + 1}"
    elif info.scope == "card":
        name = f"{info.name}-of-{program.card_ids[owner]}"
    else:
        name = info.name
    return name if slot is None else f"{name}-{slot + 1}"


def unique(values) -> list:
    return list(dict.fromkeys(values))


def resolve_options(st, remaining, effects):
    """Options of `resolve any`: each alternative of each remaining item whose
    effect can do something now (see `possible`), then done. The options a
    card's items give are kept for the program, with the conditions of the
    alternatives that have one, and only those are asked; while all of them
    hold, the kept lists themselves are the options (nobody changes them)."""
    found = st.program.resolve_options.get((remaining, effects))
    ids, values, checks = found if found is not None else _checked_options(st.program, remaining, effects)
    if not checks:
        return ids, values
    shut = None
    for k, when in checks:
        if not when(st):
            if shut is None:
                shut = set()
            shut.add(k)
    if shut is None:
        return ids, values
    if len(shut) == len(ids) - 1:  # only "done" would be left: nothing can do anything
        return [], []
    return _open(ids, shut), _open(values, shut)


def _open(items: list, shut: set) -> list:
    """`items` but those at the places `shut` (a function of its own, so that
    `resolve_options` keeps its names in fast locals, not in cells)."""
    return [item for k, item in enumerate(items) if k not in shut]


def _checked_options(program, remaining, effects):
    """(ids, values, (index, condition) of each value whose effect has a
    condition), kept in `program.resolve_options`."""
    ids, values, alts = _item_options(remaining, effects)
    conditions = program.effect_conditions
    found = ids, values, tuple((k, conditions[alt]) for k, alt in enumerate(alts) if alt in conditions)
    if len(program.resolve_options) < 100_000:
        program.resolve_options[(remaining, effects)] = found
    return found


def possible(st, alternatives) -> tuple:
    """The alternatives of an effect item whose effect's `when` holds now."""
    conditions = st.program.effect_conditions
    kept = []
    for a in alternatives:
        when = conditions.get(a)
        if when is None or when(st):
            kept.append(a)
    return tuple(kept)


# The items of a list of effects by how many it has, for `resolve any`'s
# items left at its start (made once: most cards have a few).
ALL_ITEMS = tuple(tuple(range(n)) for n in range(32))


def _item_options(remaining, effects):
    """(ids, values, the effect of each value but the last, done)."""
    ids, values = [], []
    for i in remaining:
        for alt in effects[i]:
            ids.append(f"{i + 1}:{alt}")
            values.append((i, alt))
    alts = tuple(alt for _, alt in values)
    if ids:
        ids.append("done")
        values.append(DONE)
    return ids, values, alts


# ---------------------------------------------------------------- statements
def move_all(st, value, zi, bottom, span):
    """`move X to Z` where X is a card or a list of cards."""
    if value is None:
        raise RulesRuntimeError("nothing to move (the value is none)", span)
    if isinstance(value, int):
        ops.move(st, value, zi, bottom)
    else:
        cards = tuple(value)
        if len(cards) < 2 or not ops.move_many(st, cards, zi, bottom):
            for card in cards:
                ops.move(st, card, zi, bottom)


def move_to_place(st, card, zi, place, unseen: bool, span):
    """`move c to Z at place N`: `card` on top of instance `zi`, then down
    to the N-th place from the top (past the bottom: at the bottom). With
    `unseen` (the place is a secret choice), the other players who knew the
    card know only that it lies somewhere in `zi` (ops.knew_in)."""
    if card is None:
        raise RulesRuntimeError("nothing to move (the value is none)", span)
    if st.program.zone_of_instance[zi].slots:
        raise RulesRuntimeError("`at place` puts a card in a pile, not in a row of slots", span)
    if not isinstance(place, int) or place < 1:
        raise RulesRuntimeError(f"`at place` counts places from 1 (the top), not {render(place)}", span)
    ops.move(st, card, zi)
    zone = ops.zone_to_change(st, zi)
    zone.insert(max(0, len(zone) - place), zone.pop())
    if unseen:
        others = st.known[card] & ~(1 << st.me | st.program.seers[zi])
        ops.knew_in(st, card, others)
        st.known[card] &= ~others


def negative(amount, verb, name, span):
    raise RulesRuntimeError(f"cannot {verb} {render(amount)} {name}: the amount must be 0 or more", span,
                            f"write `{'lose' if verb == 'gain' else 'gain'} {render(-amount)} {name}` for the other way")


def too_large(value, name, span):
    raise RulesRuntimeError(f"counter '{name}' would reach {render(value)}, beyond the largest number a counter "
                            f"may hold (10^18 either way)", span, "give the counter a `min` and a `max`, or stop it growing")


def steps(st, items, span):
    """`items`, gone through inside another loop of an expression: counted
    against the step budget, so nested loops cannot run without end."""
    if st is not None:
        st.steps += len(items)
        if st.steps > st.program.step_budget:
            runaway(st, span)
    return items


def cannot_pay(amount, have, name, span) -> RulesRuntimeError:
    return RulesRuntimeError(f"cannot pay {render(amount)} {name}: only {have} available", span)


def seat(st, p, what, span) -> int:
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < st.n:
        raise RulesRuntimeError(f"{what}, got {render(p)}", span)
    return p


def no_action(span):
    raise RulesRuntimeError("no action is possible for the acting player", span)


def end_now(st, lost, won, span=None):
    """`end game now`, `end game lost` (everyone loses), `end game won` (everyone wins)."""
    st.lost, st.won = lost, won
    if st.events is not None:
        st.events.append(("end", "lost" if lost else "won" if won else "now", span))
    raise GameOver()


def end_after(st, rounds, span=None):
    target = st.round + rounds
    if st.end_round is None or target < st.end_round:
        st.end_round = target
        if st.events is not None:
            st.events.append(("last round", target, span))


def take(st, fr, i) -> None:
    """Take option `i` of the pending decision: the position moves on (the
    decision is cleared and counted, its id joins the history) and the rule
    asking, whose frame is `fr`, is set to resume with the value chosen."""
    point, value, action = st.point, st.option_values[i], st.option_ids[i]
    st.decider = st.point = st.option_ids = st.option_values = st.observed = None
    st.decisions += 1
    if st.seed is not None:
        st.history = (st.history, action)
    st.program.decisions[point].apply(st, fr, value)


_DRAWS = _rng.Draws  # (a random chooser: read once per decision of every playout)


def answered(st, vals, ids_in=None) -> int:
    """Answer the decision about to be asked where it is asked, when the
    state plays on by itself (`st.auto`, see GameState.play_out) and the
    deciding seat has a function answering for it: the index among `vals`
    of the option the acting player's chooser takes, the decision counted,
    its id in the history; the generated code goes on with it at once, as
    `apply_action` would have resumed the rule (taking the option itself or
    by the point's `apply`), and never makes the decision pending. -1 (the
    rule suspends as usual) at the decision budget, so that it is reported
    as it is without `auto` (as is a trigger's decision: `run_nested` runs
    the trigger without `auto`).
    The options' ids are `vals` themselves, or with `ids_in` the entries of
    that table for them, made only for a chooser that reads them: a random
    chooser (rng.Draws) draws a position and only the id taken is looked up;
    it observes nothing, so the observations kept stay cleared, as the
    `apply_action` that started the run left them.
    This runs at every decision of every playout."""
    choose = st.auto[st.me]
    decisions = st.decisions
    if choose.__class__ is _DRAWS:  # (Draws.position written out, its mask a literal: once per decision of every playout)
        if decisions >= st.program.decision_budget:
            return -1
        x = choose.state = (choose.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        i = ((x ^ (x >> 31)) * len(vals)) >> 64
        action = vals[i] if ids_in is None else ids_in[vals[i]]
    else:
        if choose is None or decisions >= st.program.decision_budget:
            return -1
        ids = vals if ids_in is None else list(map(ids_in.__getitem__, vals))  # (no closure: ids_in stays a fast local)
        action = choose(ids)
        try:
            i = ids.index(action)
        except ValueError:
            raise not_legal(action, ids) from None
        st.observed = None  # (a chooser may have observed the position: it changes now)
    st.decisions = decisions + 1
    if st.seed is not None:
        st.history = (st.history, action)
    st.steps = 0  # the step budget is per decision, as `run` counts it
    return i


def not_legal(action, ids) -> InvalidActionError:
    return InvalidActionError(f"'{action}' is not a legal action here; legal: {', '.join(ids)}")


def forced(st, fr, point, value):
    """Tell a decision that had one option, taken without asking (with its
    label, made now from the frame `fr` of the rule asking, while its locals
    are as the label reads them)."""
    label = st.program.decisions[point].label(st, fr, value)
    st.events.append(("decision", st.me, point, value, label, True, tuple(st.known)))


def seats_together(st) -> tuple:
    """The players of a simultaneous choice, in the order they are asked:
    the round's order (from the first player before the first round)."""
    if st.order:
        return tuple(st.order)
    return tuple((st.first + i) % st.n for i in range(st.n))


def responders(st, start, span=None) -> tuple:
    """The players offered reactions to an event `me` announces: every other
    player, in seat order from `start` (None: the player after `me`)."""
    me, n = st.me, st.n
    first = (me + 1) % n if start is None else seat(st, start, "`announce ... from` needs a player", span)
    return tuple(p for p in ((first + i) % n for i in range(n)) if p != me)


def reveal(st, fr, point, seats, picks):
    """Tell the picks of a simultaneous choice, now that all are made: each
    labelled as its player reads it. A player who was not asked (no
    option) made no pick, so it is not named; when nobody was asked there is
    nothing to tell."""
    decision = st.program.decisions[point]
    me = st.me
    told = []
    try:
        for seat, value in zip(seats, picks):
            if value == NOT_ASKED:
                continue
            st.me = seat
            told.append((seat, value, decision.label(st, fr, value)))
    finally:
        st.me = me
    if told:
        st.events.append(("reveal", point, tuple(told), tuple(st.known)))


def counter_changed(st, counter, owner, before, after):
    if before != after:
        st.events.append(("counter", counter, owner, before, after))


def pick(st, values):
    """One of `values` drawn with the state's generator."""
    st.rng, i = _rng.below(st.rng, len(values))
    return values[i]


# ---------------------------------------------------------------- who knows what
def _cards(value, what, span) -> tuple:
    if value is None:
        raise RulesRuntimeError(f"nothing to {what} (the value is none)", span)
    return (value,) if isinstance(value, int) else tuple(c for c in value if c is not None)


def look(st, cards, seats, looks: bool, span):
    """`look at X` (the acting player, `looks`) or `reveal X to P`: the seats
    know the cards where they lie; told as ("look", seats mask, cards, looker or None)."""
    cards = _cards(cards, "look at" if looks else "reveal", span)
    mask = 0
    for p in (seats,) if isinstance(seats, int) else seats:
        mask |= 1 << seat(st, p, "`reveal ... to` needs a player or players", span)
    known = st.known
    for card in cards:
        known[card] |= mask
    if st.events is not None and cards:
        st.events.append(("look", mask, cards, st.me if looks else None))


def reorder_start(st, cards, span) -> tuple:
    """The cards of `reorder X`, all in one zone instance: the acting player
    sees them; no one else can tell any more which of them lies where."""
    cards = _cards(cards, "reorder", span)
    places = {st.loc[c] for c in cards}
    if len(places) > 1 or len(set(cards)) != len(cards):
        raise RulesRuntimeError("`reorder` puts back cards lying in one zone, each once; these lie in "
                                f"{len(places)} zones", span)
    for card in cards:
        ops.knew_in(st, card, st.known[card] & ~(1 << st.me))
        st.known[card] = 1 << st.me
    if st.events is not None and cards:
        st.events.append(("look", 1 << st.me, cards, st.me))
    return cards
