"""Text output of the CLI: turn log lines, score tables, JSON-lines logs.

Text from rules and card files (titles, labels, card names, field values)
is never read as Rich markup (cli/text.py): it goes into tables as `Text` objects, so a
card named "[link=...]" prints as written. Text printed plainly has its
control characters replaced, so it cannot drive the terminal either.
"""
from __future__ import annotations

import shutil
import sys
import textwrap

import click
from rich.console import Console
from rich.table import Table

from interpreter import files
from interpreter.errors import RulesError
from interpreter.events import outcome_words, team_of_words

from .options import printable
from .text import plain


WIDTH = 110  # columns drawn where standard output is not a terminal (a file, a pipe)


def width(away: int = WIDTH) -> int:
    """The columns to draw in: the terminal's (or $COLUMNS there), else
    `away`: output kept in a file or read by a program is not cut to
    whatever width the environment mentions."""
    try:
        on_terminal = sys.stdout.isatty()
    except (AttributeError, ValueError):  # no stdout, or a closed one
        on_terminal = False
    return shutil.get_terminal_size((away, 24)).columns if on_terminal else away


def console() -> Console:
    return Console(file=sys.stdout, width=width(), highlight=False, emoji=False)


def say(text: str) -> None:
    """A line of plain words, wrapped at the width (never read as markup)."""
    console().print(plain(text))


def log_line(st, decision, label: str) -> str:
    phase = f" phase {st.phase}" if st.program.phases else ""
    return printable(f"round {st.round:>2}{phase} turn {st.turns:>3}  player {decision.player + 1}: {label}")


def event_lines(lines: list, heading: str | None = None) -> None:
    """What followed a decision (texts from replay.told), under its line;
    at a terminal a long line wraps within its width, indented under its start
    (a file or a pipe gets each line whole)."""
    from .narrate import short

    if heading and lines:
        click.echo(f"{heading}:")
    columns = width(0)
    for text in lines:
        line = printable("    " + short(text, ("move",)))
        if columns and len(line) > columns:
            line = textwrap.fill(line, columns, subsequent_indent=" " * 8, break_on_hyphens=False)
        click.echo(line)


def seed_line(game, rules: str, seed: int, players: int, resumed: bool) -> str:
    """The seed of a game, with the command that deals the same game again."""
    if resumed:
        return f"{game.title}: a saved game of seed {seed}, {players} players"
    return f"{game.title} — seed {seed} (the same deal again: catalyst run {rules} --players {players} --seed {seed})"


def reveal(st) -> None:
    """The table at the end, every hidden card shown (but the cards that
    never left the zone every card starts in: they were not in the game)."""
    from interpreter import visibility
    from interpreter.view import table_view

    from .table import render_table

    view = table_view(st, visibility.EVERYTHING)
    view["shared"] = [(name, zone) for name, zone in view["shared"] if name != st.program.setup_zone]
    render_table(console(), view, title=f"the end, every card shown (round {st.round}, turn {st.turns})")


def final_table(st, quiet: bool) -> None:
    result = st.result()
    if quiet:
        for p, score in enumerate(result["scores"]):
            mark = " *" if p in result["winners"] else ""
            click.echo(f"player {p + 1}: {score}{mark}")
        return
    title = plain(f"{st.program.title}: final scores after {result['turns']} turns")
    labels = list(result["breakdown"][0]) if result["breakdown"] else []
    teams = team_of_words(result)
    names = [f"player {p + 1}" + (" (first)" if p == result["first_player"] else "")
             + (f" ({teams[p]})" if teams else "")
             + (" winner" if p in result["winners"] else "") for p in range(len(result["scores"]))]
    rows = [[str(parts[label]) for label in labels] + [str(score)]
            for score, parts in zip(result["scores"], result["breakdown"])]
    table = Table(title=title, min_width=len(title) + 4)  # the title on one line
    if 20 + 12 * len(labels) <= width():  # a column per score label
        table.add_column("player")
        for label in [*labels, "total"]:
            table.add_column(plain(label), justify="right", style="bold" if label == "total" else None)
        for name, row in zip(names, rows):
            table.add_row(name, *row)
    else:  # too narrow for a column per label: a row per label, a column per player
        table.add_column("")
        for name in names:
            table.add_column(name, justify="right")
        for i, label in enumerate([*labels, "total"]):
            table.add_row(plain(label), *(row[i] for row in rows), style="bold" if label == "total" else None)
    console().print(table)
    say(outcome_words(result))


def write_log(path, text: str) -> None:
    files.write_text(path, text, "the log")


def cards_table(cards, fields) -> None:
    shown = [f for f in fields if f != "name" and any(f in c.data for c in cards)]
    table = Table(title=f"{len(cards)} card{'s' if len(cards) != 1 else ''}")
    table.add_column("id", style="dim")
    table.add_column("kind")
    table.add_column("name", style="bold")
    for name in shown:
        table.add_column(plain(name))
    for card in cards:
        table.add_row(plain(card.id), plain(card.kind), plain(card.name), *(plain(_cell(card.data.get(f))) for f in shown))
    Console(file=sys.stdout, width=width(160), highlight=False, emoji=False).print(table)


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items())
    return str(value)


def generated_code(game, rule: str | None) -> str:
    """The generated source (of one rule's functions, if `rule` is given),
    followed by the constants it reads, as comments."""
    from interpreter.errors import Span, did_you_mean

    module = game.program.module
    only = None
    if rule is not None:
        only = set(module.functions_of(rule))
        if not only and rule in game.model.defines:
            raise RulesError(f"the definition '{rule}' is used nowhere, so no code is made for it")
        if not only:
            names = {r.split(" ", 1)[-1] for r in module.rules()}
            hint = did_you_mean(rule, names) or "rules: " + ", ".join(sorted(names))
            raise RulesError(f"no rule named '{rule}'", hint=hint)
    text = module.source(only)
    constants = module.constants_in(text)
    if constants:
        text += "# constants read above (values from the rules and card files):\n"
        for name, value in constants:
            shown = str(value) if isinstance(value, Span) else repr(value)
            shown = "".join(ch if ch.isprintable() else "?" for ch in shown)
            text += f"#   {name} = {shown if len(shown) <= 100 else shown[:97] + '...'}\n"
    return text
