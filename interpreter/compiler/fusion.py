"""`any x in A + B where C` tested without making the list A + B.

The actions' conditions are tested before every choice of an action, and
one often asks whether any card of a concatenation passes a test (`any c
in crew where ready(c)`, where `crew = area + [c for r in rooms for c in
inside of r]`): made as written, the list of the cards of B is
built by a comprehension, then joined to A, then walked, though the first
card of A may already pass. Fused, the test walks A, then B's loops as the
comprehension would (its conditions in place), and stops at the first card
that passes, making no list.

Only lists that never repeat a card are fused (a concatenation that may
repeat counts its size against the budget, see ExprGen.visit_Arith), seen
through definitions without parameters; a comprehension is walked in place
when it gives its last loop's variable and its inner loops go through zones
of a card (so that, as in the comprehension, they count no steps).
"""
from __future__ import annotations

import re
from contextlib import ExitStack

from ..language import nodes as n
from ..language.value_types import CARDS, LISTS, PLAYERS
from . import extremes
from .hoist import lifted


def parts(x, expr, names, seen=frozenset()) -> list:
    """[(list, its names)] whose concatenation is `expr`."""
    if isinstance(expr, n.Name) and expr.name not in names.access and expr.name not in seen:
        decl = x.model.defines.get(expr.name)
        if decl is not None and not decl.params:
            found = parts(x, decl.expr, type(names)(), seen | {expr.name})
            return found if len(found) > 1 or walked(x, found[0][0]) else [(expr, names)]
    if (isinstance(expr, n.Arith) and expr.op == "+" and x.type_of(expr.left, names) in (CARDS, PLAYERS)
            and x.type_of(expr.right, names) in (CARDS, PLAYERS) and x.distinct(expr, names)):
        return parts(x, expr.left, names, seen) + parts(x, expr.right, names, seen)
    return [(expr, names)]


def any_lines(x, lists: list, test, then: str) -> list:
    """Lines running `then` once if an item of the concatenation of `lists`
    passes `test` ((variable, its type, condition, names); None: any item
    at all), as (depth, text)."""
    lines, last = _walk(x, lists[0], test, [then] if then.startswith("return ") else [then, "break"])
    for k in range(last - 1, -1, -1):  # out of every loop once an item passed
        lines += [(k + 1, "else:"), (k + 2, "continue"), (k + 1, "break")]
    if lists[1:]:
        lines.append((0, "else:"))
        lines += [(depth + 1, text) for depth, text in any_lines(x, lists[1:], test, then)]
    return lines


def truth_lines(x, expr, names, target: str):
    """Lines setting `target` to whether the condition `expr` holds, where
    it asks whether a list has an item (`size(L) > 0`, `any x in L where
    C`, alone or in `and`, `or`, `not`): the list is walked until its first
    item, not made; None (nothing generated) where no list is walked."""
    found = _exists(x, expr, names)
    if found is not None:
        lists, test, holds = found
        lines = [(0, f"{target} = False"), *any_lines(x, lists, test, f"{target} = True")]
        return lines if holds else lines + [(0, f"{target} = not {target}")]
    if isinstance(expr, n.Not):
        inner = truth_lines(x, expr.operand, names, target)
        return None if inner is None else inner + [(0, f"{target} = not {target}")]
    if not isinstance(expr, n.BoolOp) or not any(_walks(x, op, names) for op in expr.operands):
        return None
    lines = []
    for k, op in enumerate(expr.operands):  # each operand only where the ones before did not decide
        own = truth_lines(x, op, names, target) or [(0, f"{target} = {x.visit(op, names)}")]
        lines += own if k == 0 else [(0, f"if {'' if expr.op == 'and' else 'not '}{target}:"),
                                     *((depth + 1, text) for depth, text in own)]
    return lines


def _walks(x, expr, names) -> bool:
    """Whether `truth_lines` walks a list for `expr`."""
    if isinstance(expr, n.Not):
        return _walks(x, expr.operand, names)
    if isinstance(expr, n.BoolOp):
        return any(_walks(x, op, names) for op in expr.operands)
    return _exists(x, expr, names) is not None


