"""Who knows what: private looks, reordering, cards revealed to one player,
cards remembered going face down, zones seen by all but their owner and
counters seen on the backs of cards, played through the decision API on
tests/fixtures/knowledge/peek.rules (docs/constructs-knowledge.md)."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter import visibility
from interpreter.agents import make_agent
from interpreter.runtime.ops import zone_to_change
from interpreter.errors import RulesError
from interpreter.events import tell_all
from interpreter.loader import load_game
from interpreter.serve.views import seat_view
from interpreter.play import world_sampler
from interpreter.worlds import determinize

from .conftest import ROOT, checked_game, labels, play
from .serving import new_hub

PEEK = ROOT / "tests" / "fixtures" / "knowledge" / "peek.rules"


@pytest.fixture(scope="module")
def game():
    return checked_game(PEEK)


def top3(st) -> list:
    return st.zone("deck")[-3:][::-1]  # top first


def sorted_by_first(game, seed=3, listen=False):
    """Player 1 puts the top three cards of the deck back as Low, Mid, High
    from the top (by cost): a position where player 1 knows three cards."""
    st = game.new_initial_state(2, seed, listen=listen)
    play(st, "sort")
    order = sorted(top3(st), key=lambda c: st.program.cards.by_id(c).data["cost"])
    for card in order[:2]:
        play(st, card)
    return st, order


# ---------------------------------------------------------------- looking and reordering
def test_reorder_puts_the_cards_back_top_first(game):
    st = game.new_initial_state(2, 3)
    before = top3(st)
    play(st, "sort")
    assert st.decision().player == 0 and sorted(st.legal_actions()) == sorted(before)
    assert all(label.startswith("next from the top: ") for label in labels(st).values())
    st, order = sorted_by_first(game)
    assert top3(st) == order  # the last card needs no decision
    assert st.current_player() == 1


def test_the_looker_knows_the_cards_the_others_only_their_number(game):
    st, order = sorted_by_first(game)
    mine, theirs = st.observation(0)["zones"]["deck"], st.observation(1)["zones"]["deck"]
    assert mine["known"][-3:] == order[::-1] and mine["count"] == theirs["count"]
    assert "known" not in theirs
    assert st.observation(visibility.PUBLIC)["zones"]["deck"] == theirs


def test_options_naming_unseen_cards_are_unnamed_for_the_others(game):
    st = game.new_initial_state(2, 3)
    play(st, "sort")
    seen_by_decider = [o.label for o in st.decision().options]
    seen_by_other = [o.label for o in st.decision(viewer=1).options]
    assert all(label != "a card you cannot see" for label in seen_by_decider)
    assert seen_by_other == ["a card you cannot see"] * 3
    assert [o.label for o in st.decision(viewer=0).options] == seen_by_decider


def test_the_story_names_looked_at_cards_only_to_the_looker(game):
    st, order = sorted_by_first(game, listen=True)
    names = [st.program.card_names[st.card_index(c)] for c in order]
    mine = [text for _, text in tell_all(st, st.events, 0)]
    theirs = [text for _, text in tell_all(st, st.events, 1)]
    assert f"player 1 looks at {', '.join(sorted(names, key=mine[-4].index))} (deck)" == mine[-4]
    assert mine[-3:-1] == [f"player 1: next from the top: {names[0]}", f"player 1: next from the top: {names[1]}"]
    assert theirs[-4:-1] == ["player 1 looks at 3 cards (deck)"] + ["player 1: chose a card you cannot see"] * 2


def test_scouting_takes_one_of_the_cards_looked_at(game):
    st = game.new_initial_state(2, 5)
    seen = top3(st)
    play(st, "scout")
    assert sorted(st.legal_actions()) == sorted(seen)
    play(st, seen[1])
    assert seen[1] in st.zone("hand", 0)
    left = [c for c in seen if c != seen[1]]
    assert [c for c in st.observation(0)["zones"]["deck"]["known"] if c] == left[::-1]


# ---------------------------------------------------------------- revealing, face down, shuffling
def test_a_card_revealed_to_one_player_is_known_to_that_player_only(game):
    st = game.new_initial_state(3, 4)
    play(st, "tell")
    card = st.legal_actions()[0]
    play(st, card)
    assert card in st.observation(1)["zones"]["hand"][0]["known"]
    assert "known" not in st.observation(2)["zones"]["hand"][0]
    assert st.observation(0)["zones"]["hand"][0] == st.zone("hand", 0)


def test_a_card_seen_going_face_down_stays_known_to_who_saw_it(game):
    st = game.new_initial_state(2, 4)
    play(st, "bury")
    card = st.legal_actions()[0]
    play(st, card)
    assert st.observation(0)["zones"]["pile"]["known"] == [card]
    assert "known" not in st.observation(1)["zones"]["pile"]


def test_a_shuffle_makes_the_cards_unknown_again():
    rules = PEEK.read_text().replace("    reorder top_cards(deck, 3)\n",
                                     "    look at top_cards(deck, 3)\n    shuffle deck\n")
    st = load_game(PEEK, text=rules).new_initial_state(2, 3)
    play(st, "sort")
    assert "known" not in st.observation(0)["zones"]["deck"]


def test_counters_on_face_down_cards_are_seen_on_their_backs(game):
    st = game.new_initial_state(2, 4)
    play(st, "bury")
    play(st, st.legal_actions()[0])
    for viewer in (0, 1, visibility.PUBLIC):
        assert st.observation(viewer)["zones"]["pile"]["marks"] == {"charge": [1]}
    assert st.observation(1)["counters"]["charge"] == {}  # not by the card's name: it is face down


def test_others_only_zones_and_counters_are_seen_by_everyone_but_their_owner(game):
    st = game.new_initial_state(3, 4)
    obs = [st.observation(p) for p in range(3)]
    for p in range(3):
        for q in range(3):
            brow = obs[p]["zones"]["brow"][q]
            assert isinstance(brow, dict) if p == q else brow == st.zone("brow", q)
    assert st.observation(visibility.PUBLIC)["zones"]["brow"] == [{"count": 1}] * 3
    play(st, "bury")
    play(st, st.legal_actions()[0])
    assert [st.observation(p)["counters"]["spent"][0] for p in range(3)] == [None, 1, 1]


# ---------------------------------------------------------------- sampled worlds and bots
def test_privately_seen_cards_stay_fixed_in_the_players_sampled_worlds(game):
    st, order = sorted_by_first(game)
    tops_for_looker = {tuple(top3(determinize(st, 0, seed)[0])) for seed in range(12)}
    tops_for_other = {tuple(top3(determinize(st, 1, seed)[0])) for seed in range(12)}
    assert tops_for_looker == {tuple(order)}
    assert len(tops_for_other) > 1


def rearranged(st, player: int, shift: int):
    """A copy of `st` in which the cards `player` cannot see trade places;
    what lies on each place's back (counters, who knows that place) stays."""
    other = st.clone()
    places = visibility.unseen_places(other, player)
    cards = [other.z[zi][i] for zi, i in places]
    marks = [other.known[c] for c in cards]
    cards = cards[shift:] + cards[:shift]
    for (zi, i), card, mark in zip(places, cards, marks):
        zone_to_change(other, zi)[i] = card  # the clone shares the rows until then
        other.loc[card] = zi
        other.known[card] = mark
    other.rng ^= 0x5DEECE66D
    return other


