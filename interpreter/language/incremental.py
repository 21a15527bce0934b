"""Parse again only the top-level declarations whose text changed.

A rules file is a list of declarations, each starting at the beginning of a
line (block bodies are indented; a line inside brackets or after a `\\`
continues the one before). An edit changes a few of them: the declarations
of the text before the edit, at the same line and with the same text, parse
to the same nodes, so an editor that re-checks on every keystroke parses
only the rest.

The parser parses a file whole the first time it sees it, and after any
syntax error, so errors read exactly as they do for `check`. A reused node
keeps the Source of the text it was parsed from: its own lines are the same
in the new text, which is all a span's rendering reads.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections import OrderedDict

_STARTS_DECLARATION = re.compile(r"[A-Za-z_]")
_CONTINUED = re.compile(r"\\[\t \f]*\r?\n?$")


def declaration_chunks(text: str) -> list[tuple[int, str]]:
    """The text cut before each line that starts a declaration: (first line
    number, text) pairs that join back into the whole text."""
    chunks: list = []
    start, lines = 1, []
    depth, continued = 0, False
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        if lines and depth == 0 and not continued and _STARTS_DECLARATION.match(line):
            chunks.append((start, "".join(lines)))
            start, lines = number, []
        lines.append(line)
        depth, continued = _bracket_depth(line, depth)
    chunks.append((start, "".join(lines)))
    return chunks


def _bracket_depth(line: str, depth: int) -> tuple[int, bool]:
    """The bracket depth after a line, and whether it continues on the next
    (strings and comments do not count)."""
    quoted = False
    i = 0
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "#":
            return depth, False
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
        i += 1
    return depth, bool(_CONTINUED.search(line))


class DeclarationCache:
    """Parsed declarations by (file name, first line, text), the most
    recently used kept."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict = OrderedDict()

    def get(self, filename: str, line: int, text: str):
        key = (filename, line, text)
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        return None

    def knows_any(self, filename: str, chunks) -> bool:
        return any((filename, line, text) in self._items for line, text in chunks)

    def put(self, filename: str, line: int, text: str, items: tuple):
        self._items[(filename, line, text)] = items
        self._items.move_to_end((filename, line, text))
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def remember(self, filename: str, chunks, items):
        """Record a whole file's declarations under the chunks they start in."""
        starts = [line for line, _ in chunks]
        grouped: list = [[] for _ in chunks]
        for item in items:
            grouped[max(bisect_right(starts, item.span.line) - 1, 0)].append(item)
        for (line, text), found in zip(chunks, grouped):
            self.put(filename, line, text, tuple(found))
