"""`catalyst` commands. Each command parses options, calls the interpreter and
prints; project errors become Click errors (exit 1) without a traceback."""
from __future__ import annotations

import json
import sys

import click

from interpreter.errors import RulesError

from .games import games_command
from .options import Context, PathArg, parse_sets, printable, reports_errors, set_option, show_traceback
from .simulate import compare_command, simulate_command
from .tune import tune_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show Python tracebacks for errors.")
@click.version_option(package_name="catalyst-rules", prog_name="catalyst")
@click.pass_context
def cli(ctx, debug):
    """Rules language for tabletop card games: check rules, play and simulate."""
    ctx.obj = Context(debug)


@cli.command()
@click.argument("rules", nargs=-1, required=True, type=PathArg(dir_okay=False))
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@set_option
@click.pass_context
def check(ctx, rules, strict, sets):
    """Check rules files: names, arities, card data. Exit 1 on errors."""
    from interpreter.loader import load_game

    failed = False
    for path in rules:
        try:
            game = load_game(path, parse_sets(sets))
        except RulesError as err:
            if ctx.obj.debug:
                show_traceback()
            click.echo(printable(err.render()), err=True)
            failed = True
            continue
        for d in game.diagnostics:
            click.echo(printable(d.render()), err=True)
        warnings = len(game.diagnostics)
        if strict and warnings:
            failed = True
        click.echo(printable(f"{path}: ok" + (f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else "")))
    if failed:
        ctx.exit(1)


@cli.command()
@click.argument("rules", required=False, type=PathArg(dir_okay=False))
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the fewest allowed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the game's random generator.")
@click.option("--bots", default=None, help="Bot for every other seat, or one per seat: random,greedy.  [default: random]")
@click.option("--human", "humans", type=int, multiple=True, metavar="SEAT",
              help="A seat played at the terminal (0 is the first seat; repeatable). "
                   "Default when stdin is a terminal and no --bots is given: seat 0.")
@click.option("--load", "load_path", type=PathArg(dir_okay=False, exists=True), help="Resume a saved game.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final scores.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--log", "log_path", type=PathArg(dir_okay=False, writable=True), help="Write every decision as JSON lines.")
@click.option("--check-invariants", is_flag=True, help="Check the engine's invariants after every action.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None, help="Steps a rule may run without a decision before it is stopped.  [default: 1000000]")
@set_option
@reports_errors
def run(rules, players, seed, bots, humans, load_path, quiet, as_json, log_path, check_invariants, max_steps, sets):
    """Play a game of RULES with bots, or at the terminal, and print the scores."""
    from interpreter import files
    from interpreter.agents import make_agents
    from interpreter.loader import load_game
    from interpreter.play import play_game
    from interpreter.replay import log_text
    from interpreter.saves import read_session

    from . import human as human_play
    from . import render

    sets = parse_sets(sets)
    saved = None
    if load_path:
        saved = read_session(load_path)
        given = rules
        rules, sets, seed, players = rules or saved["rules"], saved["sets"], saved["seed"], saved["players"]
        if not humans and bots is None:
            humans = tuple(saved["human"])
        bots = bots or saved.get("bots")
    elif rules is None:
        raise click.UsageError("give a RULES file, or --load a saved game")
    if log_path:
        files.check_writable(log_path, "the log")  # now, not after the game
    if not humans and bots is None:
        if sys.stdin is None or not sys.stdin.isatty():
            raise click.UsageError(
                "no terminal to play at and no bots named: add --bots random (or --bots greedy) "
                "to let bots play every seat, or run it in a terminal to play yourself")
        humans = (0,)
    game = load_game(rules, sets)
    if saved and game.program.fingerprint != saved["fingerprint"]:
        raise RulesError(f"{given or rules} are not the rules {load_path} was saved with (they differ in their "
                         "rules, cards or parameters)" if given else
                         f"the rules {rules} changed since {load_path} was saved (their rules, cards or parameters differ)")
    game.set_limits(steps=max_steps, check_invariants=check_invariants)
    players = players if players is not None else game.player_range[0]
    for seat in humans:
        if not 0 <= seat < players:
            raise click.BadParameter(f"seat {seat} does not exist with {players} players (seats 0 to {players - 1})", param_hint="--human")
    initial = game.state_from_json(json.dumps(saved["game"])) if saved else game.new_initial_state(players, seed)
    agents = make_agents(bots or "random", players, seed)
    def record(st, decision, choice):
        if not quiet and not as_json and not humans:
            label = next(o.label for o in decision.options if o.id == choice)
            click.echo(render.log_line(st, decision, label))

    if humans:
        meta = {"rules": rules, "sets": sets, "seed": seed, "players": players, "bots": bots}
        session = human_play.Session(game, initial, set(humans), agents, meta, render.console(), on_decision=record)
        final = session.play()
        if final is None:
            return
    else:
        final = play_game(game, players, seed, agents, on_decision=record, state=initial)
    result = {"rules": rules, "seed": seed, "bots": [a.name for a in agents], **final.result()}
    if log_path:
        render.write_log(log_path, log_text(game, final, log_path, rules, [a.name for a in agents], sets, result))
    if as_json:
        click.echo(json.dumps(result))
    else:
        render.final_table(final, quiet)


@cli.command()
@click.argument("rules", type=PathArg(dir_okay=False))
@click.option("--where", default=None, metavar="EXPR", help='Keep cards matching an expression, e.g. "cost >= 4".')
@click.option("--kind", default=None, help="Keep cards of one kind.")
@set_option
@reports_errors
def cards(rules, where, kind, sets):
    """Show the card database of RULES as a table."""
    from interpreter.loader import load_game
    from interpreter.query import card_fields, select_cards

    from . import render

    game = load_game(rules, parse_sets(sets))
    chosen = select_cards(game, where, kind)
    render.cards_table(chosen, card_fields(game))


@cli.command()
@click.argument("log_path", metavar="LOG", type=PathArg(exists=True, dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="Print only the final scores.")
@reports_errors
def replay(log_path, quiet):
    """Replay a game from a log written by `run --log`, checking every step."""
    from interpreter.loader import load_game
    from interpreter.replay import read_log, replay_log

    from . import render

    header, entries, result = read_log(log_path)
    game = load_game(header["rules"], header.get("sets") or {})
    final = replay_log(game, header, entries, result, log_path,
                       on_step=None if quiet else lambda st, d, label: click.echo(render.log_line(st, d, label)))
    render.final_table(final, quiet)


@cli.command("compile")
@click.argument("rules", type=PathArg(dir_okay=False))
@click.option("--rule", default=None, metavar="NAME",
              help="Only what one rule became: a procedure, effect, action or definition by name, or setup, turn, "
                   "'start of turn'...")
@set_option
@reports_errors
def compile_command(rules, rule, sets):
    """Print the Python code RULES compiles to: one function per rule, named
    after it, with the rules lines as comments and the constants it uses."""
    from interpreter.loader import load_game

    from . import render

    game = load_game(rules, parse_sets(sets))
    click.echo(render.generated_code(game, rule), nl=False)


@cli.command()
@click.option("--stdio", is_flag=True, help="Speak over standard input and output (the default and only way).")
def lsp(stdio):
    """Run the language server for editors (Language Server Protocol over stdio)."""
    from interpreter.lsp.server import serve_stdio

    serve_stdio()


cli.add_command(games_command)
cli.add_command(simulate_command)
cli.add_command(compare_command)
cli.add_command(tune_command)


def main():
    cli(prog_name="catalyst")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
