"""Catalyst's base game written by hand in plain Python, as fast as it goes:
the speed baseline the interpreter is measured against.

It plays by the rules of rules/catalyst.rules with the cards of
rules/cards.yaml (read from the file: names, costs, effects, player marks,
buildings and the goal cards' scoring expressions), and offers the same
decisions in the same order as the interpreter: the same options, the same
forced choices taken without asking, the same option ids (`option_ids`).
tests/test_baseline.py plays both on the same choices and compares every
decision and the final scores.

Randomness: the setup draws from the interpreter's generator
(interpreter/rng.py) exactly as the rules' setup does: shuffle the deck,
shuffle the goal cards, pick the first player. So `play(cards, n, seed, ...)`
is the game `new_initial_state(n, seed)` starts, with nothing copied from
the interpreter. The random bot (`random_chooser`) draws like
interpreter/agents/random_agent.py, so both engines play the same games.

A decision is a call `choose(player, kind, options) -> index`; `kind` says
how the option values become ids (see `option_ids`). Options with one value
(when the rules take it without asking) never reach `choose`.

    python benchmarks/baseline_catalyst.py [players] [games]
"""
from __future__ import annotations

import re
import sys
import time
from fractions import Fraction
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter.rng import MASK, below, seed_state, shuffle  # noqa: E402

CARDS = ROOT / "rules" / "cards.yaml"

# The parameters of rules/catalyst.rules.
STARTING_COINS = (4, 5, 5, 6)
FINAL_STACK_SIZE = 10
BUILDING_LEVELS = {2: (1, 3), 3: (1, 2, 3), 4: (1, 2, 3, 4)}
BUILDING_STEP = {2: 2, 3: 1, 4: 1}
PRICE_BY_SPACE = (1, 0, 0, -1, -1)
MIN_PRICE = 0
COIN_LIMIT = 8
MAJORITY_AWARDS = (6, 3, 1)
MAJORITY_MINIMUM = 1
MARKET_SLOTS = 5

EFFECTS = ("coin", "recruit", "chain", "build", "military")  # the rules' effects, by code
COIN, RECRUIT, CHAIN, BUILD, MILITARY = range(5)
ACTIONS = ("collect", "recruit", "activate_one")
SCORE_LABELS = ("Catalysts", "Buildings", "Military", "Majority", "Coins")

# Decision kinds: how option values become ids.
CARD, CARD_OR_PASS, ACTION, RESOLVE, MAY, ALTERNATIVE = range(6)
PASS = -1  # the last option of a CARD_OR_PASS decision
YES_NO = ("yes", "no")


class Cards:
    """The card file as flat lists indexed by card number (file order, as the
    interpreter numbers them)."""

    def __init__(self, path: Path = CARDS):
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        self.ids, self.kinds, self.names = [], [], []
        self.cost, self.colour, self.players, self.level, self.effects = [], [], [], [], []
        self.score = []  # per goal card: building name -> fn(pile, coins, cards)
        for kind, items in data.items():
            for item in items:
                self.kinds.append(kind)
                self.names.append(item["name"])
                self.cost.append(item.get("cost"))
                self.colour.append(item.get("colour"))
                self.players.append(item.get("players"))
                self.level.append(item.get("level"))
                self.effects.append(_effects(item["effects"]) if "effects" in item else ())
                self.score.append({b: _goal_term(text) for b, text in item["score"].items()} if "score" in item else None)
        self.ids = _ids(self.names)
        self.catalysts = [c for c, k in enumerate(self.kinds) if k == "catalyst"]
        self.buildings = [c for c, k in enumerate(self.kinds) if k == "building"]
        self.goals = [c for c, k in enumerate(self.kinds) if k == "goal"]
        # Price of each card on each space of the board.
        self.prices = [tuple(max(MIN_PRICE, (cost or 0) + m) for m in PRICE_BY_SPACE) for cost in self.cost]
        # The options of `resolve any` for each card and set of effects not yet resolved (a bit mask).
        self.resolve = [_resolve_options(fx) for fx in self.effects]
        # For the goal expressions: which effects each card shows.
        self.shows = [frozenset(a for alts in fx for a in alts) for fx in self.effects]


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def _ids(names: list) -> list:
    """Card ids as the interpreter gives them: the slugged name, numbered
    when several cards share it."""
    seen: dict = {}
    for i, name in enumerate(names):
        seen.setdefault(_slug(name), []).append(i)
    ids = [""] * len(names)
    for slug, indices in seen.items():
        for k, i in enumerate(indices, 1):
            ids[i] = slug if len(indices) == 1 else f"{slug}-{k}"
    return ids


