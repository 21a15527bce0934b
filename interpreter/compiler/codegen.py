"""Python source generated from the checked AST, and the functions made from it.

Every rule becomes one Python function in one generated module (the way
Jinja2 compiles a template), named after the rule (`procedure_recruit`,
`effect_draw`, `at_end_of_turn`) and preceded by comments that give the rule
and, above the code each statement became, the rules file's line. Nothing a
user wrote is ever part of the code: names in the rules are resolved to list
indices, and every value from a rules or card file (texts, lists, maps, field
values) is passed in through the module's namespace as a constant `K<n>`.
User text appears only in comments, one line each with every unprintable
character replaced, and in function names made of the rule's name (which the
grammar limits to letters, digits and underscores). Every name the code uses
is made or registered by the `Module`. The source is compiled with
`compile()`, and `audit` checks the code objects against that list before
any function is made from them (each is built from its code object, so no
generated text is executed as a module).

The `compile` command of the CLI prints the module's source.
"""
from __future__ import annotations

import ast
import builtins
import functools
import itertools
import linecache
import re
import types
import weakref

from ..errors import RulesError
from ..runtime import audit as audited
from ..runtime.built import BUILT

# Names generated code may use: locals of rule functions, numbered names of
# values in the namespace, and helpers registered by prefix.
_LOCALS = re.compile(r"^(st|fr|L|pc|ctr|z|me|nf|ids|vals|rest|[vtspm]\d+)$")
_HELPERS = re.compile(r"^(R_[a-z_]+|B_[a-z_]+|S|BUDGET|CARD_IDS)$")
_BUILTINS = {"len", "tuple", "list", "range", "max", "min", "sum", "any", "all", "abs", "isinstance", "int", "map",
             "enumerate", "None", "True", "False", "Exception"}
_ATTRIBUTES = {"me", "n", "first", "round", "turns", "ctr", "z", "loc", "rng", "decider", "point", "option_ids",
               "option_values", "frames", "steps", "cov", "events", "lost", "end_round", "append", "extend", "pop", "index",
               "count", "__getitem__", "setdefault", "program", "codes", "phase", "passed", "auto"}
_serial = itertools.count(1)


class Label:
    """A block number of a resumable rule function, known once the block is placed."""

    __slots__ = ("n",)

    def __init__(self):
        self.n = None


