"""Bots: the registry and its specs, seeded play, no peeking, any player count,
the solo rules, and a small sanity check of strength (the full ladder is
benchmarks/ladder.py)."""
from __future__ import annotations

import json

import pytest

from interpreter.agents import AGENTS, GreedyAgent, MCTSAgent, make_agent, make_agents
from interpreter.runtime.ops import zone_to_change
from interpreter.engine.state import fields_of
from interpreter.visibility import unseen_places
from interpreter.worlds import determinize
from interpreter.agents.evaluate import Evaluator
from interpreter.errors import RulesError
from interpreter.loader import load_game
from interpreter.play import play_game, world_sampler

from .conftest import CATALYST, ROOT, RULES

SOLO = RULES / "solo.rules"
FAST = {"random": "random", "greedy": "greedy:tries=2", "mcts": "mcts:6"}


@pytest.fixture(scope="module")
def game():
    return load_game(CATALYST)


def midgame(game, players=2, seed=3, steps=40):
    """A position some way into a game, at a decision with several options."""
    st = game.new_initial_state(players, seed)
    bot = make_agent("random", seed, 0)
    while st.decisions < steps or len(st.legal_actions()) < 2:
        st.apply_action(bot.choose_id(st.legal_actions()))
    return st


# ------------------------------------------------------------------ registry and specs
def test_registry_names_the_bots():
    assert {"random", "greedy", "mcts"} <= set(AGENTS)
    assert isinstance(make_agent("greedy", 1, 0), GreedyAgent)
    assert isinstance(make_agent(" mcts:50 ", 1, 0), MCTSAgent)


@pytest.mark.parametrize("spec, iterations, ms", [
    ("mcts", 200, None),
    ("mcts:50", 50, None),
    ("mcts:250ms", None, 250.0),
    ("mcts:2s", None, 2000.0),
    ("mcts:100:250ms", 100, 250.0),
    ("mcts:iterations=30:c=0.3", 30, None),
    ("mcts:ms=40", None, 40.0),
])
def test_mcts_budgets(spec, iterations, ms):
    bot = make_agent(spec, 1, 0)
    assert (bot.iterations, bot.ms) == (iterations, ms)


def test_options_by_name_and_position():
    assert make_agent("greedy:5", 1, 0).tries == 5
    bot = make_agent("greedy:tries=3:worlds=2:discount=0.75", 1, 0)
    assert (bot.tries, bot.samples, bot.discount) == (3, 2, 0.75)
    bot = make_agent("mcts:40:c=0.5:horizon=2:tries=3", 1, 0)
    assert (bot.iterations, bot.c, bot.horizon, bot.tries) == (40, 0.5, 2, 3)


@pytest.mark.parametrize("spec, message", [
    ("gredy", "unknown bot 'gredy'; known bots: greedy, mcts, random (did you mean 'greedy'?)"),
    ("random:3", "bot 'random' takes no options (got '3')"),
    ("mcts:lots", "bot 'mcts' does not understand 'lots'"),
    ("mcts:0", "bot 'mcts' needs a positive budget (mcts:200, mcts:500ms), got '0'"),
    ("mcts:c=high", "bot 'mcts': option 'c' expects a number, got 'high'"),
    ("mcts:horizn=2", "bot 'mcts' has no option 'horizn'"),
    ("greedy:tries=2.5", "bot 'greedy': option 'tries' expects a whole number, got '2.5'"),
])
def test_bad_specs_say_what_is_wrong(spec, message):
    with pytest.raises(RulesError) as err:
        make_agent(spec, 1, 0)
    assert message in str(err.value)
    if spec == "mcts:horizn=2":
        assert "did you mean 'horizon'?" in str(err.value)


def test_one_bot_per_seat_or_one_for_all():
    assert [a.name for a in make_agents("mcts:5,greedy,random", 3, 1)] == ["mcts", "greedy", "random"]
    assert [a.name for a in make_agents("greedy", 3, 1)] == ["greedy"] * 3
    with pytest.raises(RulesError, match="2 bots named for 3 players"):
        make_agents("greedy,random", 3, 1)


