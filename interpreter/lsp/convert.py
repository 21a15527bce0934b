"""Places and diagnostics in the protocol's terms.

The front end counts 1-based lines and columns in characters; the protocol
counts from 0, columns in UTF-16 code units unless the client chose another
encoding. Each conversion reads the line it converts.
"""
from __future__ import annotations

import re
from difflib import SequenceMatcher
from pathlib import Path

from lsprotocol import types as lsp

from .index import normal_path

_UNITS = {"utf-8": lambda ch: len(ch.encode("utf-8")), "utf-32": lambda ch: 1,
          "utf-16": lambda ch: 2 if ord(ch) > 0xFFFF else 1}
_SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}
_MISSPELT = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)'")
_SUGGESTED = re.compile(r"^did you mean '([A-Za-z_][A-Za-z0-9_]*)'\?$")
SOURCE = "rules"


def uri_of(path: str) -> str:
    return Path(path).as_uri()


def path_of(uri: str) -> str | None:
    """The normal path of a file: URI, or None for other schemes."""
    if not uri.startswith("file:"):
        return None
    from urllib.parse import unquote, urlparse

    parsed = urlparse(uri)
    return normal_path(unquote(parsed.path))


class Lines:
    """The lines of the files one answer speaks about, read once each."""

    def __init__(self, text_of, encoding: str = "utf-16"):
        self.text_of = text_of
        self.units = _UNITS.get(encoding, _UNITS["utf-16"])
        self._lines: dict = {}

    def line(self, path: str, number: int) -> str:
        if path not in self._lines:
            self._lines[path] = (self.text_of(path) or "").splitlines()
        lines = self._lines[path]
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def position(self, path: str, line: int, column: int) -> lsp.Position:
        """1-based line and character column -> the protocol's position."""
        text = self.line(path, line)
        return lsp.Position(max(line - 1, 0), sum(self.units(ch) for ch in text[:max(column - 1, 0)]) + max(column - 1 - len(text), 0))

    def column(self, path: str, position: lsp.Position) -> tuple[int, int]:
        """The protocol's position -> 1-based (line, character column)."""
        text = self.line(path, position.line + 1)
        units = column = 0
        while column < len(text) and units < position.character:
            units += self.units(text[column])
            column += 1
        return position.line + 1, column + 1

    def range(self, path: str, line: int, column: int, end_line: int, end_column: int) -> lsp.Range:
        return lsp.Range(self.position(path, line, column), self.position(path, end_line, end_column))

    def location(self, occurrence) -> lsp.Location:
        o = occurrence
        return lsp.Location(uri_of(o.path), self.range(o.path, o.line, o.column, o.line, o.end_column))


def _misspelt_name(message: str, suggestion: str) -> str | None:
    """Of the names a message quotes ("reaction 'whistle' answers
    'turn_ends'"), the one the suggestion would replace: the most alike."""
    names = [m.group(1) for m in _MISSPELT.finditer(message) if m.group(1) != suggestion]
    return max(names, key=lambda name: SequenceMatcher(None, name, suggestion).ratio(), default=None)


def diagnostic(placed, lines: Lines) -> lsp.Diagnostic:
    """A Placed diagnostic in the protocol's terms; the hint follows the
    message, as `check` prints it."""
    p = placed
    message = p.message + (f"\nhint: {p.hint}" if p.hint else "")
    related = [lsp.DiagnosticRelatedInformation(lsp.Location(uri_of(path), lines.range(path, line, col, end_line, end_col)), text)
               for path, line, col, end_line, end_col, text in p.related] or None
    data = None
    suggested = _SUGGESTED.match(p.hint or "")
    misspelt = _MISSPELT.search(p.message)
    replaced = _misspelt_name(p.message, suggested.group(1)) if suggested and misspelt and not p.related else None
    if replaced is not None:
        data = {"replace": replaced, "with": suggested.group(1)}
    return lsp.Diagnostic(lines.range(p.path, p.line, p.column, p.end_line, p.end_column), message,
                          severity=_SEVERITY.get(p.severity, lsp.DiagnosticSeverity.Error), source=SOURCE,
                          related_information=related, data=data)
