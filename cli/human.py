"""Play in the terminal: the table, what happens told as it happens, numbered
options, and commands to look things up, undo, save and quit."""
from __future__ import annotations

import copy
import sys

from rich.console import Console
from interpreter import files, visibility
from interpreter.errors import RulesError
from interpreter.saves import session_text
from interpreter.view import option_numbers, prompt_words, table_view

from . import lookup
from .narrate import Narrator, after_choice, listen, styled
from .text import plain, safe
from .table import render_table

HELP = """Type the number of an option to choose it, or @P for the option naming the card at
position P of the table (the numbered places of a row of spaces).
  card NAME     a card's details: all its data, printed values and effects
                (card N: the card option N names; card @P: the card at position P)
  look ...      the same as card
  table         the table again, with the details of every card all players see
  history [N]   the last N things that happened (20 if N is not given)
  undo          go back to your previous decision
  save FILE     save the game (resume with: catalyst run --load FILE)
  quit          leave the game (save first to keep it)
  ?, help       this help"""

HISTORY = 20
QUIT = object()  # the answer of a person leaving the game


class Session:
    """A game in which some seats are people typing at the terminal."""

    def __init__(self, game, state, humans: set, agents: list, meta: dict, console: Console, on_decision=None):
        self.game, self.state, self.humans, self.agents = game, state, humans, agents
        self.meta, self.console, self.on_decision = meta, console, on_decision
        # One person sees their player's view; several at one screen see what all players see.
        self.viewer = next(iter(humans)) if len(humans) == 1 else visibility.PUBLIC
        self.narrator = Narrator(self.viewer)
        self.undo_points: list = []
        self.shown_turn = None  # the turn whose table was last drawn
        self.numbering = None  # (decision key, {option id: number}) of the last question (view.option_numbers)
        self.stdin = sys.stdin

    def play(self):
        """Play until the end; return the final state, or None if the player quit."""
        from interpreter.play import world_sampler

        self.tell(self.narrator.take(self.state), typed=False)  # the setup, when the state listened to it
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
                self.numbering = None  # a question after someone else's is numbered afresh
                worlds = world_sampler(st, player, self.meta["seed"])
                choice = self.agents[player].choose(decision, st.observation(player), worlds)
            if self.on_decision:
                self.on_decision(st, decision, choice)
            listen(st)
            st.apply_action(choice)
            self.tell(self.narrator.take(st), typed=player in self.humans)
        return self.state

    def tell(self, lines, typed: bool) -> None:
        """Print what just happened; the option a person typed is not repeated."""
        for event, text in after_choice(lines) if typed else lines:
            self.console.print(styled(event, text))

    def ask(self, decision):
        st = self.state
        self.undo_points.append((st.clone(), copy.deepcopy(self.agents), len(self.narrator.told), self.numbering))
        self.numbering = option_numbers(st, self.numbering)
        if self.shown_turn != st.turns:
            render_table(self.console, table_view(st, decision.player))
            self.shown_turn = st.turns
        else:
            mine = table_view(st, decision.player)["players"][decision.player]["counters"]
            counters = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in mine.items())
            if counters:
                self.console.print(f"[dim]you have: {safe(counters)}[/dim]")
        self.show_options(decision)
        while True:
            line = self.read()
            if line is None:
                self.console.print("Input ended; the game is left unfinished.")
                return None
            line = line.strip()
            if not line:
                continue
            answer = self.answer(decision, line)
            if answer is QUIT:
                return None
            if answer is not None:
                return answer

    def answer(self, decision, line: str):
        """What a typed line asks for: an option's id, "undo", QUIT, or None to ask again."""
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("?", "help"):
            self.console.print(safe(HELP))
        elif word == "quit":
            self.console.print("Game left unfinished.")
            return QUIT
        elif word == "undo":
            return self.undo()
        elif word == "save":
            self.save(rest)
        elif word in ("card", "look"):
            self.show_card(decision, rest)
        elif word == "table":
            self.show_table(decision)
        elif word == "history":
            self.show_history(rest)
        elif line.isdigit() and int(line) in self.chosen_by():
            return self.chosen_by()[int(line)]
        elif line.startswith("@") and line[1:].strip().isdigit():
            return self.by_position(decision, int(line[1:]))
        else:
            numbers = sorted(self.chosen_by())
            said = (f"a number from 1 to {len(numbers)}" if numbers == list(range(1, len(numbers) + 1))
                    else "one of the numbers " + ", ".join(map(str, numbers)))
            self.console.print(f"Please type {said}, or ? for help.")
        return None

    def chosen_by(self) -> dict:
        """Option number -> the id of the option it chooses."""
        return {number: option for option, number in self.numbering[1].items()}

    def undo(self):
        if len(self.undo_points) < 2:
            self.console.print("Nothing to undo: this is your first decision.")
            return None
        self.undo_points.pop()
        self.state, self.agents, told, self.numbering = self.undo_points.pop()
        del self.narrator.told[told:]
        listen(self.state)
        self.shown_turn = None
        self.console.print("Back to your previous decision.")
        return "undo"

    def by_position(self, decision, position: int):
        matches = lookup.options_at(self.state, position)
        if len(matches) == 1:
            return decision.options[matches[0]].id
        if not matches:
            self.console.print(f"No option names a card at position {position}.")
        else:
            numbers = sorted(self.numbering[1][decision.options[i].id] for i in matches)
            self.console.print(f"Several options name a card at position {position}: "
                               f"{', '.join(map(str, numbers))}; type its number.")
        return None

    def show_card(self, decision, what: str):
        st = self.state
        if not what:
            self.console.print("Say which: card NAME, card N (option N) or card @P (position P).")
            return
        if what.isdigit():
            number = int(what)
            if number not in self.chosen_by():
                self.console.print(f"There is no option {number}.")
                return
            index = [o.id for o in decision.options].index(self.chosen_by()[number])
            cards = [c for c in [lookup.option_cards(st)[index]] if c is not None]
            missing = f"Option {number} names no card."
        elif what.startswith("@") and what[1:].strip().isdigit():
            cards = lookup.cards_at(st, int(what[1:]), self.viewer_of(decision))
            missing = f"No card you can see lies at position {what[1:].strip()}."
        else:
            cards = lookup.find_by_name(st, what)
            missing = f"No card is called '{what}'."
        if not cards:
            self.console.print(safe(missing))
        elif len(cards) > 8:
            self.console.print(safe(f"{len(cards)} cards match '{what}': "
                                      + ", ".join(st.program.card_names[c] for c in cards[:8]) + ", ..."))
        for card in cards[:8]:
            self.console.print(safe("\n".join(lookup.card_details(st, card, self.viewer_of(decision)))))

    def show_table(self, decision):
        st = self.state
        render_table(self.console, table_view(st, decision.player))
        cards = lookup.public_cards(st)
        if cards:
            self.console.print("[bold]the cards every player sees:[/bold]")
        for card in cards:
            self.console.print(safe("  " + lookup.card_summary(st, card)))
        self.show_options(decision)

    def show_history(self, rest: str):
        count = int(rest) if rest.isdigit() else HISTORY
        lines = self.narrator.history(count)
        if count == 0:
            self.console.print("history 0 shows nothing; history N shows the last N steps.")
        elif not lines:
            self.console.print("Nothing has happened yet.")
        for event, text in lines:
            self.console.print(styled(event, text))

    def viewer_of(self, decision) -> int:
        """Whose eyes look things up: the deciding person's."""
        return decision.player if decision.player in self.humans else self.viewer

    def show_options(self, decision):
        self.console.print(f"[bold]player {decision.player + 1}, {safe(prompt_words(self.state).lower())}:[/bold]")
        numbers = self.numbering[1]
        for option in sorted(decision.options, key=lambda o: numbers[o.id]):
            self.console.print(f"  {numbers[option.id]:>2}. {safe(option.label)}")
        for option in decision.unavailable:  # unnumbered: they cannot be chosen
            self.console.print(f"[dim]   -  {safe(option.label)} (not now: {safe(option.reason)})[/dim]")

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
