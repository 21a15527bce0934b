"""The checker's rules for the order of play: phases and `pass phase`,
reactions and `announce`, simultaneous choices.

A mixin of checker.Checker: the methods report through its `error` and
`warning` and walk bodies with its visitor.
"""
from __future__ import annotations

from collections import deque

from . import nodes as n
from .builtins import FUNCTIONS
from .builtin_events import EVENTS
from ..errors import did_you_mean


class FlowChecks:
    """Checks of phases, reactions and simultaneous choices."""

    def check_phases(self):
        """A round is either turns (`turn:`) or phases; the phase hooks and
        `pass phase` need phases (played until everyone passes)."""
        m = self.model
        if m.phases and m.turn is not None:
            first = next(iter(m.phases.values()))
            self.error(f"the rules have both a 'turn' block and phases (phase '{first.name}' at line {first.span.line})",
                       m.turn.span, "a round is either one turn per player (`turn:`) or its phases: "
                                    "make the turn a phase (`phase NAME:`) or drop the phases")
        for moment, decl in m.hooks.items():
            if moment.endswith("phase") and not m.phases:
                self.error(f"`at {moment}` but the rules declare no phase", decl.span,
                           "declare the round's phases (`phase NAME:`), or use `at "
                           f"{moment.replace('phase', 'round')}`")
        if not any(decl.play.startswith("until") for decl in m.phases.values()):
            for s in all_stmts(m):
                if isinstance(s, n.PassPhase):
                    self.error("`pass phase` but no phase is played until everyone passes", s.span,
                               "write `phase NAME until everyone passes:` for a phase players may pass in")
        else:
            reported = set()
            for decl in m.phases.values():
                if decl.play.startswith("until"):
                    continue
                hint = f"write `phase {decl.name} until everyone passes:` for players to pass in it"
                for s, chain in passes_reached(m, run_in_phase(m, decl)):
                    if s.span in reported:
                        continue
                    reported.add(s.span)
                    if not chain:
                        self.error(f"`pass phase` in phase '{decl.name}', which is not played until everyone passes",
                                   s.span, hint)
                        continue
                    through = ", then ".join(f"{what} '{name}' (line {span.line})" for what, name, span in chain)
                    self.error(f"`pass phase` reached from phase '{decl.name}', which is not played until everyone "
                               f"passes, through {through}", s.span,
                               hint + ", or keep the `pass phase` out of what that phase runs")

    def check_reactions(self):
        """Every reaction answers an event some rule announces, or one the
        engine announces itself with as many values as it takes."""
        announced = {s.event for s in all_stmts(self.model) if isinstance(s, n.Announce)}
        for decl in self.model.reactions.values():
            event = EVENTS.get(decl.event)
            if event is not None:
                self.builtin_reaction(decl, event)
            elif decl.event not in announced:
                self.warning(f"reaction '{decl.name}' answers '{decl.event}', which no rule announces", decl.span,
                             did_you_mean(decl.event, announced | set(EVENTS))
                             or f"write `announce {decl.event}` where it happens")

    def builtin_reaction(self, decl, event):
        if len(decl.params) != len(event.params):
            gives = f"gives {len(event.params)} value{'s' if len(event.params) != 1 else ''}"
            self.error(f"reaction '{decl.name}' answers '{event.name}', which {gives}, but it takes "
                       f"{len(decl.params)}", decl.span,
                       f"the engine announces it as {event.usage}: write `reaction {decl.name}"
                       f"{'(' + ', '.join(event.params) + ')' if event.params else ''} ... to {event.name}`")
        if event.phased and not self.model.phases:
            turn = event.name.replace("phase", "turn")
            self.error(f"reaction '{decl.name}' answers '{event.name}', but the rules declare no phase", decl.span,
                       f"declare the round's phases (`phase NAME:`), or answer `{turn}`")

    def visit_Announce(self, s, scope):
        for a in s.args:
            self.expr(a, scope)
        if s.start is not None:
            self.expr(s.start, scope)
        event = EVENTS.get(s.event)
        if event is not None:
            side = "after" if event.after_hook else "before"
            self.error(f"`announce {s.event}`: the engine announces '{s.event}' itself, "
                       f"{side} `at {event.moment}`", s.span,
                       f"drop the `announce` (reactions to {s.event} need none), or give your own event "
                       f"another name, e.g. 'my_{s.event}'")
            return
        answers = self.model.reactions_to(s.event)
        if not answers:
            events = {d.event for d in self.model.reactions.values()}
            self.error(f"`announce {s.event}` but no reaction answers '{s.event}'", s.span,
                       did_you_mean(s.event, events) or f"declare one: `reaction NAME \"label\" to {s.event}: ...`")
        for d in answers:
            if len(d.params) != len(s.args):
                self.error(f"`announce {s.event}` gives {len(s.args)} value{'s' if len(s.args) != 1 else ''}, but "
                           f"reaction '{d.name}' takes {len(d.params)}", s.span,
                           f"it is declared as {d.name}({', '.join(d.params)}) (line {d.span.line})")

    def secret_choice(self, s):
        """`choose ... secretly` is its player's alone while its block runs:
        no other player may decide there (the worlds a bot of that player
        samples would hold the secret), and a simultaneous choice is told
        once every player has chosen, so it cannot be secret as well."""
        if s.simultaneous:
            self.error("`simultaneously choose ... secretly`: a simultaneous choice is told once every player has "
                       "chosen", s.span, "drop `secretly`, or `simultaneously` for one player's secret choice")
            return
        other = lets_others_decide(self.model, s.body)
        if other is not None:
            self.error(f"the block of `choose ... secretly` lets another player decide (line {other.span.line}), "
                       "while the choice is its player's secret", s.span,
                       "end the block before another player is asked, keeping what the choice decided in a counter "
                       "its player alone sees")

    def simultaneous_choice(self, s):
        """Every player makes a simultaneous choice: not inside `as p:` (where
        p alone decides) nor inside another one's bodies (run per player)."""
        if not self.acting:
            return
        outer = self.acting[-1]
        if isinstance(outer, n.ActAs):
            self.error("`simultaneously choose` inside `as ...:`: every player makes a simultaneous choice, "
                       f"not only the player of the `as` block (line {outer.span.line})", s.span,
                       "move the choice out of the `as` block, or drop `simultaneously` for that player's own choice")
        else:
            self.error("`simultaneously choose` inside the body of another simultaneous choice "
                       f"(line {outer.span.line}), which runs once for each player", s.span,
                       "make the two choices one after the other, or drop `simultaneously` for a choice "
                       "each player makes in turn")


    def endless_loop(self, s, scope):
        """Warn of a `repeat while` that cannot end once it starts: nothing
        in it leaves the loop (`stop`, `end game now`, even through the rules
        it runs) and its condition reads nothing the loop can change (`true`,
        numbers, parameters, locals set before the loop). Such a loop is
        stopped at run time only by the step budget, or by the decision
        budget seconds later if every pass asks a decision."""
        if _may_change(s.cond, scope, self.model) or _may_leave(self.model, s.body):
            return
        asks = _asks(self.model, s.body)
        hint = "write `stop` where the loop should end (e.g. in the `else` of a decision), or test in the condition " \
               "something the loop changes (a counter, a zone)"
        if isinstance(s.cond, n.Literal) and s.cond.value is True:
            what = "`repeat while true` never ends: nothing in it leaves the loop"
        else:
            what = "`repeat while` never ends once it starts: its condition reads nothing the loop changes, and " \
                   "nothing in it leaves the loop"
        if asks:
            what += ", and each pass asks a decision: the game asks again until the decision budget stops it"
        self.warning(what, s.span, hint)



