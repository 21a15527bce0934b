"""What the rules' local names stand for in the code being generated."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Names:
    """Local names of the rules in scope: the source text each compiles to, and its type."""

    access: dict = field(default_factory=dict)
    types: dict = field(default_factory=dict)
    secret: frozenset = frozenset()  # names holding a choice made `secretly`: told to its player alone

    def bind(self, name: str, text: str, type_=None, secret: bool = False) -> "Names":
        return Names({**self.access, name: text}, {**self.types, name: type_},
                     self.secret | {name} if secret else self.secret - {name})
