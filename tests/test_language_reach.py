"""Constructs that name and order what players say, on the small real rules
file tests/flow/parley.rules, driven through the decision API, the bots, the
agent adapters and the command line: a `may` whose other branch has its own
label, ranges of numbers, lines told to the table, phases in orders of
their own, and the message for a procedure named by a word of
the language."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter.agents import AGENTS, make_agents
from interpreter.loader import load_game
from interpreter.play import play_game

from .conftest import ROOT, labels, play

PARLEY = ROOT / "tests" / "flow" / "parley.rules"


@pytest.fixture(scope="module")
def parley():
    return load_game(PARLEY)


def test_the_rules_pass_check_strict():
    result = CliRunner().invoke(cli, ["check", "--strict", str(PARLEY)])
    assert result.exit_code == 0 and result.output.strip().endswith(": ok"), result.output


@pytest.mark.parametrize("bot", sorted(AGENTS))
def test_every_bot_plays_to_the_end(parley, bot):
    spec = f"{bot}:30" if bot == "mcts" else bot
    challenge = load_game(ROOT / "tests" / "flow" / "challenge.rules")
    for game in (parley, challenge):
        for players in (2, 3):
            assert play_game(game, players, 3, make_agents(spec, players, 3)).is_terminal()


def test_pettingzoo_plays_to_the_end_with_the_labels_of_the_rules():
    from interpreter.adapters.pettingzoo_env import env as rules_env, render_text

    environment = rules_env(str(PARLEY), players=3)
    environment.reset(seed=1)
    rendered = set()
    for step in range(200):
        if environment.game_state.is_terminal():
            break
        agent = environment.agent_selection
        viewer = environment.game_state.current_player()
        rendered.update(render_text(environment.game_state, viewer).splitlines())
        mask = environment.observe(agent)["action_mask"]
        environment.step(int(mask.nonzero()[0][step % len(mask.nonzero()[0])]))
    assert environment.game_state.is_terminal()
    assert "  [no] rest and take 1 gold" in rendered


def test_openspiel_plays_to_the_end():
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg

    game = osg.load(PARLEY, players=3)
    state = game.new_initial_state()
    ids = set()
    for step in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        legal = state.legal_actions()
        ids.update(state.action_to_string(state.current_player(), a) for a in legal)
        state.apply_action(legal[step % len(legal)])
    assert state.is_terminal() and pyspiel is not None
    assert {"yes", "no", "pass", "1", "2"} <= ids


# ---------------------------------------------------------------- may ... else "label"
def test_the_other_branch_of_a_may_has_its_own_label(parley):
    st = parley.new_initial_state(2, seed=1)
    assert labels(st) == {"yes": "work for 2 gold", "no": "rest and take 1 gold"}
    play(st, "no")
    assert st.counter("gold", 0) == 2
    play(st, "yes")
    assert st.counter("gold", 1) == 3


def test_the_terminal_shows_the_label_of_the_other_branch():
    outputs = []
    for seed in range(1, 6):
        result = CliRunner().invoke(cli, ["run", str(PARLEY), "--players", "2", "--seed", str(seed), "--bots", "random"])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert any(re.search(r"turn +\d+  player \d: rest and take 1 gold\n", output) for output in outputs)


def test_passing_a_may_choose_has_its_own_label_and_runs_its_block(parley):
    st = parley.new_initial_state(2, seed=1, listen=True)
    play(st, "no", "no")  # both rest: 2 gold each
    assert labels(st)["pass"] == "keep your 2 gold"
    st.events = []
    play(st, "pass")
    assert told_lines(st, 1) == ["player 1 keeps its gold"]


def test_passing_a_simultaneous_choice_reads_its_label_as_each_player():
    share = ('    simultaneously may choose b in [1] as "share {b}":\n        gain b gold\n'
             '    else "share nothing, holding {gold}":\n        gain 0 gold\n')
    text = PARLEY.read_text().replace('    may "work for 2 gold":\n', share + '    may "work for 2 gold":\n')
    st = load_game(PARLEY, text=text).new_initial_state(2, seed=1)
    assert labels(st) == {"1": "share 1", "pass": "share nothing, holding 1"}


# ---------------------------------------------------------------- a name that is a word of the language
def test_a_procedure_named_by_a_word_is_reported_at_its_declaration(tmp_path):
    head = 'phase work "Work":\n'
    rules = PARLEY.read_text().replace(head, "procedure reveal:\n    gain 1 gold\n" + head + "    reveal\n", 1)
    (tmp_path / "cards.yaml").write_text((PARLEY.parent / "cards.yaml").read_text())
    (tmp_path / "game.rules").write_text(rules)
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "game.rules")])
    assert result.exit_code == 1
    line = rules.splitlines().index("procedure reveal:") + 1
    assert f"game.rules:{line}:11: error: 'reveal' is a word of the language and cannot name a procedure; rename it" \
        in result.output
    assert "Traceback" not in result.output


def test_a_syntax_error_near_a_word_that_names_nothing_keeps_the_grammars_message(tmp_path):
    """A file with an effect named `gain` (its name in the card data) keeps
    the grammar's message for an error in a `gain` statement."""
    rules = PARLEY.read_text().replace("setup:\n", "effect gain: gain 1 gold\nsetup:\n", 1)
    rules = rules.replace("gain 2 gold\n", "gain 2 gold +\n", 1)
    (tmp_path / "cards.yaml").write_text((PARLEY.parent / "cards.yaml").read_text())
    (tmp_path / "game.rules").write_text(rules)
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "game.rules")])
    assert result.exit_code == 1 and "word of the language" not in result.output and "unexpected" in result.output


