"""What `tune` searches and aims at: parameters (`--param`), targets
(`--target`), candidate values as `--set` overrides, and the variant file
that records the best values.

A parameter is a `param` of the rules, or one element of a list or map
parameter: `NAME=LOW..HIGH` (whole numbers: the rules language has no
others), `NAME=a,b,c` (one of these values), `NAME[i]=...` (element i of a
list, or the value under key i of a map). Elements of one parameter are
put back together into one `--set`, as if the whole list had been written.
A target is `METRIC=LOW..HIGH`: a metric of the simulate summary by its JSON
name (`first_player_advantage`, `turns`, `win_rate_by_seat[0]`, ...) or a
`compare` metric id (`win_rate_seat_0`, `points:LABEL`).
"""
from __future__ import annotations

import copy
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import RulesError
from .metrics import metric_id

_WHOLE = re.compile(r"^[+-]?\d+$")
_TARGET_NAME = re.compile(r"^[A-Za-z_][\w:]*(\[[^\]]+\])?$")
_PARAM_NAME = re.compile(r"^([A-Za-z_]\w*)(\[([^\]]+)\])?$")


def _number(text: str, what: str, whole: bool = True):
    text = text.strip()
    if _WHOLE.match(text):
        return int(text)
    try:
        value = float(text)
    except ValueError:
        raise RulesError(f"{what}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise RulesError(f"{what}: '{text}' is not a finite number")
    if whole:
        raise RulesError(f"{what}: '{text}' is not a whole number (the rules' numbers are whole)")
    return value


def _bounds(text: str, what: str, whole: bool = True):
    low_text, _, high_text = text.partition("..")
    low, high = _number(low_text, what, whole), _number(high_text, what, whole)
    if low > high:
        raise RulesError(f"{what}: the range {text} is empty (LOW must not exceed HIGH)")
    return low, high


@dataclass(frozen=True)
class Param:
    """One searched value: a parameter, or an element of one."""

    name: str  # the parameter's name in the rules
    key: object  # None, or the list index / map key of the element
    low: int = 0  # a range of whole numbers,
    high: int = 0
    choices: tuple = ()  # or one of these values

    @property
    def label(self) -> str:
        return self.name if self.key is None else f"{self.name}[{self.key}]"

    @property
    def kind(self) -> str:
        return "choice" if self.choices else "int"

    def contains(self, value) -> bool:
        if self.choices:
            return any(type(value) is type(c) and value == c for c in self.choices)
        return type(value) is int and self.low <= value <= self.high

    def describe(self) -> str:
        if self.choices:
            return f"{self.label} in {', '.join(value_text(c) for c in self.choices)}"
        return f"{self.label} in {self.low}..{self.high}"


def _choice(text: str, what: str):
    text = text.strip()
    if not text:
        raise RulesError(f"{what}: an empty value in the list")
    if _WHOLE.match(text):
        return int(text)
    if text in ("true", "false"):
        return text == "true"
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return text


def parse_param(text: str) -> Param:
    """`NAME=LOW..HIGH`, `NAME=a,b,c`, or either with `NAME[i]`."""
    what = f"--param {text}"
    name, eq, values = text.partition("=")
    m = _PARAM_NAME.match(name.strip())
    if not eq or not m or not values.strip():
        raise RulesError(f"{what}: expected NAME=LOW..HIGH, NAME=a,b,c or NAME[i]=LOW..HIGH")
    key = None
    if m.group(3) is not None:
        raw = m.group(3).strip()
        key = int(raw) if _WHOLE.match(raw) else _choice(raw, what)
    if ".." in values:
        low, high = _bounds(values, what)
        return Param(m.group(1), key, low, high)
    choices = tuple(_choice(v, what) for v in values.split(","))
    if len(set(map(repr, choices))) < 2:
        raise RulesError(f"{what}: give a range LOW..HIGH or at least two values a,b (to fix a value, use --set)")
    return Param(m.group(1), key, choices=choices)


@dataclass(frozen=True)
class Target:
    name: str  # as given
    metric: str  # the metric id
    low: float
    high: float

    @property
    def scale(self) -> float:
        """The unit of distance to the target: its width (1 for a point)."""
        return self.high - self.low if self.high > self.low else 1.0

    def distance(self, value: float) -> float:
        """How far `value` lies outside the range, in target widths."""
        if value != value:
            return math.inf
        return max(0.0, self.low - value, value - self.high) / self.scale


def parse_target(text: str) -> Target:
    what = f"--target {text}"
    name, eq, bounds = text.partition("=")
    name = name.strip()
    if not eq or not _TARGET_NAME.match(name) or ".." not in bounds:
        raise RulesError(f"{what}: expected METRIC=LOW..HIGH, e.g. first_player_advantage=-0.02..0.02")
    low, high = _bounds(bounds, what, whole=False)
    return Target(name, metric_id(name), float(low), float(high))


def check_params(params: list, defaults: dict) -> None:
    """Every searched parameter exists, and its values have the default's type."""
    from ..errors import did_you_mean

    labels = set()
    for p in params:
        if p.label in labels:
            raise RulesError(f"--param {p.label} is given twice")
        labels.add(p.label)
        if p.name not in defaults:
            hint = did_you_mean(p.name, defaults)
            raise RulesError(f"--param {p.label}: the rules have no parameter '{p.name}'",
                             hint=hint or f"parameters: {', '.join(defaults)}")
        default = defaults[p.name]
        if p.key is not None:
            default = _element(default, p)
        elif isinstance(default, (list, dict)):
            raise RulesError(f"--param {p.label}: '{p.name}' is a {'list' if isinstance(default, list) else 'map'}; "
                             f"tune one element of it, e.g. {p.name}[{_first_key(default)}]=LOW..HIGH")
        _check_type(p, default)


def _first_key(value):
    return 0 if isinstance(value, list) else next(iter(value), 0)


def _element(value, p: Param):
    if isinstance(value, list):
        if not isinstance(p.key, int) or not -len(value) <= p.key < len(value):
            raise RulesError(f"--param {p.label}: '{p.name}' has elements 0 to {len(value) - 1}")
        return value[p.key]
    if isinstance(value, dict):
        if p.key not in value:
            raise RulesError(f"--param {p.label}: '{p.name}' has no key {p.key!r} (keys: "
                             f"{', '.join(map(str, value))})")
        return value[p.key]
    raise RulesError(f"--param {p.label}: '{p.name}' is not a list or a map")


def _check_type(p: Param, default) -> None:
    values = p.choices or (p.low, p.high)
    for v in values:
        if type(v) is not type(default):
            kind = {bool: "yes/no", int: "whole number", str: "text"}.get(type(default), "value")
            raise RulesError(f"--param {p.label}: expected a {kind} like the rules' {value_text(default)}, "
                             f"got {value_text(v)}")


def quoted(text: str) -> str:
    """A text as a string of the rules language (escaped as the parser reads it)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'


def value_text(value) -> str:
    """A value as the rules language writes a constant.

    >>> value_text([4, -5, "x", True, {2: [1, 3]}])
    '[4, -5, "x", true, {2: [1, 3]}]'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{value_text(k)}: {value_text(v)}" for k, v in value.items()) + "}"
    raise RulesError(f"cannot write {value!r} as a rules value")


