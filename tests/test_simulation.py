"""`catalyst simulate`: statistics, determinism across processes and a Dask
cluster, records, coverage and card impact."""
from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from cli.simulate import simulate_command
from interpreter import rng
from interpreter.simulation import game_seed, seat_bots, simulate, summarize
from interpreter.simulation import stats
from interpreter.simulation.parallel import split

from .conftest import CATALYST, ROOT

TIMING = ("seconds", "games_per_second")


def run(args):
    result = CliRunner().invoke(simulate_command, [str(a) for a in args])
    return result


def untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING}


@pytest.fixture(scope="module")
def summary_json():
    result = run([CATALYST, "-n", 60, "--players", 3, "--bots", "random", "--seed", 11, "-j", 1, "--json", "--coverage"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# ------------------------------------------------------------------ statistics
def test_wilson_interval_known_values():
    low, high = stats.wilson(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = stats.wilson(0, 20)
    assert low == 0.0 and 0.16 < high < 0.17          # the rule of three, roughly
    low, high = stats.wilson(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84
    assert stats.wilson(2.5, 10)[0] < 0.25 < stats.wilson(2.5, 10)[1]   # fractional wins (shared)
    assert all(stats.wilson(n, n)[1] == 1.0 and stats.wilson(0, n)[0] == 0.0 for n in range(1, 300))


def test_describe_mean_sd_quantiles():
    d = stats.describe([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert d["mean"] == 5.5 and math.isclose(d["sd"], 3.0276503540974917)
    assert (d["min"], d["q25"], d["median"], d["q75"], d["max"]) == (1, 3.25, 5.5, 7.75, 10)


def test_newcombe_difference_interval():
    d, low, high = stats.newcombe(56, 70, 48, 80)      # Newcombe (1998), example (a)
    assert round(d, 4) == 0.2 and (round(low, 4), round(high, 4)) == (0.0524, 0.3339)


def test_paired_interval_is_student_t_and_holm_adjusts():
    e = stats.paired([1.0, 2.0, 3.0, 4.0])
    assert e["difference"] == 2.5
    # t(0.975, 3 df) = 3.182446305284263 (tables); the normal 1.96 would be 38% too narrow
    assert math.isclose(e["half_width"], 3.182446305284263 * 1.2909944487358056 / 2, rel_tol=1e-9)
    same = stats.paired([0.0] * 50)
    assert same["half_width"] == 0.0 and same["p"] == 1.0
    one = stats.paired([0.5])
    assert math.isnan(one["half_width"]) and math.isnan(one["p"])
    assert stats.holm([0.01, 0.04, 0.03]) == [0.03, 0.06, 0.06]
    adjusted = stats.holm([0.01, float("nan"), 0.04])
    assert adjusted[0] == 0.02 and math.isnan(adjusted[1]) and adjusted[2] == 0.04


@pytest.mark.parametrize("n", [2, 3, 5, 10, 30, 200])
def test_paired_intervals_and_p_values_match_scipy(n):
    scipy_stats = pytest.importorskip("scipy.stats")
    state = rng.seed_state(n)
    values = []
    for _ in range(n):
        state, x = rng.next_u64(state)
        values.append(round((x / 2**64 - 0.4) * 3, 3))
    e = stats.paired(values)
    reference = scipy_stats.ttest_1samp(values, 0.0)
    low, high = scipy_stats.t.interval(0.95, n - 1, loc=sum(values) / n, scale=scipy_stats.sem(values))
    assert math.isclose(e["p"], reference.pvalue, rel_tol=1e-9)
    assert math.isclose(e["low"], low, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(e["high"], high, rel_tol=1e-9, abs_tol=1e-12)


def test_student_t_matches_scipy_far_into_the_tails():
    scipy_stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 4, 9, 29, 199, 10**5):
        assert math.isclose(stats.student_quantile(0.95, df), scipy_stats.t.ppf(0.975, df), rel_tol=1e-10)
        assert math.isclose(stats.student_quantile(0.99, df), scipy_stats.t.ppf(0.995, df), rel_tol=1e-10)
        for t in (0.0, 0.3, 1.0, 2.0, 3.5, 8.0):
            assert math.isclose(stats.student_p(t, df), 2 * scipy_stats.t.sf(t, df), rel_tol=1e-9)


def test_sprt_decides_both_ways():
    state = rng.seed_state(1)

    def noise(mean, n):
        nonlocal state
        out = []
        for _ in range(n):
            state, x = rng.next_u64(state)
            out.append(mean + (x / 2**64 - 0.5) * 2)    # uniform, sd about 0.58
        return out

    changed = stats.Sprt(0.2)
    for _ in range(100):
        if changed.update(noise(0.3, 20)):
            break
    assert changed.decision == "changed"
    same = stats.Sprt(0.2)
    for _ in range(100):
        if same.update(noise(0.0, 20)):
            break
    assert same.decision == "no change"
    assert stats.Sprt(0.1).update([0.0] * 40) == "no change"    # identical games


def test_shared_wins_count_one_kth_and_losses_count_for_nobody():
    meta = {"rules": "r", "title": "t", "sets": {}, "players": 3, "bots": ["random"], "seed": 0,
            "card_ids": ["a", "b"], "card_names": ["A", "B"], "terms": ["Points"], "coverage": False}

    def record(winners, first, lost=False, cards=(("a",), (), ("b",))):
        return {"game": 0, "seed": 0, "bots": ["random"] * 3, "first_player": first, "scores": [3, 2, 1],
                "breakdown": [{"Points": 3}, {"Points": 2}, {"Points": 1}], "winners": winners, "lost": lost,
                "turns": 10, "decisions": [1, 1, 1], "cards": [list(c) for c in cards]}

    s = summarize([record([0], 0), record([0, 1], 1), record([], 2, lost=True), record([2], 2)], meta)
    assert [r["wins"] for r in s["win_rate_by_seat"]] == [1.5, 0.5, 1.0]
    # game 2: seat 1 first, so seat 0 is at position 2; game 4: seat 2 first
    assert [r["wins"] for r in s["win_rate_by_position"]] == [2.5, 0.0, 0.5]
    assert s["decisiveness"] == 0.5 and s["lost_by_all"]["rate"] == 0.25
    assert math.isclose(s["first_player_advantage"]["advantage"], 2.5 / 4 - 1 / 3)
    assert math.isclose(s["balance"], 1 - 2.5 / 4)
    a = next(r for r in s["card_impact"] if r["card"] == "a")
    assert a["used"] == 4 and a["win_rate_used"]["wins"] == 1.5 and a["win_rate_not_used"]["games"] == 8


# ------------------------------------------------------------------ seeds and batches
def test_game_seeds_depend_only_on_sweep_seed_and_index():
    assert [game_seed(3, i) for i in range(5)] == [game_seed(3, i) for i in range(5)]
    assert len({game_seed(3, i) for i in range(1000)}) == 1000
    assert game_seed(3, 0) != game_seed(4, 0)
    assert all(0 <= game_seed(s, i) < 2**53 for s in (0, -5, 10**12) for i in (0, 7))


def test_bots_are_rotated_between_games():
    assert seat_bots(("random",), 3, 5) == ["random"] * 3
    assert [seat_bots(("a", "b", "c"), 3, i) for i in range(3)] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]


def test_split_covers_every_game_once():
    for n, workers in [(1, 2), (7, 3), (2000, 2), (10_000, 64)]:
        ranges = split(0, n, workers)
        assert ranges[0][0] == 0 and ranges[-1][1] == n
        assert all(a < b for a, b in ranges) and all(x[1] == y[0] for x, y in zip(ranges, ranges[1:]))
        assert max(b - a for a, b in ranges) <= 250


# ------------------------------------------------------------------ the command
def test_simulate_prints_every_field():
    result = run([CATALYST, "-n", 30, "--players", 2, "--seed", 4, "-j", 1])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ["30 games, 2 players, bots random, seed 4", "games/s", "ties: a win shared by k players counts 1/k",
                 "player 1", "player 2", "position 1 (first)", "position 2",
                 "first-player advantage", "balance", "decisiveness", "score", "winning margin", "turns",
                 "decisions", "points: Catalysts", "share of points", "median", "95%", "card impact"]:
        assert text in out, text


def test_simulate_json_has_every_field(summary_json):
    s = summary_json
    assert s["games"] == 60 and s["players"] == 3 and s["bots"] == ["random"] and s["seed"] == 11
    assert [r["seat"] for r in s["win_rate_by_seat"]] == [0, 1, 2]
    assert math.isclose(sum(r["rate"] for r in s["win_rate_by_seat"]), 1.0)
    assert math.isclose(sum(r["rate"] for r in s["win_rate_by_position"]), 1.0)
    assert s["win_rate_by_bot"] == {} and s["non_deciding_seats"] == []   # one bot, every seat decides
    for r in s["win_rate_by_seat"] + s["win_rate_by_position"]:
        assert 0 <= r["low"] <= r["rate"] <= r["high"] <= 1
    fpa = s["first_player_advantage"]
    assert math.isclose(fpa["advantage"], s["win_rate_by_position"][0]["rate"] - 1 / 3)
    rates = [r["rate"] for r in s["win_rate_by_position"]]
    assert math.isclose(s["balance"], 1 - (max(rates) - min(rates)))
    assert 0 <= s["decisiveness"] <= 1
    for key in ("score", "winning_margin", "turns", "decisions"):
        d = s[key]
        assert d["min"] <= d["q05"] <= d["q25"] <= d["median"] <= d["q75"] <= d["q95"] <= d["max"]
        assert d["sd"] >= 0
    assert set(s["score_by_category"]) == {"Catalysts", "Buildings", "Military", "Majority", "Coins"}
    assert math.isclose(sum(s["category_share"].values()), 1.0)
    assert s["games_per_second"] > 0 and s["seconds"] > 0
    assert "1/k" in s["ties"]


def test_coverage_lists_rules_and_cards(summary_json):
    cov = summary_json["coverage"]
    assert cov["rules"]["turn"]["games"] == 60 and cov["rules"]["setup"]["runs"] == 60
    assert "action collect" in cov["rules"] and "effect coin" in cov["rules"]
    assert cov["rules_never_run"] == [name for name, e in cov["rules"].items() if e["runs"] == 0]
    # With 3 players the cards marked for 4 players and the level-4 buildings stay out of the game.
    assert "cathedral-4" in cov["cards_never_in_play"] and "cathedral-4" not in cov["cards_never_used"]
    unused = {c for c, k in cov["cards"].items() if k == 0}
    assert set(cov["cards_never_used"]) | set(cov["cards_never_in_play"]) | set(cov["cards_only_read"]) == unused
    assert cov["terms_never_scored"] == []


def test_coverage_counts_cards_the_rules_read(summary_json):
    """The goal card in play is never chosen nor held, but the "Buildings"
    score term reads it in every game where someone has a building: it is
    used, by the rules."""
    cov = summary_json["coverage"]
    goals = ["the-pilgrims-road", "the-merchant-league", "the-iron-pact", "the-grand-design"]
    assert 54 <= sum(cov["cards_read"][g] for g in goals) <= 60     # one goal card in play per game
    assert not set(goals) & set(cov["cards_never_used"]) and set(goals) <= set(cov["cards_only_read"])
    assert all(cov["cards_read"][c] == 0 for c in cov["cards_never_in_play"])


def test_coverage_finds_a_dead_rule(tmp_path):
    variant = tmp_path / "dead.rules"
    variant.write_text('extends "%s"\noverride game "dead"\n'
                       'effect unused_effect "do nothing": gain 1 coins\n'
                       'action never "Never" when players > 9:\n    gain 1 coins\n' % CATALYST.as_posix())
    result = run([variant, "-n", 5, "-j", 1, "--coverage"])
    assert result.exit_code == 0, result.output
    assert "rules never run (2): effect unused_effect, action never" in result.output


def test_card_impact_is_sorted_with_intervals(summary_json):
    impact = summary_json["card_impact"]
    assert impact and [r["difference"] for r in impact] == sorted((r["difference"] for r in impact), reverse=True)
    for r in impact:
        assert r["low"] <= r["difference"] <= r["high"]
        assert r["used"] + r["win_rate_not_used"]["games"] == 60 * 3


def test_out_writes_one_record_per_game(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run([CATALYST, "-n", 12, "--players", 2, "--bots", "random", "--seed", 2, "-j", 1, "--out", out, "--json"])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["game"] for r in records] == list(range(12))
    first = records[0]
    assert first["seed"] == game_seed(2, 0) and first["bots"] == ["random", "random"]
    assert set(first) >= {"seed", "bots", "scores", "breakdown", "winners", "turns", "decisions", "first_player", "cards"}
    assert len(first["decisions"]) == 2 and sum(first["decisions"]) > 50


def test_a_record_replays_as_a_single_game():
    """A record's seed and bots play the same game with `play_game`."""
    from interpreter import load_game
    from interpreter.agents import make_agents
    from interpreter.play import play_game

    rec = simulate(str(CATALYST), 3, 2, seed=9, jobs=1, keep_records=True).records[2]
    game = load_game(CATALYST)
    final = play_game(game, 2, rec["seed"], make_agents(",".join(rec["bots"]), 2, rec["seed"]))
    assert final.result()["scores"] == rec["scores"] and final.turns == rec["turns"]


def test_seats_that_never_decide_are_named_and_not_compared():
    """In the one-player mode, seat 1 is played by the rules alone: no bot
    rate, no first-player advantage, but the player's rate against it."""
    solo = CATALYST.parent / "solo.rules"
    result = run([solo, "-n", 40, "--bots", "random", "-j", 1])
    assert result.exit_code == 0, result.output
    assert "bot random" not in result.output and "-0.500" not in result.output
    assert "player 2 never decides" in result.output
    assert "first-player advantage and balance: none (fewer than two players decide)" in result.output
    s = simulate(str(solo), 40, bots="random", seed=0, jobs=1).summary
    assert s["non_deciding_seats"] == [1] and s["first_player_advantage"] is None and s["balance"] is None
    assert s["win_rate_by_bot"] == {} and s["win_rate_by_position"] == []
    against = s["against_non_deciding"]
    assert against["seats"] == [1] and against["deciding_seats"] == [0]
    assert against["win_rate"]["rate"] == s["win_rate_by_seat"][0]["rate"]
    assert [r["decides"] for r in s["win_rate_by_seat"]] == [True, False]
    assert all(r["used"] + r["win_rate_not_used"]["games"] == 40 for r in s["card_impact"])  # seat 0's games only


def test_positions_and_fair_share_count_only_deciding_seats():
    meta = {"rules": "r", "title": "t", "sets": {}, "players": 3, "bots": ["random"], "seed": 0,
            "card_ids": [], "card_names": [], "terms": ["Points"], "coverage": False}

    def record(winners, first):  # seat 1 never decides
        return {"game": 0, "seed": 0, "bots": ["random"] * 3, "first_player": first, "scores": [3, 2, 1],
                "breakdown": [{"Points": 3}, {"Points": 2}, {"Points": 1}], "winners": winners, "lost": False,
                "turns": 10, "decisions": [4, 0, 4], "cards": [[], [], []]}

    # first 1: seat 2 plays first among the deciding seats (turn order 1, 2, 0)
    s = summarize([record([0], 0), record([2], 1), record([1], 2), record([0], 2)], meta)
    assert s["non_deciding_seats"] == [1]
    assert [r["wins"] for r in s["win_rate_by_position"]] == [2.0, 1.0]
    fpa = s["first_player_advantage"]
    assert math.isclose(fpa["fair_share"], 3 / 4 / 2) and math.isclose(fpa["advantage"], 2 / 4 - 3 / 8)
    assert s["against_non_deciding"]["win_rate"]["wins"] == 3.0


@pytest.mark.slow
def test_two_bots_get_win_rates_each():
    result = simulate(str(CATALYST), 4, 2, bots="random,greedy", seed=1, jobs=1, keep_records=True)
    s = result.summary
    assert set(s["win_rate_by_bot"]) == {"random", "greedy"}
    assert all(r["games"] == 4 for r in s["win_rate_by_bot"].values())
    assert [r["bots"] for r in result.records[:2]] == [["random", "greedy"], ["greedy", "random"]]


def test_simulate_report(tmp_path):
    pytest.importorskip("matplotlib")
    result = run([CATALYST, "-n", 20, "--players", 2, "-j", 1, "--report", tmp_path])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report.html").read_text()
    for name in ("scores.png", "win_rates.png", "turns.png", "categories.png"):
        assert f"src='{name}'" in page and (tmp_path / name).stat().st_size > 5000


def test_same_summary_with_one_or_two_processes(tmp_path):
    outs = []
    for jobs in (1, 2):
        out = tmp_path / f"games{jobs}.jsonl"
        result = run([CATALYST, "-n", 150, "--players", 2, "--seed", 5, "--jobs", jobs, "--json", "--out", out, "--coverage"])
        assert result.exit_code == 0, result.output
        outs.append((untimed(json.loads(result.output)), out.read_text()))
    assert outs[0] == outs[1]


def test_dask_local_cluster_gives_the_local_results():
    distributed = pytest.importorskip("distributed")
    local = simulate(str(CATALYST), 40, 2, seed=8, jobs=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        result = run([CATALYST, "-n", 40, "--players", 2, "--seed", 8, "--scheduler", cluster.scheduler_address, "--json"])
    assert result.exit_code == 0, result.output
    assert untimed(json.loads(result.output)) == json.loads(json.dumps(untimed(local.summary)))


# ------------------------------------------------------------------ who started
HANDS = ROOT / "tests" / "fixtures" / "hand_winner_starts.rules"


def test_the_first_player_is_the_one_who_started_not_the_last_hands_winner(tmp_path):
    """Each hand's winner starts the next, so the rules' first player at the end
    is the last hand's winner; the game is fair to both seats, and the
    advantage of the player who started is about 0."""
    out = tmp_path / "games.jsonl"
    result = run([HANDS, "-n", 2000, "--seed", 3, "-j", 1, "--json", "--out", out])
    assert result.exit_code == 0, result.output
    fpa = json.loads(result.output)["first_player_advantage"]
    assert fpa["low"] < 0 < fpa["high"] and abs(fpa["advantage"]) < 0.04, fpa
    assert {json.loads(line)["first_player"] for line in out.read_text().splitlines()} == {0}


def test_a_first_turn_that_asks_nothing_still_names_who_started(tmp_path):
    """Seat 1 starts and its first turn asks nothing: the game runs past it
    before any decision, and the record still names seat 1."""
    rules = tmp_path / "quiet_start.rules"
    rules.write_text(HANDS.read_text(encoding="utf-8")
                     .replace('"../flow/cards.yaml"', f'"{(ROOT / "tests" / "flow" / "cards.yaml").as_posix()}"')
                     .replace("set first_player to 0", "set first_player to 1")
                     .replace("turn:\n    choose action", "turn:\n    if me != first_player or round > 1:\n"
                              "        choose action"), encoding="utf-8")
    out = tmp_path / "games.jsonl"
    result = run([rules, "-n", 5, "-j", 1, "--out", out])
    assert result.exit_code == 0, result.output
    assert {json.loads(line)["first_player"] for line in out.read_text().splitlines()} == {1}


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize("args, message", [
    (["--bots", "randon"], "unknown bot 'randon'"),
    (["--players", "7"], "is played by 2 to 4 players, not 7"),
    (["--bots", "random,random,random"], "3 bots named for 2 players"),
    (["--set", "coin_limt=3"], "coin_limt"),
])
def test_errors_are_reported_without_traceback(args, message):
    result = run([CATALYST, "-n", 2, "-j", 1, "--players", 2, *args])  # a later --players wins
    assert result.exit_code == 1, result.output
    assert message in result.output and "Traceback" not in result.output


def test_missing_rules_file_is_an_error(tmp_path):
    result = run([tmp_path / "nope.rules", "-n", 2, "-j", 1])
    assert result.exit_code == 1 and "no such file" in result.output


def test_a_runaway_rule_stops_the_sweep_with_its_game_and_seed(tmp_path):
    variant = tmp_path / "loop.rules"
    variant.write_text('extends "%s"\noverride game "loop"\n'
                       'at start of turn:\n    repeat while true:\n        gain 1 coins\n' % CATALYST.as_posix())
    result = run([variant, "-n", 3, "-j", 1, "--max-steps", 500])
    assert result.exit_code == 1, result.output
    assert f"game 0 (seed {game_seed(0, 0)}) failed" in result.output and "ran 500 steps" in result.output


def test_a_result_computes_each_score_term_once_per_player():
    """A sweep asks every game for its result: scores, breakdowns and winners
    come from one evaluation of each score term for each player."""
    from interpreter import load_game

    game = load_game(CATALYST)
    st = game.new_initial_state(2, 3)
    st.play_out([rng.Draws(1).choose_id, rng.Draws(2).choose_id])
    expected = st.result()
    calls = []
    terms = game.program.score_terms
    game.program.score_terms = [(label, lambda s, fn=fn: calls.append(1) or fn(s)) for label, fn in terms]
    try:
        assert st.result() == expected
    finally:
        game.program.score_terms = terms
    assert len(calls) == 2 * len(terms)
