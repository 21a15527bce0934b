"""Play a game to the end with one agent per seat."""
from __future__ import annotations

from typing import Callable, Optional

from . import rng
from .worlds import Deal


def world_sampler(st, player: int, seed: int) -> Callable:
    """A function returning fresh worlds consistent with `player`'s view of
    `st` (`worlds.determinize`, its generator carried from one world to the
    next). A search draws many worlds from one decision: how they are dealt
    is worked out at the first (`worlds.Deal`) and again only if the
    position has moved on since."""
    cell = [rng.seed_state(seed * 7_919 + st.decisions * 31 + player)]
    made = [None, None, None]  # the deal, and the decision count and history it was made at

    def sample():
        if made[0] is None or made[1] != st.decisions or made[2] is not st.history:
            made[:] = Deal(st, player), st.decisions, st.history
        world, cell[0] = made[0].sample(cell[0])
        return world

    return sample


def decision_for(st, agent):
    """The pending decision of `st` as `agent` is given it: without labels
    for a bot that reads none (`Agent.labels`)."""
    return st.decision(labels=getattr(agent, "labels", True))


def play_game(game, players: int, seed: int, agents: list,
              on_decision: Optional[Callable] = None, state=None, after_decision: Optional[Callable] = None):
    """Run a game with `agents`; call `on_decision(state, decision, choice)`
    before each choice is applied and `after_decision(state)` after it.
    Returns the final state."""
    st = state if state is not None else game.new_initial_state(players, seed)
    watched = on_decision is not None or after_decision is not None
    # bots that need only the option ids answer where the rules ask (play_out)
    fast = [None if watched else getattr(agent, "choose_id", None) for agent in agents]
    while not st.over:
        st.play_out(fast)
        if st.over:
            break
        player = st.decider
        agent = agents[player]
        # (whoever watches the decisions is given them with their labels)
        decision = st.decision() if on_decision is not None else decision_for(st, agent)
        choice = agent.choose(decision, st.observation(player), world_sampler(st, player, seed))
        if on_decision is not None:
            on_decision(st, decision, choice)
        st.apply_action(choice)
        if after_decision is not None:
            after_decision(st)
    return st