# ------------------------------------------------------------------ seeded, and no peeking
def decisions_of(game, spec: str, seed: int, limit: int, players: int = 2) -> list:
    taken = []
    st = game.new_initial_state(players, seed)
    agents = make_agents(spec, players, seed)
    while not st.is_terminal() and len(taken) < limit:
        player = st.current_player()
        choice = agents[player].choose(st.decision(), st.observation(player), world_sampler(st, player, seed))
        taken.append(choice)
        st.apply_action(choice)
    return taken


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
def test_same_seed_same_decisions(game, bot):
    first = decisions_of(game, FAST[bot], 11, 40)
    assert first == decisions_of(game, FAST[bot], 11, 40)
    assert first != decisions_of(game, FAST[bot], 12, 40)


def rearranged(st, player: int, seed: int):
    """A copy of `st` in which the cards `player` cannot see are reshuffled
    (among the deck, the set-aside stack and the others' face-down piles):
    everything the player sees is the same."""
    other = st.clone()
    kinds = st.program.card_kinds
    by_kind: dict = {}
    for zi, i in unseen_places(other, player):
        by_kind.setdefault(kinds[other.z[zi][i]], []).append((zi, i))
    for places in by_kind.values():  # each kind among its own places (backs differ)
        cards = [other.z[zi][i] for zi, i in places]
        cards = cards[seed % 7:] + cards[:seed % 7]
        cards.reverse()
        for (zi, i), card in zip(places, cards):
            zone_to_change(other, zi)[i] = card  # the clone shares the rows until then
            other.loc[card] = zi
    other.rng ^= 0x5DEECE66D  # and the future draws differ too
    return other


def test_rearranged_position_looks_the_same_but_is_not(game):
    st = midgame(game)
    player = st.current_player()
    other = rearranged(st, player, 3)
    assert other.observation(player) == st.observation(player)
    assert other.z != st.z
    deck = game.program.zones["deck"].base
    assert other.z[deck] != st.z[deck]


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts"])
@pytest.mark.parametrize("seed", [3, 8])
def test_decisions_do_not_depend_on_hidden_cards(game, bot, seed):
    st = midgame(game, seed=seed, steps=30 + seed)
    player = st.current_player()
    choices = []
    for position in (st, rearranged(st, player, seed), rearranged(st, player, seed + 1)):
        agent = make_agent(FAST[bot], seed, player)
        choices.append(agent.choose(position.decision(), position.observation(player), world_sampler(position, player, seed)))
    assert choices[0] == choices[1] == choices[2]


def test_sampled_worlds_do_not_depend_on_hidden_cards(game):
    st = midgame(game)
    player = st.current_player()
    world, _ = determinize(st, player, 99)
    again, _ = determinize(rearranged(st, player, 5), player, 99)
    assert world.z == again.z and world.rng == again.rng


SECRETS = """\
game "Secrets"
players 2
cards "cards.yaml" into box
counter purse: per player, owner only, min 0
counter fate: shared, hidden, min 1
counter marks: per card, min 0
zone box: shared, hidden
zone deck: shared, stack, hidden
zone hand: per player, owner only
setup:
    move box to deck
    shuffle deck
    for each p in seats:
        set purse of p to 5 + position(p)
        deal 2 from deck to hand of p
    set fate to 7
    gain 3 marks of top(deck)
turn:
    choose c in hand as "play {c.name}":
        end game now
score:
    "Purse": purse
"""


def test_sampled_worlds_carry_no_counter_the_player_cannot_see():
    """Other players' owner-only counters and hidden counters are forgotten;
    a counter on a face-down card stays with the place, not the card."""
    cards = "thing:\n" + "".join(f"  - {{name: T{i}}}\n" for i in range(8))
    st = load_game(text=SECRETS, cards={"cards.yaml": cards}).new_initial_state(2, 4)
    deck_top = st.zone("deck")[-1]
    assert st.counter("marks", deck_top) == 3 and st.counter("fate") == 7
    for seed in range(5):
        world, _ = determinize(st, 0, seed)
        assert world.counter("purse", 0) == 5 and world.counter("purse", 1) == 0
        assert world.counter("fate") == 1
        assert world.counter("marks", world.zone("deck")[-1]) == 3
        assert sum(world.counter("marks", c) for c in world.program.card_ids) == 3
        assert world.zone("hand", 0) == st.zone("hand", 0)


