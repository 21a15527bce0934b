"""Parameters: their constant values, and `--set NAME=VALUE` overrides."""
from __future__ import annotations

from .. import limits
from ..errors import Diagnostic, RulesError, Source, Span, did_you_mean
from . import nodes as n
from .model import RulesModel
from .parser import parse_expression


def constant(expr: n.Expr, params: dict):
    """Evaluate a parameter's value: literals, lists, maps, arithmetic, other parameters."""
    if isinstance(expr, n.Literal):
        return expr.value
    if isinstance(expr, n.ListLit):
        return [constant(i, params) for i in expr.items]
    if isinstance(expr, n.MapLit):
        return {constant(k, params): constant(v, params) for k, v in expr.items}
    if isinstance(expr, n.Neg):
        return -constant(expr.operand, params)
    if isinstance(expr, n.Arith):
        a, b = constant(expr.left, params), constant(expr.right, params)
        if expr.op in ("//", "%") and b == 0:
            raise RulesError("division by zero in a parameter", expr.span)
        _check_size(expr, a, b)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "//": lambda: a // b, "%": lambda: a % b}[expr.op]()
    if isinstance(expr, n.Name) and expr.name in params:
        return params[expr.name]
    raise RulesError("a parameter's value must be a constant (numbers, text, lists, maps and other parameters)", expr.span)


def _check_size(expr: n.Arith, a, b) -> None:
    """Refuse a list or text that would grow past the budget, before it is made."""
    if expr.op not in ("*", "+"):
        return
    sized = [v for v in (a, b) if isinstance(v, (list, str))]
    if not sized:
        return
    if expr.op == "*":
        count = [v for v in (a, b) if isinstance(v, int) and not isinstance(v, bool)]
        length = len(sized[0]) * max(count[0], 0) if count else 0
    else:
        length = sum(len(v) for v in sized)
    if length > limits.LIST_ITEMS:
        what, items = ("list", "items") if isinstance(sized[0], list) else ("text", "characters")
        raise RulesError(f"this parameter's {what} would have {length:,} {items}; a parameter's {what} may have "
                         f"at most {limits.LIST_ITEMS:,} (the limit)", expr.span)


def _type_name(value) -> str:
    return {bool: "yes/no", int: "number", str: "text", list: "list", dict: "map"}.get(type(value), type(value).__name__)


def evaluate_params(model: RulesModel, overrides: dict) -> tuple[dict, list]:
    params: dict = {}
    problems: list = []
    for name, decl in model.params.items():
        try:
            params[name] = constant(decl.value, params)
        except RulesError as err:
            problems.extend(err.diagnostics)
        except TypeError:
            problems.append(Diagnostic("error", f"parameter '{name}' mixes values that cannot be combined", decl.value.span))
    for name, text in overrides.items():
        source = Source(f"--set {name}", text)
        if name not in model.params:
            hint = did_you_mean(name, model.params)
            problems.append(Diagnostic("error", f"--set {name}: no parameter named '{name}'", Span(None), hint or f"parameters: {', '.join(model.params)}"))
            continue
        if isinstance(params.get(name), str) and not text.strip().startswith('"'):
            params[name] = text.strip()  # a text parameter takes a bare word: --set level=hard
            continue
        try:
            value = constant(parse_expression(text, source), params)
        except RulesError as err:
            problems.append(Diagnostic("error", f"--set {name}={text}: not a valid value ({err.diagnostics[0].message})"))
            continue
        default = params.get(name)
        if default is not None and type(value) is not type(default):
            problems.append(Diagnostic("error", f"--set {name}={text}: expected a {_type_name(default)} like the default {default!r}, got a {_type_name(value)}"))
            continue
        params[name] = value
    return params, problems
