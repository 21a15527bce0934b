"""The values generated rule code computes with: numbers and lists within
their budgets, the text of a value in a label (and the cards each part of a
label was read from), groups of cards by a field, rankings, and the value of
a field a card does not have.

What a function marked `computes` raises is about the rules' values (a
comparison with none, a number too large): failures.py reports it at the
rules line, as the designer's; anything else raised here is the engine's.
"""
from __future__ import annotations

from fractions import Fraction

from .. import limits
from ..errors import NO_SPAN, RulesRuntimeError

VALUE_CODE: set = set()  # the code of the functions marked `computes` (failures.py)


def computes(fn):
    """Mark `fn` as computing with the rules' values (see above)."""
    VALUE_CODE.add(fn.__code__)
    return fn


def plain_number(value):
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


@computes
def render(value, st=None) -> str:
    """Text of a value inside a label. Every part of a text the rules build
    passes here: a text longer than the budget stops the rule, so a text
    that doubles at each call cannot fill the memory."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return value if len(value) <= TEXT else too_big("text", len(value))
    if isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
        return " ".join("/".join(alts) for alts in value)  # an effect list
    if isinstance(value, (list, tuple)):
        if 2 * len(value) > TEXT:  # each item takes a character and a separator at least
            too_big("text", 2 * len(value))
        return ", ".join(render(v, st) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        value = plain_number(value)
        return render(value) if isinstance(value, int) else f"{float(value):.2f}".rstrip("0")
    try:
        return str(value)
    except ValueError:  # a number of thousands of digits, made by sums (products stop at NUMBER)
        return too_big("number", value)


# Budgets on the size of values a rule computes (see limits.py). Counters
# hold their own bound; these stop a value kept in a rule's locals or passed
# from call to call that grows at each call (a number squared, a list or a
# text doubled) before it fills the memory or takes hours to compute. Only
# the operations whose result may be much larger than their operands check.
NUMBER = 10 ** limits.NUMBER_DIGITS
ITEMS = limits.VALUE_ITEMS
TEXT = limits.VALUE_TEXT
_TOO_BIG = {"number": f"a number grew past {limits.NUMBER_DIGITS} digits, the most a rule may compute",
            "list": f"a list grew past {ITEMS} items, the most a rule may build",
            "text": f"a text grew past {TEXT} characters, the most a rule may build"}


def too_big(what, size):
    """Stop the rule computing a value beyond its budget (located at the
    rules line, naming the rule, by failures.blame)."""
    raise RulesRuntimeError(_TOO_BIG[what], NO_SPAN,
                            "a value that grows at each call or pass never stops growing: "
                            "give the growth a condition that ends it")


@computes
def times(a, b):
    """`a * b`: a product of numbers within the digits budget, a list or
    text repeated within its length budget (checked before it is made)."""
    if isinstance(a, (list, tuple, str)) or isinstance(b, (list, tuple, str)):
        items, count = (a, b) if isinstance(a, (list, tuple, str)) else (b, a)
        if isinstance(count, int) and len(items) * count > (TEXT if isinstance(items, str) else ITEMS):
            too_big("text" if isinstance(items, str) else "list", len(items) * count)
        return a * b
    value = a * b
    if -NUMBER < value < NUMBER:
        return value
    return too_big("number", value)


@computes
def sized(value):
    """A list made by `+` of lists that may repeat, within the items budget."""
    return value if len(value) <= ITEMS else too_big("list", len(value))


@computes
def render_player(seat) -> str:
    """A player inside a text, as people count players: seat 1 is "player 2";
    a list of players reads "player 1, player 2"."""
    if isinstance(seat, (list, tuple)):
        return render([render_player(p) for p in seat])
    return f"player {seat + 1}" if isinstance(seat, int) and not isinstance(seat, bool) else render(seat)


class Told(str):
    """A text as a player who sees every card it reads is told it, keeping
    its parts: each a plain text, or (text, the cards it was read from,
    what to say instead) for a part read from cards (a card, or a list of
    cards, each: None reads none). visibility.told_to words it for a viewer."""

    def __new__(cls, parts: tuple):
        self = super().__new__(cls, "".join(p if p.__class__ is str else p[0] for p in parts))
        self.parts = parts
        return self

    def __reduce__(self):
        return (Told, (self.parts,))


class Only:
    """Among the sources of a text's part: a value only `seat` may be told
    (a choice it made secretly)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int):
        self.seat = seat

    def __reduce__(self):
        return (Only, (self.seat,))


def only(seat: int) -> Only:
    return Only(seat)


def public(st, sources) -> bool:
    """Whether every card of `sources` is seen by every player where it lies
    (`program.seen_by_all`, set by the game from visibility.py): what was
    read from them is no secret."""
    seen = st.program.seen_by_all
    return not any(isinstance(s, Only) for s in sources) and all(seen(st, card) for card in cards_read(sources))


def cards_read(sources):
    """The cards of `sources`: each a card, None (no card) or a list of cards."""
    for value in sources:
        if value.__class__ is int:
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (card for card in value if card.__class__ is int)


def told(parts: tuple) -> Told:
    return Told(parts)


@computes
def add(a, b):
    """`a + b` where either side may be a list (or a card field's tuple)."""
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if len(a) + len(b) > ITEMS:
            too_big("list", len(a) + len(b))
        return list(a) + list(b)
    if isinstance(a, str) and isinstance(b, str) and len(a) + len(b) > TEXT:
        too_big("text", len(a) + len(b))
    return a + b


_GROUPS: dict = {}  # (field list's id, the cards) -> (the field list, its groups)