# Built-in values that stay the same for a whole game. (A built-in function
# whose value depends on its arguments alone says so itself: `Builtin.fixed`.)
_CONSTANT_VALUES = frozenset({"players", "seats"})


def _may_change(expr, scope, model, bound=frozenset()) -> bool:
    """Whether the value of `expr` may change while a loop runs: it reads a
    counter, a zone, a definition, the state of the game."""
    if isinstance(expr, n.Name):
        name = expr.name
        return not (name in scope or name in bound or name in model.params or name in _CONSTANT_VALUES)
    if isinstance(expr, (n.NameOf, n.Rank)):
        return True
    if isinstance(expr, n.Call) and (expr.name in model.defines or expr.name not in FUNCTIONS
                                     or not FUNCTIONS[expr.name].fixed):
        return True
    if isinstance(expr, n.Field) and any(name == expr.name and str(kind).startswith("expression")
                                         for decl in model.kinds.values() for name, kind in decl.fields):
        return True
    if isinstance(expr, n.Aggregate):
        inner = bound | {expr.var}
        return _may_change(expr.iterable, scope, model, bound) or any(
            _may_change(e, scope, model, inner) for e in (expr.expr, expr.cond) if e is not None)
    if isinstance(expr, n.Comprehension):
        for var, iterable in expr.loops:
            if _may_change(iterable, scope, model, bound):
                return True
            bound = bound | {var}
        return any(_may_change(e, scope, model, bound) for e in (expr.expr, expr.cond) if e is not None)
    return any(_may_change(child, scope, model, bound) for child in n.children(expr) if isinstance(child, n.Expr))


