"""Play batches of games; one JSON-able record per game.

Game `i` of a sweep with seed `S` is fully determined by (S, i) and the sweep's
settings: its seed is `game_seed(S, i)`, and its seats get the named bots
rotated by `i`. So a sweep gives the same records however it is split into
batches, processes or cluster workers.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import rng
from ..errors import RulesError
from ..language.builtins import owner_of

MASK = (1 << 64) - 1
RECORD_FORMAT = "rules-game-record/1"  # schemas/game-record.schema.json


@dataclass(frozen=True)
class SweepSpec:
    """What a sweep plays. Picklable, so it travels to worker processes."""

    rules: str  # absolute path of the rules file
    sets: tuple = ()  # sorted (name, value text) parameter overrides
    players: int = 2
    bots: tuple = ("random",)  # one name for every seat, or one per seat
    seed: int = 0
    coverage: bool = False
    max_steps: int | None = None

    @classmethod
    def make(cls, rules, sets=None, players=2, bots="random", seed=0, coverage=False, max_steps=None) -> "SweepSpec":
        names = tuple(s.strip() for s in (bots.split(",") if isinstance(bots, str) else bots) if s.strip())
        return cls(str(Path(rules).resolve()), tuple(sorted((sets or {}).items())), int(players), names,
                   int(seed), bool(coverage), max_steps)

    def with_rules(self, rules) -> "SweepSpec":
        return SweepSpec(str(Path(rules).resolve()), self.sets, self.players, self.bots, self.seed,
                         self.coverage, self.max_steps)


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a sweep seeded `seed` (53 bits, exact in JSON).

    >>> game_seed(0, 1) == game_seed(0, 1) != game_seed(0, 2)
    True
    """
    state, _ = rng.next_u64(rng.seed_state(seed))
    state ^= ((index + 1) * 0xD1B54A32D192ED03) & MASK
    _, x = rng.next_u64(state)
    return x >> 11


def seat_bots(bots: tuple, players: int, index: int) -> list:
    """Bot names by seat for game `index`: one name for all seats, or the
    named list rotated by `index` so every bot plays every seat equally."""
    if len(bots) == 1:
        return [bots[0]] * players
    if len(bots) != players:
        raise RulesError(f"{len(bots)} bots named for {players} players; name one bot for all seats or one per seat")
    return [bots[(seat + index) % players] for seat in range(players)]


_GAMES: dict = {}
_KEPT = 16  # compiled games kept per process (a search compiles one per candidate)


def load(spec: SweepSpec):
    """The compiled game of a spec, cached per process."""
    key = (spec.rules, spec.sets, spec.max_steps, spec.coverage)
    game = _GAMES.get(key)
    if game is None:
        from ..loader import load_game

        if not Path(spec.rules).exists():
            raise RulesError(f"no such file: {spec.rules} (on a cluster, every worker needs the rules files at the same path)")
        game = load_game(spec.rules, dict(spec.sets), coverage=spec.coverage)
        if spec.max_steps is not None:
            game.set_limits(steps=spec.max_steps)
        if len(_GAMES) >= _KEPT:
            del _GAMES[next(iter(_GAMES))]
        _GAMES[key] = game
    return game


class _Recorder:
    """Wraps an agent: counts its decisions and keeps the option ids it chose."""

    def __init__(self, agent):
        self.agent = agent
        self.name = agent.name
        self.count = 0
        self.chosen: set = set()

    def choose(self, *args, **kwargs):
        choice = self.agent.choose(*args, **kwargs)
        self.count += 1
        self.chosen.add(choice)
        return choice

    def __getattr__(self, name):
        return getattr(self.agent, name)


class _FastRecorder(_Recorder):
    """For agents that can choose among bare ids (no labels are made)."""

    def choose_id(self, ids):
        choice = self.agent.choose_id(ids)
        self.count += 1
        self.chosen.add(choice)
        return choice


def play_one(game, spec: SweepSpec, index: int) -> dict:
    """Play game `index` of the sweep and return its record."""
    from ..agents import make_agent
    from ..play import play_game

    seed = game_seed(spec.seed, index)
    names = seat_bots(spec.bots, spec.players, index)
    agents = []
    for seat, name in enumerate(names):
        agent = make_agent(name, seed, seat)
        agents.append(_FastRecorder(agent) if hasattr(agent, "choose_id") else _Recorder(agent))
    st, started = _opening(game, spec, seed, agents)
    hands = _Hands(st) if game.traits.starts_hands else None
    final = play_game(game, spec.players, seed, agents, state=st, after_decision=hands)
    result = final.result()
    # Cards are counted by group: the copies of one entry are one card here.
    groups = game.program.card_groups
    chosen_ids = {**{c: g for c, g in zip(game.program.card_ids, groups)}, **{g: g for g in groups}}
    used = [set() for _ in range(spec.players)]
    for seat, agent in enumerate(agents):
        used[seat].update(chosen_ids[c.partition("@")[0]] for c in agent.chosen if c.partition("@")[0] in chosen_ids)
    for card in range(len(groups)):  # a card held at the end (by a player, or by a card a player holds)
        owner = owner_of(final, card)
        if owner is not None:
            used[owner].add(groups[card])
    record = {
        "format": RECORD_FORMAT,
        "game": index,
        "seed": seed,
        "bots": names,
        "first_player": started,
        "scores": result["scores"],
        "breakdown": result["breakdown"],
        "winners": result["winners"],
        "lost": bool(result.get("lost", False)),
        **({"outcome": result["outcome"], "top_scorers": result["top_scorers"]} if "outcome" in result else {}),
        **{key: result[key] for key in ("top_scorers", "shared_score", "best_score", "teams") if key in result},
        "turns": result["turns"],
        "decisions": [a.count for a in agents],
        "cards": [sorted(u) for u in used],
    }
    if hands is not None:
        record["hands"] = hands.finish(final)
    if spec.coverage:
        record["coverage"] = {name: n for name, n in final.rule_coverage().items() if n}
        home = final.z[game.program.zones[game.program.setup_zone].base]
        record["never_in_play"] = sorted({groups[c] for c in home if c is not None})
        by_id = dict(zip(game.program.card_ids, groups))
        record["read"] = sorted({by_id[c] for c in final.card_reads()})  # after result(): scoring reads cards too
    return record


