"""What each player is told of the others' choices: labels and story lines
worded per viewer (a part read from a card the viewer does not see is
withheld, whatever the option's type), forced choices, declined reactions
and cards shown to some players told to the player concerned alone, and a
pick the others cannot follow ending what they knew. Played on
tests/fixtures/secrets/secrets.rules and the Rivals sample, through the
decision API, the story (the terminal's and the browser's histories are
made by events.tell_all) and the real command line."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest

from interpreter import visibility
from interpreter.events import tell_all
from interpreter.visibility import EVERYTHING, PUBLIC

from .conftest import ROOT, checked_game, play

SECRETS = ROOT / "tests" / "fixtures" / "secrets" / "secrets.rules"
RIVALS = ROOT / "rules" / "samples" / "rivals" / "rivals.rules"


@pytest.fixture(scope="module")
def game():
    return checked_game(SECRETS)


def told(st, viewers) -> dict:
    """The story of the events since the state began listening, per viewer."""
    return {v: [text for _, text in tell_all(st, st.events, v)] for v in viewers}


def cost(st, card) -> int:
    return st.program.cards.by_id(st.program.card_ids[card]).data["cost"]


def laid_on_the_table(game, listen: bool = False):
    """The first deal (seed 0 up) of a 2-player game where player 1 lays a
    card above 6 on the table; player 2 is to play."""
    for seed in range(60):
        st = game.new_initial_state(2, seed=seed, listen=listen)
        if "boast" not in st.legal_actions():
            continue
        play(st, "boast")
        if st.legal_actions() != ["pass"]:  # (no card above 6: "pass" alone)
            play(st, st.legal_actions()[0])
            return st
    pytest.fail("no seed where player 1 may lay a card above 6")


def test_a_number_option_whose_label_names_a_hidden_card_is_told_without_it(game):
    st = game.new_initial_state(3, seed=1, listen=True)
    play(st, "stash")
    card = st.option_values[0]
    name = st.program.card_names[card]
    play(st, st.legal_actions()[0])
    assert st.prompt() and st.current_player() == 0
    own = {o.id: o.label for o in st.decision().options}
    assert own == {"1": f"put {name} under the pile (1 times {cost(st, card)})",
                   "2": f"put {name} under the pile (2 times {cost(st, card)})"}
    for viewer in (1, 2, PUBLIC):
        assert {o.id: o.label for o in st.decision(viewer=viewer).options} == {
            "1": "put a card under the pile (1 times something)", "2": "put a card under the pile (2 times something)"}
    st.events = []
    play(st, "2")
    story = told(st, (0, 1, 2, PUBLIC, EVERYTHING))
    assert f"player 1: put {name} under the pile (2 times" in story[0][0]
    assert story[EVERYTHING][0] == story[0][0]
    for viewer in (1, 2, PUBLIC):
        assert story[viewer][0] == "player 1: put a card under the pile (2 times something)"
        assert all(name not in line for line in story[viewer])


def test_a_label_is_told_once_the_viewer_sees_the_card(game):
    """The same part is told to a viewer who sees the card where it lies."""
    st = game.new_initial_state(2, seed=1, listen=True)
    play(st, "stash")
    card = st.option_values[0]
    play(st, st.legal_actions()[0])
    st.known[card] |= 1 << 1  # player 2 knows the card (as if it had been shown it)
    name = st.program.card_names[card]
    assert all(name in o.label for o in st.decision(viewer=1).options)


def test_the_only_option_is_told_to_the_player_who_had_it(game):
    st = laid_on_the_table(game, listen=True)
    play(st, "draw")  # player 2 draws; player 1 is asked whether to object
    play(st, "no")
    st.events = []
    play(st, "pick_up")
    assert st.current_player() == 1  # taken without asking
    story = told(st, (0, 1, PUBLIC, EVERYTHING))
    mine = [line for line in story[0] if line.endswith("(the only option)")]
    assert mine and mine[0].startswith("player 1: take ")
    assert story[EVERYTHING] == story[0]
    for viewer in (1, PUBLIC):
        assert not any("only option" in line for line in story[viewer])
        assert mine[0].removesuffix(" (the only option)") in story[viewer]


def test_a_choice_whose_options_read_a_hidden_hand_is_asked_even_with_one_option(game):
    """How many cards above 6 a player holds is its own: it is asked to lay
    one even when it holds one, so the others cannot tell."""
    for seed in range(60):
        st = game.new_initial_state(2, seed=seed, listen=True)
        hand = st.z[st.program.zones["hand"].base]
        if sum(cost(st, c) > 6 for c in hand) != 1:
            continue
        play(st, "boast")
        assert st.current_player() == 0 and len(st.legal_actions()) == 1
        return
    pytest.fail("no seed with a single card above 6")


def test_cards_shown_to_one_player_do_not_name_whom_to_the_others(game):
    st = game.new_initial_state(3, seed=2, listen=True)
    play(st, "tell")
    st.events = []
    play(st, st.legal_actions()[0])
    story = {v: [line for line in lines if "shown" in line] for v, lines in told(st, (0, 1, 2, PUBLIC, EVERYTHING)).items()}
    assert story[1][0].endswith("(player 1's hand) shown to you")
    assert story[EVERYTHING][0].endswith("(player 1's hand) shown to player 2")
    for viewer in (0, 2, PUBLIC):
        assert story[viewer] == ["a card (player 1's hand) shown privately"]
        assert not any("player 2" in line and "shown" in line for line in story[viewer])


def test_knowledge_of_a_pile_ends_with_a_pick_player_two_cannot_follow(game):
    st = game.new_initial_state(2, seed=3, listen=True)
    for _ in range(2):  # each player stashes one card under the pile
        play(st, "stash")
        play(st, st.legal_actions()[0])
        play(st, "1")
    zi = st.program.zones["pile"].base
    for card in st.z[zi]:  # player 2 has looked through the pile
        st.known[card] |= 1 << 1
    play(st, "rummage")
    st.events = []
    taken = st.option_values[0]
    play(st, st.legal_actions()[0])
    story = told(st, (1,))[1]
    assert "player 1: chose a card you cannot see" in story
    assert st.program.card_names[taken] not in "\n".join(story)
    assert not any(visibility.knows(st, c, 1) for c in st.z[zi])  # nor where the others lie
    assert "known" not in st.observation(1)["zones"]["hand"][0]


def test_every_player_is_asked_when_who_may_react_reads_a_hidden_hand(game):
    """Only a player holding a 12 may object to a draw, and the hands are
    hidden: every other player is asked, a player who cannot object may
    only decline, and a decline is told to no one else."""
    twelve = game.program.card_names.index("Twelve")
    for seed in range(60):
        st = game.new_initial_state(3, seed=seed, listen=True)
        if "draw" not in st.legal_actions() or st.loc[twelve] == st.program.zones["hand"].base:
            continue  # player 1 draws; someone else must hold the 12 ... or nobody
        play(st, "draw")
        asked = []
        while st.prompt() and st.prompt().startswith("react"):
            reacting = st.current_player()
            asked.append((reacting, st.legal_actions()))
            st.events = []
            play(st, "no")
            story = told(st, (0, 1, 2, PUBLIC, EVERYTHING))
            said = f"player {reacting + 1}: no reaction to drawn"
            assert said in story[reacting] and said in story[EVERYTHING]
            for viewer in {0, 1, 2, PUBLIC} - {reacting}:
                assert not any("reaction" in line for line in story[viewer])
        assert [seat for seat, _ in asked] == [1, 2]
        holder = st.loc[twelve] - st.program.zones["hand"].base
        for seat, options in asked:
            assert options == (["yes", "no"] if seat == holder else ["no"])
        return
    pytest.fail("no seed where player 1 draws first")


def test_rivals_put_under_a_draw_stack_names_no_card_to_the_other_player():
    """The Rivals sample: "player 1: put Courthouse under draw stack 1"
    reached player 2 while player 1's hand showed "2 cards (hidden)"."""
    rivals = checked_game(RIVALS)
    point = next(i for i, d in enumerate(rivals.program.decisions) if d.span.source.line(d.span.line).strip().startswith("choose n in [1, 2] as \"put {c.name} under draw stack"))
    seen = 0
    for seed in range(3):
        st = rivals.new_initial_state(2, seed=seed, listen=True)
        rng = random.Random(seed)
        while not st.is_terminal():
            st.events = []
            st.apply_action(rng.choice(st.legal_actions()))
            for event in st.events:
                if event[0] == "decision" and event[2] == point:
                    other = 1 - event[1]
                    line = told_one(st, event, other)
                    assert line is None or " under draw stack " in line and "put a card under" in line, line
                    seen += 1
    assert seen > 10


