"""Order of play: phases within a round, passing, and simultaneous choices,
on a small real rules file (tests/flow/auction.rules) driven through the
decision API, saves, logs and replay, the bots and the command line."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter import visibility
from interpreter.events import tell
from interpreter.loader import load_game
from interpreter.play import play_game
from interpreter.agents import AGENTS, make_agents
from interpreter.worlds import determinize
from interpreter import rng

from .conftest import ROOT, labels, play

AUCTION = ROOT / "tests" / "flow" / "auction.rules"


@pytest.fixture(scope="module")
def auction():
    return load_game(AUCTION)


def where(st) -> tuple:
    """(round, phase, turn, player) of the pending decision."""
    return st.round, st.phase, st.turns, st.current_player()


# ---------------------------------------------------------------- phases
def test_a_round_is_its_phases_in_order_each_with_its_own_order_of_play(auction):
    st = auction.new_initial_state(2, seed=1)
    # Income (everyone once) asks nothing; the market starts with the first player.
    assert where(st) == (1, 2, 3, 0)
    assert st.counter("gold", 0) == 3 and st.counter("gold", 1) == 3
    assert st.counter("phases_begun") == 2 and st.counter("last_phase") == 2
    play(st, "lamp")
    assert where(st) == (1, 2, 4, 1)
    play(st, "pass")
    assert where(st) == (1, 2, 5, 0) and st.passed == (1,)
    play(st, "pass")  # both passed in a row: the market is over, the sale begins
    assert where(st) == (1, 3, 6, 0) and st.passed == ()
    assert st.counter("passes", 0) == 1 and st.counter("passes", 1) == 1


def test_a_pass_is_not_final_unless_the_phase_says_so(auction):
    st = auction.new_initial_state(2, seed=1)
    play(st, "pass")  # player 1 passes ...
    assert where(st) == (1, 2, 4, 1)
    play(st, "rug")  # ... player 2 buys, so player 1 plays again
    assert where(st) == (1, 2, 5, 0) and st.passed == ()
    play(st, "lamp", "pass", "pass")
    assert where(st)[:2] == (1, 3)


def test_passing_final_takes_the_player_out_of_the_phase(auction):
    st = auction.new_initial_state(2, seed=1)
    # market: each buys one; player 1 passes, player 2 (1 gold left, nothing
    # that cheap) passes without being asked
    play(st, "lamp", "rug", "pass")
    assert where(st) == (1, 3, 7, 0) and set(labels(st)) == {"lamp", "pass"}
    play(st, "pass")  # player 1 is out of the sale for good
    assert where(st) == (1, 3, 8, 1) and set(labels(st)) == {"rug", "pass"}
    st.events = []
    play(st, "rug")  # player 2 sells; player 1 is skipped: player 2 plays on alone
    turns = [e for e in st.events if e[0] == "turn"]
    assert turns == [("turn", 9, 1)]  # (nothing left to sell: it passes without being asked)
    assert st.passed == (0, 1) and "pass" in labels(st) and "1" in labels(st)  # the bids


def test_rounds_phases_and_turns_are_counted_as_players_count_them(auction):
    st = auction.new_initial_state(3, seed=2)
    seen = set()
    while not st.is_terminal():
        seen.add((st.round, st.phase))
        st.apply_action(st.legal_actions()[-1])
    assert max(r for r, _ in seen) == 3  # three game rounds, however many phases and turns
    assert {p for _, p in seen} <= {1, 2, 3}
    obs = st.observation(0)
    assert obs["round"] == 3 and obs["phase"] == 3 and "passed" in obs


def test_the_terminal_says_round_and_phase(tmp_path):
    result = CliRunner().invoke(cli, ["run", str(AUCTION), "--players", "2", "--seed", "4", "--bots", "random"])
    assert result.exit_code == 0, result.output
    assert "phase 2: Market" in result.output and "phase 3: Sell" in result.output
    assert "round  3 phase 2 turn" in result.output
    assert "round 25" not in result.output


def test_pass_phase_in_a_procedure_called_from_a_phase_played_until_everyone_passes(tmp_path):
    """Reaching `pass phase` through a procedure is accepted where players may
    pass, and passes as if written in the phase; the same call from a phase
    played once is refused by `check`, at the `pass phase`."""
    (tmp_path / "cards.yaml").write_text((AUCTION.parent / "cards.yaml").read_text())
    text = AUCTION.read_text().replace("        move c to won\n        gain c.cost points\n    else:\n        pass phase\n",
                                       "        move c to won\n        gain c.cost points\n    else:\n        give_up\n")
    assert "give_up" in text
    path = tmp_path / "auction.rules"
    path.write_text(text + "procedure give_up:\n    pass phase\n")
    st = load_game(path).new_initial_state(2, seed=1)
    play(st, "pass")
    assert where(st) == (1, 2, 4, 1) and st.passed == (0,)
    path.write_text(path.read_text().replace('phase income "Income":\n    gain 1 gold\n',
                                             'phase income "Income":\n    gain 1 gold\n    if gold > 9:\n        give_up\n'))
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1
    assert (f"{path}:{len(text.splitlines()) + 4}:5: error: `pass phase` reached from phase 'income', which is not "
            "played until everyone passes, through procedure 'give_up' (line 22)") in result.output


# ---------------------------------------------------------------- simultaneous choices
def to_the_bids(auction, players=2, seed=1):
    st = auction.new_initial_state(players, seed=seed, listen=True)
    while st.decision().prompt.lower().startswith(("market", "sell")) or st.phase != 3 or \
            not all(i in ("1", "2", "3", "pass") for i in st.legal_actions()):
        st.apply_action("pass" if "pass" in st.legal_actions() else st.legal_actions()[0])
    return st


def test_every_player_chooses_unseen_then_all_are_revealed(auction):
    st = to_the_bids(auction)
    assert st.current_player() == 0
    before = st.counter("gold", 0), st.counter("gold", 1)
    points = st.counter("points", 0)
    st.events = []
    play(st, "3")
    # player 2 is asked next; nothing of player 1's bid has happened yet
    assert st.current_player() == 1
    assert (st.counter("gold", 0), st.counter("gold", 1)) == before
    told = [tell(st, e, 1) for e in st.events]
    assert told == ["player 1 has chosen (shown when every player has)"]
    assert tell(st, st.events[0], 0) == "player 1: bid 3 gold"
    assert tell(st, st.events[0], visibility.EVERYTHING) == "player 1: bid 3 gold"
    st.events = []
    play(st, "pass")
    # revealed together, then each body ran in the round's order
    reveal = [e for e in st.events if e[0] == "reveal"]
    assert [tell(st, e, 1) for e in reveal] == ["all have chosen: player 1: bid 3 gold; player 2: pass"]
    assert st.counter("points", 0) == points + 3
    # (then the next round's income: 1 gold each)
    assert st.counter("gold", 0) == before[0] - 3 + 1 and st.counter("gold", 1) == before[1] + 1 + 1


def test_a_later_player_sees_nothing_of_an_earlier_pick(auction):
    """Options, labels, observations and the prompt of player 2 are the same
    whatever player 1 picked."""
    views = set()
    for pick in ("1", "2", "pass"):
        st = to_the_bids(auction)
        play(st, pick)
        views.add(json.dumps([st.decision().prompt, sorted(labels(st).items()), st.observation(1)], sort_keys=True))
    assert len(views) == 1


def test_sampled_worlds_pick_the_hidden_choices_again(auction):
    st = to_the_bids(auction)
    play(st, "3")
    picks = set()
    seed = rng.seed_state(5)
    for _ in range(40):
        world, seed = determinize(st, 1, seed)
        frame = world.frames[-1]
        point = world.program.decisions[world.point]
        assert world.current_player() == 1 and world.legal_actions() == st.legal_actions()
        picks.add(frame[2][point.picks][0])
    assert len(picks) > 1  # not the true bid every time
    own = determinize(st, 0, rng.seed_state(5))[0]  # player 1 keeps its own pick
    assert own.frames[-1][2][point.picks] == (3,)


def test_saves_and_replay_in_the_middle_of_a_simultaneous_choice(auction, tmp_path):
    st = to_the_bids(auction)
    play(st, "2")
    resumed = auction.state_from_json(st.to_json())
    assert resumed.to_json() == st.to_json() and resumed.current_player() == 1
    play(resumed, "1")
    play(st, "1")
    assert resumed.to_json() == st.to_json()
    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(cli, ["run", str(AUCTION), "--players", "3", "--seed", "6", "--bots", "random",
                                      "--quiet", "--log", str(log)])
    assert result.exit_code == 0, result.output
    replayed = CliRunner().invoke(cli, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("bot", sorted(AGENTS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_to_the_end(auction, bot, players):
    spec = f"{bot}:30" if bot == "mcts" else bot
    final = play_game(auction, players, 3, make_agents(spec, players, 3))
    assert final.is_terminal() and final.round == 3


def test_simultaneous_choices_make_the_game_one_of_hidden_information(auction):
    assert auction.traits.hidden


# ---------------------------------------------------------------- the agent adapters
# (the conformance tests of both adapters run on this game too: test_adapter_conformance.py)
def test_openspiel_sees_simultaneous_choices_as_imperfect_information():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg

    game = osg.load(AUCTION, short_name="python_rules_test_auction_day")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


# ---------------------------------------------------------------- reactions and response windows
HEIST = ROOT / "tests" / "flow" / "heist.rules"


@pytest.fixture(scope="module")
def heist():
    return load_game(HEIST)


def asked(st) -> tuple:
    return st.current_player(), st.decision().prompt, sorted(labels(st).values())


def test_reactions_are_offered_to_the_other_players_from_the_named_player(heist):
    st = heist.new_initial_state(4, seed=1)
    play(st, "player-3")  # player 1 robs player 3: player 3 hears it first, then 4, then 2
    order = []
    while st.decision().prompt == "react to robbery":
        order.append(st.current_player())
        assert labels(st) == {"yes": "raise the alarm against player 1", "no": "pass"}
        play(st, "yes")
    assert order == [2, 3, 1]
    assert [st.counter("alarms", p) for p in range(4)] == [0, 1, 1, 1]


def test_first_only_closes_the_window_at_the_first_taker(heist):
    st = heist.new_initial_state(4, seed=1)
    play(st, "player-2", "no", "no", "no")
    # the escape: offered from the next player (2), then 3 and 4; 2 declines, 3 takes it
    assert asked(st)[:2] == (1, "react to escape")
    play(st, "no")
    assert asked(st)[:2] == (2, "react to escape")
    play(st, "yes")
    assert st.current_player() == 1 and st.decision().prompt == "turn"  # player 4 is not asked
    assert st.counter("guards", 2) == 0 and st.counter("gold", 0) == 2 and st.counter("gold", 2) == 4


def test_a_reaction_whose_condition_fails_is_not_offered(heist):
    st = heist.new_initial_state(2, seed=1)
    play(st, "player-2", "no", "yes")  # player 2 spends its only guard
    play(st, "player-1", "no")  # player 1's guard is left: it is offered
    assert asked(st)[:2] == (0, "react to escape")
    play(st, "yes")
    play(st, "player-2", "no")  # no guard left anywhere: no escape window at all
    assert st.decision().prompt == "turn" and st.current_player() == 1


def test_reactions_survive_saves_and_play_with_every_bot(heist):
    st = heist.new_initial_state(3, seed=4)
    play(st, "player-2")
    resumed = heist.state_from_json(st.to_json())
    assert asked(resumed) == asked(st)
    for bot in sorted(AGENTS):
        spec = f"{bot}:30" if bot == "mcts" else bot
        for players in (2, 3, 4):
            assert play_game(heist, players, 5, make_agents(spec, players, 5)).is_terminal()


def test_an_arranged_position_in_a_phase_and_a_simultaneous_choice_loads(auction):
    """A position without its history (a save checked field by field) keeps
    the phase, who passed, and the picks already made."""
    st = auction.new_initial_state(3, seed=1)
    play(st, "pass")
    assert st.passed == (0,)
    st.forget_history()
    loaded = auction.state_from_json(st.to_json())
    assert (loaded.phase, loaded.passed, loaded.current_player()) == (2, (0,), 1)
    st = to_the_bids(auction, players=3)
    play(st, "2")
    st.forget_history()
    loaded = auction.state_from_json(st.to_json())
    assert loaded.current_player() == 1 and loaded.to_json() == st.to_json()
    play(loaded, "1", "pass")
    assert loaded.counter("points", 0) >= 2


def test_a_damaged_phase_in_a_save_is_refused(auction):
    st = auction.new_initial_state(2, seed=1)
    st.forget_history()
    data = json.loads(st.to_json())
    data["state"]["phase"] = 9
    with pytest.raises(Exception, match="phase"):
        auction.state_from_json(json.dumps(data))


def test_a_save_written_before_phases_existed_still_loads(tmp_path):
    """Saves hold every state field; one written before the phase fields
    existed lacks them, and a game without phases keeps their defaults."""
    game = load_game(ROOT / "rules" / "catalyst.rules")
    st = game.new_initial_state(2, seed=3)
    play(st, st.legal_actions()[0])
    data = json.loads(st.to_json())
    del data["state"]["phase"], data["state"]["passed"]
    assert game.state_from_json(json.dumps(data)).to_json() == st.to_json()


def test_a_player_with_no_option_is_not_asked_and_not_named_among_the_picks():
    """A player left without options by `where` is not asked; the reveal
    names only who chose what, and that player's else body runs."""
    game = load_game(text=AUCTION.read_text(encoding="utf-8").replace(
        "    for each p in seats:\n        gain 2 gold of p\n",
        "    gain 2 gold of seats[1]\n").replace("phase income \"Income\":\n    gain 1 gold\n",
                                               "phase income \"Income\":\n    gain 0 gold\n"),
        cards={"cards.yaml": (AUCTION.parent / "cards.yaml").read_text(encoding="utf-8")})
    st = game.new_initial_state(2, seed=1)
    while not st.decision().prompt.lower().startswith("bid") and "1" not in st.legal_actions():
        st.apply_action("pass")
    assert st.current_player() == 1 and st.counter("gold", 0) == 0
    st.events = []
    play(st, "2")
    reveal = [e for e in st.events if e[0] == "reveal"]
    assert [tell(st, e, 0) for e in reveal] == ["all have chosen: player 2: bid 2 gold"]
    assert st.counter("gold", 0) == 1 and st.counter("points", 1) == 2  # player 1's else body ran
