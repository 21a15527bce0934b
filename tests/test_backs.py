"""Card backs: face down, cards are told apart by their backs alone (one
back for every card unless `backs:` says otherwise). Twin positions that
swap two unseen cards of one back give the same sampled worlds, so a bot
decides the same in both; cards of different backs stay apart."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import make_agent
from interpreter.runtime.ops import zone_to_change
from interpreter.loader import load_game
from interpreter.play import world_sampler
from interpreter.visibility import unseen_places
from interpreter.worlds import determinize

CARDS = """\
gem:
  - {name: Ruby, value: 5, colour: red}
  - {name: Garnet, value: 4, colour: red}
  - {name: Jade, value: 3, colour: green}
  - {name: Opal, value: 2, colour: white}
relic:
  - {name: Crown, value: 9, colour: gold}
  - {name: Sceptre, value: 8, colour: gold}
  - {name: Orb, value: 7, colour: white}
"""

RULES = """\
game "Backs"
players 2
cards "cards.yaml" into box
BACKS
counter points: per player, min 0
zone box: shared, hidden
zone deck: shared, stack, hidden
zone hand: per player, owner only
zone table: shared, visible

setup:
    move box to deck
    shuffle deck
    for each p in seats:
        deal 2 from deck to hand of p

turn:
    choose action

action play "play a card":
    choose c in hand as "play {c.name}":
        move c to table
        if c is relic:
            gain 2 points

action draw "draw":
    deal 1 from deck to hand

at end of round:
    if size(deck) == 0 or round >= 4:
        end game now

score:
    "Points": points
    "Hand": sum c.value for c in hand
"""


def game_with(tmp_path, backs: str):
    (tmp_path / "cards.yaml").write_text(CARDS)
    rules = tmp_path / "game.rules"
    rules.write_text(RULES.replace("BACKS", backs))
    return rules, load_game(rules)


def twin(st, a: int, b: int):
    """`st` with cards `a` and `b` (lying unseen) in each other's places."""
    other = st.clone()
    za, zb = other.loc[a], other.loc[b]
    ia, ib = other.z[za].index(a), other.z[zb].index(b)
    zone_to_change(other, za)[ia] = b
    zone_to_change(other, zb)[ib] = a
    other.loc[a], other.loc[b] = zb, za
    return other


def unseen_pair(st, viewer, same_kind: bool):
    cards = [st.z[zi][i] for zi, i in unseen_places(st, viewer)]
    kinds = st.program.card_kinds
    for a in cards:
        for b in cards:
            if a < b and (kinds[a] == kinds[b]) == same_kind:
                return a, b
    return None


@pytest.mark.parametrize("same_kind", [True, False], ids=["same kind", "other kinds"])
def test_with_one_back_twins_of_any_kinds_give_the_same_worlds_and_choices(tmp_path, same_kind):
    _, game = game_with(tmp_path, "")
    for seed in range(6):
        st = game.new_initial_state(2, seed=seed)
        pair = unseen_pair(st, 0, same_kind)
        if pair is None:
            continue
        other = twin(st, *pair)
        for k in range(3):
            world, _ = determinize(st, 0, 100 + k)
            other_world, _ = determinize(other, 0, 100 + k)
            assert world.z == other_world.z
        for name in ("random", "greedy", "mcts:30"):
            choices = []
            for position in (st, other):
                bot = make_agent(name, seed=7, seat=0)
                choices.append(bot.choose(position.decision(), position.observation(0), world_sampler(position, 0, 7)))
            assert choices[0] == choices[1], name


def test_with_a_back_per_kind_a_sampled_world_keeps_each_places_kind(tmp_path):
    _, game = game_with(tmp_path, "backs: per kind\n")
    kinds = game.program.card_kinds
    for seed in range(4):
        st = game.new_initial_state(2, seed=seed)
        for k in range(5):
            world, _ = determinize(st, 0, k)
            for zi, i in unseen_places(st, 0):
                assert kinds[world.z[zi][i]] == kinds[st.z[zi][i]]


