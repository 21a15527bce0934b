"""A small seeded generator (SplitMix64) whose whole state is one integer.

The state lives in the game state, so cloning, saving and loading a game keep
its randomness exactly; the algorithm is fixed here, so results do not depend on
the Python version.
"""
from __future__ import annotations

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The generator state for a user seed.

    >>> seed_state(7) == seed_state(7)
    True
    """
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Advance the state; return (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A value in range(n) (multiply-shift; bias below 2**-60 for game sizes).

    The same draw as `next_u64`, written out: bots and shuffles call this in
    their inner loops."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle of `items` in place; returns the new state.

    Each swap draws as `below(state, i + 1)` does, written out: every world
    a search samples is shuffled here."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


class Draws:
    """A generator kept in an object, for code that is handed a chooser (a
    bot's random choices, a random playout): called with ids (as `choose_id`)
    it draws one of them as `below` would; `position(n)` is the same draw as
    an index, for a caller that has the options but not yet their ids
    (runtime/helpers.py: `answered` writes it out, and tests/test_play_out.py
    holds the two to the same games). The state is read back from `state`."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = state

    def position(self, n: int) -> int:
        """An index below `n`, the draw of `below` written out: this is the
        inner loop of every random simulation."""
        state = (self.state + 0x9E3779B97F4A7C15) & MASK
        self.state = state
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def __call__(self, ids):
        """One of `ids`, drawn by `position`."""
        return ids[self.position(len(ids))]

    choose_id = __call__
