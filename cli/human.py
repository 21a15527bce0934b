"""Play in the terminal: the table, numbered options, help, undo, save, quit."""
from __future__ import annotations

import copy
import sys

from rich.console import Console
from rich.text import Text

from interpreter import files
from interpreter.errors import RulesError
from interpreter.saves import session_text
from interpreter.view import table_view

from .render import plain
from .table import render_table

HELP = """Type the number of an option to choose it.
  ?, help     this help
  undo        go back to your previous decision
  save FILE   save the game (resume with: catalyst run --load FILE)
  quit        leave the game (save first to keep it)"""



class Session:
    """A game in which some seats are people typing at the terminal."""

    def __init__(self, game, state, humans: set, agents: list, meta: dict, console: Console, on_decision=None):
        self.game, self.state, self.humans, self.agents = game, state, humans, agents
        self.meta, self.console, self.on_decision = meta, console, on_decision
        self.history: list = []
        self.shown_turn = None  # the turn whose table was last drawn
        self.stdin = sys.stdin

    def play(self):
        """Play until the end; return the final state, or None if the player quit."""
        from interpreter.play import world_sampler

        while not self.state.is_terminal():
            st = self.state
            player = st.current_player()
            decision = st.decision()
            if player in self.humans:
                choice = self.ask(decision)
                if choice is None:
                    return None
                if choice == "undo":
                    continue
            else:
                choice = self.agents[player].choose(decision, st.observation(player), world_sampler(st, player, self.meta["seed"]))
                label = next(o.label for o in decision.options if o.id == choice)
                self.console.print(Text.assemble((f"player {player + 1}:", "dim"), " ", plain(label)))
            if self.on_decision:
                self.on_decision(st, decision, choice)
            st.apply_action(choice)
        return self.state

    def ask(self, decision):
        st = self.state
        self.history.append((st.clone(), copy.deepcopy(self.agents)))
        if self.shown_turn != st.turns:
            render_table(self.console, table_view(st, decision.player))
            self.shown_turn = st.turns
        else:
            counters = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in table_view(st, decision.player)["players"][decision.player]["counters"].items())
            self.console.print(plain(f"you have: {counters}"), style="dim")
        self.show_options(decision)
        while True:
            line = self.read()
            if line is None:
                self.console.print("Input ended; the game is left unfinished.")
                return None
            line = line.strip()
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("?", "help"):
                self.console.print(plain(HELP))
            elif word == "quit":
                self.console.print("Game left unfinished.")
                return None
            elif word == "undo":
                if len(self.history) < 2:
                    self.console.print("Nothing to undo: this is your first decision.")
                    continue
                self.history.pop()
                self.state, self.agents = self.history.pop()
                self.shown_turn = None
                self.console.print("Back to your previous decision.")
                return "undo"
            elif word == "save":
                self.save(rest.strip())
            elif line.isdigit() and 1 <= int(line) <= len(decision.options):
                return decision.options[int(line) - 1].id
            else:
                self.console.print(f"Please type a number from 1 to {len(decision.options)}, or ? for help.")

    def show_options(self, decision):
        self.console.print(plain(f"player {decision.player + 1}, {decision.prompt.lower()}:"), style="bold")
        for i, option in enumerate(decision.options, 1):
            self.console.print(plain(f"  {i:>2}. {option.label}"))

    def read(self):
        """A line typed at the prompt, or None once input has ended (or stdin is closed)."""
        self.console.print("> ", end="")
        try:
            line = self.stdin.readline() if self.stdin is not None else ""
            if line and not self.stdin.isatty():
                self.console.print(plain(line.rstrip("\n")))  # a transcript shows what was typed
        except (OSError, ValueError):  # a closed or broken stdin ends input
            line = ""
        return line if line else None

    def save(self, path: str):
        if not path:
            self.console.print("Say where: save FILE")
            return
        meta = {k: v for k, v in self.meta.items() if k != "rules"}
        text = session_text(path, self.meta["rules"], self.game, self.state, {**meta, "human": sorted(self.humans)})
        try:
            files.write_text(path, text, "the saved game")
        except RulesError as err:
            self.console.print(plain(f"Not saved: {err.diagnostics[0].message}"), soft_wrap=True)  # paths unbroken
            return
        self.console.print(plain(f"Saved to {path}."), soft_wrap=True)
