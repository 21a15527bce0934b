"""GameState.play_out: decisions answered where the rules ask them (without
suspending the rules between them) play the very game that applying the
same answers one by one plays, in every game of rules/."""
from __future__ import annotations

import pytest

from interpreter import rng
from interpreter.agents import make_agents
from interpreter.errors import InvalidActionError
from interpreter.game import GameState
from interpreter.loader import load_game
from interpreter.play import play_game
from interpreter.visibility import card_visible

from .conftest import RULES

GAMES = {
    "catalyst": RULES / "catalyst.rules",
    "solo": RULES / "solo.rules",
    "flat_market": RULES / "variants" / "flat_market.rules",
    "catastropolis": RULES / "catastropolis" / "catastropolis.rules",
    "capsule": RULES / "samples" / "capsule" / "capsule.rules",
    "rivals": RULES / "samples" / "rivals" / "rivals.rules",
}


@pytest.fixture(scope="module", params=sorted(GAMES), ids=sorted(GAMES))
def game(request):
    return load_game(GAMES[request.param])  # invariants unchecked: decisions are answered inline


def choosers(players: int, seed: int) -> list:
    return [rng.Draws(rng.seed_state(seed * 31 + seat)).choose_id for seat in range(players)]


def stepped(st, choose, stop=None):
    """Apply each chooser's answer, one action at a time (the reference)."""
    while not st.over and (stop is None or st.decisions < stop):
        st.apply_action(choose[st.decider](st.option_ids))
    return st


def player_counts(game):
    low, high = game.player_range
    return sorted({low, high})


def test_play_out_plays_the_game_applying_one_action_at_a_time_plays(game):
    for players in player_counts(game):
        for seed in (0, 3):
            one_by_one = stepped(game.new_initial_state(players, seed), choosers(players, seed))
            inline = game.new_initial_state(players, seed)
            inline.play_out(choosers(players, seed))
            assert inline.over and inline.auto is None
            assert inline.to_json() == one_by_one.to_json()
            assert inline.result() == one_by_one.result()


def test_a_random_chooser_drawing_by_position_plays_the_game_its_ids_play(game):
    """A generator handed as the chooser (rng.Draws) is drawn from by
    position, without the ids of the options being made: the same draws,
    the same game, history included, as choosing among the ids."""
    for players in player_counts(game):
        for seed in (0, 3):
            choose = choosers(players, seed)
            by_ids = stepped(game.new_initial_state(players, seed), choose)
            by_position = game.new_initial_state(players, seed)
            draws = [rng.Draws(rng.seed_state(seed * 31 + seat)) for seat in range(players)]
            by_position.play_out(draws)
            assert by_position.over
            assert by_position.to_json() == by_ids.to_json()
            assert [d.state for d in draws] == [c.__self__.state for c in choose]


def test_play_out_goes_on_from_a_position_reached_and_from_a_loaded_save(game):
    players = player_counts(game)[-1]
    reference = stepped(game.new_initial_state(players, 5), choosers(players, 5))
    choose = choosers(players, 5)
    st = stepped(game.new_initial_state(players, 5), choose, stop=12)
    loaded = game.state_from_json(st.to_json())
    loaded.play_out(choose)
    assert loaded.to_json() == reference.to_json()


def test_an_observation_made_while_playing_out_is_not_kept_past_its_position():
    """A chooser that observes the position answers inline: where play
    stops (at a seat without a chooser), the position is observed as a
    state rebuilt from its save observes it, not as the chooser saw it."""
    game = load_game(GAMES["catalyst"])
    for seed in range(3):
        st = game.new_initial_state(2, seed)
        draws = rng.Draws(rng.seed_state(seed))

        def looking(ids):
            st.observation(0)
            return ids[draws.position(len(ids))]
        while not st.over:
            st.play_out([looking, None])
            if not st.over:
                assert st.observation(0) == game.state_from_json(st.to_json()).observation(0)
                st.apply_action(draws.choose_id(st.option_ids))


def test_the_rules_are_not_suspended_between_answered_decisions(game, monkeypatch):
    applied = []
    original = GameState.apply_action
    monkeypatch.setattr(GameState, "apply_action", lambda st, a: (applied.append(a), original(st, a)))
    st = game.new_initial_state(player_counts(game)[0], 2)
    st.play_out(choosers(st.n, 2))
    assert st.over and st.decisions > 1
    assert len(applied) == 1  # the first decision, asked before play_out began; the rest inline


