"""Options and error handling shared by the `catalyst` commands."""
from __future__ import annotations

import functools

import click

from interpreter.errors import RulesError


class Context:
    def __init__(self, debug: bool):
        self.debug = debug


def reports_errors(fn):
    """Turn RulesError into a ClickException unless --debug is on."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        ctx = click.get_current_context()
        try:
            return fn(*args, **kwargs)
        except RulesError as err:
            if ctx.find_object(Context) and ctx.find_object(Context).debug:
                raise
            text = err.render()
            # Click already starts the message with "Error:".
            raise click.ClickException(text[len("error: "):] if text.startswith("error: ") else text) from None
    return wrapper


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