class _Hands:
    """The hands of a game whose rules start each one (`Traits.starts_hands`),
    watched after every decision: a hand is a round, its starter the first
    of the round's order, its winners the seats whose score rose the most
    during it (none where no score rose). `hands`: [starter, winners] each."""

    def __init__(self, st):
        self.hands: list = []
        self._begin(st)

    def _begin(self, st) -> None:
        self.round, self.starter, self.scores = st.round, st.order[0] if st.order else st.first, st.scores()

    def __call__(self, st) -> None:
        if self.round is None or (st.round == self.round and not st.over):
            return
        gains = [a - b for a, b in zip(st.scores(), self.scores)]
        best = max(gains)
        self.hands.append([self.starter, [p for p, g in enumerate(gains) if g == best] if best > 0 else []])
        if not st.over:
            self._begin(st)
        else:
            self.round = None  # (asked again at the end: nothing left to count)

    def finish(self, st) -> list:
        """The hands, the last one counted once the game is over."""
        self(st)
        return self.hands


def _opening(game, spec: SweepSpec, seed: int, agents: list):
    """The game played up to its first turn, and the seat that plays it: the
    first player of the game, which is not the rules' `first_player` at the
    end where rules move the start (to each hand's winner, say). Decisions
    before the first turn (a draft in the setup) are asked as `play_game`
    asks them, so the game is the same. Where the first turn asks nothing and
    the game runs past it, the opening is replayed with the same choices, on
    a state that tells what happens, to read whose turn it was."""
    from ..play import decision_for, world_sampler

    st = game.new_initial_state(spec.players, seed, coverage=spec.coverage)
    chosen = []
    while st.turns == 0 and not st.over:
        player = st.decider
        agent = agents[player]
        if hasattr(agent, "choose_id"):  # as play_out asks a bot that chooses among bare ids
            choice = agent.choose_id(st.option_ids)
        else:
            choice = agent.choose(decision_for(st, agent), st.observation(player), world_sampler(st, player, seed))
        chosen.append(choice)
        st.apply_action(choice)
    if st.turns <= 1:  # in the first turn, or over before any turn
        return st, st.cur if st.turns else st.first
    told = game.new_initial_state(spec.players, seed, listen=True)
    for choice in chosen:
        told.apply_action(choice)
    return st, next(event[2] for event in told.events if event[0] == "turn")


class Stop:
    """Ctrl-C in a sweep (this process's SIGINT, where `on_interrupt` handles
    it): `requested` once asked; `playing` while a game is being played here,
    which is then abandoned at once (a game cut short is not recorded)."""

    requested = False
    playing = False


def on_interrupt(signum=None, frame=None) -> None:
    """The SIGINT handler of a sweep: ask it to stop. Outside a game it only
    sets the flag, which the sweep reads at its next look, so records are never
    half taken; inside one it interrupts the game."""
    Stop.requested = True
    if Stop.playing:
        Stop.playing = False
        raise KeyboardInterrupt


def run_batch(spec: SweepSpec, start: int, stop: int) -> dict:
    """Play games `start` to `stop - 1`. Returns the records and the rules'
    fingerprint (so a driver can tell that every worker read the same rules),
    or the first error as text (exceptions do not always survive the trip
    back from a worker). Interrupted (Ctrl-C), it returns the games finished
    so far, marked `interrupted`."""
    try:
        game = load(spec)
    except RulesError as err:
        return {"start": start, "stop": stop, "error": err.render()}
    records = []
    for index in range(start, stop):
        if Stop.requested:
            break
        try:
            Stop.playing = True
            record = play_one(game, spec, index)
        except KeyboardInterrupt:
            break
        except RulesError as err:
            return {"start": start, "stop": stop,
                    "error": f"game {index} (seed {game_seed(spec.seed, index)}) failed:\n{err.render()}"}
        finally:
            Stop.playing = False
        records.append(record)
    batch = {"start": start, "stop": stop, "fingerprint": game.program.fingerprint, "records": records}
    if len(records) < stop - start:
        batch["interrupted"] = True
    return batch


def rule_names(game, players: int) -> list:
    """Every rule a coverage count can name, in program order."""
    return list(game.new_initial_state(players, 0, coverage=True).rule_coverage())
