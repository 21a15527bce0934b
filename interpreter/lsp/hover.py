"""What hovering a name shows (Markdown): a built-in's documentation, a
declaration's text with the comment above it, a parameter's value, the
cards of a kind and the values a card field takes across the card data."""
from __future__ import annotations

import os
from collections import Counter

from .frontend import EVENTS, allowed_values, builtin_help, nodes
from .index import (ACTION, COUNTER, DEFINE, EFFECT, EVENT, FIELD, FILE, FUNCTION, KIND, LOCAL, PARAM, PROCEDURE,
                    VALUE, ZONE, Occurrence, last_line, normal_path)
from .navigate import declaration_node

_MOST_LINES = 8  # a declaration longer than this shows its first line only
_MOST_VALUES = 12  # distinct values of a card field listed
_WHAT = {PARAM: "parameter", COUNTER: "counter", ZONE: "zone", KIND: "card kind", DEFINE: "definition",
         EFFECT: "effect", PROCEDURE: "procedure", ACTION: "action", FIELD: "card field",
         FUNCTION: "built-in function", VALUE: "built-in name", LOCAL: "local name", FILE: "file"}


def hover_text(analysis, occurrence: Occurrence) -> str | None:
    namespace, name = occurrence.symbol
    if namespace == FUNCTION:
        return _builtin(name)
    if namespace in (VALUE, LOCAL):
        return f"`{name}` — {_WHAT[namespace]}"
    if namespace == FILE:
        return f"`{os.path.relpath(name, os.path.dirname(occurrence.path))}` — {name}"
    if namespace == FIELD:
        return _field(analysis, name)
    if namespace == EVENT:
        return _event(analysis, name)
    decl = declaration_node(analysis, occurrence.symbol)
    parts = [f"**{name}** — {_WHAT[namespace]}"]
    if decl is not None:
        parts.append(_declaration_text(decl, analysis.texts.get(normal_path(decl.span.filename), "")))
    if namespace == PARAM and name in analysis.params:
        parts.append(f"value: `{rules_value(analysis.params[name])}`")
        allowed = allowed_values(decl)
        if allowed:
            parts.append("allowed values: " + ", ".join(f"`{rules_value(v)}`" for v in allowed))
    if namespace == KIND and analysis.db is not None:
        count = sum(1 for card in analysis.db.cards if card.kind == name)
        parts.append(f"{count} card{'s' if count != 1 else ''} in `{os.path.basename(analysis.db.source.name)}`")
    if decl is not None and decl.span.source:
        parts.append(f"declared in `{os.path.basename(decl.span.filename)}` line {decl.span.line}")
    return "\n\n".join(parts)


def _event(analysis, name: str) -> str:
    """An event: the engine's (when it is announced), or the rules' own
    (where they announce it); and the reactions that answer it."""
    builtin = EVENTS.get(name)
    if builtin is not None:
        parts = [f"**{builtin.usage}** — event the engine announces", builtin.doc]
    else:
        lines = sorted({o.line for o in analysis.index.of((EVENT, name)) if isinstance(o.node, nodes.Announce)})
        parts = [f"**{name}** — event" + (f", announced at line {', '.join(map(str, lines))}" if lines else "")]
    answers = [d.name for d in analysis.model.reactions.values() if d.event == name] if analysis.model else []
    if answers:
        parts.append("answered by " + ", ".join(f"`{a}`" for a in answers))
    return "\n\n".join(parts)


def _builtin(name: str) -> str | None:
    found = builtin_help(name)
    if found is None:
        return None
    form, doc, examples = found
    parts = [f"```\n{form}\n```", doc]
    if examples:
        parts.append("\n".join(f"- `{e}`" for e in examples))
    return "\n\n".join(parts)


def _declaration_text(decl, text: str) -> str:
    """The declaration as written, with the comment lines just above it
    (`text`: of its file)."""
    lines = text.splitlines()
    if not 0 < decl.span.line <= len(lines):
        return ""
    first, last = decl.span.line, last_line(decl.span, lines)
    body = lines[first - 1:last] if last - first < _MOST_LINES else [lines[first - 1], "    …"]
    above = first - 1
    while above > 0 and lines[above - 1].lstrip().startswith("#"):
        above -= 1
    comment = [line.strip().lstrip("#").strip() for line in lines[above:first - 1]]
    comment = [line for line in comment if "----" not in line]  # a ruler between sections says nothing
    text = "```rules\n" + "\n".join(body) + "\n```"
    return ("\n".join(comment) + "\n\n" + text) if comment else text


def _field(analysis, name: str) -> str:
    """A card field: which kinds declare it, and its values across the cards."""
    parts = [f"**{name}** — card field"]
    if analysis.model is not None:
        declared = [f"`{kind.name}` ({ftype})" for kind in analysis.model.kinds.values() for fname, ftype in kind.fields
                    if fname == name]
        if declared:
            parts.append("declared by the kind " + ", ".join(declared))
    if analysis.db is None:
        return "\n\n".join(parts)
    values: Counter = Counter()
    kinds: Counter = Counter()
    for card in analysis.db.cards:
        if name in card.data:
            values[rules_value(card.data[name])] += 1
            kinds[card.kind] += 1
    total = sum(kinds.values())
    parts.append(f"on {total} card{'s' if total != 1 else ''}"
                 + (" (" + ", ".join(f"{k}: {c}" for k, c in kinds.items()) + ")" if kinds else ""))
    if values:
        ordered = sorted(values.items(), key=lambda item: _order(item[0]))
        listed = [f"`{value}` ×{count}" for value, count in ordered[:_MOST_VALUES]]
        more = len(ordered) - _MOST_VALUES
        parts.append("values: " + ", ".join(listed) + (f", … {more} more" if more > 0 else ""))
    return "\n\n".join(parts)


def _order(text: str):
    try:
        return (0, int(text), "")
    except ValueError:
        return (1, 0, text)


def rules_value(value) -> str:
    """A value as the rules language writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(rules_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{rules_value(k)}: {rules_value(v)}" for k, v in value.items()) + "}"
    return str(value)
