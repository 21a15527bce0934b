"""The program's main code: setup, then rounds of turns with their hooks.

Code 0 of every program. Like a generated rule it runs in a frame and
suspends when a rule it calls asks for a decision; its blocks are the steps
of the round below.
"""
from __future__ import annotations

from ..errors import RulesRuntimeError
from ..runtime.calls import SUSPEND, GameOver, call
from .program import Code


class Phase:
    """One phase of a round: the rule its turns run, how play goes round
    ("once", "until passes", "until passes final"), its name and label, and
    its own order of play (None: the round's), as (how, function, where)."""

    __slots__ = ("code", "play", "name", "label", "order")

    def __init__(self, code: int, play: str, name=None, label=None, order=None):
        self.code, self.play, self.name, self.label, self.order = code, play, name, label, order

    @property
    def passing(self) -> bool:
        return self.play.startswith("until")


def build_main(program, setup: int, phases: list, hooks: dict) -> Code:
    """setup; then each round: fix the turn order, start-of-round hooks, and
    each phase in turn (a game without phases has one: its `turn`). In a
    phase, each turn runs the start-of-turn hooks, the phase's rule, the
    end-of-turn hooks; players take turns in the round's order, each once or
    around and around until everyone passes. At the round's end the
    end-of-round hooks and the end-of-game check."""
    start_round, start_turn = hooks.get("start of round"), hooks.get("start of turn")
    end_turn, end_round = hooks.get("end of turn"), hooks.get("end of round")
    start_phase, end_phase = hooks.get("start of phase"), hooks.get("end of phase")
    phased = program.phases is not None
    plain = start_turn is None and end_turn is None  # a turn is its rule alone (turns_once)
    # nothing between the rounds but the next round's order (turns_once goes on from round to round)
    hookless = not phased and start_round is None and end_round is None and start_phase is None and end_phase is None

    def main(st, fr, pc=0):
        codes = st.program.codes
        while True:
            if pc == 0:
                fr[1] = 1
                if call(st, setup) is SUSPEND:
                    return SUSPEND
                pc = 1
            if pc == 1:
                start_of_round(st)
                fr[2] = []  # the round's order, kept here while a phase plays in an order of its own
                if st.events is not None:
                    st.events.append(("round", st.round))
                fr[1] = 2
                if phased:
                    st.phase = 1
                if start_round is not None and call(st, start_round) is SUSPEND:
                    return SUSPEND
                pc = 2
            if pc == 2:
                if phased:
                    begin_phase(st, phases[st.phase - 1], fr)
                fr[1] = 3
                if start_phase is not None and call(st, start_phase) is SUSPEND:
                    return SUSPEND
                pc = 3
            phase = phases[st.phase - 1] if phased else phases[0]
            if pc < 7:  # the turns of the phase, one after another without leaving this loop
                once = phase.play == "once" and not st.program.turn_order
                rule = codes[phase.code]
                fast = once and plain and rule.resumable
                while True:
                    if fast:
                        if turns_once(st, fr, pc, rule, phase.code, hookless) is SUSPEND:
                            return SUSPEND
                        break
                    if pc == 3:
                        st.cur = st.me = st.order[st.pos]
                        st.turns += 1
                        if st.events is not None:
                            st.events.append(("turn", st.turns, st.me))
                        if st.turns > st.program.turn_budget:
                            too_many_turns(st)
                        fr[1] = 4
                        if start_turn is not None and call(st, start_turn) is SUSPEND:
                            return SUSPEND
                        pc = 4
                    if pc == 4:
                        fr[1] = 5
                        if rule.resumable:
                            nf = [phase.code, 0, [*rule.room]]
                            if rule.fn(st, nf) is SUSPEND:
                                st.frames.append(nf)
                                return SUSPEND
                        else:
                            rule.fn(st)
                        pc = 5
                    if pc == 5:
                        fr[1] = 6
                        if end_turn is not None and call(st, end_turn) is SUSPEND:
                            return SUSPEND
                        pc = 6
                    if once:  # next_turn of a phase played once round, without a turn order
                        st.pos += 1
                        if st.pos < len(st.order):
                            pc = 3
                            continue
                    elif next_turn(st, phase):
                        pc = 3
                        continue
                    break
                fr[1] = 7
                if end_phase is not None and call(st, end_phase) is SUSPEND:
                    return SUSPEND
                pc = 7
            if pc == 7:
                if phased and st.phase < len(phases):
                    st.phase += 1
                    pc = 2
                    continue
                fr[1] = 8
                if end_round is not None and call(st, end_round) is SUSPEND:
                    return SUSPEND
                pc = 8
            if pc == 8:
                if st.end_round is not None and st.round >= st.end_round:
                    if st.events is not None:
                        st.events.append(("end", "rounds", st.round))
                    raise GameOver()
                st.round += 1
                pc = 1

    return Code("game", 0, resumable=True, nblocks=9, fn=main)


