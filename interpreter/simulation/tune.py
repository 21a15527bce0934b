"""Search the parameters of a rules file toward targets on its metrics.

An optimiser (Optuna's TPE sampler, seeded) proposes candidates, values of
the searched parameters; the rules' own values are tried first. Each
candidate is judged by simulation on games 0..n-1 of one sweep, so every
candidate plays the same seeds with the same bots in the same seats (common
random numbers), and each target's estimate is the mean of its per-game
metric with a Student t 95% interval.

- **Loss**: how far the estimates lie outside the target ranges, in target
  widths, summed over the targets. The optimiser learns from each
  candidate's loss after its first games.
- **Racing**: each round the best candidates still in the race get their
  next rung of games (GROWTH times as many), so promising values are
  measured precisely and poor ones cheaply. A candidate leaves the race when
  even the near ends of its intervals are farther from the targets than the
  far ends of another candidate's (its optimistic loss exceeds the other's
  pessimistic loss).
- **Best**: the smallest pessimistic loss (the candidate whose intervals lie
  most surely inside the targets), then the smallest loss, then the most games.

What a round plays is decided before its games start, from results that do
not depend on where games run, so a seed gives the same search on one
process, many, or a Dask cluster.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import RulesError, did_you_mean
from .metrics import deciding, game_metrics, metric_labels, metric_values, summary_names
from .parallel import make_runner
from .runner import SweepSpec, load
from .stats import mean_interval
from .sweep import Sweep, aborted_on_interrupt, play
from .tune_space import (Param, Target, check_params, overrides, parse_param, parse_target, space_size, value_text,
                         variant_text)

TUNE_FORMAT = "rules-tune-result/1"  # schemas/tune-result.schema.json
ROUND_NEW = 4  # new candidates a round: fixed, so the search does not depend on the number of workers
ROUND_PROMOTED = 2  # candidates a round that get their next rung of games
GROWTH = 3  # games of a rung / games of the rung before
EXPLORE = 0.5  # share of the budget for first games while the race has work to do
MAX_SHARE = 4  # no candidate plays more than budget / MAX_SHARE games
MAX_REPEATS = 100  # proposals in a row that were tried already: the search has converged


def default_first_games(budget: int) -> int:
    """Games of a candidate's first rung: enough to tell far values from near ones.

    >>> default_first_games(20000), default_first_games(2400)
    (200, 48)
    """
    return max(30, min(200, budget // 50))


def rungs(first: int, budget: int) -> list:
    """Games a candidate has played after each rung.

    >>> rungs(200, 20000)
    [200, 600, 1800, 5000]
    """
    cap = max(first, budget // MAX_SHARE)
    out = [first]
    while out[-1] * GROWTH <= cap:
        out.append(out[-1] * GROWTH)
    if out[-1] < cap:
        out.append(cap)
    return out


@dataclass
class Candidate:
    number: int
    values: dict  # parameter label -> value
    sets: dict  # parameter -> value text, as --set
    sweep: Sweep
    trial: object = None
    estimates: dict = field(default_factory=dict)  # target name -> (estimate, low, high)
    loss: float = math.inf
    optimistic: float = math.inf
    pessimistic: float = math.inf
    first_loss: float = math.inf  # what the optimiser was told
    out: bool = False  # left the race

    @property
    def games(self) -> int:
        return self.sweep.played

    def judge(self, targets: list) -> None:
        """Estimates and losses from the games played so far."""
        seats = deciding([self.sweep])
        self.estimates = {}
        loss = optimistic = pessimistic = 0.0
        for t in targets:
            if t.metric == "first_player_advantage" and len(seats) < 2:
                raise RulesError(f"--target {t.name}: no first-player advantage, fewer than two seats decide")
            est, low, high = mean_interval(metric_values(self.sweep, t.metric, seats))
            self.estimates[t.name] = (est, low, high)
            loss += t.distance(est)
            optimistic += max(0.0, t.low - high, low - t.high) / t.scale
            pessimistic += max(0.0, t.low - low, high - t.high) / t.scale
        self.loss, self.optimistic, self.pessimistic = loss, optimistic, pessimistic

    def rank(self) -> tuple:
        return (self.pessimistic, self.loss, -self.games, self.number)


@dataclass
class TuneResult:
    rules: str
    params: list
    targets: list
    candidates: list
    best: Candidate
    settings: dict

    @property
    def games(self) -> int:
        return sum(c.games for c in self.candidates)

    def target_report(self, c: Candidate) -> dict:
        """Each target's estimate for `c`, and where it lies: a target's range
        includes its ends, and an estimate exactly on one is `on_edge`."""
        out = {}
        for t in self.targets:
            est, low, high = c.estimates[t.name]
            out[t.name] = {"metric": t.metric, "low": t.low, "high": t.high, "estimate": est,
                           "interval": [low, high], "games": c.games,
                           "within": t.distance(est) == 0, "on_edge": est in (t.low, t.high),
                           "surely_within": t.low <= low and high <= t.high}
        return out

    def tied(self) -> list:
        """The candidates the intervals cannot tell from the best, best first:
        even the far ends of the best's intervals are no closer to the targets
        than the near ends of theirs (the racing rule: such a candidate would
        stay in the race against the best)."""
        best = self.best
        return sorted((c for c in self.candidates if c is not best and c.optimistic <= best.pessimistic),
                      key=Candidate.rank)

    def runner_up(self) -> Optional[Candidate]:
        others = sorted((c for c in self.candidates if c is not self.best), key=Candidate.rank)
        return others[0] if others else None

    def to_json(self) -> dict:
        """The `tune --json` document (schemas/tune-result.schema.json)."""
        return {
            "format": TUNE_FORMAT, "rules": self.rules,
            "best": dict(self.best.values), "sets": dict(self.best.sets),
            "targets": self.target_report(self.best), "games": self.games,
            "tied_with": [c.number for c in self.tied()],
            "settings": self.settings,
            "history": [{"candidate": c.number, "values": dict(c.values), "games": c.games, "loss": c.loss,
                         "optimistic": c.optimistic, "pessimistic": c.pessimistic, "in_race": not c.out,
                         "estimates": {name: list(e) for name, e in c.estimates.items()}}
                        for c in self.candidates],
        }

    def evidence(self) -> list:
        """Lines that say why the best values were chosen."""
        s = self.settings
        lines = [f"Values found by `tune` toward {', '.join(f'{t.name} in {t.low:g}..{t.high:g}' for t in self.targets)}:",
                 f"{len(self.candidates)} candidates, {self.games} games in all (seed {s['seed']}, "
                 f"{s['players']} players, bots {','.join(s['bots'])}); these values played {self.best.games} games.",
                 "Each estimate is the mean over those games, with a Student t 95% interval:"]
        for name, r in self.target_report(self.best).items():
            edges = (r["low"], r["high"])
            est, low, high = (beside(x, edges) for x in (r["estimate"], *r["interval"]))
            lines.append(f"  {name}: {est} (95% interval {low} to {high}); target {r['low']:g}..{r['high']:g}: "
                         f"{where(r)}")
        return lines + self._runner_up_lines()

    def _runner_up_lines(self) -> list:
        """Whether the intervals tell the best from the runner-up, in words."""
        runner = self.runner_up()
        if runner is None:
            return []
        values = ", ".join(f"{k} = {value_text(v)}" for k, v in runner.values.items())
        tied = self.tied()
        if runner in tied:
            more = len(tied) - 1
            return [f"Tied with the runner-up within the intervals: {values} (candidate {runner.number}, "
                    f"{runner.games} games) may lie as near the targets"
                    + (f"; {more} more candidate{'s' if more > 1 else ''} tie{'' if more > 1 else 's'} too." if more
                       else ".") + " More games (--budget) may separate them."]
        return [f"The runner-up, {values} (candidate {runner.number}, {runner.games} games), lies farther from the "
                f"targets even at the near ends of its intervals."]

    def variant(self, out_path: str) -> str:
        """The text of a rules file that extends the tuned file with the best values."""
        return variant_text(self.rules, out_path, self.settings["title"], self.best.sets, self.evidence())


def where(r: dict) -> str:
    """Where an estimate lies against its target (a `target_report` entry),
    in words: the interval decides "inside"; an estimate exactly on an end
    of the range is "on the edge", never "inside"."""
    if r["on_edge"]:
        return ("on the edge of the target, the whole interval within it" if r["surely_within"] else
                "estimate on the edge of the target, interval not wholly inside")
    if r["surely_within"]:
        return "inside the target"
    return "estimate inside the target, interval not wholly" if r["within"] else "OUTSIDE the target"


def beside(x: float, edges: tuple, least: int = 4, most: int = 10) -> str:
    """`x` with a sign and `least` decimals, more where fewer would print it on
    an edge it is not on, or on the other side of one (0.0200 for 0.020004
    beside a target ending at 0.02 would read as inside).

    >>> beside(0.020004, (-0.02, 0.02)), beside(0.02, (-0.02, 0.02)), beside(0.1, (0, 1))
    ('+0.020004', '+0.0200', '+0.1000')
    """
    for digits in range(least, most + 1):
        shown = round(x, digits)
        if all((shown > e) - (shown < e) == (x > e) - (x < e) for e in edges):
            break
    return f"{x:+.{digits}f}"


class Search:
    """One tuning run: its candidates, the optimiser and the racing rounds."""

    def __init__(self, spec: SweepSpec, params: list, targets: list, budget: int, first_games: int, runner,
                 progress: Optional[Callable] = None):
        self.spec, self.params, self.targets, self.budget = spec, params, targets, budget
        self.runner, self.progress = runner, progress
        self.rungs = rungs(first_games, budget)
        game = load(spec)
        self.defaults = game.program.params
        self.terms = [label for label, _ in game.program.score_terms]
        self.candidates: list = []
        self.by_values: dict = {}
        self.first_spent = 0
        self.size = space_size(params)
        self.optimiser = Optimiser(params, self.defaults, spec.seed)
        self.repeats: list = []  # (trial, candidate) proposals of values tried already

    @property
    def spent(self) -> int:
        return sum(c.games for c in self.candidates)

    def run(self) -> None:
        while True:
            planned = self.spent
            promoted = []
            for c in self._contenders():
                cost = self._next_rung(c) - c.games
                if len(promoted) < ROUND_PROMOTED and planned + cost <= self.budget:
                    promoted.append(c)
                    planned += cost
            fresh = self._ask(planned, exploring=bool(promoted))
            if not promoted and not fresh:
                return
            pairs = [(c, self._next_rung(c)) for c in promoted] + [(c, self.rungs[0]) for c in fresh]
            play([c.sweep for c, _ in pairs], [stop for _, stop in pairs], self.runner, self.progress)
            for c, _ in pairs:
                c.judge(self.targets)
            for c in fresh:
                c.first_loss = c.loss
                self.first_spent += c.games
                self.optimiser.tell(c.trial, c.loss)
            for trial, c in self.repeats:  # the optimiser hears the same loss again
                self.optimiser.tell(trial, c.first_loss)
            self.repeats = []
            self._race()

    def _next_rung(self, c: Candidate) -> int:
        return next((r for r in self.rungs if r > c.games), c.games)

    def _contenders(self) -> list:
        """Candidates still in the race that can play more, best first."""
        open_ = [c for c in self.candidates if not c.out and c.games < self.rungs[-1]]
        return sorted(open_, key=lambda c: (c.loss, -c.games, c.number))

    def _race(self) -> None:
        alive = [c for c in self.candidates if not c.out]
        bar = min(c.pessimistic for c in alive)
        for c in alive:
            if c.optimistic > bar:
                c.out = True

    def _ask(self, planned: int, exploring: bool) -> list:
        """Up to ROUND_NEW new candidates that the budget can pay for (while
        the race has work, first games take at most EXPLORE of the budget)."""
        first = self.rungs[0]
        fresh: list = []
        repeats = 0
        while len(fresh) < ROUND_NEW and planned + first <= self.budget and repeats < MAX_REPEATS:
            if exploring and self.first_spent + first * (len(fresh) + 1) > EXPLORE * self.budget:
                break
            if len(self.candidates) >= self.size:
                break
            trial, values = self.optimiser.ask()
            key = tuple(repr(values[p.label]) for p in self.params)
            seen = self.by_values.get(key)
            if seen is not None:
                self.repeats.append((trial, seen))
                repeats += 1
                continue
            c = self._candidate(values, trial)
            self.by_values[key] = c
            fresh.append(c)
            planned += first
        return fresh

    def _candidate(self, values: dict, trial) -> Candidate:
        sets = overrides(self.params, values, self.defaults)
        spec = SweepSpec.make(self.spec.rules, {**dict(self.spec.sets), **sets}, self.spec.players,
                              self.spec.bots, self.spec.seed, False, self.spec.max_steps)
        sweep = Sweep(spec, metrics=lambda record: game_metrics(record, self.terms))
        c = Candidate(len(self.candidates), values, sets, sweep, trial)
        self.candidates.append(c)
        return c


class Optimiser:
    """Optuna's TPE sampler over the parameters, seeded; the rules' own
    values are the first proposal when they lie in the searched ranges."""

    def __init__(self, params: list, defaults: dict, seed: int):
        optuna = _optuna()
        dist = optuna.distributions
        self.params = params
        self.space = {}
        for p in params:
            if p.choices:
                self.space[p.label] = dist.CategoricalDistribution(list(p.choices))
            else:
                self.space[p.label] = dist.IntDistribution(p.low, p.high)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Optuna marks some sampler options experimental
            sampler = optuna.samplers.TPESampler(seed=seed % 2**32, n_startup_trials=8)
            self.study = optuna.create_study(direction="minimize", sampler=sampler)
        own = {p.label: _default(p, defaults) for p in params}
        if all(p.contains(own[p.label]) for p in params):
            self.study.enqueue_trial(own)

    def ask(self):
        """(trial, values by parameter label) of the next proposal."""
        trial = self.study.ask(self.space)
        return trial, {p.label: trial.params[p.label] for p in self.params}

    def tell(self, trial, loss: float) -> None:
        self.study.tell(trial, loss)


def _optuna():
    try:
        import optuna
    except ImportError:
        raise RulesError("tune needs Optuna: pip install optuna (or the package's [sim] extra)") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def _default(p: Param, defaults: dict):
    value = defaults[p.name]
    return value if p.key is None else value[p.key]


def tune(rules: str, params: list, targets: list, budget: int = 20000, players: Optional[int] = None,
         bots="random", sets: Optional[dict] = None, seed: int = 0, jobs: Optional[int] = None, scheduler=None,
         first_games: Optional[int] = None, max_steps: Optional[int] = None,
         progress: Optional[Callable] = None) -> TuneResult:
    """Search `params` (Param or `--param` texts) of `rules` toward `targets`
    (Target or `--target` texts) within `budget` games in all."""
    params = [p if isinstance(p, Param) else parse_param(p) for p in params]
    targets = [t if isinstance(t, Target) else parse_target(t) for t in targets]
    if not params:
        raise RulesError("name at least one parameter to search (--param NAME=LOW..HIGH)")
    if not targets:
        raise RulesError("name at least one target (--target METRIC=LOW..HIGH)")
    first = first_games or default_first_games(budget)
    if first < 2 or budget < 2 * first:
        raise RulesError(f"a budget of {budget} games is too small: each candidate plays {first} games first, "
                         f"and a search needs room for at least two (--budget {2 * max(first, 2)} or more)")
    spec = SweepSpec.make(rules, sets, players or 0, bots, seed, False, max_steps)
    if players is None:
        spec = SweepSpec.make(rules, sets, load(spec).player_range[0], bots, seed, False, max_steps)
    game = load(spec)
    check_params(params, game.program.params)
    _check_targets(targets, spec.players, [label for label, _ in game.program.score_terms],
                   shared=game.traits.cooperative)
    with aborted_on_interrupt():
        runner = make_runner(jobs, scheduler)
        try:
            search = Search(spec, params, targets, budget, first, runner, progress)
            search.run()
        finally:
            runner.close()
    best = min(search.candidates, key=Candidate.rank)
    settings = {"title": game.program.title, "players": spec.players, "bots": list(spec.bots), "seed": seed,
                "sets": dict(spec.sets), "budget": budget, "rungs": search.rungs,
                "params": [p.describe() for p in params],
                "own_values": {p.label: value_text(_default(p, game.program.params)) for p in params}}
    return TuneResult(spec.rules, params, targets, search.candidates, best, settings)


def _check_targets(targets: list, players: int, terms: list, shared: bool = False) -> None:
    known = metric_labels(players, terms, losses=True, shared=shared)
    for t in targets:
        if t.metric not in known:
            names = summary_names(players, terms)
            raise RulesError(f"--target {t.name}: no such metric; metrics: {', '.join(names)}",
                             hint=did_you_mean(t.name, names + list(known)))
