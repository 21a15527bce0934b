"""The half of the parser that runs Lark: rules text → Lark's parse tree →
typed AST nodes (nodes.py).

It is imported only when a text has to be parsed: importing Lark and
loading its tables is a good part of a short `check`, and a file whose tree
is in the cache (treecache.py) needs neither. Syntax errors become
:class:`RulesSyntaxError` with the position, the line and what was expected.
"""
from __future__ import annotations

import re

from lark import Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.indenter import DedentError

from .. import limits
from ..errors import NO_SPAN, RulesSyntaxError, Source, Span, shift
from . import nodes as n
from .grammar import TooLong, lark_parser
from .syntax_errors import dedent_error, syntax_error


def _unescape(token: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), token[1:-1])


def _raw(method):
    """Mark a rule method that wants its tokens as they are (with positions)."""
    method.raw_tokens = True
    return method


class _ToAst(Transformer):
    """Builds nodes.py nodes from Lark's parse tree.

    Every rule method receives its children inline, with tokens already turned
    into plain values (a name into str, a number into int, a string into its
    text), and returns a node; the node's span is attached here, once, from
    the rule's position (`_call_userfunc`). A method marked `_raw` gets the
    tokens themselves, for their positions.
    """

    def __init__(self, source: Source, offset: tuple[int, int] = (1, 1)):
        super().__init__(visit_tokens=False)
        self.source = source
        self.offset = offset

    def _call_userfunc(self, tree, new_children=None):
        children = new_children if new_children is not None else tree.children
        build = getattr(self, tree.data)
        if not getattr(build, "raw_tokens", False):
            children = [self._value(c) if isinstance(c, Token) else c for c in children]
        node = build(*children)
        if isinstance(node, n.Node) and node.span is NO_SPAN:
            object.__setattr__(node, "span", self._span(tree.meta))
        return node

    # -- positions and tokens
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

    def _value(self, tok: Token):
        if tok.type == "INT":
            if len(tok) > 18:
                raise RulesSyntaxError("this number is too large (at most 18 digits)", self._tspan(tok))
            return int(tok)
        if tok.type == "STRING":
            return _unescape(tok)
        if tok.type in ("FIELD_TYPE", "PLACE"):
            return " ".join(tok.split())
        return str(tok)

    def _template(self, tok: Token | None) -> n.Template | None:
        if tok is None:
            return None
        return parse_template(_unescape(str(tok)), self.source, shift(tok.line, tok.column + 1, self.offset), self._tspan(tok))

    # -- file and declarations
    start = staticmethod(lambda *items: n.RulesFile(items))
    expression = staticmethod(lambda expr: expr)
    effects = staticmethod(lambda *items: n.EffectList(items))
    effect_item = staticmethod(lambda *names: n.EffectItem(names))
    game_decl = n.GameDecl
    extends_decl = n.ExtendsDecl
    def param_decl(self, name, value, allowed):
        kind, *rest = allowed or (None,)
        if kind == "values":
            return n.ParamDecl(name, value, rest[0])
        if kind == "range":
            return n.ParamDecl(name, value, None, rest[0], rest[1])
        return n.ParamDecl(name, value)

    allowed_values = staticmethod(lambda values: ("values", values))
    allowed_range = staticmethod(lambda low, high: ("range", low, high))
    order_decl = n.TurnOrderDecl
    backs_per_kind = staticmethod(lambda: n.BacksDecl("kind"))
    backs_field = staticmethod(lambda name: n.BacksDecl("field", (name,)))
    backs_kinds = staticmethod(lambda names: n.BacksDecl("kinds", tuple(name for name, _ in names)))
    cards_decl = n.CardsDecl
    define_decl = staticmethod(lambda name, params, expr: n.DefineDecl(name, params or (), expr))
    @staticmethod
    def effect_decl(name, label, when, otherwise, body):
        reason, unlisted = otherwise or (None, False)
        return n.EffectDecl(name, label, body, when, reason, unlisted)

    otherwise_reason = staticmethod(lambda reason: (reason, False))
    otherwise_hidden = staticmethod(lambda: (None, True))
    procedure_decl = staticmethod(lambda name, params, body: n.ProcedureDecl(name, params or (), body))
    setup_decl = n.SetupDecl
    turn_decl = n.TurnDecl

    def phase_decl(self, name, label, play, order, body):
        if play is None:
            mode = "once"
        elif play == "together":
            mode = "together"
        else:
            mode = "until passes final" if "final" in play else "until passes"
        return n.PhaseDecl(name, label, mode, body, order)

    order_from = staticmethod(lambda player: n.PhaseOrder("from", player))
    order_by = staticmethod(lambda key: n.PhaseOrder("by", key))
    order_reversed = staticmethod(lambda: n.PhaseOrder("reversed"))
    hook_decl = n.HookDecl
    empty_hook_decl = n.EmptyHookDecl
    score_decl = staticmethod(lambda *terms: n.ScoreDecl(terms))
    score_term = n.ScoreTerm
    tiebreak_decl = staticmethod(lambda *exprs: n.TiebreakDecl(exprs))
    cooperative_decl = n.CooperativeDecl
    teams_decl = n.TeamsDecl
    kind_decl = staticmethod(lambda name, *fields: n.KindDecl(name, fields))
    kind_decl_plain = staticmethod(lambda name: n.KindDecl(name, ()))
    field_decl = staticmethod(lambda name, ftype: (name, ftype))
    params = staticmethod(lambda *names: tuple(x for x in names if x is not None))

    def players_decl(self, low, high):
        return n.PlayersDecl(low, high if high is not None else low)

    def override_decl(self, inner):
        if isinstance(inner, list):  # `override counter a, b: ...`
            return [n.Override(d, span=d.span) for d in inner]
        return n.Override(inner)

    @_raw
    def board_decl(self, kind, zone, a, b, adjacent):
        return n.BoardDecl(str(kind), str(a), str(b), adjacent, str(zone) if zone is not None else None,
                           span=self._tspan(kind))

    @_raw
    def show_decl(self, name, template):
        return n.ShowDecl(str(name), self._template(template))

    def show_value_decl(self, name, visibility):
        return n.ShowValueDecl(name, visibility or "visible")

    @_raw
    def reaction_decl(self, name, params, label, event, when, publicly, body):
        return n.ReactionDecl(str(name), params or (), self._template(label), str(event), when, body,
                              publicly is not None)

    publicly = staticmethod(lambda: True)

    def announce_stmt(self, event, args, start, first_only):
        speak = first_only is not None and "speak" in first_only
        return n.Announce(event, tuple(args or ()), start, first_only is not None and not speak, first_to_speak=speak)

    @_raw
    def marker_decl(self, name, label, var, iterable, space):
        return n.MarkerDecl(str(name), self._template(label), str(var), iterable, space)

    @_raw
    def action_decl(self, name, label, when, otherwise, body):
        reason, unlisted = otherwise or (None, False)
        return n.ActionDecl(str(name), self._template(label), when, body, reason, unlisted)

    @_raw
    def name_list(self, *names):
        return [(str(t), self._tspan(t)) for t in names]

    scope_player = staticmethod(lambda: "player")
    scope_card = staticmethod(lambda: "card")
    scope_shared = staticmethod(lambda: "shared")
    vis_hidden = staticmethod(lambda: "hidden")
    vis_visible = staticmethod(lambda: "visible")
    vis_owner = staticmethod(lambda: "owner")
    vis_others = staticmethod(lambda: "others")
    signed_int = staticmethod(lambda value: value)
    negative_int = staticmethod(lambda value: -value)
    opt_min = staticmethod(lambda value: ("minimum", value))
    opt_max = staticmethod(lambda value: ("maximum", value))
    opt_visibility = staticmethod(lambda value: ("visibility", value))
    opt_holds_player = staticmethod(lambda: ("holds_player", True))
    opt_unlisted = staticmethod(lambda: ("unlisted", True))
    opt_stack = staticmethod(lambda: ("stack", True))
    opt_size_hidden = staticmethod(lambda: ("size_hidden", True))
    opt_top_visible = staticmethod(lambda: ("top_visible", True))
    opt_slots = staticmethod(lambda value: ("slots", value))

    def counter_decl(self, names, scope, *options):
        return [n.CounterDecl(name, scope, **dict(options), span=span) for name, span in names]

    def zone_decl(self, names, scope, *options):
        return [n.ZoneDecl(name, scope, **dict(options), span=span) for name, span in names]

    # -- statements
    block = staticmethod(lambda *stmts: stmts)
    ref = n.Ref
    gain_stmt = n.Gain
    pay_stmt = n.Pay
    lose_stmt = n.Lose
    set_stmt = n.SetCounter
    deal_stmt = n.Deal
    shuffle_stmt = n.Shuffle
    look_stmt = n.LookAt
    reveal_stmt = n.Reveal
    reorder_stmt = n.Reorder
    forget_stmt = n.Forget
    slide_stmt = n.Slide
    refill_stmt = n.Refill
    stop_stmt = n.Stop
    pass_stmt = n.Pass
    pass_phase_stmt = n.PassPhase
    let_stmt = n.Let
    resolve_stmt = n.Resolve
    choose_action_stmt = n.ChooseAction
    end_now = staticmethod(lambda: n.EndGame(None))
    end_lost = staticmethod(lambda: n.EndGame(None, lost=True))
    end_won = staticmethod(lambda: n.EndGame(None, won=True))
    end_after_rounds = staticmethod(lambda rounds, _word: n.EndGame(rounds))
    as_stmt = n.ActAs
    for_stmt = n.ForEach
    repeat_while = n.RepeatWhile
    repeat_times = n.RepeatTimes
    random_stmt = n.PickRandom
    elif_clause = staticmethod(lambda cond, body: (cond, body))
    else_clause = staticmethod(lambda body: body)

    def move_stmt(self, cards, dest, place):
        return n.Move(cards, dest, "bottom" if place == "at bottom" else "top")

    move_at_place = staticmethod(lambda cards, dest, at: n.Move(cards, dest, "top", at))

    def call_stmt(self, name, args):
        return n.CallStmt(name, tuple(args or ()))

    def if_stmt(self, cond, body, *rest):
        *elifs, else_body = rest
        return n.If(((cond, body), *elifs), else_body or ())

    @_raw
    def choose_stmt(self, together, may, count, var, iterable, cond, secretly, label, body, else_body):
        return n.Choose(may is not None, str(var), iterable, cond, self._template(label), body, else_body or (),
                        together is not None, secretly is not None, count=count)

    def choose_count(self, count):
        return count if isinstance(count, n.Node) else n.Literal(count)

    @_raw
    def choose_named(self, together, may, count, var, iterable, cond, secretly, label, body, else_label, else_body):
        return n.Choose(True, str(var), iterable, cond, self._template(label), body, else_body,
                        together is not None, secretly is not None, count=count, else_label=self._template(else_label))

    @_raw
    def tell_stmt(self, text):
        return n.Tell(self._template(text))

    @_raw
    def may_stmt(self, may, label, body, else_body):
        return n.May(self._template(label), body, else_body or ())

    @_raw
    def may_named(self, may, label, body, else_label, else_body):
        return n.May(self._template(label), body, else_body, self._template(else_label))

    # -- expressions
    int_lit = staticmethod(lambda value: n.Literal(value))

    @_raw
    def str_lit(self, token):
        """A text; one with `{...}` parts is a template, wherever it is written."""
        text = _unescape(str(token))
        if re.search(r"\{[^{}]*\}", text):
            return self._template(token)
        return n.Literal(text)
    true_lit = staticmethod(lambda: n.Literal(True))
    false_lit = staticmethod(lambda: n.Literal(False))
    none_lit = staticmethod(lambda: n.Literal(None))
    name = n.Name
    name_of = n.NameOf
    call = n.Call
    field = n.Field
    index = n.Index
    neg = n.Neg
    not_ = n.Not
    is_kind = n.IsKind
    cond_expr = n.Conditional
    args = staticmethod(lambda *values: tuple(x for x in values if x is not None))
    def list_lit(self, *items):
        return n.ListLit(_within_budget(tuple(x for x in items if x is not None), "list"))

    range = staticmethod(lambda low, high: n.Range(low, high))

    def map_lit(self, *items):
        return n.MapLit(_within_budget(tuple(x for x in items if x is not None), "map"))
    map_item = staticmethod(lambda key, value: (key, value))
    comp_for = staticmethod(lambda var, iterable: (var, iterable))

    def comprehension(self, expr, *rest):
        *loops, cond = rest
        return n.Comprehension(expr, tuple(loops), cond)

    def arith(self, *parts):
        left = parts[0]
        for i in range(1, len(parts), 2):
            left = n.Arith(parts[i], left, parts[i + 1], span=_joined(left.span, parts[i + 1].span))
        return left

    def compare(self, left, op, right):
        return n.Compare(op, left, right)

    def contains(self, item, container):
        return n.Contains(item, container, False)

    def not_contains(self, item, container):
        return n.Contains(item, container, True)

    def or_(self, *operands):
        return operands[0] if len(operands) == 1 else n.BoolOp("or", operands)

    def and_(self, *operands):
        return operands[0] if len(operands) == 1 else n.BoolOp("and", operands)

    def agg_sum(self, expr, var, iterable, cond):
        return n.Aggregate("sum", expr, var, iterable, cond)

    def agg_highest(self, expr, var, iterable, cond):
        return n.Aggregate("highest", expr, var, iterable, cond)

    def agg_lowest(self, expr, var, iterable, cond):
        return n.Aggregate("lowest", expr, var, iterable, cond)

    def agg_count(self, var, iterable, cond):
        return n.Aggregate("count", None, var, iterable, cond)

    def agg_any(self, var, iterable, cond):
        return n.Aggregate("any", None, var, iterable, cond)

    def agg_every(self, var, iterable, cond):
        return n.Aggregate("every", None, var, iterable, cond)

    def rank_expr(self, value, awards, ties, at_least):
        return n.Rank(value, awards, ties if ties is not None else "share", at_least)


