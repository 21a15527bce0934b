"""User text (from rules and card files) made safe for the terminal: the
one place every printer of the CLI takes it from, below them all.

Such text is never read as Rich markup, and its control characters are
replaced, so a card named "[link=...]" or holding an escape sequence prints
as written and cannot drive the terminal.
"""
from __future__ import annotations

from rich.markup import escape
from rich.text import Text

from .options import printable


def plain(text) -> Text:
    """User text for Rich: shown as written, never read as markup."""
    return Text(printable(str(text)))


def safe(text) -> str:
    """User text to put inside Rich markup: its own markup escaped, and every
    character that could steer a terminal replaced."""
    return escape(printable(str(text)))
