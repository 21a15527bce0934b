"""Parse rules text into typed AST nodes (grammar.lark → Lark → Transformer).

The grammar is loaded once per process. Syntax errors become
:class:`RulesSyntaxError` with the position, the line and what was expected.
"""
from __future__ import annotations

import re
from functools import lru_cache

from lark import Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import DedentError

from ..errors import RulesSyntaxError, Source, Span
from . import nodes as n
from .grammar import lark_parser
from .incremental import DeclarationCache, declaration_chunks
from .syntax_errors import dedent_error, shift, syntax_error


def _unescape(token: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), token[1:-1])


@v_args(meta=True)
class _ToAst(Transformer):
    """Builds nodes.py dataclasses from Lark's parse tree."""

    def __init__(self, source: Source, offset: tuple[int, int] = (1, 1)):
        super().__init__()
        self.source = source
        self.offset = offset

    # -- helpers
    def _span(self, meta) -> Span:
        if getattr(meta, "empty", False) or not hasattr(meta, "line"):
            return Span(self.source)
        line, col = shift(meta.line, meta.column, self.offset)
        end_line, end_col = shift(meta.end_line, meta.end_column, self.offset)
        return Span(self.source, line, col, end_line, end_col)

    def _tspan(self, tok: Token) -> Span:
        line, col = shift(tok.line, tok.column, self.offset)
        end_line, end_col = shift(tok.end_line, tok.end_column, self.offset)
        return Span(self.source, line, col, end_line, end_col)

    def _template(self, tok: Token) -> n.Template:
        return parse_template(_unescape(str(tok)), self.source, shift(tok.line, tok.column + 1, self.offset), self._tspan(tok))

    # -- file and declarations
    def start(self, meta, items):
        return n.RulesFile(tuple(items), span=self._span(meta))

    def expression(self, meta, items):
        return items[0]

    def effects(self, meta, items):
        return n.EffectList(tuple(items), span=self._span(meta))

    def effect_item(self, meta, names):
        return n.EffectItem(tuple(str(x) for x in names), span=self._span(meta))

    def game_decl(self, meta, c):
        return n.GameDecl(_unescape(c[0]), span=self._span(meta))

    def players_decl(self, meta, c):
        low = self._int(c[0])
        return n.PlayersDecl(low, self._int(c[1]) if c[1] is not None else low, span=self._span(meta))

    def cards_decl(self, meta, c):
        return n.CardsDecl(_unescape(c[0]), _unescape(c[1]) if c[1] is not None else None, str(c[2]), span=self._span(meta))

    def extends_decl(self, meta, c):
        return n.ExtendsDecl(_unescape(c[0]), span=self._span(meta))

    def param_decl(self, meta, c):
        return n.ParamDecl(str(c[0]), c[1], span=self._span(meta))

    def order_decl(self, meta, c):
        return n.TurnOrderDecl(c[0], span=self._span(meta))

    def override_decl(self, meta, c):
        inner = c[0]
        if isinstance(inner, list):
            return [n.Override(d, span=d.span) for d in inner]
        return n.Override(inner, span=self._span(meta))

    def board_decl(self, meta, c):
        return n.BoardDecl(str(c[0]), str(c[1]), str(c[2]), c[3], span=self._tspan(c[0]))

    def show_decl(self, meta, c):
        return n.ShowDecl(str(c[0]), self._template(c[1]), span=self._span(meta))

    def name_list(self, meta, c):
        return [(str(t), self._tspan(t)) for t in c]

    def scope_player(self, meta, c):
        return "player"

    def scope_card(self, meta, c):
        return "card"

    def scope_shared(self, meta, c):
        return "shared"

    def vis_hidden(self, meta, c):
        return "hidden"

    def vis_visible(self, meta, c):
        return "visible"

    def vis_owner(self, meta, c):
        return "owner"

    def _int(self, tok) -> int:
        if len(tok) > 18:
            raise RulesSyntaxError("this number is too large (at most 18 digits)", self._tspan(tok))
        return int(tok)

    def signed_int(self, meta, c):
        return self._int(c[0])

    def negative_int(self, meta, c):
        return -self._int(c[0])

    def opt_min(self, meta, c):
        return ("minimum", c[0])

    def opt_max(self, meta, c):
        return ("maximum", c[0])

    def opt_visibility(self, meta, c):
        return ("visibility", c[0])

    def opt_stack(self, meta, c):
        return ("stack", True)

    def opt_slots(self, meta, c):
        return ("slots", self._int(c[0]))

    def counter_decl(self, meta, c):
        names, scope, *opts = c
        return [n.CounterDecl(name, scope, **dict(opts), span=span) for name, span in names]

    def zone_decl(self, meta, c):
        names, scope, *opts = c
        return [n.ZoneDecl(name, scope, **dict(opts), span=span) for name, span in names]

    def kind_decl(self, meta, c):
        return n.KindDecl(str(c[0]), tuple(c[1:]), span=self._span(meta))

    def kind_decl_plain(self, meta, c):
        return n.KindDecl(str(c[0]), (), span=self._span(meta))

    def field_decl(self, meta, c):
        return (str(c[0]), " ".join(str(c[1]).split()))

    def params(self, meta, c):
        return tuple(str(t) for t in c if t is not None)

    def define_decl(self, meta, c):
        return n.DefineDecl(str(c[0]), c[1] or (), c[2], span=self._span(meta))

    def effect_decl(self, meta, c):
        return n.EffectDecl(str(c[0]), _unescape(c[1]) if c[1] is not None else None, c[2], span=self._span(meta))

    def procedure_decl(self, meta, c):
        return n.ProcedureDecl(str(c[0]), c[1] or (), c[2], span=self._span(meta))

    def action_decl(self, meta, c):
        return n.ActionDecl(str(c[0]), self._template(c[1]), c[2], c[3], span=self._span(meta))

    def setup_decl(self, meta, c):
        return n.SetupDecl(c[0], span=self._span(meta))

    def turn_decl(self, meta, c):
        return n.TurnDecl(c[0], span=self._span(meta))

    def hook_decl(self, meta, c):
        return n.HookDecl(str(c[0]), c[1], span=self._span(meta))

    def empty_hook_decl(self, meta, c):
        return n.EmptyHookDecl(str(c[0]), c[1], span=self._span(meta))

    def score_decl(self, meta, c):
        return n.ScoreDecl(tuple(c), span=self._span(meta))

    def score_term(self, meta, c):
        return n.ScoreTerm(_unescape(c[0]), c[1], span=self._span(meta))

    def tiebreak_decl(self, meta, c):
        return n.TiebreakDecl(tuple(c), span=self._span(meta))

    # -- statements
    def block(self, meta, c):
        return tuple(c)

    def ref(self, meta, c):
        return n.Ref(str(c[0]), c[1], span=self._span(meta))

    def gain_stmt(self, meta, c):
        return n.Gain(c[0], c[1], span=self._span(meta))

    def pay_stmt(self, meta, c):
        return n.Pay(c[0], c[1], span=self._span(meta))

    def lose_stmt(self, meta, c):
        return n.Lose(c[0], c[1], span=self._span(meta))

    def set_stmt(self, meta, c):
        return n.SetCounter(c[0], c[1], span=self._span(meta))

    def move_stmt(self, meta, c):
        place = "bottom" if c[2] is not None and "bottom" in str(c[2]) else "top"
        return n.Move(c[0], c[1], place, span=self._span(meta))

    def deal_stmt(self, meta, c):
        return n.Deal(c[0], c[1], c[2], span=self._span(meta))

    def shuffle_stmt(self, meta, c):
        return n.Shuffle(c[0], span=self._span(meta))

    def slide_stmt(self, meta, c):
        return n.Slide(c[0], span=self._span(meta))

    def refill_stmt(self, meta, c):
        return n.Refill(c[0], c[1], span=self._span(meta))

    def call_stmt(self, meta, c):
        return n.CallStmt(str(c[0]), tuple(c[1] or ()), span=self._span(meta))

    def stop_stmt(self, meta, c):
        return n.Stop(span=self._span(meta))

    def pass_stmt(self, meta, c):
        return n.Pass(span=self._span(meta))

    def end_now(self, meta, c):
        return n.EndGame(None, span=self._span(meta))

    def end_lost(self, meta, c):
        return n.EndGame(None, True, span=self._span(meta))

    def end_won(self, meta, c):
        return n.EndGame(None, won=True, span=self._span(meta))

    def as_stmt(self, meta, c):
        return n.ActAs(c[0], c[1], span=self._span(meta))

    def end_after_rounds(self, meta, c):
        return n.EndGame(c[0], span=self._span(meta))

    def let_stmt(self, meta, c):
        return n.Let(str(c[0]), c[1], span=self._span(meta))

    def resolve_stmt(self, meta, c):
        return n.Resolve(str(c[0]), c[1], span=self._span(meta))

    def choose_action_stmt(self, meta, c):
        return n.ChooseAction(span=self._span(meta))

    def if_stmt(self, meta, c):
        # children: cond, body, elif clauses..., else body or None
        branches = ((c[0], c[1]),) + tuple(c[2:-1])
        return n.If(branches, c[-1] or (), span=self._span(meta))

    def elif_clause(self, meta, c):
        return (c[0], c[1])

    def else_clause(self, meta, c):
        return c[0]

    def for_stmt(self, meta, c):
        return n.ForEach(str(c[0]), c[1], c[2], c[3], span=self._span(meta))

    def repeat_while(self, meta, c):
        return n.RepeatWhile(c[0], c[1], span=self._span(meta))

    def repeat_times(self, meta, c):
        return n.RepeatTimes(c[0], c[1], span=self._span(meta))

    def choose_stmt(self, meta, c):
        may, var, iterable, cond, label, body, else_body = c
        return n.Choose(
            may is not None, str(var), iterable, cond,
            self._template(label) if label is not None else None, body, else_body or (),
            span=self._span(meta),
        )

    def may_stmt(self, meta, c):
        return n.May(self._template(c[1]), c[2], c[3] or (), span=self._span(meta))

    def random_stmt(self, meta, c):
        return n.PickRandom(str(c[0]), c[1], c[2], c[3], span=self._span(meta))

    # -- expressions
    def int_lit(self, meta, c):
        return n.Literal(self._int(c[0]), span=self._span(meta))

    def str_lit(self, meta, c):
        return n.Literal(_unescape(c[0]), span=self._span(meta))

    def true_lit(self, meta, c):
        return n.Literal(True, span=self._span(meta))

    def false_lit(self, meta, c):
        return n.Literal(False, span=self._span(meta))

    def none_lit(self, meta, c):
        return n.Literal(None, span=self._span(meta))

    def name(self, meta, c):
        return n.Name(str(c[0]), span=self._span(meta))

    def name_of(self, meta, c):
        return n.NameOf(str(c[0]), c[1], span=self._span(meta))

    def args(self, meta, c):
        return tuple(x for x in c if x is not None)

    def call(self, meta, c):
        return n.Call(str(c[0]), c[1], span=self._span(meta))

    def field(self, meta, c):
        return n.Field(c[0], str(c[1]), span=self._span(meta))

    def index(self, meta, c):
        return n.Index(c[0], c[1], span=self._span(meta))

    def list_lit(self, meta, c):
        return n.ListLit(tuple(x for x in c if x is not None), span=self._span(meta))

    def comp_for(self, meta, c):
        return (str(c[0]), c[1])

    def comprehension(self, meta, c):
        expr, *loops, cond = c
        return n.Comprehension(expr, tuple(loops), cond, span=self._span(meta))

    def map_item(self, meta, c):
        return (c[0], c[1])

    def map_lit(self, meta, c):
        return n.MapLit(tuple(x for x in c if x is not None), span=self._span(meta))

    def arith(self, meta, c):
        left = c[0]
        for i in range(1, len(c), 2):
            left = n.Arith(str(c[i]), left, c[i + 1], span=self._span(meta))
        return left

    def neg(self, meta, c):
        return n.Neg(c[0], span=self._span(meta))

    def compare(self, meta, c):
        return n.Compare(str(c[1]), c[0], c[2], span=self._span(meta))

    def contains(self, meta, c):
        return n.Contains(c[0], c[1], False, span=self._span(meta))

    def not_contains(self, meta, c):
        return n.Contains(c[0], c[1], True, span=self._span(meta))

    def is_kind(self, meta, c):
        return n.IsKind(c[0], str(c[1]), span=self._span(meta))

    def or_(self, meta, c):
        return c[0] if len(c) == 1 else n.BoolOp("or", tuple(c), span=self._span(meta))

    def and_(self, meta, c):
        return c[0] if len(c) == 1 else n.BoolOp("and", tuple(c), span=self._span(meta))

    def cond_expr(self, meta, c):
        return n.Conditional(c[0], c[1], c[2], span=self._span(meta))

    def not_(self, meta, c):
        return n.Not(c[0], span=self._span(meta))

    def _aggregate(self, op, meta, c, with_expr):
        if with_expr:
            expr, var, iterable, cond = c
        else:
            expr, (var, iterable, cond) = None, c
        return n.Aggregate(op, expr, str(var), iterable, cond, span=self._span(meta))

    def agg_sum(self, meta, c):
        return self._aggregate("sum", meta, c, True)

    def agg_highest(self, meta, c):
        return self._aggregate("highest", meta, c, True)

    def agg_lowest(self, meta, c):
        return self._aggregate("lowest", meta, c, True)

    def agg_count(self, meta, c):
        return self._aggregate("count", meta, c, False)

    def agg_any(self, meta, c):
        return self._aggregate("any", meta, c, False)

    def agg_every(self, meta, c):
        return self._aggregate("every", meta, c, False)

    def rank_expr(self, meta, c):
        value, awards, ties, at_least = c
        return n.Rank(value, awards, str(ties) if ties is not None else "share", at_least, span=self._span(meta))


