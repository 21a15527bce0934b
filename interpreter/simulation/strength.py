"""How strong each bot is on one rules file, and the evaluation weights that
make `greedy` strongest there.

A designer's balance figures are only as good as the bots that play: a bot
that loses to random play says nothing about a rule. `measure` plays the
ladder on the rules file itself: `greedy` against `random`, then `mcts`
against `greedy`, head to head, the bots' seats rotated game by game (so
every bot plays every seat equally), each bot's share of the wins with a
Wilson 95% interval. Where the players do not play against each other (one
player against the rules, or a game won or lost together) a bot plays every
seat: each bot plays the same games (the same seeds), and the ladder says
how often each won and the paired difference of the score, with a Student
t interval.

`tune` chooses the evaluation's weights (agents/weights.py) by measurement:
each candidate plays games against `random` and against `greedy` with the
default weights (the default itself too), every candidate on the
same seeds (common random numbers); the best share of wins is kept (ties:
the earlier candidate, the default first), and stored for the rules file.
Those seeds are not the ladder's (`TUNE_SEEDS`): the ladder then measures
the kept weights on games their choice never saw.
The weights are tuned one after the other (`weights.CANDIDATES`' order),
each with the best values found so far for those before it: the tries add
up instead of multiplying.
All the games of a step go to one runner at once, so `--jobs` workers share
them; the records come back in game order, so a seed gives the same result
whatever the number of workers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from ..agents import AGENTS
from ..agents import weights as bot_weights
from ..agents.greedy import GreedyAgent
from .parallel import make_runner
from .runner import SweepSpec, load, play_one
from .stats import paired, proportion
from .summary import shares
from .sweep import Sweep, aborted_on_interrupt, play

STRENGTH_FORMAT = "rules-bot-strength/1"
TUNE_GAMES = 20  # games of each sweep of a tuning: enough to tell a bot that never plays its cards
# The tuning's games are seeded this far from the ladder's, so that the
# ladder measures the weights kept on games their choice never saw (else the
# best of several candidates on the same games looks better than it is).
TUNE_SEEDS = 1_000_000


@dataclass
class Row:
    """One rung of the ladder: `bot` against `against` (head to head), or
    `bot` alone compared with `against` alone on the same games."""

    bot: str
    against: str
    games: int
    head_to_head: bool
    rate: dict  # the bot's win share (head to head) or win rate (alone), with its Wilson interval
    against_rate: dict  # the other's, the same way
    score: float  # the bot's mean score
    against_score: float
    score_difference: dict = field(default_factory=dict)  # alone: paired, bot - against, per game

    def to_json(self) -> dict:
        out = {"bot": self.bot, "against": self.against, "games": self.games, "head_to_head": self.head_to_head,
               "win_rate": self.rate, "against_win_rate": self.against_rate,
               "mean_score": self.score, "against_mean_score": self.against_score}
        if not self.head_to_head:
            out["score_difference"] = self.score_difference
        return out


def deciders(rules: str, sets: dict, players: int, seed: int, max_steps) -> list:
    """The seats that make decisions, as one game played at random shows (a
    seat the rules play, an automaton, makes none)."""
    spec = _spec(rules, sets, players, "random", seed, max_steps)
    record = play_one(load(spec), spec, 0)
    return [seat for seat, n in enumerate(record["decisions"]) if n]


def alone(program, seats: list) -> bool:
    """Whether the players do not play against each other: fewer than two
    seats decide (one player against the rules), or the players score or
    win together (`cooperative score`, or a game the rules can end won by
    all)."""
    return len(seats) < 2 or program.played_together


def _spec(rules: str, sets: dict, players: int, bots, seed: int, max_steps) -> SweepSpec:
    return SweepSpec.make(rules, sets, players, bots, seed, False, max_steps)


def _head_metrics(bot: str) -> Callable:
    """Per game: the share of the win of the seats `bot` plays, the mean score
    of its seats and of the others'."""
    def metrics(record: dict) -> dict:
        mine = [s for s, name in enumerate(record["bots"]) if name == bot]
        others = [s for s in range(len(record["bots"])) if s not in mine]
        won = shares(record)
        scores = record["scores"]
        return {"share": sum(won[s] for s in mine), "score": sum(scores[s] for s in mine) / len(mine),
                "others": sum(scores[s] for s in others) / len(others)}
    return metrics


def _alone_metrics(seats: list) -> Callable:
    """Per game: the deciding seats' share of the win (1 for a game won
    together) and their mean score."""
    def metrics(record: dict) -> dict:
        won = shares(record)
        return {"share": min(1.0, sum(won[s] for s in seats)),
                "score": sum(record["scores"][s] for s in seats) / len(seats)}
    return metrics


def _mean(values) -> float:
    return sum(values) / len(values) if len(values) else 0.0