def told_one(st, event, viewer):
    for ev, text in tell_all(st, st.events, viewer):
        if ev is event:
            return text
    return None


@pytest.mark.timeout(120)
def test_rivals_at_the_terminal_player_two_is_not_told_the_card_player_one_puts_under():
    for seed in (1, 2):
        result = subprocess.run(
            [sys.executable, "-m", "cli.main", "run", str(RIVALS), "--seed", str(seed), "--human", "2", "--bots", "random"],
            input="1\n" * 3000, capture_output=True, text=True, cwd=ROOT, timeout=100)
        lines = [line for line in result.stdout.splitlines() if "player 1: put" in line]
        assert lines
        assert all("player 1: put a card under" in line for line in lines if "draw stack" in line), lines


def test_cards_seen_shuffled_into_the_deck_are_known_to_lie_in_it(game):
    """Cards everyone saw on the table, shuffled into the deck, are known to
    lie somewhere in it (not where): told in the observation and at the
    terminal, kept in the deck by every sampled world, until a card nobody
    can tell leaves the deck."""
    from interpreter.view import unseen_words
    from interpreter.worlds import determinize

    st = laid_on_the_table(game, listen=True)
    laid = st.zone("table")
    play(st, "recycle")  # player 2 shuffles it into the deck
    deck = st.program.zones["deck"].base
    names = sorted(laid)
    for viewer in (0, 1):
        view = st.observation(viewer)["zones"]["deck"]
        assert view["inside"] == names and "known" not in view
        assert "somewhere in it: " + ", ".join(names) in unseen_words(view)
    cards = [st.program.card_ids.index(c) for c in laid]
    for k in range(20):
        world, _ = determinize(st, 0, k)
        assert all(world.loc[c] == deck for c in cards)
    play(st, "draw")  # player 1 draws a card it cannot tell
    if st.prompt() and st.prompt().startswith("react"):
        play(st, "no")
    assert "inside" not in st.observation(1)["zones"]["deck"]


