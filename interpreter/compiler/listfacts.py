"""What the compiler reads off a list expression without running it: whether
its values can repeat (a card lies in one zone instance at a time), the
cards a part of a text reads, and whether every player sees the cards of a
zone, or sees a card chosen from a list taken.

A mixin of the expression generator (exprgen.ExprGen): the methods use its
program layout (`p`), model, types and `visit`.
"""
from __future__ import annotations

from ..language import nodes as n
from ..language.reads import card_sources
from .scope import Names


class ListFacts:
    """Facts of list expressions, for the generators of expressions and rules."""

    def distinct(self, expr, names: Names) -> bool:
        """Whether the values of `expr` can never repeat (so options built from
        it need no de-duplication): a zone's cards, the seats, a comprehension
        that picks its loop variable from such lists, a sum of lists that read
        different zones. A card is in one zone instance at a time."""
        return self._zones_read(expr, names, set()) is not None

    def zones_read(self, expr, names: Names):
        """The names of the zones whose cards the repeat-free list `expr`
        gives ("<seats>" for the seats), or None where its values may repeat."""
        return self._zones_read(expr, names, set())

    def _zones_read(self, expr, names, seen):
        """The zones a repeat-free list reads, or None if it may repeat."""
        if isinstance(expr, n.Name):
            if expr.name in names.access:
                return None
            if expr.name in self.p.zones:
                return {expr.name}
            if expr.name in ("seats", "others"):
                return {"<seats>"}
            decl = self.model.defines.get(expr.name)
            if decl is None or decl.params or expr.name in seen:
                return None
            return self._zones_read(decl.expr, Names(), seen | {expr.name})
        if isinstance(expr, n.NameOf):
            return {expr.name} if expr.name in self.p.zones else None
        if isinstance(expr, n.Arith) and expr.op == "+":
            left = self._zones_read(expr.left, names, seen)
            right = self._zones_read(expr.right, names, seen)
            return left | right if left is not None and right is not None and not left & right else None
        if isinstance(expr, n.Comprehension):
            (var, iterable), *inner = expr.loops
            zones = self._zones_read(iterable, names, seen)
            for inner_var, inner_it in inner:  # `for c in zone of b`: b's instances differ
                if not (isinstance(inner_it, n.NameOf) and isinstance(inner_it.owner, n.Name)
                        and inner_it.owner.name == var and inner_it.name in self.p.zones):
                    return None
                zones = zones | {inner_it.name} if zones is not None else None
                var = inner_var
            picked = isinstance(expr.expr, n.Name) and expr.expr.name == var
            return zones if picked else None
        return None

    def card_sources(self, part, names: Names, unseen_only: bool = False) -> str:
        """Source of the values of the cards `part` reads, separated by commas
        ("" if none); with `unseen_only`, less the zones every player sees
        (where nothing lies unseen: no need to look at their cards at run time)."""
        found = card_sources(part, names.types, self.types, self.model)
        if unseen_only:
            found = [(expr, inside) for expr, inside in found if not self.seen_by_all(expr, names if inside is None else Names())]
        return ", ".join(self.visit(expr, names if inside is None else Names()) for expr, inside in found)

    def seen_by_all(self, expr, names: Names) -> bool:
        """Whether `expr` names a zone whose every card every player sees
        where it lies (visible, and not held by a card, which may lie unseen)."""
        if not self._is_zone(expr, names):
            return False
        info = self.p.zones[expr.name]
        return info.visibility == "visible" and info.scope != "card"

    def taken_in_sight(self, expr, names: Names, seen=frozenset(), held: bool = True) -> bool:
        """Whether every card of the list `expr` lies in a zone every player
        sees, so that a card chosen from it is seen taken (`ops.chosen`, which
        judges a card by its zone alone, has nothing to do): a visible zone
        (one held by a card too, unless not `held`: then every card is seen
        where it lies, as `seen_by_all`), seen through parameterless
        definitions, concatenations and comprehensions giving their last
        loop's variable."""
        if self._is_zone(expr, names):
            return self.seen_by_all(expr, names) if not held else self.p.zones[expr.name].visibility == "visible"
        if isinstance(expr, n.Name) and expr.name not in names.access and expr.name not in seen:
            decl = self.model.defines.get(expr.name)
            return (decl is not None and not decl.params
                    and self.taken_in_sight(decl.expr, Names(), seen | {expr.name}, held))
        if isinstance(expr, n.Arith) and expr.op == "+":
            return self.taken_in_sight(expr.left, names, seen, held) and self.taken_in_sight(expr.right, names, seen, held)
        if isinstance(expr, n.Comprehension) and isinstance(expr.expr, n.Name) and expr.expr.name == expr.loops[-1][0]:
            return self.taken_in_sight(expr.loops[-1][1], names, seen, held)
        return False
