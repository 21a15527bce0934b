"""Parameters: their constant values, and `--set NAME=VALUE` overrides."""
from __future__ import annotations

import json
import re

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
    if isinstance(expr, n.Range):
        low, high = constant(expr.low, params), constant(expr.high, params)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
            raise RulesError("a range in a parameter goes from a number to a number", expr.span)
        if high - low >= limits.LIST_ITEMS:
            raise RulesError(f"this range has {high - low + 1:,} numbers; a parameter's list may have at most "
                             f"{limits.LIST_ITEMS:,} (the limit)", expr.span)
        return list(range(low, high + 1))
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


_KIND_PHRASE = {"yes/no": "yes or no", "number": "a number", "text": "text", "list": "a list", "map": "a map"}


def allowed_values(decl, params: dict):
    """The values parameter `decl` declares it may take: a list (`one of`),
    a (low, high) pair (`within`), or None when it does not say."""
    if decl.allowed is not None:
        values = constant(decl.allowed, params)
        if not isinstance(values, list) or not values:
            raise RulesError("`one of` needs a list of the values the parameter may take", decl.allowed.span)
        return values
    if decl.low is not None:
        if decl.low > decl.high:
            raise RulesError(f"the range {decl.low}..{decl.high} is empty: write the smaller number first", decl.span)
        return (decl.low, decl.high)
    return None


def permits(allowed, value) -> bool:
    if allowed is None:
        return True
    if isinstance(allowed, tuple):
        return isinstance(value, int) and not isinstance(value, bool) and allowed[0] <= value <= allowed[1]
    return any(type(value) is type(a) and value == a for a in allowed)


def describe_allowed(allowed) -> str:
    if isinstance(allowed, tuple):
        return f"a whole number from {allowed[0]} to {allowed[1]}"
    return "one of " + ", ".join(_shown(v) for v in allowed)


def _shown(value) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def evaluate_params(model: RulesModel, overrides: dict) -> tuple[dict, list]:
    """Every parameter's value, in the order they are declared (so a parameter
    computed from another sees its `--set` value), each within its allowed values."""
    params: dict = {}
    problems: list = []
    for name in overrides:
        if name not in model.params:
            hint = did_you_mean(name, model.params)
            problems.append(Diagnostic("error", f"--set {name}: no parameter named '{name}'", Span(None),
                                       hint or f"parameters: {', '.join(model.params)}"))
    for name, decl in model.params.items():
        try:
            default = constant(decl.value, params)
            allowed = allowed_values(decl, params)
        except RulesError as err:
            problems.extend(err.diagnostics)
            continue
        except TypeError:
            problems.append(Diagnostic("error", f"parameter '{name}' mixes values that cannot be combined", decl.value.span))
            continue
        odd = [a for a in allowed if type(a) is not type(default)] if isinstance(allowed, list) else []
        if odd:
            problems.append(Diagnostic("error", f"parameter '{name}' may be {_shown(odd[0])}, which is "
                                       f"{_KIND_PHRASE.get(_type_name(odd[0]), _type_name(odd[0]))}; its value {_shown(default)} is "
                                       f"{_KIND_PHRASE.get(_type_name(default), _type_name(default))}", decl.allowed.span,
                                       "list only values of the same kind as the parameter's"))
            continue
        if not permits(allowed, default):
            problems.append(Diagnostic("error", f"parameter '{name}' is {_shown(default)}, which its own allowed values "
                                       f"do not include", decl.value.span, f"expected {describe_allowed(allowed)}"))
        params[name] = default
        if name in overrides:
            value = _override(name, overrides[name], default, params, problems)
            if value is None:
                continue
            if not permits(allowed, value):
                problems.append(Diagnostic("error", f"--set {name}={overrides[name]}: '{name}' may be "
                                           f"{describe_allowed(allowed)}", Span(None)))
                continue
            params[name] = value
    return params, problems


def _plain_value(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_plain_value(v) for v in value)
    return isinstance(value, (bool, int, str))


# NaN and the infinities as Python, YAML and JSON write them: named in the
# message, where the parser would only say that the word is no constant.
_NOT_FINITE = re.compile(r"\s*[-+]?\.?(nan|inf|infinity)\s*$", re.IGNORECASE)


def _override(name, text, default, params, problems):
    """The value `--set NAME=TEXT` gives, or None (with the problem recorded).
    From Python, TEXT may be the value itself (`load_game(path, {"rounds": 8})`):
    it is written as rules text and read like any other."""
    if not isinstance(text, str):
        if not _plain_value(text):
            problems.append(Diagnostic("error", f"--set {name}: expected a number, a text, true or false, or a list of "
                                       f"them (written as in the rules), got a {type(text).__name__}"))
            return None
        text = json.dumps(text)
    if isinstance(default, str) and not text.strip().startswith('"'):
        return text.strip()  # a text parameter takes a bare word: --set level=hard
    if _NOT_FINITE.match(text):
        problems.append(Diagnostic("error", f"--set {name}={text.strip()}: not a finite number (the rules' numbers "
                                   "are whole numbers, written with digits)"))
        return None
    try:
        value = constant(parse_expression(text, Source(f"--set {name}", text)), params)
    except RulesError as err:
        problems.append(Diagnostic("error", f"--set {name}={text}: not a valid value ({err.diagnostics[0].message})"))
        return None
    if default is not None and type(value) is not type(default):
        problems.append(Diagnostic("error", f"--set {name}={text}: expected a {_type_name(default)} like the default "
                                   f"{default!r}, got a {_type_name(value)}"))
        return None
    return value
