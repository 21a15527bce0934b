"""A fixed action vocabulary and observation vectors for any rules file.

Both are derived from the compiled program alone, so every rules file gets them
without game-specific code:

- `action vocabulary`: every action id a decision of these rules can offer
  (`yes`/`no`/`pass`/`done`, action names, the reactions a first-to-speak
  window offers by name, effect names, `i:effect` for each
  effect position a card can have, `player-k` for each seat, card ids, the
  literal values of `choose x in [...]`, and 0 to the number of cards when a
  `choose` goes through computed numbers such as positions), in a stable order. An id outside it
  raises `UnknownActionError` instead of being mapped silently.
- `observation vector`: a flat list of numbers made from
  `GameState.observation(viewer)` only (so nothing a player may not see gets
  in): a header (seats, round, turn, which decision the viewer faces), each
  visible counter, and each zone's size and contents by card id (one-hot per
  slot for zones with slots). Per-player blocks are rotated so that the
  viewer's own block comes first; the layout does not depend on the player
  count.

No third-party import here: `fill` writes into any indexable buffer (a list or a
numpy array), so the core keeps working without numpy.
"""
from __future__ import annotations

import dataclasses
import json
import math

from ..compiler.decisions import SpeakPoint
from ..runtime.values import render
from ..errors import RulesError
from ..limits import LIST_ITEMS
from ..visibility import VISIBLE, back_counters, counter_ever_seen, zone_ever_seen
from ..language import nodes as n

CONTROL_IDS = ("yes", "no", "pass", "done")
INF = math.inf


class UnknownActionError(RulesError):
    """A decision offered an action id the vocabulary does not contain."""


# ---------------------------------------------------------------- actions
def _effect_lists(program):
    """Every card field value that is an effect list (a tuple of alternatives)."""
    for values in program.fields.values():
        for v in values:
            if isinstance(v, tuple) and v and all(isinstance(item, tuple) for item in v):
                yield v


def _literal_choices(game) -> list:
    """Rendered values of `choose x in [literal, ...]`, in a list parameter or
    a definition, or in a procedure's argument given either (followed through the calls
    that pass it on)."""
    model = game.model
    out = []
    for decl in model.declarations():
        for node in n.walk(decl):
            if isinstance(node, n.Choose):
                out.extend(_values_of(game, node.iterable, decl, set()))
    return out


def _values_of(game, expr, decl, seen: set) -> list:
    """The rendered values a list expression of `decl` may hold, as far as
    they are written in the rules: literals, list parameters, definitions
    without parameters, arguments."""
    params = game.program.params
    if isinstance(expr, n.ListLit):
        return [render(item.value) for item in expr.items if isinstance(item, n.Literal)]
    if isinstance(expr, n.Range):
        ends = _constant_range(expr, params)
        return [render(k) for k in range(ends[0], ends[1] + 1)] if ends else []
    if not isinstance(expr, n.Name):
        return []
    if isinstance(decl, n.ProcedureDecl) and expr.name in decl.params:
        key = (decl.name, expr.name)
        if key in seen:
            return []
        seen.add(key)
        position = decl.params.index(expr.name)
        out = []
        for caller in game.model.declarations():
            for node in n.walk(caller):
                if isinstance(node, n.CallStmt) and node.name == decl.name and len(node.args) > position:
                    out.extend(_values_of(game, node.args[position], caller, seen))
        return out
    if isinstance(params.get(expr.name), (list, tuple)):
        return [render(v) for v in params[expr.name]]
    define = game.model.defines.get(expr.name)
    if define is not None and not define.params and expr.name not in seen:
        seen.add(expr.name)
        return _values_of(game, define.expr, define, seen)
    return []


def _constant_range(expr, params) -> tuple | None:
    """The ends of `a..b` where both are numbers written in the rules (or
    parameters), within the items budget of a list; else None."""
    from ..language.params import constant

    try:
        low, high = constant(expr.low, params), constant(expr.high, params)
    except RulesError:
        return None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)) or high - low >= LIST_ITEMS:
        return None
    return low, high


def _computed_number_choices(game) -> list:
    """"0" to the number of cards, if some `choose` goes through a computed
    list of numbers (such as positions in a zone, `[slot(c) + 1 for c in
    pile]`): a position or a count of cards is at most the number of cards."""
    from ..language.types import Types
    from ..language.value_types import LIST

    types = Types(game.model, game.program.cards, game.program.params)
    for node in game.model.nodes():
        if isinstance(node, n.Choose) and isinstance(node.iterable, n.Range) \
                and _constant_range(node.iterable, game.program.params) is None:
            return [str(k) for k in range(len(game.program.card_ids) + 1)]
        if isinstance(node, n.Choose) and isinstance(node.iterable, n.Comprehension):
            inner = {}
            for var, iterable in node.iterable.loops:
                inner[var] = types.element(iterable, inner)
            if types.of(node.iterable, {}) == LIST and types.of(node.iterable.expr, inner) == "number":
                return [str(k) for k in range(len(game.program.card_ids) + 1)]
    return []