def _flatten_items(tree: n.RulesFile) -> n.RulesFile:
    items = []
    for item in tree.items:
        items.extend(item if isinstance(item, list) else [item])
    return n.RulesFile(tuple(items), span=tree.span)


def _parse(text: str, source: Source, start: str, offset: tuple[int, int] = (1, 1)):
    try:
        tree = lark_parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise syntax_error(err, source, offset) from None
    except DedentError:
        raise dedent_error(text, source, offset) from None
    except RecursionError:
        raise RulesSyntaxError("this text is nested too deeply to read", Span(source, *offset)) from None
    try:
        return _ToAst(source, offset).transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RulesSyntaxError):
            raise err.orig_exc from None
        raise
    except RecursionError:
        raise RulesSyntaxError("this text is nested too deeply to read", Span(source, *offset)) from None


def parse_rules(text: str, filename: str = "<rules>") -> n.RulesFile:
    """Parse a whole rules file.

    >>> parse_rules('game "X"\\n').items[0].title
    'X'
    """
    if not text.endswith("\n"):
        text += "\n"
    return _parse_file(text, filename)


# An editor re-checks a game on every change, and the files not being edited
# (the base of a variant) come back with the same text; trees are immutable,
# so each distinct text is parsed once, and an edited text only where its
# declarations changed (incremental.py).
_DECLARATIONS = DeclarationCache(1024)


