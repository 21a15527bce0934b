"""Reading rules files: their text (UTF-8, located errors) and the files they
extend, merged into one model (base first)."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

from .. import files, limits
from ..errors import Diagnostic, RulesError, Source, Span
from . import nodes as n
from .model import RulesModel, merge
from .parser import parse_rules


def read_text(path: Path) -> str:
    raw = files.read_bytes(path, "rules file", limits.RULES_FILE_BYTES, missing=f"no such file: {path}")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is not part of the text
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        source = Source(str(path), raw.decode("utf-8", errors="replace"))
        raise RulesError(f"not UTF-8 text (byte {err.start}); save the file as UTF-8", Span(source, line, column, line, column + 1)) from None


def source_text(path: Path, texts: Mapping[Path, str] | None = None) -> str:
    """The text of a file: from `texts` (by resolved path) when it holds the
    file, as an editor holds the unsaved text of open files, else from disk."""
    text = texts.get(Path(path).resolve()) if texts else None
    return text if text is not None else read_text(path)


def load_model(path: str | Path, texts: Mapping[Path, str] | None = None) -> tuple[RulesModel, list]:
    """Parse a rules file and the files it extends, base first (`texts`: see
    `source_text`)."""
    model = RulesModel()
    problems: list = []
    chain: list = []

    def visit(p: Path, span: Span | None):
        try:
            resolved = p.resolve()
        except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL byte: reading it says why
            resolved = p
        if resolved in chain:
            raise RulesError("a rules file extends itself (through " + " -> ".join(str(c.name) for c in chain + [resolved]) + ")", span or Span(None))
        if len(chain) >= limits.EXTENDS_DEPTH:
            raise RulesError(f"the chain of `extends` is longer than {limits.EXTENDS_DEPTH} files (the limit)", span or Span(None),
                             "merge some of the files into one")
        chain.append(resolved)
        on_disk = not texts or texts.get(resolved) is None  # an editor's unsaved text is not kept in the cache
        text = source_text(p, texts)
        if not on_disk:
            model.texts[str(p)] = text
        tree = parse_rules(text, str(p), keep=on_disk)
        extends = [i for i in tree.items if isinstance(i, n.ExtendsDecl)]
        for ext in extends[:1]:
            base = p.parent / ext.path
            if "\0" in ext.path or not (base.exists() or (texts and base.resolve() in texts)):
                shown = ext.path.replace("\0", "\\0")
                raise RulesError(f"extended rules file not found: {shown}", ext.span)
            visit(base, ext.span)
        for ext in extends[1:]:
            problems.append(Diagnostic("error", "a rules file can extend only one other file", ext.span))
        if any(isinstance(i.decl if isinstance(i, n.Override) else i, n.CardsDecl) for i in tree.items):
            model.cards_dir = str(p.parent)  # the card file's path is relative to the file that names it
        problems.extend(merge(model, tree, str(p), extends_base=bool(model.files)))
        chain.pop()

    visit(Path(path), None)
    return model, problems
