"""`catalyst run`: one game, with bots or at the terminal.

Players are counted from 1 in everything printed and in `--human`; the JSON
outputs (results, logs, saves) keep the API's seats, from 0 (player 1 is
seat 0)."""
from __future__ import annotations

import json
import sys

import click

from interpreter.errors import RulesError

from .options import BotsOption, PathArg, fresh_seed, keeps_inputs, parse_sets, reports_errors, set_option


@click.command()
@click.argument("rules", required=False, type=PathArg(dir_okay=False))
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the fewest allowed).")
@click.option("--seed", type=int, default=None,
              help="Seed of the game's random generator.  "
                   "[default: a fresh seed, printed so the game can be played again]")
@click.option("--bots", default=None, cls=BotsOption,
              help="Bots for the players no one plays at the terminal: one for all, or one per player separated by "
                   "commas ({bots}).  [default: random]")
@click.option("--human", "humans", type=int, multiple=True, metavar="PLAYER",
              help="A player played at the terminal, counted from 1 (repeatable). Without --human and --bots, "
                   "in a terminal, you play player 1; with --quiet or --json, or away from a terminal, bots "
                   "play every player.")
@click.option("--load", "load_path", type=PathArg(dir_okay=False, exists=True), help="Resume a saved game.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the final scores.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (seats counted from 0).")
@click.option("--log", "log_path", type=PathArg(dir_okay=False, writable=True),
              help="Write every decision and what followed it as JSON lines (replay it with `catalyst replay`).")
@click.option("--check-invariants", is_flag=True, help="Check the engine's invariants after every action.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None, help="Steps a rule may run without a decision before it is stopped.  [default: 1000000]")
@set_option
@reports_errors
@keeps_inputs
def run(rules, players, seed, bots, humans, load_path, quiet, as_json, log_path, check_invariants, max_steps, sets):
    """Play a game of RULES with bots, or at the terminal, and print the scores."""
    from interpreter.agents import make_agents
    from interpreter.loader import load_game, load_named_game

    from . import render

    given = rules
    saved, rules, sets, seed, players, seats, bots, fresh = _session(rules, parse_sets(sets), seed, players, humans,
                                                                     bots, load_path)
    # a mistake in the rules or a --set value is told before anything else
    game = load_game(rules, sets) if not saved or given else load_named_game(rules, sets, load_path, "saved game")
    if log_path:
        from interpreter import files

        files.check_writable(log_path, "the log")  # now, not after the game (and not over a file read)
    if saved:
        _check_saved_rules(game, saved, given, rules, load_path)
    if not seats and not quiet and not as_json:
        seats = _default_seats() if bots is None else _bots_everywhere()
    game.set_limits(steps=max_steps, check_invariants=check_invariants)
    players = players if players is not None else game.player_range[0]
    _check_seats(seats, players)
    initial = (game.state_from_json(json.dumps(saved["game"])) if saved
               else game.new_initial_state(players, seed, listen=not quiet and not as_json))
    agents = make_agents(bots or "random", players, seed)
    if not quiet and not as_json:
        render.say(render.seed_line(game, rules, seed, players, resumed=saved is not None))
    elif fresh and quiet:  # the scores alone on standard output; the seed, to play the game again, beside them
        click.echo(f"seed {seed}", err=True)
    if seats:
        final = _at_the_table(game, initial, seats, agents, {"rules": rules, "sets": sets, "seed": seed,
                                                               "players": players, "bots": bots})
        if final is None:
            return
    else:
        final = _with_bots(game, initial, players, seed, agents, quiet or as_json)
    _report(game, final, rules, seed, sets, agents, log_path, quiet, as_json)


def _session(rules, sets, seed, players, humans, bots, load_path):
    """What the game is: from a save (--load), or from the options (a fresh
    seed when none is given). (saved, rules, sets, seed, players, seats
    played at the terminal, bots, whether the seed is fresh)."""
    from interpreter.saves import read_session

    seats = {h - 1 for h in humans}
    if load_path:
        saved = read_session(load_path)
        if not humans and bots is None:
            seats = set(saved["human"])
        return (saved, rules or saved["rules"], saved["sets"], saved["seed"], saved["players"], seats,
                bots or saved.get("bots"), False)
    if rules is None:
        raise click.UsageError("give a RULES file, or --load a saved game")
    fresh = seed is None
    return None, rules, sets, fresh_seed() if fresh else seed, players, seats, bots, fresh


def _check_seats(seats: set, players: int) -> None:
    for seat in sorted(seats):
        if not 0 <= seat < players:
            raise click.BadParameter(f"player {seat + 1} does not exist with {players} players "
                                     f"(players 1 to {players})", param_hint="--human")


def _report(game, final, rules, seed, sets, agents, log_path, quiet: bool, as_json: bool) -> None:
    """The end of a game: its log written, its result printed."""
    from interpreter.replay import RESULT_FORMAT, log_text

    from . import render

    result = {"rules": rules, "seed": seed, "bots": [a.name for a in agents], **final.result()}
    if log_path:
        render.write_log(log_path, log_text(game, final, log_path, rules, [a.name for a in agents], sets, result))
    if as_json:
        click.echo(json.dumps({"format": RESULT_FORMAT, **result}, allow_nan=False))
        return
    if not quiet:
        render.reveal(final)
    render.final_table(final, quiet)


def _default_seats() -> set:
    """Without --human and --bots: you play player 1 in a terminal; away
    from one, bots play every player (as the help says)."""
    if sys.stdin is not None and sys.stdin.isatty():
        return {0}
    click.echo("no terminal to play at: random bots play every player (--bots names others)", err=True)
    return set()


def _bots_everywhere() -> set:
    """--bots without --human: bots play every player; in a terminal, where
    one may have meant to play, say how to take a seat."""
    if sys.stdin is not None and sys.stdin.isatty():
        click.echo("bots play every seat; add --human 1 to play player 1", err=True)
    return set()


def _check_saved_rules(game, saved, given, rules, load_path) -> None:
    """The rules a save is resumed with must be those it was saved with."""
    if game.program.fingerprint == saved["fingerprint"]:
        return
    if given:
        raise RulesError(f"{given} are not the rules {load_path} was saved with (they differ in their "
                         "rules, cards or parameters)")
    raise RulesError(f"the rules {rules} changed since {load_path} was saved (their rules, cards or parameters differ)")


def _at_the_table(game, initial, seats, agents, meta):
    from . import human, render

    return human.Session(game, initial, seats, agents, meta, render.console()).play()


def _with_bots(game, initial, players, seed, agents, silent: bool):
    """Bots play every seat; unless `silent`, each decision is printed with
    everything that followed it (no one plays, so nothing is hidden)."""
    from interpreter.play import play_game
    from interpreter.replay import told

    from . import render

    if silent:
        return play_game(game, players, seed, agents, state=initial)

    def decided(st, decision, choice):
        label = next(o.label for o in decision.options if o.id == choice)
        click.echo(render.log_line(st, decision, label))

    def followed(st):
        render.event_lines(told(st))

    if initial.events is not None:
        render.event_lines(told(initial), heading="setup")
    else:
        initial.events = []
    return play_game(game, players, seed, agents, on_decision=decided, state=initial, after_decision=followed)
