"""`catalyst check --leaks`: rules that tell a player about cards it can
neither see nor know are reported, with the channel and the rules line.

Each leaking fixture (tests/fixtures/leaks/) leaks through its own rules, not
through the engine, so these tests hold while the engine is mended."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from interpreter import leaks, visibility
from interpreter.engine import invariants
from interpreter.loader import load_game

from .conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "leaks"
GAMES = 6  # games at 2 players: enough for every fixture's leak to be met with seed 0

# fixture -> the (channel, line) pairs it must be reported with
LEAKING = {
    "counter": {("story", 9), ("observation", 9)},  # gain c.cost points, c drawn into a hidden hand
    "when": {("options", 5)},  # an action's `when` reads the next player's hidden hand
    "shown": {("observation", 6)},  # show hand_total per player, visible
    "window": {("decider", 10)},  # a reaction's `when` reads the hidden hand of the one asked
    "label": {("options", 10)},  # an action's label prints a hidden counter filled from a hidden hand
}


def found(name: str, players=(2,), games: int = GAMES) -> leaks.Report:
    return leaks.find_leaks(load_game(str(FIXTURES / f"{name}.rules")), list(players), games, seed=0)


def lines(report: leaks.Report) -> set:
    return {(leak.channel, leak.span.line) for leak in report.leaks.values()}


@pytest.mark.parametrize("name", sorted(LEAKING))
def test_a_leak_of_the_rules_is_reported_with_its_channel_and_line(name):
    report = found(name)
    assert LEAKING[name] <= lines(report)
    for leak in report.leaks.values():
        assert leak.span.filename.endswith(f"{name}.rules") or leak.span.filename.endswith("clean.rules")


@pytest.mark.parametrize("name", sorted(LEAKING))
def test_with_the_comparison_switched_off_nothing_is_reported(name, monkeypatch):
    """The reports above come from comparing the twins, nothing else."""
    monkeypatch.setattr(leaks, "compare", lambda *args, **kwargs: [])
    report = found(name)
    assert report.checks > 0 and report.leaks == {}


def test_a_clean_game_reports_no_leak_at_every_player_count():
    report = found("clean", players=(2, 3))
    assert report.checks > 20 and report.leaks == {}


def test_a_counter_leak_names_the_cards_swapped_and_the_values_seen():
    leak = next(leak for leak in found("counter").leaks.values() if leak.channel == "observation")
    assert leak.span.source.line(leak.span.line).strip() == "gain c.cost points"
    assert leak.rule == "action draw"
    assert leak.first.startswith("counters.points[") and leak.first != leak.second
    assert len(leak.swapped) == 2


# -- twins

def _position(name="clean", players=2, seed=0, decisions=3):
    game = load_game(str(FIXTURES / f"{name}.rules"))
    st = game.new_initial_state(players, seed)
    for _ in range(decisions):
        st.apply_action(st.option_ids[0])
    return st


def test_twins_exchange_two_unseen_cards_and_keep_what_lies_on_their_places():
    st = _position()
    _, (a, b) = leaks.pick_pair(st, 0, 1)
    for card in (a, b):
        assert not visibility.card_visible(st, card, 0) and not visibility.knows(st, card, 0)
    st.known[a] = 2  # seat 1 knows the card at a's place
    first, second = leaks.twins(st, a, b)
    assert invariants.violations(second) == []
    assert (second.loc[a], second.loc[b]) == (st.loc[b], st.loc[a])
    assert (second.known[a], second.known[b]) == (st.known[b], 2)
    assert first.z == st.z and st.loc == first.loc  # the true position is left as it was
    assert first.observation(0) == second.observation(0)


def test_cards_held_by_a_running_rule_are_not_swapped():
    st = _position()
    cards = leaks.swappable(st, 0)
    st.frames[-1][2].append((cards[0], [cards[1]]))
    left = leaks.swappable(st, 0)
    assert cards[0] not in left and cards[1] not in left


def test_same_back_reads_the_kind_of_card():
    st = _position()
    assert leaks.same_back(st.program, 0, 1)


# -- through the command line

def test_check_leaks_exits_1_and_shows_the_rules_line():
    result = CliRunner().invoke(cli, ["check", "--leaks", str(FIXTURES / "shown.rules"), "-p", "2", "-n", "2"])
    assert result.exit_code == 1, result.output
    out = result.output.splitlines()
    assert out[0].startswith(f"{FIXTURES / 'shown.rules'}:6:1: warning: `show hand_total per player` tells every")
    assert out[4] == f"{FIXTURES / 'shown.rules'}: ok (1 warning)"  # check's static warning, then the games
    out = out[4:]
    assert out[1] == (f"{FIXTURES / 'shown.rules'}:6:1: leak: observation: the observation of player 1 changes with "
                      "cards player 1 can neither see nor know (in show hand_total)")
    assert out[2] == "    show hand_total per player, visible"
    assert out[4].startswith("    game seed 0, 2 players, decision ")
    assert "values.hand_total[1]: " in out[4]
    assert out[-1].startswith(f"{FIXTURES / 'shown.rules'}: 1 leak found (")


def test_check_leaks_of_clean_rules_exits_0():
    result = CliRunner().invoke(cli, ["check", "--leaks", str(FIXTURES / "clean.rules"), "-n", "2", "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith(f"{FIXTURES / 'clean.rules'}: no leak found (")


def test_check_leaks_as_json():
    result = CliRunner().invoke(cli, ["check", "--leaks", "--json", str(FIXTURES / "when.rules"),
                                      str(FIXTURES / "clean.rules"), "-p", "2", "-n", str(GAMES)])
    assert result.exit_code == 1, result.output
    reports = json.loads(result.output)
    assert [r["rules"].rsplit("/", 1)[-1] for r in reports] == ["when.rules", "clean.rules"]
    leak = reports[0]["leaks"][0]
    assert (leak["channel"], leak["line"], leak["seat"], leak["players"]) == ("options", 5, leak["seat"], 2)
    assert leak["source"].startswith('action steal "steal from the next player" when')
    assert reports[1]["leaks"] == [] and reports[1]["checks"] > 0


def test_check_leaks_at_a_player_count_the_rules_do_not_allow():
    result = CliRunner().invoke(cli, ["check", "--leaks", str(FIXTURES / "clean.rules"), "-p", "7"])
    assert result.exit_code == 1
    assert "error: Clean is played by 2 to 3 players, not 7" in result.output
    assert "Traceback" not in result.output


def test_a_swapped_card_chosen_by_a_player_who_sees_it_is_the_other_card_in_the_twin():
    """The twins are played on place for place: a player who sees a swapped
    card and chooses it chooses, in the twin, the card lying there."""
    program = _position().program
    ids = program.card_ids
    assert leaks._same_answer(program, ids[3], (3, 7)) == ids[7]
    assert leaks._same_answer(program, ids[7], (3, 7)) == ids[3]
    assert leaks._same_answer(program, "draw", (3, 7)) == "draw"


def test_a_bot_choosing_differently_in_the_twins_is_reported_at_the_decision(monkeypatch):
    """The bots' channel: a bot asked for the seat in each twin (here one
    that reads which twin it is given) must choose the same."""
    monkeypatch.setattr(leaks, "_bot_choice", lambda st, seat, spec, seed: f"{spec} in {id(st)}")
    report = found("clean", games=1)
    bots = [leak for leak in report.leaks.values() if leak.channel == "bot"]
    assert {leak.span.line for leak in bots} == {19, 25}  # choose action, choose c in hand (clean.rules)
    assert bots[0].first.startswith("random: random in ")


def test_another_players_decision_shown_differently_in_the_twins_is_reported(monkeypatch):
    """The watched channel: another player's pending decision, as the seat
    is shown it (`decision(viewer=seat)`), must read the same in both twins;
    only the labels of options both twins offer are compared."""
    real = leaks._watched

    def shown(st, seat, pair):
        prompt, labels = real(st, seat, pair)
        return prompt, {**labels, "extra": "only here"} if pair is None else {**labels, "draw": f"seen {id(st)}"}
    monkeypatch.setattr(leaks, "_watched", shown)
    report = found("clean", games=1)
    watched = [leak for leak in report.leaks.values() if leak.channel == "watched"]
    assert {leak.span.line for leak in watched} == {19}  # choose action: its `draw` option, labelled apart
    assert watched[0].first == "draw: draw a card" and watched[0].second.startswith("draw: seen ")


def test_the_twin_is_answered_with_the_card_at_the_same_place():
    """A player choosing a swapped card it sees (here from its own hand)
    chooses, in the twin, the card lying at that place."""
    st = _position()  # player 2 chooses between `draw` and `play`
    hand = st.program.zones["hand"].base + st.decider
    a, b = st.z[hand][0], st.z[st.program.zones["deck"].base][0]
    first, second = leaks.twins(st, a, b)
    for twin in (first, second):
        twin.apply_action("play")
    assert first.decider == st.decider and a in first.option_values
    i = first.option_values.index(a)
    assert leaks._answer_in_twin(first, second, i, (a, b)) == st.program.card_ids[b]


def test_a_window_that_does_not_say_publicly_tells_no_one_who_could_answer(tmp_path):
    """The window fixture without `, publicly`: every player is asked, one
    who cannot answer may only decline, and the detector finds nothing."""
    text = (FIXTURES / "window.rules").read_text().replace(", publicly:", ":")
    (tmp_path / "clean.rules").write_text((FIXTURES / "clean.rules").read_text())
    (tmp_path / "cards.yaml").write_text((FIXTURES / "cards.yaml").read_text())
    (tmp_path / "window.rules").write_text(text)
    result = CliRunner().invoke(cli, ["check", "--leaks", str(tmp_path / "window.rules"), "-n", "4"])
    assert result.exit_code == 0, result.output
    assert "no leak found" in result.output
