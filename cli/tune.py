"""`catalyst tune`: search parameters of a rules file toward targets on its
simulated metrics, and write the best values as a variant file."""
from __future__ import annotations

import json

import click

from .options import PathArg, keeps_inputs, parse_sets, read_rules, reports_errors, set_option
from .simulate import _dump, _progress


@click.command("tune")
@click.argument("rules", type=PathArg(dir_okay=False))
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=LOW..HIGH",
              help="A parameter to search: NAME=LOW..HIGH (whole numbers), NAME=a,b,c, "
                   "or an element of a list or map parameter: NAME[i]=LOW..HIGH (repeatable).")
@click.option("--target", "targets", multiple=True, required=True, metavar="METRIC=LOW..HIGH",
              help="A metric of the simulate summary and the range to reach, e.g. "
                   "first_player_advantage=-0.02..0.02, turns=60..70, win_rate_by_seat[0]=0.45..0.55 (repeatable).")
@click.option("--bots", default="random", show_default=True, help="Bot for every seat, or one per seat.")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the fewest allowed).")
@click.option("--budget", type=click.IntRange(min=2), default=20000, show_default=True,
              help="Games to play in all, over every candidate.")
@click.option("--first-games", type=click.IntRange(min=2), default=None,
              help="Games of each candidate's first look.  [default: budget/50, 30 to 200]")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search and of its games.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Local worker processes.  [default: every core]")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Run the games on a Dask distributed cluster.")
@click.option("--out", "out_path", type=PathArg(dir_okay=False, writable=True), default=None, metavar="VARIANT.rules",
              help="Write the best values as a rules file that extends RULES, with the evidence as comments.")
@click.option("--report", "report_dir", type=PathArg(file_okay=False), default=None, metavar="DIR",
              help="Write DIR/report.html with the search history (needs matplotlib).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Steps a rule may run without a decision before it is stopped.  [default: 1000000]")
@set_option
@reports_errors
@keeps_inputs
def tune_command(rules, params, targets, bots, players, budget, first_games, seed, jobs, scheduler, out_path,
                 report_dir, as_json, max_steps, sets):
    """Search parameters of RULES toward target values of its metrics, by
    simulation: candidates proposed by an optimiser, judged on the same
    games, promising ones given more games."""
    from interpreter import files
    from interpreter.simulation.tune import tune

    if out_path:
        read_rules(rules, sets)
        files.check_writable(out_path, "the variant")  # found before the search, not after it
    with _progress(budget, "tuning") as advance:
        result = tune(rules, list(params), list(targets), budget, players, bots, parse_sets(sets), seed, jobs,
                      scheduler, first_games, max_steps, progress=advance)
    if out_path:
        files.write_text(out_path, result.variant(out_path), "the variant")
        click.echo(f"variant: {out_path}", err=True)
    if report_dir:
        from interpreter.simulation.tune_report import write_tune_report

        click.echo(f"report: {write_tune_report(report_dir, result)}", err=True)
    click.echo(_dump(result.to_json()) if as_json else tune_text(result))


def tune_text(result) -> str:
    best = result.best
    out = [f"{result.settings['title']}: {len(result.candidates)} candidates, {result.games} games",
           "best: " + ", ".join(f"{k} = {v}" for k, v in best.sets.items())]
    out += result.evidence()[2:]
    out.append("")
    out.append(f"  {'candidate':<10}{'games':>7}{'loss':>9}  in race  values")
    for c in sorted(result.candidates, key=lambda c: c.rank())[:10]:
        values = ", ".join(f"{k}={json.dumps(v)}" for k, v in c.values.items())
        out.append(f"  {c.number:<10}{c.games:>7}{c.loss:>9.3f}  {'yes' if not c.out else 'no ':<7}  {values}")
    return "\n".join(out)