def turns_once(st, fr, pc: int, rule, code: int, rounds: bool = False):
    """The turns of a phase played once round, each only its resumable rule
    (no start- or end-of-turn hook): the loop of `main` for its most common
    case, with nothing asked at each turn that cannot change. Resumes at
    `main`'s blocks 3 to 6 (3: a turn to begin; 4: begun, its rule to call;
    5 and 6, the turn's rule over and its missing hook, are both the next
    turn); SUSPEND if a rule asks a decision. With `rounds` (a game of no
    phase and no round hook), the next round follows here too, as `main`'s
    blocks 7, 8 and 1 to 3 would run it, until the game ends. The order and
    the position in it are kept here between turns (no rule changes them
    during a round), `st.pos` written as it moves."""
    budget = st.program.turn_budget
    fn, room = rule.fn, rule.room
    order, pos, turns = st.order, st.pos, st.turns
    seated = None if st.program.turn_order else seat_orders(st.n)  # (each round's order, by its first player)
    if pc >= 5:
        st.pos = pos = pos + 1
    fr[1] = 5  # (where `main` resumes once a turn's rule has waited: the same for every turn)
    if pc == 4:  # the turn has begun: its rule first
        nf = [code, 0, [*room]]
        if fn(st, nf) is SUSPEND:
            st.frames.append(nf)
            return SUSPEND
        st.pos = pos = pos + 1
    players = len(order)
    while True:
        if pos >= players:  # the round is over
            if not rounds:
                return None
            if st.end_round is not None and st.round >= st.end_round:
                if st.events is not None:
                    st.events.append(("end", "rounds", st.round))
                raise GameOver()
            st.round += 1
            if seated is None:
                start_of_round(st)
                order, pos = st.order, st.pos
            else:  # (start_of_round written out: the order from the first player)
                st.order = order = seated[st.first]
                st.pos = pos = 0
            players = len(order)
            if st.events is not None:
                st.events.append(("round", st.round))
        st.cur = st.me = order[pos]
        st.turns = turns = turns + 1
        if st.events is not None:
            st.events.append(("turn", turns, st.me))
        if turns > budget:
            too_many_turns(st)
        nf = [code, 0, [*room]]
        if fn(st, nf) is SUSPEND:
            st.frames.append(nf)
            return SUSPEND
        st.pos = pos = pos + 1


def begin_phase(st, phase, fr) -> None:
    """A phase starts with the first player of its order (the round's, or
    its own, made from the round's), and nobody has passed. The round's
    order is kept in the main frame's locals while a phase has its own,
    so that the phases after it play in the round's order again."""
    kept = fr[2]
    if phase.order is not None:
        if not kept:
            fr[2] = kept = [st.order]
        st.order = phase_order(st, phase.order, tuple(kept[0]))
    elif kept:
        st.order = tuple(kept[0])
    st.pos = 0
    st.passed = ()
    if st.events is not None:
        st.events.append(("phase", st.phase, phase.label or phase.name.replace("_", " ")))


