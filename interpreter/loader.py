"""Load a rules file: check it (the front end), compile it, and make a Game.
Every problem becomes a RulesError with a location."""
from __future__ import annotations

import os
from pathlib import Path

from .compiler.build import compile_program
from .errors import CheckError, RulesError
from .language.frontend import check_rules


def load_game(path: str | Path, overrides: dict | None = None, coverage: bool = False):
    """Load, check and compile a rules file into a Game. With `coverage`, the
    code also counts which cards' fields the rules read (a little slower;
    see `GameState.card_reads`)."""
    from .game import Game

    try:
        checked = check_rules(path, overrides)
        if checked.errors:
            raise CheckError(checked.errors)
        program = compile_program(checked.model, checked.db, checked.params, checked.card_fields,
                                  count_reads=coverage)
    except RecursionError:
        raise RulesError(f"{path}: the rules are nested too deeply to read (an expression or block hundreds of levels deep)") from None
    program.origin = (rebuilt_program, (os.path.abspath(path), dict(overrides or {})))
    return Game(program, str(path), checked.model, checked.warnings)


def load_named_game(path: str, overrides: dict, holder: str, what: str):
    """The rules a save or a log names, loaded. That file was chosen by
    whoever wrote the save: a problem in its own text is not quoted (it may
    be any file that can be read), only said; checking that file shows it."""
    try:
        return load_game(path, overrides)
    except RulesError as err:
        if not any(d.span.source is not None and d.span.filename == str(path) for d in err.diagnostics):
            raise
        raise RulesError(f"{holder}: the {what} names {path} as its rules, which cannot be loaded as rules "
                         "(checking that file says why)") from None


def rebuilt_program(path: str, overrides: dict, fingerprint: str, steps: int, turns: int, check_invariants: bool):
    """A pickled program made again (Program.__reduce__): the same rules,
    which must not have changed since, with the same limits."""
    program = load_game(path, overrides).program
    if program.fingerprint != fingerprint:
        raise RulesError(f"{path}: the rules, cards or parameters changed since this game was pickled "
                         f"(fingerprint {fingerprint}, now {program.fingerprint})")
    program.set_step_budget(steps)
    program.turn_budget = turns
    program.check_invariants = check_invariants
    return program