_SOME = {(">", 0): True, ("!=", 0): True, (">=", 1): True, ("==", 0): False, ("<=", 0): False, ("<", 1): False}


def _exists(x, expr, names):
    """(lists, test, whether an item makes it hold) where `expr` asks whether
    a list that can be walked has an item (that passes a test); else None."""
    if isinstance(expr, n.Aggregate) and expr.op == "any" and expr.cond is not None:
        element = x.types.element(expr.iterable, names.types)
        return parts(x, expr.iterable, names), (expr.var, element, expr.cond, names), True
    if not (isinstance(expr, n.Compare) and isinstance(expr.left, n.Call) and expr.left.name == "size"
            and expr.left.name not in x.model.defines and isinstance(expr.right, n.Literal)
            and (expr.op, expr.right.value) in _SOME and type(expr.right.value) is int):
        return None
    lists = parts(x, expr.left.args[0], names)
    if len(lists) < 2 and not walked(x, lists[0][0]):
        return None  # (the size of a zone is its length: nothing to walk)
    return lists, None, _SOME[(expr.op, expr.right.value)]


# How each fold keeps its value as the items come: (first value, lines for an item).
_FOLDS = {"max": ("None", ["{x} = {item}", "if {t} is None or {x} > {t}: {t} = {x}"]),
          "min": ("None", ["{x} = {item}", "if {t} is None or {x} < {t}: {t} = {x}"]),
          "sum": ("0", ["{t} += {item}"]),
          "count": ("0", ["{t} += 1"])}
_FOLDS["highest"], _FOLDS["lowest"] = _FOLDS["max"], _FOLDS["min"]
_NUMBER = re.compile(r"-?\d+")


def fold_lines(x, expr, names):
    """(lines setting a new name to the value of `expr`, the name) where it
    folds a list made by a comprehension: `sum`, `count`, `highest` or
    `lowest` of an aggregate, or `max` or `min` of a concatenation of lists
    one of which is a comprehension of one loop and one of which is written
    out with an item (so it is never empty). The lists are walked
    in place (each part of a concatenation of cards, as `parts` gives
    them), and no list is made; the items come in the same order, so the
    value is the same. None where `expr` is not such."""
    expr, names = defined(x, expr, names)
    if isinstance(expr, n.Aggregate) and expr.op in _FOLDS:
        op, lists = expr.op, [(expr.var, expr.iterable, expr.cond, expr.expr)]
    elif (isinstance(expr, n.Call) and expr.name in ("max", "min") and expr.name not in x.model.defines
          and len(expr.args) == 1):
        op, lists = expr.name, [_folded(part) for part in _concatenated(x, expr.args[0], names)]
        if not any(isinstance(part, tuple) for part in lists):
            return None  # (nothing to walk: the list is made anyway)
        if not any(isinstance(part, n.ListLit) and part.items for part in lists):
            return None  # (`max` of an empty list is an error, as the language says)
    else:
        return None
    first, then = _FOLDS[op]
    target, item = x.module.name("t"), x.module.name("t")
    then = [line.replace("{t}", target).replace("{x}", item) for line in then]
    lines = [(0, f"{target} = {first}")]
    for part in lists:
        if isinstance(part, tuple):  # (variable, list, condition, value) of a comprehension
            var, iterable, cond, value = part
            element = x.types.element(iterable, names.types)
            test = None if cond is None else (var, element, cond, names)
            for walk in parts(x, iterable, names):
                lines += _walk(x, walk, test, then, (var, element, value, names))[0]
        else:
            for value in part.items if isinstance(part, n.ListLit) else (part,):
                if not isinstance(part, n.ListLit):
                    lines += _walk(x, (part, names), None, then)[0]
                    continue
                text = x.visit(value, names)
                if _NUMBER.fullmatch(text) and then[0] == f"{item} = {{item}}":  # (a number compared as written)
                    lines += [(0, line.replace(item, text)) for line in then[1:]]
                else:
                    lines += [(0, line.replace("{item}", text)) for line in then]
    return lines, target