@pytest.mark.parametrize("bot", ["random", "greedy:tries=2", "mcts:8"])
def test_decisions_do_not_depend_on_cards_another_player_looked_at(game, bot):
    st, order = sorted_by_first(game)
    player = st.current_player()
    twins = [st, rearranged(st, player, 1), rearranged(st, player, 4)]
    assert any(top3(t) != order for t in twins[1:])  # the cards player 1 knows moved
    assert all(t.observation(player) == st.observation(player) for t in twins)
    choices = [make_agent(bot, 7, player).choose(t.decision(), t.observation(player), world_sampler(t, player, 7))
               for t in twins]
    assert choices[0] == choices[1] == choices[2]
    worlds = [determinize(t, player, 99)[0] for t in twins]
    assert worlds[0].z == worlds[1].z == worlds[2].z and worlds[0].known == worlds[1].known


# ---------------------------------------------------------------- saves, logs, whole games
def test_a_save_in_the_middle_of_a_reorder_resumes_there(game):
    st = game.new_initial_state(2, 3)
    play(st, "sort", top3(st)[2])
    again = game.state_from_json(st.to_json())
    assert again.fingerprint() == st.fingerprint() and again.legal_actions() == st.legal_actions()
    assert again.known == st.known


def test_bots_play_whole_games_logged_and_replayed(tmp_path):
    log = tmp_path / "game.jsonl"
    for players in (2, 3):
        result = CliRunner().invoke(cli, ["run", str(PEEK), "--players", str(players), "--seed", "2",
                                          "--bots", "mcts:6" if players == 2 else "greedy", "--quiet",
                                          "--log", str(log)])
        assert result.exit_code == 0, result.output
        replay = CliRunner().invoke(cli, ["replay", str(log)])
        assert replay.exit_code == 0, replay.output
    result = CliRunner().invoke(cli, ["simulate", str(PEEK), "-n", "30", "--seed", "1"])
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------- agent adapters
def test_observation_vectors_carry_what_each_player_knows(game):
    from interpreter.adapters.encoding import Encoding

    enc = Encoding(game)
    st, order = sorted_by_first(game)
    looker, other = enc.vector(st, 0), enc.vector(st, 1)
    twin = rearranged(st, 1, 4)
    assert enc.vector(twin, 1) == other  # the other player's vector does not tell where the cards are
    assert enc.vector(twin, 0) != looker  # the looker's does
    play(st, "bury")
    play(st, st.legal_actions()[0])
    _, _, block, _, marks_at = next(z for z in enc.zones if z[0].name == "pile")
    top = block.start + marks_at + len(st.zone("pile")) - 1  # the buried card's place: the top
    for viewer in (0, 1):
        assert enc.vector(st, viewer)[top] == 1  # the mark on the buried card's back, at its place
        assert sum(enc.vector(st, viewer)[block.start + marks_at:block.stop]) == 1


