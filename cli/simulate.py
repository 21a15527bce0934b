"""`catalyst simulate` and `catalyst compare`: many games with bots, summarised
with intervals; variants compared on common random numbers."""
from __future__ import annotations

import contextlib
import json

import click

from interpreter import limits

from .options import BotsOption, PathArg, keeps_inputs, parse_sets, printable, read_rules, reports_errors, set_option


INTERRUPTED_EXIT = 130  # a sweep stopped by Ctrl-C (SIGINT), its summary printed: 128 + the signal, as shells say


def _options(fn):
    """Options shared by simulate and compare (applied bottom-up)."""
    for option in reversed([
        click.option("-n", "--games", type=click.IntRange(1, limits.GAMES), default=1000, show_default=True,
                     help="Number of games (with --sprt: the most games played)."),
        click.option("--players", "-p", type=int, default=None, help="Number of players (default: the fewest allowed)."),
        click.option("--bots", default="random", show_default=True, cls=BotsOption,
                     help="Bot for every seat, or one per seat separated by commas ({bots}); "
                          "seats are rotated from game to game."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Seed of the sweep: game i gets a seed made from (seed, i)."),
        click.option("--jobs", "-j", type=click.IntRange(1, limits.JOBS), default=None,
                     help="Local worker processes.  [default: every core]"),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
                     help="Run the games on a Dask distributed cluster instead of local processes."),
        click.option("--coverage", is_flag=True, help="Count how often each rule and card was used; list those never used."),
        click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON."),
        click.option("--report", "report_dir", type=PathArg(file_okay=False), default=None, metavar="DIR",
                     help="Write DIR/report.html with PNG plots (needs matplotlib)."),
        click.option("--max-steps", type=click.IntRange(min=1), default=None,
                     help="Steps a rule may run without a decision before it is stopped.  [default: 1000000]"),
        set_option,
    ]):
        fn = option(fn)
    return fn


