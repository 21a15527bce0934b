"""Values the rules keep: counters that hold a player (and the seat
built-ins), counters kept off the table, counters on card backs shown per
card. Played on tests/fixtures/values/whispers.rules (docs/language.md,
"Counters"): what each seat is told at the terminal, in the browser, in the
story, in observations and through the agent adapters."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.adapters.encoding import Encoding
from interpreter.agents import make_agent
from interpreter.errors import RulesError
from interpreter.events import tell_all
from interpreter.play import play_game
from interpreter.serve.views import seat_view
from interpreter.worlds import determinize

from .conftest import ROOT, checked_game, play
from .serving import new_hub

WHISPERS = ROOT / "tests" / "fixtures" / "values" / "whispers.rules"


@pytest.fixture(scope="module")
def game():
    return checked_game(WHISPERS)


def told(st, viewer) -> list[str]:
    return [text for _, text in tell_all(st, st.events, viewer)]


def aimed(game, seed=1):
    """Player 1 aims at player 3 (seat 2) in a three-player game."""
    st = game.new_initial_state(3, seed, listen=True)
    st.events = []
    play(st, "aim", "player-3")
    return st


# ---------------------------------------------------------------- counters holding a player
def test_a_counter_holding_a_player_starts_as_none_and_is_told_as_a_player(game):
    st = game.new_initial_state(3, 1)
    assert st.counter("target", 0) is None and st.counter("last_striker") is None
    st = aimed(game)
    assert st.counter("target", 0) == 2
    for viewer in range(3):
        assert "player 1: target none -> player 3" in told(st, viewer)


def test_a_list_of_players_in_a_label_reads_as_people_count_players(game):
    st = game.new_initial_state(3, 1)
    labels = {option.id: option.label for option in st.decision().options}
    assert labels["aim"] == "name a target among player 2, player 3"


def test_seat_built_ins_turn_players_into_numbers_and_back(game):
    st = aimed(game)
    play(st, "hail", "hail")  # player 2 hails player 3 (player_at(seat 1 + 1)), player 3 hails player 1
    assert st.counter("target", 1) == 2 and st.counter("target", 2) == 0
    play(st, "strike")  # player 1 gains seat_number(target) + 1 = 3
    assert st.counter("gold", 0) == 3 and st.counter("target", 0) is None
    assert st.counter("last_striker") == 0


def test_player_at_a_seat_no_player_sits_at_is_an_error(tmp_path):
    rules = WHISPERS.read_text().replace("player_at((seat_number(me) + 1) % players)", "player_at(players)")
    (tmp_path / "cards.yaml").write_text((WHISPERS.parent / "cards.yaml").read_text())
    (tmp_path / "w.rules").write_text(rules)
    from interpreter.loader import load_game
    st = load_game(tmp_path / "w.rules").new_initial_state(2, 1)
    with pytest.raises(RulesError, match=r"player_at needs a seat from 0 to 1, got 2"):
        play(st, "hail")


def test_the_terminal_and_the_browser_show_the_player_a_counter_holds(game, tmp_path):
    out = CliRunner().invoke(cli, ["run", str(WHISPERS), "--players", "3", "--human", "1", "--bots", "random",
                                   "--seed", "1"], input="1\n2\nquit\n")  # aim at player 3
    assert out.exit_code == 0, out.output
    assert "target none" in out.output and "target player 3" in out.output
    assert "name a target among player 2, player 3" in out.output
    hub, table = new_hub(tmp_path, rules=WHISPERS, players=3, humans=(0, 1, 2), seed=1)
    table.act(0, "aim")
    table.act(0, "player-3")
    view = seat_view(table, 1)
    mine = {c["name"]: c["value"] for c in view["table"]["players"][0]["counters"]}
    assert mine["target"] == "player 3"
    assert "player 1: target none -> player 3" in [line["text"] for line in view["history"]]


def test_agents_get_a_player_as_its_seat_counted_from_theirs(game):
    st = aimed(game)
    enc = Encoding(game)
    block = {name: (start, size) for name, start, size in enc.describe()}["counter:target"]
    for viewer, expected in ((0, 3), (2, 1), (1, 2)):  # seat 2 seen from 0, 2 and 1, plus 1
        vec = enc.vector(st, viewer)
        own_block = vec[block[0]:block[0] + block[1]]
        assert own_block[(0 - viewer) % 3] == expected  # player 1's target, in player 1's place
        assert sum(1 for v in own_block if v) == 1  # the others hold none
    assert enc.high[block[0]] == game.program.max_players


def test_through_pettingzoo_a_player_counter_is_encoded(game):
    from interpreter.adapters.pettingzoo_env import env as make_env
    e = make_env(game, players=3)
    e.reset(seed=1)
    start = {name: start for name, start, _ in e.encoding.describe()}["counter:target"]
    e.step(e.encoding.index_of("aim"))
    e.step(e.encoding.index_of("player-3"))
    obs = e.observe("player_1")["observation"]
    assert obs[start + 2] == 2  # player 1 (seat 0) is 2 seats on from seat 1; its target (seat 2) 1 on, plus 1
    assert e.observation_space("player_1")["observation"].contains(obs)


def test_through_openspiel_a_player_counter_is_encoded():
    pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg
    game = osg.load(WHISPERS, players=2)
    state = game.new_initial_state()
    state.apply_action(1)  # the deal of seed 1
    enc = game.ctx.encoding
    state.apply_action(enc.index_of("aim"))  # at player 2, the only other player
    start = {name: start for name, start, _ in enc.describe()}["counter:target"]
    assert state.observation_tensor(0)[start] == 2  # seat 1 seen from seat 0, plus 1
    assert state.observation_tensor(1)[start + 1] == 1  # the same, seen from seat 1


def test_sampled_worlds_keep_a_visible_player_counter_and_forget_an_owner_only_one(game, tmp_path):
    st = aimed(game)
    world, _ = determinize(st, 1, 5)
    assert world.counter("target", 0) == 2
    rules = WHISPERS.read_text().replace("counter target: per player, holds player",
                                         "counter target: per player, holds player, owner only")
    (tmp_path / "cards.yaml").write_text((WHISPERS.parent / "cards.yaml").read_text())
    (tmp_path / "w.rules").write_text(rules)
    from interpreter.loader import load_game
    secret = aimed(load_game(tmp_path / "w.rules"))
    assert determinize(secret, 1, 5)[0].counter("target", 0) is None
    assert determinize(secret, 0, 5)[0].counter("target", 0) == 2
    assert "player 1: target none -> player 3" not in told(secret, 1)


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:20"])
def test_every_bot_plays_a_game_with_player_counters(game, bot):
    st = play_game(game, 3, 4, [make_agent(bot, 4, seat) for seat in range(3)])
    assert st.over and len(st.returns()) == 3


def test_a_save_keeps_a_player_counter_and_none(game):
    st = aimed(game)
    again = game.state_from_json(st.to_json())
    assert again.counter("target", 0) == 2 and again.counter("target", 1) is None


# ---------------------------------------------------------------- counters kept off the table
def test_unlisted_counters_are_kept_off_the_terminal_the_browser_and_the_story(game, tmp_path):
    out = CliRunner().invoke(cli, ["run", str(WHISPERS), "--players", "3", "--bots", "random", "--seed", "1"])
    assert out.exit_code == 0, out.output
    assert "rounds left" not in out.output and "strikes" not in out.output.replace("Strikes", "")
    assert "gold" in out.output  # a listed counter is shown
    hub, table = new_hub(tmp_path, rules=WHISPERS, players=3, humans=(0, 1, 2), seed=1)
    view = seat_view(table, 0)
    shown = {c["name"] for c in view["table"]["shared_counters"]} | {
        c["name"] for p in view["table"]["players"] for c in p["counters"]}
    assert shown == {"gold", "target", "last_striker"}
    assert not any("rounds left" in line["text"] for line in view["history"])


def test_unlisted_counters_are_no_secret_to_agents_or_sampled_worlds(game):
    st = aimed(game)
    assert st.observation(1)["counters"]["rounds_left"] == [4]
    enc = Encoding(game)
    start = {name: start for name, start, _ in enc.describe()}["counter:rounds_left"]
    assert enc.vector(st, 1)[start] == 4
    for viewer in range(3):
        assert determinize(st, viewer, 9)[0].counter("rounds_left") == 4


def test_a_hidden_counter_is_forgotten_in_sampled_worlds_where_an_unlisted_one_is_kept(game, tmp_path):
    rules = WHISPERS.read_text().replace("counter rounds_left: shared, unlisted", "counter rounds_left: shared, hidden")
    (tmp_path / "cards.yaml").write_text((WHISPERS.parent / "cards.yaml").read_text())
    (tmp_path / "w.rules").write_text(rules)
    from interpreter.loader import load_game
    st = aimed(load_game(tmp_path / "w.rules"))
    assert determinize(st, 1, 9)[0].counter("rounds_left") == 0  # what `unlisted` avoids


def test_check_warns_where_an_unlisted_counter_is_hidden_already(tmp_path):
    rules = WHISPERS.read_text().replace("counter rounds_left: shared, unlisted",
                                         "counter rounds_left: shared, hidden, unlisted")
    (tmp_path / "cards.yaml").write_text((WHISPERS.parent / "cards.yaml").read_text())
    (tmp_path / "w.rules").write_text(rules)
    out = CliRunner().invoke(cli, ["check", str(tmp_path / "w.rules")])
    assert out.exit_code == 0, out.output
    assert "w.rules:11:9: warning: counter 'rounds_left' is hidden, so `unlisted` keeps nothing more off the " \
           "table" in out.output
    assert "hint: `unlisted` is for counters players may see but need not be shown" in out.output


# ---------------------------------------------------------------- counters on card backs, card by card
def clued(game, seed=3):
    """Two players; player 1 clues player 2's card 2 from the top (hands are `others only`)."""
    st = game.new_initial_state(2, seed, listen=True)
    st.events = []
    hand = st.zone("hand", 1)
    play(st, "clue", hand[1])  # (the only other player is chosen without asking)
    return st


