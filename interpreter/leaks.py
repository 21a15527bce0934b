"""Leaks: whether a seat learns what the table would not tell it.

A designer's rules may tell a player about a card that player cannot see: a
visible counter gaining a hidden card's value, an action offered only when
another player's hidden hand holds something, a value shown to everyone that
reads a hidden zone. The engine cannot tell such a rule from an honest one,
but a difference can be watched: two positions that differ only in cards a
seat can neither see nor know (twins) must tell that seat the same things.

`find_leaks` plays seeded games with random answers and, at positions along
each game, for each seat, swaps two such cards of the same back in a clone,
then plays both twins on with the same answers, comparing at every step, as
long as neither swapped card is seen or known by the seat, what the seat is
told in each (`CHANNELS`). Whatever differs is a leak, reported once per
channel and rules line with the rules line that made it. Everything read
here is read through the public API (`observation`, `decision(viewer=...)`,
`events.tell_all`, visibility.py), so the detector judges what the engine
really tells.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field

from . import rng as _rng
from . import events as _events
from . import visibility
from .agents import make_agent
from .compiler.decisions import ActionPoint
from .runtime.ops import zone_to_change
from .runtime.calls import FRAME_CODE, FRAME_LOCALS
from .engine import invariants
from .errors import NO_SPAN, RulesError
from .play import world_sampler

# What a seat is told, each compared between twins (`compare`), and how a report words it.
CHANNELS = {
    "story": "the story told to {player}",
    "decider": "who decides next, as told to {player},",
    "options": "the list of options offered to {player}",
    "watched": "another player's decision, as shown to {player},",
    "observation": "the observation of {player}",
    "bot": "a bot's choice for {player}",
}
BOTS = ("random", "greedy:2", "mcts:8")  # the bots whose choice for the seat is compared
STRIDE = 4  # one position in STRIDE, on average, is checked
HORIZON = 24  # steps the twins are played on, at most
SHORT = 160  # characters of a differing value shown


@dataclass
class Leak:
    """One difference between twins: what differed, where in the rules, and how to meet it again."""

    channel: str
    span: object  # errors.Span of the rule that made it (NO_SPAN where none was found)
    rule: str  # the rule running, in words ("action draw"), or ""
    seat: int
    players: int
    seed: int
    decision: int  # decisions taken in the game before the twins were made
    step: int  # steps the twins were played on before they differed
    swapped: tuple  # the two card ids swapped
    first: str  # the value in the true position (short)
    second: str  # the value in the twin (short)
    count: int = 1  # how often the same (channel, line) differed

    def key(self) -> tuple:
        return self.channel, self.span.filename, self.span.line

    def to_data(self) -> dict:
        s = self.span
        return {"channel": self.channel, "file": s.filename if s.source else None, "line": s.line or None,
                "column": s.column or None, "source": s.source.line(s.line).strip() if s.source else None,
                "rule": self.rule, "seat": self.seat, "players": self.players, "seed": self.seed,
                "decision": self.decision, "step": self.step, "swapped": list(self.swapped),
                "first": self.first, "second": self.second, "count": self.count}


@dataclass
class Report:
    rules: str
    model: object = field(default=None, repr=False)  # the rules' declarations (where an action or a shown value is)
    leaks: dict = field(default_factory=dict)  # Leak.key() -> Leak, the first met
    checks: int = 0  # twin pairs played
    games: int = 0

    def add(self, leak: Leak) -> None:
        kept = self.leaks.get(leak.key())
        if kept is None:
            self.leaks[leak.key()] = leak
        else:
            kept.count += 1

    def to_data(self) -> dict:
        return {"rules": self.rules, "games": self.games, "checks": self.checks,
                "leaks": [leak.to_data() for leak in self.leaks.values()]}


def same_back(program, a: int, b: int) -> bool:
    """Whether cards `a` and `b` look the same face down (the same back:
    `backs:` in the rules), so a player who sees neither cannot tell their
    places apart."""
    return program.card_backs[a] == program.card_backs[b]


def find_leaks(game, players: list, games: int, seed: int = 0, bots=BOTS, stride: int = STRIDE,
               horizon: int = HORIZON, limit: int | None = None) -> Report:
    """Play `games` games at each player count of `players` (seeds `seed`,
    `seed + 1`, ...) and check twins along them, stopping once `limit`
    twin pairs were played if given; the leaks found."""
    report = Report(game.path, game.model)
    for n in players:
        for i in range(games):
            if limit is not None and report.checks >= limit:
                return report
            _check_game(game, n, seed + i, report, bots, stride, horizon, limit)
            report.games += 1
    return report


def _check_game(game, players: int, seed: int, report: Report, bots, stride: int, horizon: int, limit) -> None:
    """One game played with seeded random answers, twins checked at about
    one position in `stride`, for every seat."""
    st = game.new_initial_state(players, seed)
    r = _rng.seed_state(seed * 7_919 + players)
    while not st.over and (limit is None or report.checks < limit):
        r, k = _rng.below(r, stride)
        if k == 0:
            for seat in range(players):
                r = check_twins(st, seat, r, report, bots, horizon, seed)
        r, i = _rng.below(r, len(st.option_ids))
        st.apply_action(st.option_ids[i])


def check_twins(st, seat: int, r: int, report: Report, bots=BOTS, horizon: int = HORIZON, seed: int = 0) -> int:
    """Make twins of `st` for `seat` (if two cards can be swapped) and play
    them on, recording what differs in `report`; returns the random state."""
    r, pair = pick_pair(st, seat, r)
    if pair is None:
        return r
    report.checks += 1
    first, second = twins(st, *pair)
    where = (st.n, seed, st.decisions, tuple(st.program.card_ids[c] for c in pair))
    step, before, answers = 0, None, None
    asking = bots  # the bots are asked at the seat's first decision only (they cost the most)
    while True:
        try:
            found = compare(first, second, seat, asking, seed, report.model, pair)
        except RulesError:  # a rule fails with the other cards (a label, a bot's search): not a leak of its own
            return r
        if found and before is not None:
            found = _placed_at_branch(found, before, answers)
        for channel, x, y, span, rule in found:
            report.add(Leak(channel, span, rule, seat, where[0], where[1], where[2], step, where[3], x, y))
        if found or first.over or second.over or step >= horizon:
            return r
        if first.decider == seat:
            asking = ()
        r, i = _rng.below(r, len(first.option_ids))
        action = first.option_ids[i]
        answers = (action, _answer_in_twin(first, second, i, pair))
        if answers[1] is None:  # another seat's options differ: not this seat's to see
            return r
        before = (first.clone(), second.clone())
        try:
            for twin, answer in zip((first, second), answers):
                twin.events = _Recorder(twin.program.module)
                twin.apply_action(answer)
        except RulesError:  # a rule fails with the other cards: not a leak of its own
            return r
        step += 1
        if any(_told(twin, card, seat) for twin in (first, second) for card in pair):
            return r


def _answer_in_twin(first, second, i: int, pair: tuple):
    """The id of the answer in `second` that is option `i` of `first`: a
    card chosen is the card at the same place (a swapped card chosen by a
    player who sees it is the other one, and a copy is named by the id its
    copies share), any other option the same id; None if it is not offered."""
    action = first.option_ids[i]
    if getattr(first.program.decisions[first.point], "kind", None) != "card":
        return action if action in second.option_ids else None
    a, b = pair
    value = first.option_values[i]
    value = b if value == a else a if value == b else value
    return next((oid for oid, v in zip(second.option_ids, second.option_values) if v == value), None)


def _same_answer(program, action: str, pair: tuple) -> str:
    """The id `action` reads as in the other twin, by the card ids of the swapped cards."""
    ids = program.card_ids
    a, b = pair
    return ids[b] if action == ids[a] else ids[a] if action == ids[b] else action


def _told(st, card: int, seat: int) -> bool:
    return visibility.card_visible(st, card, seat) or visibility.knows(st, card, seat)


# -- twins

def held_by_rules(st) -> set:
    """Every int the running rules hold (the frames' locals, through tuples
    and lists, and the pending options' values): a card among them may be
    read again by a rule, which would see it move."""
    found: set = set()
    stack = [frame[FRAME_LOCALS] for frame in st.frames]
    stack.append(st.option_values or ())
    while stack:
        value = stack.pop()
        if isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            found.add(value)
    return found


def swappable(st, seat: int) -> list:
    """The cards `seat` can neither see nor know, out of the zone every card
    starts in, held by no running rule and holding no card: their places
    may be exchanged without the seat being able to tell."""
    program = st.program
    held = held_by_rules(st)
    home = program.zones[program.setup_zone].base
    hosts = [info.base for info in program.zones.values() if info.scope == "card"]
    out = []
    for zi, i in visibility.unseen_places(st, seat):
        card = st.z[zi][i]
        if (zi == home or card in held or visibility.card_visible(st, card, seat)
                or visibility.knows(st, card, seat) or card in visibility.known_inside(st, (card,), seat)):
            continue
        if any(c is not None for base in hosts for c in st.z[base + card]):
            continue
        out.append(card)
    return out


def pick_pair(st, seat: int, r: int):
    """(random state, (a, b)): two swappable cards of the same back, chosen
    at random, in different zone instances where the first has a partner
    there; (r, None) where there is no such pair."""
    cards = swappable(st, seat)
    program = st.program
    partners = {c: [d for d in cards if d != c and same_back(program, c, d)] for c in cards}
    cards = [c for c in cards if partners[c]]
    if not cards:
        return r, None
    r, i = _rng.below(r, len(cards))
    a = cards[i]
    elsewhere = [d for d in partners[a] if st.loc[d] != st.loc[a]]
    choice = elsewhere or partners[a]
    r, j = _rng.below(r, len(choice))
    return r, (a, choice[j])


def twins(st, a: int, b: int) -> tuple:
    """Two clones of `st`, the second with cards `a` and `b` in each
    other's places. What lies on a card's back (its per-card counters) and
    who knows the card at a place (or knows a card lies in that zone) stay
    with the place."""
    first, second = st.clone(), st.clone()
    za, zb = st.loc[a], st.loc[b]
    ia, ib = st.z[za].index(a), st.z[zb].index(b)
    zone_to_change(second, za)[ia] = b
    zone_to_change(second, zb)[ib] = a
    second.loc[a], second.loc[b] = zb, za
    rows = [second.ctr[info.index] for info in st.program.counter_list if info.scope == "card"]
    for row in rows + [second.known] + ([second.known_in] if second.known_in is not None else []):
        row[a], row[b] = row[b], row[a]
    for twin in (first, second):
        twin.forget_history()  # the twin is no position the true actions lead to
    problems = invariants.violations(second)
    if problems:
        raise RulesError("internal error of the leak check: the twin position is not consistent: "
                         + "; ".join(problems))
    return first, second


def _placed_at_branch(found: list, before: tuple, answers: tuple) -> list:
    """Where the twins ran different rules lines in the step that told them
    apart, the rule branched on a card the seat does not know: the story,
    what the seat sees and who decides are placed at the last line both
    ran (the condition), rather than where the difference showed."""
    ran = [_lines_run(twin.clone(), answer) for twin, answer in zip(before, answers)]
    k = next((k for k, (x, y) in enumerate(zip(*ran)) if x[0] != y[0]), min(map(len, ran)))
    if k == 0 or len(ran[0]) == len(ran[1]) == k:
        return found
    _, span, rule = ran[0][k - 1]
    return [(channel, x, y, span, rule) if channel in _BRANCHED and not _in_window(where) else (channel, x, y, *where)
            for channel, x, y, *where in found]


_BRANCHED = ("story", "observation", "decider", "options", "bot")  # the channels a branch of the rules is blamed for


def _in_window(where) -> bool:
    """Whether a difference was placed at a reaction's `when` (who is asked in a window)."""
    return where[1].startswith("reaction ")


def _lines_run(st, action: str) -> list:
    """((line, column), span, rule) of each rules line `st` runs while
    `action` is applied, in order (a line repeated at once counted once)."""
    module = st.program.module
    lines: list = []

    def line(frame, event, arg):
        if event == "line":
            span = module.span_at(frame.f_lineno)
            if span is not None and (not lines or lines[-1][0] != (span.line, span.column)):
                lines.append(((span.line, span.column), span, module.rule_names.get(frame.f_code.co_name, "")))
        return line

    def call(frame, event, arg):
        return line if frame.f_code.co_filename == module.filename else None

    kept = sys.gettrace()
    sys.settrace(call)
    try:
        st.apply_action(action)
    except RulesError:
        pass
    finally:
        sys.settrace(kept)
    return lines


class _Recorder(list):
    """A state's `events` list that also notes, per event, the rules line
    that made it: (span, rule) of the innermost generated function on the
    stack when it was told (NOWHERE for an event the engine tells itself)."""

    def __init__(self, module):
        super().__init__()
        self.module = module
        self.where: list = []

    def append(self, event) -> None:
        super().append(event)
        self.where.append(_rules_line(self.module))


NOWHERE = (NO_SPAN, "")


def _rules_line(module) -> tuple:
    """(span, rule) of the rules line the innermost generated function is running."""
    frame = sys._getframe(2)
    name = module.filename if module is not None else None
    while frame is not None:
        if frame.f_code.co_filename == name:
            return module.span_at(frame.f_lineno) or NO_SPAN, module.rule_names.get(frame.f_code.co_name, "")
        frame = frame.f_back
    return NOWHERE


# -- what a seat is told, compared

def compare(first, second, seat: int, bots=BOTS, seed: int = 0, model=None, pair=(None, None)) -> list:
    """What differs between the twins for `seat`, channel by channel:
    (channel, value in the first, value in the second, span, rule). `pair`:
    the swapped cards (to tell the events that differ only by them)."""
    deciders = [None if t.over else t.decider for t in (first, second)]
    if deciders[0] != deciders[1] or (deciders[0] is not None and first.point != second.point):
        # The twins went different ways: what follows (their stories, what
        # the seat sees) differs because of it, and is not told apart.
        shown = [_decider_words(t) for t in (first, second)]
        return [("decider", *shown, *_where_decider(first, second, model))]
    found = []
    story = [_story(t, seat) for t in (first, second)]
    if story[0] != story[1]:
        found.append(("story", *_first_line_apart(first, second, story, pair, model)))
    if deciders[0] == seat:
        options = [_options(t, seat) for t in (first, second)]
        if options[0] != options[1]:
            x, y = _apart(options[0], options[1])
            found.append(("options", x, y, *_where_options(first, options, model)))
        else:
            for spec in bots:
                x, y = (_bot_choice(t, seat, spec, seed) for t in (first, second))
                if x != y:
                    found.append(("bot", f"{spec}: {x}", f"{spec}: {y}", *_where_point(first)))
    elif deciders[0] is not None:
        apart = _watched_apart(_watched(first, seat, None), _watched(second, seat, pair))
        if apart is not None:
            found.append(("watched", *apart, *_where_point(first)))
    seen = [json.dumps(t.observation(seat), sort_keys=True) for t in (first, second)]
    if seen[0] != seen[1]:
        path, x, y = _difference(json.loads(seen[0]), json.loads(seen[1]))
        found.append(("observation", f"{path}: {_short(x)}", f"{path}: {_short(y)}",
                      *_where_seen(first, second, path, model, pair)))
    return found


def _story(st, seat: int) -> list:
    if not st.events:
        return []
    return [text for _, text in _events.tell_all(st, st.events, seat)]


def _first_line_apart(first, second, story, pair, model) -> tuple:
    """(line in the first, line in the second, span, rule) of the first line
    told apart; where is said by the first event told apart."""
    a, b = story
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    x = a[i] if i < len(a) else "(nothing)"
    y = b[i] if i < len(b) else "(nothing)"
    return _short(x), _short(y), *_where_event_apart(first, second, pair, model)


def _where_event_apart(first, second, pair, model) -> tuple:
    """(span, rule) of the first event that differs in the twins other than
    by the swapped cards, else of the rule running. A decision is placed at
    its point (an action's label at its action); any other event where the
    rules told it."""
    ea, eb = first.events or [], second.events or []
    k = next((k for k, (x, y) in enumerate(zip(ea, eb)) if _plain(x, *pair, False) != _plain(y, *pair, True)),
             min(len(ea), len(eb)))
    if k == len(ea) == len(eb):
        return _where_running(first)
    events = ea if k < len(ea) else eb
    event = events[k]
    if event[0] == "decision":
        point = first.program.decisions[event[2]]
        if isinstance(point, ActionPoint) and model is not None and event[3] in range(len(point.names)):
            decl = model.actions.get(point.names[event[3]])
            if decl is not None:
                return decl.span, f"action {point.names[event[3]]}"
        return point.span or NO_SPAN, first.program.codes[point.code].name
    return events.where[k] if isinstance(events, _Recorder) else NOWHERE


def _plain(event, a, b, exchange: bool):
    """`event` to compare with the other twin's: with `exchange`, cards `a`
    and `b` exchanged where it names a card; a decision's label naming one
    of them is left out."""
    def swap(card):
        return card if not exchange else b if card == a else a if card == b else card

    kind = event[0]
    if kind in _events.KNEW_AT:  # who knew which card: the twins' own, with the two cards' entries exchanged
        knew = list(event[-1])
        if exchange:
            knew[a], knew[b] = knew[b], knew[a]
        event = (*event[:-1], tuple(knew))
    if kind == "move":
        return (kind, swap(event[1]), *event[2:])
    if kind == "look":
        return (kind, event[1], tuple(map(swap, event[2])), event[3])
    if kind == "decision" and event[3] in (a, b):
        return (kind, event[1], event[2], swap(event[3]), None, event[5], event[6])
    return event


def _where_running(st) -> tuple:
    """(span, rule) of the rule at the top of the stack: where the position
    stands (the declaration of that rule), else nowhere."""
    if not st.frames:
        return NOWHERE
    module = st.program.module
    code = st.program.codes[st.frames[-1][FRAME_CODE]]
    name = getattr(code, "fn", None) and code.fn.__name__
    if code is None or not name:
        return NOWHERE
    return module.rule_spans.get(name) or NO_SPAN, code.name


def _where_point(st) -> tuple:
    """(span, rule) of the pending decision of `st`."""
    point = st.program.decisions[st.point]
    return point.span or NO_SPAN, st.program.codes[point.code].name if point.code is not None else ""


def _where_decider(first, second, model) -> tuple:
    """The decision one twin asks and the other does not: a reaction's if
    one is (the `when` of a reaction to its event), else the first's."""
    pending = [t for t in (first, second) if not t.over]
    for t in pending:
        window = getattr(t.program.decisions[t.point], "window", None)
        if window and model is not None:
            for name, decl in model.reactions.items():
                if decl.event == window and decl.when is not None:
                    return decl.when.span, f"reaction {name}"
    return _where_point(pending[0]) if pending else _where_running(first)


def _decider_words(st) -> str:
    if st.over:
        return "the game is over"
    point = st.program.decisions[st.point]
    return f"{_events.player_name(st.decider)} decides ({point.prompt(st, st.frames[-1])})"


def _options(st, seat: int) -> list:
    decision = st.decision(viewer=seat)
    return ([decision.prompt] + [f"{o.id}: {o.label}" for o in decision.options]
            + [f"not now: {o.label} ({o.reason})" for o in decision.unavailable])


def _watched(st, seat: int, pair) -> tuple:
    """The prompt and the labels of another player's pending decision as
    `seat` is shown them, by option id (with `pair`, a swapped card's id is
    read as the card at the same place in the other twin)."""
    decision = st.decision(viewer=seat)
    name = (lambda i: i) if pair is None else (lambda i: _same_answer(st.program, i, pair))
    return decision.prompt, {name(o.id): o.label for o in decision.options}


def _watched_apart(x: tuple, y: tuple):
    """The first part told apart of two watched decisions, shortened, or
    None. Which options there are is the deciding player's to know: only
    the options both twins offer are compared."""
    if x[0] != y[0]:
        return _short(x[0]), _short(y[0])
    for key in sorted(x[1].keys() & y[1].keys()):
        if x[1][key] != y[1][key]:
            return _short(f"{key}: {x[1][key]}"), _short(f"{key}: {y[1][key]}")
    return None


def _where_options(st, options, model) -> tuple:
    """Where options told apart come from: for a choice of actions, the
    action offered in one twin only (its `when`) or labelled differently;
    else the decision itself."""
    point = st.program.decisions[st.point]
    if isinstance(point, ActionPoint) and model is not None:
        ids = [{o.split(":", 1)[0] for o in opts[1:]} for opts in options]
        only = sorted(ids[0] ^ ids[1])
        for name in only or sorted({o.split(":", 1)[0] for o in set(options[0]) ^ set(options[1])}):
            decl = model.actions.get(name)
            if decl is not None:
                node = decl.when if only and decl.when is not None else decl
                return node.span, f"action {name}"
    return _where_point(st)


def _bot_choice(st, seat: int, spec: str, seed: int) -> str:
    agent = make_agent(spec, seed, seat)
    return agent.choose(st.decision(), st.observation(seat), world_sampler(st, seat, seed))


def _where_seen(first, second, path: str, model, pair) -> tuple:
    """A value shown per player is declared by its `show`; anything else
    changed during the step (the first event told apart), or is read where
    the position stands."""
    parts = path.split(".")
    if parts[0] == "values" and len(parts) > 1 and model is not None:
        decl = model.shown_values.get(parts[1].split("[")[0])
        if decl is not None:
            return decl.span, f"show {parts[1].split('[')[0]}"
    return _where_event_apart(first, second, pair, model)


def _difference(x, y, path: str = "") -> tuple:
    """(path, x part, y part) of the first place two JSON values differ."""
    if isinstance(x, dict) and isinstance(y, dict):
        for key in sorted(set(x) | set(y)):
            if x.get(key, _MISSING) != y.get(key, _MISSING):
                return _difference(x.get(key), y.get(key), f"{path}.{key}" if path else key)
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (a, b) in enumerate(zip(x, y)):
            if a != b:
                return _difference(a, b, f"{path}[{i}]")
    return path, x, y


_MISSING = object()


def _apart(a: list, b: list) -> tuple:
    """The first items of two lists that differ, shortened."""
    for x, y in zip(a, b):
        if x != y:
            return _short(x), _short(y)
    return _short(a[len(b):] or "(nothing more)"), _short(b[len(a):] or "(nothing more)")


def _short(value) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= SHORT else text[:SHORT - 3] + "..."