def _within_budget(items: tuple, what: str) -> tuple:
    if len(items) > limits.LIST_ITEMS:
        raise RulesSyntaxError(f"this {what} has {len(items):,} items; a {what} written in the rules may have at most "
                               f"{limits.LIST_ITEMS:,} (the limit)", _joined(_span_of(items[0]), _span_of(items[-1])))
    return items


def _span_of(item) -> Span:
    return item.span if isinstance(item, n.Node) else _span_of(item[0])


def _joined(first: Span, last: Span) -> Span:
    """The span from the start of `first` to the end of `last`."""
    return Span(first.source, first.line, first.column, last.end_line, last.end_column)


def _flatten_items(tree: n.RulesFile) -> n.RulesFile:
    items = []
    for item in tree.items:
        items.extend(item if isinstance(item, list) else [item])
    return n.RulesFile(tuple(items), span=tree.span)


def parse_text(text: str, source: Source, start: str, offset: tuple[int, int] = (1, 1)):
    """Parse `text` from the grammar's start symbol `start` into nodes; a
    syntax error becomes a RulesSyntaxError placed at `offset`."""
    try:
        tree = lark_parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise syntax_error(err, source, offset) from None
    except DedentError:
        raise dedent_error(text, source, offset) from None
    except TooLong as err:
        line, column = shift(err.token.line, err.token.column, offset)
        raise RulesSyntaxError(f"this text has more than {limits.TOKENS:,} words and symbols: that is the limit",
                               Span(source, line, column, line, column + 1), "split it, or write long lists as card data") from None
    except RecursionError:
        raise RulesSyntaxError("this text is nested too deeply to read", Span(source, *offset)) from None
    try:
        return _ToAst(source, offset).transform(tree)
    except RecursionError:
        raise RulesSyntaxError("this text is nested too deeply to read", Span(source, *offset)) from None


