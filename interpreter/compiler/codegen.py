"""Python source generated from the checked AST, and the functions made from it.

Every rule becomes one Python function in one generated module (the way
Jinja2 compiles a template). Nothing a user wrote is ever part of the source
text: names in the rules are resolved to list indices, and every value from a
rules or card file (texts, lists, maps, field values) is passed in through
the module's namespace as a constant `K<n>`. Identifiers are made only by
`Module.name`, from a fixed set of prefixes, and `audit` re-checks the whole
source before it is compiled. The source is compiled with `compile()` and each
function is built from its code object, so no generated text is executed as a
module.
"""
from __future__ import annotations

import ast
import builtins
import re
import types

from ..errors import RulesError

# Names generated code may use: locals of rule functions, numbered names of
# values in the namespace, and helpers registered by prefix.
_LOCALS = re.compile(r"^(st|fr|L|pc|ctr|z|nf|ids|vals|rest|[vtsp]\d+)$")
_GLOBALS = re.compile(r"^([KFCDEX]\d+|SP\d+|R_[a-z_]+|B_[a-z_]+|S|BUDGET|CARD_IDS)$")
_BUILTINS = {"len", "tuple", "list", "range", "max", "min", "sum", "any", "all", "abs", "isinstance", "int", "map", "None", "True", "False"}
_ATTRIBUTES = {"me", "n", "first", "round", "turns", "ctr", "z", "loc", "rng", "decider", "point", "option_ids", "option_values", "frames", "steps",
               "cov", "lost", "end_round", "append", "extend", "pop", "index", "count", "__getitem__", "program", "codes"}


class Label:
    """A block number of a resumable rule function, known once the block is placed."""

    __slots__ = ("n",)

    def __init__(self):
        self.n = None


class Module:
    """Collects generated functions and the namespace they share."""

    def __init__(self, filename: str):
        self.filename = filename
        self.ns: dict = {"__builtins__": builtins}
        self.functions: list = []  # (name, text lines, span per line)
        self.rule_names: dict = {}  # function name -> rule name (for messages)
        self._values: dict = {}
        self._count: dict = {}
        self.line_spans: dict = {}  # line number of the module source -> span

    # -- names
    def name(self, prefix: str) -> str:
        n = self._count.get(prefix, 0)
        self._count[prefix] = n + 1
        return f"{prefix}{n}"

    def const(self, value) -> str:
        """A namespace name holding `value` (the same object gets one name)."""
        key = id(value)
        if key in self._values:
            return self._values[key][0]
        name = self.name("K")
        self._values[key] = (name, value)  # keeps `value` alive, so ids stay unique
        self.ns[name] = value
        return name

    def value(self, prefix: str, value) -> str:
        name = self.name(prefix)
        self.ns[name] = value
        return name

    def helper(self, name: str, fn) -> str:
        """Register a helper function as `name` (an `R_`/`B_` name)."""
        if not _GLOBALS.match(name):
            raise ValueError(f"not a helper name: {name}")
        self.ns[name] = fn
        return name

    # -- functions
    def add_function(self, name: str, rule: str, lines: list) -> None:
        """`lines`: (indent, text, span) with the `def` line first."""
        self.functions.append((name, lines))
        self.rule_names[name] = rule

    def source(self) -> str:
        out = []
        self.line_spans = {}
        for _, lines in self.functions:
            for indent, text, span in lines:
                out.append("    " * indent + text)
                if span is not None:
                    self.line_spans[len(out)] = span
            out.append("")
        return "\n".join(out) + "\n"

    def build(self) -> dict:
        """Compile every function; returns name -> function (also in the namespace)."""
        text = self.source()
        tree = ast.parse(text, self.filename)
        audit(tree, self.ns)
        code = compile(tree, self.filename, "exec")
        defaults = {f.name: tuple(ast.literal_eval(d) for d in f.args.defaults) for f in tree.body}
        made = {}
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                made[const.co_name] = types.FunctionType(const, self.ns, const.co_name, defaults[const.co_name] or None)
        self.ns.update(made)
        self.text = text
        return made

    def span_at(self, lineno: int):
        return self.line_spans.get(lineno)


def audit(tree, ns: dict) -> None:
    """Check that generated source uses only generated names and no texts.

    A failure here is a bug of the compiler, never of a rules file."""
    problems = []
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            ok = _LOCALS.match(node.id) or node.id in _BUILTINS or (_GLOBALS.match(node.id) and (node.id in ns or node.id in defined))
            if not ok:
                problems.append(f"name {node.id!r}")
        elif isinstance(node, ast.Attribute) and node.attr not in _ATTRIBUTES:
            problems.append(f"attribute {node.attr!r}")
        elif isinstance(node, ast.Constant) and not (node.value is None or isinstance(node.value, (int, bool))):
            problems.append(f"constant {node.value!r}")
        elif isinstance(node, ast.FunctionDef) and not re.match(r"^[CDEX]\d+$", node.name):
            problems.append(f"function {node.name!r}")
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef, ast.AsyncFunctionDef)):
            problems.append(type(node).__name__)
        elif isinstance(node, ast.arg) and not _LOCALS.match(node.arg):
            problems.append(f"argument {node.arg!r}")
    if problems:
        raise RulesError("internal error: generated code failed its audit: " + ", ".join(sorted(set(problems))[:10]))