def next_turn(st, phase) -> bool:
    """Move to the next turn of the phase; False when the phase is over. Once
    round: the next player in the order. Until everyone passes: around the
    order again, skipping (when passing is final) those who passed; over when
    every player has passed (without passing final: all in a row, since a
    turn that does not pass starts the count again). Together: one turn."""
    if phase.play == "together":
        return False  # one turn, the first player's, for the whole table
    if not phase.passing:
        st.pos += 1
        return next_in_order(st, phase.order is None)
    if phase.play == "until passes" and st.cur not in st.passed:
        st.passed = ()
    if all(p in st.passed for p in st.order):
        return False
    n = len(st.order)
    for step in range(1, n + 1):
        pos = (st.pos + step) % n
        if phase.play == "until passes" or st.order[pos] not in st.passed:
            st.pos = pos
            return True
    return False


def pass_phase(st, span=None) -> None:
    """`pass phase`: the player whose turn it is passes."""
    phases = st.program.phases
    if not phases or not phases[st.phase - 1].passing:
        raise RulesRuntimeError("`pass phase` in a phase that is not played until everyone passes", span)
    if st.cur not in st.passed:
        st.passed = st.passed + (st.cur,)


def start_of_round(st) -> None:
    """The round's order of play: the rules' `turn order`, or seat order from
    the first player (so `set first_player` takes effect at the next round)."""
    if st.program.turn_order:
        st.order = _turn_order(st)
        if not st.order:
            raise RulesRuntimeError("the turn order is empty")
    else:
        st.order = seat_orders(st.n)[st.first]
    st.pos = 0


_SEAT_ORDERS: dict = {}  # player count -> its orders by first player (made once: every round asks)


def seat_orders(n: int) -> tuple:
    """Seat order from each first player, for `n` players."""
    orders = _SEAT_ORDERS.get(n)
    if orders is None:
        orders = _SEAT_ORDERS[n] = tuple((*range(first, n), *range(first)) for first in range(n))
    return orders


def next_in_order(st, reread: bool = True) -> bool:
    """Whether someone else plays this round. A `turn order` is read again
    before every turn (unless `reread` is false: a phase in an order of its
    own): a player it leaves out (knocked out) takes no further turn, and
    one it adds plays after those who have played."""
    if st.program.turn_order and reread:
        played = st.order[:st.pos]
        st.order = played + tuple(p for p in _turn_order(st) if p not in played)
    return st.pos < len(st.order)


def phase_order(st, order, base: tuple) -> tuple:
    """A phase's order of play made from the round's order `base`: seat
    order from a player (`from`), sorted by a key read as each player, the
    lowest first, ties in the round's order (`by`), or reversed."""
    how, fn, span = order
    if how == "reversed":
        return base[::-1]
    if how == "from":
        first = fn(st)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < st.n:
            raise RulesRuntimeError(f"a phase's order starts from {first!r}, which is not a player's seat", span)
        return tuple(sorted(base, key=lambda p: (p - first) % st.n))
    saved, keys = st.me, {}
    try:
        for p in base:
            st.me = p
            keys[p] = fn(st)
    finally:
        st.me = saved
    if not all(isinstance(k, int) and not isinstance(k, bool) for k in keys.values()):
        raise RulesRuntimeError("a phase's order is by a key that is not a number for every player", span)
    return tuple(sorted(base, key=keys.__getitem__))


def _turn_order(st) -> tuple:
    order = tuple(st.program.turn_order(st))
    for p in order:
        if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < st.n:
            raise RulesRuntimeError(f"the turn order holds {p!r}, which is not a player's seat")
    if len(set(order)) != len(order):
        raise RulesRuntimeError(f"the turn order names a player twice: {', '.join(f'player {p + 1}' for p in order)}")
    return order


def too_many_turns(st):
    raise RulesRuntimeError(
        f"the game did not end after {st.program.turn_budget} turns: the rule 'turn' has run that often "
        "and no rule ended the game; check the end condition (e.g. `end game after 1 more round` is never reached)"
    )