def test_the_table_shows_which_unseen_card_carries_a_counter(game, tmp_path):
    st = clued(game)
    from interpreter.view import table_view, unseen_words
    hand = dict(table_view(st, 1)["players"][1]["zones"])["hand"]
    assert unseen_words(hand) == ["3 cards (hidden)", "on their backs: clues 1 (2 from the top)"]
    out = CliRunner().invoke(cli, ["run", str(WHISPERS), "--players", "2", "--human", "2", "--bots", "random",
                                   "--seed", "3"], input="quit\n")
    assert out.exit_code == 0, out.output
    assert "on their backs: clues 1 (2 from the top)" in out.output
    hub, table = new_hub(tmp_path, rules=WHISPERS, players=2, humans=(0, 1), seed=3)
    table.act(0, "clue")
    table.act(0, table.state.option_ids[1])
    zones = {z["zone"]: z for z in seat_view(table, 1)["table"]["players"][1]["zones"]}
    assert zones["hand"]["hidden"] == ["3 cards (hidden)", "on their backs: clues 1 (2 from the top)"]


def twin_with_another_face(st, seat: int, place: int):
    """The position with the card at `place` of `seat`'s hand swapped for
    the deck's top card (its back, and the counters on it, stay at the place)."""
    twin = st.clone()
    hand_zi = twin.program.zones["hand"].base + seat
    deck_zi = twin.program.zones["deck"].base
    hand, deck = list(twin.z[hand_zi]), list(twin.z[deck_zi])
    a, b = hand[place], deck[-1]
    hand[place], deck[-1] = b, a
    twin.z[hand_zi], twin.z[deck_zi] = hand, deck
    twin.loc[a], twin.loc[b] = deck_zi, hand_zi
    for info in twin.program.counter_list:
        if info.scope == "card":
            row = twin.ctr[info.index]
            row[a], row[b] = row[b], row[a]
    twin.observed = None
    return twin, a, b


