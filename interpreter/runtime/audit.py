"""The one path by which generated Python becomes functions.

The interpreter writes Python source in a few places: the compiled rules
(compiler/codegen.py), the state's `clone` (engine/state.py), a bot's read
of the numbers a value depends on (agents/recall.py) and a viewer's
observer (observation.py). Each compiles it here, and the code objects are
audited before any function is made from them: the code uses only the
globals and attributes it declares, locals of the kinds it declares, and
numbers (plus the fixed words it declares) as constants; no import, class,
`global` or async. Nothing of a rules or card file is ever part of the
source: names and texts reach generated code as values of its namespace.

A failure here is a bug of the interpreter, never of a rules file.
"""
from __future__ import annotations

import inspect
import opcode
import re
import types
from dataclasses import dataclass

from ..errors import RulesError


@dataclass(frozen=True)
class Allowed:
    """What audited code may hold."""

    names: frozenset  # globals and attributes it may use, and the names of the functions it defines
    locals: re.Pattern  # the names its locals and arguments may have
    words: frozenset = frozenset()  # the texts it may hold as constants (the rest: numbers and None)


def audit(code: types.CodeType, allowed: Allowed) -> None:
    """Check compiled generated code, before any of it runs."""
    problems: list = []
    _audit_code(code, allowed, problems, module=True)
    if problems:
        raise RulesError("internal error: generated code failed its audit: " + ", ".join(sorted(set(problems))[:10]))


def compiled(source: str, filename: str, allowed: Allowed) -> types.CodeType:
    """The audited code object of generated `source`."""
    code = compile(source, filename, "exec")
    audit(code, allowed)
    return code


def functions(code: types.CodeType, namespace: dict, defaults: dict = None) -> dict:
    """Name -> function, for each function an audited module code object
    defines, over `namespace` (their globals), with `defaults` (name ->
    default values) where given."""
    defaults = defaults or {}
    return {c.co_name: types.FunctionType(c, namespace, c.co_name, defaults.get(c.co_name) or None)
            for c in code.co_consts if isinstance(c, types.CodeType)}


def function(source: str, name: str, namespace: dict, allowed: Allowed, filename: str) -> types.FunctionType:
    """The function `name` that `source` defines, compiled and audited, over
    `namespace` (its globals)."""
    return functions(compiled(source, filename, allowed), namespace)[name]


_NESTED = {"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<lambda>"}
_REFUSED_OPS = {opcode.opmap[op]: op for op in ("IMPORT_NAME", "IMPORT_FROM", "IMPORT_STAR", "STORE_GLOBAL",
                                              "DELETE_GLOBAL", "LOAD_BUILD_CLASS") if op in opcode.opmap}
_ASYNC = inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE


def _audit_code(code: types.CodeType, allowed: Allowed, problems: list, module: bool = False) -> None:
    names, local = allowed.names, allowed.locals
    problems.extend(f"name {name!r}" for name in code.co_names if name not in names)
    problems.extend(f"local {name!r}" for name in (*code.co_varnames, *code.co_cellvars, *code.co_freevars)
                    if name != ".0" and not local.match(name))
    problems.extend(_REFUSED_OPS[op] for op in set(code.co_code[::2]) & _REFUSED_OPS.keys())
    if code.co_flags & _ASYNC:
        problems.append("async")
    if not module and code.co_name not in _NESTED and (code.co_name not in names or local.match(code.co_name)):
        problems.append(f"function {code.co_name!r}")
    _audit_constants(code.co_consts, allowed, problems)


def _audit_constants(values, allowed: Allowed, problems: list) -> None:
    for value in values:
        if isinstance(value, types.CodeType):
            _audit_code(value, allowed, problems)
        elif isinstance(value, (tuple, frozenset)):
            _audit_constants(value, allowed, problems)
        elif not (value is None or isinstance(value, int) or (type(value) is str and value in allowed.words)):
            problems.append(f"constant {value!r}")  # (int: True and False too)