def test_the_browser_seat_of_player_two_is_not_told_the_card_player_one_puts_under(tmp_path):
    """The Rivals example through the browser's seat view (its history is
    what the page shows), and the agents' observation: no card name."""
    from interpreter.serve.views import seat_view

    from .serving import new_hub

    rivals = checked_game(RIVALS)
    st = rivals.new_initial_state(2, seed=1)
    rng = random.Random(1)
    actions = []
    while not st.is_terminal() and len(actions) < 400:
        actions.append(rng.choice(st.legal_actions()))
        st.apply_action(actions[-1])
    hub, table = new_hub(tmp_path, rules=RIVALS, players=2, humans=(0, 1), seed=1)
    table.replay(actions)
    history = [line["text"] for line in seat_view(table, 1)["history"]]
    put = [text for text in history if text.startswith("player 1: put ") and "draw stack" in text]
    assert put and all(text.startswith("player 1: put a card under draw stack") for text in put), put


def test_a_choice_made_secretly_is_told_to_its_player_alone(game):
    st = game.new_initial_state(3, seed=1, listen=True)
    play(st, "bet")
    assert [o.label for o in st.decision().options] == ["bet 1", "bet 2", "bet 3"]
    for viewer in (1, 2, PUBLIC):
        assert [o.label for o in st.decision(viewer=viewer).options] == ["an option chosen in secret"] * 3
    st.events = []
    play(st, "2")
    # a label read from the secret choice is its player's alone too
    assert [o.label for o in st.decision().options] == ["raise the bet of 2 by 1", "pass"]
    assert [o.label for o in st.decision(viewer=1).options] == ["raise the bet of something by 1", "pass"]
    play(st, "no")
    story = told(st, (0, 1, 2, PUBLIC, EVERYTHING))
    assert "player 1: bet 2" in story[0] and "player 1: bet 2" in story[EVERYTHING]
    for viewer in (1, 2, PUBLIC):
        assert "player 1 chose in secret" in story[viewer]
        assert not any("bet 2" in line or "wager" in line for line in story[viewer])
    assert st.observation(1)["counters"]["wager"][0] is None


def test_the_agents_vector_marks_cards_known_to_lie_in_a_zone(game):
    """The adapters' vector carries what the observation says: a card known
    to lie somewhere in the deck (after a shuffle) is 0.5 in the deck's
    block of known cards."""
    import numpy as np

    from interpreter.adapters.encoding import Encoding

    st = laid_on_the_table(game)
    laid = st.zone("table")
    play(st, "recycle")
    enc = Encoding(game)
    buf = np.zeros(enc.size, np.float32)
    enc.fill(buf, st, 1, st.observation(1))
    info, per, block, known_at, _ = next(z for z in enc.zones if z[0].name == "deck")
    marks = buf[block.start + known_at: block.start + known_at + enc.ncards]
    assert sorted(np.flatnonzero(marks == 0.5)) == sorted(enc.card_index[c] for c in laid)