def overrides(params: list, values: dict, defaults: dict) -> dict:
    """The `--set` texts of one candidate: {parameter: value text}, elements
    of one parameter put back into a copy of its default."""
    whole: dict = {}
    for p in params:
        value = values[p.label]
        if p.key is None:
            whole[p.name] = value
            continue
        container = whole.setdefault(p.name, copy.deepcopy(defaults[p.name]))
        container[p.key] = value
    return {name: value_text(v) for name, v in sorted(whole.items())}


def space_size(params: list) -> int:
    """How many different candidates there are."""
    total = 1
    for p in params:
        total *= len(p.choices) if p.choices else p.high - p.low + 1
    return total


def variant_text(base: str, out: str, title: str, sets: dict, comments: list) -> str:
    """A rules file that extends `base` with `sets` overridden, `comments`
    (lines of evidence) above; `out` is where it will be written (the
    `extends` path is relative to it)."""
    rel = os.path.relpath(Path(base).resolve(), Path(out).resolve().parent).replace(os.sep, "/")
    lines = [f"# {c}" if c else "#" for c in comments]
    lines += [f"extends {quoted(rel)}", f"override game {quoted(title + ' (tuned)')}", ""]
    lines += [f"override param {name} = {text}" for name, text in sets.items()]
    return "\n".join(lines) + "\n"
