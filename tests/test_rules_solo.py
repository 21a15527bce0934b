"""One scenario per rule of the solo mode, through the decision API on the
real rules/solo.rules. Seat 0 is the player, seat 1 the automaton (AI)."""
from __future__ import annotations

import pytest

from interpreter.loader import load_game

from .conftest import RULES, random_game
from .positions import card, card_ids, data, play, set_market

YOU, AI = 0, 1


@pytest.fixture(scope="module")
def solo():
    game = load_game(RULES / "solo.rules")
    game.set_limits(check_invariants=True)
    return game


def start(solo, seed=1):
    st = solo.new_initial_state(2, seed)
    assert st.current_player() == YOU
    return st


def ready(st, effects, exclude=()):
    cid = card(st, "catalyst", exclude=exclude, effects=effects)
    st.place(cid, "playing_area", owner=YOU)
    return cid


def test_you_are_first_and_play_turns_in_a_row(solo):
    """You are the first player. Play multiple turns in a row until the game ends."""
    deciders = set()
    final = random_game(solo, 2, seed=4, on_decision=lambda st, d, c: deciders.add(d.player))
    assert final.first == YOU and deciders == {YOU}
    assert final.turns == final.round  # one turn per round: only you play


def test_two_player_preparation(solo):
    """Follow the instructions for preparing a 2-player game."""
    st = start(solo)
    in_play = [c for z in ("deck", "final_stack", "market") for c in st.zone(z) if c]
    assert len(in_play) == 40 and all(data(solo, c)["players"] == 2 for c in in_play)
    assert len(st.zone("final_stack")) == 10
    assert st.counter("coins", YOU) == 4


@pytest.mark.parametrize("seed", range(6))
def test_four_buildings_costs_1_to_4_in_different_colours(solo, seed):
    """One building costing 1, 2, 3 and 4, all of different colours, chosen at random."""
    supply = start(solo, seed).zone("building_supply")
    assert sorted(data(solo, b)["level"] for b in supply) == [1, 2, 3, 4]
    assert len({data(solo, b)["colour"] for b in supply}) == 4


def test_building_choice_varies_with_the_seed(solo):
    choices = {tuple(sorted(start(solo, seed).zone("building_supply"))) for seed in range(8)}
    assert len(choices) > 1


def test_building_price_is_its_printed_cost_plus_owned(solo):
    st = start(solo)
    ready(st, "build")
    st.set_counter("coins", 10, YOU)
    st.refresh()
    play(st, "activate_one", "1:build")
    for b, label in ((o.id, o.label) for o in st.legal_options()):
        assert label.endswith(f"for {data(solo, b)['level']} coins")


def test_collect_gives_the_ai_a_military_token(solo):
    """Collect Contributions: you get coins as usual, and the AI gets a military power token."""
    st = start(solo)
    st.set_counter("coins", 2, YOU)
    set_market(st, card_ids(solo, "catalyst", cost=3)[:5])
    st.refresh()
    play(st, "collect")
    assert st.counter("coins", YOU) == 5 and st.counter("military", AI) == 1


def test_recruit_gives_the_ai_the_card_toward_the_deck(solo):
    """Then take the first card to the left of the one you recruited and place
    it in the AI's scoring pile."""
    st = start(solo)
    st.set_counter("coins", 10, YOU)
    market = st.zone("market")
    play(st, "recruit", market[3])
    assert st.where(market[2]) == ("scoring_pile", AI)
    assert st.zone("scoring_pile", AI) == [market[2]]


def test_recruit_from_the_plus_one_space_gives_the_ai_the_deck_top(solo):
    """If you recruit from the space marked +1, the top card of the draw pile goes to the AI."""
    st = start(solo)
    st.set_counter("coins", 10, YOU)
    market, top = st.zone("market"), st.zone("deck")[-1]
    play(st, "recruit", market[0])
    assert st.zone("scoring_pile", AI) == [top]
    assert all(st.where(c)[0] == "market" for c in market[1:])


