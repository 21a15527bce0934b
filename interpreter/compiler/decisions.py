"""Decision points: where the rules ask a player to choose.

The generated code computes a decision's options, stores them in the state as
the pending decision (decider, point, option ids, option values) and suspends. The point object
made here for each decision of the rules says how to label an option, what
the prompt is, and how the chosen value resumes the rule (`apply` writes the
value into the frame and names the block to continue at). Labels are made
only when asked for.
"""
from __future__ import annotations

from .codegen import Label
from ..runtime.ops import chosen
from ..runtime.helpers import DONE, NOT_ASKED, PASS
from ..runtime.values import Told, render

UNSEEN_CARD = "a card you cannot see"  # a card option's label for a player who does not see the card
UNSEEN_OPTION = "an option chosen in secret"  # an option of `choose ... secretly`, for another player


class Point:
    """One decision point of the rules."""

    prompt_text = "Choose"
    kind = None  # "card" where the options are cards (what a player may see of a choice depends on it)
    secretly = False  # `choose ... secretly`: which option was taken is told to its player alone
    # the options are cards lying in zones every player sees: one chosen there
    # is seen taken by all (ops.chosen has nothing to do)
    in_sight = False
    # and none is held by a card: the player deciding sees each where it
    # lies already (nothing to show it: ops.show_options)
    shown = False

    def __init__(self):
        self.id = None  # index in program.decisions
        self.code = None  # index of the rule it is in
        self.span = None
        self.ask = None  # the block that computes the options (to ask again)

    def finish(self, ns: dict) -> None:
        """After the module is built: block labels become numbers, function
        names become functions."""
        for name, value in list(vars(self).items()):
            if isinstance(value, Label):
                setattr(self, name, value.n)

    def prompt(self, st, fr) -> str:
        return self.prompt_text

    def label(self, st, fr, value) -> str:
        return render(value)

    def apply(self, st, fr, value) -> None:
        raise NotImplementedError

    def unavailable(self, st, fr) -> list:
        """(label, reason) of each option the rules offer here that cannot
        be taken now (an action or effect whose `when` does not hold),
        shown beside the options but never one of them."""
        return []


class ChoosePoint(Point):
    """`[may] choose x in L where C as "label"`: one of the values, or pass."""

    def __init__(self, slot: int, kind, label_fn, prompt: str):
        super().__init__()
        self.slot, self.kind, self.label_fn, self.prompt_text = slot, kind, label_fn, prompt
        self.other_fn = None  # `may choose ... else "label":`: the label of passing (else "pass")
        self.body = self.other = None

    def finish(self, ns):
        super().finish(ns)
        self.label_fn = ns[self.label_fn] if self.label_fn else None
        self.other_fn = ns[self.other_fn] if self.other_fn else None

    def apply(self, st, fr, value):
        if value == PASS:
            fr[1] = self.other
        else:
            if self.kind == "card" and not self.in_sight:
                chosen(st, value)
            fr[2][self.slot] = value
            fr[1] = self.body

    def label(self, st, fr, value):
        if value == PASS:
            return self.other_fn(st, fr[2]) if self.other_fn is not None else "pass"
        L = fr[2]
        saved = L[self.slot]
        L[self.slot] = value
        try:
            if self.label_fn is not None:
                return self.label_fn(st, L)
            if self.kind == "card":
                return Told(((st.program.card_names[value], (value,), UNSEEN_CARD),))
            if self.kind == "player":
                return f"player {value + 1}"
            return render(value)
        finally:
            L[self.slot] = saved


class MayPoint(Point):
    """`may "label": ...`: yes or no; a reaction offered in the response
    window of event `window` is one too."""

    def __init__(self, label_fn, prompt: str, window: str | None = None):
        super().__init__()
        self.label_fn, self.prompt_text, self.window = label_fn, prompt, window
        self.other_fn = None  # `else "label":`: the label of "no" (else "pass")
        self.body = self.other = None

    def finish(self, ns):
        super().finish(ns)
        self.label_fn = ns[self.label_fn]
        self.other_fn = ns[self.other_fn] if self.other_fn else None

    def apply(self, st, fr, value):
        fr[1] = self.body if value == "yes" else self.other

    def label(self, st, fr, value):
        if value == "yes":
            return self.label_fn(st, fr[2])
        return self.other_fn(st, fr[2]) if self.other_fn is not None else "pass"


class ActionPoint(Point):
    """`choose action`: one of the actions whose `when` holds."""

    prompt_text = "Choose an action"

    def __init__(self, names: list, label_fns: list, slot: int, reasons: list):
        super().__init__()
        self.names, self.label_fns, self.slot = names, label_fns, slot
        self.reasons = reasons  # per action, why it is not open while its `when` does not hold (None: not shown)
        self.dispatch = None

    def finish(self, ns):
        super().finish(ns)
        self.label_fns = [ns[f] for f in self.label_fns]

    def apply(self, st, fr, value):
        fr[2][self.slot] = value
        fr[1] = self.dispatch

    def label(self, st, fr, value):
        return self.label_fns[value](st, None)

    def unavailable(self, st, fr):
        open_now = set(st.option_values)
        return [(self.label_fns[k](st, None), reason) for k, reason in enumerate(self.reasons)
                if reason is not None and k not in open_now]


