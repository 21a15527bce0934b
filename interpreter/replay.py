"""Game logs: every decision of a game as JSON lines, and replaying a log
against its rules, checking every recorded field.

A log's first line names the rules (their path relative to the log's folder,
so a log travels with its rules) and their fingerprint, the seed, the number
of players, the bots and the parameters set, and what the setup did; then
one line per decision (`n`, `round`, `turn`, `player`, `action`, `label`, and
`events`: what followed it until the next decision, forced moves included);
the last line holds the result. Events are told in full (every card named,
visibility.EVERYTHING): a log is read after the game. The format is
described in docs/formats.md.
"""
from __future__ import annotations

import json
import os

from . import files, limits
from .errors import RulesError
from .events import asked, tell_all
from .visibility import EVERYTHING

LOG_FORMAT = "rules-game-log/2"
RESULT_FORMAT = "rules-run-result/1"  # `run --json`: the result a log ends with (schemas/run-result.schema.json)
_ENTRY = {"n": int, "round": int, "turn": int, "player": int, "action": str, "label": str}


def path_from(holder: str, target: str) -> str:
    """`target` as a path relative to the folder of the file `holder`."""
    folder = os.path.dirname(os.path.abspath(holder))
    try:
        return os.path.relpath(os.path.abspath(target), folder)
    except ValueError:  # another drive: only an absolute path reaches it
        return os.path.abspath(target)


def path_in(holder: str, stored: str) -> str:
    """A path stored in the file `holder`, relative to that file's folder."""
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(holder)), stored))


RULES_SUFFIX = ".rules"


def rules_named_in(holder: str, stored: str, what: str) -> str:
    """The rules a save or a log names (relative to its folder): a rules file
    only, so a damaged or hostile file cannot have another file read as rules
    (and quoted in the error that would follow)."""
    if not stored.endswith(RULES_SUFFIX):
        raise RulesError(f"{holder}: the {what} names {_quoted(stored)} as its rules, which is not a rules file "
                         f"(the name of a rules file ends in {RULES_SUFFIX})")
    return path_in(holder, stored)


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


def told(st) -> list[str]:
    """What happened since the state last told, in full, without the option
    just chosen (a log line says it in its label); the state forgets it."""
    lines = [text for event, text in tell_all(st, st.events, EVERYTHING) if not asked(event)]
    st.events.clear()
    return lines


def decisions_of(game, players: int, seed: int, actions: list) -> tuple[list, list]:
    """What the setup did, and the log entries of the game these actions play
    (each with its label and the events that followed it)."""
    st = game.new_initial_state(players, seed, listen=True)
    setup = told(st)
    entries = []
    for action in actions:
        decision = st.decision()
        label = next(o.label for o in decision.options if o.id == action)
        entry = {"n": len(entries) + 1, "round": st.round, "turn": st.turns, "player": decision.player,
                 "action": action, "label": label}
        st.apply_action(action)
        entries.append({**entry, "events": told(st)})
    return setup, entries


def log_text(game, final, log_path: str, rules: str, bots: list, sets: dict, result: dict) -> str:
    """The log of the game that ended in `final` (a state with its history)."""
    setup, entries = decisions_of(game, final.n, final.seed, final.actions())
    header = {"format": LOG_FORMAT, "rules": path_from(log_path, rules), "fingerprint": game.program.fingerprint,
              "seed": final.seed, "players": final.n, "bots": bots, "sets": dict(sets or {}), "setup": setup}
    lines = [json.dumps(header, allow_nan=False)]
    lines += [json.dumps(entry, allow_nan=False) for entry in entries]
    lines.append(json.dumps({"result": result}, allow_nan=False))
    return "\n".join(lines) + "\n"


def read_log(path: str):
    """(header, decision entries, recorded result) of a log file, checked for shape;
    the header's rules path is made absolute."""
    lines = _log_lines(path)
    header = _checked_header(path, lines[0])
    last = lines[-1]
    if not isinstance(last, dict) or not isinstance(last.get("result"), dict):
        raise RulesError(f"{path}:{len(lines)}: the log ends without the game's result")
    entries = lines[1:-1]
    _check_entries(path, entries)
    return header, entries, last["result"]