def test_the_terminal_shows_the_looker_what_it_knows():
    typed = "1\n1\n2\nquit\n"  # sort: Six on top, then Eight (still option 2); a bot plays; then quit
    out = CliRunner().invoke(cli, ["run", str(PEEK), "--human", "1", "--bots", "random", "--seed", "3"], input=typed)
    assert out.exit_code == 0, out.output
    assert "player 1 looks at Six, Eight, Eleven (deck)" in out.output
    assert "1. next from the top: Six" in out.output
    assert "you know: Six (top), Eight (2 from the top), Eleven (3 from the top)" in out.output
    assert "on their backs: charge 1 (top)" in out.output


def test_the_browser_table_shows_the_looker_what_it_knows(tmp_path):
    """The served table words an unseen zone as the terminal does: the cards
    known there, and the counters on their backs."""
    hub, table = new_hub(tmp_path, rules=PEEK, players=2, humans=(0, 1), seed=3)
    for action in ("sort", "six", "eight"):
        table.act(0, action)
    table.act(1, "bury")
    table.act(1, "nine")
    shared = {z["zone"]: z["hidden"] for z in seat_view(table, 0)["table"]["shared"]}
    assert shared == {"deck": ["6 cards (hidden)", "you know: Six (top), Eight (2 from the top), Eleven (3 from the top)"],
                      "pile": ["1 card (hidden)", "on their backs: charge 1 (top)"]}
    assert {z["zone"]: z["hidden"] for z in seat_view(table, 1)["table"]["shared"]}["deck"] == ["6 cards (hidden)"]