def _effects(text: str) -> tuple:
    """"recruit/build military" -> ((RECRUIT, BUILD), (MILITARY,))."""
    return tuple(tuple(EFFECTS.index(a) for a in item.split("/")) for item in text.split())


def _resolve_options(effects: tuple) -> list:
    """Options of `resolve any` by mask of remaining items: (item, effect)
    for each alternative of each remaining item in order, then None (done);
    no options once every item is resolved."""
    out = []
    for mask in range(1 << len(effects)):
        opts = [(i, alt) for i, alts in enumerate(effects) if mask >> i & 1 for alt in alts]
        out.append(tuple(opts) + (None,) if opts else ())
    return out


_GOAL_TERMS = [
    (re.compile(r'count c in scoring_pile where c\.cost == (\d+)$'),
     lambda m: (lambda pile, coins, k: sum(1 for c in pile if k.cost[c] == int(m[1])))),
    (re.compile(r'count c in scoring_pile where c\.colour == "(\w+)"$'),
     lambda m: (lambda pile, coins, k: sum(1 for c in pile if k.colour[c] == m[1]))),
    (re.compile(r'count c in scoring_pile where (\w+) in c\.effects$'),
     lambda m: (lambda pile, coins, k, e=EFFECTS.index(m[1]): sum(1 for c in pile if e in k.shows[c]))),
    (re.compile(r'coins$'), lambda m: (lambda pile, coins, k: coins)),
    (re.compile(r'(\d+)$'), lambda m: (lambda pile, coins, k, v=int(m[1]): v)),
]


def _goal_term(text: str):
    """A goal card's scoring expression, for the forms the card file uses."""
    for pattern, make in _GOAL_TERMS:
        m = pattern.match(text.strip())
        if m:
            return make(m)
    raise ValueError(f"the baseline does not read the goal expression {text!r}")


def option_ids(cards: Cards, kind: int, options) -> list:
    """The interpreter's ids of a decision's options."""
    if kind == CARD:
        return [cards.ids[c] for c in options]
    if kind == CARD_OR_PASS:
        return [cards.ids[c] for c in options[:-1]] + ["pass"]
    if kind == ACTION:
        return [ACTIONS[a] for a in options]
    if kind == RESOLVE:
        return [f"{o[0] + 1}:{EFFECTS[o[1]]}" if o is not None else "done" for o in options]
    if kind == MAY:
        return list(options)
    return [EFFECTS[a] for a in options]


