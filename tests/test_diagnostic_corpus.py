"""A corpus of broken rules and card files, each with its exact diagnostics.

`tests/diagnostics/NN_name.rules` (with its card file) is checked with
`catalyst check`, or given to the command line in `NN_name.cmd` (`{rules}`
stands for the file); the output and exit code must equal `NN_name.expected`.
Regenerate after an intended change of wording with
`UPDATE_GOLDEN=1 pytest tests/test_diagnostic_corpus.py` and review the diff.
"""
from __future__ import annotations

import os
import shlex

import pytest
from click.testing import CliRunner

from cli.main import cli

from .conftest import ROOT

CORPUS = ROOT / "tests" / "diagnostics"
CASES = sorted((p.stem for p in CORPUS.glob("[0-9]*_*.rules")), key=lambda stem: int(stem.split("_")[0]))


def check_output(name: str) -> str:
    command = CORPUS / f"{name}.cmd"
    args = shlex.split(command.read_text()) if command.exists() else ["check", "{rules}"]
    cwd = os.getcwd()
    os.chdir(CORPUS)
    try:
        result = CliRunner().invoke(cli, [a.replace("{rules}", f"{name}.rules") for a in args])
    finally:
        os.chdir(cwd)
    return f"exit {result.exit_code}\n{result.output}"


def test_corpus_is_large_enough():
    assert len(CASES) >= 40


def test_valid_file_is_clean():
    assert check_output("valid") == "exit 0\nvalid.rules: ok\n"


@pytest.mark.parametrize("name", CASES)
def test_broken_file_gives_its_exact_diagnostics(name):
    expected_path = CORPUS / f"{name}.expected"
    actual = check_output(name)
    if os.environ.get("UPDATE_GOLDEN"):
        expected_path.write_text(actual)
    assert expected_path.exists(), f"missing {expected_path.name}; record it with UPDATE_GOLDEN=1"
    assert actual == expected_path.read_text()
    assert actual.startswith("exit 1\n")
    assert "Traceback" not in actual
