"""Whose mistake an exception raised while running rules is.

Generated code evaluates the designer's expressions directly, so a value the
rules got wrong (a division by zero, an index outside a list, a key missing
from a map, arithmetic on none) raises a plain Python exception inside a
generated function, a built-in's implementation or a helper that computes
with rules values. Those are the designer's: reported at the rules line with
what went wrong. Anything raised elsewhere (the engine, the compiler's own
machinery), or of a kind no rules value can cause, is an internal error: it
names the rule being run and asks for a report.
"""
from __future__ import annotations

from ..errors import Diagnostic, InternalError, RulesError, RulesRuntimeError
from ..language.builtins import FUNCTIONS, VALUES
from .values import VALUE_CODE
from .built import BUILT
from .explain import explain, in_rules_words

# Exceptions a value of the rules can cause in code that computes with it.
VALUE_ERRORS = (ArithmeticError, TypeError, IndexError, KeyError, ValueError)
# Functions that compute with values of the rules: what they raise is about those values.
_VALUE_CODE = frozenset([b.fn.__code__ for b in (*FUNCTIONS.values(), *VALUES.values())]) | VALUE_CODE


def generated_frame(tb):
    """(rule name, span, description of the generated line) of the innermost
    traceback entry inside generated code, or None. A function of no rule
    of its own (a table of card data: compiler/tables.py) is reported as
    the line that asked for its value."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        module = BUILT.get(code.co_filename)
        if module is not None and code.co_name not in module.titles:
            line = module.text.splitlines()[tb.tb_lineno - 1].strip()
            rule = module.rule_names.get(code.co_name) or (found[0] if found else None)  # a comprehension's: its rule's
            found = (rule, module.span_at(tb.tb_lineno),
                     f"{code.co_name}, line {tb.tb_lineno}: {line}")
        tb = tb.tb_next
    return found


def generated_rules(tb) -> list:
    """The names of the rules running in generated code along a traceback,
    outermost first (a rule once per call)."""
    rules = []
    while tb is not None:
        code = tb.tb_frame.f_code
        module = BUILT.get(code.co_filename)
        if module is not None and code.co_name not in module.titles:
            rules.append(module.rule_names.get(code.co_name))
        tb = tb.tb_next
    return rules


def blame(err: BaseException, span=None) -> RulesError:
    """The error to report for `err`, raised while running rules (`span`:
    where the expression being computed is, if known)."""
    found = generated_frame(err.__traceback__)
    rule, where, generated = found if found else (None, None, None)
    where = where or span
    if isinstance(err, RulesError):
        return _located(err, rule, where)
    if isinstance(err, VALUE_ERRORS) and _raised_computing_values(err.__traceback__):
        return _located(RulesRuntimeError(f"rule failed: {_in_rules_words(err)}"), rule, where)
    return InternalError(err, rule, where, generated)


def _in_rules_words(err: BaseException) -> str:
    """What went wrong, said with the rules' words (explain.py), read from
    the innermost generated line, or from the exception's text alone."""
    tb, found = err.__traceback__, None
    while tb is not None:
        module = BUILT.get(tb.tb_frame.f_code.co_filename)
        if module is not None:
            found = (tb, module)
        tb = tb.tb_next
    if found is None:
        return in_rules_words(str(err))
    return explain(err, *found)


def _raised_computing_values(tb) -> bool:
    """Whether the innermost frame of `tb` is generated code or a function
    that computes with the rules' values."""
    last = None
    while tb is not None:
        last = tb
        tb = tb.tb_next
    if last is None:
        return False
    code = last.tb_frame.f_code
    return code.co_filename in BUILT or code in _VALUE_CODE


def _located(err: RulesError, rule, span) -> RulesError:
    """`err` at the rules line, naming the rule, unless it already has a place."""
    if isinstance(err, InternalError) or any(d.span.source for d in err.diagnostics) or span is None:
        return err
    suffix = f" (in '{rule}')" if rule else ""
    return type(err)([Diagnostic(d.severity, d.message + suffix, span, d.hint) for d in err.diagnostics])
