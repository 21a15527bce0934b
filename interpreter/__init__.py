"""A generic interpreter for a declarative card-game rules language.

`load_game(path)` reads, checks and compiles a rules file; the returned Game
makes states with an OpenSpiel-style decision API.
"""
from .game import TERMINAL, Decision, Game, GameState, Option
from .loader import load_game

__all__ = ["Decision", "Game", "GameState", "Option", "TERMINAL", "load_game"]
