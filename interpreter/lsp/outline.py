"""The outline of a rules file: one symbol per declaration, in file order,
with the fields of a kind and the terms of a score inside them."""
from __future__ import annotations

from dataclasses import dataclass, field

from .frontend import Visitor
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


class _Describe(Visitor):
    """A declaration's outline entry, or None for one the outline leaves out."""

    def generic_visit(self, decl):
        return None

    def visit_GameDecl(self, d):
        return _entry(f'game "{d.title}"', "Module")

    def visit_PlayersDecl(self, d):
        return _entry(f"players {d.minimum}..{d.maximum}", "Number")

    def visit_CardsDecl(self, d):
        return _entry(f'cards "{d.path}"', "File", f"into {d.zone}")

    def visit_ExtendsDecl(self, d):
        return _entry(f'extends "{d.path}"', "File")

    def visit_ParamDecl(self, d):
        return _entry(d.name, "Constant", "parameter")

    def visit_CounterDecl(self, d):
        return _entry(d.name, "Variable", f"counter, {_scope(d.scope)}")

    def visit_ZoneDecl(self, d):
        return _entry(d.name, "Array", f"zone, {_scope(d.scope)}")

    def visit_KindDecl(self, d):
        fields = [Entry(fname, "Field", d.span.line + i, d.span.line + i, ftype) for i, (fname, ftype) in enumerate(d.fields, 1)]
        return _entry(d.name, "Class", "kind", fields)

    def visit_DefineDecl(self, d):
        return _entry(d.name, "Function", f"define({', '.join(d.params)})" if d.params else "define")

    def visit_EffectDecl(self, d):
        return _entry(d.name, "Event", f'effect "{d.label}"' if d.label else "effect")

    def visit_ProcedureDecl(self, d):
        return _entry(d.name, "Method", f"procedure({', '.join(d.params)})" if d.params else "procedure")

    def visit_ActionDecl(self, d):
        label = "".join(p if isinstance(p, str) else "{…}" for p in d.label.parts)
        return _entry(d.name, "Interface", f'action "{label}"')

    def visit_SetupDecl(self, d):
        return _entry("setup", "Namespace")

    def visit_TurnDecl(self, d):
        return _entry("turn", "Namespace")

    def visit_TurnOrderDecl(self, d):
        return _entry("turn order", "Namespace")

    def visit_PhaseDecl(self, d):
        return _entry(f"phase {d.name}", "Namespace", d.label or "")

    def visit_ReactionDecl(self, d):
        return _entry(d.name, "Event", f"reaction to {d.event}")

    def visit_HookDecl(self, d):
        return _entry(f"at {d.moment}", "Namespace", "hook")

    def visit_EmptyHookDecl(self, d):
        return _entry(f"when {d.zone} becomes empty", "Namespace", "trigger")

    def visit_ScoreDecl(self, d):
        terms = [Entry(f'"{t.label}"', "Property", t.span.line, t.span.line) for t in d.terms]  # one line each
        return _entry("score", "Object", "", terms)

    def visit_TiebreakDecl(self, d):
        return _entry("tiebreak", "Property")

    def visit_CooperativeDecl(self, d):
        return _entry("cooperative score", "Property")

    def visit_TeamsDecl(self, d):
        return _entry("teams", "Property")

    def visit_ShowDecl(self, d):
        return _entry(f"show {d.name}", "String")

    def visit_BoardDecl(self, d):
        return _entry(f"board {d.name}", "Struct")

    def visit_MarkerDecl(self, d):
        return _entry(f"marker {d.name}", "Struct")


describe = _Describe().visit


def _scope(scope: str) -> str:
    return {"player": "per player", "card": "per card"}.get(scope, scope)
