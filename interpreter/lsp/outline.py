"""The outline of a rules file: one symbol per declaration, in file order,
with the fields of a kind and the terms of a score inside them."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import singledispatch

from .frontend import nodes as n
from .index import last_line


@dataclass
class Entry:
    name: str
    kind: str  # a protocol SymbolKind name: "Constant", "Function", ...
    line: int
    end_line: int
    detail: str = ""
    name_line: int = 0  # where the name is, when known
    name_column: int = 0
    children: list = field(default_factory=list)


def outline(tree: n.RulesFile, index, path: str, text: str) -> list[Entry]:
    """The outline of one file (`text`: the file's text)."""
    declared = {(o.line, o.name): o for o in index.in_file(path) if o.declaration}
    lines = text.splitlines()
    entries = []
    for item in tree.items:
        decl = item.decl if isinstance(item, n.Override) else item
        entry = describe(decl)
        if entry is None or not decl.span.line:
            continue
        entry.line, entry.end_line = item.span.line, last_line(item.span, lines)
        if isinstance(item, n.Override):
            entry.detail = ("override " + entry.detail).strip()
        found = declared.get((decl.span.line, entry.name))
        if found is not None:
            entry.name_line, entry.name_column = found.line, found.column
        entries.append(entry)
    return entries


def _entry(name, kind, detail="", children=()) -> Entry:
    return Entry(name, kind, 0, 0, detail, children=list(children))


@singledispatch
def describe(decl) -> Entry | None:
    return None


@describe.register
def _(d: n.GameDecl):
    return _entry(f'game "{d.title}"', "Module")


@describe.register
def _(d: n.PlayersDecl):
    return _entry(f"players {d.minimum}..{d.maximum}", "Number")


@describe.register
def _(d: n.CardsDecl):
    return _entry(f'cards "{d.path}"', "File", f"into {d.zone}")


@describe.register
def _(d: n.ExtendsDecl):
    return _entry(f'extends "{d.path}"', "File")


@describe.register
def _(d: n.ParamDecl):
    return _entry(d.name, "Constant", "parameter")


@describe.register
def _(d: n.CounterDecl):
    return _entry(d.name, "Variable", f"counter, {_scope(d.scope)}")


@describe.register
def _(d: n.ZoneDecl):
    return _entry(d.name, "Array", f"zone, {_scope(d.scope)}")


@describe.register
def _(d: n.KindDecl):
    fields = [Entry(fname, "Field", d.span.line + i, d.span.line + i, ftype) for i, (fname, ftype) in enumerate(d.fields, 1)]
    return _entry(d.name, "Class", "kind", fields)


@describe.register
def _(d: n.DefineDecl):
    return _entry(d.name, "Function", f"define({', '.join(d.params)})" if d.params else "define")


@describe.register
def _(d: n.EffectDecl):
    return _entry(d.name, "Event", f'effect "{d.label}"' if d.label else "effect")


@describe.register
def _(d: n.ProcedureDecl):
    return _entry(d.name, "Method", f"procedure({', '.join(d.params)})" if d.params else "procedure")


@describe.register
def _(d: n.ActionDecl):
    label = "".join(p if isinstance(p, str) else "{…}" for p in d.label.parts)
    return _entry(d.name, "Interface", f'action "{label}"')


@describe.register
def _(d: n.SetupDecl):
    return _entry("setup", "Namespace")


@describe.register
def _(d: n.TurnDecl):
    return _entry("turn", "Namespace")


@describe.register
def _(d: n.TurnOrderDecl):
    return _entry("turn order", "Namespace")


@describe.register
def _(d: n.PhaseDecl):
    return _entry(f"phase {d.name}", "Namespace", d.label or "")


@describe.register
def _(d: n.ReactionDecl):
    return _entry(d.name, "Event", f"reaction to {d.event}")


@describe.register
def _(d: n.HookDecl):
    return _entry(f"at {d.moment}", "Namespace", "hook")


@describe.register
def _(d: n.EmptyHookDecl):
    return _entry(f"when {d.zone} becomes empty", "Namespace", "trigger")


@describe.register
def _(d: n.ScoreDecl):
    terms = [Entry(f'"{t.label}"', "Property", t.span.line, t.span.line) for t in d.terms]  # one line each
    return _entry("score", "Object", "", terms)


@describe.register
def _(d: n.TiebreakDecl):
    return _entry("tiebreak", "Property")


@describe.register
def _(d: n.ShowDecl):
    return _entry(f"show {d.name}", "String")


@describe.register
def _(d: n.BoardDecl):
    return _entry(f"board {d.name}", "Struct")


def _scope(scope: str) -> str:
    return {"player": "per player", "card": "per card"}.get(scope, scope)