@contextlib.contextmanager
def _progress(total: int, what: str):
    """A progress bar with rate and time left on a terminal (stderr); none otherwise."""
    from rich.console import Console

    console = Console(stderr=True, emoji=False)
    if not console.is_terminal:
        yield None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
    # No refresh thread (auto_refresh=False): worker processes are forked
    # after the bar starts, and forking is safe only without other threads.
    with Progress(*columns, console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task(what, total=total, rate="")
        bar.refresh()

        def advance(k: int):
            bar.advance(task, k)
            speed = bar.tasks[task].speed
            if speed:
                bar.update(task, rate=f"{speed:.0f} games/s")
            bar.refresh()

        yield advance


def _dump(data) -> str:
    from interpreter.simulation.summary import jsonable

    return json.dumps(jsonable(data), indent=2, allow_nan=False)


# ---------------------------------------------------------------- text output
def _interval(row) -> str:
    return f"{row['rate']:.3f}  ({row['low']:.3f} - {row['high']:.3f})"


def _stats_line(name: str, d: dict) -> str:
    def f(x):
        return f"{x:8.2f}"
    return (f"  {name:<22}{f(d['mean'])}{f(d['sd'])}{f(d['min'])}{f(d['q05'])}{f(d['q25'])}"
            f"{f(d['median'])}{f(d['q75'])}{f(d['q95'])}{f(d['max'])}")


def _team_lines(team) -> list:
    """The team win rate and the top scores, for rules won or lost together."""
    if not team:
        return []
    out = [f"team win rate {_interval(team['win_rate'])}  ({team['meaning']})"]
    for row in team["top_score_by_seat"]:
        out.append(f"  {'top score, player ' + str(row['seat'] + 1):<22}{_interval(row)}")
    for row in team["top_score_by_position"]:
        out.append(f"  {'top score, position ' + str(row['position'] + 1):<22}{_interval(row)}")
    return out


def _objective_lines(s: dict) -> list:
    """The shared score of a cooperative game and the win rate of each team."""
    out = []
    coop = s.get("cooperative")
    if coop:
        d = coop["shared_score"]
        out.append(f"shared score {d['mean']:.2f}  ({d['low']:.2f} - {d['high']:.2f}; 95% interval) "
                   f"out of {coop['best_score']}")
    if s.get("win_rate_by_team"):
        out.append("win rate by team (95% Wilson interval)")
        for row in s["win_rate_by_team"]:
            seats = f" (players {', '.join(str(p + 1) for p in row['seats'])})" if row["seats"] else ""
            out.append(f"  {'team ' + row['team'] + seats:<22}{_interval(row)}")
    return out


def _balance_lines(s: dict) -> list:
    """Players the rules play alone, the first-player advantage and balance
    (among the players that decide)."""
    out = []
    against = s.get("against_non_deciding")
    of = s.get("balance_of", "win")
    if against:
        one, many = len(against["seats"]) == 1, len(against["deciding_seats"]) > 1
        seats = ", ".join(str(x + 1) for x in against["seats"])
        deciders = ", ".join(str(x + 1) for x in against["deciding_seats"])
        out.append(f"{'player' if one else 'players'} {seats} never {'decides' if one else 'decide'} "
                   f"(the rules play {'it' if one else 'them'} alone); the deciding "
                   f"{'players' if many else 'player'} {deciders} {'win' if many else 'wins'} "
                   f"{_interval(against['win_rate'])} of the games against {'it' if one else 'them'}")
    fpa = s["first_player_advantage"]
    if fpa is None:
        out.append("first-player advantage and balance: none (fewer than two players decide)")
    else:
        fair = "1/" + str(s["players"]) if not s.get("non_deciding_seats") else f"{fpa['fair_share']:.3f}"
        out.append(f"first-player advantage  {fpa['advantage']:+.3f}  ({fpa['low']:+.3f} to {fpa['high']:+.3f}; "
                   f"{of} rate of the first player - {fair})")
        out.append(f"balance ({of}) {s['balance']:.3f} (by turn position), {s['seat_balance']:.3f} (by seat)")
    hand = s.get("first_player_advantage_by_hand")
    if hand and hand["hands"]:
        out.append(f"first-player advantage by hand  {hand['advantage']:+.3f}  ({hand['low']:+.3f} to "
                   f"{hand['high']:+.3f}; hands won by the player who started them - 1/{s['players']}, "
                   f"{hand['hands']} hands)")
    out.append(f"decisiveness {s['decisiveness']:.3f}"
               + (f"; lost by everyone {_interval(s['lost_by_all'])}" if s["lost_by_all"]["wins"] else ""))
    return out


def _percent(share: float) -> str:
    """A share as a percentage with one decimal, never "-0.0%"."""
    text = f"{share:.1%}"
    return "0.0%" if text == "-0.0%" else text


def summary_text(s: dict, cards_shown: int = 5) -> str:
    out = []
    speed = f" in {s['seconds']:.1f} s ({s['games_per_second']:.1f} games/s)" if "seconds" in s else ""
    out.append(f"{s['title']}: {s['games']} games, {s['players']} players, bots {', '.join(s['bots'])}, "
               f"seed {s['seed']}{speed}")
    if s.get("interrupted"):
        out.append(f"interrupted after {s['interrupted']['games']} of {s['interrupted']['of']} games (Ctrl-C): "
                   f"the figures are of the games played")
    if s["sets"]:
        out.append("parameters: " + ", ".join(f"{k}={v}" for k, v in s["sets"].items()))
    out.append(f"ties: {s['ties']}")
    out.append("")
    out.append("win rate (95% Wilson interval)")
    for row in s["win_rate_by_seat"]:
        mark = "" if row.get("decides", True) else "  (never decides)"
        out.append(f"  player {row['seat'] + 1:<15}{_interval(row)}{mark}")
    for row in s["win_rate_by_position"]:
        label = f"position {row['position'] + 1}" + (" (first)" if row["position"] == 0 else "")
        out.append(f"  {label:<22}{_interval(row)}")
    for bot, row in s["win_rate_by_bot"].items():
        out.append(f"  {'bot ' + bot:<22}{_interval(row)}")
    out += _balance_lines(s)
    out += _team_lines(s.get("team"))
    out += _objective_lines(s)
    out.append("")
    out.append(f"  {'':<22}" + "".join(f"{h:>8}" for h in ("mean", "sd", "min", "5%", "25%", "median", "75%", "95%", "max")))
    out.append(_stats_line("score", s["score"]))
    out.append(_stats_line("winning margin", s["winning_margin"]))
    out.append(_stats_line("turns", s["turns"]))
    out.append(_stats_line("decisions", s["decisions"]))
    for term, d in s["score_by_category"].items():
        out.append(_stats_line(f"points: {term}"[:22], d))
    out.append("share of points: " + ", ".join(f"{t} {_percent(v)}" for t, v in s["category_share"].items()))
    out += _impact_lines(s["card_impact"], cards_shown)
    out += _coverage_lines(s)
    return "\n".join(out)


def _impact_lines(card_impact: dict, cards_shown: int) -> list[str]:
    """Card impact: the cards used often enough, the first and last `cards_shown`."""
    from interpreter.simulation.summary import MIN_USES, reliable_impact

    if not card_impact:
        return []
    impact = reliable_impact(card_impact)
    out = ["", "card impact: win rate of players who used the card - of those who did not (95% interval)"]
    left = len(card_impact) - len(impact)
    if left:
        out.append(f"  ({left} cards used, or left unused, fewer than {MIN_USES} times are not shown; see --json)")
    if not impact:
        out.append("  (play more games to see it)")
    shown = impact if len(impact) <= 2 * cards_shown else impact[:cards_shown] + [None] + impact[-cards_shown:]
    for row in shown:
        if row is None:
            out.append("  ...")
            continue
        mark = " *" if row["significant"] else ""
        out.append(f"  {row['card']:<24}{row['difference']:+.3f}  ({row['low']:+.3f} to {row['high']:+.3f})  "
                   f"used {row['used']} times{mark}")
    if impact:
        out.append("  (* the interval excludes 0; an association, not a cause)")
    return out


def _coverage_lines(s: dict) -> list[str]:
    """What the rules and cards did over the games, when coverage was counted."""
    cov = s.get("coverage")
    if not cov:
        return []
    out = ["", f"coverage over {s['games']} games ({cov['meaning']})"]
    for name, e in cov["rules"].items():
        out.append(f"  {name:<40}{e['runs']:>10} runs in {_percent(e['games'] / max(s['games'], 1)):>6} of games")
    out.append("  games where a score term gave someone points: " + ", ".join(
        f"{t} {_percent(k / max(s['games'], 1))}" for t, k in cov["terms"].items()))
    for key, title in (("rules_never_run", "rules never run"), ("cards_never_used", "cards never used"),
                       ("cards_only_read", "cards only read by the rules, never chosen nor held"),
                       ("cards_never_in_play", "cards never in play"),
                       ("terms_never_scored", "score terms never scored")):
        items = cov[key]
        out.append(f"{title} ({len(items)}): " + (", ".join(items) if items else "none"))
    return out


def metric_name(metric: str) -> str:
    """A metric as people read it: seats' win rates name players, from 1
    (`win_rate_seat_0`, the id `--metric` takes, reads "win rate, player 1")."""
    prefix = "win_rate_seat_"
    if metric.startswith(prefix) and metric[len(prefix):].isdigit():
        return f"win rate, player {int(metric[len(prefix):]) + 1}"
    return metric


def comparison_text(result) -> str:
    from interpreter.simulation.compare import decimals, interval_text, p_text

    out = []
    st = result.settings
    out.append(f"{len(result.variants)} variant(s) against {result.base.rules}: {result.base.summary['games']} games "
               f"each, {st['players']} players, bots {', '.join(st['bots'])}, seed {st['seed']}")
    out.append("common random numbers: the same seeds and bots for every file; differences are variant - base "
               "with Student t 95% paired intervals")
    out.append(f"verdicts from p_holm, the p-value adjusted (Holm) for all the metrics of a variant: changed when "
               f"p_holm < {st['alpha']}")
    for v in result.variants:
        out.append("")
        n = v.summary["games"]
        out.append(f"{v.rules} ({v.summary['title']}, {n} games)")
        if n < st["min_verdict_games"]:
            out.append(f"  too few games for verdicts: a verdict needs {st['min_verdict_games']} games per file "
                       f"(the intervals assume near-normal means, which win-or-lose outcomes reach only with more)")
        if v.sprt:
            t = v.sprt
            out.append(f"  sequential test on {metric_name(t['metric'])} (effect {t['effect']}, alpha = beta = 0.05): "
                       f"{t['decision']} after {t['games']} games")
        out.append(f"  {'metric':<30}{'base':>9}{'variant':>9}{'difference':>11}  {'95% interval':<19}{'p_holm':>7}  verdict")
        for d in v.differences:
            digits = decimals(d["difference"])
            out.append(f"  {metric_name(d['metric'])[:30]:<30}{d['base']:9.3f}{d['variant']:9.3f}"
                       f"{d['difference']:+11.{digits}f}  {interval_text(d):<19}{p_text(d['p_holm'], st['alpha']):>7}  "
                       f"{d['verdict']}")
    return "\n".join(out)


def _write_records(path):
    """The records file (written beside the target, put in place at the end)
    and the function that writes one record."""
    from interpreter.files import OutputFile

    out = OutputFile(path, "the game records")

    def write(record):
        out.write(json.dumps(record, separators=(",", ":"), allow_nan=False) + "\n")

    return out, write


def _report_folder(report_dir) -> None:
    """Refuse a report folder that cannot be written now, before the games are played."""
    if report_dir:
        from interpreter.files import prepare_folder

        prepare_folder(report_dir, "the report")


# ---------------------------------------------------------------- commands
@click.command("simulate")
@click.argument("rules", type=PathArg(dir_okay=False))
@_options
@click.option("--out", "out_path", type=PathArg(dir_okay=False, writable=True), default=None,
              help="Write one JSON line per game (seed, seats, bots, scores, winners, ...).")
@reports_errors
@keeps_inputs
def simulate_command(rules, games, players, bots, seed, jobs, scheduler, coverage, as_json, report_dir, max_steps,
                     sets, out_path):
    """Play many games of RULES with bots and summarise them: win rates with
    intervals, scores, length, balance, card impact."""
    from interpreter.simulation import simulate

    read_rules(rules, sets)
    _report_folder(report_dir)
    records, write = _write_records(out_path) if out_path else (None, None)
    try:
        with _progress(games, "simulating") as advance:
            result = simulate(rules, games, players, bots, parse_sets(sets), seed, jobs, scheduler, coverage,
                              out=write, progress=advance, max_steps=max_steps)
    except BaseException:
        if records:
            records.discard()  # an existing file stays as it was
        raise
    if records:
        records.commit()
    if report_dir:
        from interpreter.simulation.report import write_report

        path = write_report(report_dir, [(rules, result.summary, result.samples)],
                            title=f"Simulation of {result.summary['title']}")
        click.echo(f"report: {path}", err=True)
    if as_json:
        click.echo(_dump(result.summary))
    else:
        click.echo(printable(summary_text(result.summary)))
    if result.interrupted:
        click.get_current_context().exit(INTERRUPTED_EXIT)


@click.command("compare")
@click.argument("files", nargs=-1, required=True, type=PathArg(dir_okay=False), metavar="BASE VARIANT...")
@_options
@click.option("--sprt", is_flag=True,
              help="Stop early once a sequential probability ratio test (alpha = beta = 0.05) decides.")
@click.option("--metric", default="first_player_advantage", show_default=True,
              help="Metric of the sequential test (e.g. win_rate_seat_0, turns, mean_score).")
@click.option("--effect", type=float, default=0.05, show_default=True,
              help="Effect size of the sequential test, in the metric's units.")
@reports_errors
@keeps_inputs
def compare_command(files, games, players, bots, seed, jobs, scheduler, coverage, as_json, report_dir, max_steps,
                    sets, sprt, metric, effect):
    """Compare variants with a base: every file plays the same seeds with the
    same bots; paired differences of each metric with Student t 95%
    intervals, and verdicts from p-values adjusted for all the metrics (Holm)."""
    from interpreter.simulation.compare import compare

    if len(files) < 2:
        raise click.UsageError("give a base rules file and at least one variant")
    base, variants = files[0], list(files[1:])
    for rules in files:
        read_rules(rules, sets)
    _report_folder(report_dir)
    with _progress(games * len(files), "comparing") as advance:
        result = compare(base, variants, games, players, bots, parse_sets(sets), seed, jobs, scheduler,
                         coverage, sprt, metric, effect, progress=advance, max_steps=max_steps)
    if report_dir:
        from interpreter.simulation.report import write_report

        runs = [(base, result.base.summary, result.base.samples)] + [(v.rules, v.summary, v.samples) for v in result.variants]
        path = write_report(report_dir, runs, [(v.rules, v.differences) for v in result.variants],
                            result.settings, title=f"Comparison with {result.base.summary['title']}")
        click.echo(f"report: {path}", err=True)
    if as_json:
        click.echo(_dump(result.to_json()))
    else:
        click.echo(printable(comparison_text(result)))
        if coverage:
            for name, summary in [(base, result.base.summary)] + [(v.rules, v.summary) for v in result.variants]:
                cov = summary["coverage"]
                click.echo("")
                click.echo(printable(f"{name}: rules never run: {', '.join(cov['rules_never_run']) or 'none'}; "
                           f"cards never used: {', '.join(cov['cards_never_used']) or 'none'}; "
                           f"score terms never scored: {', '.join(cov['terms_never_scored']) or 'none'}"))
