"""Arranging and playing positions of the real Catalyst rules for the scenario
suites of the base game (test_rules_catalyst.py) and the solo mode
(test_rules_solo.py).

Cards are always selected by predicate from the card database, never by name,
so the scenarios hold for any card set in the format of rules/cards.yaml.
"""
from __future__ import annotations

import re

from .conftest import labels, play  # noqa: F401 (used by the scenario files)

MODIFIER = [1, 0, 0, -1, -1]  # the board's spaces, space 1 (next to the deck) first


# ------------------------------------------------------------------ the card database
def cards(game, kind=None, where=lambda c: True, **fields) -> list:
    """Card objects of `kind` whose data has `fields` and that satisfy `where`.
    `game` may be a Game or a state (both have `.program`)."""
    return [c for c in game.program.cards.cards
            if (kind is None or c.kind == kind)
            and all(c.data.get(k) == v for k, v in fields.items()) and where(c)]


def ids(game, kind=None, where=lambda c: True, **fields) -> list[str]:
    return [c.id for c in cards(game, kind, where, **fields)]


def one(game, kind=None, where=lambda c: True, exclude=(), **fields) -> str:
    """The id of the first matching card not in `exclude`."""
    for cid in ids(game, kind, where, **fields):
        if cid not in exclude:
            return cid
    raise LookupError(f"no {kind} card with {fields} matching the predicate")


def card_of(game, card_id):
    return game.program.cards.by_id(card_id)


def data(game, card_id) -> dict:
    return card_of(game, card_id).data


def effects(c) -> list[str]:
    """The effect items of a Card: 'coin/chain military' -> ['coin/chain', 'military']."""
    return c.data["effects"].split()


SIMPLE = ("coin", "chain", "military")  # effects that only add 1 to a counter
COUNTER = {"coin": "coins", "chain": "chain_tokens", "military": "military"}


def simple_items(c) -> bool:
    """Predicate: every effect item of the card is a plain coin, chain or military."""
    return all(item in SIMPLE for item in effects(c))


def effects_are(*items):
    """Predicate: a card whose effect items are exactly `items`, in order."""
    return lambda c: effects(c) == list(items)


def shows(*items):
    """Predicate: a card having each of `items` as a plain (unslashed) effect item."""
    return lambda c: all(item in effects(c) for item in items)


def item_id(game, card_id, effect) -> str:
    """The option id resolving the first plain `effect` item of a card, e.g. '2:chain'."""
    return f"{effects(card_of(game, card_id)).index(effect) + 1}:{effect}"


def building(game, name, level=1) -> str:
    return one(game, "building", name=name, level=level)


def of_cost(game, cost, n, exclude=()) -> list[str]:
    """`n` catalysts of printed cost `cost`."""
    found = [cid for cid in ids(game, "catalyst", cost=cost) if cid not in exclude][:n]
    assert len(found) == n, f"the card set has fewer than {n} catalysts of cost {cost}"
    return found


# ------------------------------------------------------------------ arranging positions
def fresh(game, players=2, seed=1, market=()):
    """A new game at the first player's first decision (the action choice),
    with the board emptied and `market` (ids, space 1 first, None = empty)
    laid on it. Call st.refresh() once the position is arranged: note that a
    decision left with a single option is then taken automatically (with an
    empty board and no Catalyst in play, that is Collect Contributions)."""
    st = game.new_initial_state(players=players, seed=seed)
    assert is_action_choice(st), st.decision()
    set_market(st, market)
    return st


def set_market(st, market):
    for cid in st.zone("market"):
        if cid is not None:
            st.place(cid, "box")
    for slot, cid in enumerate(market):
        if cid is not None:
            st.place(cid, "market", slot=slot)


def give(st, cid, player, zone="playing_area"):
    st.place(cid, zone, owner=player)


def give_building(st, building_id, player, occupant=None):
    st.place(building_id, "buildings", owner=player)
    if occupant is not None:
        st.place(occupant, "occupant", owner=building_id)


def set_goal(st, goal_id):
    for g in st.zone("goals"):
        st.place(g, "goal_deck")
    st.place(goal_id, "goals")


def host_for(st, cid, player, name="Barracks"):
    """Put catalyst `cid` in a building of `player`: activating it then ends
    with the building's yes/no question, so the turn stays open to look at."""
    b = building(st, name)
    give_building(st, b, player, cid)
    return b


def clear_scoring(st):
    """No coins, military, buildings or scoring pile for anybody."""
    for p in range(st.n):
        st.set_counter("coins", 0, p)
        st.set_counter("military", 0, p)
        for cid in st.zone("scoring_pile", p) + st.zone("buildings", p):
            st.place(cid, "box")