def test_the_terminal_does_not_show_another_players_look():
    out = CliRunner().invoke(cli, ["run", str(PEEK), "--human", "2", "--bots", "random", "--seed", "1"],
                             input="quit\n")
    assert out.exit_code == 0, out.output
    told = out.output[out.output.index("turn 1: player 1"):out.output.index("turn 2: player 2")]
    assert told.splitlines()[2:] == ["player 1 looks at 3 cards (deck)"] + ["player 1: chose a card you cannot see"] * 2
    assert "you know:" not in out.output


def variant_text(old: str, new: str) -> str:
    rules = PEEK.read_text()
    assert old in rules
    return rules.replace(old, new)


def variant(old: str, new: str):
    return load_game(PEEK, text=variant_text(old, new))


def test_reveal_to_every_seat_and_to_no_seat():
    game = variant("reveal c to next_player(me)", "reveal c to seats")
    st = game.new_initial_state(3, 4)
    play(st, "tell")
    card = st.legal_actions()[0]
    play(st, card)
    assert all(card in st.observation(p)["zones"]["hand"][0]["known"] for p in (1, 2))
    assert card in st.observation(visibility.PUBLIC)["zones"]["hand"][0]["known"]
    game = variant("reveal c to next_player(me)", "reveal c to players + 4")
    st = game.new_initial_state(2, 4)
    play(st, "tell")
    with pytest.raises(RulesError, match=r"`reveal \.\.\. to` needs a player or players, got 6") as err:
        st.apply_action(st.legal_actions()[0])
    assert err.value.diagnostics[0].span.line == 44  # the `reveal` line


def test_reorder_needs_cards_lying_in_one_zone():
    game = variant("reorder top_cards(deck, 3)", "reorder top_cards(deck, 1) + hand")
    st = game.new_initial_state(2, 4)
    with pytest.raises(RulesError, match="`reorder` puts back cards lying in one zone, each once; these lie in 2 zones"):
        st.apply_action("sort")


def test_reorder_of_a_hand_keeps_its_places():
    game = variant("reorder top_cards(deck, 3)", "reorder hand")
    st = game.new_initial_state(2, 4)
    hand = st.zone("hand", 0)
    play(st, "sort", hand[0])
    assert st.zone("hand", 0) == hand[::-1]


def test_a_zone_may_hide_its_size_from_who_does_not_see_it(tmp_path):
    text = variant_text("zone pile: shared, stack, hidden", "zone pile: shared, stack, hidden, size hidden")
    st = load_game(PEEK, text=text).new_initial_state(2, 4)
    play(st, "bury")
    play(st, st.legal_actions()[0])
    for viewer in (0, 1, visibility.PUBLIC):
        pile = st.observation(viewer)["zones"]["pile"]
        assert pile["count"] is None and pile["marks"] == {"charge": [1]}
    assert st.observation(visibility.EVERYTHING)["zones"]["pile"] == st.zone("pile")
    assert st.observation(0)["zones"]["deck"]["count"] == len(st.zone("deck"))
    (tmp_path / "cards.yaml").write_text((PEEK.parent / "cards.yaml").read_text())
    (tmp_path / "game.rules").write_text(text)
    out = CliRunner().invoke(cli, ["run", str(tmp_path / "game.rules"), "--human", "1", "--bots", "random",
                                   "--seed", "4"], input="4\n1\nquit\n")
    assert "pile  cards (hidden, how many is not told)" in out.output


@pytest.mark.parametrize("players", [2, 3])
def test_every_position_of_a_game_saves_and_loads_with_what_each_player_knows(game, players):
    bot = make_agent("random", players, 0)
    st = game.new_initial_state(players, players + 10)
    while not st.is_terminal():
        again = game.state_from_json(st.to_json())
        assert again.known == st.known and again.fingerprint() == st.fingerprint()
        assert all(again.observation(p) == st.observation(p) for p in range(players))
        st.apply_action(bot.choose_id(st.legal_actions()))
    assert any(st.known)