def test_backs_of_some_kinds_and_backs_by_a_field(tmp_path):
    _, game = game_with(tmp_path, "backs: relic\n")
    assert game.program.card_backs == ["", "", "", "", "relic", "relic", "relic"]
    _, game = game_with(tmp_path, "backs: field colour\n")
    backs = game.program.card_backs
    assert backs[0] == backs[1] != backs[2] and backs[3] == backs[6] and backs[4] == backs[5]
    for seed in range(3):
        st = game.new_initial_state(2, seed=seed)
        world, _ = determinize(st, 0, seed)
        for zi, i in unseen_places(st, 0):
            assert backs[world.z[zi][i]] == backs[st.z[zi][i]]


@pytest.mark.parametrize("backs, message", [
    ("backs: relik\n", "game.rules:4:1: error: backs: unknown card kind 'relik'"),
    ("backs: field colur\n", "game.rules:4:1: error: backs: unknown card field 'colur'"),
])
def test_backs_name_kinds_or_fields_of_the_card_file(tmp_path, backs, message):
    rules, _ = game_with(tmp_path, "")
    rules.write_text(RULES.replace("BACKS", backs))
    result = CliRunner().invoke(cli, ["check", str(rules)])
    assert result.exit_code == 1
    assert message in result.output


TOP = """\
game "Top"
players 2
cards "cards.yaml" into box
counter points: per player, min 0
zone box: shared, hidden
zone deck: shared, stack, hidden, top visible
zone hand: per player, owner only

setup:
    move box to deck
    shuffle deck

turn:
    choose action

action draw "draw":
    deal 1 from deck to hand

action mix "shuffle the deck":
    shuffle deck

at end of round:
    if size(deck) < 2 or round >= 3:
        end game now

score:
    "Points": points
"""


def test_a_top_visible_pile_shows_its_top_card_to_every_player(tmp_path):
    from interpreter.view import unseen_words

    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "top.rules").write_text(TOP)
    game = load_game(tmp_path / "top.rules")
    st = game.new_initial_state(2, seed=3)
    deck = st.program.zones["deck"].base
    names = st.program.card_ids
    for viewer in (0, 1):
        view = st.observation(viewer)["zones"]["deck"]
        assert view["count"] == 7 and view["known"][-1] == names[st.z[deck][-1]]
        assert [c for c in view["known"] if c is not None] == [names[st.z[deck][-1]]]  # the top alone
        assert unseen_words(view)[1] == f"you know: {names[st.z[deck][-1]]} (top)"
    top_card = st.z[deck][-1]
    st.events = []
    play_id = "draw" if "draw" in st.legal_actions() else st.legal_actions()[0]
    from .conftest import play
    play(st, play_id)  # player 1 draws the top card: everyone saw which, and sees the next
    assert st.loc[top_card] == st.program.zones["hand"].base
    from interpreter.events import tell_all
    assert f"{st.program.card_names[top_card]}: deck -> player 1's hand" in [t for _, t in tell_all(st, st.events, 1)]
    assert st.observation(1)["zones"]["deck"]["known"][-1] == names[st.z[deck][-1]]
    for k in range(5):  # no sampled world moves the top card, nor the drawn one
        world, _ = determinize(st, 1, k)
        assert world.z[deck][-1] == st.z[deck][-1] and world.loc[top_card] == st.loc[top_card]


def test_top_visible_is_for_a_pile_not_every_player_sees(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS)
    (tmp_path / "game.rules").write_text(TOP.replace("zone deck: shared, stack, hidden, top visible",
                                                     "zone deck: shared, stack, visible, top visible"))
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "game.rules")])
    assert result.exit_code == 1
    assert ("game.rules:6:6: error: zone 'deck' is `top visible`, but it is visible: every card of it is seen"
            in result.output)