def test_twins_differing_in_a_clued_face_tell_its_owner_the_same(game):
    st = clued(game)
    twin, a, b = twin_with_another_face(st, 1, 1)
    assert st.program.card_names[a] != st.program.card_names[b] or a != b
    enc = Encoding(game)
    from interpreter.view import table_view
    assert st.observation(1) == twin.observation(1)
    assert enc.vector(st, 1) == enc.vector(twin, 1)
    assert table_view(st, 1) == table_view(twin, 1)
    assert st.observation(0) != twin.observation(0)  # the clue giver sees the faces


def test_agents_get_the_counters_on_backs_by_place(game):
    st = clued(game)
    enc = Encoding(game)
    info, per, block, known_at, marks_at = next(z for z in enc.zones if z[0].name == "hand")
    vec = enc.vector(st, 1)
    own = vec[block.start:block.start + per]  # the viewer's own hand comes first
    places = own[marks_at:marks_at + enc.ncards]
    assert places[1] == 1 and sum(places) == 1  # the second card from the bottom: 2 from the top of 3


def test_through_pettingzoo_the_counters_on_backs_are_by_place(game):
    from interpreter.adapters.pettingzoo_env import env as make_env
    e = make_env(game, players=2)
    e.reset(seed=3)
    hand = e.game_state.zone("hand", 1)
    e.step(e.encoding.index_of("clue"))
    e.step(e.encoding.index_of(hand[1]))
    info, per, block, known_at, marks_at = next(z for z in e.encoding.zones if z[0].name == "hand")
    obs = e.observe("player_1")["observation"]
    assert list(obs[block.start + marks_at:block.start + marks_at + 3]) == [0, 1, 0]


