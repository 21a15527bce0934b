"""Completion: the names that fit where the cursor is, with their kinds.

The place is read from the text of the line before the cursor, since the
line being typed rarely parses: after `gain 1 ` come counters, after
`move c to ` zones, after `c.` card fields, at the start of a line
declarations or statements. The names come from the latest analysis that
loaded; the keywords from the grammar itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .frontend import BUILTIN_NAMES, EVENTS, FUNCTIONS, builtin_help, lark_parser
from .index import COUNTER, DEFINE, EFFECT, EVENT, FIELD, FUNCTION, KIND, LOCAL, PARAM, PROCEDURE, VALUE, ZONE

KEYWORD = "keyword"
_WORD_BEFORE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_STATEMENT_START = r"(?:^|:)\s*"  # a statement starts a line, or follows the colon of a one-line block
_AMOUNT_THEN_COUNTER = re.compile(_STATEMENT_START + r"(gain|pay|lose)\s+\S.*\s$")
_SET_COUNTER = re.compile(_STATEMENT_START + r"set\s+$")
_ZONE_PLACES = (re.compile(r"\bmove\s+\S.*\sto\s+$"), re.compile(r"\bdeal\s+\S.*\s(from|to)\s+$"),
                re.compile(_STATEMENT_START + r"(shuffle|slide|refill)\s+$"), re.compile(r"\brefill\s+\w+\s+from\s+$"),
                re.compile(r"^(override\s+)?when\s+$"), re.compile(r"^(override\s+)?show\s+$"), re.compile(r"\binto\s+$"))
_KIND_PLACES = (re.compile(r"\bis\s+$"), re.compile(r"^(override\s+)?board\s+$"))
_BLOCK_OPENED = re.compile(r"^\s*(effect|procedure|action|setup|turn|phase|reaction|at|when|if|elif|else|for|repeat|choose|may|simultaneously|pick|as)\b.*:\s*$")
_OPERATOR_END = re.compile(r"([-+*/%(\[{,<>=:]|\b(of|and|or|not|in|if|then|else|where|award|least|times|while))\s*$")
_RANK = {LOCAL: "0", PARAM: "1", COUNTER: "1", ZONE: "1", DEFINE: "1", EFFECT: "1", PROCEDURE: "1", FIELD: "1",
         KIND: "1", EVENT: "1", VALUE: "2", FUNCTION: "2", KEYWORD: "3"}


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: str  # a namespace of index.py, or "keyword"
    detail: str
    documentation: str | None = None

    @property
    def sort_text(self) -> str:
        return _RANK.get(self.kind, "4") + self.label


@lru_cache(maxsize=None)
def keywords() -> dict:
    """The grammar's keywords, by where they start something: 'declaration'
    (a line of a file), 'statement' (a line of a block) and 'expression'."""
    parser = lark_parser()
    terminals = {t.name: t for t in parser.terminals}
    groups: dict = {"declaration": set(), "statement": set(), "expression": set(), "all": set()}
    for rule in parser.rules:
        origin = rule.origin.name
        for position, symbol in enumerate(rule.expansion):
            terminal = terminals.get(symbol.name)
            if terminal is None or terminal.pattern.type != "str" or not terminal.pattern.value.isidentifier():
                continue
            word = terminal.pattern.value
            groups["all"].add(word)
            if position == 0 and origin.endswith("_decl"):
                groups["declaration"].add(word)
            elif position == 0 and (origin.endswith("_stmt") or origin.endswith("_clause")):
                groups["statement"].add(word)
            elif (position == 0 and origin in ("expr", "atom", "aggregate", "rank_expr", "not_expr")) \
                    or origin == "comparison" or origin.startswith("__"):
                groups["expression"].add(word)
    return {k: frozenset(v) for k, v in groups.items()}


_EVENT_PLACE = re.compile(r'^(?:override\s+)?reaction\b.*"\s*to\s+$|^\s*announce\s+$')


def place_of(before: str, card_data: bool = False) -> str:
    """What fits at the end of `before` (the line up to the cursor, without
    the word being typed): 'field', 'kind', 'counter', 'zone', 'event',
    'declaration', 'statement', 'effect', 'expression' or 'nothing'."""
    if card_data:
        return "effect" if re.search(r"\beffects\s*:", before) else "nothing"
    if _in_comment_or_text(before):
        return "nothing"
    if before.endswith("."):
        return "field"
    if _EVENT_PLACE.search(before):
        return "event"
    if any(p.search(before) for p in _KIND_PLACES):
        return "kind"
    if any(p.search(before) for p in _ZONE_PLACES):
        return "zone"
    if _SET_COUNTER.search(before) or (_AMOUNT_THEN_COUNTER.search(before) and not _OPERATOR_END.search(before)):
        return "counter"
    if before == "" or re.fullmatch(r"override\s+", before):
        return "declaration"
    if not before.strip() or _BLOCK_OPENED.search(before):
        return "statement"
    return "expression"


def _in_comment_or_text(before: str) -> bool:
    quoted = False
    brace = False
    for ch in before:
        if ch == '"' and not brace:
            quoted = not quoted
        elif quoted and ch == "{":
            brace = True  # an expression inside a label: `"take {c.name}"`
        elif quoted and ch == "}":
            brace = False
        elif ch == "#" and not quoted:
            return True
    return quoted and not brace


def candidates(analysis, before: str, path: str, line: int, card_data: bool = False) -> list[Candidate]:
    """The completions at a place, given the line before the cursor."""
    match = _WORD_BEFORE.search(before)
    start = before[:match.start()] if match else before
    place = place_of(start, card_data)
    model = analysis.model if analysis is not None else None
    words = keywords()
    if place == "declaration":
        return [Candidate(w, KEYWORD, "declaration") for w in sorted(words["declaration"])]
    if place == "nothing" or model is None:
        return [Candidate(w, KEYWORD, "keyword") for w in sorted(words["statement"])] if place == "statement" else []
    if place in _OF_ONE_KIND:
        return _OF_ONE_KIND[place](analysis)
    return _names_at(place, analysis, start, path, line, words)


def _names_at(place: str, analysis, start: str, path: str, line: int, words: dict) -> list[Candidate]:
    """The names a counter, zone, effect, statement or expression may be."""
    model = analysis.model
    out: list[Candidate] = []
    if place in ("counter", "expression"):
        out += [Candidate(name, COUNTER, f"counter, {_scope(d.scope)}") for name, d in model.counters.items()]
    if place in ("zone", "expression"):
        out += [Candidate(name, ZONE, f"zone, {_scope(d.scope)}") for name, d in model.zones.items()]
    if place == "counter" and _SET_COUNTER.search(start):
        out.append(Candidate("first_player", VALUE, "built-in name"))
    if place in ("statement", "effect"):
        out += [Candidate(name, EFFECT, "effect") for name in model.effects]
    if place == "statement":
        out += [Candidate(name, PROCEDURE, "procedure") for name in model.procedures]
        out += [Candidate(w, KEYWORD, "keyword") for w in sorted(words["statement"])]
    if place == "expression":
        out += _expression_names(analysis, path, line)
        out += [Candidate(w, KEYWORD, "keyword") for w in sorted(words["expression"])]
    return out


def _events(analysis) -> list[Candidate]:
    announced = {o.symbol[1] for o in analysis.index.occurrences if o.symbol[0] == EVENT}
    out = [Candidate(name, EVENT, "event the engine announces") for name in EVENTS]
    return out + [Candidate(name, EVENT, "event") for name in sorted(announced - set(EVENTS))]


def _kinds(analysis) -> list[Candidate]:
    kinds = set(analysis.model.kinds) | set(analysis.db.kinds if analysis.db is not None else ())
    return [Candidate(k, KIND, "card kind") for k in sorted(kinds)]


def _expression_names(analysis, path: str, line: int) -> list[Candidate]:
    model = analysis.model
    out = [Candidate(name, LOCAL, "local name") for name in sorted(analysis.index.locals_at(path, line))]
    out += [Candidate(name, PARAM, "parameter") for name in model.params]
    out += [Candidate(name, DEFINE, "definition") for name in model.defines]
    out += [Candidate(name, EFFECT, "effect") for name in model.effects]
    for name in sorted(FUNCTIONS):
        form, doc, _examples = builtin_help(name)
        out.append(Candidate(name, FUNCTION, form, doc))
    out += [Candidate(name, VALUE, "built-in name") for name in sorted(BUILTIN_NAMES)]
    return out


def _fields(analysis) -> list[Candidate]:
    names: dict = {}
    if analysis.model is not None:
        for kind in analysis.model.kinds.values():
            for fname, ftype in kind.fields:
                names.setdefault(fname, f"card field ({ftype})")
    if analysis.db is not None:
        for fname in sorted(analysis.db.field_names()):
            names.setdefault(fname, "card field")
    return [Candidate(name, FIELD, detail) for name, detail in names.items()]


def _scope(scope: str) -> str:
    return {"player": "per player", "card": "per card"}.get(scope, scope)


# Places where only one kind of name fits: the completions of each.
_OF_ONE_KIND = {"field": _fields, "event": _events, "kind": _kinds}
