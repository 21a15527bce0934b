"""Compare variants of a rules file with common random numbers.

Every variant plays the same games as the base: game `i` has the same seed
and the same bots in the same seats. Each metric is measured per game, the
per-seed differences (variant - base) are averaged, with a Student t 95%
interval and a t-test p-value. A verdict says "changed" only when the
p-value adjusted by Holm's method for all the metrics of that variant is
below 0.05, so a variant that changes nothing gets any "changed" verdict in
at most about 5% of comparisons. Because the same seed drives the same
shuffles and the same bots, the two games of a pair are correlated and the
paired interval is narrower than comparing two independent samples; a file
compared with itself gives differences of exactly 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import RulesError
from .metrics import deciding, game_metrics, metric_id, metric_labels, metric_values, team_names
from .parallel import make_runner
from .runner import SweepSpec, load
from .stats import MIN_PAIRS, Sprt, holm, paired
from .sweep import Sweep, aborted_on_interrupt, play

COMPARE_FORMAT = "rules-compare-summary/1"  # schemas/compare-summary.schema.json
SPRT_STEP = 200  # games between two looks of the sequential test
DEFAULT_METRIC = "first_player_advantage"
DEFAULT_EFFECT = 0.05
ALPHA = 0.05  # family-wise error rate of one variant's verdicts
MIN_VERDICT_GAMES = 30  # fewer pairs: intervals and p-values, but no verdict
DESIGN = ("common random numbers: game i of every file has the same seed and the same bots in the same seats; "
          "differences are variant - base per game, with Student t 95% intervals; p_holm adjusts each variant's "
          f"p-values for its number of metrics (Holm), and a verdict says changed only when p_holm < {ALPHA}; "
          f"no verdict with fewer than {MIN_VERDICT_GAMES} games")


NO_DIFFERENCE = "no difference in any paired game"


def no_difference(entry: dict) -> bool:
    """Whether every paired game gave the metric the same value in both files:
    the spread of the differences is 0, so no interval can be estimated (the
    metric itself may vary from game to game)."""
    return entry["n"] >= MIN_PAIRS and entry.get("sd") == 0 and entry["difference"] == 0


def decimals(x: float, least: int = 3, most: int = 6) -> int:
    """Decimals that show `x` as what it is: `least`, more where fewer would
    print a difference that is not 0 as 0.

    >>> decimals(0.12), decimals(0.0004), decimals(0.0)
    (3, 4, 3)
    """
    digits = least
    while digits < most and x == x and x != 0 and round(x, digits) == 0:
        digits += 1
    return digits


def verdict(entry: dict) -> str:
    """The verdict on one metric, from its Holm-adjusted p-value."""
    if no_difference(entry):
        return NO_DIFFERENCE
    if entry["n"] < MIN_VERDICT_GAMES:
        return f"no verdict (fewer than {MIN_VERDICT_GAMES} games)"
    if not entry["p_holm"] < ALPHA:
        return "no detectable change"
    digits = decimals(entry["difference"])
    return f"changed by {entry['difference']:+.{digits}f} ± {entry['half_width']:.{digits}f}"


def p_text(p: float, alpha: float = ALPHA) -> str:
    """A p-value as printed beside its verdict: three decimals, more where
    three would put it on the other side of `alpha` than it is (0.0497, not
    0.050, beside "changed"), "<0.001" below that, "-" where there is no test.

    >>> p_text(0.0497), p_text(0.2), p_text(0.0004), p_text(0.04999999999)
    ('0.0497', '0.200', '<0.001', '<0.05')
    """
    if p != p:
        return "-"
    if p < 0.001:
        return "<0.001"
    for digits in range(3, 7):
        text = f"{p:.{digits}f}"
        if (float(text) < alpha) == (p < alpha):
            return text
    return f"<{alpha:g}"


def interval_text(entry: dict, dash: str = "-", between: str = "to") -> str:
    """The paired 95% interval of a difference in words: none without a
    test, "cannot be estimated" where no paired game differs. An end that is
    not 0 is never printed as 0, so an interval that excludes 0 reads so."""
    if no_difference(entry):
        return "cannot be estimated"
    if entry["low"] != entry["low"]:
        return dash
    digits = max(decimals(entry["half_width"]), decimals(entry["low"]), decimals(entry["high"]))  # no end shown as 0
    return f"{entry['low']:+.{digits}f} {between} {entry['high']:+.{digits}f}"


def differences(base: Sweep, variant: Sweep, terms: list) -> list:
    """Paired differences of every metric over the games both played, each
    with its p-value adjusted for the whole family (`p_holm`) and a verdict."""
    players = base.spec.players
    n = min(base.played, variant.played)
    losses = any(base.values.get("lost", ())[:n]) or any(variant.values.get("lost", ())[:n])
    seats = deciding([base, variant])
    labels = metric_labels(players, terms, losses, first_player=len(seats) > 1,
                           shared="shared_score" in base.values, teams=team_names([base, variant]))
    out = []
    for metric, label in labels.items():
        b = metric_values(base, metric, seats, 0, n)
        v = metric_values(variant, metric, seats, 0, n)
        entry = paired([y - x for x, y in zip(b, v)])
        entry.update(metric=metric, label=label,
                     base=sum(b) / n if n else float("nan"), variant=sum(v) / n if n else float("nan"))
        out.append(entry)
    for entry, adjusted in zip(out, holm([e["p"] for e in out])):
        entry["p_holm"] = adjusted
        entry["verdict"] = verdict(entry)
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

    def to_json(self) -> dict:
        """The `compare --json` document (schemas/compare-summary.schema.json)."""
        return {
            "format": COMPARE_FORMAT,
            "settings": self.settings,
            "base": self.base.summary,
            "variants": [{"rules": v.rules, "summary": v.summary, "differences": v.differences, "sprt": v.sprt}
                         for v in self.variants],
        }


def compare(base: str, variants: list, games: int, players: Optional[int] = None, bots="random",
            sets: Optional[dict] = None, seed: int = 0, jobs: Optional[int] = None, scheduler=None,
            coverage: bool = False, sprt: bool = False, metric: str = DEFAULT_METRIC,
            effect: float = DEFAULT_EFFECT, progress: Optional[Callable] = None,
            max_steps: Optional[int] = None) -> ComparisonResult:
    """Play `games` games of the base and of each variant on the same seeds
    and bots, and measure paired differences. With `sprt`, stop a variant as
    soon as a sequential test on `metric` decides whether it changed by
    `effect` (looking every SPRT_STEP games); `games` is then the most played."""
    if games < MIN_PAIRS:
        raise RulesError(f"a comparison needs at least {MIN_PAIRS} games per file (-n {MIN_PAIRS} or more) to measure "
                         f"how much games vary; verdicts need {MIN_VERDICT_GAMES} (to play one game, use `run`)")
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
    known = metric_labels(spec.players, terms, losses=True, shared=base_sweep.game.traits.cooperative)
    metric = metric_id(metric)
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
    with aborted_on_interrupt():
        _play_all(base_sweep, sweeps, games, jobs, scheduler, progress, metric, tests if sprt else None)
    base_result = VariantResult(base, base_sweep.summary(), base_sweep.samples(), base_sweep.meta, [])
    out = ComparisonResult(base_result, settings={
        "games": games, "players": spec.players, "bots": list(spec.bots), "seed": seed, "sets": dict(spec.sets),
        "design": DESIGN, "alpha": ALPHA, "min_verdict_games": MIN_VERDICT_GAMES,
        "sprt": {"metric": metric, "effect": effect, "alpha": 0.05, "beta": 0.05, "step": SPRT_STEP} if sprt else None,
    })
    for path, s in zip(variants, sweeps):
        out.variants.append(VariantResult(
            path, s.summary(), s.samples(), s.meta,
            differences(base_sweep, s, terms),
            {"metric": metric, **tests[id(s)].to_dict()} if sprt else None))
    return out


def _play_all(base_sweep, sweeps: list, games: int, jobs, scheduler, progress, metric: str, tests) -> None:
    """Play the base and the variants on one runner: all `games` at once, or,
    with sequential `tests`, SPRT_STEP games at a time until each decides."""
    runner = make_runner(jobs, scheduler)
    try:
        if tests is None:
            play([base_sweep, *sweeps], games, runner, progress)
        else:
            open_ = list(sweeps)
            while open_ and base_sweep.played < games:
                start = base_sweep.played
                stop = min(games, start + SPRT_STEP)
                play([base_sweep, *open_], stop, runner, progress)
                for s in list(open_):
                    seats = deciding([base_sweep, s])
                    diffs = [v - b for b, v in zip(metric_values(base_sweep, metric, seats, start, stop),
                                                   metric_values(s, metric, seats, start, stop))]
                    if tests[id(s)].update(diffs) is not None:
                        open_.remove(s)
    finally:
        runner.close()