def test_whole_game_does_not_depend_on_hidden_cards_in_search(game):
    """Over a stretch of play the search bots' choices match on a position
    and on its rearranged twin, decision after decision."""
    st = midgame(game, seed=5, steps=20)
    twin = rearranged(st, st.current_player(), 2)
    bots = {p: make_agent("mcts:4", 5, p) for p in range(2)}
    twins = {p: make_agent("mcts:4", 5, p) for p in range(2)}
    for _ in range(6):
        player = st.current_player()
        if twin.current_player() != player or st.is_terminal():
            break
        a = bots[player].choose(st.decision(), st.observation(player), world_sampler(st, player, 5))
        b = twins[player].choose(twin.decision(), twin.observation(player), world_sampler(twin, player, 5))
        assert a == b
        st.apply_action(a)
        twin.apply_action(b)


# ------------------------------------------------------------------ any rules, any table
@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_finish_games_of_every_size(game, players):
    specs = ["mcts:4:tries=2", "greedy:tries=2", "random", "greedy:tries=1"][:players]
    st = play_game(game, players, 21, [make_agent(s, 21, seat) for seat, s in enumerate(specs)])
    assert st.is_terminal() and len(st.scores()) == players


@pytest.mark.parametrize("difficulty", ["easy", "advanced"])
def test_bots_play_the_solo_seat(difficulty):
    solo = load_game(SOLO, {"difficulty": f'"{difficulty}"'})
    for spec in ("greedy:tries=2", "mcts:4:tries=2"):
        st = play_game(solo, 2, 4, [make_agent(spec, 4, 0), make_agent("random", 4, 1)])
        assert st.is_terminal()


def test_greedy_self_play_does_not_stall(game):
    """Seed 0 once stalled: both greedy bots at their resource limit took
    resources forever. The progress guard breaks the loop."""
    st = play_game(game, 2, 0, make_agents("greedy:tries=3", 2, 0))
    assert st.is_terminal() and st.turns < 200


def test_greedy_makes_the_recorded_choices(game):
    """Whole greedy games take the very actions recorded in the fixture (with
    the default options and with several worlds): making the bot faster, or
    its evaluation, must not change a single choice."""
    recorded = json.loads((ROOT / "tests" / "fixtures" / "greedy_choices.json").read_text())["games"]
    for key, expected in recorded.items():
        players, spec, seed = key.split("|")
        taken = []
        st = play_game(game, int(players), int(seed), make_agents(spec, int(players), int(seed)),
                       on_decision=lambda s, d, choice: taken.append(choice))
        assert taken == expected["actions"], key
        assert list(st.scores()) == expected["scores"], key


def test_time_budget(game):
    st = midgame(game)
    bot = make_agent("mcts:40ms", 1, st.current_player())
    bot.choose(st.decision(), st.observation(st.current_player()), world_sampler(st, st.current_player(), 1))
    assert bot.last_iterations >= 1


# ------------------------------------------------------------------ the evaluation
def test_held_cards_are_the_players_cards_then_what_each_holds(game):
    """The cards a player holds, in the order the potential adds them up:
    each card of the player's zones followed by the cards it holds, as the
    rules' own `hosted_cards` lists them."""
    from interpreter.language.builtins import hosted_cards

    ev = Evaluator(game.program)
    st = game.new_initial_state(2, 4)
    bot = make_agent("random", 4, 0)
    hosting = 0
    while not st.is_terminal():
        for p in range(2):
            expected = []
            for info in ev.holding_zones:
                zi = info.base + p
                for card in st.z[zi]:
                    if card is not None:
                        expected += [(card, zi)] + hosted_cards(st, card)
                        hosting += bool(hosted_cards(st, card))
            assert ev.held(st, p) == expected
        st.apply_action(bot.choose_id(st.legal_actions()))
    assert hosting  # cards held on cards were met


