"""`catalyst compare`: common random numbers, paired intervals, verdicts, the
sequential test and the HTML report."""
from __future__ import annotations

import json
import re
import struct

import pytest
from click.testing import CliRunner

from cli.simulate import compare_command, metric_name
from interpreter.simulation.compare import p_text

from .conftest import CATALYST, ROOT

STRONG = ROOT / "tests" / "fixtures" / "strong_seat0.rules"
VARIANT = ROOT / "rules" / "variants" / "high_coin_limit.rules"


def run(args):
    return CliRunner().invoke(compare_command, [str(a) for a in args])


def by_metric(differences):
    return {d["metric"]: d for d in differences}


def test_a_file_compared_with_itself_has_no_change():
    result = run([CATALYST, CATALYST, "-n", 60, "--players", 2, "-j", 1, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    diffs = data["variants"][0]["differences"]
    assert {d["verdict"] for d in diffs} == {"no difference in any paired game"}
    assert all(d["difference"] == 0 and d["half_width"] == 0 for d in diffs)
    assert data["base"]["games"] == data["variants"][0]["summary"]["games"] == 60
    assert "common random numbers" in data["settings"]["design"]


def test_no_paired_difference_is_said_in_words_not_as_an_interval():
    """Games vary, but every pair is the same in both files: the interval of
    the difference cannot be estimated, and the terminal says so."""
    result = run([CATALYST, CATALYST, "-n", 40, "--players", 2, "-j", 1])
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("  turns ")]
    assert rows and "+0.000 to +0.000" not in result.output
    assert "cannot be estimated" in rows[0] and rows[0].endswith("no difference in any paired game"), rows


def _one_metric_result(entry):
    """A comparison result holding one metric, as `compare` makes it."""
    from types import SimpleNamespace

    from interpreter.simulation.compare import ALPHA, MIN_VERDICT_GAMES, verdict

    entry = {"metric": "turns", "label": "turns", "base": 40.0, "variant": 41.0, **entry}
    entry["verdict"] = verdict(entry)
    summary = {"games": entry["n"], "title": "T"}
    return SimpleNamespace(
        settings={"players": 2, "bots": ["random"], "seed": 0, "alpha": ALPHA, "min_verdict_games": MIN_VERDICT_GAMES},
        base=SimpleNamespace(rules="a.rules", summary=summary),
        variants=[SimpleNamespace(rules="b.rules", summary=summary, sprt=None, differences=[entry])])


@pytest.mark.parametrize("p_holm, shown, changed", [
    (0.0497, "0.0497", True), (0.0503, "0.050", False), (0.049999999, "<0.05", True), (0.2, "0.200", False)])
def test_a_p_value_near_the_threshold_is_printed_on_its_side(p_holm, shown, changed):
    from cli.simulate import comparison_text

    entry = {"n": 200, "difference": 1.0, "sd": 7.0, "half_width": 0.98, "low": 0.02, "high": 1.98,
             "p": p_holm / 4, "p_holm": p_holm}
    line = comparison_text(_one_metric_result(entry)).splitlines()[-1]
    assert f" {shown}  " in line and line.endswith("changed by +1.000 ± 0.980" if changed else "no detectable change")


def test_a_tiny_change_is_not_printed_as_zero():
    from cli.simulate import comparison_text

    entry = {"n": 200, "difference": 0.0004, "sd": 0.001, "half_width": 0.00014, "low": 0.00026, "high": 0.00054,
             "p": 1e-6, "p_holm": 1e-5}
    line = comparison_text(_one_metric_result(entry)).splitlines()[-1]
    assert "+0.0004" in line and "+0.0003 to +0.0005" in line and line.endswith("changed by +0.0004 ± 0.0001")
    entry = {**entry, "difference": 0.01, "half_width": 0.0096, "low": 0.0004, "high": 0.0196}
    line = comparison_text(_one_metric_result(entry)).splitlines()[-1]
    assert "+0.0004 to +0.0196" in line  # not "+0.000 to +0.020" beside "changed"


def test_a_strong_seat_is_detected():
    result = run([CATALYST, STRONG, "-n", 400, "--players", 2, "-j", 1, "--json"])
    assert result.exit_code == 0, result.output
    d = by_metric(json.loads(result.output)["variants"][0]["differences"])
    seat0 = d["win_rate_seat_0"]
    assert seat0["low"] > 0.03, seat0
    assert re.fullmatch(r"changed by \+0\.\d{3} ± 0\.\d{3}", seat0["verdict"])
    assert d["win_rate_seat_1"]["high"] < 0
    assert d["points:Coins"]["verdict"].startswith("changed by +")
    assert seat0["p_holm"] < 0.05


def test_metrics_cover_seats_first_player_length_and_categories():
    result = run([CATALYST, VARIANT, "-n", 30, "--players", 3, "-j", 1, "--json"])
    assert result.exit_code == 0, result.output
    d = by_metric(json.loads(result.output)["variants"][0]["differences"])
    for metric in ["win_rate_seat_0", "win_rate_seat_2", "first_player_advantage", "decisiveness", "mean_score",
                   "winning_margin", "turns", "points:Catalysts", "share:Coins"]:
        e = d[metric]
        assert e["low"] <= e["difference"] <= e["high"] and e["n"] == 30
        assert e["verdict"] in ("no detectable change", "no difference in any paired game") \
            or e["verdict"].startswith("changed by ")


def test_text_output_shows_verdicts_and_corrected_p_values():
    result = run([CATALYST, VARIANT, "-n", 40, "--players", 2, "-j", 1])
    assert result.exit_code == 0, result.output
    assert "common random numbers" in result.output and "Student t" in result.output
    assert "p_holm" in result.output
    assert "win rate, player 1" in result.output and "turns" in result.output  # seats read from 1
    assert "win_rate_seat" not in result.output
    assert "no detectable change" in result.output or "changed by" in result.output


def test_verdicts_come_from_the_corrected_p_value():
    from interpreter.simulation.compare import verdict

    raw_only = {"n": 200, "difference": 0.1, "half_width": 0.08, "low": 0.02, "high": 0.18, "p": 0.01, "p_holm": 0.2}
    assert verdict(raw_only) == "no detectable change"
    assert verdict({**raw_only, "p_holm": 0.01}) == "changed by +0.100 ± 0.080"
    assert verdict({**raw_only, "n": 20, "p_holm": 0.0}).startswith("no verdict")


@pytest.mark.slow
def test_terminal_json_and_html_give_the_same_verdicts(tmp_path):
    pytest.importorskip("matplotlib")
    args = [CATALYST, STRONG, "-n", 120, "--players", 2, "-j", 1]
    data = json.loads(run([*args, "--json", "--report", tmp_path]).stdout)
    text = run(args).output
    page = (tmp_path / "report.html").read_text()
    diffs = data["variants"][0]["differences"]
    assert any(d["verdict"].startswith("changed") for d in diffs)
    for d in diffs:
        assert d["verdict"].startswith("changed") == (d["p_holm"] < 0.05), d
        line = next(line for line in text.splitlines() if line.strip().startswith(metric_name(d["metric"]) + " "))
        assert line.endswith(d["verdict"]), (line, d)
        shown = p_text(d["p_holm"])
        assert f" {shown}  {d['verdict']}" in line
        assert d["verdict"] in page
    assert page.count("class='changed'") == sum(d["verdict"].startswith("changed") for d in diffs)


def test_one_game_gets_no_verdict():
    result = run([CATALYST, VARIANT, "-n", 1, "-j", 1])
    assert result.exit_code == 1 and "at least 2 games per file" in result.output
    assert "changed" not in result.output and "no detectable change" not in result.output


def test_a_few_games_get_intervals_but_no_verdict():
    result = run([CATALYST, STRONG, "-n", 10, "--players", 2, "-j", 1, "--json"])
    assert result.exit_code == 0, result.output
    diffs = json.loads(result.output)["variants"][0]["differences"]
    # a metric no paired game changed says so, a fact that needs no number of games
    assert {d["verdict"] for d in diffs} <= {"no verdict (fewer than 30 games)", "no difference in any paired game"}
    seat0 = by_metric(diffs)["win_rate_seat_0"]
    assert seat0["verdict"] == "no verdict (fewer than 30 games)"
    assert seat0["low"] < seat0["difference"] < seat0["high"]
    text = run([CATALYST, STRONG, "-n", 10, "--players", 2, "-j", 1]).output
    assert "too few games for verdicts" in text


def test_no_first_player_advantage_where_one_seat_decides():
    solo = ROOT / "rules" / "solo.rules"
    result = run([solo, solo, "-n", 30, "-j", 1, "--json"])
    assert result.exit_code == 0, result.output
    metrics = by_metric(json.loads(result.output)["variants"][0]["differences"])
    assert "first_player_advantage" not in metrics and "win_rate_seat_1" in metrics


@pytest.mark.slow
def test_sprt_stops_early_both_ways():
    result = run([CATALYST, STRONG, CATALYST, "-n", 3000, "--players", 2, "-j", 1, "--json",
                  "--sprt", "--metric", "win_rate_seat_0", "--effect", "0.1"])
    assert result.exit_code == 0, result.output
    strong, same = json.loads(result.output)["variants"]
    assert strong["sprt"]["decision"] == "changed" and strong["sprt"]["games"] < 3000
    assert same["sprt"]["decision"] == "no change" and same["sprt"]["games"] == 200
    assert strong["summary"]["games"] == strong["sprt"]["games"]


def test_unknown_metric_is_an_error():
    result = run([CATALYST, CATALYST, "-n", 5, "-j", 1, "--sprt", "--metric", "win_rate_seat_9"])
    assert result.exit_code == 1 and "unknown metric 'win_rate_seat_9'" in result.output


def test_compare_needs_a_variant():
    result = run([CATALYST, "-n", 5])
    assert result.exit_code == 2 and "at least one variant" in result.output


def png_size(path):
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.slow
def test_report_html_shows_its_plots(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "report"
    result = run([CATALYST, STRONG, "-n", 60, "--players", 2, "-j", 1, "--report", out, "--coverage"])
    assert result.exit_code == 0, result.output
    page = (out / "report.html").read_text()
    images = re.findall(r"<img src='([^']+)'", page)
    assert {"scores.png", "win_rates.png", "turns.png", "categories.png", "differences.png"} <= set(images)
    for name in images:
        width, height = png_size(out / name)
        assert 600 <= width <= 1600 and 300 <= height <= 1600, (name, width, height)
    assert "no detectable change" in page or "changed by" in page
    assert "Rules never run" in page and page.count("<table>") >= 3