def test_a_card_put_at_a_place_chosen_in_secret_is_known_to_lie_in_the_pile_not_where(game):
    st = laid_on_the_table(game, listen=True)
    [card] = [st.program.card_ids.index(c) for c in st.zone("table")]
    name = st.program.card_ids[card]
    play(st, "tuck")  # player 2 tucks it (the only card of the table: taken without asking)
    st.events = []
    play(st, "2")
    deck = st.z[st.program.zones["deck"].base]
    assert deck[-2] == card  # second from the top
    mine, theirs = st.observation(1)["zones"]["deck"], st.observation(0)["zones"]["deck"]
    assert mine["known"][-2] == name and "inside" not in mine
    assert theirs["inside"] == [name] and "known" not in theirs
    assert "player 2 chose in secret" in told(st, (0,))[0]


def test_a_choice_left_without_options_by_a_hidden_hand_is_asked_all_the_same(game):
    """No card of the hand above 6: whether a player had one is its own, so
    it is asked all the same, with "pass" alone (not skipped unseen)."""
    for seed in range(60):
        st = game.new_initial_state(2, seed=seed)
        hand = st.z[st.program.zones["hand"].base]
        if any(cost(st, c) > 6 for c in hand) or "boast" not in st.legal_actions():
            continue
        play(st, "boast")
        assert st.current_player() == 0 and st.legal_actions() == ["pass"]
        play(st, "pass")
        assert st.current_player() == 1
        return
    pytest.fail("no seed without a card above 6")


def test_pettingzoo_selects_every_other_player_in_a_window_whatever_their_hands():
    """Through the PettingZoo adapter: after a draw, the agents selected are
    every other player, in seat order, whatever their hidden hands hold; one
    who cannot object has the one action "no" in its mask."""
    from interpreter.adapters.pettingzoo_env import env as rules_env

    seen_masks = set()
    for seed in range(8):
        environment = rules_env(str(SECRETS), players=3)
        environment.reset(seed=seed)
        st = environment.game_state
        if "draw" not in st.legal_actions():
            continue
        environment.step(environment.action_index("draw"))
        selected = []
        while environment.game_state.prompt() and environment.game_state.prompt().startswith("react"):
            agent = environment.agent_selection
            mask = environment.observe(agent)["action_mask"]
            selected.append(agent)
            seen_masks.add(tuple(environment.action_id(i) for i in mask.nonzero()[0]))
            environment.step(environment.action_index("no"))
        assert selected == ["player_1", "player_2"]
    assert ("no",) in seen_masks  # some player could not object, and was asked all the same


LATER = """\
game "Later"
players 2
cards "cards.yaml" into box
zone box: shared, hidden
zone deck: shared, stack, hidden
zone hand: per player, owner only
zone table: shared, visible
setup:
    move box to deck
    move top(deck) to hand of seats[1]
    move top(deck) to hand of seats[1]
    WHAT
turn:
    end game now
score:
    "Cards": size(hand)
"""


@pytest.mark.parametrize("what", ["reveal hand of seats[1] to seats[0]", "move hand of seats[1] to table"])
def test_a_card_player_one_learns_later_stays_a_card_in_the_earlier_line(what):
    """The story of a batch is told once it is over: the line of the draw is
    written with what player 1 knew then, not with what it learnt later in
    the batch (the cards shown to it, or played face up)."""
    from interpreter.loader import load_game
    cards = "thing:\n" + "".join(f"  - {{name: T{i}}}\n" for i in range(4))
    st = load_game(text=LATER.replace("WHAT", what), cards={"cards.yaml": cards}).new_initial_state(2, 1, listen=True)
    lines = [text for _, text in tell_all(st, st.events, 0)]
    assert lines[:2] == ["4 cards: box -> deck", "2 cards: deck -> player 2's hand"], lines
    assert "2 cards: deck -> player 2's hand" in [text for _, text in tell_all(st, st.events, visibility.PUBLIC)]
    named = [text for _, text in tell_all(st, st.events, 1) if text.endswith("deck -> player 2's hand")]
    assert named and "T" in named[0]  # player 2 saw its own cards