def _log_lines(path: str) -> list:
    """The JSON values of a log file's lines; the first names this tool's format."""
    raw = files.read_bytes(path, "game log", limits.LOG_FILE_BYTES)
    try:
        lines = [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
    except UnicodeDecodeError as err:
        raise RulesError(f"cannot read the log {path}: {err}") from None
    except (ValueError, RecursionError) as err:
        raise RulesError(f"{path}: not a game log (a line is not JSON: {str(err)[:200]})") from None
    if len(lines) < 2 or not isinstance(lines[0], dict) or lines[0].get("format") != LOG_FORMAT:
        raise RulesError(f"{path}: not a game log of this tool (its first line must name the format {LOG_FORMAT})")
    return lines


def _checked_header(path: str, first: dict) -> dict:
    """A log's header, its fields checked, its rules path made absolute."""
    header = dict(first)
    for key, kind in (("rules", str), ("fingerprint", str), ("seed", int), ("players", int), ("sets", dict)):
        if not isinstance(header.get(key), kind) or isinstance(header.get(key), bool):
            raise RulesError(f"{path}:1: the log's header is damaged (field '{key}')")
    if not _texts(header.get("setup", [])):
        raise RulesError(f"{path}:1: the log's header is damaged (field 'setup')")
    header["rules"] = rules_named_in(path, header["rules"], "game log")
    return header


def _check_entries(path: str, entries: list) -> None:
    """Each decision line of a log has the fields of one, of their types."""
    for number, entry in enumerate(entries, 2):
        if not isinstance(entry, dict) or any(not isinstance(entry.get(k), t) or isinstance(entry.get(k), bool)
                                              for k, t in _ENTRY.items()):
            raise RulesError(f"{path}:{number}: not a decision of a game log "
                             f"(each needs {', '.join(f'{k} ({t.__name__})' for k, t in _ENTRY.items())})")
        if not _texts(entry.get("events", [])):
            raise RulesError(f"{path}:{number}: the decision's events are not a list of texts")


def _texts(value) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _check_told(path: str, number: int, logged, replayed: list, what: str) -> None:
    """The events a log line holds (if it holds any) must be those the rules tell."""
    if logged is None or logged == replayed:
        return
    for k, (said, happened) in enumerate(zip(logged, replayed), 1):
        if said != happened:
            raise RulesError(f"{path}:{number}: the log does not match these rules: {what} {k} should be "
                             f"'{happened[:120]}', the log says '{said[:120]}'")
    raise RulesError(f"{path}:{number}: the log does not match these rules: it tells {len(logged)} events here, "
                     f"the rules {len(replayed)}")


def replay_log(game, header, entries, result, path: str, on_step=None, on_events=None):
    """Apply every logged action; every recorded field must be what the rules
    give. `on_step(state, decision, label)` is called before each action is
    applied, `on_events(lines)` after it with what followed (and first with the setup's)."""
    if header["fingerprint"] != game.program.fingerprint:
        raise RulesError(f"{path}: the log was written with other rules, cards or parameters "
                         f"(fingerprint {header['fingerprint'][:40]}; these rules: {game.program.fingerprint})")
    st = game.new_initial_state(header["players"], header["seed"], listen=True)
    setup = told(st)
    _check_told(path, 1, header.get("setup"), setup, "the setup's event")
    if on_events:
        on_events(setup)
    for number, entry in enumerate(entries, 2):
        decision, label = _logged_decision(path, number, entry, st)
        if on_step:
            on_step(st, decision, label)
        st.apply_action(entry["action"])
        events = told(st)
        _check_told(path, number, entry.get("events"), events, "event")
        if on_events:
            on_events(events)
    _check_result(path, st, result)
    return st


def _logged_decision(path: str, number: int, entry: dict, st):
    """(decision, label of the logged action) at `st`, where log line
    `number` must be that decision's: its player, an action offered, and the
    decision's number, round, turn and label."""
    if st.is_terminal():
        raise RulesError(f"{path}:{number}: the game is already over, but the log goes on")
    decision = st.decision()
    ids = [o.id for o in decision.options]
    if entry["action"] not in ids or entry["player"] != decision.player:
        raise RulesError(
            f"{path}:{number}: the log does not match these rules: player {entry['player'] + 1} "
            f"plays '{entry['action'][:80]}', but here player {decision.player + 1} chooses among {', '.join(ids)}")
    label = next(o.label for o in decision.options if o.id == entry["action"])
    expected = {"n": number - 1, "round": st.round, "turn": st.turns, "label": label}
    wrong = [k for k, v in expected.items() if entry[k] != v]
    if wrong:
        raise RulesError(f"{path}:{number}: the log does not match these rules: its {', '.join(wrong)} "
                         f"should be {', '.join(f'{expected[k]!r}' for k in wrong)}")
    return decision, label


def _check_result(path: str, st, result: dict) -> None:
    """The replayed game is over, with the logged result."""
    if not st.is_terminal():
        raise RulesError(f"{path}: the log ends before the game does")
    replayed = st.result()
    wrong = [k for k, v in replayed.items() if result.get(k) != v]
    if wrong:
        raise RulesError(f"{path}: the logged result differs from the replayed game in {', '.join(wrong)} "
                         f"(replayed: {', '.join(f'{k} {replayed[k]!r}' for k in wrong)})")
