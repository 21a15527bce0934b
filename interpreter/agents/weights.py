"""The evaluation's weights for one rules file, as measured and stored.

The evaluation (evaluate.py) has weights no rule can tell: how much of a
held card's expected gain to credit before it is earned (`discount`). The
best value differs between games (in a game where cards are cheap to play,
full credit; where playing them costs what a player rarely has, none); so
does how far `greedy` must look ahead (`turns`: where a turn is one action
and what it sets up scores only on the next, one turn shows nothing), and
how many turns `mcts` plays out before it values a position (`horizon`: in
a game where the other player's reply decides what a turn was worth, the
end of one's own turn says too little). So
the `bots --tune` command measures them per rules file (simulation/strength.py)
and stores them here, in the cache folder's `bots` sub-folder (cache.py:
private to the user, checked before every use), beside the cached trees of
the rules. `greedy` and `mcts` read it when their options do not set the
weight (`mcts` reads the evaluation's weights and its horizon); without a stored entry
they use the defaults (`DEFAULTS`).

An entry's key is made of the program's fingerprint (the rules text, the
card files and the parameters: build.fingerprint) and the evaluation's
version (the text of every module that decides what a weight means): a
change of the rules or of the bots makes every entry a foreign one, which
is ignored (and replaced by the next `--tune`). An entry is JSON data,
never code; anything that does not decode to exactly the expected shape
(damaged, cut, hand-edited or foreign) is ignored.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import math
from functools import lru_cache
from pathlib import Path

from ..language import cache
from .evaluate import DISCOUNT, Evaluator

FOLDER = "bots"
FORMAT = "rules-bot-weights/1"
DEFAULTS = {"discount": DISCOUNT, "turns": 1, "horizon": 1}
# Each weight's candidates for `--tune` (the default is tried first, whether
# listed or not), tuned one after the other in this order.
CANDIDATES = {"discount": (0.0, 0.25, 0.5, 1.0), "turns": (1, 2), "horizon": (1, 2, 3)}
# The bot whose games measure each weight: greedy's evaluation and lookahead,
# then the turns `mcts` finishes in a rollout before it values the position.
TUNED_WITH = {"discount": "greedy", "turns": "greedy", "horizon": "mcts"}
# Each weight's type and bounds: a stored value outside them is refused, and
# the bots' options take the same (each turn looked ahead multiplies the work).
LIMITS = {"discount": (float, 0.0, 100.0), "turns": (int, 1, 3), "horizon": (int, 1, 3)}
# The weights the evaluation takes (the others are greedy's own).
_EVALUATION_WEIGHTS = frozenset(inspect.getfullargspec(Evaluator.__init__).args) & set(DEFAULTS)
_HERE = Path(__file__).parent
# The files whose text decides what the weights mean and how bots use them.
EVALUATION = [_HERE / name for name in ("evaluate.py", "recall.py", "greedy.py", "mcts.py", "weights.py")]


@lru_cache(maxsize=None)
def evaluation_version() -> str:
    h = hashlib.sha256(FORMAT.encode() + b"\0")
    for path in EVALUATION:
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def entry_key(fingerprint: str) -> str:
    """The key of the entry for rules of this fingerprint."""
    return hashlib.sha256(f"{fingerprint}\0{evaluation_version()}".encode()).hexdigest()


def evaluation_weights(weights: dict) -> dict:
    """Of `weights`, those the evaluation takes (`evaluator_for(program, **them)`)."""
    return {k: v for k, v in weights.items() if k in _EVALUATION_WEIGHTS}


def _valid(weights) -> bool:
    return (type(weights) is dict and set(weights) == set(DEFAULTS)
            and all(type(v) is LIMITS[k][0] and math.isfinite(v) and LIMITS[k][1] <= v <= LIMITS[k][2]
                    for k, v in weights.items()))


def read_entry(fingerprint: str) -> dict | None:
    """The stored entry ({"weights", "evidence"}) for rules of this
    fingerprint, or None if there is none to trust."""
    data = cache.read(FOLDER, f"{fingerprint}.json")
    if data is None:
        return None
    try:
        body = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if (type(body) is not dict or body.get("format") != FORMAT or body.get("key") != entry_key(fingerprint)
            or not _valid(body.get("weights")) or type(body.get("evidence")) is not dict):
        return None
    return {"weights": {k: body["weights"][k] for k in DEFAULTS}, "evidence": body["evidence"]}  # (in DEFAULTS' order)


def store(fingerprint: str, weights: dict, evidence: dict) -> None:
    """Store the weights measured for rules of this fingerprint."""
    if not _valid(weights):
        raise ValueError(f"weights out of range: {weights}")
    body = {"format": FORMAT, "key": entry_key(fingerprint), "weights": weights, "evidence": evidence}
    cache.write(FOLDER, f"{fingerprint}.json", json.dumps(body, sort_keys=True).encode("utf-8"))
    _stored.cache_clear()


def stored(program) -> dict | None:
    """The stored entry ({"weights", "evidence"}) for this program, or None."""
    return _stored(program.fingerprint)


@lru_cache(maxsize=64)
def _stored(fingerprint: str) -> dict | None:
    return read_entry(fingerprint)


def weights_for(program) -> dict:
    """The weights the bots use on this program: the stored ones, else the defaults."""
    entry = stored(program)
    return dict(entry["weights"]) if entry is not None else dict(DEFAULTS)