@lru_cache(maxsize=32)
def _parse_file(text: str, filename: str) -> n.RulesFile:
    source = Source(filename, text)
    chunks = declaration_chunks(text)
    if _DECLARATIONS.knows_any(filename, chunks):
        items = _parse_changed_declarations(chunks, source)
        if items is not None:
            return n.RulesFile(items, span=Span(source, 1, 1, text.count("\n") + 1, 1))
    tree = _flatten_items(_parse(text, source, "start"))
    _DECLARATIONS.remember(filename, chunks, tree.items)
    return tree


def _parse_changed_declarations(chunks, source: Source) -> tuple | None:
    """The declarations of a text, parsing only the chunks not seen before;
    None when one does not parse (the whole text then says what is wrong)."""
    items: list = []
    for line, text in chunks:
        found = _DECLARATIONS.get(source.name, line, text)
        if found is None:
            try:
                found = _flatten_items(_parse(text, source, "start", (line, 1))).items
            except RulesSyntaxError:
                return None
            _DECLARATIONS.put(source.name, line, text, found)
        items.extend(found)
    return tuple(items)


def parse_expression(text: str, source: Source, offset: tuple[int, int] = (1, 1)) -> n.Expr:
    """Parse an expression written inside card data or a label template."""
    return _parse(text, source, "expression", offset)


def parse_effects(text: str, source: Source, offset: tuple[int, int] = (1, 1)) -> n.EffectList:
    """Parse a card's effect symbols, e.g. ``gold/wood draw``."""
    return _parse(text, source, "effects", offset)


def parse_template(text: str, source: Source, offset: tuple[int, int], span: Span) -> n.Template:
    """Split "text {expr} text" into literal parts and parsed expressions."""
    parts: list = []
    pos = 0
    for match in re.finditer(r"\{([^{}]*)\}", text):
        if match.start() > pos:
            parts.append(text[pos:match.start()])
        inner_offset = (offset[0], offset[1] + match.start(1))
        parts.append(parse_expression(match.group(1), source, inner_offset))
        pos = match.end()
    if pos < len(text):
        parts.append(text[pos:])
    return n.Template(tuple(parts), span=span)
