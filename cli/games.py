"""`catalyst games`: the sample games installed with the package, and a copy
of them to edit."""
from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import click

from .options import PathArg, reports_errors


def bundled_folder() -> Path:
    """The installed folder holding `rules/` and `schemas/` side by side (in a
    development install, the repository)."""
    from interpreter.errors import RulesError

    spec = importlib.util.find_spec("catalyst_rules_data.rules")
    for place in (spec.submodule_search_locations or []) if spec else []:
        if Path(place).is_dir():
            return Path(place).parent
    raise RulesError("the sample games are not installed with this copy of the package")


@click.command("games")
@click.option("--copy", "target", type=PathArg(file_okay=False), default=None, metavar="DIR",
              help="Copy the sample rules, cards and schemas into DIR (rules/ and schemas/), to edit them.")
@reports_errors
def games_command(target):
    """List the sample games installed with the package, or copy them out."""
    from interpreter.errors import RulesError
    from interpreter.language.sources import load_model

    root = bundled_folder()
    if target is not None:
        dest = Path(target)
        for name in ("rules", "schemas"):
            if (dest / name).exists():
                raise RulesError(f"{dest / name} already exists; choose an empty folder")
        for name in ("rules", "schemas"):
            shutil.copytree(root / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        click.echo(f"copied the sample games to {dest}: try `catalyst check {dest / 'rules'}/*.rules`")
        return
    for path in sorted((root / "rules").rglob("*.rules")):
        model, _ = load_model(path)
        title = model.game.title if model.game else "?"
        low, high = (model.players.minimum, model.players.maximum) if model.players else ("?", "?")
        players = f"{low} player{'s' if low != 1 else ''}" if low == high else f"{low}-{high} players"
        click.echo(f"{title:<40} {players:>11}  {path}")