# ---------------------------------------------------------------- ranges of numbers
def test_a_bid_goes_through_a_range_of_numbers(parley):
    st = parley.new_initial_state(2, seed=1)
    play(st, "yes", "yes")  # gold 1 -> 3 for both, then the bids
    assert labels(st) == {"1": "bid 1 gold", "2": "bid 2 gold", "3": "bid 3 gold", "pass": "keep your 3 gold"}
    play(st, "2")
    assert (st.counter("gold", 0), st.counter("bids", 0)) == (1, 2)


def test_every_number_of_a_range_of_parameters_is_in_the_agents_vocabulary(parley):
    from interpreter.adapters.encoding import action_vocabulary

    ids = action_vocabulary(parley)
    assert {"1", "2", "3"} <= set(ids) and "4" not in ids


def range_game(body: str, params: str = ""):
    text = PARLEY.read_text().replace("param rounds = 2\n", "param rounds = 2\n" + params)
    head = 'phase work "Work":\n'
    text = text.replace(head, head + "".join(f"    {line}\n" for line in body.splitlines()), 1)
    return load_game(PARLEY, text=text)


@pytest.mark.parametrize("expr, value", [
    ("sum k for k in 1..4", 10),
    ("count k in 3..1", 0),  # an empty range
    ("size(0..-5)", 0),
    ("(if 2 in 1..3 then 1 else 0) + (if 4 in 1..3 then 10 else 0)", 1),
    ("size([k * 2 for k in 1..highest_bid])", 3),
    ("size((1..2) + (5..6))", 4),
    ("size(1..2 + 1)", 3),  # `+` binds first: 1..(2 + 1)
    ("sum k for k in first..first + 2", 6),
    ("if 1..3 == [1, 2, 3] and 2..1 == [] then 1 else 0", 1),
])
def test_a_range_is_a_list_of_numbers_everywhere_a_list_is(expr, value):
    game = range_game(f"set gold to {expr}", "param first = 1\n")
    st = game.new_initial_state(2, seed=1)
    assert st.counter("gold", 0) == value


def test_a_range_in_a_parameter_is_a_list():
    game = range_game("set gold to size(ladder) + ladder[0]", "param ladder = 2..5\n")
    assert game.new_initial_state(2, seed=1).counter("gold", 0) == 6


def test_a_range_past_the_items_budget_stops_the_rule_before_it_is_made():
    from interpreter.errors import RulesError

    game = range_game("set gold to size(1..gold * 1000000000)")
    with pytest.raises(RulesError, match="a list grew past"):
        game.new_initial_state(2, seed=1)


# ---------------------------------------------------------------- tell
def told_lines(st, viewer) -> list:
    from interpreter.events import tell_all

    return [text for event, text in tell_all(st, st.events, viewer) if event[0] == "tell"]


def held(st) -> str:
    """The name of the card player 1 holds."""
    return st.program.card_names[st.card_index(st.zone("hand", 0)[0])]


def rest_and_listen(game, seed):
    """Player 1 rests (told with the card it holds); the state, listening."""
    st = game.new_initial_state(2, seed=seed, listen=True)
    st.events = []
    play(st, "no")
    return st


