"""Source spans and the project's error types, rendered for people.

Every problem the tool reports carries a :class:`Span`; rendering gives
``file:line:col: error: message``, the source line, a caret under the span and,
where one helps, a hint.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Source:
    """A named text: a rules file, a card file or a string inside one."""

    name: str
    text: str

    @cached_property
    def lines(self) -> list:
        # split once: a card file asks for thousands of its lines
        return self.text.splitlines()

    def line(self, number: int) -> str:
        lines = self.lines
        return lines[number - 1] if 0 < number <= len(lines) else ""


@dataclass(frozen=True)
class Span:
    """A region of a source, 1-based lines and columns, end exclusive."""

    source: Source | None = field(compare=False, repr=False)
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0

    @property
    def filename(self) -> str:
        return self.source.name if self.source else "<unknown>"

    def __str__(self) -> str:
        return f"{self.filename}:{self.line}:{self.column}"


NO_SPAN = Span(None)


def shift(line: int, column: int, offset: tuple[int, int]) -> tuple[int, int]:
    """Positions of a string parsed on its own, moved to where it sits in its file."""
    base_line, base_col = offset
    if line == 1:
        return base_line, base_col + column - 1
    return base_line + line - 1, column


_WIDTH = 120  # longest source excerpt shown under a message


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    message: str
    span: Span = NO_SPAN
    hint: str | None = None

    def render(self) -> str:
        head = f"{self.span}: {self.severity}: {self.message}" if self.span.source else f"{self.severity}: {self.message}"
        out = [head]
        if self.span.source and self.span.line:
            text = self.span.source.line(self.span.line)
            start = 0
            if len(text) > _WIDTH:  # show a window of a very long line around the problem
                start = max(0, self.span.column - 1 - _WIDTH // 2)
                text = ("..." if start else "") + text[start:start + _WIDTH] + "..."
                start -= 3 if start else 0
            out.append(f"    {text}")
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = min(self.span.end_column - self.span.column, _WIDTH)
            pad = "".join(ch if ch == "\t" else " " for ch in text[: max(self.span.column - 1 - start, 0)])
            out.append(f"    {pad}{'^' * width}")
        if self.hint:
            out.append(f"    hint: {self.hint}")
        return "\n".join(out)


class RulesError(Exception):
    """Base class of every error the tool reports to a person.

    Carries one or more diagnostics; ``str()`` renders them all.
    """

    def __init__(self, diagnostics: list[Diagnostic] | Diagnostic | str, span: Span = NO_SPAN, hint: str | None = None):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic("error", diagnostics, span, hint)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = list(diagnostics)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class RulesSyntaxError(RulesError):
    """The text does not follow the grammar."""


class CheckError(RulesError):
    """The checker found problems (names, arity, types, card data)."""


class CardDataError(RulesError):
    """The card file is not valid YAML or breaks the card schema."""


class RulesRuntimeError(RulesError):
    """A rule failed while a game was being played (e.g. a step budget ran out)."""


class InternalError(RulesError):
    """A fault of the interpreter itself, met while running a rule: never a
    mistake of the rules. The message names the rule and asks for a report."""

    def __init__(self, error: BaseException, rule: str | None, span: Span = NO_SPAN, generated: str | None = None):
        self.error = error
        self.rule = rule
        self.generated = generated  # the generated line it happened on, if any
        message = f"internal error of the interpreter: {type(error).__name__}: {error}"
        if rule:
            message += f" (while running '{rule}')"
        hint = ("this is not a mistake in the rules: please report it with the rules file, the command and "
                "this message" + (f"; generated code: {generated}" if generated else "")
                + " (the --debug option shows the traceback)")
        super().__init__(message, span, hint)


class InvalidActionError(RulesError):
    """An action id that is not legal in the current state."""


class SaveFileError(RulesError):
    """A saved game that cannot be read or does not match its rules."""


def did_you_mean(name: str, candidates) -> str | None:
    """The closest candidate to a misspelt name, as a hint, or None.

    >>> did_you_mean("golld", ["gold", "wood"])
    "did you mean 'gold'?"
    """
    import difflib

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
