"""Syntax errors for people: where, what was found, what was expected, and
which block or bracket is still open."""
from __future__ import annotations

import re

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..errors import Diagnostic, RulesSyntaxError, Source, Span, shift
from .grammar import grammar_keywords, lark_parser

_READABLE = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted string",
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "end of file",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "FIELD_TYPE": "'effects', 'expression' or 'expression map'",
    "HOOK_MOMENT": "'start of turn', 'end of turn', 'start of round' or 'end of round'",
    "TIE_MODE": "'share' or 'full'",
    "RESOLVE_MODE": "'all' or 'any'",
    "PLACE": "'on top' or 'at bottom'",
    "PHASE_PLAY": "'until everyone passes' (or ', passing is final' after it) or 'together'",
    "SIMULTANEOUSLY": "'simultaneously'",
}


def _describe_terminal(name: str) -> str:
    if name in _READABLE:
        return _READABLE[name]
    try:
        pattern = lark_parser().get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _expected_text(expected) -> str:
    names = sorted({_describe_terminal(t) for t in expected if not t.startswith("__")})
    if not names:
        return ""
    if len(names) > 8:
        names = names[:8] + ["..."]
    return names[0] if len(names) == 1 else "one of " + ", ".join(names)


def _token_text(token: Token) -> str:
    if token.type == "_NL":
        return "end of line"
    if token.type == "_INDENT":
        return "an indented block"
    if token.type == "_DEDENT":
        return "the end of the block"
    if token.type == "$END":
        return "end of file"
    return f"'{token}'"


def syntax_error(err: UnexpectedInput, source: Source, offset: tuple[int, int]) -> RulesSyntaxError:
    line, column = shift(err.line if err.line != -1 else source.text.count("\n") + 1, max(err.column, 1), offset)
    width = 1
    if isinstance(err, UnexpectedToken):
        tok = err.token
        found = _token_text(tok)
        if tok.type not in ("_NL", "_INDENT", "_DEDENT", "$END") and tok.end_column and tok.line == tok.end_line:
            width = max(tok.end_column - tok.column, 1)
        expected = _expected_text(err.accepts or err.expected)
        message = f"unexpected {found}"
    elif isinstance(err, UnexpectedCharacters):
        char = err.char if err.char else ""
        if char == '"':
            message, expected = "this string is never closed: a quoted string ends on the same line", ""
        else:
            message = f"unexpected character {char!r}"
            expected = _expected_text(err.allowed or ())
    else:  # UnexpectedEOF
        message = "unexpected end of file"
        expected = _expected_text(getattr(err, "expected", ()) or ())
    if expected:
        message += f"; expected {expected}"
    if offset == (1, 1):
        taken = _word_of_the_language(source, _statement_word(err, source), line)
        if taken is not None:
            return RulesSyntaxError([taken])
    span = Span(source, line, column, line, column + width)
    accepted = set(getattr(err, "accepts", None) or getattr(err, "expected", None) or ())
    # Text parsed inside another file (card data, labels) has no blocks of its own.
    hint = _quote_in_braces(source.line(line)) or _called_like_a_function(err, accepted)
    if hint is None and offset == (1, 1):
        hint = _open_block_hint(source, line, column, accepted)
    return RulesSyntaxError([Diagnostic("error", message, span, hint)])


_CALLABLE = re.compile(r"^[ \t]*(?:override[ \t]+)?(procedure|effect)[ \t]+([A-Za-z_][A-Za-z0-9_]*)")


def _statement_word(err: UnexpectedInput, source: Source) -> str | None:
    """The word of the language that starts the statement the parser was
    reading when it failed (the first word of the line of the error)."""
    state = getattr(err, "state", None)
    tokens = [t for t in getattr(state, "value_stack", ()) if isinstance(t, Token)]
    tokens.append(getattr(err, "token", None))
    for t in tokens:
        if isinstance(t, Token) and t.line == err.line and t.type not in _NOT_WORDS:
            text = source.line(err.line)
            if t.column == len(text) - len(text.lstrip()) + 1:
                return str(t)
    return None


_NOT_WORDS = {"NAME", "INT", "STRING", "_NL", "_INDENT", "_DEDENT", "$END"}


def _reads_as_a_call(statement: str, word: str) -> bool:
    """Whether `statement` (a line that starts with `word`) is a call of a
    rule once `word` is an ordinary name: `reveal` or `look(p)`, not
    `gain 1 gold 2`."""
    text = "procedure p:\n    " + "n" + statement.lstrip()[len(word):].split("#", 1)[0].rstrip() + "\n"
    try:
        lark_parser().parse(text, start="start")
    except Exception:  # any failure to parse: not a call
        return False
    return True


