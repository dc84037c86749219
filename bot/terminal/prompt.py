"""The person's turn at the terminal: the menu, their answer, and the prompt's commands.

At the prompt: a move by its number or its words, or typed (see :mod:`bot.terminal.moves`); ``rules`` for the
game's rules at this table, ``help`` for the commands, ``table`` to redraw, ``quit`` or Ctrl-D to leave. A wrong
answer gets the catalog's reason and a reminder of the moves, and the prompt asks again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.games import Action, IllegalMove
from bot.games.parsing import parse_int, quote
from bot.i18n import t
from bot.render import error_text, rules_text, seat_names
from bot.tables import Table, TableError
from bot.terminal.console import InputFn, markdown, wrap
from bot.terminal.menus import Moves, Refusal
from bot.terminal.moves import build as build_moves
from bot.terminal.presenter import TerminalPresenter

MENU_REPEAT = 8  # after a wrong answer, repeat the moves inline when there are at most this many
# Whole words only: a single letter would shadow a move's start ("r" for roll, "t" for throw, "h" for hold).
QUIT_WORDS = {"quit", "exit", "q", ":q"}
HELP_WORDS = {"help", "?"}
RULES_WORDS = {"rules", "rule"}
TABLE_WORDS = {"table", "show"}
COMMANDS = ("rules", "help", "table", "quit")  # offered by tab completion at every prompt

Act = Callable[[Action], Awaitable[Any]]


class Quit(Exception):
    """The person left (``quit`` or end of input)."""


class Prompt:
    """Asks the person (seat 0) for a move until one is played; raises :class:`Quit` when they leave."""

    def __init__(self, read: InputFn, presenter: TerminalPresenter, locale: str) -> None:
        self.read = read
        self.presenter = presenter
        self.locale = locale

    def say(self, text: str = "") -> None:
        self.presenter.say(text)

    def text(self, key: str, **params: Any) -> str:
        """The catalog's text for ``key`` in this game's locale."""
        return t(key, self.locale, **params)

    async def turn(self, table: Table, act: Act) -> None:
        """One move of the person's at ``table``, played through ``act`` (the table service's, for seat 0)."""
        legal = table.engine.legal_actions(table.state, 0)
        moves = build_moves(table.game, table.engine.view(table.state, 0), legal, self.locale)
        choices = moves.choices(self.locale)
        prompt = self.text("terminal.prompt", choices=choices) if choices else self.text("terminal.prompt_free")
        self._menu(moves)
        while True:
            text = self._ask(prompt, moves)
            lowered = text.lower()
            if lowered in QUIT_WORDS:
                raise Quit
            if not text:
                self.say(self.text("terminal.empty_answer", example=moves.example()))
            elif lowered in HELP_WORDS:
                self._help(table, moves)
            elif lowered in RULES_WORDS:
                self._rules(table)
            elif lowered in TABLE_WORDS:
                self.presenter.flush(table, force=True)
            elif await self._try(table, moves, text, act):
                return

    def _ask(self, prompt: str, moves: Moves) -> str:
        completions = [*moves.completions(), *COMMANDS]
        setter = getattr(self.read, "complete", None)
        if callable(setter):
            setter(completions)
        try:
            return (self.read(prompt) or "").strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D / Ctrl-C at the prompt: leave cleanly
            raise Quit from None

    async def _try(self, table: Table, moves: Moves, text: str, act: Act) -> bool:
        """Play what ``text`` names; on a refusal say why and remind the person of the moves."""
        found = moves.match(text)
        if isinstance(found, Refusal):  # the reason says what would do (the lowest bid, the values)
            self.say(self.text("terminal.rejected", reason=found.reason))
            return False
        if found is None:
            self._explain(moves, text)
            self._remind(moves)
            return False
        try:
            await act(found)
            return True
        except (IllegalMove, TableError) as error:
            reason = error_text(error, table.locale, table.game, seat_names(table))
            self.say(self.text("terminal.rejected", reason=reason))
        self._remind(moves)
        return False

    def _explain(self, moves: Moves, text: str) -> None:
        ambiguous = moves.ambiguous(text)
        if ambiguous:
            options = ", ".join(e.label for e in ambiguous)
            self.say(self.text("terminal.ambiguous", text=quote(text), moves=options))
        elif moves.numbered and parse_int(text) is not None:
            self.say(self.text("terminal.no_such_number", number=text, choices=moves.numbers(self.locale)))
        else:
            self.say(self.text("terminal.not_a_move", text=quote(text)))

    def _remind(self, moves: Moves) -> None:
        if moves.offered or len(moves.entries) > MENU_REPEAT:
            self.say(self.text("terminal.moves_hint_long"))
        else:
            key = "terminal.moves_hint" if moves.numbered else "terminal.moves_hint_words"
            summary, count = moves.summary(), len(moves.entries)
            self.say(self.text(key, moves=summary, choices=moves.numbers(self.locale), count=count))

    def _menu(self, moves: Moves) -> None:
        for line in moves.lines(self.presenter.width, self.locale):
            self.say(line)

    def _help(self, table: Table, moves: Moves) -> None:
        """The commands this prompt understands: the moves, then rules / table / help / quit."""
        self._menu(moves)
        game = t(f"game.{table.game}", self.locale)
        self.say(self.text("terminal.help_title"))
        for key in ("terminal.help_rules", "terminal.help_table", "terminal.help_help", "terminal.help_quit"):
            self.say(self.text(key, game=game))

    def _rules(self, table: Table) -> None:
        """The game's rules for this table's options, as /<game> rules shows them, in terminal words."""
        changed = table.engine.options(table.options).changed()
        text = rules_text(table.game, changed, self.locale)
        width = max(40, self.presenter.width)
        self.say("")
        for paragraph in markdown(text, color=False).split("\n"):  # plain: a bold span may not survive a wrap
            indent = "  " if paragraph.startswith("•") else ""
            for line in wrap(paragraph, width, indent):
                self.presenter.write(line)
        self.say("")
