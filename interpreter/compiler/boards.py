"""Boards: cards of a kind as the spaces of a graph, with distances.

A `board` declaration names the kind of the space cards and says when space
`a` leads to space `b`. The condition reads only card fields and parameters
(the checker makes sure), so the graph is fixed for the game: it is built
once, when the rules are compiled, and lives in the program, not in the state.
Distances are found by breadth-first search from each space the first time
they are asked for, then kept.

A board that grows (`board KIND in ZONE`) has for spaces the cards of its
kind lying in one instance of ZONE, placed there during play; its condition
may read what changes (counters set on a space when it is placed), so its
ways are found in the state each time a distance is asked, among the spaces
present then: adjacency is computed as the spaces arrive.
"""
from __future__ import annotations

from collections import deque
from types import SimpleNamespace

from ..errors import RulesError, RulesRuntimeError
from ..language.value_types import CARD
from .scope import Names


class Boards:
    """Every board of a program: each space card's next spaces, and distances."""

    def __init__(self, links: dict, names: list, kinds: list = (), growing: dict | None = None):
        self.links = links  # space card -> tuple of the spaces it leads to
        self.names = names  # card names, for messages
        self.kinds = kinds  # card -> its kind
        self.growing = growing or {}  # kind -> (ZoneInfo, adjacency function) of a board that grows
        self._from: dict = {}  # space card -> {space: steps}

    def distance(self, a, b, st=None):
        """Steps on the shortest way from space `a` to space `b`; None if no way leads there."""
        a, b = self._space(a), self._space(b)
        grows = self.growing.get(self.kinds[a])
        if grows is not None:
            return self._grown_reach(st, a, *grows).get(b)
        return self.reach(a).get(b)

    def _grown_reach(self, st, a, info, adjacent) -> dict:
        """{space: steps} from `a` among the spaces lying with it in its instance of the board's zone."""
        zi = st.loc[a]
        if not info.base <= zi < info.base + info.count:
            return {}  # not placed on the board (yet)
        kind = self.kinds[a]
        spaces = [c for c in st.z[zi] if c is not None and self.kinds[c] == kind]
        found = {a: 0}
        queue = deque([a])
        while queue:
            here = queue.popleft()
            for there in spaces:
                if there not in found and adjacent(st, [here, there]):
                    found[there] = found[here] + 1
                    queue.append(there)
        return found

    def reach(self, a) -> dict:
        """{space: steps} for every space reachable from `a` (`a` itself at 0)."""
        a = self._space(a)
        found = self._from.get(a)
        if found is None:
            found = {a: 0}
            queue = deque([a])
            while queue:
                here = queue.popleft()
                for there in self.links[here]:
                    if there not in found:
                        found[there] = found[here] + 1
                        queue.append(there)
            self._from[a] = found
        return found

    def _space(self, card):
        if card is None:
            raise RulesRuntimeError("no space to measure from (the value is none)")
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < len(self.names):
            raise RulesRuntimeError(f"distance() needs two spaces (cards), got {card!r}")
        if card not in self.links and (not self.kinds or self.kinds[card] not in self.growing):
            raise RulesRuntimeError(f"'{self.names[card]}' is not a space of any board",
                                    hint="a `board KIND: a next to b when ...` declaration makes the cards of KIND spaces")
        return card


def adjacency_functions(model, exprs) -> dict:
    """Board kind -> the generated function of its adjacency condition, over
    the two spaces `L[0]` and `L[1]` (a name until the module is built)."""
    out = {}
    for kind, decl in model.boards.items():
        names = Names().bind(decl.a, "L[0]", CARD).bind(decl.b, "L[1]", CARD)
        out[kind] = exprs.function(decl.adjacent, names, f"board {kind}")
    return out


def build_boards(program, model, adjacency: dict) -> Boards:
    """The graph of every `board` declaration, from its adjacency condition
    (`adjacency`: kind -> function) evaluated once for each ordered pair of
    distinct space cards."""
    links: dict = {}
    growing: dict = {}
    fixed = SimpleNamespace(program=program, steps=0)  # the condition reads no state
    for kind, decl in model.boards.items():
        adjacent = adjacency[kind]
        if decl.zone is not None:
            growing[kind] = (program.zones[decl.zone], adjacent)
            continue
        spaces = [i for i, k in enumerate(program.card_kinds) if k == kind]
        for a in spaces:
            nexts = []
            for b in spaces:
                if a == b:
                    continue
                try:
                    if adjacent(fixed, [a, b]):
                        nexts.append(b)
                except RulesError as err:
                    raise RulesError(f"board '{kind}': {err.diagnostics[0].message}", decl.adjacent.span) from None
            links[a] = tuple(nexts)
    return Boards(links, program.card_names, program.card_kinds, growing)