def test_through_openspiel_the_counters_on_backs_are_by_place():
    pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg
    game = osg.load(WHISPERS, players=2)
    state = game.new_initial_state()
    state.apply_action(3)  # the deal of seed 3
    enc = game.ctx.encoding
    hand = state.engine_state.zone("hand", 1)
    state.apply_action(enc.index_of("clue"))
    state.apply_action(enc.index_of(hand[1]))
    info, per, block, known_at, marks_at = next(z for z in enc.zones if z[0].name == "hand")
    tensor = state.observation_tensor(1)
    assert list(tensor[block.start + marks_at:block.start + marks_at + 3]) == [0, 1, 0]


def test_the_observation_sizes_in_the_agent_docs_are_the_encodings():
    from interpreter.loader import load_game
    text = (ROOT / "docs" / "agent_apis.md").read_text()
    catalyst = Encoding(load_game(ROOT / "rules" / "catalyst.rules")).size
    solo = Encoding(load_game(ROOT / "rules" / "solo.rules")).size
    assert f"{catalyst} floats for Catalyst,\n{solo} for solo" in text


# ---------------------------------------------------------------- several cards in one pick
PASSING = ROOT / "tests" / "fixtures" / "values" / "passing.rules"


@pytest.fixture(scope="module")
def passing():
    return checked_game(PASSING)


def test_each_player_picks_its_cards_one_decision_at_a_time(passing):
    st = passing.new_initial_state(3, 1, listen=True)
    hand = st.zone("hand", 0)
    assert st.current_player() == 0 and sorted(st.legal_actions()) == sorted(hand)
    play(st, hand[0])
    assert st.current_player() == 0 and sorted(st.legal_actions()) == sorted(hand[1:])  # not the same card twice
    play(st, hand[3])
    assert st.current_player() == 1


def test_the_picks_are_told_to_no_one_else_until_all_have_picked(passing):
    st = passing.new_initial_state(3, 1, listen=True)
    st.events = []
    names = st.program.card_names
    mine = st.zone("hand", 0)[:2]
    play(st, *mine)
    assert told(st, 1) == ["player 1 has chosen (shown when every player has)"] * 2
    assert told(st, 0) == [f"player 1: pass {names[st.card_index(c)]}" for c in mine]
    for seat in (1, 2):
        play(st, *st.zone("hand", seat)[:2])
    reveal = next(line for line in told(st, 1) if line.startswith("all have chosen"))
    assert reveal.startswith("all have chosen: player 1: a card you cannot see; player 1: a card you cannot see; "
                             "player 2: pass ")  # its own picks by name, the others unseen
    moved = [line for line in told(st, 1) if "player 1's hand -> player 2's passing" in line]
    assert moved == [f"{names[st.card_index(mine[0])]}, {names[st.card_index(mine[1])]}: player 1's hand -> "
                     "player 2's passing"]  # the cards passed to it, named as they reach its hand


