"""Ctrl-C in a long `catalyst simulate`: it stops within a second or two, on
one process, on worker processes or on a Dask cluster; the `--out` file holds
every game finished by then, each a whole record; the summary of those games
is printed, marked as interrupted, and the exit status is 130."""
from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import pytest

from .conftest import ROOT

HANDS = ROOT / "tests" / "fixtures" / "hand_winner_starts.rules"
GAMES = 1_000_000  # far more than the test waits for
STOPS_WITHIN = 4.0  # seconds from SIGINT to exit (the promise is about one; the machine may be busy)


def _started(tmp_path, *args):
    """A long sweep writing its records beside out.jsonl, once it has written some."""
    out = tmp_path / "out.jsonl"
    process = subprocess.Popen([sys.executable, "-m", "cli.main", "simulate", str(HANDS), "-n", str(GAMES),
                                "--out", str(out), *args], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(p.stat().st_size > 20_000 for p in tmp_path.glob(".*.part")):  # the records being written
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no games finished in 60 s"
        time.sleep(0.05)
    return process, out


def _interrupt(process):
    began = time.monotonic()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    return stdout, stderr, time.monotonic() - began


def _check_records(out) -> list:
    """Every line a whole record of a different game; their numbers."""
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert records and all(r["format"] == "rules-game-record/1" for r in records)
    games = [r["game"] for r in records]
    assert games == sorted(set(games)) and games[-1] < GAMES
    return games


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_keeps_every_finished_game_and_prints_their_summary(tmp_path, jobs):
    process, out = _started(tmp_path, "-j", str(jobs))
    stdout, stderr, took = _interrupt(process)
    assert process.returncode == 130, (stdout, stderr)
    assert took < STOPS_WITHIN, took
    assert "Traceback" not in stderr and "Aborted" not in stderr, stderr
    games = _check_records(out)
    assert f"interrupted after {len(games)} of {GAMES} games" in stdout, stdout[:400]
    assert stdout.startswith(f"Hands: {len(games)} games, 2 players")
    assert re.search(r"^first-player advantage ", stdout, re.M)  # the whole summary follows
    assert not list(tmp_path.glob(".*.part"))


def test_ctrl_c_with_json_marks_the_summary(tmp_path):
    process, out = _started(tmp_path, "-j", "2", "--json")
    stdout, stderr, took = _interrupt(process)
    assert process.returncode == 130 and took < STOPS_WITHIN, (stderr, took)
    summary = json.loads(stdout)
    games = _check_records(out)
    assert summary["games"] == len(games)
    assert summary["interrupted"]["games"] == len(games) and summary["interrupted"]["of"] == GAMES
    jsonschema = pytest.importorskip("jsonschema")
    schemas = ROOT / "schemas"
    jsonschema.validate(summary, json.loads((schemas / "simulate-summary.schema.json").read_text()))
    record_schema = json.loads((schemas / "game-record.schema.json").read_text())
    for line in out.read_text(encoding="utf-8").splitlines()[-3:]:
        jsonschema.validate(json.loads(line), record_schema)


def test_ctrl_c_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:  # tcp: reached from another process
        process, out = _started(tmp_path, "--scheduler", cluster.scheduler_address)
        stdout, stderr, took = _interrupt(process)
    assert process.returncode == 130, (stdout, stderr)
    assert took < STOPS_WITHIN, took
    assert "Traceback" not in stderr and "TimeoutError" not in stderr, stderr
    games = _check_records(out)
    assert f"interrupted after {len(games)} of {GAMES} games" in stdout


def test_a_dask_run_prints_only_its_results(tmp_path):
    """Nothing but the summary: no TimeoutError or traceback from starting or
    leaving the cluster, on the first run or the next."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        for _ in range(2):
            done = subprocess.run([sys.executable, "-m", "cli.main", "simulate", str(HANDS), "-n", "300",
                                   "--scheduler", cluster.scheduler_address], cwd=ROOT, capture_output=True,
                                  text=True, timeout=120)
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith("Hands: 300 games")
            assert "TimeoutError" not in done.stderr and "Traceback" not in done.stderr, done.stderr
            assert done.stderr == "", done.stderr