def test_a_told_line_is_worded_for_each_viewer(parley):
    from interpreter.visibility import EVERYTHING, PUBLIC

    st = rest_and_listen(parley, 1)
    name = held(st)
    assert told_lines(st, 0) == [f"player 1 rests, holding {name}"]
    assert told_lines(st, EVERYTHING) == [f"player 1 rests, holding {name}"]
    assert told_lines(st, 1) == told_lines(st, PUBLIC) == ["player 1 rests, holding a card"]


def test_twin_deals_differing_in_a_hidden_hand_are_told_alike_to_the_others(parley):
    """Two deals where player 1 holds different cards: player 2 is told the
    very same line (the part read from the hidden card is withheld)."""
    worlds = {}
    for seed in range(12):
        st = rest_and_listen(parley, seed)
        worlds.setdefault(held(st), told_lines(st, 1))
    assert len(worlds) >= 2
    assert len({tuple(lines) for lines in worlds.values()}) == 1


def test_a_told_part_read_from_the_acting_players_own_secret_counter_is_withheld_from_the_others(parley):
    from interpreter.visibility import EVERYTHING, PUBLIC

    text = PARLEY.read_text().replace("counter bids: per player, min 0\n",
                                      "counter bids: per player, min 0\ncounter purse: per player, owner only\n")
    text = text.replace('        tell "{me} rests, holding {hand[0].name}"\n',
                        '        gain 5 purse\n        tell "{me} rests, {purse} in its purse"\n')
    st = rest_and_listen(load_game(PARLEY, text=text), 1)
    assert told_lines(st, 0) == told_lines(st, EVERYTHING) == ["player 1 rests, 5 in its purse"]
    assert told_lines(st, 1) == told_lines(st, PUBLIC) == ["player 1 rests, something in its purse"]


def test_check_warns_where_a_tell_reads_a_counter_it_cannot_withhold(tmp_path):
    text = PARLEY.read_text().replace("counter bids: per player, min 0\n",
                                      "counter bids: per player, min 0\ncounter vault: shared, hidden\n")
    text = text.replace('        tell "{me} keeps its gold"\n', '        tell "{me} keeps its gold; the vault has {vault}"\n')
    (tmp_path / "cards.yaml").write_text((PARLEY.parent / "cards.yaml").read_text())
    (tmp_path / "game.rules").write_text(text)
    result = CliRunner().invoke(cli, ["check", str(tmp_path / "game.rules")])
    assert "warning: the text of this `tell` reads counter 'vault', which not every player sees: every player is told it" \
        in result.output


def test_a_told_line_is_a_line_of_the_story_at_the_terminal_and_in_the_log(tmp_path):
    import json

    log = tmp_path / "game.jsonl"
    result = CliRunner().invoke(cli, ["run", str(PARLEY), "--players", "2", "--seed", "1", "--bots", "random",
                                      "--log", str(log)])
    assert result.exit_code == 0, result.output
    told = re.findall(r"\n    (player \d bids \d gold, \d+ in all)\n", result.output)
    assert told
    events = [line for entry in map(json.loads, log.read_text().splitlines()[1:-1]) for line in entry["events"]]
    assert [line for line in events if re.fullmatch(r"player \d bids \d gold, \d+ in all", line)] == told


def test_a_told_line_is_in_each_seats_story_in_the_browser(tmp_path):
    from .serving import drawn, new_hub

    hub, table = new_hub(tmp_path, rules=PARLEY, players=2, humans=(0, 1), seed=1)
    table.act(0, "no")
    name = held(table.state)
    stories = {seat: [line for line in drawn(table, seat)["history"] if line["kind"] == "tell"] for seat in (0, 1)}
    assert [line["text"] for line in stories[0]] == [f"player 1 rests, holding {name}"]
    assert [line["text"] for line in stories[1]] == ["player 1 rests, holding a card"]


# ---------------------------------------------------------------- a phase's own order
def deciders(st, actions) -> list:
    """The player asked before each action, as the actions are taken (the
    windows after a bid answered "no" on the way)."""
    seen = []
    for action in actions:
        seen.append(st.current_player())
        play(st, action)
        while not st.is_terminal() and st.decision().prompt == "react to bid made":
            play(st, "no")
    return seen


def test_a_phase_ordered_by_a_key_plays_the_lowest_first_then_the_round_order_comes_back(parley):
    st = parley.new_initial_state(3, seed=1)
    assert deciders(st, ["yes"] * 3) == [0, 1, 2]  # Work: the round's order
    assert deciders(st, ["3", "1", "pass"]) == [0, 1, 2]  # Bid: no bids yet, ties keep the round's order
    assert [st.counter("bids", p) for p in range(3)] == [3, 1, 0]
    assert deciders(st, ["yes"] * 3) == [0, 1, 2]  # round 2's Work: the round's order again
    assert deciders(st, ["pass"] * 3) == [2, 1, 0]  # Bid: the fewest bids first