def test_twins_differing_in_another_players_picks_tell_the_next_player_the_same(passing):
    one = passing.new_initial_state(3, 1, listen=True)
    two = passing.new_initial_state(3, 1, listen=True)
    hand = one.zone("hand", 0)
    play(one, hand[0], hand[1])
    play(two, hand[2], hand[3])
    assert one.observation(1) == two.observation(1)
    assert one.legal_actions() == two.legal_actions()
    assert Encoding(passing).vector(one, 1) == Encoding(passing).vector(two, 1)
    assert told(one, 1) == told(two, 1)
    assert one.observation(0) != two.observation(0) or told(one, 0) != told(two, 0)
    # a world player 2 samples keeps nothing of player 1's picks, and keeps its own
    play(one, one.zone("hand", 1)[0])
    world, _ = determinize(one, 1, 11)
    frame = world.frames[-1]
    point = world.program.decisions[world.point]
    assert frame[2][point.picks][2] == one.frames[-1][2][point.picks][2]


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:20"])
def test_every_bot_plays_a_game_of_several_picks(passing, bot):
    st = play_game(passing, 3, 5, [make_agent(bot, 5, seat) for seat in range(3)])
    assert st.over and sum(len(st.zone("hand", p)) for p in range(3)) + len(st.zone("deck")) == 12


def test_through_pettingzoo_the_picks_are_asked_seat_by_seat(passing):
    from interpreter.adapters.pettingzoo_env import env as make_env
    e = make_env(passing, players=2)
    e.reset(seed=1)
    asked = []
    for _ in range(4):
        agent = e.agent_selection
        asked.append(agent)
        mask = e.observe(agent)["action_mask"]
        e.step(int(mask.nonzero()[0][0]))
    assert asked == ["player_0", "player_0", "player_1", "player_1"]
    assert sorted(len(e.game_state.zone("hand", p)) for p in range(2)) == [4, 4]  # passed and received


def test_through_openspiel_the_picks_are_asked_seat_by_seat():
    pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg
    game = osg.load(PASSING, players=2)
    state = game.new_initial_state()
    state.apply_action(1)
    asked = []
    for _ in range(4):
        asked.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert asked == [0, 0, 1, 1]
    assert state.current_player() in (0, 1) and not state.is_terminal()


# ---------------------------------------------------------------- memory that ends
TRICKS = ROOT / "tests" / "fixtures" / "values" / "tricks.rules"


@pytest.fixture(scope="module")
def tricks():
    return checked_game(TRICKS)


def played_rounds(game, rounds: int, seed=1):
    """Two players each play their first card for `rounds` rounds."""
    st = game.new_initial_state(2, seed, listen=True)
    for _ in range(2 * rounds):
        ids = st.legal_actions()
        play(st, ids[0])
    return st


def won_known(st, viewer, seat=0):
    return st.observation(viewer)["zones"]["won"][seat].get("known")


def test_players_recall_the_last_trick_only(tricks):
    st = played_rounds(tricks, 1)
    first = [c for c in st.zone("won", 0)]
    assert sorted(won_known(st, 1)) == sorted(first)  # (card ids)
    st.events = []
    for _ in range(2):  # round 2: its trick goes to player 2's pile
        play(st, st.legal_actions()[0])
    for viewer in (0, 1):
        assert won_known(st, viewer) is None  # the first trick is forgotten
        assert won_known(st, viewer, 1) is not None  # the last one is remembered
        assert "you forget which cards lie in player 1's won" in told(st, viewer)


def test_twins_differing_in_a_forgotten_card_tell_the_players_the_same(tricks):
    before = played_rounds(tricks, 1)
    twin_before = swapped_with_deck(before, "won", 0)
    assert before.observation(1) != twin_before.observation(1)  # remembered: the swap shows
    after = played_rounds(tricks, 2)
    twin = swapped_with_deck(after, "won", 0)
    enc = Encoding(tricks)
    from interpreter.view import table_view
    for viewer in (0, 1):
        assert after.observation(viewer) == twin.observation(viewer)
        assert enc.vector(after, viewer) == enc.vector(twin, viewer)
        assert table_view(after, viewer) == table_view(twin, viewer)