def _copy_ids(program) -> list:
    """The ids options over identical copies can take: the group's, and the
    group's at each place (and slot) where copies could lie together."""
    from ..runtime.helpers import place_id

    groups = [g for g in dict.fromkeys(program.card_groups) if g not in set(program.card_ids)]
    if not groups:
        return []
    places = []
    for zi, info in enumerate(program.zone_of_instance):
        if info.scope == "player" and zi - info.base >= program.max_players:
            continue
        slots = range(info.slots) if info.slots else [None]
        places += [place_id(program, zi, slot) for slot in slots]
    return groups + [f"{g}@{place}" for g in groups for place in places]


def action_vocabulary(game, extra_ids=()) -> list:
    """Every action id the rules can offer, in a stable order."""
    program, model = game.program, game.model
    effects = list(model.effects)
    items = max((len(v) for v in _effect_lists(program)), default=0)
    ids = list(CONTROL_IDS)
    ids += list(model.actions)
    ids += [value for point in program.decisions if isinstance(point, SpeakPoint) for value in point.label_fns]
    ids += effects
    ids += [f"{i}:{e}" for i in range(1, items + 1) for e in effects]
    ids += [f"player-{k}" for k in range(1, program.max_players + 1)]
    ids += _literal_choices(game)
    ids += _computed_number_choices(game)
    ids += list(program.card_ids)
    ids += _copy_ids(program)
    ids += [str(x) for x in extra_ids]
    return list(dict.fromkeys(ids))


# ---------------------------------------------------------------- observation layout
@dataclasses.dataclass
class Block:
    """A named run of the observation vector."""

    name: str
    start: int
    size: int
    low: float = 0.0
    high: float = 1.0

    @property
    def stop(self) -> int:
        return self.start + self.size