def play(k: Cards, n: int, seed: int, choose) -> dict:
    """Play one game of `n` players from `seed`; `choose(player, kind,
    options)` answers each decision. Returns scores, breakdowns, winners,
    turns and the first player, as the interpreter's `result()` does."""
    cost, effects, resolve, prices, colour, level = k.cost, k.effects, k.resolve, k.prices, k.colour, k.level
    ncards = len(k.ids)
    # -- setup
    rng = seed_state(seed)
    deck = [c for c in k.catalysts if k.players[c] <= n]
    rng = shuffle(rng, deck)
    final: list = []
    market = [None] * MARKET_SLOTS
    end_round = None
    rnd = 1

    def deck_emptied():
        """`when deck becomes empty`: the final stack becomes the deck; one more round."""
        nonlocal end_round
        if final:
            deck.extend(final)
            final.clear()
            if end_round is None or rnd + 1 < end_round:
                end_round = rnd + 1

    def refill():
        for i in range(MARKET_SLOTS - 1, -1, -1):
            if market[i] is None:
                if not deck:
                    return
                market[i] = deck.pop()
                if not deck:
                    deck_emptied()

    for _ in range(FINAL_STACK_SIZE):
        if not deck:
            break
        final.append(deck.pop())
        if not deck:
            deck_emptied()
    refill()
    levels = BUILDING_LEVELS[n]
    nlevels, step = len(levels), BUILDING_STEP[n]
    supply = [b for b in k.buildings if level[b] in levels]
    goals = list(k.goals)
    rng = shuffle(rng, goals)
    goal = goals[-1]
    rng, first = below(rng, n)
    coins = [STARTING_COINS[(p - first) % n] for p in range(n)]
    military = [0] * n
    areas = [[] for _ in range(n)]
    blds = [[] for _ in range(n)]
    piles = [[] for _ in range(n)]
    occupant = [None] * ncards
    host = [None] * ncards
    activated = [0] * ncards
    # The acting player's pieces, for the rule functions below.
    me = money = chain = mil = 0
    area: list = []
    bl: list = []

    def recruit_options():
        opts = []
        spaces = []
        for s in range(MARKET_SLOTS):
            c = market[s]
            if c is not None and prices[c][s] <= money:
                opts.append(c)
                spaces.append(s)
        return opts, spaces

    def recruit_one():
        nonlocal money
        opts, spaces = recruit_options()
        if not opts:
            return
        if len(opts) == 1:
            c, s = opts[0], spaces[0]
        else:
            i = choose(me, CARD, opts)
            c, s = opts[i], spaces[i]
        money -= prices[c][s]
        market[s] = None
        if bl:
            empty = [b for b in bl if occupant[b] is None]
            if empty:
                b = empty[0] if len(empty) == 1 else empty[choose(me, CARD, empty)]
                occupant[b] = c
                host[c] = b
                return
        area.append(c)

    def building_options():
        """The buildings on top of their stack, of a colour not owned, affordable: with their prices."""
        low: dict = {}
        count: dict = {}
        for x in supply:
            col = colour[x]
            count[col] = count.get(col, 0) + 1
            if col not in low or level[x] < low[col]:
                low[col] = level[x]
        owned = [colour[x] for x in bl]
        base = 1 + step * nlevels + len(bl)
        opts = [b for b in supply if level[b] == low[colour[b]] and colour[b] not in owned
                and base - step * count[colour[b]] <= money]
        return opts, base, count

    def acquire_building():
        nonlocal money
        opts, base, count = building_options()
        if not opts:
            return
        b = opts[0] if len(opts) == 1 else opts[choose(me, CARD, opts)]
        money -= base - step * count[colour[b]]
        supply.remove(b)
        bl.append(b)
        free = [c for c in area if not activated[c]]
        if free:
            c = free[0] if len(free) == 1 else free[choose(me, CARD, free)]
            area.remove(c)
            occupant[b] = c
            host[c] = b

    def possible(e):
        """The effect's `when`: recruiting and acquiring are offered only when they can do something."""
        if e == RECRUIT:
            return bool(recruit_options()[0])
        if e == BUILD:
            return bool(building_options()[0])
        return True

    def run_effect(e):
        nonlocal money, chain, mil
        if e == COIN:
            money += 1
        elif e == CHAIN:
            chain += 1
        elif e == MILITARY:
            mil += 1
        elif e == RECRUIT:
            recruit_one()
        else:
            acquire_building()

    def activate(c):
        activated[c] = 1
        by_mask = resolve[c]
        mask = len(by_mask) - 1
        while mask:
            opts = [o for o in by_mask[mask] if o is None or possible(o[1])]
            if len(opts) == 1:  # only "done": nothing left can do anything
                break
            o = opts[choose(me, RESOLVE, opts)]
            if o is None:
                break
            mask &= ~(1 << o[0])
            run_effect(o[1])
        b = host[c]
        if b is not None and choose(me, MAY, YES_NO) == 0:
            for alts in effects[b]:
                alts = [a for a in alts if possible(a)]
                if alts:
                    run_effect(alts[0] if len(alts) == 1 else alts[choose(me, ALTERNATIVE, alts)])

    # -- rounds of turns
    turns = 0
    while True:
        for i in range(n):
            me = (first + i) % n
            turns += 1
            money, chain, mil = coins[me], 0, military[me]
            area, bl = areas[me], blds[me]
            # choose action (nothing is activated when a turn starts)
            can_recruit = False
            for s in range(MARKET_SLOTS):
                c = market[s]
                if c is not None and prices[c][s] <= money:
                    can_recruit = True
                    break
            ready = area[:]
            for b in bl:
                if occupant[b] is not None:
                    ready.append(occupant[b])
            acts = (0, 1, 2) if can_recruit and ready else (0, 1) if can_recruit else (0, 2) if ready else (0,)
            action = 0 if len(acts) == 1 else acts[choose(me, ACTION, acts)]
            if action == 0:
                most = 0
                for c in market:
                    if c is not None and cost[c] > most:
                        most = cost[c]
                money += most
            elif action == 1:
                recruit_one()
            else:
                activate(ready[0] if len(ready) == 1 else ready[choose(me, CARD, ready)])
                # chain activation tokens (only an activation gives them)
                while chain > 0:
                    ready = [c for c in area if not activated[c]]
                    if bl:
                        ready += [occupant[b] for b in bl if occupant[b] is not None and not activated[occupant[b]]]
                    if not ready:
                        break
                    ready.append(PASS)
                    c = ready[choose(me, CARD_OR_PASS, ready)]
                    if c == PASS:
                        break
                    chain -= 1
                    activate(c)
                # activated catalysts to the scoring pile
                pile = piles[me]
                kept = []
                for c in area:
                    if activated[c]:
                        activated[c] = 0
                        pile.append(c)
                    else:
                        kept.append(c)
                area[:] = kept
                for b in bl:
                    c = occupant[b]
                    if c is not None and activated[c]:
                        activated[c] = 0
                        occupant[b] = host[c] = None
                        pile.append(c)
            # free catalysts fill empty buildings
            while area and bl:
                empty = [b for b in bl if occupant[b] is None]
                if not empty:
                    break
                c = area[0] if len(area) == 1 else area[choose(me, CARD, area)]
                b = empty[0] if len(empty) == 1 else empty[choose(me, CARD, empty)]
                area.remove(c)
                occupant[b] = c
                host[c] = b
            # slide the board and refill it
            if None in market:
                held = [c for c in market if c is not None]
                market[:] = [None] * (MARKET_SLOTS - len(held)) + held
                refill()
            coins[me] = money if money <= COIN_LIMIT else COIN_LIMIT
            military[me] = mil
        if end_round is not None and rnd >= end_round:
            break
        rnd += 1
    return _result(k, n, goal, coins, military, blds, piles, turns, first)


