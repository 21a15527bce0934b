"""The bots' shortcuts give what the long way gives: worlds dealt from a plan
made once per decision, remembered values, shared positions. Each test
compares a shortcut with the work done afresh, or with what the bots
produced before the shortcut existed (recorded here), and catches a
shortcut that serves something stale."""
from __future__ import annotations

import hashlib
import json

import pytest

from interpreter import rng
from interpreter.agents import make_agent
from interpreter.loader import load_game
from interpreter.play import world_sampler
from interpreter.worlds import determinize

from .conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures"
# The worlds sampled along a few random games of each rules file, hashed, as
# dealt before worlds were dealt from a plan: the plan must deal every card,
# back, mark, hidden size and secret pick the same. (Without the frames of the
# rules running, which a world copies from the position: how the compiler
# lays those out is not what dealing must keep. Since a player offered cards
# lying where every player sees them is not noted as knowing them, the hashes
# of the four files with such choices changed; with the knowledge of the
# cards lying in view left out, the worlds were the same before and after.)
WORLDS = {
    "rules/catalyst.rules": "df69cd9e85103018",
    "rules/samples/rivals/rivals.rules": "5a96e9bc04e7b15a",
    "rules/samples/capsule/capsule.rules": "816471a946004554",
    "tests/fixtures/hidden_sizes/vaults.rules": "03288c9222c61f83",
    "tests/fixtures/knowledge/peek.rules": "e2abde4b84de3694",
    "tests/fixtures/secrets/secrets.rules": "7ef3bd42aaea4c0e",
    "rules/catastropolis/catastropolis.rules": "0dfdba1616f01eeb",
}


def positions(game, seed: int, steps: int = 120, every: int = 15):
    """Positions of a seeded random game, every `every` decisions."""
    players = max(game.program.min_players, min(2 + seed % 2, game.program.max_players))
    st = game.new_initial_state(players, seed)
    bot = make_agent("random", seed, 0)
    for step in range(steps):
        if st.is_terminal():
            return
        if step % every == 0:
            yield st
        st.apply_action(bot.choose_id(st.legal_actions()))


@pytest.mark.parametrize("path", sorted(WORLDS))
def test_worlds_are_dealt_as_before(path):
    game = load_game(ROOT / path)
    h = hashlib.sha256()
    for seed in range(3):
        for st in positions(game, seed):
            worlds = world_sampler(st, st.current_player(), seed)
            for _ in range(3):
                world = json.loads(worlds().to_json())
                del world["state"]["frames"]
                h.update(json.dumps(world, sort_keys=True).encode())
    assert h.hexdigest()[:16] == WORLDS[path]


def test_a_sampler_deals_each_world_afresh():
    """Many worlds from one sampler (one plan) are the worlds dealt one by
    one from scratch, the generator carried along."""
    game = load_game(FIXTURES / "hidden_sizes" / "vaults.rules")
    for st in positions(game, 1, steps=60, every=20):
        player = st.current_player()
        worlds = world_sampler(st, player, 4)
        state = rng.seed_state(4 * 7_919 + st.decisions * 31 + player)
        for _ in range(6):
            expected, state = determinize(st, player, state)
            assert worlds().to_json() == expected.to_json()


def test_a_sampler_deals_from_the_position_as_it_is_now():
    """A sampler whose position moved on since its last world deals from
    the new position, not from a plan made for the old one."""
    game = load_game(ROOT / "rules" / "catalyst.rules")
    st = game.new_initial_state(2, 2)
    player = st.current_player()
    worlds = world_sampler(st, player, 9)
    _, state = determinize(st, player, rng.seed_state(9 * 7_919 + st.decisions * 31 + player))
    worlds()
    before = st.clone()

    def cards(position):
        return determinize(position, player, state)[0].z

    while cards(st) == cards(before):  # on until the unseen cards lie elsewhere
        st.apply_action(st.legal_actions()[-1])
    assert worlds().z == cards(st)