def test_evaluation_leaves_the_position_as_it_was(game):
    st = midgame(game, steps=80)
    before = st.to_json()
    ev = Evaluator(game.program)
    values = ev.values(st)
    assert st.to_json() == before
    assert len(values) == 2 and all(isinstance(v, float) for v in values)
    scores = st.scores()
    # potential and smoothing only add to the score the rules give
    assert all(v >= s - 1e-9 for v, s in zip(values, scores))


@pytest.mark.parametrize("rules, counts", [(CATALYST, (4, 2, 3)), (SOLO, (2,))])
def test_remembered_values_are_the_values(rules, counts):
    """Values recalled from what they were read from equal values computed
    afresh, over whole games of every size (one evaluator for all, as bots
    share it), on positions arranged by hand, and right after one thing a
    value reads has changed."""
    game = load_game(rules)
    ev = Evaluator(game.program)
    for seed, players in enumerate(counts):
        st = game.new_initial_state(players, seed)
        bot = make_agent("random", seed, 0)
        while not st.is_terminal():
            for p in range(players):
                assert ev.value(st, p) == raw_value(ev, st, p)
                assert ev.value(st.clone(), p) == raw_value(ev, st, p)  # recalled
            st.apply_action(bot.choose_id(st.legal_actions()))
    players = counts[-1]
    st = midgame(game, players, steps=60)
    for p in range(players):
        ev.value(st, p)
        for name in ("coins", "military"):
            st.set_counter(name, st.counter(name, p) + 4, p)
            assert ev.value(st, p) == raw_value(ev, st, p)
        pile = st.zone("scoring_pile", p)
        if pile:
            st.place(pile[-1], "playing_area", p)
            assert ev.value(st, p) == raw_value(ev, st, p)


def test_a_value_remembered_inside_another_notes_its_reads_in_both(game):
    """A remembered value computed while another is being computed (each
    counter's smoothing inside a player's value): the outer value depends on
    what the inner one read, and on nothing more."""
    from interpreter.agents.recall import Recall

    st = midgame(game)
    coins = 4
    st.set_counter("coins", coins, 0)
    computed = []
    inner = Recall(lambda s, p: s.counter("coins", p) * 3)
    outer = Recall(lambda s, p: computed.append(p) or inner(s, p) + 1)
    assert outer(st, 0) == coins * 3 + 1 and outer(st.clone(), 0) == coins * 3 + 1
    st.set_counter("military", st.counter("military", 0) + 1, 0)  # read by neither
    assert outer(st, 0) == coins * 3 + 1 and computed == [0]
    st.set_counter("coins", coins + 2, 0)
    assert outer(st, 0) == (coins + 2) * 3 + 1 and computed == [0, 0]


def test_values_come_back_with_their_trace(game):
    """A trace no longer among those tried first keeps its values: when a
    computation reads the same parts again, the values remembered under them
    are found again, not computed."""
    from interpreter.agents.recall import Recall

    st = midgame(game)
    coins = game.program.counters["coins"].index
    computed = []

    def compute(s, p):  # reads one zone or another, as the coins are even or odd
        computed.append(s.ctr[coins][p])
        return len(s.z[3 if s.ctr[coins][p] % 2 == 0 else 4])

    recall = Recall(compute, traces=1)
    for value in (0, 2, 1, 0, 2):
        st.set_counter("coins", value, 0)
        assert recall(st, 0) == compute(st, 0)
        computed.pop()
    assert computed == [0, 2, 1, 0]  # 2 came back with the trace of 0


def test_the_round_is_read_like_the_rest(game):
    """A value that never reads the round's bookkeeping serves every turn; one
    that reads the round is computed again in another round, and the state
    keeps its class."""
    from interpreter.agents.recall import Recall

    st = midgame(game)
    cls, computed = type(st), []
    by_cards = Recall(lambda s, p: computed.append("cards") or len(s.z[3]))
    by_round = Recall(lambda s, p: computed.append("round") or len(s.z[3]) + s.round)
    for recall in (by_cards, by_round):
        assert recall(st, 0) == recall.compute(st, 0)
    later = st.clone()
    later.round += 1
    later.turns += 2
    assert by_cards(later, 0) == len(st.z[3]) and by_round(later, 0) == len(st.z[3]) + st.round + 1
    assert computed == ["cards", "cards", "round", "round", "round"]
    assert type(st) is cls and type(later) is cls


