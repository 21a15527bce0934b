"""`catalyst check --leaks`: play games and report what a seat is told of
cards it can neither see nor know (the work is interpreter/leaks.py)."""
from __future__ import annotations

import json

import click

from interpreter.errors import Diagnostic
from interpreter.events import player_name

from .options import printable


def check_leaks(game, players, games: int, seed: int, as_json: bool) -> tuple:
    """Check one loaded game at `players` (None: every count its rules
    allow); print the leaks for people unless `as_json`. Returns (found
    any, the report as data)."""
    from interpreter.leaks import find_leaks

    low, high = game.player_range
    counts = list(range(low, high + 1)) if players is None else [players]
    report = find_leaks(game, counts, games, seed)
    if not as_json:
        click.echo(printable(render(report)))
    return bool(report.leaks), report.to_data()


def print_reports(reports: list) -> None:
    click.echo(json.dumps(reports, indent=2))


def render(report) -> str:
    """The leaks of a report in words, each at its rules line, then a summary line."""
    from interpreter.leaks import CHANNELS

    out = []
    for leak in report.leaks.values():
        player = player_name(leak.seat)
        what = CHANNELS[leak.channel].format(player=player)  # (the words of each channel: interpreter/leaks.py)
        message = f"{leak.channel}: {what} changes with cards {player} can neither see nor know" + (
            f" (in {leak.rule})" if leak.rule else "")
        a, b = leak.swapped
        out.append(Diagnostic("leak", message, leak.span).render())
        out.append(f"    game seed {leak.seed}, {leak.players} players, decision {leak.decision} (+{leak.step} on the "
                   f"twins), {a} and {b} swapped: {leak.first} | {leak.second}"
                   + (f" (met {leak.count} times)" if leak.count > 1 else ""))
    out.append(summary(report))
    return "\n".join(out)


def summary(report) -> str:
    games = f"{report.games} game{'s' if report.games != 1 else ''}"
    checks = f"{report.checks} twin check{'s' if report.checks != 1 else ''}"
    found = len(report.leaks)
    if found:
        return f"{report.rules}: {found} leak{'s' if found != 1 else ''} found ({checks} in {games})"
    if not report.checks:
        return f"{report.rules}: no leak found: no two unseen cards to swap ({games})"
    return f"{report.rules}: no leak found ({checks} in {games})"
