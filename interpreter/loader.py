"""Load a rules file: check it (the front end), compile it, and make a Game.
Every problem becomes a RulesError with a location."""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Mapping

from . import files
from .compiler.build import compile_program
from .errors import CheckError, RulesError
from .language.frontend import check_rules


def load_game(path: str | Path | None = None, overrides: dict | None = None, coverage: bool = False, *,
              text: str | None = None, cards: Mapping[str, str] | None = None):
    """Load, check and compile a rules file into a Game. With `coverage`, the
    code also counts which cards' fields the rules read (a little slower;
    see `GameState.card_reads`).

    Tests and tools make games without writing files: `text` is read as the
    rules file at `path` (by default `game.rules`, the name its messages
    give), and `cards` maps names of files beside it (card files, schemas)
    to their texts, read in place of the disk's. Files not given (a file the
    rules extend) are read from the rules file's folder."""
    from .game import Game

    if path is None:
        if text is None:
            raise TypeError("load_game needs a rules file or the text of one")
        path = "game.rules"
    texts = _given_texts(Path(path), text, cards)
    try:
        checked = _checked(path, overrides, texts)
        if checked.errors:
            raise CheckError(checked.errors)
        program = compile_program(checked.model, checked.db, checked.params, checked.card_fields,
                                  coverage=coverage)
    except RecursionError:
        raise RulesError(f"{path}: the rules are nested too deeply to read (an expression or block hundreds of levels deep)") from None
    if texts is None:
        program.origin = (rebuilt_program, (os.path.abspath(path), dict(overrides or {}), coverage))
    else:
        program.origin = (rebuilt_program_from_texts, (os.path.abspath(path), dict(overrides or {}), coverage, text,
                                                       dict(cards or {})))
    return Game(program, str(path), checked.model, checked.warnings)


_KEPT = 8  # checked rules kept, the most recently checked last
_kept: OrderedDict = OrderedDict()  # (path, overrides, texts) -> (files read, CheckedRules)
_keeping = threading.Lock()


def _checked(path, overrides: dict | None, texts: dict | None):
    """The checked rules of `path`, kept while every file their check read
    (rules files, card file, schemas) reads the same: a process that loads
    the same rules again (a server opening tables, a tool comparing
    variants, a test suite) checks them once. Each load still compiles its
    own program (a program's limits are its own)."""
    key = (str(path), os.path.abspath(path), _frozen(overrides), _frozen(texts))  # (messages name the path as given)
    with _keeping:
        kept = _kept.get(key)
    if kept is not None and files.still_read_as(kept[0]):
        return kept[1]
    with files.reads_noted() as read:
        checked = check_rules(path, overrides, texts)
    with _keeping:  # (a server loads rules on several threads)
        _kept[key] = (read, checked)
        _kept.move_to_end(key)
        while len(_kept) > _KEPT:
            _kept.popitem(last=False)
    return checked


def _frozen(mapping: Mapping | None) -> tuple:
    return tuple(sorted((str(k), repr(v)) for k, v in (mapping or {}).items()))


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


def _given_texts(path: Path, text: str | None, cards: Mapping[str, str] | None) -> dict | None:
    """The texts given in place of files, by resolved path (as the front end
    reads an editor's unsaved texts), or None when all are read from disk."""
    if text is None and not cards:
        return None
    texts = {(path.parent / name).resolve(): content for name, content in (cards or {}).items()}
    if text is not None:
        texts[path.resolve()] = text
    return texts


def rebuilt_program_from_texts(path: str, overrides: dict, coverage: bool, text: str | None, cards: dict,
                               fingerprint: str, steps: int, turns: int, check_invariants: bool):
    """A pickled program loaded from texts made again, as `rebuilt_program`."""
    program = load_game(path, overrides, coverage, text=text, cards=cards).program
    return _as_pickled(program, path, fingerprint, steps, turns, check_invariants)


def rebuilt_program(path: str, overrides: dict, coverage: bool, fingerprint: str, steps: int, turns: int,
                    check_invariants: bool):
    """A pickled program made again (Program.__reduce__): the same rules,
    which must not have changed since, compiled the same way (for coverage
    or not), with the same limits."""
    return _as_pickled(load_game(path, overrides, coverage).program, path, fingerprint, steps, turns, check_invariants)


def _as_pickled(program, path: str, fingerprint: str, steps: int, turns: int, check_invariants: bool):
    """`program` with the limits it was pickled with, if it is the program pickled."""
    if program.fingerprint != fingerprint:
        raise RulesError(f"{path}: the rules, cards or parameters changed since this game was pickled "
                         f"(fingerprint {fingerprint}, now {program.fingerprint})")
    program.set_step_budget(steps)
    program.turn_budget = turns
    program.check_invariants = check_invariants
    return program
