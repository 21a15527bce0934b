"""Bots that play any rules file sensibly: the evaluation credits a card held
only as often as such cards are played, its weights are measured per rules
file and stored, and `catalyst bots` says how strong each bot is."""
from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.agents.evaluate import Evaluator
from interpreter.loader import load_game

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROLE_DRAFT = FIXTURES / "role_draft" / "role_draft.rules"
DECK_BUILDER = FIXTURES / "deck_builder" / "deck_builder.rules"


@pytest.fixture(scope="module")
def role_draft():
    return load_game(ROLE_DRAFT)


@pytest.mark.parametrize("rules", [ROLE_DRAFT, DECK_BUILDER], ids=["role-draft", "deck-builder"])
def test_the_fixture_games_pass_strict_checks_and_bots_play_them_through(rules):
    from click.testing import CliRunner

    from cli.main import cli
    from interpreter.agents import make_agents
    from interpreter.play import play_game

    checked = CliRunner().invoke(cli, ["check", "--strict", str(rules)])
    assert checked.exit_code == 0 and checked.output == f"{rules}: ok\n", checked.output
    game = load_game(rules)
    game.set_limits(check_invariants=True)
    for players, spec in ((2, "random,greedy"), (3, "mcts:4,greedy,random")):
        st = play_game(game, players, 5, make_agents(spec, players, 5))
        assert st.is_terminal() and max(st.scores()) > 0


def test_a_card_held_is_credited_as_often_as_such_cards_are_played(role_draft):
    """In the role draft, districts in hand cost gold to build and most are
    never built: a hand is worth each district's points times the share of
    districts held in hand that the sample games saw built, not the points
    of every district as if all would be built."""
    program = role_draft.program
    ev = Evaluator(program, discount=1.0)
    hand, city = program.zones["hand"], program.zones["city"]
    rate = ev.play_rate("district", hand.index, city.index)
    assert 0.1 < rate < 0.9
    st = role_draft.new_initial_state(2, 1)
    cards = [c for c in st.z[hand.base + 0] if c is not None]
    costs = sum(program.fields["cost"][c] for c in cards)
    assert len(cards) == 2 and costs > 0
    assert ev.potential(st, 0) == pytest.approx(rate * costs)
    # a move no sample game made is not credited: a role is never built
    assert ev.play_rate("role", program.zones["offer"].index, city.index) == 0.0


# ------------------------------------------------------------------ weights stored per rules file
def test_bots_use_the_weights_stored_for_the_rules_file(role_draft):
    """With no entry, the defaults; once stored, greedy and mcts both read
    the stored weights; a bot's own option still wins."""
    from interpreter.agents import make_agent
    from interpreter.agents import weights

    program = role_draft.program
    greedy, mcts = make_agent("greedy", 0, 0), make_agent("mcts:10", 0, 0)
    assert greedy.weights(program) == mcts.weights(program) == {"discount": weights.DEFAULTS["discount"]}
    assert greedy.lookahead(program) == weights.DEFAULTS["turns"] == 1
    assert mcts.rollout_turns(program) == weights.DEFAULTS["horizon"] == 1
    weights.store(program.fingerprint, {"discount": 0.25, "turns": 2, "horizon": 3}, {"why": "a test"})
    try:
        assert greedy.weights(program) == mcts.weights(program) == {"discount": 0.25}
        assert greedy.lookahead(program) == 2 and mcts.rollout_turns(program) == 3
        assert list(weights.weights_for(program)) == list(weights.DEFAULTS)  # printed in that order
        assert make_agent("greedy:discount=0.75", 0, 0).weights(program) == {"discount": 0.75}
        assert make_agent("mcts:10:horizon=0", 0, 0).rollout_turns(program) == 0
        assert weights.stored(program)["evidence"] == {"why": "a test"}
    finally:
        _forget(program)


def test_mcts_plays_out_as_far_as_the_stored_horizon(role_draft):
    """With a stored horizon, `mcts` plays the games `mcts:...:horizon=N`
    plays (and other games than with the default horizon)."""
    from interpreter.agents import make_agents
    from interpreter.agents import weights
    from interpreter.play import play_game

    program = role_draft.program

    def game(spec):
        moves = []
        play_game(role_draft, 2, 3, make_agents(spec, 2, 3), on_decision=lambda st, d, c: moves.append(c))
        return moves

    weights.store(program.fingerprint, {**weights.DEFAULTS, "horizon": 2}, {})
    try:
        stored = game("mcts:6,random")
        assert stored == game("mcts:6:horizon=2,random") != game("mcts:6:horizon=1,random")
    finally:
        _forget(program)


