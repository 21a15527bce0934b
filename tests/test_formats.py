"""The versioned JSON outputs validate against their schemas in schemas/:
the simulate and compare summaries, the records of `simulate --out` and the
lines of `run --log`; each carries its format name and version."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli

from .conftest import CATALYST, ROOT, RULES

jsonschema = pytest.importorskip("jsonschema")
referencing = pytest.importorskip("referencing")

SCHEMAS = ROOT / "schemas"
FORMATS = {"simulate-summary": "rules-simulate-summary/1", "compare-summary": "rules-compare-summary/1",
           "game-record": "rules-game-record/1", "game-log": "rules-game-log/2",
           "tune-result": "rules-tune-result/1", "run-result": "rules-run-result/1",
           "bot-strength": "rules-bot-strength/1"}
SOLO = RULES / "solo.rules"
COOPERATIVE = RULES / "catastropolis" / "catastropolis.rules"
STRONG = ROOT / "tests" / "fixtures" / "strong_seat0.rules"


def load_schema(name):
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text())


@pytest.fixture(scope="module")
def validators():
    schemas = {name: load_schema(name) for name in FORMATS}
    registry = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas.values())
    out = {}
    for name, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        out[name] = jsonschema.Draft202012Validator(schema, registry=registry,
                                                     format_checker=jsonschema.FormatChecker())
    return out


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result


def valid(validator, document):
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_every_schema_names_the_format_its_outputs_carry():
    for name, tag in FORMATS.items():
        text = (SCHEMAS / f"{name}.schema.json").read_text()
        assert f'"const": "{tag}"' in text, name
    docs = (ROOT / "docs" / "formats.md").read_text()
    for name, tag in FORMATS.items():
        assert f"schemas/{name}.schema.json" in docs and tag in docs


@pytest.mark.parametrize("rules, args", [
    (CATALYST, ["--players", 3, "--coverage"]),
    (SOLO, ["--coverage"]),                                # a seat that never decides
    (COOPERATIVE, ["--players", 2]),                       # won or lost together
    (CATALYST, ["--players", 2, "--bots", "random,greedy", "-n", 2]),  # two bots
], ids=["catalyst-coverage", "solo", "cooperative", "two-bots"])
def test_simulate_summary_and_records_validate(validators, tmp_path, rules, args):
    out = tmp_path / "games.jsonl"
    n = ["-n", 12] if "-n" not in args else []
    summary = json.loads(invoke("simulate", rules, *n, *args, "-j", 1, "--json", "--out", out).stdout)
    assert summary["format"] == FORMATS["simulate-summary"]
    valid(validators["simulate-summary"], summary)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records and all(r["format"] == FORMATS["game-record"] for r in records)
    for record in records:
        valid(validators["game-record"], record)


def test_a_summary_with_an_undocumented_field_does_not_validate(validators):
    summary = json.loads(invoke("simulate", CATALYST, "-n", 5, "-j", 1, "--json").stdout)
    with pytest.raises(jsonschema.ValidationError):
        validators["simulate-summary"].validate({**summary, "surprise": 1})
    with pytest.raises(jsonschema.ValidationError):
        validators["simulate-summary"].validate({**summary, "format": "rules-simulate-summary/2"})


@pytest.mark.parametrize("extra", [[], ["--sprt", "--metric", "win_rate_seat_0", "--effect", "0.2"], ["-n", 10]],
                         ids=["plain", "sprt", "few-games"])
def test_compare_summary_validates(validators, extra):
    args = ["-n", 40] if "-n" not in extra else []
    data = json.loads(invoke("compare", CATALYST, STRONG, *args, "--players", 2, "-j", 1, "--json", *extra).stdout)
    assert data["format"] == FORMATS["compare-summary"]
    valid(validators["compare-summary"], data)


def test_run_log_lines_validate(validators, tmp_path):
    log = tmp_path / "game.jsonl"
    invoke("run", CATALYST, "--players", 3, "--seed", 5, "--quiet", "--bots", "random", "--set", "coin_limit=9",
           "--log", log)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert lines[0]["format"] == FORMATS["game-log"]
    for line in lines:
        valid(validators["game-log"], line)
    assert "result" in lines[-1] and all("action" in line for line in lines[1:-1])


def test_a_log_of_another_format_is_refused(tmp_path):
    """A log names its format; one of another version, or one from before
    logs carried the rules' fingerprint, is refused with the format it needs."""
    log = tmp_path / "game.jsonl"
    invoke("run", CATALYST, "--seed", 2, "--quiet", "--bots", "random", "--log", log)
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    for name, changed in (("old", {k: v for k, v in header.items() if k not in ("format", "fingerprint")}),
                          ("new", {**header, "format": "rules-game-log/9"})):
        (tmp_path / f"{name}.jsonl").write_text("\n".join([json.dumps(changed), *lines[1:]]) + "\n")
        result = CliRunner().invoke(cli, ["replay", str(tmp_path / f"{name}.jsonl")])
        assert result.exit_code == 1 and "its first line must name the format rules-game-log/2" in result.output


@pytest.mark.slow
def test_tune_result_validates(validators, tmp_path):
    pytest.importorskip("optuna")
    data = json.loads(invoke("tune", CATALYST, "--param", "starting_coins[0]=3..6", "--param", "coin_limit=6,8",
                             "--target", "turns=60..70", "--target", "first_player_advantage=-0.05..0.05",
                             "--players", 2, "--budget", 200, "--first-games", 20, "-j", 1, "--json").stdout)
    assert data["format"] == FORMATS["tune-result"]
    valid(validators["tune-result"], data)


@pytest.mark.parametrize("rules, args", [(STRONG, ["--tune-games", 2]), (SOLO, []), (CATALYST, ["--players", 3])],
                         ids=["tuned", "solo", "three-players"])
def test_bot_strength_validates(validators, rules, args):
    from interpreter.agents import weights
    from interpreter.loader import load_game

    fingerprint = load_game(rules).program.fingerprint
    try:
        data = json.loads(invoke("bots", rules, "-n", 2, "--mcts", "mcts:2", "-j", 1, *args, "--json").stdout)
    finally:  # what --tune stored would change the other tests' greedy
        (weights.cache.root() / weights.FOLDER / f"{fingerprint}.json").unlink(missing_ok=True)
        weights._stored.cache_clear()
    assert data["format"] == FORMATS["bot-strength"]
    valid(validators["bot-strength"], data)


@pytest.mark.parametrize("rules, args", [(CATALYST, ["--players", 3]), (COOPERATIVE, ["--players", 2])],
                         ids=["catalyst", "cooperative"])
def test_run_json_names_its_format_and_validates(validators, tmp_path, rules, args):
    log = tmp_path / "game.jsonl"
    result = json.loads(invoke("run", rules, *args, "--seed", 3, "--json", "--log", log).stdout)
    assert result["format"] == FORMATS["run-result"]
    valid(validators["run-result"], result)
    logged = json.loads(log.read_text().splitlines()[-1])["result"]
    assert {k: v for k, v in result.items() if k != "format"} == logged  # the result a log ends with
    valid(validators["game-log"], {"result": logged})
    assert validators["run-result"].is_valid({**result, "extra": 1}) is False