def parse_declarations(text: str, source: Source, offset: tuple[int, int] = (1, 1)) -> n.RulesFile:
    """A rules text (a whole file, or the declarations of a part of one
    starting at `offset`), with the declarations that declare several names
    at once spread into one item each."""
    return _flatten_items(parse_text(text, source, "start", offset))


def parse_template(text: str, source: Source, offset: tuple[int, int], span: Span) -> n.Template:
    """Split "text {expr} text" into literal parts and parsed expressions."""
    parts: list = []
    pos = 0
    for match in re.finditer(r"\{([^{}]*)\}", text):
        if match.start() > pos:
            parts.append(text[pos:match.start()])
        inner_offset = (offset[0], offset[1] + match.start(1))
        parts.append(parse_text(match.group(1), source, "expression", inner_offset))
        pos = match.end()
    if pos < len(text):
        parts.append(text[pos:])
    return n.Template(tuple(parts), span=span)



def reads_as_name(name: str) -> bool:
    """Whether `name`, written alone in an expression, parses to that name."""
    try:
        tree = lark_parser().parse(name, start="expression")
    except (UnexpectedInput, DedentError, TooLong, RecursionError):
        return False
    while tree.data != "name" and len(tree.children) == 1 and hasattr(tree.children[0], "data"):
        tree = tree.children[0]
    return tree.data == "name"