def _forget(program):
    from interpreter.agents import weights
    from interpreter.language import cache

    (cache.folder(weights.FOLDER) / f"{program.fingerprint}.json").unlink(missing_ok=True)
    weights._stored.cache_clear()


def test_the_weights_are_listed_once():
    """Every weight has its candidates, its limits, the bot that measures
    it and an option of that bot; the JSON schema of `catalyst bots` lists
    the same weights with the same least values."""
    import json

    from interpreter.agents import AGENTS
    from interpreter.agents import weights

    assert list(weights.CANDIDATES) == list(weights.LIMITS) == list(weights.TUNED_WITH) == list(weights.DEFAULTS)
    for key, bot in weights.TUNED_WITH.items():
        assert key in AGENTS[bot].settings
        kind, least, most = weights.LIMITS[key]
        assert all(least <= kind(v) <= most for v in (*weights.CANDIDATES[key], weights.DEFAULTS[key]))
    schema = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "bot-strength.schema.json").read_text())
    listed = schema["$defs"]["weights"]
    assert listed["required"] == list(weights.DEFAULTS) == list(listed["properties"])
    assert {k: p["minimum"] for k, p in listed["properties"].items()} == {k: weights.LIMITS[k][1] for k in weights.DEFAULTS}


def test_an_entry_is_for_these_rules_and_this_evaluation_only(role_draft, monkeypatch):
    """Other rules text (a changed parameter), or another version of the
    evaluation, finds no entry: the defaults are used again."""
    from interpreter.agents import weights

    program = role_draft.program
    weights.store(program.fingerprint, {"discount": 0.0, "turns": 1, "horizon": 1}, {})
    try:
        assert weights.weights_for(program) == {"discount": 0.0, "turns": 1, "horizon": 1}
        other = load_game(ROLE_DRAFT, {"city_size": "5"}).program
        assert other.fingerprint != program.fingerprint and weights.stored(other) is None
        monkeypatch.setattr(weights, "evaluation_version", lambda: "another evaluation")
        weights._stored.cache_clear()
        assert weights.stored(program) is None and weights.weights_for(program) == weights.DEFAULTS
    finally:
        _forget(program)


@pytest.mark.parametrize("content", [b"", b"{not json", b"\xff\xfe", b'{"format": "rules-bot-weights/1"}', b"[]",
                                     b'%KEY%{"discount": -1.0, "turns": 1, "horizon": 1}',
                                     b'%KEY%{"discount": NaN, "turns": 1, "horizon": 1}',
                                     b'%KEY%{"discount": 0.5, "horizon": 1}', b'%KEY%{"discount": 0.5, "turns": 0, "horizon": 1}',
                                     b'%KEY%{"discount": 0.5, "turns": 4, "horizon": 1}',
                                     b'%KEY%{"discount": 0.5, "turns": 2.0, "horizon": 1}',
                                     b'%KEY%{"discount": 0.5, "turns": true, "horizon": 1}',
                                     b'%KEY%{"discount": 1, "turns": 2, "horizon": 1}',
                                     b'%KEY%{"discount": 0.5, "turns": 2}',
                                     b'%KEY%{"discount": 0.5, "turns": 2, "horizon": 0}',
                                     b'%KEY%{"discount": 0.5, "turns": 2, "horizon": 4}'],
                         ids=["empty", "cut", "bytes", "no-key", "list", "out-of-range", "nan", "no-turns",
                              "no-turn", "too-many-turns", "turns-not-whole", "turns-true", "discount-not-float",
                              "no-horizon", "horizon-zero", "horizon-too-far"])
