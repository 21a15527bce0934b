"""What kind of game a rules file describes, read once from its syntax tree:
whether chance plays a part, whether anything is hidden, whether the players
can lose or win together. Adapters and summaries declare the game by these."""
from __future__ import annotations

from dataclasses import dataclass

from .language import nodes as n
from .visibility import has_hidden_parts


@dataclass(frozen=True)
class Traits:
    random: bool  # the rules shuffle or pick at random
    hidden: bool  # some zone or counter is not visible to every player
    can_end_lost: bool  # `end game lost`: everyone loses together
    can_end_won: bool  # `end game won`: everyone wins together

    @property
    def together(self) -> bool:
        """Whether a game can end won or lost by all the players together."""
        return self.can_end_lost or self.can_end_won


def traits_of(model, program) -> Traits:
    random = lost = won = False
    for node in model.nodes():
        if isinstance(node, (n.Shuffle, n.PickRandom)):
            random = True
        elif isinstance(node, n.EndGame):
            lost, won = lost or node.lost, won or node.won
    return Traits(random, has_hidden_parts(program), lost, won)
