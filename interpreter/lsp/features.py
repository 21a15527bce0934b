"""Each editor request answered from the workspace, in the protocol's terms.

Every function here runs on the server's worker thread and takes the
workspace, the client's position encoding and the file's normal path.
"""
from __future__ import annotations

import re

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from .completion import KEYWORD, candidates, keywords
from .convert import Lines, diagnostic, uri_of
from .hover import hover_text
from .index import (ACTION, COUNTER, DEFINE, EFFECT, EVENT, FIELD, FILE, FUNCTION, KIND, LOCAL, PARAM, PROCEDURE, VALUE,
                    ZONE)
from .navigate import (RENAMEABLE, RenameError, check_new_name, declaring_file, definitions, local_uses,
                       references as places_of)
from .outline import outline

_REQUEST_FAILED = -32803
_COMPLETION_KIND = {PARAM: lsp.CompletionItemKind.Constant, COUNTER: lsp.CompletionItemKind.Variable,
                    ZONE: lsp.CompletionItemKind.Folder, DEFINE: lsp.CompletionItemKind.Function,
                    EFFECT: lsp.CompletionItemKind.Event, PROCEDURE: lsp.CompletionItemKind.Method,
                    ACTION: lsp.CompletionItemKind.Interface, FIELD: lsp.CompletionItemKind.Field,
                    KIND: lsp.CompletionItemKind.Class, FUNCTION: lsp.CompletionItemKind.Function,
                    VALUE: lsp.CompletionItemKind.Variable, LOCAL: lsp.CompletionItemKind.Variable,
                    EVENT: lsp.CompletionItemKind.Event, KEYWORD: lsp.CompletionItemKind.Keyword}


def analyse_next(ws, encoding: str) -> tuple[list, bool]:
    """Analyse the open file that most needs it (the one edited last first),
    and say whether more wait: (uri, version, diagnostics) for every file
    whose diagnostics it gives, and True if other files are still stale."""
    lines = Lines(ws.text, encoding)
    roots = sorted((r for r in ws.stale if r in ws.documents), key=lambda r: (r != ws.last_changed, r))
    if roots:
        placed = ws.placed(ws.analyse(roots[0]))
        return [_published(ws, path, found, lines) for path, found in placed.items()], bool(ws.stale or ws.stale_cards)
    ws.stale.clear()
    out = []
    for cards in sorted(ws.stale_cards):
        readers = ws.card_readers(cards)
        if readers and readers[0] not in ws.documents:  # no open rules file loads it: check it with one that does
            found = ws.placed(ws.analyse(readers[0])).get(cards, [])
            out.append(_published(ws, cards, found, lines))
    ws.stale_cards.clear()
    return out, False


def _published(ws, path, placed, lines) -> tuple:
    return uri_of(path), ws.version(path), [diagnostic(p, lines) for p in placed]


def _at(ws, encoding, path, position):
    analysis = ws.current(path)
    lines = Lines(ws.text, encoding)
    if analysis is None:
        return None, None, lines
    line, column = lines.column(path, position)
    return analysis, analysis.index.at(path, line, column), lines


def hover(ws, encoding, path, position):
    analysis, occurrence, lines = _at(ws, encoding, path, position)
    if occurrence is None:
        return None
    text = hover_text(analysis, occurrence)
    if not text:
        return None
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, text), lines.location(occurrence).range)


def definition(ws, encoding, path, position):
    analysis, occurrence, lines = _at(ws, encoding, path, position)
    if occurrence is None:
        return None
    return [lines.location(o) if o.symbol[0] != FILE else lsp.Location(uri_of(o.path), _start())
            for o in definitions(analysis, occurrence)] or None


def _start() -> lsp.Range:
    return lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0))


def references(ws, encoding, path, position, include_declaration: bool = True):
    analysis, occurrence, lines = _at(ws, encoding, path, position)
    if occurrence is None or occurrence.symbol[0] == FILE:
        return None
    if occurrence.symbol[0] == LOCAL:
        return [lines.location(o) for o in local_uses(analysis, occurrence)]
    found = places_of(_game(ws, analysis, occurrence.symbol), occurrence.symbol, include_declaration)
    return [lines.location(o) for o in found]