def swapped_with_deck(st, zone: str, seat: int):
    """The position with the first card of `zone` of `seat` swapped for the deck's top card."""
    twin = st.clone()
    zi, deck_zi = twin.program.zones[zone].base + seat, twin.program.zones["deck"].base
    held, deck = list(twin.z[zi]), list(twin.z[deck_zi])
    a, b = held[0], deck[-1]
    held[0], deck[-1] = b, a
    twin.z[zi], twin.z[deck_zi] = held, deck
    twin.loc[a], twin.loc[b] = deck_zi, zi
    twin.known[a], twin.known[b] = twin.known[b], twin.known[a]
    twin.observed = None
    return twin


def test_sampled_worlds_keep_a_remembered_card_and_deal_a_forgotten_one_anew(tricks):
    st = played_rounds(tricks, 1)
    kept = sorted(st.zone("won", 0))
    assert all(sorted(determinize(st, 1, seed)[0].zone("won", 0)) == kept for seed in range(5))
    st = played_rounds(tricks, 2)
    forgotten = sorted(st.zone("won", 0))
    assert any(sorted(determinize(st, 1, seed)[0].zone("won", 0)) != forgotten for seed in range(10))


def test_the_terminal_and_the_browser_stop_showing_a_forgotten_card(tricks, tmp_path):
    out = CliRunner().invoke(cli, ["run", str(TRICKS), "--human", "2", "--bots", "random", "--seed", "1"],
                             input="1\n2\nquit\n")  # (a number typed keeps naming the same card)
    assert out.exit_code == 0, out.output
    assert "you forget which cards lie in player 1's won" in out.output
    hub, table = new_hub(tmp_path, rules=TRICKS, players=2, humans=(0, 1), seed=1)
    for _ in range(2):
        table.act(table.state.current_player(), table.state.legal_actions()[0])
    won = {z["zone"]: z for z in seat_view(table, 1)["table"]["players"][0]["zones"]}["won"]
    assert any(line.startswith("you know:") for line in won["hidden"])
    for _ in range(2):
        table.act(table.state.current_player(), table.state.legal_actions()[0])
    view = seat_view(table, 1)
    won = {z["zone"]: z for z in view["table"]["players"][0]["zones"]}["won"]
    assert won["hidden"] == ["2 cards (hidden)"]
    assert "you forget which cards lie in player 1's won" in [line["text"] for line in view["history"]]


def test_through_pettingzoo_a_forgotten_card_leaves_the_observation(tricks):
    from interpreter.adapters.pettingzoo_env import env as make_env
    e = make_env(tricks, players=2)
    e.reset(seed=1)
    info, per, block, known_at, _ = next(z for z in e.encoding.zones if z[0].name == "won")

    def known_of_player_1_won():  # seen by player 2: its own block first, then player 1's
        obs = e.observe("player_1")["observation"]
        return sum(obs[block.start + per + known_at:block.start + per + known_at + e.encoding.ncards])

    for _ in range(2):
        e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
    assert known_of_player_1_won() == 2
    for _ in range(2):
        e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
    assert known_of_player_1_won() == 0


def test_through_openspiel_a_forgotten_card_leaves_the_observation():
    pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg
    game = osg.load(TRICKS, players=2)
    state = game.new_initial_state()
    state.apply_action(1)
    enc = game.ctx.encoding
    info, per, block, known_at, _ = next(z for z in enc.zones if z[0].name == "won")
    start = block.start + per + known_at  # player 1's pile, seen from seat 1
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert sum(state.observation_tensor(1)[start:start + enc.ncards]) == 2
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert sum(state.observation_tensor(1)[start:start + enc.ncards]) == 0


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:20"])
def test_every_bot_plays_a_game_where_memory_ends(tricks, bot):
    st = play_game(tricks, 2, 6, [make_agent(bot, 6, seat) for seat in range(2)])
    assert st.over


def test_a_shown_value_that_lists_players_reads_as_people_count_them(game):
    from interpreter.view import table_view
    st = aimed(game)  # player 1 aims at player 3
    values = table_view(st, 1)["players"][2]["values"]
    assert values["hunted_by"] == "player 1"
    assert st.observation(1)["values"]["hunted_by"][2] == [0]  # agents keep the seats