class ResolveAnyPoint(Point):
    """`resolve any of E`: any or all of the effect items in any order; a `/`
    item offers each alternative; `done` skips the rest."""

    prompt_text = "Resolve effects in any order"

    def __init__(self, rem: int, fx: int, cur: int):
        super().__init__()
        self.rem, self.fx, self.cur = rem, fx, cur
        self.call = self.end = None

    def apply(self, st, fr, value):
        if value == DONE:
            fr[1] = self.end
            return
        i, alt = value
        L = fr[2]
        rem = L[self.rem]  # (the items left: `i`, an option made of them, is one, once)
        k = rem.index(i)
        L[self.rem] = rem[:k] + rem[k + 1:]
        L[self.cur] = alt
        fr[1] = self.call

    def label(self, st, fr, value):
        if value == DONE:
            return "done (skip the remaining effects)" if fr[2][self.rem] else "done"
        i, alt = value
        text = st.program.effect_labels.get(alt, alt)
        alts = fr[2][self.fx][i]
        if len(alts) > 1:
            text += f" (effect {i + 1}: {'/'.join(alts)})"
        return text

    def unavailable(self, st, fr):
        L = fr[2]
        effects = L[self.fx]
        return [(self.label(st, fr, (i, alt)), reason) for i in L[self.rem]
                for alt, reason in effects_not_open(st, effects[i])]


class ResolveAllPoint(Point):
    """`resolve all of E`: every item in order; a `/` item asks which alternative."""

    prompt_text = "Choose one effect"

    def __init__(self, idx: int, cur: int, fx: int):
        super().__init__()
        self.idx, self.cur, self.fx = idx, cur, fx
        self.call = None

    def apply(self, st, fr, value):
        L = fr[2]
        L[self.idx] += 1
        L[self.cur] = value
        fr[1] = self.call

    def label(self, st, fr, value):
        return st.program.effect_labels.get(value, value)

    def unavailable(self, st, fr):
        L = fr[2]
        return [(self.label(st, fr, alt), reason) for alt, reason in effects_not_open(st, L[self.fx][L[self.idx]])]


def effects_not_open(st, alternatives) -> list:
    """(effect, reason) of each of `alternatives` whose `when` does not hold now."""
    conditions, reasons = st.program.effect_conditions, st.program.effect_reasons
    return [(alt, reasons[alt]) for alt in alternatives
            if alt in reasons and not conditions[alt](st)]


class SimultaneousPoint(ChoosePoint):
    """`simultaneously [may] choose x in L`: each player in turn picks one of
    its values (or passes); the pick joins the others, kept in the frame and
    told to no one else, and the next player is asked. Which player is
    asked, and the picks so far, are the frame's: `secret` tells the
    engine's listeners and the sampled worlds that the picks of the others
    are hidden until all are made."""

    secret = True
    secret_words = "has chosen (shown when every player has)"  # what the others are told of a pick

    def __init__(self, slot: int, kind, label_fn, prompt: str, picks: int, seats: int):
        super().__init__(slot, kind, label_fn, prompt)
        self.picks, self.seats = picks, seats  # the frame slots of the picks so far and of the players asked

    def apply(self, st, fr, value):
        fr[2][self.picks] = fr[2][self.picks] + (value,)
        fr[1] = self.ask


class SpeakPoint(SimultaneousPoint):
    """A player's answer in a window where the first to speak takes the
    offer (`announce ... first to speak`): "yes" (or, where several
    reactions answer the event, the name of the one it takes) or "no",
    asked of each player in turn as a simultaneous choice is, and told to
    no one else; once all have answered, only who took the offer is told
    (`spoke`)."""

    secret_words = "has answered (only who speaks first is told)"

    def __init__(self, label_fns: dict, prompt: str, window: str, picks: int, seats: int):
        super().__init__(picks, None, None, prompt, picks, seats)
        self.label_fns, self.window = label_fns, window  # option value -> its reaction's label function

    def finish(self, ns):
        super().finish(ns)
        self.label_fns = {value: ns[fn] for value, fn in self.label_fns.items()}

    def label(self, st, fr, value):
        return "pass" if value == "no" else self.label_fns[value](st, fr[2])


def spoke(st, fr, point: int, seat: int, value) -> None:
    """Tell the table who speaks first in a window of `point` (a SpeakPoint),
    with its answer labelled as it reads it; the others' answers stay theirs."""
    if st.events is None:
        return
    me, st.me = st.me, seat
    try:
        label = st.program.decisions[point].label(st, fr, value)
    finally:
        st.me = me
    st.events.append(("speak", point, seat, label))


class ReorderPoint(Point):
    """`reorder X`: the card to lay back next, from the top down."""

    prompt_text = "Put the cards back in the order you choose (the next card from the top)"
    kind = "card"

    def __init__(self, slot: int):
        super().__init__()
        self.slot = slot
        self.body = None

    def apply(self, st, fr, value):
        fr[2][self.slot] = value
        fr[1] = self.body

    def label(self, st, fr, value):
        return Told(("next from the top: ", (st.program.card_names[value], (value,), UNSEEN_CARD)))
