"""Replay a game from its JSON-lines log, checking it against the rules."""
from __future__ import annotations

import json

from .errors import RulesError

LOG_FORMAT = "rules-game-log/1"  # the first line's "format"; schemas/game-log.schema.json


def read_log(path: str):
    """(header, decision entries, recorded result) of a log file."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
    except (OSError, UnicodeDecodeError) as err:
        raise RulesError(f"cannot read the log {path}: {err}") from None
    except ValueError as err:
        raise RulesError(f"{path}: not a game log (a line is not JSON: {err})") from None
    if len(lines) < 2 or not isinstance(lines[0], dict) or not {"rules", "seed", "players"} <= set(lines[0]):
        raise RulesError(f"{path}: not a game log (it must start with a line naming rules, seed and players)")
    if lines[0].get("format", LOG_FORMAT) != LOG_FORMAT:  # logs from before the format was named have none
        raise RulesError(f"{path}: a game log of format {lines[0]['format']!r}; this version reads {LOG_FORMAT!r}")
    result = lines[-1].get("result") if isinstance(lines[-1], dict) else None
    entries = lines[1:-1] if result is not None else lines[1:]
    for number, entry in enumerate(entries, 2):
        if not isinstance(entry, dict) or not isinstance(entry.get("action"), str):
            raise RulesError(f"{path}:{number}: not a decision of a game log")
    return lines[0], entries, result


def replay_log(game, header, entries, result, path: str, on_step=None):
    """Apply every logged action; each must be legal and by the logged player."""
    if not isinstance(header["seed"], int) or not isinstance(header["players"], int):
        raise RulesError(f"{path}:1: the seed and the number of players must be numbers")
    st = game.new_initial_state(header["players"], header["seed"])
    for number, entry in enumerate(entries, 2):
        if st.is_terminal():
            raise RulesError(f"{path}:{number}: the game is already over, but the log goes on")
        decision = st.decision()
        ids = [o.id for o in decision.options]
        if entry["action"] not in ids or entry.get("player", decision.player) != decision.player:
            raise RulesError(
                f"{path}:{number}: the log does not match these rules: player {entry.get('player', 0) + 1} "
                f"plays '{entry['action']}', but here player {decision.player + 1} chooses among {', '.join(ids)}")
        if on_step:
            on_step(st, decision, next(o.label for o in decision.options if o.id == entry["action"]))
        st.apply_action(entry["action"])
    if not st.is_terminal():
        raise RulesError(f"{path}: the log ends before the game does")
    if result is not None and result.get("scores") != st.scores():
        raise RulesError(f"{path}: the replayed scores {st.scores()} differ from the logged {result.get('scores')}")
    return st