def keep_deck(st, n):
    """Leave only the top `n` cards in the deck (the rest go to the box)."""
    deck = st.zone("deck")
    for cid in deck[:len(deck) - n]:
        st.place(cid, "box")


# ------------------------------------------------------------------ playing
def counters(st, player) -> dict:
    """The counters the simple effects add to: coins, chain tokens, military."""
    return {name: st.counter(name, player) for name in COUNTER.values()}


def is_action_choice(st) -> bool:
    return not st.is_terminal() and st.legal_actions()[0] == "collect"


def finish_turn(st):
    """Decline everything optional until the next player's action choice."""
    while not st.is_terminal() and not is_action_choice(st):
        legal = st.legal_actions()
        for quiet in ("pass", "done", "no"):
            if quiet in legal:
                st.apply_action(quiet)
                break
        else:
            st.apply_action(legal[0])
    return st


def resolve_only(st, game, card_id, *wanted):
    """Resolve the `wanted` plain effects of the card being activated, in
    order, and skip the rest."""
    for effect in wanted:
        play(st, item_id(game, card_id, effect))
    if "done" in st.legal_actions():
        play(st, "done")


def collect_until_over(st, limit=500) -> list[int]:
    """Play Collect Contributions (declining everything else) until the game
    ends; returns the seat of every turn played."""
    seats = []
    while not st.is_terminal():
        assert len(seats) < limit, "the game does not end"
        assert is_action_choice(st), st.decision()
        seats.append(st.current_player())
        play(st, "collect")
        finish_turn(st)
    return seats


def empty_the_deck(st):
    """On the current player's action choice with a deck of one card: recruit
    the cheapest card on the board (with coins to spare), so that refilling the
    board draws the deck's last card. Ends the turn."""
    assert len(st.zone("deck")) == 1
    me = st.current_player()
    st.set_counter("coins", 8, me)
    st.refresh()
    play(st, "recruit")
    play(st, st.legal_actions()[0])
    finish_turn(st)


def ended(game, players=2, seed=1, final_stack=True):
    """A finished game: the deck runs out on the first turn (without the
    set-aside stack if not `final_stack`), then everybody collects until the
    end; the scoring position is then cleared."""
    st = fresh(game, players, seed, market=of_cost(game, 1, 5))
    keep_deck(st, 1)
    if not final_stack:
        for cid in st.zone("final_stack"):
            st.place(cid, "box")
    st.refresh()
    empty_the_deck(st)
    if not st.is_terminal():
        collect_until_over(st)
    clear_scoring(st)
    return st


# ------------------------------------------------------------------ reference scoring
_GOAL_FORMS = [
    (re.compile(r"^(\d+)$"), lambda m, pile, coins: int(m[1])),
    (re.compile(r"^coins$"), lambda m, pile, coins: coins),
    (re.compile(r"^count c in scoring_pile where c\.cost == (\d+)$"),
     lambda m, pile, coins: sum(c.data["cost"] == int(m[1]) for c in pile)),
    (re.compile(r'^count c in scoring_pile where c\.colour == "(\w+)"$'),
     lambda m, pile, coins: sum(c.data["colour"] == m[1] for c in pile)),
    # "at least one symbol": a slash shows both symbols; several count once
    (re.compile(r"^count c in scoring_pile where (\w+) in c\.effects$"),
     lambda m, pile, coins: sum(any(m[1] in item.split("/") for item in effects(c)) for c in pile)),
]


def reference_goal_points(expression: str, pile: list, coins: int) -> int:
    """What a goal card's entry is worth, by the rulebook's list of goal kinds
    (THE GOAL CARDS), for a scoring pile of Card objects and a coin count."""
    for pattern, value in _GOAL_FORMS:
        m = pattern.match(expression.strip())
        if m:
            return value(m, pile, coins)
    raise ValueError(f"goal entry {expression!r} is none of the rulebook's goal kinds")


class Picker:
    """Hands out distinct catalysts of one game, chosen by predicate, so that
    the cards of one scenario never collide whatever the card set."""

    def __init__(self, game):
        self.game, self.used = game, set()

    def where(self, predicate, n=None, **fields):
        """One card id (or a list of `n`) of catalysts satisfying `predicate`."""
        found = [cid for cid in ids(self.game, "catalyst", predicate, **fields) if cid not in self.used]
        want = 1 if n is None else n
        assert len(found) >= want, f"the card set has too few such catalysts ({fields})"
        self.used.update(found[:want])
        return found[0] if n is None else found[:want]

    def effects(self, *items):
        """A catalyst whose effects are exactly `items`, e.g. pick.effects("coin")."""
        return self.where(effects_are(*items))

    def cost(self, cost, n):
        """`n` catalysts of printed cost `cost`, e.g. a board: pick.cost(3, 5)."""
        return self.where(lambda c: True, n, cost=cost)
