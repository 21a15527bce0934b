"""The package a user installs: every code package listed, the licence, the
type marker, and the sample games with their schemas, usable after a plain
install of the wheel."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import zipfile

import pytest
from setuptools import find_packages

from .conftest import ROOT


def declared() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_code_package_is_declared():
    listed = set(declared()["tool"]["setuptools"]["packages"])
    found = set(find_packages(str(ROOT), include=["interpreter*", "cli*"]))
    assert found - listed == set()


def test_every_folder_of_sample_games_is_installed_whole():
    """Each folder of rules/ holding a rules file is a data package whose
    patterns take every one of its files (a plain install has only those)."""
    setuptools = declared()["tool"]["setuptools"]
    for folder in {path.parent for path in (ROOT / "rules").rglob("*.rules")}:
        package = ".".join(("catalyst_rules_data", *folder.relative_to(ROOT).parts))
        assert package in setuptools["packages"], package
        patterns = setuptools["package-data"].get(package, [])
        for path in folder.iterdir():
            if path.is_file():
                assert any(path.match(pattern) for pattern in patterns), f"{path.relative_to(ROOT)} is not installed"


def test_the_declared_licence_has_its_file():
    project = declared()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert "Typing :: Typed" in project["classifiers"]


@pytest.mark.slow
def test_a_plain_install_of_the_wheel_carries_the_sample_games(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((tmp_path / "dist").glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in ("interpreter/py.typed", "cli/py.typed", "interpreter/language/grammar.lark",
                     "catalyst_rules_data/rules/catalyst.rules", "catalyst_rules_data/rules/cards.yaml",
                     "catalyst_rules_data/rules/solo.rules", "catalyst_rules_data/rules/variants/flat_market.rules",
                     "catalyst_rules_data/rules/catastropolis/catastropolis.rules",
                     "catalyst_rules_data/rules/samples/capsule/capsule.rules",
                     "catalyst_rules_data/rules/samples/capsule/capsule.schema.json",
                     "catalyst_rules_data/rules/samples/rivals/rivals.rules",
                     "catalyst_rules_data/rules/samples/rivals/cards.yaml",
                     "catalyst_rules_data/schemas/cards.schema.json",
                     "interpreter/serve/static/play.html", "interpreter/serve/static/designer.html",
                     "interpreter/serve/static/table.js", "interpreter/serve/static/style.css"):
        assert expected in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True)
    env = {**os.environ, "PYTHONPATH": str(site)}
    listing = subprocess.run([sys.executable, "-m", "cli.main", "games"], capture_output=True, text=True,
                             env=env, cwd=tmp_path, check=True).stdout
    installed = site / "catalyst_rules_data" / "rules" / "catalyst.rules"
    assert str(installed) in listing
    for sample in ("capsule", "rivals"):  # the README's two sample games
        path = site / "catalyst_rules_data" / "rules" / "samples" / sample / f"{sample}.rules"
        assert str(path) in listing
        check = subprocess.run([sys.executable, "-m", "cli.main", "check", str(path)], capture_output=True,
                               text=True, env=env, cwd=tmp_path)
        assert check.returncode == 0, check.stderr
    check = subprocess.run([sys.executable, "-m", "cli.main", "check", str(installed)], capture_output=True,
                           text=True, env=env, cwd=tmp_path)
    assert check.returncode == 0, check.stderr


# Every distribution the package may pull in, by its normalised name: a new
# dependency is added here on purpose, after checking it is the package meant
# (a look-alike name is a classic way in).
ALLOWED_DISTRIBUTIONS = {
    "lark", "pyyaml", "jsonschema", "click", "rich", "pygls", "starlette", "uvicorn", "websockets",
    "matplotlib", "dask", "optuna", "numpy", "gymnasium", "pettingzoo", "open-spiel",
    "pytest", "hypothesis", "pytest-timeout", "scipy", "pexpect", "cloudpickle", "supersuit", "httpx", "playwright",
}


def _distribution(requirement: str) -> str:
    """The normalised name of a requirement (PEP 503): `dask[distributed]>=1` is `dask`."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1)
    return re.sub(r"[-_.]+", "-", name).lower()


def test_only_known_distributions_are_declared():
    project = declared()["project"]
    requirements = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        requirements += extra
    assert {_distribution(r) for r in requirements} - ALLOWED_DISTRIBUTIONS == set()
    assert _distribution("httpx2>=2") not in ALLOWED_DISTRIBUTIONS