def _word_of_the_language(source: Source, word: str | None, line: int) -> Diagnostic | None:
    """A file that declares a procedure or an effect whose name is a word
    of the language (`reveal`, written before `reveal` was one) parses
    until the rule is called: the call is read as the statement of the
    language, and the grammar's error there says nothing of the name.
    Where the statement that failed is a call of a rule of the file once
    its first word is read as a name, the error is the declaration's."""
    if word is None or word not in grammar_keywords() or not _reads_as_a_call(source.line(line), word):
        return None
    for number, text in enumerate(source.lines, 1):
        match = _CALLABLE.match(text)
        if match is not None and match.group(2) == word:
            column = match.start(2) + 1
            what = "a procedure" if match.group(1) == "procedure" else "an effect"
            return Diagnostic(
                "error", f"'{word}' is a word of the language and cannot name {what}; rename it",
                Span(source, number, column, number, column + len(word)),
                f"line {line} calls it, where '{word}' is read as the word of the language")
    return None


def _quote_in_braces(text: str) -> str | None:
    """A text whose `{...}` holds a quote ends at that quote; say so."""
    for match in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
        inside = match.group(1)
        if inside.count("{") > inside.count("}"):
            return 'a quote inside {...} ends the text there: write \\" for a quote inside the braces'
    return None


def _called_like_a_function(err, accepted) -> str | None:
    """`hand_of(p)` where the rules name a zone or counter `hand of p`."""
    token = getattr(err, "token", None)
    if token is not None and token.type == "LPAR" and "OF" in accepted:
        return "a zone or counter is named NAME, or NAME of OWNER (e.g. `hand of p`), not called like a function"
    return None


def _open_block_hint(source: Source, line: int, column: int, expected) -> str | None:
    """Say which block or bracket is still open where the error is."""
    if "_INDENT" in expected:
        lines = source.text.splitlines()[: max(line - 1, 0)]
        for number in range(len(lines), 0, -1):
            code = lines[number - 1].split("#", 1)[0].rstrip()
            if code:
                if code.endswith(":"):
                    return f"the block opened at line {number} ('{code.strip()}') needs an indented body"
                return None
        return None
    return _open_bracket(source, line, column)


_PAIRS = {")": "(", "]": "[", "}": "{"}


def _open_bracket(source: Source, line: int, column: int) -> str | None:
    """The innermost bracket left open before (line, column), if any."""
    stack = []
    for number, text in enumerate(source.text.splitlines()[:line], 1):
        in_string = False
        for col, ch in enumerate(text, 1):
            if number == line and col >= column:
                break
            if ch == '"':
                in_string = not in_string
            elif in_string:
                continue
            elif ch == "#":
                break
            elif ch in "([{":
                stack.append((ch, number, col))
            elif ch in ")]}" and stack and stack[-1][0] == _PAIRS[ch]:
                stack.pop()
    if stack:
        ch, number, col = stack[-1]
        return f"the '{ch}' opened at line {number}, column {col} is still open"
    return None


def dedent_error(text: str, source: Source, offset) -> RulesSyntaxError:
    """The first line whose indentation matches no enclosing block, with the
    two columns it can mean: the block it seems to be in, or the one outside."""
    stack = [(0, 0)]  # (indentation, line number of the line that opened the block)
    previous = 0
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0]
        if not body.strip():
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        if indent > stack[-1][0]:
            stack.append((indent, previous))
            previous = number
            continue
        inner = None
        while indent < stack[-1][0]:
            inner = stack.pop()
        if indent != stack[-1][0]:
            line_no, col = shift(number, 1, offset)
            outer = stack[-1][0]
            if inner is not None:
                opened = shift(inner[1], 1, offset)[0] if inner[1] else None
                hint = (f"indent it to column {inner[0] + 1} to stay in the block"
                        + (f" opened at line {opened}" if opened else "")
                        + f", or to column {outer + 1} to end that block")
            else:
                hint = f"indent it to column {outer + 1} like the lines of the block it belongs to"
            return RulesSyntaxError([Diagnostic(
                "error", f"this line is indented to column {indent + 1}, which matches no enclosing block",
                Span(source, line_no, col, line_no, col + indent + 1), hint,
            )])
        previous = number
    return RulesSyntaxError("inconsistent indentation", Span(source, *offset))
