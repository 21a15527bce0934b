"""Compare variants of a rules file with common random numbers.

Every variant plays the same games as the base: game `i` has the same seed
and the same bots in the same seats. Each metric is measured per game, the
per-seed differences (variant - base) are averaged, and the 95% interval is
the normal approximation mean ± 1.96·sd/√n on those differences. Because the
same seed drives the same shuffles and the same bots, the two games of a pair
are correlated and the paired interval is narrower than comparing two
independent samples; a file compared with itself gives differences of exactly 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import RulesError
from .parallel import make_runner
from .runner import SweepSpec, load
from .stats import Sprt, holm, paired
from .summary import shares
from .sweep import Sweep, play

SPRT_STEP = 200  # games between two looks of the sequential test
DEFAULT_METRIC = "first_player_advantage"
DEFAULT_EFFECT = 0.05


def metric_labels(players: int, terms: list, losses: bool = False) -> dict:
    """Metric id -> readable label, in display order (`lost` only for rules
    in which everyone can lose)."""
    labels = {f"win_rate_seat_{s}": f"win rate of seat {s}" for s in range(players)}
    labels["first_player_advantage"] = "first-player advantage (win rate of the first player - 1/n)"
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
    """Every metric's value in one game."""
    n = len(record["scores"])
    s = shares(record)
    out = {f"win_rate_seat_{seat}": s[seat] for seat in range(n)}
    out["first_player_advantage"] = s[record["first_player"]] - 1.0 / n
    out["decisiveness"] = 1.0 if len(record["winners"]) == 1 else 0.0
    out["lost"] = 1.0 if record.get("lost") else 0.0
    scores = record["scores"]
    total = float(sum(scores))
    out["mean_score"] = total / n
    ordered = sorted(scores, reverse=True)
    out["winning_margin"] = float(ordered[0] - ordered[1]) if n > 1 else 0.0
    out["turns"] = float(record["turns"])
    for t in terms:
        points = float(sum(b.get(t, 0) for b in record["breakdown"]))
        out[f"points:{t}"] = points / n
        out[f"share:{t}"] = points / total if total else 0.0
    return out


def verdict(entry: dict, digits: int = 3) -> str:
    if entry["n"] == 0 or entry["low"] <= 0 <= entry["high"]:
        return "no detectable change"
    return f"changed by {entry['difference']:+.{digits}f} ± {entry['half_width']:.{digits}f}"


def differences(base_values: dict, variant_values: dict, players: int, terms: list) -> list:
    """Paired differences of every metric over the games both played;
    `*_values` map each metric to its per-game values, in game order."""
    n = min(len(base_values.get("turns", ())), len(variant_values.get("turns", ())))
    losses = any(base_values.get("lost", ())[:n]) or any(variant_values.get("lost", ())[:n])
    labels = metric_labels(players, terms, losses)
    out = []
    for metric, label in labels.items():
        b = base_values[metric][:n]
        v = variant_values[metric][:n]
        entry = paired([y - x for x, y in zip(b, v)])
        entry.update(metric=metric, label=label,
                     base=sum(b) / n if n else float("nan"), variant=sum(v) / n if n else float("nan"))
        entry["verdict"] = verdict(entry)
        out.append(entry)
    for entry, adjusted in zip(out, holm([e["p"] for e in out])):
        entry["p_holm"] = adjusted
    return out


@dataclass
class VariantResult:
    rules: str
    summary: dict
    samples: dict  # per-game numbers for plots: "scores", "turns"
    meta: dict
    differences: list
    sprt: Optional[dict] = None


@dataclass
class ComparisonResult:
    base: VariantResult
    variants: list = field(default_factory=list)
    settings: dict = field(default_factory=dict)


def compare(base: str, variants: list, games: int, players: Optional[int] = None, bots="random",
            sets: Optional[dict] = None, seed: int = 0, jobs: Optional[int] = None, scheduler=None,
            coverage: bool = False, sprt: bool = False, metric: str = DEFAULT_METRIC,
            effect: float = DEFAULT_EFFECT, progress: Optional[Callable] = None,
            max_steps: Optional[int] = None) -> ComparisonResult:
    """Play `games` games of the base and of each variant on the same seeds
    and bots, and measure paired differences. With `sprt`, stop a variant as
    soon as a sequential test on `metric` decides whether it changed by
    `effect` (looking every SPRT_STEP games); `games` is then the most played."""
    if games < 1:
        raise RulesError("play at least one game (-n 1 or more)")
    if not variants:
        raise RulesError("name at least one variant to compare with the base")
    spec = SweepSpec.make(base, sets, players or 0, bots, seed, coverage, max_steps)
    if players is None:
        spec = SweepSpec.make(base, sets, load(spec).player_range[0], bots, seed, coverage, max_steps)
    base_sweep = Sweep(spec)
    sweeps = [Sweep(spec.with_rules(v)) for v in variants]
    terms = list(base_sweep.meta["terms"])
    for s in sweeps:
        terms += [t for t in s.meta["terms"] if t not in terms]
    for s in [base_sweep, *sweeps]:
        s.metrics = lambda record: game_metrics(record, terms)
    known = metric_labels(spec.players, terms, losses=True)
    tests = {}
    if sprt:
        if metric not in known:
            from ..errors import did_you_mean

            hint = did_you_mean(metric, known)
            raise RulesError(f"unknown metric '{metric}' for the sequential test; metrics: {', '.join(known)}",
                             hint=hint)
        if effect <= 0:
            raise RulesError("the effect size of the sequential test must be positive")
        tests = {id(s): Sprt(effect) for s in sweeps}
    runner = make_runner(jobs, scheduler)
    try:
        if not sprt:
            play([base_sweep, *sweeps], games, runner, progress)
        else:
            open_ = list(sweeps)
            while open_ and base_sweep.played < games:
                start = base_sweep.played
                stop = min(games, start + SPRT_STEP)
                play([base_sweep, *open_], stop, runner, progress)
                for s in list(open_):
                    diffs = [v - b for b, v in zip(base_sweep.values[metric][start:stop],
                                                   s.values[metric][start:stop])]
                    if tests[id(s)].update(diffs) is not None:
                        open_.remove(s)
    finally:
        runner.close()
    base_result = VariantResult(base, base_sweep.summary(), base_sweep.samples(), base_sweep.meta, [])
    out = ComparisonResult(base_result, settings={
        "games": games, "players": spec.players, "bots": list(spec.bots), "seed": seed, "sets": dict(spec.sets),
        "design": "common random numbers: game i of every file has the same seed and the same bots in "
                  "the same seats; differences are variant - base per game, with 95% normal intervals "
                  "(mean ± 1.96 sd/sqrt(n)); p_holm adjusts each file's p-values for the number of metrics",
        "sprt": {"metric": metric, "effect": effect, "alpha": 0.05, "beta": 0.05, "step": SPRT_STEP} if sprt else None,
    })
    for path, s in zip(variants, sweeps):
        out.variants.append(VariantResult(
            path, s.summary(), s.samples(), s.meta,
            differences(base_sweep.values, s.values, spec.players, terms),
            {"metric": metric, **tests[id(s)].to_dict()} if sprt else None))
    return out
