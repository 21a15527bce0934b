"""Where to draw the spaces of a board: a position for each space card.

A `board` declaration says which spaces lead to which, never where they
lie. When two numeric fields of the space cards place every pair of next
spaces closer together than any pair that is not next (the coordinates a
map's cards carry, whatever they are called), those fields are the
position. Otherwise the graph is laid out by a force-directed layout,
started from a circle, so the same rules always give the same picture.
Positions are scaled into the unit square; they cost nothing per game.
"""
from __future__ import annotations

import itertools
import math

LAYOUT_ROUNDS = 300  # steps of the force-directed layout (boards are small: tens of spaces)


def layouts(program) -> dict:
    """Board kind -> {"spaces": {card: (x, y)}, "edges": [(a, b), ...]} for every board of the rules."""
    boards = program.boards
    if boards is None or not boards.links:
        return {}
    out = {}
    for kind in sorted({program.card_kinds[c] for c in boards.links}):
        spaces = [c for c in boards.links if program.card_kinds[c] == kind]
        edges = sorted({tuple(sorted((a, b))) for a in spaces for b in boards.links[a] if b in boards.links})
        place = _by_fields(program, spaces, edges) or _by_forces(spaces, edges)
        out[kind] = {"spaces": _scaled(place), "edges": edges}
    return out


def _numeric_fields(program, spaces) -> list[str]:
    """The fields every space card gives a number."""
    datas = [program.cards.cards[c].data for c in spaces]
    names = [k for k, v in datas[0].items() if _is_number(v)]
    return [k for k in names if all(_is_number(d.get(k)) for d in datas)]


def _by_fields(program, spaces, edges):
    """Positions from two numeric fields that explain the board, else None."""
    if len(spaces) < 2 or not edges:
        return None
    fields = _numeric_fields(program, spaces)
    linked = set(edges)
    for fx, fy in itertools.combinations(fields, 2):  # the first field written across, the second down
        place = {c: (float(program.cards.cards[c].data[fx]), float(program.cards.cards[c].data[fy])) for c in spaces}
        if _explains(place, spaces, linked):
            return place
    return None


def _explains(place, spaces, linked) -> bool:
    """Whether every pair of next spaces lies closer than every other pair
    (and no two spaces share a place)."""
    longest_link, shortest_other = 0.0, math.inf
    for a, b in itertools.combinations(sorted(spaces), 2):
        d = math.dist(place[a], place[b])
        if (a, b) in linked:
            longest_link = max(longest_link, d)
        else:
            shortest_other = min(shortest_other, d)
    return 0 < longest_link < shortest_other


def _by_forces(spaces, edges):
    """A Fruchterman-Reingold layout: linked spaces pull, all spaces push."""
    n = len(spaces)
    index = {c: i for i, c in enumerate(spaces)}
    pos = [[math.cos(2 * math.pi * i / n), math.sin(2 * math.pi * i / n)] for i in range(n)]
    k = math.sqrt(4.0 / max(n, 1))
    pairs = [(index[a], index[b]) for a, b in edges]
    for step in range(LAYOUT_ROUNDS):
        heat = 0.1 * (1 - step / LAYOUT_ROUNDS) + 0.001
        push = [[0.0, 0.0] for _ in range(n)]
        for i, j in itertools.combinations(range(n), 2):
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = max(math.hypot(dx, dy), 1e-6)
            f = k * k / d
            push[i][0] += dx / d * f
            push[i][1] += dy / d * f
            push[j][0] -= dx / d * f
            push[j][1] -= dy / d * f
        for i, j in pairs:
            dx, dy = pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]
            d = max(math.hypot(dx, dy), 1e-6)
            f = d * d / k
            push[i][0] -= dx / d * f
            push[i][1] -= dy / d * f
            push[j][0] += dx / d * f
            push[j][1] += dy / d * f
        for i in range(n):
            length = max(math.hypot(*push[i]), 1e-9)
            scale = min(length, heat) / length
            pos[i][0] += push[i][0] * scale
            pos[i][1] += push[i][1] * scale
    return {c: (pos[index[c]][0], pos[index[c]][1]) for c in spaces}


def _scaled(place) -> dict:
    """The positions moved and scaled into [0, 1] on both axes, keeping their proportions."""
    xs = [x for x, _ in place.values()]
    ys = [y for _, y in place.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    return {c: (round((x - min(xs)) / span, 4), round((y - min(ys)) / span, 4)) for c, (x, y) in place.items()}


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