def ordered_parley(order: str):
    return load_game(PARLEY, text=PARLEY.read_text().replace("order by bids", order))


@pytest.mark.parametrize("order, expected", [
    ("order reversed", [2, 1, 0]),
    ("order from 1", [1, 2, 0]),
    ("order from next_player(next_player(first_player))", [2, 0, 1]),
    ("order by -position(me)", [2, 1, 0]),
])
def test_a_phase_plays_in_the_order_it_declares(order, expected):
    st = ordered_parley(order).new_initial_state(3, seed=1)
    play(st, "yes", "yes", "yes")
    assert deciders(st, ["pass"] * 3) == expected
    assert deciders(st, ["yes"] * 3) == [0, 1, 2]


def test_a_save_in_a_phase_with_its_own_order_resumes_it(parley):
    st = parley.new_initial_state(3, seed=1)
    deciders(st, ["yes", "yes", "yes", "3", "1", "pass", "yes", "yes", "yes", "pass"])
    resumed = parley.state_from_json(st.to_json())
    assert resumed.to_json() == st.to_json()
    assert deciders(resumed, ["pass", "pass"]) == deciders(st, ["pass", "pass"]) == [1, 0]
    assert resumed.to_json() == st.to_json()


def test_a_phase_order_from_a_seat_that_is_not_a_player_stops_the_game_with_a_located_error():
    from interpreter.errors import RulesError

    st = ordered_parley("order from 7").new_initial_state(3, seed=1)
    with pytest.raises(RulesError, match="starts from 7, which is not a player's seat"):
        play(st, "yes", "yes", "yes")


# ---------------------------------------------------------------- first to speak
def at_the_window(game, seed, players=3):
    """Everyone works, then player 1 bids 3 gold: the window where the
    first to speak may match the bid or scoff at it; the state, listening
    from the bid on."""
    st = game.new_initial_state(players, seed=seed, listen=True)
    play(st, *["yes"] * players)
    st.events = []
    play(st, "3")
    return st


def test_everyone_else_is_asked_in_secret_and_only_the_first_to_speak_is_told(parley):
    from interpreter.events import tell_all
    from interpreter.visibility import EVERYTHING, PUBLIC

    st = at_the_window(parley, 1)
    assert (st.current_player(), st.decision().prompt) == (1, "react to bid made")
    assert set(labels(st)) >= {"scoff", "no"} and labels(st)["scoff"] == "scoff at player 1's bid"
    play(st, "scoff")
    assert st.current_player() == 2  # asked all the same: player 2 cannot tell what player 2 answered
    play(st, "scoff")  # player 3 would have scoffed too, but player 2 spoke first
    assert (st.counter("gold", 0), st.counter("gold", 1), st.counter("gold", 2)) == (1, 2, 3)
    told = {viewer: [text for _, text in tell_all(st, st.events, viewer)] for viewer in (0, 1, 2, PUBLIC, EVERYTHING)}
    assert "player 2 speaks first: scoff at player 1's bid" in told[0]
    assert "player 3: scoff at player 1's bid" in told[2]  # its own answer, to itself
    for viewer in (0, 1, PUBLIC):
        assert "player 3 has answered (only who speaks first is told)" in told[viewer]
        assert not any("player 3: scoff" in line for line in told[viewer])


def test_the_first_in_order_from_the_next_player_who_answers_takes_the_offer(parley):
    st = at_the_window(parley, 1)
    play(st, "no", "scoff")
    assert (st.counter("gold", 1), st.counter("gold", 2), st.counter("gold", 0)) == (3, 2, 1)
    st = at_the_window(parley, 1)
    play(st, "no", "no")
    assert [st.counter("gold", p) for p in range(3)] == [0, 3, 3]


def matching_twins(game):
    """Two deals alike for players 1 and 3, where player 2 holds the Vase
    (cost 3: it can match a bid of 3) in one and not in the other."""
    found = {}
    for seed in range(60):
        st = game.new_initial_state(3, seed=seed)
        hands = tuple(st.zone("hand", p)[0] for p in range(3))
        can = st.program.card_names[st.card_index(hands[1])] == "Vase"
        found.setdefault((hands[0], hands[2]), {}).setdefault(can, seed)
    return next(list(pair.values()) for pair in found.values() if len(pair) == 2)