def _game(ws, analysis, symbol) -> list:
    """The analyses of every file of the game that can use the symbol: the
    file declaring it and all files that extend that one."""
    out = [analysis]
    for root in ws.family(declaring_file(analysis, symbol)):
        if root != analysis.root:
            other = ws.current(root) if root in ws.documents else ws.analyse(root, check=False)
            if other is not None and other.loaded:
                out.append(other)
    return out


def prepare_rename(ws, encoding, path, position):
    analysis, occurrence, lines = _at(ws, encoding, path, position)
    if occurrence is None or occurrence.symbol[0] not in RENAMEABLE:
        raise JsonRpcException("only parameters, counters, zones, definitions, effects and procedures can be renamed",
                               _REQUEST_FAILED)
    return lsp.PrepareRenamePlaceholder(lines.location(occurrence).range, occurrence.name)


def rename(ws, encoding, path, position, new_name: str):
    analysis, occurrence, lines = _at(ws, encoding, path, position)
    if occurrence is None:
        raise JsonRpcException("no name here to rename", _REQUEST_FAILED)
    analyses = _game(ws, analysis, occurrence.symbol)
    places = places_of(analyses, occurrence.symbol)
    try:
        check_new_name(analyses, occurrence.symbol, new_name, keywords()["all"], places)
    except RenameError as err:
        raise JsonRpcException(str(err), _REQUEST_FAILED) from None
    changes: dict = {}
    for o in places:
        changes.setdefault(uri_of(o.path), []).append(lsp.TextEdit(lines.location(o).range, new_name))
    return lsp.WorkspaceEdit(changes=changes)


def completion(ws, encoding, path, position):
    analysis = ws.current(path)
    lines = Lines(ws.text, encoding)
    line, column = lines.column(path, position)
    before = lines.line(path, line)[:column - 1]
    items = []
    for c in candidates(analysis, before, path, line, card_data=not ws.is_rules(path)):
        doc = lsp.MarkupContent(lsp.MarkupKind.Markdown, c.documentation) if c.documentation else None
        items.append(lsp.CompletionItem(c.label, kind=_COMPLETION_KIND.get(c.kind), detail=c.detail,
                                        documentation=doc, sort_text=c.sort_text))
    return lsp.CompletionList(is_incomplete=False, items=items)


def document_symbols(ws, encoding, path):
    analysis = ws.current(path)
    tree = analysis.trees.get(path) if analysis is not None else None
    if tree is None:
        return None
    lines = Lines(ws.text, encoding)
    return [_symbol(entry, lines, path) for entry in outline(tree, analysis.index, path, analysis.texts.get(path, ""))]


def _symbol(entry, lines: Lines, path: str) -> lsp.DocumentSymbol:
    last = lines.line(path, entry.end_line)
    whole = lines.range(path, entry.line, 1, entry.end_line, len(last) + 1)
    if entry.name_line:
        chosen = lines.range(path, entry.name_line, entry.name_column, entry.name_line, entry.name_column + len(entry.name))
    else:
        chosen = lines.range(path, entry.line, 1, entry.line, len(lines.line(path, entry.line)) + 1)
    children = [_symbol(child, lines, path) for child in entry.children]
    return lsp.DocumentSymbol(entry.name, lsp.SymbolKind[entry.kind], whole, chosen, detail=entry.detail or None,
                              children=children or None)


def quick_fixes(ws, encoding, path, diagnostics):
    """'Change X to Y' for each diagnostic whose hint names the right name."""
    actions = []
    lines = Lines(ws.text, encoding)
    for d in diagnostics:
        data = d.data if isinstance(d.data, dict) else None
        if not data or "replace" not in data or "with" not in data or d.range.start.line != d.range.end.line:
            continue
        old, new = str(data["replace"]), str(data["with"])
        line, start = lines.column(path, d.range.start)
        _line, end = lines.column(path, d.range.end)
        found = re.search(rf"\b{re.escape(old)}\b", lines.line(path, line)[start - 1:end - 1])
        if found is None:
            continue
        column = start + found.start()
        edit = lsp.TextEdit(lines.range(path, line, column, line, column + len(old)), new)
        actions.append(lsp.CodeAction(f"Change '{old}' to '{new}'", kind=lsp.CodeActionKind.QuickFix, diagnostics=[d],
                                      is_preferred=True, edit=lsp.WorkspaceEdit(changes={uri_of(path): [edit]})))
    return actions
