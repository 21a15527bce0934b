"""`catalyst bots`: how strong each bot is on a rules file (greedy against
random, mcts against greedy, with intervals), and `--tune` to choose the
evaluation's weights for that file by measurement."""
from __future__ import annotations

import click

from .options import PathArg, parse_sets, printable, read_rules, reports_errors, set_option
from .simulate import _dump, _progress


@click.command("bots")
@click.argument("rules", type=PathArg(dir_okay=False))
@click.option("--players", "-p", type=click.IntRange(min=1), default=None,
              help="Number of players.  [default: 2, or the only number the rules allow]")
@click.option("--games", "-n", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games of each pairing.")
@click.option("--mcts", "mcts", default="mcts:200", show_default=True, help="The searching bot measured against greedy.")
@click.option("--tune", is_flag=True,
              help="First choose the evaluation's weights for RULES by measurement, and store them for greedy and mcts.")
@click.option("--tune-games", type=click.IntRange(min=2), default=None,
              help="Games of each tuning sweep (implies --tune).  [default: 20]")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the games.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, help="Local worker processes.  [default: every core]")
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="Steps a rule may run without a decision before it is stopped.  [default: 1000000]")
@set_option
@reports_errors
def bots_command(rules, players, games, mcts, tune, tune_games, seed, jobs, as_json, max_steps, sets):
    """How strong each bot is on RULES: greedy against random and MCTS
    against greedy, each bot's share of the wins with a 95% interval (in a
    game played alone or won together: each bot's win rate and mean score
    on the same games)."""
    from interpreter.agents import make_agent
    from interpreter.errors import RulesError
    from interpreter.loader import load_game
    from interpreter.simulation import strength

    read_rules(rules, sets)
    if make_agent(mcts, 0, 0).name != "mcts":  # (a misspelt bot is told here too, before any game is played)
        raise RulesError(f"--mcts names the searching bot measured against greedy (mcts:200, mcts:500ms, "
                         f"mcts:100:c=0.5), not '{mcts}'")
    program = load_game(rules, parse_sets(sets)).program
    if players is None:
        players = min(max(2, program.min_players), program.max_players)
    if tune or tune_games:
        tune_games = tune_games or strength.TUNE_GAMES
    seats = strength.deciders(rules, parse_sets(sets), players, seed, max_steps)
    with _progress(strength.planned_games(program, seats, games, tune_games, mcts), "measuring") as advance:
        ladder = strength.measure(rules, games, players, mcts, seed, jobs, parse_sets(sets), tune_games,
                                  max_steps, progress=advance)
    click.echo(_dump(ladder.to_json()) if as_json else printable(ladder_text(ladder)))


def ladder_text(ladder) -> str:
    weights = ", ".join(f"{k} {v:g}" for k, v in ladder.weights.items())
    source = {"tuned": "measured now and stored", "stored": "measured by an earlier --tune",
              "defaults": "the defaults: no --tune stored for these rules"}[ladder.source]
    deciding = f" ({len(ladder.deciding)} deciding)" if len(ladder.deciding) < ladder.players else ""
    out = [f"{ladder.title}: {ladder.players} player{'s' if ladder.players > 1 else ''}{deciding}, seed {ladder.seed}",
           f"evaluation weights: {weights} ({source})"]
    if ladder.tuning:
        out += _tuning_text(ladder.tuning)
    out.append("")
    head = ladder.rows and ladder.rows[0].head_to_head
    w = max([12] + [len(name) + 2 for r in ladder.rows for name in (r.bot, r.against)])  # (a bot with options is long)
    if head:
        out.append(f"  {'bot':<{w}}{'against':<{w}}{'games':>6}  {'win share':>9}  {'95% interval':<16}mean scores")
    else:
        out.append(f"  {'bot':<{w}}{'against':<{w}}{'games':>6}  {'win rate':>9}  {'95% interval':<16}"
                   f"{'other':>6}  mean scores (difference, 95% interval)")
    for r in ladder.rows:
        interval = f"{r.rate['low']:.1%} - {r.rate['high']:.1%}"
        if head:
            out.append(f"  {r.bot:<{w}}{r.against:<{w}}{r.games:>6}  {r.rate['rate']:>9.1%}  {interval:<16}"
                       f"{r.score:.1f} to {r.against_score:.1f}")
        else:
            d = r.score_difference
            out.append(f"  {r.bot:<{w}}{r.against:<{w}}{r.games:>6}  {r.rate['rate']:>9.1%}  {interval:<16}"
                       f"{r.against_rate['rate']:>6.1%}  {r.score:.1f} to {r.against_score:.1f} "
                       f"({d['difference']:+.1f}, {d['low']:+.1f} to {d['high']:+.1f})")
    return "\n".join(out)


def _tuning_text(tuning: dict) -> list:
    """The tuning's candidates, a paragraph per bot that measured them, each
    candidate by the weights that bot takes."""
    from interpreter.agents import AGENTS

    out, kept = [], tuning["candidates"][tuning["best"]]
    for bot in dict.fromkeys(c["bot"] for c in tuning["candidates"]):
        mine = [c for c in tuning["candidates"] if c["bot"] == bot]
        against = list(mine[-1]["against"])
        out.append(f"tuning ({bot} with each weight: " + (f"mean share of the wins against {' and '.join(against)}):"
                                                         if "alone" not in against else "win rate, then mean score):"))
        known = AGENTS[bot.partition(":")[0]].settings
        for c in mine:
            mark = "  <- kept" if _same(c, kept, known) else ""
            values = ", ".join(f"{k} {v:g}" for k, v in c["weights"].items() if k in known)
            out.append(f"  {values:<24}{c['win_share']:7.1%} over {c['games']} games, mean score {c['mean_score']:.1f}{mark}")
    return out


def _same(c: dict, kept: dict, known) -> bool:
    """Whether candidate `c` has the kept values of the weights its bot
    takes (in a paragraph, the candidates differ in those weights)."""
    return all(kept["weights"][k] == v for k, v in c["weights"].items() if k in known)
