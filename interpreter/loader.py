"""Load a rules file: read, parse, apply `extends`, load cards, set parameters,
check, compile. Every problem becomes a RulesError with a location."""
from __future__ import annotations

from pathlib import Path

from .cards import load_cards
from .compiler.build import compile_program
from .errors import CheckError, Diagnostic, RulesError, Source, Span, did_you_mean
from .language import nodes as n
from .language.model import RulesModel, merge
from .language.parser import parse_effects, parse_expression, parse_rules


def read_text(path: Path) -> str:
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise RulesError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise RulesError(f"{path} is a directory, not a rules file") from None
    except OSError as err:
        raise RulesError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")  # a byte-order mark is not part of the text
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        source = Source(str(path), raw.decode("utf-8", errors="replace"))
        raise RulesError(f"not UTF-8 text (byte {err.start}); save the file as UTF-8", Span(source, line, column, line, column + 1)) from None


def load_model(path: str | Path) -> tuple[RulesModel, list]:
    """Parse a rules file and the files it extends, base first."""
    model = RulesModel()
    problems: list = []
    chain: list = []

    def visit(p: Path, span: Span | None):
        resolved = p.resolve()
        if resolved in chain:
            raise RulesError("a rules file extends itself (through " + " -> ".join(str(c.name) for c in chain + [resolved]) + ")", span or Span(None))
        chain.append(resolved)
        tree = parse_rules(read_text(p), str(p))
        extends = [i for i in tree.items if isinstance(i, n.ExtendsDecl)]
        for ext in extends[:1]:
            base = p.parent / ext.path
            if not base.exists():
                raise RulesError(f"extended rules file not found: {ext.path}", ext.span)
            visit(base, ext.span)
        for ext in extends[1:]:
            problems.append(Diagnostic("error", "a rules file can extend only one other file", ext.span))
        if any(isinstance(i, n.CardsDecl) for i in tree.items):
            model.cards_dir = str(p.parent)
        problems.extend(merge(model, tree, str(p), extends_base=bool(model.files)))
        chain.pop()

    visit(Path(path), None)
    return model, problems


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
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "//": lambda: a // b, "%": lambda: a % b}[expr.op]()
    if isinstance(expr, n.Name) and expr.name in params:
        return params[expr.name]
    raise RulesError("a parameter's value must be a constant (numbers, text, lists, maps and other parameters)", expr.span)


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


def load_card_fields(model: RulesModel, db) -> tuple[dict, list]:
    """Parse the card fields the rules declare as effects or expressions."""
    typed = {}
    for kind in model.kinds.values():
        for fname, ftype in kind.fields:
            typed[(kind.name, fname)] = ftype
    out: dict = {}
    problems: list = []
    for (kind, fname), ftype in typed.items():
        values = out.setdefault(fname, [None] * len(db.cards))
        for card in db.cards:
            if card.kind != kind or fname not in card.data:
                continue
            raw = card.data[fname]
            span = card.spans.get(fname)
            try:
                if ftype == "effects":
                    values[card.index] = _parse_card_text(raw, span, db, parse_effects, card, fname)
                elif ftype == "expression":
                    values[card.index] = _parse_card_text(str(raw), span, db, parse_expression, card, fname)
                else:
                    if not isinstance(raw, dict):
                        raise RulesError(f"card '{card.name}', field '{fname}': expected a map of expressions", span)
                    values[card.index] = {k: _parse_card_text(str(v), card.spans.get(fname), db, parse_expression, card, f"{fname}.{k}") for k, v in raw.items()}
            except RulesError as err:
                problems.extend(err.diagnostics)
    return out, problems


def _parse_card_text(raw, span, db, parse, card, fname):
    if not isinstance(raw, str):
        raise RulesError(f"card '{card.name}', field '{fname}': expected text, got {raw!r}", span)
    offset = (span.line, span.column + 1) if span and db.source.line(span.line)[span.column - 1: span.column] in "\"'" else ((span.line, span.column) if span else (1, 1))
    try:
        return parse(raw, db.source, offset)
    except RulesError as err:
        d = err.diagnostics[0]
        raise RulesError(Diagnostic(d.severity, f"card '{card.name}', field '{fname}': {d.message}", d.span, d.hint)) from None


def load_game(path: str | Path, overrides: dict | None = None, coverage: bool = False):
    """Load, check and compile a rules file into a Game. With `coverage`, the
    code also counts which cards' fields the rules read (a little slower;
    see `GameState.card_reads`)."""
    try:
        return _load_game(path, overrides, coverage)
    except RecursionError:
        raise RulesError(f"{path}: the rules are nested too deeply to read (an expression or block hundreds of levels deep)") from None


def _load_game(path, overrides, coverage=False):
    from .checker import check
    from .game import Game

    model, problems = load_model(path)
    if problems:
        raise CheckError(problems)
    if model.cards is None:
        top = Span(Source(str(path), read_text(Path(path))), 1, 1, 1, 2)
        missing = [Diagnostic("error", f"the rules have no '{what}' declaration", top)
                   for what in ("game", "players", "setup", "turn") if getattr(model, what) is None]
        missing.append(Diagnostic("error", "the rules declare no card file (`cards \"cards.yaml\" into box`)", top))
        raise CheckError(missing)
    base = Path(model.cards_dir or Path(path).parent)
    db = load_cards(base / model.cards.path, base / model.cards.schema if model.cards.schema else None)
    params, problems = evaluate_params(model, dict(overrides or {}))
    raw_fields, field_problems = load_card_fields(model, db)
    problems += field_problems
    diagnostics = problems + check(model, db, params, raw_fields)
    if not any(d.severity == "error" for d in diagnostics):
        from .typecheck import type_problems

        diagnostics += type_problems(model, db, params)  # types only once every name is known
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise CheckError(errors)
    program = compile_program(model, db, params, raw_fields, count_reads=coverage)
    # Warnings about a base file belong to checking that file, not its extensions.
    warnings = [d for d in diagnostics if not d.span.source or d.span.filename in (str(path), db.source.name)]
    return Game(program, str(path), model, warnings)