def _head_row(bot: str, against: str, sweep: Sweep) -> Row:
    v, n = sweep.values, sweep.played
    wins = sum(v["share"])
    players = sweep.spec.players
    rival = players - 1  # seats the other bot plays: its wins are the rest
    return Row(bot, against, n, True, proportion(wins, n), proportion((n - wins) / rival if rival else 0.0, n),
               _mean(v["score"]), _mean(v["others"]))


def _alone_row(bot: str, against: str, mine: Sweep, theirs: Sweep) -> Row:
    a, b = mine.values, theirs.values
    n = mine.played
    return Row(bot, against, n, False, proportion(sum(a["share"]), n), proportion(sum(b["share"]), n),
               _mean(a["score"]), _mean(b["score"]), paired([x - y for x, y in zip(a["score"], b["score"])]))


def with_weights(spec: str, weights: dict) -> str:
    """The bot spec `spec` with the weights it has an option for set, unless it sets them."""
    name, _, options = spec.partition(":")
    if name.strip() not in ("greedy", "mcts"):
        return spec
    known = AGENTS[name.strip()].settings
    given = _given(spec)
    extra = [f"{k}={v:g}" for k, v in weights.items() if k in known and k not in given]
    return ":".join([spec.rstrip(":")] + extra)


@dataclass
class Ladder:
    rules: str
    title: str
    players: int
    seed: int
    weights: dict
    source: str  # "tuned", "stored" or "defaults"
    rows: list
    deciding: list  # the seats that make decisions
    tuning: Optional[dict] = None

    def to_json(self) -> dict:
        return {"format": STRENGTH_FORMAT, "rules": self.rules, "title": self.title, "players": self.players,
                "deciding_seats": self.deciding, "seed": self.seed, "weights": self.weights, "weights_from": self.source,
                "ladder": [r.to_json() for r in self.rows], **({"tuning": self.tuning} if self.tuning else {})}


def measure(rules: str, games: int = 200, players: int = 2, mcts: str = "mcts:200", seed: int = 0,
            jobs: Optional[int] = None, sets: Optional[dict] = None, tune_games: Optional[int] = None,
            max_steps: Optional[int] = None, progress: Optional[Callable] = None) -> Ladder:
    """The ladder of `rules`: greedy against random, `mcts` against greedy.
    With `tune_games`, the weights are tuned first (that many games a sweep)
    and stored; else the stored ones are used, or the defaults."""
    sets = dict(sets or {})
    game = load(_spec(rules, sets, players, "random", seed, max_steps))
    program = game.program
    tuning = None
    seats = deciders(rules, sets, players, seed, max_steps) or list(range(players))
    _warm(program, [bot_weights.weights_for(program)] + ([w for _, w in candidates(mcts)] if tune_games else []))
    with aborted_on_interrupt():
        runner = make_runner(jobs)
        try:
            if tune_games:
                weights, tuning = _tune(rules, sets, players, seed + TUNE_SEEDS, tune_games, max_steps, runner,
                                        progress, seats, mcts)
                bot_weights.store(program.fingerprint, weights, tuning)
                source = "tuned"
            else:
                entry = bot_weights.stored(program)
                weights = entry["weights"] if entry else dict(bot_weights.DEFAULTS)
                source = "stored" if entry else "defaults"
            rows = _ladder(rules, sets, players, seed, games, max_steps, mcts, weights, runner, progress, program, seats)
        finally:
            runner.close()
    return Ladder(str(Path(rules).resolve()), program.title, players, seed, weights, source, rows, seats, tuning)


def _warm(program, weights: list) -> None:
    """Build the evaluators here, before the worker processes are forked:
    they inherit them instead of each playing the evaluator's sample games."""
    from ..agents.evaluate import evaluator_for

    for w in weights:
        evaluator_for(program, **bot_weights.evaluation_weights(w))


def _ladder(rules, sets, players, seed, games, max_steps, mcts, weights, runner, progress, program, seats) -> list:
    greedy = with_weights("greedy", weights)
    searcher = with_weights(mcts, weights)
    if alone(program, seats):
        sweeps = [Sweep(_spec(rules, sets, players, bot, seed, max_steps), metrics=_alone_metrics(seats))
                  for bot in ("random", greedy, searcher)]
        play(sweeps[::-1], games, runner, progress)  # the slowest first: no worker waits for it at the end
        return [_alone_row("greedy", "random", sweeps[1], sweeps[0]), _alone_row(mcts, "greedy", sweeps[2], sweeps[1])]
    pairs = [(greedy, "random"), (searcher, greedy)]
    sweeps = [Sweep(_spec(rules, sets, players, [a] + [b] * (players - 1), seed, max_steps), metrics=_head_metrics(a))
              for a, b in pairs]
    play(sweeps[::-1], games, runner, progress)  # the slowest first: no worker waits for it at the end
    return [_head_row("greedy", "random", sweeps[0]), _head_row(mcts, "greedy", sweeps[1])]


