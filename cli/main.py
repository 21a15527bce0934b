"""`catalyst` commands. Each command parses options, calls the interpreter and
prints; project errors become Click errors (exit 1) without a traceback."""
from __future__ import annotations

import sys

import click

from interpreter.errors import RulesError

from .bots import bots_command
from .games import games_command
from .options import Context, PathArg, parse_sets, printable, reports_errors, set_option, show_traceback
from .run import run
from .serve import serve_command
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
@click.option("--leaks", is_flag=True,
              help="Also play games and report what a player is told of cards it can neither see nor know.")
@click.option("--players", "-p", type=int, default=None,
              help="With --leaks: the number of players (default: every number the rules allow).")
@click.option("-n", "--games", type=click.IntRange(1, 10_000), default=4, show_default=True,
              help="With --leaks: games played at each number of players.")
@click.option("--seed", type=int, default=0, show_default=True, help="With --leaks: the seed of the first game.")
@click.option("--json", "as_json", is_flag=True, help="With --leaks: print the leaks found as JSON.")
@set_option
@click.pass_context
def check(ctx, rules, strict, leaks, players, games, seed, as_json, sets):
    """Check rules files: names, arities, types, card data. Exit 1 on errors
    (and, with --strict, on warnings). With --leaks, also play GAMES seeded
    games with random answers, swap cards a player can neither see nor know
    at positions along them, and exit 1 if what that player is told
    changes (the story, who decides, its options, another player's
    decision as shown to it, what it sees, a bot's choice), naming the
    rules line that told it."""
    from interpreter.loader import load_game

    from .leaks import check_leaks, print_reports

    failed = False
    reports = []
    for path in rules:
        try:
            game = load_game(path, parse_sets(sets))
        except RulesError as err:
            _tell_error(ctx, err)
            failed = True
            continue
        for d in game.diagnostics:
            click.echo(printable(d.render()), err=True)
        warnings = len(game.diagnostics)
        counted = f"{warnings} warning{'s' if warnings != 1 else ''}"
        if strict and warnings:
            failed = True
            click.echo(printable(f"{path}: failed: {counted}, and --strict counts warnings as errors"))
        elif not as_json:
            click.echo(printable(f"{path}: ok" + (f" ({counted})" if warnings else "")))
        if leaks:
            try:
                found, data = check_leaks(game, players, games, seed, as_json)
            except RulesError as err:
                _tell_error(ctx, err)
                failed = True
                continue
            failed = failed or found
            reports.append(data)
    if leaks and as_json:
        print_reports(reports)
    if failed:
        ctx.exit(1)


def _tell_error(ctx, err: RulesError) -> None:
    """A rules error on standard error (with the traceback under --debug); the command goes on."""
    if ctx.obj.debug:
        show_traceback()
    click.echo(printable(err.render()), err=True)


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
    """Replay a game from a log written by `run --log`, checking every step
    and what followed it, and print it as `run` does."""
    from interpreter.loader import load_named_game
    from interpreter.replay import read_log, replay_log

    from . import render

    header, entries, result = read_log(log_path)
    game = load_named_game(header["rules"], header.get("sets") or {}, log_path, "game log")
    if quiet:
        final = replay_log(game, header, entries, result, log_path)
    else:
        click.echo(f"{game.title} — seed {header['seed']}, {header['players']} players, replayed from {log_path}")
        steps = [0]

        def told(lines):
            render.event_lines(lines, heading=None if steps[0] else "setup")
            steps[0] += 1

        final = replay_log(game, header, entries, result, log_path, on_events=told,
                           on_step=lambda st, d, label: click.echo(render.log_line(st, d, label)))
        render.reveal(final)
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

    broken = serve_stdio()
    if broken is not None:
        raise click.ClickException(f"the editor's messages cannot be read: {broken}; the language server stops")


cli.add_command(run)
cli.add_command(games_command)
cli.add_command(simulate_command)
cli.add_command(compare_command)
cli.add_command(tune_command)
cli.add_command(bots_command)
cli.add_command(serve_command)


def main():
    cli(prog_name="catalyst")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
