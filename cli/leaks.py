"""`catalyst check --leaks`: play games and report what a seat is told of
cards it can neither see nor know (the work is interpreter/leaks.py)."""
from __future__ import annotations

import json

import click

from .options import printable


def check_leaks(game, players, games: int, seed: int, as_json: bool) -> tuple:
    """Check one loaded game at `players` (None: every count its rules
    allow); print the leaks for people unless `as_json`. Returns (found
    any, the report as data)."""
    from interpreter.leaks import find_leaks, render

    low, high = game.player_range
    counts = list(range(low, high + 1)) if players is None else [players]
    report = find_leaks(game, counts, games, seed)
    if not as_json:
        click.echo(printable(render(report)))
    return bool(report.leaks), report.to_data()


def print_reports(reports: list) -> None:
    click.echo(json.dumps(reports, indent=2))