def raw_value(ev, st, player):
    """The evaluation of a player computed afresh, nothing remembered."""
    before = ev.term_values(st, player)
    smoothing = 0.0
    for info in ev.counters:
        if ev.counter_terms[info.index]:
            smoothing += ev.counter_smoothing(info, st, player)
    return float(sum(before)) + ev.discount * ev.potential(st, player, before) + smoothing


def test_noted_lists_note_every_read():
    from interpreter.agents.recall import EVERYTHING, _noted

    noted = _noted([[1], [2], [3]])
    assert noted[1] == [2] and noted.read == {1}
    assert _noted(noted) == [[1], [2], [3]] and noted.read == {1}  # a copy reads nothing
    for read in (list, len, lambda x: x.index([3]), lambda x: [2] in x, lambda x: x[0:2]):
        noted = _noted([[1], [2], [3]])
        read(noted)
        assert EVERYTHING in noted.read


@pytest.mark.slow
def test_sanity_greedy_beats_random_and_random_is_weak(game):
    """A small sample (the ladder measures hundreds of games)."""
    wins = 0.0
    for i in range(8):
        seed, seat = 1000 + i // 2, i % 2
        agents = [None, None]
        agents[seat] = make_agent("greedy:tries=4", seed, seat)
        agents[1 - seat] = make_agent("random", seed, 1 - seat)
        wins += play_game(game, 2, seed, agents).returns()[seat]
    assert wins >= 6


@pytest.mark.parametrize("rules, players", [(CATALYST, 2), (CATALYST, 4), (SOLO, 2),
                                            (RULES / "catastropolis" / "catastropolis.rules", 3)])
def test_worlds_redistribute_exactly_the_cards_visibility_hides(rules, players):
    """unseen_places (what worlds.py redistributes) asks about non-empty
    zones only; the places must be every unseen, unknown card's, in the
    order of the zone instances, for every viewer."""
    from interpreter.visibility import PUBLIC, instance_visible, knows

    def every_unseen_place(st, viewer):
        home = st.program.zones[st.program.setup_zone].base
        return [(zi, i) for zi, zone in enumerate(st.z) if zi != home and not instance_visible(st, zi, viewer)
                for i, card in enumerate(zone) if card is not None and not knows(st, card, viewer)]

    game = load_game(rules)
    for seed in range(3):
        st = game.new_initial_state(players, seed)
        bot = make_agent("random", seed, 0)
        for step in range(60):
            if st.is_terminal():
                break
            if step % 6 == 0:
                for viewer in [*range(players), PUBLIC]:
                    assert unseen_places(st, viewer) == every_unseen_place(st, viewer)
            st.apply_action(bot.choose_id(st.legal_actions()))


def test_cards_held_many_deep_are_gathered_without_running_out_of_stack():
    """A card inside a card inside a card..., deeper than Python's call
    stack: the evaluation lists them all (as the rules' `hosted_cards` does)."""
    deep = 1500
    game = load_game(cards={"cards.yaml": "thing:\n" + "".join(f"  - {{name: T{i}}}\n" for i in range(deep))}, text=(
        'game "Nest"\nplayers 2\ncards "cards.yaml" into box\nzone box: shared, visible\n'
        "zone hand: per player, visible\nzone inside: per card, visible\n"
        'setup:\n    end game after 1 more round\nturn:\n    may "wait":\n        pass\n'
        'score:\n    "held": size(hand)\n'))
    st = game.new_initial_state(2, 1)
    ids = game.program.card_ids
    st.place(ids[0], "hand", owner=0)
    for i in range(1, deep):
        st.place(ids[i], "inside", owner=ids[i - 1])
    held = Evaluator(game.program).held(st, 0)
    assert [card for card, _ in held] == list(range(deep))