def group(cards, values) -> dict:
    """The cards of `cards` by their value in the field list `values`, each
    group in the order of `cards`: a loop over the cards whose field equals a
    value goes through that value's group alone (hoist.group_parts). A card
    without the field fails here as comparing its value would. The same
    cards in the same order give the same groups, which nobody changes: they
    are kept (a zone grouped at every decision seldom changes between)."""
    key = (id(values), tuple(cards))
    kept = _GROUPS.get(key)
    if kept is not None and kept[0] is values:  # (the entry holds the list: its id is not another's)
        return kept[1]
    groups: dict = {}
    for card in cards:
        found = groups.get(values[card])
        if found is None:
            groups[values[card]] = [card]
        else:
            found.append(card)
    if len(_GROUPS) >= 4096:  # (kept for the positions of the games now played)
        _GROUPS.clear()
    _GROUPS[key] = (values, groups)
    return groups


def in_group(groups: dict, key) -> list:
    """The group of `key` (none where there is none; `key` is not looked up
    in an empty table, as it is compared with nothing in an empty zone)."""
    return groups.get(key, ()) if groups else ()


_EXTREMES: dict = {}  # (the field lists' ids, min or max, the cards) -> (the field lists, the cards kept)


@computes
def extremes(cards, keys, values, op) -> list:
    """The cards of `cards`, in their order, whose value in the field list
    `values` is the lowest (`op` min) or the highest (max) among the cards
    with the same value in the field list `keys`: what a loop over the zone
    goes through where its condition begins by asking that of each card
    (compiler/extremes.py). The same cards in the same order give the same
    list, which nobody changes: it is kept, as groups are. Where a value
    cannot be compared (a card without the field), the cards come one at a
    time, each compared only when the loop asks for the next, as the
    condition compared them: the error comes where it did."""
    key = (id(keys), id(values), op, tuple(cards))
    kept = _EXTREMES.get(key)
    if kept is not None and kept[0] is keys and kept[1] is values:  # (the entry holds the lists: ids no others have)
        return kept[2]
    try:
        found = _extremes_at_once(cards, keys, values, op)
    except Exception:  # (whatever it is, it comes again where the condition met it)
        return _extremes_in_turn(cards, keys, values, op)
    if len(_EXTREMES) >= 4096:  # (kept for the positions of the games now played)
        _EXTREMES.clear()
    _EXTREMES[key] = (keys, values, found)
    return found


def _extremes_at_once(cards, keys, values, op) -> list:
    """`extremes` in one pass (a function of its own: the comprehensions'
    names would make the lookup's names cells)."""
    best = {k: op(map(values.__getitem__, cards_of)) for k, cards_of in group(cards, keys).items()}
    return [card for card in cards if values[card] == best[keys[card]]]


@computes
def _extremes_in_turn(cards, keys, values, op):
    """`extremes` one card at a time, each group's value worked out when a
    card of it first asks for it (as the condition's memo did)."""
    groups, best = None, {}
    for card in cards:
        if groups is None:
            groups = group(cards, keys)
        k = keys[card]
        if values[card] == (best[k] if k in best else best.setdefault(k, op(map(values.__getitem__, groups[k])))):
            yield card


@computes
def of_group(groups: dict, key, values, op, empty):
    """`op` (sum, min or max) of the field `values` over the cards of one
    group of `groups` (a table of `group`), in C; `empty` for a group with
    no card."""
    cards = groups.get(key) if groups else None  # (as in_group)
    return op(map(values.__getitem__, cards)) if cards else empty


@computes
def highest(values):
    return max(values) if values else None


@computes
def lowest(values):
    return min(values) if values else None


class memo(dict):
    """A sub-expression of a loop computed once per key in one evaluation of
    the loop (see hoist.py): `fn(key)` the first time a key is asked for."""

    __slots__ = ("fn",)

    def __init__(self, fn):
        self.fn = fn

    def __missing__(self, key):
        value = self[key] = self.fn(key)
        return value


@computes
def shows(name, effects) -> bool:
    """Whether an effect list shows `name` in any item (`draw in c.effects`)."""
    return any(name in alts for alts in effects)


@computes
def rank(st, value, table, minimum, share):
    """The award for the acting player's place when every player is ranked by
    `value()` (evaluated as each player); ties share the places they cover."""
    me = st.me
    values = []
    try:
        for p in range(st.n):
            st.me = p
            values.append(value())
    finally:
        st.me = me
    return award(values, values[me], table, minimum, share)


@computes
def rank_row(st, row, table, minimum, share):
    """`rank` of a counter each player has, read from its row (one value per
    player) without evaluating anything as each player."""
    return award(row, row[st.me], table, minimum, share)


@computes
def award(values, mine, table, minimum, share):
    """The award of `table` for value `mine`'s place among `values`."""
    if minimum is not None and mine < minimum:
        return 0
    place = tied = 0
    for v in values:
        if minimum is None or v >= minimum:
            if v > mine:
                place += 1
            elif v == mine:
                tied += 1
    if not share:
        return table[place] if place < len(table) else 0
    total = sum(table[place:place + tied])
    return total // tied if total % tied == 0 else Fraction(total, tied)


class Missing:
    """The value of a field a card does not have: any use of it is an error
    that names the card and the field."""

    __slots__ = ("card", "field")

    def __init__(self, card: str, field: str):
        self.card, self.field = card, field

    def _fail(self, *args):
        raise RulesRuntimeError(f"card '{self.card}' has no field '{self.field}'")

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _fail
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __neg__ = _fail
    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __hash__ = _fail
    __bool__ = __iter__ = __len__ = __getitem__ = __contains__ = __call__ = _fail
    __index__ = __int__ = _fail

    def __repr__(self):
        return f"<no field '{self.field}' on '{self.card}'>"
