"""Parse rules text into typed AST nodes: the front door of parsing.

The parsing itself (grammar.lark → Lark → nodes) is lark_parse.py, imported
only when a text has to be parsed: the tree of a rules file read from disk
is kept in the user's cache folder (treecache.py) with what
`readable_as_name` answers for the names it declares, so checking files
that did not change loads neither Lark nor its tables. Syntax errors become
:class:`RulesSyntaxError` with the position, the line and what was expected.
"""
from __future__ import annotations

from functools import lru_cache

from ..errors import RulesSyntaxError, Source, Span
from . import nodes as n
from . import treecache
from .incremental import DeclarationCache, declaration_chunks


def _lark():
    from . import lark_parse  # only when something has to be parsed (see the docstring)

    return lark_parse


def parse_rules(text: str, filename: str = "<rules>", keep: bool = False) -> n.RulesFile:
    """Parse a whole rules file. With `keep` (the text is that of the file
    on disk), the tree is read from the cache when it holds this text, and
    kept there when it is parsed.

    >>> parse_rules('game "X"\\n').items[0].title
    'X'
    """
    if not text.endswith("\n"):
        text += "\n"
    return _parse_file(text, filename, keep)


# An editor re-checks a game on every change, and the files not being edited
# (the base of a variant) come back with the same text; trees are immutable,
# so each distinct text is parsed once, and an edited text only where its
# declarations changed (incremental.py).
_DECLARATIONS = DeclarationCache(1024)


@lru_cache(maxsize=32)
def _parse_file(text: str, filename: str, keep: bool) -> n.RulesFile:
    source = Source(filename, text)
    chunks = declaration_chunks(text)
    if _DECLARATIONS.knows_any(filename, chunks):
        items = _parse_changed_declarations(chunks, source)
        if items is not None:
            return n.RulesFile(items, span=Span(source, 1, 1, text.count("\n") + 1, 1))
    tree = _kept_tree(text, filename, source) if keep else None
    if tree is None:
        tree = _lark().parse_declarations(text, source)
        if keep:
            names = {name: readable_as_name(name) for name in _declared_names(tree)}
            treecache.store_rules(filename, text, tree, names, source)
    _DECLARATIONS.remember(filename, chunks, tree.items)
    return tree


def _kept_tree(text: str, filename: str, source: Source) -> n.RulesFile | None:
    found = treecache.load_rules(filename, text, source)
    if found is None:
        return None
    tree, names = found
    _remember_readable(names)
    return tree


def _declared_names(tree: n.RulesFile):
    """The names the file's declarations give (the checker asks whether each reads as a name)."""
    for item in tree.items:
        name = getattr(item.decl if isinstance(item, n.Override) else item, "name", None)
        if isinstance(name, str):
            yield name


def _parse_changed_declarations(chunks, source: Source) -> tuple | None:
    """The declarations of a text, parsing only the chunks not seen before;
    None when one does not parse (the whole text then says what is wrong)."""
    items: list = []
    for line, text in chunks:
        found = _DECLARATIONS.get(source.name, line, text)
        if found is None:
            try:
                found = _lark().parse_declarations(text, source, (line, 1)).items
            except RulesSyntaxError:
                return None
            _DECLARATIONS.put(source.name, line, text, found)
        items.extend(found)
    return tuple(items)


def parse_expression(text: str, source: Source, offset: tuple[int, int] = (1, 1)) -> n.Expr:
    """Parse an expression written inside card data or a label template."""
    return _lark().parse_text(text, source, "expression", offset)


def parse_effects(text: str, source: Source, offset: tuple[int, int] = (1, 1)) -> n.EffectList:
    """Parse a card's effect symbols, e.g. ``gold/wood draw``."""
    return _lark().parse_text(text, source, "effects", offset)


_READABLE: dict = {}  # name -> whether it reads as that name: from kept trees, and from parsing
_READABLE_MOST = 4096


def _remember_readable(answers: dict) -> None:
    if len(_READABLE) + len(answers) > _READABLE_MOST:
        _READABLE.clear()
    _READABLE.update(answers)


def readable_as_name(name: str) -> bool:
    """Whether `name`, written alone in an expression, reads as that name.
    A word the grammar takes for itself there (`count`, `any`) does not, so a
    counter called `count` could be declared but never read."""
    answer = _READABLE.get(name)
    if answer is None:
        answer = _lark().reads_as_name(name)
        _remember_readable({name: answer})
    return answer
