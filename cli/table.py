"""Draw a player's view of the table with rich (user text as plain `Text`, never markup)."""
from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from interpreter.view import unseen_words

from .text import plain


def _zone_text(name: str, zone: dict) -> str:
    if "count" in zone:
        return "\n".join(unseen_words(zone))
    if "slots" in zone:
        return "\n".join(f"{i + 1}. {text if text else '—'}" for i, text in enumerate(zone["slots"]))
    return "\n".join(grouped(zone["cards"])) if zone["cards"] else "—"


def grouped(texts: list) -> list:
    """Identical cards side by side as one line ("Computer ×40"); the order
    of the zone is kept: cards apart are never merged (a pile's order, a
    hand's places may matter to the rules)."""
    runs: list = []
    for text in texts:
        if runs and runs[-1][0] == text:
            runs[-1][1] += 1
        else:
            runs.append([text, 1])
    return [text if k == 1 else f"{text} ×{k}" for text, k in runs]


def render_table(console: Console, view: dict, title: str | None = None) -> None:
    """The shared zones and counters, then each player's, in panels; the
    places of a slotted zone are numbered from 1 (`@P` picks by them)."""
    you = view["viewer"]
    head = plain(f"{view['title']} — {view['when']}")
    if title:
        head = plain(f"{view['title']} — {title}")
    shared = Table.grid(padding=(0, 2))
    shared.add_column(style="bold cyan", no_wrap=True)
    shared.add_column()
    for name, zone in view["shared"]:
        shared.add_row(plain(name.replace("_", " ")), plain(_zone_text(name, zone)))
    for name, value in view["shared_counters"].items():
        shared.add_row(plain(name.replace("_", " ")), plain(value))
    console.print(Panel(shared, title=head, expand=False))
    for player in view["players"]:
        seat = player["seat"]
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        counters = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in player["counters"].items())
        if counters:
            grid.add_row("counters", plain(counters))
        for name, value in player.get("values", {}).items():
            grid.add_row(plain(name.replace("_", " ")), plain(value))
        for name, zone in player["zones"]:
            grid.add_row(plain(name.replace("_", " ")), plain(_zone_text(name, zone)))
        title = f"player {seat + 1}" + (" (you)" if seat == you else "") + (" — first player" if seat == view["first_player"] else "")
        console.print(Panel(grid, title=title, expand=False, border_style="green" if seat == you else "white"))
