"""What went wrong in a rule, in the rules' words.

A value the rules got wrong raises a plain Python exception in generated
code (failures.py tells whose mistake it is). Its Python text ("list indices
must be integers or slices, not NoneType", "5") means nothing to a designer:
this module says it again in the rules' words, naming the value where it can
be known. It reads the generated line that failed and the values of that
line's locals (the generated code's own names, never the designer's text):
the local that is none, the map that lacks the key, and what `let` made
that local (recorded when the `let` was generated, see `nothing_from`).
"""
from __future__ import annotations

import re

from ..language.nothingcheck import nothing_from as nothing_of
from .values import render

_LOCAL = r"L\[\d+\]|\b[vtsp]\d+\b"
_KINDS = {"int": "a number", "float": "a number", "Fraction": "a number", "bool": "yes/no", "str": "a text",
          "list": "a list", "tuple": "a list", "dict": "a map", "NoneType": "nothing (none)",
          "frozenset": "a set of cards", "function": "an expression", "Missing": "a missing field"}
_PATTERNS = [
    (r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'", "cannot compute {2} {1} {3}"),
    (r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'", "cannot compare {2} and {3} with {1}"),
    (r"bad operand type for unary -: '(\w+)'", "cannot take {1} from 0"),
    (r"can only concatenate (\w+) \(not \"(\w+)\"\) to \w+", "cannot add {2} to {1}"),
    (r"list indices must be integers or slices, not (\w+)", "a list's position must be a number, not {1}"),
    (r"'(\w+)' object is not subscriptable", "{1} has no items to pick from"),
    (r"'(\w+)' object is not iterable", "{1} is not a list"),
    (r"object of type '(\w+)' has no len\(\)", "{1} has no size"),
    (r"unhashable type: '(\w+)'", "{1} cannot be a key of a map"),
    (r"(?:\w+ )?index out of range", "a position past the end of a list"),
    (r"(?:integer )?(?:division|modulo)(?: or modulo)? by zero", "a number divided by 0"),
    (r"\w+\(\) arg is an empty sequence", "the largest or smallest of an empty list"),
]


def nothing_from(expr) -> str | None:
    """How the value of `expr` may be none ("top of an empty zone deck at
    file:line:col"), if it is one of the expressions that give none when
    there is nothing to give (see language/nothingcheck.py); else None."""
    found = nothing_of(expr)
    return f"{found[0]} at {expr.span}" if found else None


def explain(err: BaseException, tb, module) -> str:
    """`err`, raised by generated code whose innermost frame is `tb`'s (in
    `module`), in the rules' words."""
    frame, line = tb.tb_frame, module.text.splitlines()[tb.tb_lineno - 1]
    if isinstance(err, KeyError) and err.args:
        return _missing_key(err.args[0], frame, line)
    if "NoneType" in str(err):
        found = _nothing(frame, line, module, str(err))
        if found:
            return found
    return in_rules_words(str(err))


def not_open(decl) -> str | None:
    """Why an action or effect whose `when` does not hold is not open now,
    in the rules' words: its `else "reason"`, else the condition as written
    ("needs energy >= 1", names read with spaces); None where the rules say
    `else hidden` (it is not shown) or it has no condition."""
    if decl.when is None or decl.unlisted:
        return None
    if decl.otherwise is not None:
        return decl.otherwise
    span = decl.when.span
    lines = span.source.lines[span.line - 1:span.end_line] if span.source is not None else []
    if not lines:
        return "not now"
    if len(lines) == 1:
        text = lines[0][span.column - 1:span.end_column - 1]
    else:
        text = " ".join([lines[0][span.column - 1:], *lines[1:-1], lines[-1][:span.end_column - 1]])
    return "needs " + " ".join(text.replace("\\", " ").replace("_", " ").split())


def in_rules_words(text: str) -> str:
    """A Python exception's text said with the rules' words (a value of the
    wrong kind, if it is none of those known)."""
    for pattern, words in _PATTERNS:
        match = re.fullmatch(pattern, text)
        if match:
            return words.format(None, *(_KINDS.get(g, g) for g in match.groups()))
    return "a value of the wrong kind for what the rule does with it"


def _value(frame, local: str):
    """The value of a local of generated code (`L[3]`, `v12`), or a
    marker object when it cannot be read."""
    values = frame.f_locals
    if local.startswith("L["):
        slots = values.get("L")
        index = int(local[2:-1])
        return slots[index] if isinstance(slots, list) and index < len(slots) else _UNREAD
    return values.get(local, _UNREAD)


_UNREAD = object()


def _nothing(frame, line: str, module, message: str) -> str | None:
    """Which local of `line` is none, named as the rules name it and with
    where it became none, if a `let` made it."""
    for local in dict.fromkeys(re.findall(_LOCAL, line)):
        if _value(frame, local) is not None:
            continue
        name, origin = _let(module, frame.f_code.co_name, local)
        if name is None and frame.f_back is not None:  # a comprehension's frame: the rule's own is outside it
            name, origin = _let(module, frame.f_back.f_code.co_name, local)
        who = f"'{name}' is nothing" if name else "a value is nothing"
        who += f" ({origin})" if origin else ""
        field = re.search(r"\b(\w+)\[" + re.escape(local) + r"\]", line)
        if field and isinstance(module.lets.get(field.group(1)), str):
            return f"{who}, so it has no field '{module.lets[field.group(1)]}'"
        return f"{who}, where a value is needed"
    if "list indices" in message:  # a card computed in place, e.g. `top(deck).cost`
        fields = [module.lets[f] for f in re.findall(r"\b(\w+)\[", line) if isinstance(module.lets.get(f), str)]
        if fields:
            return f"a card is nothing (none), so it has no field '{fields[0]}'"
    return None


def _let(module, function: str, local: str) -> tuple:
    """(rules name, origin) of the `let` that made `local`, or of the local
    it is a copy of (a statement copies its operands into temporaries)."""
    found = module.lets.get((function, local))
    if found is None and not local.startswith("L["):  # temporaries are named once in a module
        copy = re.search(r"\b" + re.escape(local) + r" = (" + _LOCAL + r")(?:;|$)", module.text, re.M)
        found = module.lets.get((function, copy.group(1))) if copy else None
    return found or (None, None)


def _missing_key(key, frame, line: str) -> str:
    """A map lacks `key`: the map named (a parameter's) and its keys."""
    st = frame.f_locals.get("st") or (frame.f_back.f_locals.get("st") if frame.f_back is not None else None)
    params = getattr(getattr(st, "program", None), "params", {}) or {}
    names = re.findall(r"\bK\d+\b|" + _LOCAL, line)
    for token in dict.fromkeys(names):
        value = frame.f_globals.get(token) if token.startswith("K") else _value(frame, token)
        if isinstance(value, dict) and key not in value:
            name = next((p for p, v in params.items() if v is value), None)
            keys = ", ".join(render(k) for k in list(value)[:20]) + (", ..." if len(value) > 20 else "")
            what = f"map '{name}'" if name else "the map"
            return f"{what} has no key {render(key)}; its keys: {keys or 'none'}"
    return f"no key {render(key)} in the map"
