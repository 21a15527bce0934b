"""The agent interface and the registry of agents by name."""
from __future__ import annotations

import json
import math

from ..errors import RulesError

AGENTS: dict = {}


class Agent:
    """Answers a decision from what its player may see.

    `choose` gets the decision (its options with ids and labels) and the
    player's observation, never the full state.
    """

    name = "agent"
    usage = "agent"  # how `--bots` names it, with its main option
    # Whether `choose` reads the options' labels (and the unavailable
    # options): a bot that answers from the ids alone says False, and is
    # given a decision without them (`play.decision_for`), cheaper to make.
    labels = True

    def __init__(self, seed: int = 0, seat: int = 0, options: str | None = None):
        self.seed, self.seat = seed, seat

    def choose(self, decision, observation: dict, worlds=None) -> str:
        """The id of the chosen option. `worlds()`, when given, returns a
        fresh copy of the game in which every card the player cannot see has
        been shuffled among the places such cards occupy (a determinization):
        the only game states a bot may search."""
        raise NotImplementedError


class ProgressGuard:
    """Keeps a searching bot from stalling a game forever.

    A bot that values positions by an evaluation can find that doing nothing
    useful is, turn after turn, the least bad option (taking a resource it
    cannot keep, while the rules end the game only when cards run out). The
    guard remembers, for each layout of the cards the player sees (every
    zone of the observation: the visible cards and the sizes of the hidden
    zones) and each decision, what the bot chose there. Once the same
    decision comes back `patience` times with the cards laid out exactly as
    before, the options already chosen there are set aside, as long as
    another option remains. Counters are left out of the layout on purpose:
    a resource that keeps growing is no progress if no card moves.

    A layout is kept as the observation's zones written in canonical JSON
    (`_layout`): the observation is plain data (card ids, counts, empty
    slots, in lists and in dicts by name), so two layouts give the same text
    exactly when they are equal, and the text is written at C speed at every
    decision.
    """

    def __init__(self, patience: int = 3):
        self.patience = patience
        self.seen: dict = {}
        self.last_turn = None

    def allowed(self, decision, observation, options: list) -> list:
        if self.patience <= 0 or not isinstance(observation, dict) or "zones" not in observation:
            return options
        turn = observation.get("turn")
        if self.last_turn is not None and turn is not None and turn < self.last_turn:
            self.seen.clear()  # a new game
        self.last_turn = turn
        key = (decision.player, decision.prompt, tuple(options), _layout(observation["zones"]))
        chosen = self.seen.setdefault(key, [])
        self.chosen = chosen  # (the list itself: `record` need not hash the key again)
        if len(chosen) < self.patience:
            return options
        fresh = [o for o in options if o not in chosen]
        return fresh or options

    def record(self, choice: str) -> None:
        chosen = getattr(self, "chosen", None)
        if chosen is not None:
            chosen.append(choice)
            self.chosen = None


# (keys sorted: two equal dicts give the same text whatever order their keys were put in)
_layout = json.JSONEncoder(sort_keys=True, check_circular=False, separators=(",", ":")).encode


def register(cls):
    AGENTS[cls.name] = cls
    return cls


def parse_options(name: str, options: str | None, settings: dict, positional=None, examples: str = "") -> dict:
    """Options of a bot spec: `key=value` parts separated by ':' (`greedy:tries=8:worlds=2`).

    `settings` maps each key to (converter, default, least, most): a value
    outside least..most (None: no bound that way) is refused, so a spec read
    from a save cannot make a bot think without end. `positional` is the key a
    bare value sets, or a function `token -> (key, value)` (None if it cannot
    read the token)."""
    values = {key: setting[1] for key, setting in settings.items()}
    if options:
        _read_options(name, options, settings, positional, examples, values)
    for key, value in values.items():
        _within(name, key, value, *settings[key][2:])
    return values


def _read_options(name, options, settings, positional, examples, values) -> None:
    for part in options.split(":"):
        part = part.strip()
        if not part:
            continue
        key, eq, text = part.partition("=")
        if eq:
            key = key.strip()
            if key not in settings:
                from ..errors import did_you_mean

                hint = did_you_mean(key, settings)
                raise RulesError(f"bot '{name}' has no option '{key}'; options: {', '.join(settings)}" + (f" ({hint})" if hint else ""))
            try:
                values[key] = _finite(settings[key][0](text.strip()))
            except (ValueError, OverflowError):
                raise RulesError(f"bot '{name}': option '{key}' expects {_kind(settings[key][0])}, got '{text.strip()}'") from None
            continue
        parsed = None
        if callable(positional):
            parsed = positional(part)
        elif positional is not None:
            try:
                parsed = positional, settings[positional][0](part)
            except ValueError:
                parsed = None
        if parsed is None:
            raise RulesError(f"bot '{name}' does not understand '{part}'; "
                             + (f"write e.g. {examples}, with " if examples else "")
                             + "options " + ", ".join(f"{k}=..." for k in settings))
        values[parsed[0]] = parsed[1]


def _finite(value):
    """A number option must be a real number: nan and inf would make a bot's
    arithmetic (its exploration, its time budget) meaningless or endless."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(value)
    return value


def _kind(convert) -> str:
    return {int: "a whole number", float: "a number"}.get(convert, "a value")


def _within(name: str, key: str, value, least, most) -> None:
    """Refuse a value of option `key` of bot `name` outside least..most."""
    if value is None:
        return
    if least is not None and value < least:
        raise RulesError(f"bot '{name}': option '{key}' must be {least} or more, got {value}")
    if most is not None and value > most:
        shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
        raise RulesError(f"bot '{name}': option '{key}' must be at most {most:,} (the limit), got {shown}")


def bot_usages() -> list[str]:
    """How each registered bot is named in `--bots`, e.g. `mcts[:ITERATIONS|:500ms]`."""
    return [cls.usage for cls in AGENTS.values()]


def make_agent(spec: str, seed: int, seat: int) -> Agent:
    """An agent from a spec such as `random`, `greedy:tries=8` or `mcts:200`."""
    name, _, options = spec.strip().partition(":")
    name = name.strip()
    cls = AGENTS.get(name)
    if cls is None:
        from ..errors import did_you_mean

        hint = did_you_mean(name, AGENTS)
        raise RulesError(f"unknown bot '{name}'; known bots: {', '.join(sorted(AGENTS))}" + (f" ({hint})" if hint else ""))
    return cls(seed=seed, seat=seat, options=options or None)


def make_agents(spec: str, players: int, seed: int) -> list:
    """One agent per seat from `random` (all seats) or `random,random,...`."""
    names = [s for s in spec.split(",") if s.strip()]
    if not names:
        raise RulesError("no bot named; use e.g. --bots random")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise RulesError(f"{len(names)} bots named for {players} players; name one bot for all seats or one per seat")
    return [make_agent(name, seed, seat) for seat, name in enumerate(names)]
