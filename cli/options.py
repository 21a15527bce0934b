"""Options and error handling shared by the `catalyst` commands."""
from __future__ import annotations

import functools
import os
import re
import sys
import traceback

import click

from interpreter.errors import RulesError


# C0 and C1 controls but tab and line end, and the bidirectional overrides
# that reorder what a terminal shows.
_CONTROLS = re.compile("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]")


def printable(text: str) -> str:
    """`text` with every character that could steer a terminal replaced by '?'."""
    return _CONTROLS.sub("?", text)


class Context:
    def __init__(self, debug: bool):
        self.debug = debug


def debugging() -> bool:
    context = click.get_current_context().find_object(Context)
    return bool(context and context.debug)


def show_traceback() -> None:
    """Print the exception being handled with its whole traceback and exit 1.
    Python's own printing reads source files from disk; this one also shows
    the lines of generated rule code."""
    traceback.print_exc(file=sys.stderr)
    click.get_current_context().exit(1)


def reports_errors(fn):
    """Turn RulesError into a ClickException; with --debug, show the traceback."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except RulesError as err:
            if debugging():
                show_traceback()
            text = printable(err.render())
            # Click already starts the message with "Error:".
            raise click.ClickException(text[len("error: "):] if text.startswith("error: ") else text) from None
    return wrapper


def keeps_inputs(fn):
    """For a command that writes files: no output may replace a file the
    command reads (its rules, the files they extend, cards, schemas, a save
    or a log), however the path is written (interpreter/files.py)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from interpreter import files

        with files.inputs_kept():
            return fn(*args, **kwargs)
    return wrapper


def read_rules(rules, sets) -> None:
    """Read (and check) a rules file with every file it names, before any
    output is opened: a mistake in them is told first, and an output aimed
    at one of them is refused before any game is played."""
    from interpreter.loader import load_game

    load_game(rules, parse_sets(sets))


class PathArg(click.Path):
    """A path on the command line; one holding a NUL byte is a usage error
    (os.stat, which click.Path calls, would raise ValueError)."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and "\0" in value:
            self.fail(f"{value!r} contains a NUL byte", param, ctx)
        return super().convert(value, param, ctx)


def parse_sets(values) -> dict:
    out = {}
    for item in values:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--set")
        out[name.strip()] = value.strip()
    return out


set_option = click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
                          help="Override a parameter of the rules (repeatable).")


class BotsOption(click.Option):
    """`--bots`, whose help lists every bot of the agents registry (read when
    the help is shown, so the registry is imported only then)."""

    def get_help_record(self, ctx):
        from interpreter.agents import bot_usages

        self.help = self.help.replace("{bots}", ", ".join(bot_usages()))
        return super().get_help_record(ctx)


def fresh_seed() -> int:
    """A seed nobody chose, from the system's entropy: the one place a game's
    randomness does not come from a seed (it makes the seed). Six digits, to
    be typed again with --seed."""
    return int.from_bytes(os.urandom(4), "big") % 1_000_000
