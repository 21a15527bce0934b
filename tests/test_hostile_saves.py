"""Hostile saves: a position read from a file is rebuilt and checked, never
trusted. A played position is replayed from its history; an arranged one is
checked field by field, and its pending decision is asked again by the rules.
Every case asserts the message; a fuzzer mutates real saves and logs."""
from __future__ import annotations

import json
import signal
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from interpreter.agents import make_agents
from interpreter.engine import invariants
from interpreter.errors import InternalError, RulesError, SaveFileError
from interpreter.play import play_game

from .conftest import ROOT


@contextmanager
def time_limit(seconds: float):
    """Fail instead of hanging."""
    def stop(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def played(game, players=2, seed=3, decisions=25):
    """A position reached by playing random bots for `decisions` decisions."""
    st = game.new_initial_state(players, seed)
    bots = make_agents("random", players, seed)
    for _ in range(decisions):
        st.apply_action(bots[st.current_player()].choose_id(st.legal_actions()))
    return st


def arranged(game, players=2, seed=3, decisions=25):
    st = played(game, players, seed, decisions)
    st.forget_history()
    return st


def load(game, data):
    with time_limit(10):
        return game.state_from_json(json.dumps(data))


def refused(game, data, message):
    with pytest.raises(SaveFileError) as info:
        load(game, data)
    assert message in info.value.render(), info.value.render()


def saved(st) -> dict:
    return json.loads(st.to_json())


def hidden_deck_card(st) -> int:
    """The index of a card lying face down in the deck."""
    return st.card_index(st.zone("deck")[0])


# ------------------------------------------------------------------ played positions
def with_state(data, **changes):
    return {**data, "state": {**data["state"], **changes}}


PLAYED = [
    ("illegal-action", lambda d: with_state(d, history=d["state"]["history"][:3] + ["no-such-action"]),
     "action 4 ('no-such-action') is not legal there"),
    ("history-not-a-list", lambda d: with_state(d, history="collect"), "its history is not a list of action ids"),
    ("history-of-numbers", lambda d: with_state(d, history=[1, 2, 3]), "its history is not a list of action ids"),
    ("history-too-long", lambda d: with_state(d, history=["collect"] * 1_000_001), "its history is not a list"),
    ("seed-text", lambda d: with_state(d, seed="three"), "its seed is not a whole number"),
    ("seed-huge", lambda d: with_state(d, seed=1 << 70), "its seed is not a whole number"),
    ("seed-changed", lambda d: with_state(d, seed=d["state"]["seed"] + 1), "the save"),
    ("players-changed", lambda d: with_state(d, n=3), "the save"),
    ("players-text", lambda d: with_state(d, n="two"), "the number of players is not a whole number"),
    ("card-moved", lambda d: with_state(d, z=[[c for c in z if c != 5] for z in d["state"]["z"]]),
     "does not follow from its own history"),
    ("counter-changed", lambda d: with_state(d, ctr=[[v + 1 for v in row] for row in d["state"]["ctr"]]),
     "does not follow from its own history (the save was changed after it was written): ctr"),
    ("rng-changed", lambda d: with_state(d, rng=d["state"]["rng"] ^ 1), "does not follow from its own history"),
    ("point-changed", lambda d: with_state(d, point=d["state"]["point"] + 1), "does not follow from its own history"),
    ("round-missing", lambda d: {**d, "state": {k: v for k, v in d["state"].items() if k != "round"}},
     "does not follow from its own history (the save was changed after it was written): round"),
    ("unknown-field", lambda d: with_state(d, cheat=1), "the save has fields no state has: cheat"),
    ("old-format", lambda d: {**d, "format": 3}, "not a saved game of this tool"),
    ("other-fingerprint", lambda d: {**d, "fingerprint": "0" * 16}, "the save was made with different rules"),
    ("no-state", lambda d: {k: v for k, v in d.items() if k != "state"}, "not a saved game of this tool"),
    ("state-a-list", lambda d: {**d, "state": [1, 2]}, "not a saved game of this tool"),
    ("history-past-the-end", None, "the save's history goes on after the game ended"),
]


@pytest.mark.parametrize("name, damage, message", PLAYED, ids=[case[0] for case in PLAYED])
def test_a_changed_played_position_is_refused(catalyst, name, damage, message):
    if damage is None:  # a whole game, then one more action
        st = play_game(catalyst, 2, 4, make_agents("random", 2, 4))
        data = saved(st)
        data["state"]["history"].append(data["state"]["history"][-1])
    else:
        data = damage(saved(played(catalyst)))
    refused(catalyst, data, message)


@pytest.mark.parametrize("text, message", [
    ("", "not valid JSON"), ("{", "not valid JSON"), ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    ("null", "not a saved game"), ('"text"', "not a saved game"), ("[1, 2]", "not a saved game"),
], ids=["empty", "cut", "deeply-nested", "null", "a-text", "a-list"])
def test_text_that_is_no_save_is_refused(catalyst, text, message):
    with time_limit(10), pytest.raises(SaveFileError, match=message):
        catalyst.state_from_json(text)


def test_injected_options_are_never_offered(catalyst):
    """Options written into a save are ignored: the rules ask again."""
    st = played(catalyst)
    data = saved(st)
    secret = st.program.card_ids[hidden_deck_card(st)]
    data["state"].update(decider=st.current_player(), option_ids=[secret], option_values=[hidden_deck_card(st)])
    loaded = load(catalyst, data)
    assert loaded.legal_actions() == st.legal_actions() and secret not in loaded.legal_actions()
    arranged_data = saved(arranged(catalyst))
    arranged_data["state"].update(option_ids=[secret], option_values=[hidden_deck_card(st)], decider=1)
    assert secret not in load(catalyst, arranged_data).legal_actions()


def test_knowing_a_card_everyone_sees_is_not_checked_and_knowing_a_hidden_one_is(catalyst):
    """A save noting that a player knows a card lying where every player sees
    it (as a version that showed a player the market cards it was offered
    wrote) loads, as the replay's position; one noting that a player knows a
    card lying face down is refused."""
    st = played(catalyst)
    market = [st.card_index(c) for c in st.zone("market") if c is not None]
    seen = saved(st)
    assert not any(seen["state"]["known"][card] for card in market)
    seen["state"]["known"][market[0]] = 1 << st.current_player()
    assert load(catalyst, seen).to_json() == st.to_json()
    hidden = saved(st)
    hidden["state"]["known"][hidden_deck_card(st)] |= 1
    refused(catalyst, hidden, "does not follow from its own history (the save was changed after it was written): known")


@pytest.mark.parametrize("frames", [[], [[0, 5, []]], "another version's"])
def test_a_played_position_is_rebuilt_with_the_frames_its_replay_gives(catalyst, frames):
    """The frames in a save of a played position (the rules waiting, as the
    interpreter that wrote it laid them out) are not read: the replay's are
    the position's, so a save written by another version loads, and frames
    written into a save change nothing."""
    st = played(catalyst)
    data = saved(st)
    if frames == "another version's":  # a rule that called another last still waiting for it
        frames = data["state"]["frames"][:-1] + [[data["state"]["frames"][-1][0], 3, [None]]] + data["state"]["frames"][-1:]
    loaded = load(catalyst, with_state(data, frames=frames))
    assert loaded.to_json() == st.to_json() and loaded.legal_actions() == st.legal_actions()


def test_a_played_position_comes_back_exactly(catalyst):
    st = played(catalyst, 3, 8, 60)
    loaded = load(catalyst, saved(st))
    assert loaded.to_json() == st.to_json() and loaded.actions() == st.actions()


# ------------------------------------------------------------------ arranged positions
def with_field(name, change):
    def damage(data):
        state = dict(data["state"])
        state[name] = change(json.loads(json.dumps(state[name])))
        return {**data, "state": state}
    return damage


def first_card_zone(zones):
    return next(i for i, z in enumerate(zones) if any(c is not None for c in z))


def duplicate_a_card(zones):
    i = first_card_zone(zones)
    card = next(c for c in zones[i] if c is not None)
    j = next(k for k, z in enumerate(zones) if k != i and isinstance(z, list) and None not in z)
    zones[j].append(card)
    return zones


def lose_a_card(zones):
    i = first_card_zone(zones)
    zones[i] = [c for c in zones[i] if c is None] + [c for c in zones[i] if c is not None][1:]
    return zones


def set_frame(index, value):
    def change(frames):
        frames[-1][index] = value
        return frames
    return change


ARRANGED = [
    ("card-twice", with_field("z", duplicate_a_card), "is in two places"),
    ("card-lost", with_field("z", lose_a_card), "is in no place"),
    ("card-out-of-range", with_field("z", lambda z: [z[0] + [99999]] + z[1:]), "which is no card"),
    ("card-a-text", with_field("z", lambda z: [z[0] + ["ace"]] + z[1:]), "which is no card"),
    ("card-of-an-absent-seat", with_field("z", lambda z: z[:-1] + [z[-1] + [0]]), "of a seat no player sits at"),
    ("locations-short", with_field("loc", lambda loc: loc[:-1]), "the card locations do not match the cards"),
    ("location-wrong", with_field("loc", lambda loc: [loc[1]] + loc[1:]), "recorded in another place"),
    ("zones-short", with_field("z", lambda z: z[:-1]), "the zones do not match the rules"),
    ("slots-short", with_field("z", lambda z: [zone[:-1] if len(zone) == 5 and None in zone or len(zone) == 5 else zone
                                               for zone in z]), "does not have the shape the rules give it"),
    ("counter-above-max", with_field("ctr", lambda ctr: ctr[:3] + [[5] * len(ctr[3])] + ctr[4:]),
     "counter 'activated' is 5, outside 0..1"),
    ("counter-negative", with_field("ctr", lambda ctr: [[-1] * len(ctr[0])] + ctr[1:]), "counter 'coins' is -1"),
    ("counter-huge", with_field("ctr", lambda ctr: [[10 ** 30] * len(ctr[0])] + ctr[1:]), "counter 'coins' is"),
    ("counter-text", with_field("ctr", lambda ctr: [["4"] * len(ctr[0])] + ctr[1:]), "does not hold 2 whole numbers"),
    ("counter-row-short", with_field("ctr", lambda ctr: [ctr[0][:1]] + ctr[1:]), "does not hold 2 whole numbers"),
    ("counters-missing", with_field("ctr", lambda ctr: ctr[:-1]), "the counters do not match the rules"),
    ("frame-rule-unknown", with_field("frames", set_frame(0, 9999)), "names no rule"),
    ("frame-rule-text", with_field("frames", set_frame(0, "turn")), "names no rule"),
    ("frame-block-unknown", with_field("frames", set_frame(1, 999)), "has no place 999 to stand at"),
    ("frame-locals-short", with_field("frames", set_frame(2, [])), "local values"),
    ("frame-local-a-map", with_field("frames", lambda f: set_frame(2, [{"a": 1}] * len(f[-1][2]))(f)),
     "not plain data"),
    ("frame-local-huge", with_field("frames", lambda f: set_frame(2, [10 ** 40] * len(f[-1][2]))(f)),
     "a number too large"),
    ("frame-local-long-text", with_field("frames", lambda f: set_frame(2, ["x" * 20_000] * len(f[-1][2]))(f)),
     "a text too long"),
    ("frame-local-nested", with_field("frames", lambda f: set_frame(2, [[[[[[[[[[[1]]]]]]]]]]] * len(f[-1][2]))(f)),
     "too deeply nested"),
    ("frame-local-many", with_field("frames", lambda f: set_frame(2, [list(range(200_000))] * len(f[-1][2]))(f)),
     "too large"),
    ("no-frames", with_field("frames", lambda f: []), "does not match whether the game is over"),
    ("frame-not-a-list", with_field("frames", lambda f: [7]), "is not [rule, block, locals]"),
    ("point-unknown", with_field("point", lambda p: 9999), "names no decision of the rules"),
    ("point-of-another-rule", with_field("point", lambda p: 0 if p != 0 else 1),
     "is not asked by the rule that is waiting"),
    ("over-with-frames", with_field("over", lambda o: True), "does not match whether the game is over"),
    ("over-a-number", with_field("over", lambda o: 1), "whether the game is over is not yes or no"),
    ("me-not-a-seat", with_field("me", lambda me: 7), "'me' is not a seat"),
    ("first-negative", with_field("first", lambda p: -1), "'first' is not a seat"),
    ("order-empty", with_field("order", lambda o: {"t": []}), "the turn order is not a list of seats"),
    ("order-a-list", with_field("order", lambda o: [0, 1]), "the turn order is not a list of seats"),
    ("position-outside", with_field("pos", lambda p: 5), "the place in the turn order is outside it"),
    ("round-negative", with_field("round", lambda r: -3), "'round' is not a count"),
    ("rng-negative", with_field("rng", lambda r: -1), "the random generator's state is not a 64-bit number"),
    ("rng-huge", with_field("rng", lambda r: 1 << 64), "the random generator's state is not a 64-bit number"),
    ("lost-and-won", lambda d: with_field("won", lambda w: True)(with_field("lost", lambda x: True)(d)),
     "a game cannot be both lost and won"),
    ("players-too-many", with_field("n", lambda n: 9), "9 is not a number of players of these rules"),
    ("coverage-wrong", with_field("cov", lambda c: [1, 2]), "its rule counts do not match the rules"),
    ("field-missing", lambda d: {**d, "state": {k: v for k, v in d["state"].items() if k != "me"}}, "'me' is missing"),
]


@pytest.mark.parametrize("name, damage, message", ARRANGED, ids=[case[0] for case in ARRANGED])
def test_a_damaged_arranged_position_is_refused(catalyst, name, damage, message):
    refused(catalyst, damage(saved(arranged(catalyst))), message)


def test_an_arranged_position_loads_and_plays_on(catalyst):
    st = arranged(catalyst)
    loaded = load(catalyst, saved(st))
    assert invariants.violations(loaded) == []
    assert loaded.legal_actions() == st.legal_actions()
    final = play_game(catalyst, 2, 3, make_agents("random", 2, 3), state=loaded)
    assert final.is_terminal()


def test_a_position_on_another_seat_of_the_same_point_is_asked_as_that_player(catalyst):
    """A consistent position is a position: changing whose turn it is in an
    arranged save is allowed, and the rules then ask that player."""
    st = arranged(catalyst)
    data = saved(st)
    other = 1 - st.me
    data["state"].update(me=other, cur=other)
    assert load(catalyst, data).current_player() == other


# ------------------------------------------------------------------ the fuzzer
def mutations():
    leaf = hs.one_of(hs.integers(-3, 3), hs.integers(-(1 << 70), 1 << 70), hs.text(max_size=5), hs.none(),
                     hs.booleans(), hs.just([]), hs.just({}), hs.just({"t": [0]}), hs.just([None] * 3))
    kind = hs.sampled_from(["replace", "delete", "duplicate", "swap", "truncate", "insert"])
    return hs.lists(hs.tuples(hs.lists(hs.integers(0, 10_000), min_size=1, max_size=6), kind, leaf),
                    min_size=1, max_size=3)


def mutate(data, path, kind, value):
    """Apply one structured mutation at the place `path` picks (indices taken
    modulo the sizes met on the way down)."""
    parent, key, node = None, None, data
    for step in path:
        if isinstance(node, dict) and node:
            parent, key = node, sorted(node)[step % len(node)]
        elif isinstance(node, list) and node:
            parent, key = node, step % len(node)
        else:
            break
        node = parent[key]
    if parent is None:
        return data
    value = json.loads(json.dumps(value))  # a fresh copy: never the same list in two places
    if kind == "replace":
        parent[key] = value
    elif kind == "delete":
        del parent[key]
    elif isinstance(node, list) and node:
        if kind == "duplicate":
            node.append(node[0])
        elif kind == "swap":
            node[0], node[-1] = node[-1], node[0]
        elif kind == "truncate":
            del node[len(node) // 2:]
        else:
            node.insert(0, value)
    return data


@pytest.fixture(scope="module")
def real_saves(catalyst):
    st = played(catalyst, 3, 5, 40)
    return [saved(played(catalyst, 2, 3, 10)), saved(st), saved(arranged(catalyst, 3, 5, 40)),
            saved(play_game(catalyst, 2, 9, make_agents("random", 2, 9)))]


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(which=hs.integers(0, 3), changes=mutations())
def test_fuzzed_saves_are_refused_or_valid(catalyst, real_saves, which, changes):
    """2,000 structured mutations of real saves: each is refused with a message
    or loads into a state that keeps every invariant and plays on."""
    data = json.loads(json.dumps(real_saves[which]))
    for path, kind, value in changes:
        data = mutate(data, path, kind, value)
    try:
        with time_limit(20):
            st = catalyst.state_from_json(json.dumps(data))
    except SaveFileError:
        return
    assert invariants.violations(st) == []
    bots = make_agents("random", st.n, 1)
    try:
        for _ in range(30):
            if st.is_terminal():
                break
            st.apply_action(bots[st.current_player()].choose_id(st.legal_actions()))
    except InternalError:
        raise
    except RulesError:
        pass  # a consistent position the rules themselves cannot go on from


@pytest.fixture(scope="module")
def real_log(tmp_path_factory):
    from click.testing import CliRunner

    from cli.main import cli

    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    result = CliRunner().invoke(cli, ["run", str(ROOT / "rules" / "solo.rules"), "--seed", "6", "--bots", "random",
                                      "--quiet", "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(changes=mutations())
def test_fuzzed_logs_replay_or_are_refused(real_log, tmp_path_factory, changes):
    """1,000 structured mutations of a real log: replay either reproduces the
    game or stops with a message; it never crashes."""
    from interpreter.loader import load_game
    from interpreter.replay import read_log, replay_log

    lines = [json.loads(line) for line in real_log.read_text().splitlines()]
    for path, kind, value in changes:
        lines = mutate(lines, path, kind, value)
    target = tmp_path_factory.mktemp("fuzz") / "game.jsonl"
    target.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    (target.parent / "rules").symlink_to(ROOT / "rules")
    try:
        with time_limit(20):
            header, entries, result = read_log(str(target))
            game = load_game(header["rules"], header["sets"])
            final = replay_log(game, header, entries, result, str(target))
    except InternalError:
        raise
    except RulesError:
        return
    assert final.is_terminal() and final.result() == {k: result[k] for k in final.result()}