def test_a_damaged_entry_is_ignored_and_rebuilt(role_draft, content):
    from interpreter.agents import weights
    from interpreter.language import cache

    program = role_draft.program
    key = weights.entry_key(program.fingerprint)
    if content.startswith(b"%KEY%"):
        content = (f'{{"format": "{weights.FORMAT}", "key": "{key}", "weights": '.encode() + content[5:]
                   + b', "evidence": {}}')
    cache.write(weights.FOLDER, f"{program.fingerprint}.json", content)
    weights._stored.cache_clear()
    try:
        assert weights.stored(program) is None and weights.weights_for(program) == weights.DEFAULTS
        weights.store(program.fingerprint, {"discount": 0.5, "turns": 2, "horizon": 2}, {})
        assert weights.weights_for(program) == {"discount": 0.5, "turns": 2, "horizon": 2}
        with pytest.raises(ValueError):
            weights.store(program.fingerprint, {"discount": 0.5, "turns": 9, "horizon": 1}, {})
    finally:
        _forget(program)


# ------------------------------------------------------------------ catalyst bots
def bots(*args):
    from click.testing import CliRunner

    from cli.main import cli

    return CliRunner().invoke(cli, ["bots", *[str(a) for a in args]])


def test_bots_prints_each_bots_strength_with_intervals():
    result = bots(DECK_BUILDER, "--games", 4, "--mcts", "mcts:3", "--jobs", 1, "--seed", 2)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Hoard: 2 players, seed 2"
    assert lines[1] == ("evaluation weights: discount 1, turns 1, horizon 1 "
                        "(the defaults: no --tune stored for these rules)")
    assert lines[3].split() == ["bot", "against", "games", "win", "share", "95%", "interval", "mean", "scores"]
    assert [line.split()[:3] for line in lines[4:]] == [["greedy", "random", "4"], ["mcts:3", "greedy", "4"]]
    again = bots(DECK_BUILDER, "--games", 4, "--mcts", "mcts:3", "--jobs", 2, "--seed", 2)
    assert again.output == result.output  # the same games whatever the number of workers


def test_a_bot_with_long_options_keeps_its_columns_apart():
    result = bots(DECK_BUILDER, "--games", 2, "--mcts", "mcts:3:tries=2:c=0.5", "--jobs", 1)
    assert result.exit_code == 0, result.output
    row = result.output.splitlines()[-1]
    assert row.split()[:3] == ["mcts:3:tries=2:c=0.5", "greedy", "2"], row


def test_bots_tune_measures_stores_and_reuses_the_weights():
    import json

    from interpreter.agents import weights

    program = load_game(ROLE_DRAFT).program
    try:
        tuned = bots(ROLE_DRAFT, "-n", 2, "--mcts", "mcts:2", "--tune-games", 3, "--jobs", 1, "--json")
        assert tuned.exit_code == 0, tuned.output
        ladder = json.loads(tuned.output)
        assert ladder["format"] == "rules-bot-strength/1" and ladder["weights_from"] == "tuned"
        tuning = ladder["tuning"]
        candidates = tuning["candidates"]
        # greedy's discount first, then a lookahead of two turns beside the best discount
        tried = [c["weights"] for c in candidates]
        assert [c["bot"] for c in candidates] == ["greedy"] * 5 + ["mcts:2"] * 3
        assert [w["discount"] for w in tried[:4]] == [1.0, 0.0, 0.25, 0.5] and tried[4]["turns"] == 2
        assert [w["turns"] for w in tried[:4]] == [1, 1, 1, 1]
        assert tried[4]["discount"] == tried[max(range(4), key=lambda i: (candidates[i]["win_share"],
                                                                       candidates[i]["mean_score"], -i))]["discount"]
        # then the mcts bot's horizon, beside greedy's best weights, against that greedy
        greedy_best = max(range(5), key=lambda i: (candidates[i]["win_share"], candidates[i]["mean_score"], -i))
        assert [w["horizon"] for w in tried[5:]] == [1, 2, 3]
        assert all({**w, "horizon": 1} == tried[greedy_best] for w in tried[5:])
        assert all(list(c["against"]) == ["greedy"] for c in candidates[5:])
        assert tuning["best"] >= 5 and ladder["weights"] == candidates[tuning["best"]]["weights"]
        text = _tuning_lines(ladder)
        assert text[0] == "tuning (greedy with each weight: mean share of the wins against random and greedy):"
        assert text[6] == "tuning (mcts:2 with each weight: mean share of the wins against greedy):"
        # each candidate by the weights its bot takes, the kept values marked in both paragraphs
        assert [line.split(",")[1].split()[0] for line in text[1:6]] == ["turns"] * 5
        assert [line.split(",")[1].split()[:2] for line in text[7:]] == [["horizon", "1"], ["horizon", "2"],
                                                                          ["horizon", "3"]]
        assert sum("<- kept" in line for line in text[1:6]) == sum("<- kept" in line for line in text[7:]) == 1
        assert [(r["bot"], r["against"], r["games"]) for r in ladder["ladder"]] == [("greedy", "random", 2),
                                                                                  ("mcts:2", "greedy", 2)]
        assert weights.stored(program)["weights"] == ladder["weights"]
        later = bots(ROLE_DRAFT, "-n", 2, "--mcts", "mcts:2", "--jobs", 1)
        assert "(measured by an earlier --tune)" in later.output.splitlines()[1]
    finally:
        _forget(program)