def test_a_seat_without_a_chooser_stops_play_out_at_its_decision():
    game = load_game(GAMES["catalyst"])
    choose = choosers(2, 1)
    reference = game.new_initial_state(2, 1)
    while reference.decider != 1:
        reference.apply_action(choose[0](reference.option_ids))
    st = game.new_initial_state(2, 1)
    st.play_out([choosers(2, 1)[0], None])
    assert st.current_player() == 1 and st.auto is None
    assert st.to_json() == reference.to_json()


@pytest.mark.parametrize("way", ["listen", "invariants"])
def test_a_state_that_tells_or_checks_every_action_plays_one_at_a_time(way, monkeypatch):
    game = load_game(GAMES["catalyst"])
    if way == "invariants":
        game.set_limits(check_invariants=True)
    applied = []
    original = GameState.apply_action
    monkeypatch.setattr(GameState, "apply_action", lambda st, a: (applied.append(a), original(st, a)))
    st = game.new_initial_state(2, 4, listen=way == "listen")
    st.play_out(choosers(2, 4))
    assert st.over and len(applied) == st.decisions
    if way == "listen":
        told = [e for e in st.events if e[0] == "decision" and not e[5]]
        assert len(told) == st.decisions


def test_random_bots_play_the_same_games_with_or_without_answering_inline():
    """play_game answers the random bots' decisions inline; the games are
    those of the bots asked one decision at a time (as a watched game is)."""
    game = load_game(GAMES["catalyst"])
    for seed in range(3):
        fast = play_game(game, 3, seed, make_agents("random", 3, seed))
        watched = play_game(game, 3, seed, make_agents("random", 3, seed), after_decision=lambda st: None)
        assert fast.to_json() == watched.to_json()


def test_an_answer_that_is_not_an_option_is_refused_as_apply_action_refuses_it():
    game = load_game(GAMES["catalyst"])
    st = game.new_initial_state(2, 1)
    first = st.option_ids[0]
    answers = iter([first])
    with pytest.raises(InvalidActionError) as info:
        st.play_out([lambda ids: next(answers, "no-such-option")] * 2)
    assert "'no-such-option' is not a legal action here; legal: " in info.value.render()
    assert st.auto is None


def test_play_out_stopped_partway_leaves_the_position_applying_one_action_at_a_time_leaves(game):
    """What each player knows included (the cards offered to the player
    deciding, ops.show_options), at every point a seat without a chooser
    stops the play, before later moves make it known anyway."""
    players = player_counts(game)[-1]
    for seed in (1, 2, 4):
        for waiting in range(players):
            choose = choosers(players, seed)
            inline = game.new_initial_state(players, seed)
            for _ in range(8):  # seat `waiting` answers by hand: the others play on by themselves between
                inline.play_out([None if seat == waiting else c for seat, c in enumerate(choose)])
                if inline.over:
                    break
                one_by_one = stepped(game.new_initial_state(players, seed), choosers(players, seed), stop=inline.decisions)
                assert inline.to_json() == one_by_one.to_json() and inline.known == one_by_one.known
                inline.apply_action(choose[waiting](inline.option_ids))


def test_cards_offered_are_known_to_the_player_deciding_when_it_is_asked_or_answers_inline():
    """ops.show_options (ops.show_cards where no pass is offered): a choice of
    cards names them to the player deciding,
    whether the decision waits for it or its chooser answers where it is
    asked; each chooser here checks it at every choice of cards it answers."""
    game = load_game(GAMES["catalyst"])
    checked = []

    def chooser(st, seat, draw):
        def choose(ids):
            cards = [game.program.card_ids.index(i) for i in ids if i in game.program.card_ids]
            assert all(card_visible(st, c, seat) for c in cards)
            checked.append(len(cards))
            return draw(ids)
        return choose

    for seed in range(3):
        st = game.new_initial_state(2, seed)
        draws = choosers(2, seed)
        waiting = stepped(st, [chooser(st, seat, draws[seat]) for seat in range(2)], stop=10)  # asked
        waiting.play_out([chooser(waiting, seat, draws[seat]) for seat in range(2)])  # answered inline
    assert sum(1 for n in checked if n) > 20