class Encoding:
    """Action ids <-> indices, and observation vectors, for one compiled game."""

    def __init__(self, game, extra_action_ids=()):
        self.game = game
        program = self.program = game.program
        self.action_ids = action_vocabulary(game, extra_action_ids)
        self.action_index = {a: i for i, a in enumerate(self.action_ids)}
        self.num_actions = len(self.action_ids)
        self.card_index = {c: i for i, c in enumerate(program.card_ids)}
        self.ncards = ncards = len(program.card_ids)
        self.max_players = mp = program.max_players

        self.blocks: list[Block] = []
        self._at = 0
        self.players = self._block("players", mp)
        self.viewer = self._block("viewer", mp)
        self.current = self._block("current_player", mp)
        self.first = self._block("first_player", mp)
        self.round = self._block("round", 1, 0, INF)
        self.turn = self._block("turn", 1, 0, INF)
        self.decision = self._block("decision", max(1, len(program.decisions)))
        # counters: (info, block), those nobody ever sees are left out as observation() does
        self.counters = []
        for info in program.counter_list:
            if info.scope != "card" and not counter_ever_seen(info):
                continue
            size = {"card": ncards, "player": mp, "shared": 1}[info.scope]
            low = -INF if info.minimum is None else info.minimum
            high = INF if info.maximum is None else info.maximum
            if info.holds_player:  # a player as its seat counted from the viewer's, plus 1 (0: none or unseen)
                low, high = 0, mp
            self.counters.append((info, self._block(f"counter:{info.name}", size, low, high)))
        # zones: (info, per-instance size, block, where the known cards start, where the marks start)
        # A zone not every player sees may hold cards a viewer knows there, and
        # counters seen on the backs of its cards: per counter, one value per
        # place, bottom first (where the size is hidden, the marked cards'
        # values, bottom first), so an agent tells which card a counter is on.
        self.back_counters = back_counters(program, 0)  # the same for every seat
        self.zones = []
        for info in program.zones.values():
            per = 1  # the number of cards
            if zone_ever_seen(info):
                per += (info.slots or 1) * ncards
                if info.stack and not info.slots:
                    per += ncards  # which card is on top
            known_at = marks_at = None
            if info.visibility != VISIBLE and info.scope != "card":  # (per card: as many again per card)
                known_at, marks_at = per, per + ncards
                per += ncards + len(self.back_counters) * (info.slots or ncards)
            instances = {"shared": 1, "player": mp, "card": ncards}[info.scope]
            block = self._block(f"zone:{info.name}", per * instances, 0, INF if marks_at is not None else ncards)
            self.zones.append((info, per, block, known_at, marks_at))
        self.size = self._at
        self.low = [0.0] * self.size
        self.high = [1.0] * self.size
        for b in self.blocks:
            self.low[b.start:b.stop] = [b.low] * b.size
            self.high[b.start:b.stop] = [b.high] * b.size

    def _block(self, name, size, low=0.0, high=1.0) -> Block:
        b = Block(name, self._at, size, low, high)
        self.blocks.append(b)
        self._at += size
        return b

    # -- actions
    def index_of(self, action_id: str) -> int:
        try:
            return self.action_index[action_id]
        except KeyError:
            raise UnknownActionError(
                f"action id '{action_id}' is not in the action vocabulary of '{self.program.title}' "
                f"({self.num_actions} ids derived from the rules); pass it in extra_action_ids, "
                "or report the rules construct that produced it"
            ) from None

    def id_of(self, index: int) -> str:
        index = int(index)
        if not 0 <= index < self.num_actions:
            raise ValueError(f"action {index} is outside the action space (0 to {self.num_actions - 1})")
        return self.action_ids[index]

    def legal_indices(self, st) -> list:
        """Indices of the legal actions, ascending; fails loudly on an unknown id."""
        index = self.action_index
        try:
            return sorted([index[a] for a in st.legal_actions()])
        except KeyError:
            return sorted(self.index_of(a) for a in st.legal_actions())  # names the unknown id

    # -- observations
    def fill(self, buf, st, viewer: int, obs: dict | None = None) -> None:
        """Write the observation vector of `viewer` (a seat, or -1 for what
        every player sees) into `buf`, which must be zeroed and of length `size`.
        `obs` may pass `st.observation(viewer)` if it is already at hand."""
        if obs is None:
            obs = st.observation(viewer)
        nplayers = st.n
        rel = (lambda seat: (seat - viewer) % nplayers) if viewer >= 0 else (lambda seat: seat)
        self.fill_header(buf, nplayers, viewer)
        cur = obs["current_player"]
        if cur >= 0:
            buf[self.current.start + rel(cur)] = 1
        buf[self.first.start + rel(obs["first_player"])] = 1
        buf[self.round.start] = obs["round"]
        buf[self.turn.start] = obs["turn"]
        if viewer >= 0 and cur == viewer:
            buf[self.decision.start + st.decision_point()] = 1
        cidx = self.card_index
        counters = obs["counters"]
        for info, block in self.counters:
            values = counters[info.name]
            if info.scope == "card":
                for card_id, v in values.items():
                    buf[block.start + cidx[card_id]] = v
            elif info.holds_player:
                for owner, v in enumerate(values):
                    if v is not None:
                        buf[block.start + (rel(owner) if info.scope == "player" else 0)] = rel(v) + 1
            elif info.scope == "player":
                for seat, v in enumerate(values):
                    if v is not None:
                        buf[block.start + rel(seat)] = v
            else:
                buf[block.start] = values[0]
        zones = obs["zones"]
        for zone in self.zones:
            info, per, block = zone[:3]
            view = zones[info.name]
            if info.scope == "shared":
                self._fill_zone(buf, block.start, zone, view)
            elif info.scope == "player":
                for seat, v in enumerate(view):
                    self._fill_zone(buf, block.start + rel(seat) * per, zone, v)
            else:
                for host, v in view.items():
                    self._fill_zone(buf, block.start + cidx[host] * per, zone, v)

    def fill_header(self, buf, nplayers: int, viewer: int) -> None:
        buf[self.players.start + nplayers - 1] = 1
        if viewer >= 0:
            buf[self.viewer.start + viewer] = 1

    def _fill_zone(self, buf, at, zone, view) -> None:
        info, _, _, known_at, marks_at = zone
        cidx, ncards = self.card_index, self.ncards
        if isinstance(view, dict):  # not visible to the viewer: its size, the cards it knows, the marks
            buf[at] = view["count"] or 0  # (None: its size is hidden too)
            if known_at is None:
                return
            for c in view.get("known", ()):
                if c is not None:
                    buf[at + known_at + cidx[c]] = 1
            for c in view.get("inside", ()):  # known to lie somewhere in it, not where
                buf[at + known_at + cidx[c]] = 0.5
            marks = view.get("marks")
            if marks:
                places = info.slots or ncards
                for k, counter in enumerate(self.back_counters):
                    start = at + marks_at + k * places
                    for i, v in enumerate(marks.get(counter.name, ())):
                        buf[start + i] = v
            return
        if info.slots:
            buf[at] = sum(1 for c in view if c is not None)
            for slot, c in enumerate(view):
                if c is not None:
                    buf[at + 1 + slot * ncards + cidx[c]] = 1
            return
        buf[at] = len(view)
        for c in view:
            buf[at + 1 + cidx[c]] = 1
        if info.stack and view:
            buf[at + 1 + ncards + cidx[view[-1]]] = 1

    def vector(self, st, viewer: int) -> list:
        buf = [0.0] * self.size
        self.fill(buf, st, viewer)
        return buf

    def observation_text(self, st, viewer: int, obs: dict | None = None) -> str:
        """`observation(viewer)` as compact JSON, plus the pending decision's
        prompt and options when the viewer is the one deciding."""
        obs = dict(st.observation(viewer) if obs is None else obs)
        if viewer >= 0 and obs["current_player"] == viewer:
            obs["decision"] = {"prompt": st.prompt(), "options": st.legal_actions()}
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def describe(self) -> list:
        """(name, start, size) of each block of the observation vector."""
        return [(b.name, b.start, b.size) for b in self.blocks]
