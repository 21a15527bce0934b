"""The editor's view of a game's files: the texts of open documents (which
replace the disk's), the rules files found in the workspace folders, how
they extend one another, and the latest analysis of each open rules file.

Paths are normal paths (see `index.normal_path`); nothing here speaks the
protocol.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .analysis import Analyser, Analysis
from .frontend import Diagnostic, RulesError, read_text
from .index import normal_path

RULES_SUFFIX = ".rules"
_EXTENDS = re.compile(r'^extends\s+"((?:[^"\\\n]|\\.)*)"', re.M)
_CARDS = re.compile(r'^(?:override\s+)?cards\s+"((?:[^"\\\n]|\\.)*)"', re.M)
_SKIPPED_DIRS = {"node_modules", "__pycache__", "venv", "build", "dist"}
_MOST_FILES = 2000  # rules files looked at in the workspace folders


@dataclass
class Document:
    text: str
    version: int | None = None


@dataclass
class Placed:
    """A diagnostic as the editor shows it in one file: its own place, or,
    for a problem in another file, a summary on the line that leads there
    (`extends`, `cards`) with the original place as related information."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    message: str
    hint: str | None = None
    related: list = field(default_factory=list)  # of (path, line, column, end_line, end_column, message)


class Workspace:
    def __init__(self):
        self.analyser = Analyser()
        self.documents: dict[str, Document] = {}
        self.known: set[str] = set()  # rules files found in the workspace folders or opened
        self.latest: dict[str, Analysis] = {}  # root -> its latest analysis
        self.loaded: dict[str, Analysis] = {}  # root -> its latest analysis that loaded a model
        self.stale: set[str] = set()  # open rules files whose analysis is older than their texts
        self.stale_cards: set[str] = set()  # open card files changed since their last check
        self.last_changed: str | None = None

    # -- documents
    def open(self, path: str, text: str, version: int | None = None):
        self.documents[path] = Document(text, version)
        self.last_changed = path
        if self.is_rules(path):
            self.known.add(path)
        self.touch(path)

    def change(self, path: str, text: str, version: int | None = None):
        self.open(path, text, version)

    def close(self, path: str):
        self.documents.pop(path, None)
        self.latest.pop(path, None)
        self.stale.discard(path)
        self.touch(path)

    def touch(self, path: str):
        """Mark every open rules file that reads `path` as needing analysis."""
        self.stale.update(self.affected(path))
        if path in self.documents and not self.is_rules(path):
            self.stale_cards.add(path)

    def disk_changed(self, path: str, deleted: bool = False):
        """A file changed on disk (not through the editor)."""
        if self.is_rules(path):
            (self.known.discard if deleted else self.known.add)(path)
        self.touch(path)

    def texts(self) -> dict:
        """Resolved Path -> text of each open document, for the loader."""
        return {Path(p).resolve(): d.text for p, d in self.documents.items()}

    def text(self, path: str) -> str | None:
        if path in self.documents:
            return self.documents[path].text
        try:
            return read_text(Path(path))
        except RulesError:
            return None

    def version(self, path: str) -> int | None:
        document = self.documents.get(path)
        return document.version if document else None

    def is_rules(self, path: str) -> bool:
        return path.endswith(RULES_SUFFIX)

    # -- the files of the workspace
    def scan(self, folders):
        """Find the rules files under the workspace folders (hidden and
        package folders skipped)."""
        for folder in folders:
            for top, dirs, files in os.walk(folder):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
                for name in files:
                    if name.endswith(RULES_SUFFIX):
                        self.known.add(normal_path(os.path.join(top, name)))
                if len(self.known) >= _MOST_FILES:
                    return

    def base_of(self, path: str) -> str | None:
        """The file `path` extends, read from its text (it may not parse)."""
        match = _EXTENDS.search(self.text(path) or "")
        return normal_path(os.path.join(os.path.dirname(path), match.group(1))) if match else None

    def chain(self, path: str) -> list:
        """`path` and the files it extends, nearest first."""
        out = [path]
        while len(out) < 50:
            base = self.base_of(out[-1])
            if base is None or base in out:
                break
            out.append(base)
        return out

    def family(self, path: str) -> list:
        """The known rules files that are `path` or extend it, at any depth."""
        return sorted(p for p in self.known | {path} if path in self.chain(p))

    def affected(self, path: str) -> list:
        """The open rules files whose analysis reads `path`."""
        out = []
        for root in self.documents:
            if not self.is_rules(root):
                continue
            analysis = self.latest.get(root)
            if path in self.chain(root) or (analysis is not None and analysis.depends_on(path)):
                out.append(root)
        return out

    def card_readers(self, path: str) -> list:
        """Rules files that load the card file (or schema) `path`: open ones
        first, then the known files that declare it."""
        readers = list(self.affected(path))
        for rules in sorted(self.known):
            match = _CARDS.search(self.text(rules) or "")
            if match and normal_path(os.path.join(os.path.dirname(rules), match.group(1))) == path:
                readers.append(rules)
        return readers

    # -- analyses
    def analyse(self, root: str, check: bool = True) -> Analysis:
        analysis = self.analyser.analyse(root, self.texts(), check)
        if check and root in self.documents:
            self.latest[root] = analysis
            self.stale.discard(root)
        if analysis.loaded:
            self.loaded[root] = analysis
        return analysis

    def current(self, path: str) -> Analysis | None:
        """The analysis an editor feature reads for a file: of the rules file
        itself, or, for card data, of a rules file that loads it; the latest
        one that loaded when the text does not parse now."""
        if not self.is_rules(path):
            readers = self.card_readers(path)
            if not readers:
                return None
            path = readers[0]
        if path in self.stale or path not in self.latest:
            self.analyse(path, check=path in self.documents)
        analysis = self.latest.get(path)
        if analysis is not None and analysis.loaded:
            return analysis
        return self.loaded.get(path)

    # -- diagnostics
    def placed(self, analysis: Analysis) -> dict:
        """path -> Placed diagnostics of one analysis: the root's own, and
        the card data's; a problem in a base file or the card data is also
        summed up on the root's `extends` or `cards` line. Warnings about a
        base file are left to that file, as `check` does."""
        root, cards = analysis.root, analysis.card_file
        out: dict = {root: []}
        if cards is not None:
            out[cards] = []
        text = analysis.texts.get(root) or self.text(root) or ""
        for d in analysis.diagnostics:
            where = normal_path(d.span.filename) if d.span.source else None
            if where in (None, root):
                out[root].append(_placed(d, root))
                continue
            if d.severity == "warning" and where != cards:
                continue
            if where == cards:
                out[cards].append(_placed(d, cards))
            out[root].append(_summary(d, where, root, text, cards))
        return out


def _placed(d: Diagnostic, path: str) -> Placed:
    s = d.span
    line, column = max(s.line, 1), max(s.column, 1)
    end_line, end_column = (s.end_line, s.end_column) if (s.end_line, s.end_column) > (s.line, s.column) else (line, column + 1)
    return Placed(path, line, column, end_line, end_column, d.severity, d.message, d.hint)


def _summary(d: Diagnostic, where: str, root: str, text: str, cards: str | None) -> Placed:
    """A problem of another file, shown on the line of the root that leads to it."""
    pattern = _CARDS if where == cards and _CARDS.search(text) else _EXTENDS
    match = pattern.search(text)
    line = text.count("\n", 0, match.start()) + 1 if match else 1
    width = len(match.group(0)) if match else 1
    relative = os.path.relpath(where, os.path.dirname(root))
    inner = _placed(d, where)
    message = f"{relative}:{inner.line}:{inner.column}: {d.message}"
    related = [(where, inner.line, inner.column, inner.end_line, inner.end_column, d.message)]
    return Placed(root, line, 1, line, 1 + width, d.severity, message, d.hint, related)