def defined(x, expr, names) -> tuple:
    """(expression, names) that `expr` stands for, seen through definitions
    without parameters; each is followed once, so definitions naming one
    another in a circle stop where one comes back (the run reports them)."""
    seen = set()
    while isinstance(expr, n.Name) and expr.name not in names.access and expr.name not in seen:
        decl = x.model.defines.get(expr.name)
        if decl is None or decl.params:
            break
        seen.add(expr.name)
        expr, names = decl.expr, type(names)()
    return expr, names


def _folded(part):
    """A comprehension of one loop as (variable, list, condition, value), or `part`."""
    if isinstance(part, n.Comprehension) and len(part.loops) == 1:
        return (*part.loops[0], part.cond, part.expr)
    return part


def _concatenated(x, expr, names) -> list:
    """The lists whose concatenation is the list `expr`."""
    if isinstance(expr, n.Arith) and expr.op == "+" and x.type_of(expr, names) in LISTS:
        return _concatenated(x, expr.left, names) + _concatenated(x, expr.right, names)
    return [expr]


def list_lines(x, lists: list, target: str, test=None) -> list:
    """Lines making `target` a new list of the items of the concatenation
    of `lists` (those that pass `test`: (variable, its type, condition,
    names), if given), as (depth, text)."""
    lines = [(0, f"{target} = []")]
    for part in lists:
        lines += _walk(x, part, test, [f"{target}.append({{item}})"])[0]
    if lines[1][1].startswith(f"{target}.extend("):  # the first part taken whole: copied
        lines[:2] = [(0, f"{target} = list({lines[1][1][len(target) + 8:-1]})")]
    return lines


def _walk(x, part_and_scope, test, then: list, value=None):
    """(lines walking one part, running the lines `then` (`{item}`: the
    item's source, or with `value`, (variable, its type, expression, names),
    the value of that expression for the item) for each item that passes
    `test`; the depth of the innermost loop)."""
    part, scope = part_and_scope
    in_place = walked(x, part)
    loops, where = (part.loops, part.cond) if in_place else (((None, part),), None)
    with ExitStack() as stack:
        fors, frames = [], []
        for var, iterable in loops:
            v = x.module.name("v")
            source, guard = x.loop(iterable, scope, v)
            frames.append(stack.enter_context(x.hoist.loop(v)))
            fors.append((v, source, guard))
            if var is not None:
                scope = scope.bind(var, v, x.types.element(iterable, scope.types))
        tests = [fors[-1][2]] if fors[-1][2] else []
        x._depth += 1  # inside the loops (as a comprehension): a loop of a condition counts its steps
        try:
            if where is not None:
                tests.append(x.visit(where, scope))
            item = fors[-1][0]
            if test is not None:
                var, element, cond, names = test
                inner = names.bind(var, item, element)
                tops = None if in_place else extremes.filtered(x, part, scope, item, cond, inner)
                if tops is None:
                    tests.append(x.visit(cond, inner))
                else:  # (a zone, never slotted: no guard)
                    fors[-1] = (item, tops[0], None)
                    tests += [tops[1]] if tops[1] is not None else []
            if value is not None and value[2] is not None:
                var, element, expr, names = value
                item = x.visit(expr, names.bind(var, item, element))
        finally:
            x._depth -= 1
    last = len(fors) - 1
    if not last and not tests and then[0].endswith(".append({item})"):  # a part taken whole
        x.numbered("", fors[0][0])
        return [(0, then[0].replace(".append({item})", f".extend({fors[0][1]})"))], 0
    steady, tests = lifted(x.module, tests)
    lines = [(0, line) for line in steady]
    for k, (v, source, guard) in enumerate(fors):
        lines += [(k, line) for line in frames[k].lines()]
        lines.append((k, x.numbered(f"for {v} in {source}:", v)))
        if guard and k < last:
            lines.append((k + 1, f"if not ({guard}): continue"))
    if tests:
        lines.append((last + 1, f"if {' and '.join(tests)}:"))
    lines += [(last + 1 + bool(tests), line.replace("{item}", item)) for line in then]
    return lines, last


def walked(x, part) -> bool:
    """Whether the comprehension `part` can be walked in place."""
    return (isinstance(part, n.Comprehension) and isinstance(part.expr, n.Name)
            and part.expr.name == part.loops[-1][0]
            and all(isinstance(it, n.NameOf) and it.name in x.p.zones for _, it in part.loops[1:]))