def test_activate_gives_the_ai_the_deck_top(solo):
    """Activate a Catalyst: then place the card on top of the deck in the AI's scoring pile."""
    st = start(solo)
    ready(st, "coin coin")
    st.refresh()
    top = st.zone("deck")[-1]
    play(st, "activate_one", "1:coin", "2:coin")
    assert st.zone("scoring_pile", AI) == [top]
    assert st.counter("military", AI) == 0  # a coin effect is not a Collect action


def test_effects_and_chain_activations_give_the_ai_nothing(solo):
    """When you get coins or recruit through an effect, or spend chain tokens,
    the additions do not apply."""
    st = start(solo)
    x = ready(st, "chain")
    y = ready(st, "recruit", exclude=[x])
    st.set_counter("coins", 10, YOU)
    st.refresh()
    market = st.zone("market")
    play(st, "activate_one", x, "1:chain")  # the action: the AI takes the deck's top
    assert len(st.zone("scoring_pile", AI)) == 1
    play(st, y, "1:recruit", market[3])  # chain activation + a recruit effect
    assert len(st.zone("scoring_pile", AI)) == 1 and st.counter("military", AI) == 0


def test_game_ends_immediately_when_the_reserve_runs_out(solo):
    """When the last card of the reserve deck is discarded or put on the board,
    the game ends immediately."""
    st = start(solo)
    for cid in st.zone("final_stack") + st.zone("deck")[:-1]:
        st.place(cid, "box")
    x = ready(st, "coin coin")
    st.refresh()
    play(st, "activate_one", "done")  # the AI takes the reserve's last card
    assert st.is_terminal()
    assert st.where(x) == ("playing_area", YOU)  # the end of the turn never came


def test_the_ten_card_stack_is_part_of_the_reserve(solo):
    """Reading: the 2-player setup's 10-card stack joins the deck when it runs out."""
    st = start(solo)
    for cid in st.zone("deck")[:-1]:
        st.place(cid, "box")
    ready(st, "coin coin")
    st.refresh()
    play(st, "activate_one", "done")
    assert not st.is_terminal()
    assert len(st.zone("deck")) == 10 and st.zone("final_stack") == []


@pytest.mark.parametrize("difficulty, bonus", [("easy", 10), ("standard", 20), ("advanced", 30)])
def test_ai_score_with_difficulty(difficulty, bonus):
    """The AI scores its pile, each pair of military tokens and the majority,
    plus 10/20/30 VP by difficulty; it has no buildings and no coins."""
    game = load_game(RULES / "solo.rules", {"difficulty": f'"{difficulty}"'})
    st = game.new_initial_state(2, 1)
    for cid in card_ids(game, "catalyst", cost=4)[:2]:
        st.place(cid, "scoring_pile", owner=AI)
    st.set_counter("military", 5, AI)
    assert st.score_breakdown(AI) == {"Catalysts": 8, "Buildings": 0, "Military": 2, "Majority": 6,
                                      "Coins": 0, "Difficulty": bonus}


def test_standard_difficulty_is_the_default(solo):
    assert start(solo).score_breakdown(AI)["Difficulty"] == 20


def test_you_win_only_with_at_least_one_vp_more(solo):
    """If you scored at least 1 VP more than the AI, you won."""
    st = start(solo)
    st.set_counter("coins", 0, YOU)
    fives = card_ids(solo, "catalyst", cost=5)
    for cid in fives[:5]:
        st.place(cid, "scoring_pile", owner=YOU)  # 25 VP
    st.set_counter("military", 1, YOU)  # + 6 for the majority = 31
    for cid in (card(solo, "catalyst", cost=4), card(solo, "catalyst", cost=2), fives[5]):
        st.place(cid, "scoring_pile", owner=AI)  # 11 VP + 20 for standard difficulty = 31
    assert st.scores() == [31, 31]
    assert st.winners() == [AI]  # a tie is not enough
    st.set_counter("coins", 3, YOU)  # +1 VP
    assert st.winners() == [YOU]
