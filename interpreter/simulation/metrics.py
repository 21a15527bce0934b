"""Per-game metrics of a sweep, by name: what `compare` measures the
differences of and what `tune` aims at.

Each metric is a number per game whose mean over the games is a figure of
the simulate summary (`win_rate_seat_0` is the mean of seat 0's win shares,
`first_player_advantage` the mean of the first player's share minus its fair
share, `turns` the mean game length). The first-player advantage needs to
know which seats decide, which only the whole sweep tells, so a sweep keeps
each game's first player and seat shares and the advantage is derived at
the end (`first_player_values`).
"""
from __future__ import annotations

import re

from .summary import deciding_seats, shares, team_shares, turn_order

FIRST = "first_player"  # per-game value kept to derive the advantage; not a metric itself


TEAM = "win_rate_team_"  # + a team's name: the team's win rate (`teams by`)


def metric_labels(players: int, terms: list, losses: bool = False, first_player: bool = True,
                  shared: bool = False, teams=()) -> dict:
    """Metric id -> readable label, in display order (`lost` only for rules
    in which everyone can lose, the first-player advantage only where at
    least two seats decide, the shared score for `cooperative score` rules,
    a win rate per team of `teams`)."""
    labels = {f"win_rate_seat_{s}": f"win rate of player {s + 1} (seat {s})" for s in range(players)}
    for team in teams:
        labels[f"{TEAM}{team}"] = f"win rate of team {team}"
    if shared:
        labels["shared_score"] = "shared score (cooperative score)"
    if first_player:
        labels["first_player_advantage"] = "first-player advantage (win rate of the first player - fair share)"
    labels["decisiveness"] = "decisiveness (share of games with one winner)"
    if losses:
        labels["lost"] = "share of games lost by everyone"
    labels["mean_score"] = "mean score"
    labels["winning_margin"] = "winning margin (first - second score)"
    labels["turns"] = "game length (turns)"
    for t in terms:
        labels[f"points:{t}"] = f"mean points from {t}"
    for t in terms:
        labels[f"share:{t}"] = f"share of all points from {t}"
    return labels


def game_metrics(record: dict, terms: list) -> dict:
    """Every metric's value in one game (the first-player advantage aside:
    see `first_player_values`)."""
    n = len(record["scores"])
    s = shares(record)
    out = {f"win_rate_seat_{seat}": s[seat] for seat in range(n)}
    out[FIRST] = float(record["first_player"])
    out["decisiveness"] = 1.0 if len(record["winners"]) == 1 else 0.0
    out["lost"] = 1.0 if record.get("lost") else 0.0
    scores = record["scores"]
    total = float(sum(scores))
    out["mean_score"] = total / n
    ordered = sorted(scores, reverse=True)
    out["winning_margin"] = float(ordered[0] - ordered[1]) if n > 1 else 0.0
    out["turns"] = float(record["turns"])
    if "shared_score" in record:
        out["shared_score"] = float(record["shared_score"])
    for team, share in team_shares(record).items():
        out[f"{TEAM}{team}"] = share
    for t in terms:
        points = float(sum(b.get(t, 0) for b in record["breakdown"]))
        out[f"points:{t}"] = points / n
        out[f"share:{t}"] = points / total if total else 0.0
    return out


def first_player_values(values: dict, players: int, deciding: list, start: int = 0, stop: int | None = None) -> list:
    """Per game: the win share of the first deciding seat in turn order minus
    the fair share (1/n when every seat decides, else the deciding seats'
    shares of that game split evenly)."""
    firsts = values.get(FIRST, ())[start:stop]
    columns = [values[f"win_rate_seat_{s}"][start:stop] for s in range(players)]
    everyone = len(deciding) == players
    out = []
    for i, first in enumerate(firsts):
        seat = turn_order(int(first), deciding, players)[0]
        fair = 1.0 / players if everyone else sum(columns[s][i] for s in deciding) / len(deciding)
        out.append(columns[seat][i] - fair)
    return out


def deciding(sweeps: list) -> list:
    """The seats that decide in some game of any of the sweeps."""
    decided = [sum(s.tally.decided[seat] for s in sweeps) for seat in range(sweeps[0].spec.players)]
    return deciding_seats(decided)


def team_names(sweeps: list) -> list:
    """The teams whose win rates the sweeps measured, by name."""
    return sorted({name[len(TEAM):] for s in sweeps for name in s.values if name.startswith(TEAM)})


def metric_values(sweep, metric: str, seats: list, start: int = 0, stop: int | None = None) -> list:
    """A metric's per-game values in games start..stop-1 of a sweep (one
    that keeps `game_metrics`), given the deciding seats."""
    if metric == "first_player_advantage":
        return first_player_values(sweep.values, sweep.spec.players, seats, start, stop)
    return list(sweep.values[metric][start:stop])


# Names of the simulate summary (its JSON keys) for the metrics above;
# `name[x]` picks a seat or a score category, as `--param name[i]` picks an element.
_SUMMARY_NAMES = {
    "first_player_advantage": "first_player_advantage", "decisiveness": "decisiveness", "turns": "turns",
    "winning_margin": "winning_margin", "score": "mean_score", "lost_by_all": "lost",
}
_ELEMENT = re.compile(r"^(win_rate_by_seat|score_by_category|category_share)\[(.+)\]$")


def metric_id(name: str) -> str:
    """The metric id of a name of the simulate summary (`turns`,
    `win_rate_by_seat[0]`, `score_by_category[LABEL]`, ...) or of a metric
    id itself (`win_rate_seat_0`, `points:LABEL`); unknown names unchanged.

    >>> metric_id("win_rate_by_seat[1]"), metric_id("score"), metric_id("points:A")
    ('win_rate_seat_1', 'mean_score', 'points:A')
    """
    name = name.strip()
    if name in _SUMMARY_NAMES:
        return _SUMMARY_NAMES[name]
    m = _ELEMENT.match(name)
    if m:
        key, inner = m.group(1), m.group(2).strip()
        return {"win_rate_by_seat": f"win_rate_seat_{inner}", "score_by_category": f"points:{inner}",
                "category_share": f"share:{inner}"}[key]
    return name


def summary_names(players: int, terms: list) -> list:
    """The names `metric_id` accepts, in the summary's words (for messages)."""
    names = [f"win_rate_by_seat[{s}]" for s in range(players)]
    names += ["first_player_advantage", "decisiveness", "score", "winning_margin", "turns", "lost_by_all"]
    names += [f"score_by_category[{t}]" for t in terms] + [f"category_share[{t}]" for t in terms]
    return names