def test_shuffle_draws_as_below_does():
    """`rng.shuffle` writes the draw of `below` out: the same Fisher-Yates
    swaps, the same state after, for every length."""
    for n in range(12):
        for seed in range(20):
            items, expected = list(range(n)), list(range(n))
            state = rng.seed_state(seed)
            for i in range(n - 1, 0, -1):
                state, j = rng.below(state, i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert rng.shuffle(rng.seed_state(seed), items) == state
            assert items == expected


def test_held_cards_list_what_cards_hold_as_the_rules_do():
    """The evaluation lists the cards each held card holds itself (not
    through the rules' generator): the same cards in the same order as
    `hosted_cards`, through cards held three deep and a loop of cards
    holding each other (arranged by hand)."""
    from interpreter.agents.evaluate import Evaluator
    from interpreter.language.builtins import hosted_cards
    from interpreter.runtime.ops import zone_to_change

    game = load_game(ROOT / "rules" / "catalyst.rules")
    ev = Evaluator(game.program)
    st = game.new_initial_state(2, 3)
    base = game.program.zones["occupant"].base
    deck = game.program.zones["deck"].base
    holder, a, b, c = st.z[deck][-4:]
    zone_to_change(st, deck).remove(holder)
    area = game.program.zones["playing_area"].base  # player 0's
    zone_to_change(st, area).append(holder)
    st.loc[holder] = area

    def put(card, host):
        zone_to_change(st, st.loc[card]).remove(card)
        zone_to_change(st, base + host)[0] = card
        st.loc[card] = base + host

    put(a, holder)
    one = [(holder, st.loc[holder])] + hosted_cards(st, holder)  # (one card deep: the usual case)
    assert [x for x in ev.held(st, 0) if x[0] in (holder, a)] == one == [(holder, area), (a, base + holder)]
    put(b, a)
    put(c, b)
    expected = [(holder, st.loc[holder])] + hosted_cards(st, holder)
    assert [x for x in ev.held(st, 0) if x[0] in (holder, a, b, c)] == expected
    assert [card for card, _ in expected] == [holder, a, b, c]
    zone_to_change(st, base + c)[0] = a  # a loop: a also lies on c (listed once)
    assert ev.held(st, 0)[:4] == [(holder, st.loc[holder])] + hosted_cards(st, holder)


def test_team_totals_and_squash_give_what_the_long_way_gives():
    """`by_team` takes each seat alone without adding up by team, and
    `squash` finds the best other value without a generator: the same
    numbers, to the last bit, as the long way (written out here)."""
    import math

    from interpreter.agents.evaluate import by_team, squash

    def long_by_team(vals, teams, player):
        totals: dict = {}
        for v, t in zip(vals, teams):
            totals[t] = totals.get(t, 0.0) + v
        order = list(totals)
        return [totals[t] for t in order], order.index(teams[player])

    def long_squash(vals, player, scale=None):
        margin = vals[player] - max(v for p, v in enumerate(vals) if p != player)
        scale = scale or max(2.0, 0.15 * sum(abs(v) for v in vals) / len(vals))
        x = margin / scale
        return 1.0 if x > 30 else 0.0 if x < -30 else 1.0 / (1.0 + math.exp(-x))

    state = rng.seed_state(5)
    for n in (2, 3, 4):
        for teams in (list(range(n)), [0] * n, [0, 1] * (n // 2) + [0] * (n % 2), list(range(n))[::-1]):
            for _ in range(30):
                vals = []
                for _ in range(n):
                    state, k = rng.below(state, 2_001)
                    vals.append((k - 1_000) / 7)
                for player in range(n):
                    got = by_team(vals, teams, player)
                    assert got == long_by_team(vals, teams, player)
                    if len(got[0]) > 1:
                        for scale in (None, 3.0):
                            assert squash(*got, scale) == long_squash(*got, scale)


def first_choices(path: str, players: int, seed: int, spec: str, count: int = 60) -> list:
    """The first `count` choices of a seeded game of the bots `spec` (fewer
    where the game ends first)."""
    from interpreter.agents import make_agents
    from interpreter.play import play_game

    taken: list = []

    class Enough(Exception):
        pass

    def note(st, decision, choice):
        taken.append(choice)
        if len(taken) == count:
            raise Enough

    try:
        play_game(load_game(ROOT / path), players, seed, make_agents(spec, players, seed), on_decision=note)
    except Enough:
        pass
    return taken


@pytest.mark.parametrize("path, spec, seed, expected", [
    ("rules/catalyst.rules", "mcts:24,mcts:16:horizon=0", 3, "d0f7b1008f33c8b7"),
    ("rules/samples/rivals/rivals.rules", "mcts:16,greedy:tries=3", 1, "9e1f0b4a664cc9b6"),
])
def test_mcts_makes_the_recorded_choices(path, spec, seed, expected):
    """The first 60 choices of seeded games of mcts (with the evaluation
    and with rollouts to the end) against mcts and greedy, hashed, as they
    were before the shortcuts: worlds, remembered values and evaluation
    made faster must not change one (greedy's whole games are recorded in
    tests/fixtures/greedy_choices.json)."""
    taken = first_choices(path, 2, seed, spec)
    assert len(taken) == 60
    assert hashlib.sha256("\n".join(taken).encode()).hexdigest()[:16] == expected


@pytest.mark.parametrize("path, players, spec, seed, expected", [
    ("rules/solo.rules", 2, "greedy", 1, "48370804814327be"),
    ("rules/catastropolis/catastropolis.rules", 3, "greedy", 2, "573892a9d2e4f068"),
    ("rules/samples/capsule/capsule.rules", 3, "greedy", 1, "aee47f69d4c731bd"),
    ("rules/samples/rivals/rivals.rules", 2, "greedy:turns=2:tries=3", 2, "4ccd1a994a1c50a7"),
    ("tests/fixtures/hidden_teams.rules", 4, "greedy", 1, "a44c256edcd4781d"),
    ("tests/fixtures/partners.rules", 4, "greedy", 1, "48294c3f3fc3d416"),
    ("tests/fixtures/coop_points.rules", 2, "greedy", 1, "6f5d78ae10d721d2"),
])
def test_greedy_makes_the_recorded_choices_on_other_rules(path, players, spec, seed, expected):
    """The first 60 choices of seeded greedy games (with teams, played
    together, alone against the rules, looking two turns ahead), hashed, as
    they were before greedy's shortcuts (its own value computed rather than
    recalled, the potential walked zone by zone, children looked up in the
    walk): a shortcut giving another number would change a choice here."""
    taken = first_choices(path, players, seed, spec)
    assert hashlib.sha256("\n".join(taken).encode()).hexdigest()[:16] == expected


def _bits(x: float) -> tuple:
    """A float to the last bit (0.0 and -0.0 told apart)."""
    import math

    return x, math.copysign(1.0, x)


@pytest.mark.parametrize("path", ["rules/catalyst.rules", "rules/samples/rivals/rivals.rules",
                                  "rules/samples/capsule/capsule.rules", "tests/fixtures/hidden_teams.rules",
                                  "tests/fixtures/partners.rules", "tests/fixtures/coop_points.rules",
                                  "rules/catalyst.rules:pocket"])
def test_margins_and_potentials_are_the_long_ways(path):
    """greedy's margin (the player's own value computed, the others'
    recalled, teams added up only where there are teams, two seats each
    alone written out) and the potential
    (the held cards walked zone by zone, the one zone on cards written out)
    give, to the last bit, what the
    long way gives: every value computed afresh and added up by `by_team`,
    and the potential summed over `held`'s list. (`:pocket`: the rules with
    a second zone on cards, which no rules file has.)"""
    from interpreter.agents.evaluate import TOGETHER, Evaluator, by_team

    path, _, pocket = path.partition(":")
    text = (ROOT / path).read_text()
    if pocket:
        one = "zone occupant: per card, slots 1, visible"
        text = text.replace(one, f"zone pocket: per card, visible\n{one}")
    game = load_game(ROOT / path, text=text)
    assert not pocket or len([z for z in game.program.zones.values() if z.scope == "card"]) == 2
    ev = Evaluator(game.program)
    kinds, zone_of = game.program.card_kinds, game.program.zone_of_instance

    def long_potential(st, player, before):
        total = 0.0
        me, st.me = st.me, player
        for card, src in ev.held(st, player):
            best = 0.0
            for base, terms, rate in ev.moves_at[src][card]:
                gain = ev._gain(st, card, src, st.z[src], zone_of[src].slots, base + player, terms, before)
                if gain is not None and gain * rate > best:
                    best = gain * rate
            total += best if ev.moves_at[src][card] else 0.0
        st.me = me
        return total

    def long_margin(st, player):
        vals = [ev.compute_value(st, p) for p in range(st.n)]
        if ev.together:
            return sum(vals) + (TOGETHER if st.won else -TOGETHER if st.lost else 0.0)
        if st.n == 1:
            return vals[0]
        totals, mine = by_team(vals, st.teams(), player)
        return totals[mine] - max(totals[:mine] + totals[mine + 1:]) if len(totals) > 1 else totals[mine]

    met = 0
    for seed in range(3):
        for st in positions(game, seed, steps=150, every=5):
            # (the evaluator takes seats for rivals only where the state has each seat alone)
            assert not ev.rivals or (not ev.together and st.teams() == list(range(st.n)))
            for player in range(st.n):
                before = ev.term_values(st, player)
                assert _bits(ev.potential(st, player, before)) == _bits(long_potential(st, player, before))
                assert _bits(ev.margin(st, player)) == _bits(long_margin(st, player))
                met += 1
    assert met > 10


@pytest.mark.parametrize("path", ["rules/catalyst.rules", "rules/samples/rivals/rivals.rules",
                                  "rules/samples/capsule/capsule.rules", "tests/fixtures/coop_points.rules"])
def test_counter_shares_ask_again_only_the_terms_that_read_the_counter(path, monkeypatch):
    """A counter's share of the evaluation, computed while its reads are
    noted (as it is remembered), asks again at the next values only the
    terms that read the player's value of the counter (a score that reads
    it only under some goal, say): it is, to the last bit, the share the
    long way gives, every term asked at every value (outside a noted
    computation, where no read is told apart)."""
    from functools import partial

    from interpreter.agents import evaluate
    from interpreter.agents.recall import Recall, reads_entry

    game = load_game(ROOT / path)
    ev = evaluate.Evaluator(game.program)
    skipped = 0

    def counted(row, i, compute):
        nonlocal skipped
        value, read = reads_entry(row, i, compute)
        skipped += not read
        return value, read

    monkeypatch.setattr(evaluate, "reads_entry", counted)
    shares = [info for info in ev.counters if ev.counter_terms[info.index]]
    met = 0
    for seed in range(3):
        for st in positions(game, seed, steps=150, every=5):
            for info in shares:
                noted = Recall(partial(ev.counter_smoothing, info))
                for player in range(st.n):
                    assert _bits(noted(st, player)) == _bits(ev.counter_smoothing(info, st, player))
                    met += 1
    assert met > 10 or not shares
    assert skipped or path != "rules/catalyst.rules"  # (its buildings read the coins under one goal only)


@pytest.mark.parametrize("path", sorted(WORLDS))
def test_a_decision_without_labels_is_the_decision_less_its_labels(path):
    """A bot that reads no labels is given the decision without them: the
    same player, prompt and option ids, in the same order."""
    game = load_game(ROOT / path)
    for seed in range(2):
        for st in positions(game, seed):
            full, bare = st.decision(), st.decision(labels=False)
            assert (bare.player, bare.prompt) == (full.player, full.prompt)
            assert [o.id for o in bare.options] == [o.id for o in full.options]
            assert {o.label for o in bare.options} <= {None} and bare.unavailable == ()


@pytest.mark.parametrize("spec", ["greedy:3", "mcts:8"])
def test_bots_given_no_labels_choose_as_with_them(spec):
    """The bots that say they read no labels (`Agent.labels`) choose the
    same whether they are given the labels or not."""
    from interpreter.play import decision_for

    game = load_game(ROOT / "rules/catalyst.rules")
    assert make_agent(spec, 0, 0).labels is False
    for st in positions(game, 1, steps=60, every=20):
        seat = st.current_player()
        choices = [make_agent(spec, 4, seat).choose(decision, st.observation(seat), world_sampler(st, seat, 4))
                   for decision in (st.decision(), decision_for(st, make_agent(spec, 4, seat)))]
        assert choices[0] == choices[1]


def _frozen_the_long_way(value):
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen_the_long_way(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen_the_long_way(v) for v in value)
    return value


@pytest.mark.parametrize("path", sorted(WORLDS))
def test_the_guards_layouts_are_equal_where_the_observations_are(path):
    """The progress guard's key of a layout (the observation's zones as
    canonical JSON) is the same for two observations exactly where their
    zones, each item frozen in turn, are equal: over the observations met
    in seeded games, by every seat, and over data whose keys come in
    another order or whose values differ only in where they lie."""
    from interpreter.agents.base import _layout

    game = load_game(ROOT / path)
    seen = []
    for seed in range(2):
        for st in positions(game, seed, every=5):
            seen += [st.observation(seat)["zones"] for seat in range(st.n)]
    seen += [{"b": [1, [2, {"c": None}]], "a": {"x": [], "y": ["1"]}}, {"a": {"y": ["1"], "x": []}, "b": [1, [2, {"c": None}]]},
             {"a": [None, "id"], "b": {"count": 2}}, {"a": ["id", None], "b": {"count": 2}}, {"a": [None, "id"], "b": {"count": 3}}]
    alike = 0
    for i, one in enumerate(seen):
        for other in seen[i + 1:]:
            same = _frozen_the_long_way(one) == _frozen_the_long_way(other)
            assert (_layout(one) == _layout(other)) == same
            alike += same
    assert alike  # (the same dict, its keys put in another order, at least)


@pytest.mark.parametrize("path", sorted(WORLDS))
def test_a_greedy_step_keeps_the_ids_its_position_offered(path):
    """A step of greedy's completion tree reads its position's list of ids
    without copying it: playing every option from the position (the last
    on the position itself) leaves the list as it was offered."""
    from interpreter.agents.greedy import _Step

    game = load_game(ROOT / path)
    for seed in range(2):
        for st in positions(game, seed):
            player, offered = st.current_player(), st.legal_actions()
            step = _Step(st.clone(), player, st.turns)
            for i in range(len(offered)):
                step.child(i, player, st.turns)
            assert step.ids == offered


def _walked_the_long_way(root, r: int, player: int, turn: int) -> tuple:
    """(the end one walk down greedy's completion tree reaches, the generator
    after), each option drawn by `rng.below` and each step opened on a copy
    of its position (but the last option opened there)."""
    step = root
    while step.ids is not None:
        r, i = rng.below(r, len(step.ids))
        step = step.children.get(i) or step.child(i, player, turn)
    return step, r


@pytest.mark.parametrize("path", sorted(WORLDS))
def test_a_greedy_walk_draws_as_below_does(path):
    """Walks down greedy's completion tree (the draw written out) take at
    every step the option `rng.below` draws, and leave the generator where
    `below` leaves it: walked again the long way, the tree they opened
    leads to the same ends of the turn. Its best end is the best of the
    ends the long way reaches on a tree of its own, the positions alike
    (each valued by its fingerprint), though the final walk opens its steps
    on the positions themselves, uncopied."""
    from interpreter.agents.greedy import _Step

    game = load_game(ROOT / path)
    walks = 0
    for seed in range(2):
        for st in positions(game, seed):
            player, turn = st.current_player(), st.turns
            root = _Step(st.clone(), player, turn)
            r = start = rng.seed_state(seed + st.decisions)
            after, ends = r, []
            for _ in range(6):
                end, after = root.walk(after, player, turn, False)
                ends.append(end)
            for end in ends:
                step, r = _walked_the_long_way(root, r, player, turn)
                assert step is end
                walks += 1
            assert r == after
            best, after = _Step(st.clone(), player, turn).best(start, player, turn, 6, lambda s, p: s.fingerprint())
            long_way, r = _Step(st.clone(), player, turn), start
            prints = []
            for _ in range(6):
                end, r = _walked_the_long_way(long_way, r, player, turn)
                prints.append(end.st.fingerprint())
            assert (best, after) == (max(prints), r)
    assert walks > 10


def test_a_deal_forgets_the_counter_values_its_player_does_not_see():
    """The counter values a deal sets to their lowest (worked out once per
    rules, player and number of players) are, in every position met, those
    the player does not see there, asked of `counter_visible` value by value."""
    from interpreter.visibility import counter_visible
    from interpreter.worlds import Deal

    forgotten = 0
    for path in sorted(WORLDS):
        game = load_game(ROOT / path)
        for seed in range(4):
            for st in positions(game, seed, every=40):
                for player in range(st.n):
                    long_way = []
                    for info in game.program.counter_list:
                        low = info.minimum if info.minimum is not None else 0
                        low = min(low, info.maximum) if info.maximum is not None else low
                        for owner in range(len(st.ctr[info.index])) if info.scope != "card" else ():
                            if not counter_visible(info, owner if info.scope == "player" else None, player):
                                long_way.append((info.index, owner, None if info.holds_player else low))
                    assert list(Deal(st, player).forgotten) == long_way
                    forgotten += len(long_way)
    assert forgotten > 10


def test_a_recalled_values_cards_are_read_as_the_long_way_reads_them():
    """The key of a remembered value's cards (read one by one for a few
    zones, by `itemgetter` for more) is each zone's cards made a tuple, in
    the trace's order, and reading it on noting lists notes the zones read."""
    from interpreter.agents.recall import EVERYTHING, _cards_maker, _noted

    class At:
        def __init__(self, z):
            self.z = z

    rows = [[c, c + 1][: c % 3] for c in range(12)]
    for zones in [(), (4,), (0, 7), (2, 5, 11), (1, 3, 6, 9), tuple(range(12)), EVERYTHING]:
        picked = range(12) if zones is EVERYTHING else zones
        assert _cards_maker(zones)(At(rows)) == tuple(tuple(rows[i]) for i in picked)
        noted = _noted(rows)
        _cards_maker(zones)(At(noted))
        assert noted.read == ({EVERYTHING} if zones is EVERYTHING else set(zones))


def test_the_guard_sets_aside_what_it_chose_at_the_same_layout():
    """The guard notes each choice under its decision and layout (the list
    found when asked, appended to when told the choice) and, once the same
    decision has come back `patience` times, offers the options not yet chosen."""
    from interpreter.agents.base import ProgressGuard
    from interpreter.game import Decision, Option

    guard = ProgressGuard(2)
    decision = Decision(0, "Choose", (Option("a", None), Option("b", None), Option("c", None)))
    seen = {"turn": 3, "zones": {"deck": {"count": 4}, "hand": [["x", "y"], {"count": 2}]}}
    for choice, offered in [("a", ["a", "b", "c"]), ("b", ["a", "b", "c"]), ("c", ["c"]), ("c", ["a", "b", "c"])]:
        assert guard.allowed(decision, seen, ["a", "b", "c"]) == offered
        guard.record(choice)
    assert list(guard.seen.values()) == [["a", "b", "c", "c"]]
    moved = {"turn": 3, "zones": {"deck": {"count": 3}, "hand": [["x", "y"], {"count": 2}]}}
    assert guard.allowed(decision, moved, ["a", "b", "c"]) == ["a", "b", "c"]


@pytest.mark.parametrize("path", sorted(WORLDS))
def test_a_deal_finds_the_marks_the_long_way_finds(path):
    """Where a back has no loose cards, a deal looks only at the places'
    marks (the cards dealt are the cards there): the marks it keeps are
    those found looking at the cards dealt as well."""
    from interpreter.worlds import Deal, _marks, _on_card

    game = load_game(ROOT / path)
    for seed in range(3):
        for st in positions(game, seed):
            for seat in range(st.n):
                on_card = _on_card(st)
                for places, kept, cards, marks in Deal(st, seat).backs:
                    there = [st.z[zi][i] for zi, i in places]
                    assert marks == _marks(on_card, there, cards + kept)