def _reached(model, stmts):
    """Every statement running `stmts` may run: theirs, those of the rules
    they call (see `_run_by`) and of every trigger (any change may fire one)."""
    todo, seen = deque([stmts, *(decl.body for decl in model.empty_hooks.values())]), set()
    while todo:
        for s in walk_stmts(todo.popleft()):
            yield s
            for what, decl in _run_by(model, s):
                if (what, decl.name) not in seen:
                    seen.add((what, decl.name))
                    todo.append(decl.body)


def lets_others_decide(model, body):
    """A statement in `body`, or in what it runs, through which another
    player may decide (`as`, `announce`, `simultaneously choose`), or None."""
    return next((s for s in _reached(model, body) if s.lets_others_decide()), None)


def _may_leave(model, body) -> bool:
    """Whether a loop's body may end the loop: a `stop` in it, or an `end
    game` that ends it now in it or in what it runs."""
    return any(isinstance(s, n.Stop) for s in walk_stmts(body)) or any(
        isinstance(s, n.EndGame) and s.after_rounds is None for s in _reached(model, body))


def _asks(model, body) -> bool:
    return any(s.facts.asks_each_run for s in _reached(model, body))


def all_stmts(model):
    """Every statement of every rule of `model`."""
    for decl in model.rules():
        yield from walk_stmts(decl.body)


def run_in_phase(model, decl):
    """What a phase runs, each as (statements, how it is reached): its block,
    the hooks of every turn and phase, and the reactions to the events the
    engine announces at those moments."""
    yield decl.body, ()
    for moment, hook in model.hooks.items():
        if moment.endswith(("turn", "phase")):
            yield hook.body, (("hook", f"at {moment}", hook.span),)
    for reaction in model.reactions.values():
        if reaction.event in EVENTS:
            yield reaction.body, (("reaction", reaction.name, reaction.span),)


def passes_reached(model, starts):
    """Each `pass phase` that running `starts` ((statements, chain) pairs) may
    reach, with the calls that lead to it, nearest first: (statement,
    ((what, name, span of the call), ...)). Calls are procedures and effects
    called, effects resolved (any may be on a card), actions offered by
    `choose action` and reactions to an announce."""
    seen: set = set()
    todo = deque(starts)
    while todo:
        stmts, chain = todo.popleft()
        for s in walk_stmts(stmts):
            if isinstance(s, n.PassPhase):
                yield s, chain
            for what, decl in _run_by(model, s):
                if (what, decl.name) not in seen:
                    seen.add((what, decl.name))
                    todo.append((decl.body, chain + ((what, decl.name, s.span),)))


def _run_by(model, s):
    """The rules statement `s` may run: (what, declaration)."""
    if isinstance(s, n.CallStmt):
        if s.name in model.procedures:
            yield "procedure", model.procedures[s.name]
        elif s.name in model.effects:
            yield "effect", model.effects[s.name]
    elif isinstance(s, n.Resolve):
        yield from (("effect", decl) for decl in model.effects.values())
    elif isinstance(s, n.ChooseAction):
        yield from (("action", decl) for decl in model.actions.values())
    elif isinstance(s, n.Announce):
        yield from (("reaction", decl) for decl in model.reactions_to(s.event))


def walk_stmts(stmts):
    """Every statement in `stmts`, nested ones included."""
    for s in stmts:
        for node in n.walk(s):
            if isinstance(node, n.Stmt):
                yield node
