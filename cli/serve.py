"""`catalyst serve`: a game in the browser, one link per person's seat, bots
in the others, and a designer's link; the games are kept in a folder and
served again when the server starts again."""
from __future__ import annotations

import click

from interpreter import limits

from .options import BotsOption, PathArg, parse_sets, reports_errors, set_option


@click.command("serve")
@click.argument("rules", required=False, type=PathArg(dir_okay=False, exists=True))
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the fewest allowed).")
@click.option("--seed", type=int, default=None, help="Seed of the game's random generator.  [default: a fresh seed]")
@click.option("--bots", default=None, cls=BotsOption,
              help="Bots for the seats no person plays: one for all, or one per player separated by commas "
                   "({bots}).  [default: random]")
@click.option("--human", "humans", type=int, multiple=True, metavar="PLAYER",
              help="A player played by a person in a browser, counted from 1 (repeatable).  [default: player 1]")
@click.option("--hotseat", is_flag=True, help="One link plays every person's seat on one screen, hiding each "
                                              "player's cards until the next one takes the screen.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 lets other machines in: anyone with a link can play).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--state-dir", type=PathArg(file_okay=False), default=None,
              help="Folder the games are kept in, and resumed from when the server starts again.  "
                   "[default: the user's data folder, e.g. ~/.local/share/catalyst-rules/served-games]")
@click.option("--bot-delay", type=click.FloatRange(0, 60), default=0.5, show_default=True,
              help="Seconds a bot waits before each decision, so people can follow.")
@click.option("--step-time", type=click.FloatRange(0.1, 3600), default=limits.STEP_SECONDS, show_default=True,
              help="Seconds one step of a game may compute (an action and the rules up to the next decision, "
                   "a bot's move, a trip back) before its table is stopped; a bot told to think for a time "
                   "(mcts:2s) gets that time more.")
@set_option
@reports_errors
def serve_command(rules, players, seed, bots, humans, hotseat, host, port, state_dir, bot_delay, step_time, sets):
    """Play RULES in the browser: print a link for each person's seat and one
    for the designer, and serve them until stopped (Ctrl+C). Without RULES,
    serve the games kept in the state folder again."""
    from interpreter.serve import HOTSEAT, Hub, Store, bind, default_folder, run

    store = Store(state_dir or default_folder("catalyst-rules"))
    for warning in store.warnings:
        click.echo(f"warning: {warning}", err=True)
    hub = Hub(store, bot_delay=bot_delay, step_seconds=step_time)
    resumed = hub.resume()
    for problem in hub.problems:
        click.echo(f"warning: {problem}", err=True)
    if rules is None and not resumed:
        raise click.UsageError(f"give a RULES file: no game is kept in {store.folder} to serve again")
    new = None
    if rules is not None:
        new = hub.new_table(rules, parse_sets(sets), seed, players, [h - 1 for h in humans] or [0], bots, hotseat)
    try:
        sock = bind(host, port)
    except OSError as err:
        raise click.ClickException(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    bound = sock.getsockname()
    base = f"http://{_shown_host(host)}:{bound[1]}"
    for table in ([new] if new else resumed):
        _print_links(table, hub, base, HOTSEAT)
    if new and resumed:
        click.echo(f"{len(resumed)} kept game{'s' if len(resumed) != 1 else ''} also served at "
                   f"{'their' if len(resumed) != 1 else 'its'} links (`catalyst serve` alone lists them)")
    click.echo(f"games kept in {store.folder}; Ctrl+C stops the server", err=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"warning: listening on {host}: anyone who can reach this machine and has a link can play",
                   err=True)
    run(hub, sock, names=[_shown_host(host).strip("[]"), host])


def _shown_host(host: str) -> str:
    if host in ("0.0.0.0", "::"):
        import socket

        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def _print_links(table, hub, base: str, hotseat) -> None:
    setup = table.setup
    click.echo(f"{table.state.program.title} — seed {setup.seed}, {setup.players} players "
               f"(rules {setup.rules})")
    links = hub.links(table)
    for seat in range(setup.players):
        if seat in links:
            click.echo(f"  player {seat + 1}: {base}{links[seat]}")
        elif hotseat in links and table.is_person(seat):
            click.echo(f"  player {seat + 1}: on the hot seat")
        else:
            click.echo(f"  player {seat + 1}: {table.who(seat)}")
    if hotseat in links:
        click.echo(f"  hot seat: {base}{links[hotseat]}")
    click.echo(f"  designer: {base}{links['designer']}")
