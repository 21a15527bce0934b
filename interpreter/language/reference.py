"""What the language reference (docs/language.md) is made from: the grammar's
keywords, the order names are looked up in (names.py), and the built-ins section written from the built-in registries
(functions and values, and the events the engine announces).

The reference's tests compare the committed section with `builtins_section()`
and look for every keyword in the text, so neither can drift from the code.
"""
from __future__ import annotations

from .builtin_events import EVENTS
from .builtins import FUNCTIONS, VALUES
from .grammar import grammar_keywords  # noqa: F401 (the words the reference must name)
from .names import NAME_ORDER
from .value_types import describe

BEGIN = "<!-- built-ins: generated from interpreter/language/builtins.py by interpreter/language/reference.py -->"
END = "<!-- end of the generated built-ins -->"


def name_order() -> str:
    """The order a name in an expression is looked up in, in words, as the
    reference states it (and names.py applies it)."""
    return ", then ".join(["a local name"] + [words for _, words in NAME_ORDER])


def builtins_section() -> str:
    """The built-ins of the language as markdown, between the markers."""
    lines = [BEGIN, "", "### Functions", "", "| call | gives | what it is | example |", "|---|---|---|---|"]
    for name in sorted(FUNCTIONS):
        b = FUNCTIONS[name]
        gives = describe(b.returns) if b.returns else "what its arguments hold"
        lines.append(f"| `{b.usage}` | {gives} | {_cell(b.doc)} | `{_cell(b.example)}` |")
    lines += ["", "### Values", "", "| name | gives | what it is | example |", "|---|---|---|---|"]
    for name in sorted(VALUES):
        v = VALUES[name]
        lines.append(f"| `{name}` | {describe(v.returns)} | {_cell(v.doc)} | `{_cell(v.example)}` |")
    lines += ["", "### Events", "", "| event | gives | when, and to whom | a reaction to it |", "|---|---|---|---|"]
    for event in EVENTS.values():
        gives = ", ".join(f"`{p}`" for p in event.params) or "nothing"
        lines.append(f"| `{event.name}` | {gives} | {_cell(event.doc)} | `{_cell(event.example)}` |")
    lines += ["", END]
    return "\n".join(lines)


def replace_builtins_section(text: str) -> str:
    """`text` (the reference) with its built-ins section made afresh."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + builtins_section() + text[end:]


def committed_builtins_section(text: str) -> str:
    """The built-ins section as the reference's text holds it."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell."""
    return text.replace("|", "\\|")