def _result(k: Cards, n, goal, coins, military, blds, piles, turns, first) -> dict:
    cost, names, score = k.cost, k.names, k.score[goal]
    ranked = [m for m in military if m >= MAJORITY_MINIMUM]
    breakdowns, scores, tiebreaks = [], [], []
    for p in range(n):
        pile = piles[p]
        catalysts = sum(cost[c] for c in pile)
        buildings = sum(score[names[b]](pile, coins[p], k) for b in blds[p])
        majority = _majority(military[p], ranked)
        raw = (catalysts, buildings, military[p] // 2, majority, coins[p] // 3)
        breakdowns.append({label: _number(v) for label, v in zip(SCORE_LABELS, raw)})
        scores.append(_number(sum(raw)))
        tiebreaks.append(catalysts)
    keys = list(zip(scores, tiebreaks))
    best = max(keys)
    return {"players": n, "scores": scores, "breakdown": breakdowns,
            "winners": [p for p in range(n) if keys[p] == best], "turns": turns, "first_player": first}


def _majority(mine, ranked):
    if mine < MAJORITY_MINIMUM:
        return 0
    place = sum(1 for v in ranked if v > mine)
    tied = sum(1 for v in ranked if v == mine)
    total = sum(MAJORITY_AWARDS[place:place + tied])
    return total // tied if total % tied == 0 else Fraction(total, tied)


def _number(value):
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(round(value, 4))
    return value


def random_chooser(n: int, seed: int):
    """The random bot of every seat, drawing as interpreter/agents/random_agent.py
    does (one SplitMix64 generator per seat)."""
    states = [seed_state((seed + 1) * 1_000_003 + seat * 7919) for seat in range(n)]

    def choose(player, kind, options):
        s = (states[player] + 0x9E3779B97F4A7C15) & MASK
        states[player] = s
        x = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
        return ((x ^ (x >> 31)) * len(options)) >> 64

    return choose


def games_per_second(cards: Cards, players: int, games: int, seed: int = 0) -> float:
    """Random-bot games of seeds seed..seed+games-1, with their scores, per second."""
    start = time.perf_counter()
    for s in range(seed, seed + games):
        play(cards, players, s, random_chooser(players, s))
    return games / (time.perf_counter() - start)


def decisions_per_game(cards: Cards, players: int, games: int, seed: int = 0) -> float:
    """How many decisions the random games of `games_per_second` take, on average."""
    total = 0
    for s in range(seed, seed + games):
        draw = random_chooser(players, s)

        def counted(player, kind, options):
            nonlocal total
            total += 1
            return draw(player, kind, options)

        play(cards, players, s, counted)
    return total / games


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    players = int(argv[0]) if argv else 2
    games = int(argv[1]) if len(argv) > 1 else 2000
    cards = Cards()
    rate = games_per_second(cards, players, games)
    decisions = decisions_per_game(cards, players, min(games, 200))
    print(f"players={players} games={games} games/s={rate:.0f} decisions/game={decisions:.1f}")


if __name__ == "__main__":
    main()