def _tuning_lines(ladder: dict) -> list:
    """The tuning paragraphs `catalyst bots` prints for a --json ladder."""
    from cli.bots import ladder_text
    from interpreter.simulation.strength import Ladder

    text = ladder_text(Ladder(ladder["rules"], ladder["title"], ladder["players"], ladder["seed"], ladder["weights"],
                              ladder["weights_from"], [], ladder["deciding_seats"], ladder["tuning"]))
    return text.splitlines()[2:-2]


def test_bots_alone_compares_each_bot_on_the_same_games():
    """One player against the rules (seat 2 is an automaton that makes no
    decision): each bot plays the seat on the same seeds; the ladder gives
    both win rates and the paired score difference."""
    result = bots(Path(__file__).resolve().parents[1] / "rules" / "solo.rules", "-n", 2, "--mcts", "mcts:2",
                  "--jobs", 1)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "Catalyst: solo mode: 2 players (1 deciding), seed 0"
    assert "mean scores (difference, 95% interval)" in lines[3]
    assert [line.split()[:3] for line in lines[4:]] == [["greedy", "random", "2"], ["mcts:2", "greedy", "2"]]


def test_bots_in_a_cooperative_score_game_compare_the_shared_score():
    """In a `cooperative score` game the players score together: greedy
    playing beside random says nothing, so each bot plays every seat of the
    same games and the ladder compares the shared scores."""
    result = bots(FIXTURES / "coop_points.rules", "-n", 2, "--mcts", "mcts:2", "--jobs", 1)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "mean scores (difference, 95% interval)" in lines[3]
    assert [line.split()[:3] for line in lines[4:]] == [["greedy", "random", "2"], ["mcts:2", "greedy", "2"]]


def test_bots_names_a_misspelt_or_wrong_bot_before_playing():
    result = bots(DECK_BUILDER, "--mcts", "mtcs:3")
    assert result.exit_code == 1
    assert result.output == "Error: unknown bot 'mtcs'; known bots: greedy, mcts, random (did you mean 'mcts'?)\n"
    result = bots(DECK_BUILDER, "--mcts", "greedy:4")
    assert result.exit_code == 1
    assert result.output == ("Error: --mcts names the searching bot measured against greedy (mcts:200, mcts:500ms, "
                             "mcts:100:c=0.5), not 'greedy:4'\n")
    result = bots(DECK_BUILDER, "--players", 5)
    assert result.exit_code == 1 and result.output == "Error: Hoard is played by 2 to 4 players, not 5\n"


def test_greedy_beats_random_in_the_role_draft_once_tuned():
    """The game where greedy lost 20 of 20 to random (it drew districts it
    could never pay for): after `--tune`, greedy wins at least 65% of the
    games, the whole 95% interval above one half; and `simulate` with a
    plain `greedy` plays the very same games, with the stored weights."""
    import json

    from interpreter.simulation import simulate

    program = load_game(ROLE_DRAFT).program
    try:
        result = bots(ROLE_DRAFT, "-n", 40, "--mcts", "mcts:2", "--tune-games", 10, "--jobs", 2, "--json")
        assert result.exit_code == 0, result.output
        ladder = json.loads(result.output)
        greedy = ladder["ladder"][0]
        assert (greedy["bot"], greedy["against"]) == ("greedy", "random")
        assert greedy["win_rate"]["rate"] >= 0.65 and greedy["win_rate"]["low"] > 0.5
        assert ladder["weights"]["discount"] < 1.0  # not the default: a held district is not a built one
        summary = simulate(str(ROLE_DRAFT), 40, 2, "greedy,random", jobs=1).summary
        assert summary["win_rate_by_bot"]["greedy"]["rate"] == greedy["win_rate"]["rate"]
    finally:
        _forget(program)
