"""`catalyst tune`: parameters and targets as written on the command line,
a planted imbalance found, the variant file and its evidence, the JSON and
the report, and the same answer on local processes and a Dask cluster."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from cli.tune import tune_command
from interpreter.errors import RulesError
from interpreter.simulation import simulate
from interpreter.simulation.tune_space import overrides, parse_param, parse_target, value_text

from .conftest import CATALYST, ROOT

pytest.importorskip("optuna")

BONUS = ROOT / "tests" / "fixtures" / "first_player_bonus.rules"
FAIR = "first_player_advantage=-0.02..0.02"


def run(args):
    return CliRunner().invoke(tune_command, [str(a) for a in args])


# ------------------------------------------------------------------ what is searched
def test_parameters_as_written():
    p = parse_param("limit=6..12")
    assert (p.label, p.kind, p.low, p.high) == ("limit", "int", 6, 12)
    p = parse_param("level=easy,hard")
    assert p.kind == "choice" and p.choices == ("easy", "hard")
    p = parse_param("table[0]=3..7")
    assert (p.name, p.key, p.label) == ("table", 0, "table[0]")
    p = parse_param("steps[2]=-1..1")
    assert (p.key, p.low) == (2, -1)


def test_elements_of_one_list_make_one_override():
    params = [parse_param("table[0]=3..7"), parse_param("table[2]=3..7"), parse_param("limit=6..12")]
    defaults = {"table": [4, 5, 5, 6], "limit": 8, "other": 1}
    sets = overrides(params, {"table[0]": 6, "table[2]": 3, "limit": 9}, defaults)
    assert sets == {"limit": "9", "table": "[6, 5, 3, 6]"}
    assert defaults["table"] == [4, 5, 5, 6]  # the default is copied, not changed
    assert value_text({2: [1, 3], 3: "a \"b\""}) == '{2: [1, 3], 3: "a \\"b\\""}'


def test_targets_by_summary_name_or_metric_id():
    assert parse_target(FAIR).metric == "first_player_advantage"
    assert parse_target("win_rate_by_seat[1]=0.4..0.6").metric == "win_rate_seat_1"
    assert parse_target("score_by_category[Coins]=1..2").metric == "points:Coins"
    assert parse_target("score=30..40").metric == "mean_score"
    t = parse_target("turns=60..70")
    assert (t.distance(65), t.distance(75), t.distance(58)) == (0.0, 0.5, 0.2)


@pytest.mark.parametrize("args, message", [
    (["--param", "coin_limt=6..9"], "no parameter 'coin_limt'"),
    (["--param", "starting_coins=3..6"], "tune one element of it, e.g. starting_coins[0]=LOW..HIGH"),
    (["--param", "starting_coins[4]=3..6"], "has elements 0 to 3"),
    (["--param", "coin_limit=6.5..9"], "'6.5' is not a whole number"),
    (["--param", "coin_limit=6,yes,9"], "expected a whole number like the rules' 8, got \"yes\""),
    (["--param", "coin_limit=9..6"], "the range 9..6 is empty"),
    (["--param", "coin_limit=8"], "give a range LOW..HIGH or at least two values"),
    (["--target", "turns"], "expected METRIC=LOW..HIGH"),
    (["--target", "win_rate_by_seat[7]=0.4..0.6"], "no such metric"),
    (["--budget", "50"], "a budget of 50 games is too small"),
], ids=["unknown", "whole-list", "index", "not-whole", "type", "empty", "one-value", "target-form", "target-name",
        "budget"])
def test_mistakes_are_clear_errors(args, message):
    base = {"--param": "coin_limit=6..10", "--target": FAIR}
    for flag, value in base.items():
        if flag not in args:
            args = [*args, flag, value]
    result = run([CATALYST, *args, "-j", 1, "--budget", 600] if "--budget" not in args else [CATALYST, *args, "-j", 1])
    assert result.exit_code in (1, 2), result.output
    assert message in result.output and "Traceback" not in result.output


# ------------------------------------------------------------------ the search
@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """The planted imbalance: every player but the first takes 2 coins a turn;
    a bonus of 0 leaves the first player about 10 points of win rate behind."""
    folder = tmp_path_factory.mktemp("tuned")
    out = folder / "fair.rules"
    result = run([BONUS, "--param", "first_player_bonus=0..6", "--target", FAIR, "--players", 2,
                  "--budget", 3000, "--seed", 4, "-j", 2, "--json", "--out", out, "--report", folder / "report"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), out, folder


@pytest.mark.slow
def test_tune_finds_a_bonus_within_the_target(planted):
    data, _, _ = planted
    target = data["targets"]["first_player_advantage"]
    assert data["best"]["first_player_bonus"] >= 2       # 0 and 1 leave the first player behind
    assert target["within"] and -0.02 <= target["estimate"] <= 0.02
    assert target["interval"][0] < target["estimate"] < target["interval"][1]
    own = next(h for h in data["history"] if h["candidate"] == 0)
    assert own["values"] == {"first_player_bonus": 0} and own["estimates"]["first_player_advantage"][0] < -0.05
    assert data["games"] <= 3000 and data["games"] == sum(h["games"] for h in data["history"])
    assert max(h["games"] for h in data["history"]) > data["settings"]["rungs"][0]  # promising values raced on


@pytest.mark.slow
def test_the_variant_file_replays_the_evidence(planted):
    """The variant plays the same games as the candidate did (common random
    numbers), so simulating it gives the same estimate exactly."""
    data, out, _ = planted
    text = out.read_text()
    assert re.search(r'^extends ".*first_player_bonus\.rules"$', text, re.M)
    assert f"override param first_player_bonus = {data['best']['first_player_bonus']}" in text
    target = data["targets"]["first_player_advantage"]
    assert f"first_player_advantage: {target['estimate']:+.4f} (95% interval {target['interval'][0]:+.4f}" in text
    summary = simulate(str(out), target["games"], 2, seed=4, jobs=1).summary
    assert summary["first_player_advantage"]["advantage"] == pytest.approx(target["estimate"], abs=1e-12)


@pytest.mark.slow
def test_the_report_shows_the_history(planted):
    pytest.importorskip("matplotlib")
    data, _, folder = planted
    page = (folder / "report" / "report.html").read_text()
    assert "Every candidate" in page and page.count("<tr>") == len(data["history"]) + 1
    assert "history_0.png" in page and (folder / "report" / "history_0.png").stat().st_size > 5000


@pytest.mark.slow
def test_a_list_element_and_a_choice_are_searched_together():
    result = run([CATALYST, "--param", "starting_coins[1]=3..7", "--param", "coin_limit=6,8,10",
                  "--target", "turns=60..66", "--players", 2, "--budget", 400, "--first-games", 40, "-j", 1, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    best = data["best"]
    assert set(best) == {"starting_coins[1]", "coin_limit"} and best["coin_limit"] in (6, 8, 10)
    assert data["sets"]["starting_coins"] == f"[4, {best['starting_coins[1]']}, 5, 6]"
    first = data["history"][0]
    assert first["values"] == {"starting_coins[1]": 5, "coin_limit": 8}   # the rules' own values first
    assert len({json.dumps(h["values"], sort_keys=True) for h in data["history"]}) == len(data["history"])


@pytest.mark.slow
def test_same_answer_on_two_processes_and_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    args = [BONUS, "--param", "first_player_bonus=0..6", "--target", FAIR, "--players", 2, "--budget", 900,
            "--first-games", 30, "--seed", 9, "--json"]
    local = run([*args, "--jobs", 2])
    assert local.exit_code == 0, local.output
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        dask = run([*args, "--scheduler", cluster.scheduler_address])
    assert dask.exit_code == 0, dask.output
    assert json.loads(local.stdout) == json.loads(dask.stdout)
    assert len(json.loads(local.stdout)["history"]) > 3


def test_text_output_names_the_best_values():
    result = run([BONUS, "--param", "first_player_bonus=0..3", "--target", FAIR, "--players", 2,
                  "--budget", 300, "--first-games", 30, "-j", 1])
    assert result.exit_code == 0, result.output
    assert "best: first_player_bonus = " in result.output and "95% interval" in result.output


def test_a_tie_with_the_runner_up_is_said_in_words():
    """After 75 games each, the intervals of several bonuses overlap the target
    alike: the best is not told from the runner-up, and the output says so."""
    args = [BONUS, "--param", "first_player_bonus=0..3", "--target", FAIR, "--players", 2,
            "--budget", 300, "--first-games", 30, "-j", 1]
    result = run(args)
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("Tied with the runner-up"))
    assert line.startswith("Tied with the runner-up within the intervals: first_player_bonus = "), line
    data = json.loads(run([*args, "--json"]).stdout)
    assert data["tied_with"] and data["best"] not in [h["values"] for h in data["history"]
                                                      if h["candidate"] in data["tied_with"]]


def test_an_estimate_on_the_edge_of_the_target_is_not_called_inside():
    """The range includes its ends, but an estimate exactly on one is "on the
    edge"; the interval, which reaches outside, says the target is not surely reached."""
    one = [BONUS, "--param", "first_player_bonus=2..2", "--players", 2, "--budget", 60, "--first-games", 30, "-j", 1]
    first = json.loads(run([*one, "--target", FAIR, "--json"]).stdout)
    estimate = first["targets"]["first_player_advantage"]["estimate"]
    assert estimate != 0.5
    result = run([*one, "--target", f"first_player_advantage={estimate!r}..0.5"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("  first_player_advantage: "))
    assert line.endswith(f"target {estimate:g}..0.5: estimate on the edge of the target, interval not wholly inside")
    assert "inside the target" not in line and "Tied" not in result.output  # one candidate: no runner-up
    data = json.loads(run([*one, "--target", f"first_player_advantage={estimate!r}..0.5", "--json"]).stdout)
    report = data["targets"]["first_player_advantage"]
    assert report["on_edge"] and report["within"] and not report["surely_within"]


def test_errors_of_the_api_are_rules_errors():
    from interpreter.simulation.tune import tune

    with pytest.raises(RulesError, match="at least one target"):
        tune(str(CATALYST), ["coin_limit=6..9"], [], budget=400, jobs=1)