def test_who_may_match_a_bid_depends_on_a_hidden_hand_and_leaks_nothing(parley):
    """Player 2 may match only in one of two twin deals; in both it is asked
    (only "no" or "scoff" in the other), and players 1 and 3 are told the
    same, see the same, and are asked the same."""
    from interpreter.events import tell_all

    seeds = matching_twins(parley)
    options, seen = [], []
    for seed in seeds:
        st = at_the_window(parley, seed)
        options.append(set(labels(st)))
        play(st, "no")
        seen.append((st.current_player(), labels(st), st.observation(2), st.observation(0),
                     [text for _, text in tell_all(st, st.events, 2)], [text for _, text in tell_all(st, st.events, 0)]))
    assert sorted(map(sorted, options)) == [["match", "no", "scoff"], ["no", "scoff"]]
    assert seen[0] == seen[1]


def test_pettingzoo_asks_each_other_agent_and_hides_the_earlier_answers():
    """Through PettingZoo: the agents asked in the window are the others in
    order from the next seat, and player 3's observation when it is asked is
    the same whether player 2 scoffed or declined."""
    from interpreter.adapters.pettingzoo_env import env as rules_env

    observed = []
    for answer in ("scoff", "no"):
        environment = rules_env(str(PARLEY), players=3)
        environment.reset(seed=1)
        for action in ["yes"] * 3 + ["3"]:
            environment.step(environment.action_index(action))
        assert environment.agent_selection == "player_1"
        environment.step(environment.action_index(answer))
        assert environment.agent_selection == "player_2"
        observation = environment.observe("player_2")
        observed.append((observation["observation"].tolist(), observation["action_mask"].tolist()))
    assert observed[0] == observed[1]


def test_openspiel_information_states_hide_the_earlier_answers():
    pytest.importorskip("pyspiel")
    from interpreter.adapters import openspiel_game as osg

    game = osg.load(PARLEY, players=3)
    states = []
    for answer in ("scoff", "no"):
        state = game.new_initial_state()
        state.apply_action(1)
        for action in ["yes"] * 3 + ["3", answer]:
            state.apply_action(game.ctx.encoding.index_of(action))
        assert state.current_player() == 2
        states.append(state)
    assert states[0].information_state_string(2) == states[1].information_state_string(2)
    assert states[0].observation_tensor(2) == states[1].observation_tensor(2)
    assert states[0].information_state_string(1) != states[1].information_state_string(1)


CHALLENGE = ROOT / "tests" / "flow" / "challenge.rules"


def test_a_player_who_cannot_challenge_is_asked_all_the_same_with_no_alone():
    """In the reference's example, only a player holding a card of cost 2 or
    more may challenge; one who holds none is asked with "no" alone, so the
    claimant cannot tell who could have challenged."""
    game = load_game(CHALLENGE)
    alone = set()
    for seed in range(10):
        st = game.new_initial_state(3, seed=seed)
        play(st, "yes")
        asked_here = []
        while not st.is_terminal() and st.decision().prompt == "react to claim":
            asked_here.append(st.current_player())
            alone.add(tuple(sorted(labels(st))))
            play(st, "no")
        assert asked_here == [1, 2]
    assert alone == {("no",), ("no", "yes")}


@pytest.mark.parametrize("rules", [PARLEY, CHALLENGE], ids=["parley", "challenge"])
def test_the_leak_detector_finds_nothing_a_player_learns_from_a_window(rules):
    result = CliRunner().invoke(cli, ["check", "--leaks", "-n", "10", "-p", "3", str(rules)])
    assert result.exit_code == 0 and "no leak found" in result.output, result.output


def test_a_person_at_the_terminal_answers_a_window_and_learns_only_who_spoke_first():
    """Player 2 plays at the terminal: it is asked "you may" with the
    reactions it may take, and told of the others only that they answered
    and who spoke first (the deal of seed 1: player 3 matches player 2's bid)."""
    result = CliRunner().invoke(cli, ["run", str(PARLEY), "--players", "3", "--seed", "1", "--human", "2",
                                      "--bots", "random"], input="1\n" * 12)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "player 2, you may:\n   1. scoff at player 1's bid\n   2. pass\n" in out
    assert "player 3 has answered (only who speaks first is told)" in out
    assert "player 3 speaks first: match player 2's bid of 1 gold" in out
    assert "player 3 matches the bid of player 2 with a card in hand" in out
    assert not re.search(r"player [13]: (pass|scoff|match)", out)