def candidates(mcts: str = "mcts") -> list:
    """The weights `tune` tries, as far as known before it plays, as (bot,
    weights): the defaults first, then each weight's other candidates
    beside the defaults (`tune` puts the best values found for the weights
    before it instead), and the mcts weights' candidates with the default
    too (they are measured with another bot). A weight that the `mcts` spec
    sets itself is not tuned."""
    default = dict(bot_weights.DEFAULTS)
    out = [("greedy", default)]
    for key in bot_weights.CANDIDATES:
        bot = _tuned_with(key, mcts)
        if bot is None:
            continue
        out += ([(bot, default)] if bot != "greedy" else []) + [(bot, w) for w in _others(key, default)]
    return out


def _tuned_with(key: str, mcts: str) -> Optional[str]:
    """The bot spec whose games measure weight `key` (None: not tuned)."""
    if bot_weights.TUNED_WITH[key] == "greedy":
        return "greedy"
    return None if key in _given(mcts) else mcts


def _given(spec: str) -> set:
    """The options a bot spec sets by name."""
    return {part.partition("=")[0].strip() for part in spec.partition(":")[2].split(":") if "=" in part}


def _others(key: str, best: dict) -> list:
    """The weights `best` with `key` set to each of its other candidates."""
    convert = bot_weights.LIMITS[key][0]
    return [{**best, key: convert(v)} for v in bot_weights.CANDIDATES[key] if convert(v) != best[key]]


def planned_games(program, seats: list, games: int, tune_games: Optional[int], mcts: str = "mcts") -> int:
    """The games `measure` plays (for a progress bar)."""
    sweeps = sum(1 if alone(program, seats) or bot != "greedy" else 2 for bot, _ in candidates(mcts))
    return (3 if alone(program, seats) else 2) * games + sweeps * (tune_games or 0)


def _tune(rules, sets, players, seed, games, max_steps, runner, progress, seats, mcts) -> tuple:
    """(the best weights, the evidence): greedy's weights first, every
    candidate's games against random and against the default greedy, and
    its mean share of the wins; then the weights of `mcts` (its horizon),
    every candidate's games against greedy with the weights just found.
    One weight after the other, each beside the best found before it, each
    kept by comparing the candidates played by the same bot."""
    program = load(_spec(rules, sets, players, "random", seed, max_steps)).program
    # The default greedy as a rival, named apart from the candidate of the
    # same weights (by an option set to its default value): a candidate that
    # plays as the default does plays the very same games.
    ref = with_weights(f"greedy:tries={GreedyAgent.settings['tries'][1]}", dict(bot_weights.DEFAULTS))
    results = []
    best = dict(bot_weights.DEFAULTS)
    for n, key in enumerate(bot_weights.CANDIDATES):
        bot = _tuned_with(key, mcts)
        if bot is None:
            continue
        rivals = ("random", ref) if bot == "greedy" else (with_weights("greedy", best),)
        batch = ([dict(best)] if n == 0 or bot != "greedy" else []) + _others(key, best)
        results += _tune_step(rules, sets, players, seed, games, max_steps, runner, progress, seats, program,
                              bot, rivals, batch)
        best = dict(results[_best(results, bot)]["weights"])
    kept = _best(results, results[-1]["bot"])
    return best, {"players": players, "seed": seed, "games_per_sweep": games, "candidates": results, "best": kept}


def _best(results: list, bot: str) -> int:
    """The best candidate played by `bot`: the best share of wins, then mean
    score; ties: the earlier."""
    mine = [i for i, r in enumerate(results) if r["bot"] == bot]
    return max(mine, key=lambda i: (results[i]["win_share"], results[i]["mean_score"], -i))


def _tune_step(rules, sets, players, seed, games, max_steps, runner, progress, seats, program, bot, rivals,
               tried) -> list:
    """Each of the weights `tried`, played by `bot`: its games (against each
    of `rivals`, or alone), and its mean share of the wins."""
    plans = []  # (candidate number, what it is measured against, sweep)
    for i, weights in enumerate(tried):
        spec = with_weights(bot, weights)
        if alone(program, seats):
            plans.append((i, "alone", Sweep(_spec(rules, sets, players, spec, seed, max_steps),
                                            metrics=_alone_metrics(seats))))
            continue
        for rival in rivals:
            plans.append((i, rival, Sweep(_spec(rules, sets, players, [spec] + [rival] * (players - 1), seed,
                                                max_steps), metrics=_head_metrics(spec))))
    play([s for _, _, s in plans], games, runner, progress)
    results = []
    for i, weights in enumerate(tried):
        mine = {rival: sweep for j, rival, sweep in plans if j == i}
        share = {rival: _mean(s.values["share"]) for rival, s in mine.items()}
        score = _mean([x for s in mine.values() for x in s.values["score"]])
        results.append({"bot": bot, "weights": weights, "games": sum(s.played for s in mine.values()),
                        "win_share": _mean(list(share.values())), "mean_score": score,
                        "against": {_rival_name(r): v for r, v in share.items()}})
    return results


def _rival_name(spec: str) -> str:
    """A rival as the evidence names it: its bot (the weights are the candidates')."""
    return spec.partition(":")[0]
