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
    # someone other than the player whose turn it is may be asked something (see decides_off_turn)
    off_turn: bool = True
    cooperative: bool = False  # `cooperative score`: one team, rewarded with a shared score
    teams: bool = False  # `teams by`: players win by team
    starts_hands: bool = False  # a rule gives the start to a player during play (`set first_player` outside the setup)

    @property
    def together(self) -> bool:
        """Whether a game can end won or lost by all the players together."""
        return self.can_end_lost or self.can_end_won


def traits_of(model, program) -> Traits:
    random = lost = won = False
    for node in model.nodes():
        if isinstance(node, n.Stmt) and node.facts.random:
            random = True
        if isinstance(node, n.EndGame):
            lost, won = lost or node.lost, won or node.won
    return Traits(random, has_hidden_parts(program), lost, won, decides_off_turn(model),
                  program.shared_best is not None, program.team_of is not None, starts_hands(model))


def starts_hands(model) -> bool:
    """Whether the rules play in hands, each started by a player they choose:
    a `set first_player` anywhere but the setup (a hand's winner starts the
    next, say). The first-player advantage is then measured hand by hand too."""
    setup = set(map(id, n.walk(model.setup))) if model.setup is not None else set()
    return any(isinstance(node, n.SetCounter) and node.target.name == "first_player" and id(node) not in setup
               for node in model.nodes())


def decides_off_turn(model) -> bool:
    """Whether a player may be asked something outside its turn: `as`, a
    reaction, a simultaneous choice, or a question in the setup or a hook
    (followed into the procedures and effects they call). Where none can, a
    seat the turn order leaves out is played by the rules alone."""
    if model.reactions or any(isinstance(node, n.Stmt) and node.lets_others_decide() for node in model.nodes()):
        return True
    callables = model.callables()
    bodies = [model.setup.body if model.setup else ()]
    bodies += [decl.body for decl in (*model.hooks.values(), *model.empty_hooks.values())]
    followed: set = set()
    while bodies:
        for stmt in bodies.pop():
            for node in n.walk(stmt):
                if isinstance(node, n.Stmt) and node.facts.asks_me:
                    return True
                if isinstance(node, n.CallStmt) and node.name in callables and node.name not in followed:
                    followed.add(node.name)
                    bodies.append(callables[node.name].body)
    return False
