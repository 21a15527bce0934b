"""Standard agent APIs for any rules file.

- `encoding`: the action vocabulary and observation vectors (no third-party
  imports; shared by the adapters below).
- `pettingzoo_env`: a PettingZoo AEC environment (extra `rl`: numpy,
  gymnasium, pettingzoo).
- `openspiel_game`: an OpenSpiel Python game (extra `openspiel`: open_spiel).

The adapters are imported on first use, so `import interpreter.adapters` works
without the extras; `make_env()` (PettingZoo) and `load_openspiel()` name the
missing extra when it is not installed.
"""
from __future__ import annotations

from .encoding import Encoding, UnknownActionError, action_vocabulary


def _need(extra: str, module: str):
    import importlib

    try:
        return importlib.import_module(f".{module}", __name__)
    except ImportError as err:
        raise ImportError(f"{err}; install the '{extra}' extra of this project (pip install -e '.[{extra}]')") from err


def make_env(rules, **kwargs):
    """A PettingZoo AEC environment for a rules file (see pettingzoo_env.RulesEnv)."""
    return _need("rl", "pettingzoo_env").RulesEnv(rules, **kwargs)


def load_openspiel(rules, **params):
    """A pyspiel game for a rules file, registered on first use (see openspiel_game.load)."""
    return _need("openspiel", "openspiel_game").load(rules, **params)


__all__ = ["Encoding", "UnknownActionError", "action_vocabulary", "load_openspiel", "make_env"]