# ------------------------------------------------------------------ remembered values and the state's fields
AUCTION = ROOT / "tests" / "flow" / "auction.rules"


def _auction_scoring(term: str):
    """The auction game of tests/flow, scored by its points plus `term`."""
    return load_game(AUCTION, text=AUCTION.read_text().replace('    "Gold": gold\n', f'    "Gold": gold\n    "Read": {term}\n'))


@pytest.mark.parametrize("term, change", [
    ("phase * 100", lambda st: setattr(st, "phase", st.phase + 1)),
    ("if passed(me) then 100 else 0", lambda st: setattr(st, "passed", st.passed + (st.me,))),
], ids=["phase", "passed"])
def test_a_remembered_value_reading_the_round_follows_it(term, change):
    """A value whose score reads the phase, or who has passed, is computed
    again when that changes and nothing else does: the round's bookkeeping
    a computation may read is every field the state declares as such."""
    game = _auction_scoring(term)
    ev = Evaluator(game.program)
    st = game.new_initial_state(2, 1)
    while st.phase != 2:
        st.apply_action(st.legal_actions()[0])
    player = st.me = st.decider
    ev.value(st, player)
    later = st.clone()
    change(later)
    assert ev.value(later, player) == raw_value(ev, later, player) != ev.value(st, player)


def test_every_field_of_the_state_names_a_part_the_recall_treats():
    """A field added to the state names which part of the game it holds, and
    the value cache says how it treats every part: a new field cannot be
    left out of what a remembered value is checked against."""
    from interpreter.agents import recall
    from interpreter.engine.state import FIELDS, PARTS

    unnamed = [f.name for f in FIELDS if f.part not in PARTS]
    assert not unnamed, f"state fields naming no part of PARTS: {unnamed}"
    treated = recall.NOTED_BY_COPIES + recall.NOTED_BY_CLASS + recall.KEYED + recall.NOT_READ
    assert sorted(treated) == sorted(PARTS)
    assert not [f.name for f in FIELDS if f.part in recall.NOTED_BY_CLASS + recall.KEYED and f.copy != "value"]
    # the noting copies are made of these three fields by name (recall.py: `_noted`): a second field of
    # one of their parts would be read unnoted
    assert [fields_of(part) for part in recall.NOTED_BY_COPIES] == [("z",), ("ctr",), ("loc",)]


@pytest.mark.parametrize("name", fields_of("bookkeeping"))
def test_a_value_reading_any_bookkeeping_is_computed_again_when_it_changes(game, name):
    """Each field of the round's bookkeeping, read by a value, is part of what
    the value is remembered with."""
    from interpreter.agents.recall import Recall

    st = midgame(game)
    recall = Recall(lambda s, p: repr(getattr(s, name)))
    assert recall(st, 0) == repr(getattr(st, name))
    later = st.clone()
    value = getattr(st, name)
    changed = (value + (0,) if isinstance(value, tuple) else not value if isinstance(value, bool)
               else 1 if value is None else value + 1)
    setattr(later, name, changed)
    assert recall(later, 0) == repr(changed) and recall(st, 0) == repr(value)


def test_a_game_let_go_takes_what_the_bots_and_boards_worked_out_for_it():
    """What is worked out once per compiled rules (the bots' evaluators, the
    counters a seat never sees, a board's layout) is kept with the program,
    not in a table of the process: a server loading a game per table lets
    each go with its table."""
    import gc
    import weakref

    from interpreter.serve.views import boards_json
    from interpreter.visibility import EVERYTHING

    programs = []
    for path in (CATALYST, RULES / "catastropolis" / "catastropolis.rules"):
        game = load_game(path)
        st = game.new_initial_state(2, 1)
        player = st.current_player()
        bot = make_agent("greedy", 1, player)
        bot.choose(st.decision(labels=False), st.observation(player), world_sampler(st, player, 1))
        assert game.program.evaluators and game.program.unseen_counters
        boards_json(st, EVERYTHING, {})
        programs.append(weakref.ref(game.program))
        del game, st, bot
    gc.collect()
    assert [ref() for ref in programs] == [None, None]