class Module:
    """Collects generated functions and the namespace they share."""

    def __init__(self, source_name: str):
        # A file name of its own, so tracebacks (with --debug) show the generated line.
        self.filename = f"<generated from {source_name} #{next(_serial)}>"
        self.ns: dict = {"__builtins__": builtins}
        self.functions: list = []  # (name, lines): each line (indent, text, span)
        self.rule_names: dict = {}  # function name -> the rule it belongs to ("procedure draw")
        self.rule_spans: dict = {}  # function name -> the span of the rule's declaration
        self.titles: dict = {}  # function name -> its heading, for a function of no rule of its own
        # What run-time errors name (runtime/explain.py): (function name, local) -> (the rules'
        # name for it, how a `let` may have made it none); a card field's list -> the field.
        self.lets: dict = {}
        self.names: set = set()  # every global name made or registered here
        self._values: dict = {}
        self._count: dict = {}
        self.line_spans: dict = {}  # line number of the module source -> span
        self.text = ""

    # -- names
    def name(self, prefix: str) -> str:
        n = self._count.get(prefix, 0)
        self._count[prefix] = n + 1
        name = f"{prefix}{n}"
        self.names.add(name)
        return name

    def function_name(self, hint: str) -> str:
        """A new function name made of `hint` (a rule's kind and name): only
        ASCII letters, digits and underscores are kept, and a number is added
        if the name is taken."""
        base = re.sub(r"[^A-Za-z0-9_]+", "_", hint).strip("_") or "rule"
        if not base[0].isalpha():
            base = "rule_" + base
        name, k = base, 1
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        return name

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

    def named_value(self, hint: str, value) -> str:
        """A namespace name made of `hint` (as `function_name`) holding `value`."""
        name = self.function_name(hint)
        self.ns[name] = value
        return name

    def helper(self, name: str, fn) -> str:
        """Register a helper as `name` (an `R_`/`B_` function, or one of the
        values every rule function shares)."""
        if not _HELPERS.match(name):
            raise ValueError(f"not a helper name: {name}")
        self.ns[name] = fn
        self.names.add(name)
        return name

    # -- functions
    def add_function(self, name: str, rule: str, lines: list, span=None, title=None) -> None:
        """`lines`: (indent, text, span) with the `def` line first; `span`:
        where the rule is declared. A function of no rule of its own (`rule`
        empty, a `title` heading it instead) is named by the rule calling
        it when an error is reported, as a comprehension is."""
        self.functions.append((name, lines))
        self.rule_names[name] = rule
        self.rule_spans[name] = span
        if title is not None:
            self.titles[name] = title

    def source(self, only=None) -> str:
        """The module's text (or, with `only`, the text of those functions)."""
        out = []
        line_spans = {}
        for name, lines in self.functions:
            if only is not None and name not in only:
                continue
            where = self.rule_spans.get(name)
            heading = self.titles.get(name) or self.rule_names[name]
            out.append(_comment(heading + (f" ({where.filename}:{where.line})" if where and where.source else "")))
            shown = None
            for indent, text, span in lines:
                if span is not None and span.source and (span.source.name, span.line) != shown:
                    shown = (span.source.name, span.line)
                    out.append("    " * indent + _comment(f"{span.line}: {span.source.line(span.line).strip()}"))
                out.append("    " * indent + text)
                if span is not None:
                    line_spans[len(out)] = span
            out.append("")
        if only is None:
            self.line_spans = line_spans
        return "\n".join(out) + "\n"

    def constants_in(self, text: str) -> list:
        """(name, value) of each namespace constant `text` uses, in order."""
        names = dict.fromkeys(re.findall(r"\bK\d+\b", text))
        return [(name, self.ns[name]) for name in names if name in self.ns]

    def rules(self) -> list:
        """The names of the rules that have generated functions."""
        return [rule for rule in dict.fromkeys(self.rule_names.values()) if rule]

    def functions_of(self, rule: str) -> list:
        """The names of the functions generated for the rule named `rule`
        (`draw`, `setup`, `start of turn`): its own and its labels'."""
        return [name for name, _ in self.functions
                if self.rule_names[name] == rule or self.rule_names[name].endswith(" " + rule)]

    def build(self) -> dict:
        """Compile every function; returns name -> function (also in the namespace)."""
        text = self.source()
        code, defaults = _compiled(text, frozenset(self.names))
        code = _renamed(code, self.filename)
        made = audited.functions(code, self.ns, defaults)
        self.ns.update(made)
        self.text = text
        linecache.cache[self.filename] = (len(text), None, text.splitlines(True), self.filename)
        BUILT[self.filename] = self
        weakref.finalize(self, linecache.cache.pop, self.filename, None)
        return made

    def span_at(self, lineno: int):
        return self.line_spans.get(lineno)

@functools.lru_cache(maxsize=16)
def _compiled(text: str, names: frozenset) -> tuple:
    """The audited code object of a generated module and its functions'
    default values. Code objects are immutable, so a game loaded again with
    the same rules (a test suite, a server, a language server) reuses them;
    each load still makes its own functions over its own namespace."""
    code = audited.compiled(text, _UNNAMED, _allowed(names))
    return code, _defaults(text)


_DEF = re.compile(r"^def (\w+)\((.*)\):$", re.M)


def _defaults(text: str) -> dict:
    """Each generated function's default values, read from its `def` line
    (literals only: the audit has seen them among the module's constants)."""
    return {m.group(1): tuple(ast.literal_eval(arg.split("=", 1)[1]) for arg in m.group(2).split(", ") if "=" in arg)
            for m in _DEF.finditer(text)}


_UNNAMED = "<generated>"


def _renamed(code: types.CodeType, filename: str) -> types.CodeType:
    """`code` and the code nested in it as compiled from `filename` (each
    module's own name, by which tracebacks find its source and rule lines)."""
    consts = tuple(_renamed(c, filename) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def _comment(text: str) -> str:
    """A one-line comment: unprintable characters (line ends among them) replaced."""
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return "# " + (text if len(text) <= 150 else text[:147] + "...")


def audit(code: types.CodeType, names: set) -> None:
    """Check the compiled generated code, before any of it runs
    (runtime/audit.py): it uses only the names the module made or registered
    (as globals or attributes), locals of the generated kinds, constants that
    are numbers, and none of import, class, global or async.

    A failure here is a bug of the compiler, never of a rules file."""
    audited.audit(code, _allowed(names))


def _allowed(names) -> audited.Allowed:
    return audited.Allowed(frozenset(names) | _NAMES, _LOCALS)


_NAMES = frozenset(_BUILTINS | _ATTRIBUTES)
