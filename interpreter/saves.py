"""Saved positions: written as plain JSON, rebuilt and checked when read.

A save names the rules by their fingerprint and holds the state's fields
(engine/state.py `FIELDS`). Nothing read from a save is trusted:

- a position reached by playing (it has a seed and a history of actions) is
  rebuilt by replaying those actions from that seed, each of which must be
  legal where it is taken, and the result must equal every saved field but
  the frames of the rules running (the replay's are kept): a save changed
  after it was written is refused;
- a position arranged by hand (no history) is checked field by field: types
  and sizes, the rules' layout of zones and counters, every card in exactly
  one place, counters within their bounds, frames of rules that can wait for
  a decision; then the engine asks the saved decision again, so the options
  offered come from the rules, never from the file.

The pending decision's player and options are never read from a save.
"""
from __future__ import annotations

import json

from . import files, limits
from .runtime.calls import FRAME_BLOCK, FRAME_CODE, FRAME_LOCALS
from .engine import invariants
from .engine.run import run
from .engine.state import DERIVED, FIELDS, SAVED, from_plain, plain
from .errors import RulesError, SaveFileError

FORMAT = 4  # 4: a history of actions; pending options are not saved
LARGEST_NUMBER = limits.COUNTER_VALUE
MOST_ITEMS = limits.SAVED_LOCAL_VALUES
MOST_TEXT = limits.SAVED_TEXT
MOST_ACTIONS = limits.SAVED_ACTIONS


def dump(st) -> str:
    """The position as JSON text (its pending decision's options left out)."""
    data = st.to_data()
    for name in DERIVED:
        data.pop(name, None)
    return json.dumps({"format": FORMAT, "rules": st.program.title, "fingerprint": st.program.fingerprint,
                       "state": data}, separators=(",", ":"), allow_nan=False)


