"""The compiled program: layout of counters and zones, cards, code and scoring.

Names are resolved to indices here once, so the engine works on lists.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import limits


@dataclass
class CounterInfo:
    name: str
    index: int
    scope: str  # "player" | "shared" | "card"
    minimum: Optional[int]
    maximum: Optional[int]
    visibility: str
    holds_player: bool = False  # its value is a seat, or None (`holds player`); changed only by `set`
    unlisted: bool = False  # kept off the table and the story (view.py, events.py), though not hidden


@dataclass
class ZoneInfo:
    name: str
    index: int
    scope: str
    slots: Optional[int]
    stack: bool
    visibility: str
    base: int = 0  # first instance in the state's flat zone list
    count: int = 1  # number of instances
    empty_hook: Optional[int] = None  # code index run when an instance becomes empty
    size_hidden: bool = False  # who does not see its cards is not told how many there are
    top_visible: bool = False  # every player sees its top card (and so knows it: ops.show_top)


@dataclass
class Code:
    """One rule (procedure, effect, action, hook, setup, turn) as a function.

    A rule that never reaches a decision is not resumable: `fn(st, *args)`
    runs it to the end. A resumable rule's `fn(st, frame)` runs from the
    frame's block until the rule ends (it pops its frame) or a decision is
    pending (it returns SUSPEND)."""

    name: str
    nlocals: int
    resumable: bool = True
    nblocks: int = 0
    fn: Optional[Callable] = None
    room: tuple = ()  # a resumable rule's locals after its arguments, as nones: its frame is made with them


@dataclass
class Program:
    title: str
    min_players: int
    max_players: int
    params: dict
    cards: object  # CardDB
    card_ids: list
    card_groups: list  # per card: the id the copies of its entry share (its own id when alone)
    card_names: list
    card_kinds: list
    card_backs: list  # per card, what its back shows (cards with equal backs cannot be told apart face down)
    fields: dict  # field name -> list indexed by card
    counters: dict  # name -> CounterInfo
    zones: dict  # name -> ZoneInfo
    codes: list  # of Code
    main: int
    setup_zone: str
    effect_codes: dict  # effect name -> code index
    effect_labels: dict  # effect name -> label
    actions: list  # of action names
    score_terms: list  # of (label, fn(st))
    tiebreaks: list  # of fn(st)
    turn_order: Optional[Callable]
    fingerprint: str = ""
    step_budget: int = limits.STEPS
    turn_budget: int = limits.TURNS
    decision_budget: int = limits.DECISIONS
    check_invariants: bool = False
    coverage: bool = False  # compiled to count each rule's runs and each read of a card's field; see ExprGen
    won_together: bool = False  # some rule can end the game won by all the players together
    shared_best: Optional[Callable] = None  # `cooperative score out of BEST`: fn(st) -> BEST
    team_of: Optional[Callable] = None  # `teams by EXPR`: fn(st) -> the team of player `me`
    card_views: dict = field(default_factory=dict)  # zone name or "cards" -> fn(st, card)
    effect_conditions: dict = field(default_factory=dict)  # effect name -> fn(st): whether it can be offered
    # `resolve any`'s options by (items left, effects): ids, values and the conditions to ask (runtime/helpers.py)
    resolve_options: dict = field(default_factory=dict)
    # per `marker`: (name, whether its values are cards, values fn(st), label fn(st, [value]), space fn(st, [value]))
    markers: list = field(default_factory=list)
    effect_reasons: dict = field(default_factory=dict)  # effect name -> why it is not offered now (explain.not_open)
    shown_values: dict = field(default_factory=dict)  # definition name -> (visibility, fn(st)) shown per player
    shown_players: set = field(default_factory=set)  # the shown values that are players (shown as "player 2")
    zone_of_instance: list = field(default_factory=list)
    empty_zones: tuple = ()  # per zone instance, its list when empty: shared by new games, never changed
    # per zone instance, the seats that see its cards as a bit mask; a card
    # leaving an instance stays known to them (see ops.move).
    # Set by the game layer from visibility.py, the one place deciding it.
    seers: list = field(default_factory=list)
    seen_by_all: Optional[Callable] = None  # (st, card) -> whether every player sees the card where it lies
    shown_fields: dict = field(default_factory=dict)  # which card fields each `show` reads (view.card_text)
    counter_list: list = field(default_factory=list)
    decisions: list = field(default_factory=list)  # decision points, by id
    module: object = None  # the generated code (codegen.Module)
    # What other layers work out once per program, kept with it (and gone with it: a server
    # loads a program per table): (viewer, player count) -> observe(st), made by observation.py;
    # the bots' settings -> their Evaluator (agents/evaluate.py); (player, player count) ->
    # the counter values that player never sees (worlds.py); a board's kind -> its layout (serve/views.py).
    observers: dict = field(default_factory=dict)
    evaluators: dict = field(default_factory=dict)
    unseen_counters: dict = field(default_factory=dict)
    board_layouts: Optional[dict] = None
    maybe_unseen: dict = field(default_factory=dict)  # viewer -> zone instances it may not see (visibility.py)
    phases: Optional[list] = None  # rounds.Phase of each `phase`, in order (None: a round of turns)
    boards: object = None  # boards.Boards: the spaces of every `board` and their distances
    origin: Optional[tuple] = None  # (rebuild, arguments): how a pickled copy is made again (see __reduce__)

    def __reduce__(self):
        """A program pickles as the way to make it again (its generated
        functions do not pickle): its rules file and parameters, with the
        fingerprint the copy must match and the limits set on it."""
        if self.origin is None:
            raise TypeError(f"the compiled program of {self.title} was not loaded from a rules file; it cannot be pickled")
        rebuild, args = self.origin
        return rebuild, (*args, self.fingerprint, self.step_budget, self.turn_budget, self.check_invariants)

    @property
    def played_together(self) -> bool:
        """Whether the players play on one side: some rule can end the game
        won by all, or they score together (`cooperative score`)."""
        return self.won_together or self.shared_best is not None

    @property
    def has_copies(self) -> bool:
        return self.card_groups != self.card_ids

    def set_step_budget(self, steps: int) -> None:
        self.step_budget = steps
        if self.module is not None:
            self.module.ns["BUDGET"] = steps

    def layout_zones(self) -> int:
        """Give each zone its instances (per-player zones get one per possible
        seat, so the layout does not depend on the player count)."""
        total = 0
        self.zone_of_instance = []
        for info in self.zones.values():
            info.base = total
            info.count = {"shared": 1, "player": self.max_players, "card": len(self.card_ids)}[info.scope]
            total += info.count
            self.zone_of_instance.extend([info] * info.count)
        self.empty_zones = tuple([None] * info.slots if info.slots else [] for info in self.zone_of_instance)
        return total