def load(game, text: str, state_class):
    """The position saved in `text`, rebuilt and checked (see the module)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise SaveFileError(f"the save file is not valid JSON ({str(err)[:200]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("state"), dict):
        raise SaveFileError("this is not a saved game of this tool (missing format or state, or an older format)")
    program = game.program
    if data.get("fingerprint") != program.fingerprint:
        raise SaveFileError(
            f"the save was made with different rules, cards or parameters "
            f"(saved {str(data.get('rules', '?'))[:200]}, fingerprint {str(data.get('fingerprint'))[:40]}; "
            f"now {program.fingerprint})")
    fields = data["state"]
    unknown = set(fields) - set(SAVED) - {"history"}
    if unknown:
        raise SaveFileError(f"the save has fields no state has: {', '.join(sorted(map(str, unknown)))[:200]}")
    try:
        if fields.get("history") is not None or fields.get("seed") is not None:
            return _replayed(game, fields)
        return _checked(game, {name: from_plain(value) for name, value in fields.items()}, state_class)
    except RecursionError:
        raise SaveFileError("the save is damaged: its values are nested too deeply") from None


# ---------------------------------------------------------------- a position reached by playing
def _replayed(game, fields):
    seed, history, n = fields.get("seed"), fields.get("history"), fields.get("n")
    if not _is_int(seed) or abs(seed) >= 1 << 63:
        raise SaveFileError("the save is damaged: its seed is not a whole number")
    if not isinstance(history, list) or len(history) > MOST_ACTIONS or not all(isinstance(a, str) for a in history):
        raise SaveFileError("the save is damaged: its history is not a list of action ids")
    if not _is_int(n):
        raise SaveFileError("the save is damaged: the number of players is not a whole number")
    st = _replay(game, n, seed, history)
    _check_follows(fields, st.to_data(), game.program)
    if fields.get("cov") is not None:
        st.cov = _coverage(fields["cov"], game.program)
    return st


def _replay(game, n: int, seed: int, history: list):
    """The game of `seed` played through `history`, each action legal where it is taken."""
    try:
        st = game.new_initial_state(n, seed)
        for number, action in enumerate(history, 1):
            if st.over:
                raise SaveFileError(f"the save's history goes on after the game ended (action {number})")
            if action not in st.option_ids:
                raise SaveFileError(f"the save's history is not a game of these rules: action {number} "
                                    f"('{action[:80]}') is not legal there")
            st.apply_action(action)
    except SaveFileError:
        raise
    except RulesError as err:
        raise SaveFileError(f"the save's history cannot be replayed: {err.diagnostics[0].message}") from None
    return st


def _check_follows(fields: dict, replayed: dict, program) -> None:
    """The saved fields are those the replayed history gives. The frames of
    the rules running are the replay's whatever the save says: they are how
    this version of the interpreter lays out the rules waiting, which another
    may lay out otherwise for the same position (a save written before a rule
    handed its frame to a rule it called last still loads). So is what the
    players know of the cards lying where every player sees them (see
    `_same_knowledge`)."""
    differ = [name for name in SAVED if name not in DERIVED and name not in ("cov", "frames", "known")
              and name in fields and fields[name] != replayed[name]]
    if "known" in fields and not _same_knowledge(fields["known"], replayed, program):
        differ.append("known")
    # A field added since the save was written is missing from it: it must hold its default.
    defaults = {f.name: plain(f.default) for f in FIELDS}
    missing = [name for name in SAVED if name not in DERIVED and name not in ("cov", "known", "known_in")
               and name not in fields and replayed[name] != defaults[name]]
    if differ or missing:
        raise SaveFileError("the saved position does not follow from its own history (the save was changed "
                            "after it was written): " + ", ".join(differ + missing))


def _same_knowledge(saved, replayed: dict, program) -> bool:
    """Whether the saved knowledge of the cards is the replay's, but for the
    cards lying where every player sees them (a visible zone, not held by a
    card): knowing such a card tells no one anything, and a version before
    this one noted that the player offered it was shown it."""
    known, loc, everyone = replayed["known"], replayed["loc"], (1 << replayed["n"]) - 1
    if saved == known:
        return True
    if not isinstance(saved, list) or len(saved) != len(known):
        return False
    in_view = [program.seers[zi] & everyone == everyone and info.scope != "card"
               for zi, info in enumerate(program.zone_of_instance)]
    return all(mine == theirs or in_view[loc[card]] for card, (mine, theirs) in enumerate(zip(saved, known)))


# ---------------------------------------------------------------- a position arranged by hand
def _checked(game, fields, state_class):
    program = game.program
    if "known" not in fields and isinstance(fields.get("loc"), list):  # saved before cards could be known
        fields["known"] = [0] * len(fields["loc"])
    fields.setdefault("known_in", None)  # (saved before a card could be known to lie somewhere in a zone)
    problems = []
    for f in FIELDS:
        if not f.saved or f.derived or f.name in ("seed", "history"):
            continue
        if f.name not in fields:
            problems.append(f"'{f.name}' is missing")
    if problems:
        raise SaveFileError("the save is damaged: " + "; ".join(problems))
    n = fields["n"]
    if not _is_int(n) or not program.min_players <= n <= program.max_players:
        raise SaveFileError(f"the save is damaged: {_show(n)} is not a number of players of these rules")
    try:
        _check_layout(program, fields, n)
        _check_frames(program, fields)
        _check_turn(program, fields, n)
    except SaveFileError as err:
        raise SaveFileError("the save is damaged: " + err.diagnostics[0].message) from None
    st = state_class.from_data(program, {name: plain(value) for name, value in fields.items()
                                         if name not in ("seed", "history")})
    st.cov = _coverage(fields.get("cov"), program)
    st.clear_pending()
    if not st.over:
        saved_point = fields["point"]
        st.frames[-1][FRAME_BLOCK] = program.decisions[saved_point].ask
        try:
            run(st)
        except RulesError as err:
            raise SaveFileError(f"the saved position cannot go on under these rules: {err.diagnostics[0].message}") from None
        if not st.over and st.point != saved_point:
            raise SaveFileError("the saved decision is not one the rules ask in this position")
    problems = invariants.violations(st)
    if problems:
        raise SaveFileError("the saved position breaks the rules' invariants: " + "; ".join(problems[:5]))
    return st


def _check_layout(program, fields, n):
    counters, zones, loc = fields["ctr"], fields["z"], fields["loc"]
    ncards = len(program.card_ids)
    _check_counters(program, counters, n, ncards)
    if not isinstance(zones, list) or len(zones) != len(program.zone_of_instance):
        raise SaveFileError("the zones do not match the rules")
    if not isinstance(loc, list) or len(loc) != ncards or not all(_is_int(z) for z in loc):
        raise SaveFileError("the card locations do not match the cards")
    known = fields["known"]
    seats = 1 << program.max_players
    if not isinstance(known, list) or len(known) != ncards or not all(_is_int(k) and 0 <= k < seats for k in known):
        raise SaveFileError("what the players know of the cards does not match the cards and seats")
    known_in = fields.get("known_in")
    if known_in is not None and (not isinstance(known_in, list) or len(known_in) != ncards
                                 or not all(_is_int(k) and 0 <= k < seats for k in known_in)):
        raise SaveFileError("what the players know of the cards does not match the cards and seats")
    _check_places(program, zones, loc, n, ncards)


def _check_counters(program, counters, n, ncards):
    if not isinstance(counters, list) or len(counters) != len(program.counter_list):
        raise SaveFileError("the counters do not match the rules")
    for info, row in zip(program.counter_list, counters):
        size = {"player": n, "shared": 1, "card": ncards}[info.scope]
        if info.holds_player:
            if not isinstance(row, list) or len(row) != size or not all(v is None or (_is_int(v) and 0 <= v < n)
                                                                        for v in row):
                raise SaveFileError(f"counter '{info.name}' does not hold {size} players")
            continue
        if not isinstance(row, list) or len(row) != size or not all(_is_int(v) for v in row):
            raise SaveFileError(f"counter '{info.name}' does not hold {size} whole numbers")
        for v in row:
            low = info.minimum if info.minimum is not None else -LARGEST_NUMBER
            high = info.maximum if info.maximum is not None else LARGEST_NUMBER
            if not low <= v <= high:
                raise SaveFileError(f"counter '{info.name}' is {v}, outside {low}..{high}")


def _check_places(program, zones, loc, n, ncards):
    """Every card in exactly one place, the one its location names."""
    seen = [None] * ncards
    for zi, (info, zone) in enumerate(zip(program.zone_of_instance, zones)):
        if not isinstance(zone, list) or (info.slots and len(zone) != info.slots):
            raise SaveFileError(f"zone '{info.name}' does not have the shape the rules give it")
        if info.scope == "player" and zi - info.base >= n and any(c is not None for c in zone):
            raise SaveFileError(f"zone '{info.name}' of a seat no player sits at holds cards")
        for card in zone:
            if card is None and info.slots:
                continue
            if not _is_int(card) or not 0 <= card < ncards:
                raise SaveFileError(f"zone '{info.name}' holds {_show(card)}, which is no card")
            if seen[card] is not None:
                raise SaveFileError(f"card '{program.card_ids[card]}' is in two places")
            seen[card] = zi
    for card, zi in enumerate(seen):
        if zi is None:
            raise SaveFileError(f"card '{program.card_ids[card]}' is in no place")
        if loc[card] != zi:
            raise SaveFileError(f"card '{program.card_ids[card]}' is recorded in another place than it is")


def _check_frames(program, fields):
    frames, over, point = fields["frames"], fields["over"], fields["point"]
    if not isinstance(over, bool):
        raise SaveFileError("whether the game is over is not yes or no")
    if not isinstance(frames, list) or (not over and not frames) or (over and frames):
        raise SaveFileError("where rule execution stands does not match whether the game is over")
    for depth, frame in enumerate(frames):
        _check_frame(program, depth, frame)
    if over:
        if point is not None:
            raise SaveFileError("a game that is over has no pending decision")
        return
    if not _is_int(point) or not 0 <= point < len(program.decisions):
        raise SaveFileError("the pending decision names no decision of the rules")
    if program.decisions[point].code != frames[-1][FRAME_CODE]:
        raise SaveFileError("the pending decision is not asked by the rule that is waiting")


def _check_frame(program, depth: int, frame):
    if not isinstance(frame, list) or len(frame) != 3:
        raise SaveFileError("a frame of rule execution is not [rule, block, locals]")
    code, block, local_values = frame[FRAME_CODE], frame[FRAME_BLOCK], frame[FRAME_LOCALS]
    if not _is_int(code) or not 0 <= code < len(program.codes) or (code == program.main) != (depth == 0):
        raise SaveFileError("a frame names no rule that can wait for a decision there")
    rule = program.codes[code]
    if not rule.resumable or not _is_int(block) or not 0 <= block < rule.nblocks:
        raise SaveFileError(f"rule '{rule.name}' has no place {_show(block)} to stand at")
    if not isinstance(local_values, list) or len(local_values) != rule.nlocals:
        raise SaveFileError(f"rule '{rule.name}' does not have {rule.nlocals} local values")
    budget = [MOST_ITEMS]
    for value in local_values:
        _check_plain(value, budget, 0)


def _check_turn(program, fields, n):
    for name in ("me", "cur", "first"):
        if not _is_int(fields[name]) or not 0 <= fields[name] < n:
            raise SaveFileError(f"'{name}' is not a seat")
    order = fields["order"]
    if not isinstance(order, tuple) or not order or not all(_is_int(p) and 0 <= p < n for p in order):
        raise SaveFileError("the turn order is not a list of seats")
    if not _is_int(fields["pos"]) or not 0 <= fields["pos"] < len(order):
        raise SaveFileError("the place in the turn order is outside it")
    _check_round(program, fields, n)


def _check_round(program, fields, n):
    """The counts, the phase, the passes, the end and the random generator."""
    for name in ("round", "turns", "decisions"):
        if not _is_int(fields[name]) or not 0 <= fields[name] <= LARGEST_NUMBER:
            raise SaveFileError(f"'{name}' is not a count")
    phases = len(program.phases) if program.phases else 0
    if not _is_int(fields["phase"]) or not 0 <= fields["phase"] <= phases:
        raise SaveFileError("the phase is not a phase of these rules")
    passed = fields["passed"]
    if not isinstance(passed, tuple) or not all(_is_int(p) and 0 <= p < n for p in passed):
        raise SaveFileError("the players who passed are not a list of seats")
    if fields["end_round"] is not None and (not _is_int(fields["end_round"]) or fields["end_round"] < 0):
        raise SaveFileError("the last round is not a count")
    if not _is_int(fields["rng"]) or not 0 <= fields["rng"] < 1 << 64:
        raise SaveFileError("the random generator's state is not a 64-bit number")
    for name in ("lost", "won"):
        if not isinstance(fields[name], bool):
            raise SaveFileError(f"'{name}' is not yes or no")
    if fields["lost"] and fields["won"]:
        raise SaveFileError("a game cannot be both lost and won")


def _check_plain(value, budget, depth):
    """A value a rule may hold: numbers, texts, yes/no, none, and lists of them."""
    budget[0] -= 1
    if budget[0] < 0 or depth > 8:
        raise SaveFileError("a rule's local values are too large or too deeply nested")
    if value is None or isinstance(value, bool):
        return
    if _is_int(value):
        if abs(value) > LARGEST_NUMBER:
            raise SaveFileError("a rule's local value is a number too large")
        return
    if isinstance(value, str):
        if len(value) > MOST_TEXT:
            raise SaveFileError("a rule's local value is a text too long")
        return
    if isinstance(value, (list, tuple)):
        for item in value:
            _check_plain(item, budget, depth + 1)
        return
    raise SaveFileError("a rule's local value is not plain data")


def _coverage(cov, program):
    if cov is None:
        return None
    size = len(program.codes) + len(program.card_ids)  # runs of each rule, then reads of each card
    if not isinstance(cov, list) or len(cov) != size or not all(_is_int(k) and k >= 0 for k in cov):
        raise SaveFileError("the save is damaged: its rule counts do not match the rules")
    return cov


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value) -> str:
    text = json.dumps(value) if not isinstance(value, tuple) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


# ---------------------------------------------------------------- games saved at the table
SESSION_FORMAT = "rules-game-save/2"


def session_text(save_path: str, rules: str, game, state, meta: dict) -> str:
    """A game saved at the table: the rules (their path relative to the save's
    folder, and their fingerprint), how the game was set up (`meta`: sets,
    seed, players, the seats people play, the bots) and the position."""
    from .replay import path_from

    data = {"format": SESSION_FORMAT, "rules": path_from(save_path, rules), "fingerprint": game.program.fingerprint,
            **meta, "game": json.loads(dump(state))}
    return json.dumps(data, allow_nan=False) + "\n"


def read_session(path: str) -> dict:
    """A save written by `session_text`, checked for shape, its rules path made absolute."""
    from .replay import rules_named_in

    raw = files.read_bytes(path, "saved game", limits.SAVE_FILE_BYTES)
    data = session_data(raw, path)
    data["rules"] = rules_named_in(path, data["rules"], "saved game")
    return data


def session_data(raw: bytes, path: str) -> dict:
    """The fields of a save written by `session_text`, checked for shape
    (`path` names where it came from in messages); its rules path as saved,
    relative to the save's folder."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        raise SaveFileError(f"{path}: not a readable saved game ({str(err)[:200]})") from None
    if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
        raise SaveFileError(f"{path}: not a saved game of this tool (or of an older format)")
    for key, kind in (("rules", str), ("fingerprint", str), ("sets", dict), ("seed", int), ("players", int),
                      ("human", list), ("game", dict)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise SaveFileError(f"{path}: the saved game is damaged (field '{key}')")
    if data.get("bots") is not None and not isinstance(data["bots"], str):
        raise SaveFileError(f"{path}: the saved game is damaged (field 'bots')")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in data["sets"].items()):
        raise SaveFileError(f"{path}: the saved game is damaged (field 'sets')")
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in data["human"]):
        raise SaveFileError(f"{path}: the saved game is damaged (field 'human')")
    problem = _outer_problem(data)
    if problem:
        raise SaveFileError(f"{path}: the saved game is damaged ({problem})")
    return data


def _outer_problem(data: dict) -> str | None:
    """What in the fields around the position disagrees with the position
    itself (which `load` checks against the rules, a field missing inside
    included): the table would set the game up from them (the bots' seats
    and seeds, the seed shown)."""
    inner = data["game"]
    state = inner.get("state") if isinstance(inner.get("state"), dict) else {}
    if "fingerprint" in inner and inner["fingerprint"] != data["fingerprint"]:
        return (f"field 'fingerprint' is {_show(data['fingerprint'])}, the game inside was saved with "
                f"{_show(inner.get('fingerprint'))}")
    if "n" in state and state["n"] != data["players"]:
        return f"field 'players' is {data['players']}, the game inside has {_show(state['n'])} players"
    if state.get("seed") is not None and state["seed"] != data["seed"]:
        return f"field 'seed' is {data['seed']}, the game inside was dealt with seed {_show(state['seed'])}"
    seats = data["human"]
    if len(set(seats)) != len(seats) or not all(0 <= s < data["players"] for s in seats):
        return f"field 'human' is {_show(seats)}: seats from 0 to {data['players'] - 1}, each once"
    return None
