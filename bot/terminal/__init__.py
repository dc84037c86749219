"""``dicetavern play``: play a game in the terminal against computer players.

The game runs through the same table service as on Discord, with a terminal presenter in place of the Discord
one; the person is seat 0 and sees exactly what a Discord player sees. The modules, from the top down:

- :mod:`~bot.terminal.command`: the command line (``dicetavern play``'s arguments, Ctrl-C, a closed pipe);
- :mod:`~bot.terminal.game`: the game loop (:class:`TerminalGame`: setup, computer turns, the result) and
  :func:`play`, which checks the arguments (game, players, levels, options) first;
- :mod:`~bot.terminal.prompt`: the person's turn (the menu, their answer, ``rules`` / ``help`` / ``table`` /
  ``quit``);
- :mod:`~bot.terminal.moves` and :mod:`~bot.terminal.menus`: each game's moves as words or typed (``3x5``,
  ``53``), and the menu that lists them and matches an answer;
- :mod:`~bot.terminal.presenter`: event lines and the table, for the person's seat only;
- :mod:`~bot.terminal.console`: reading (readline history and completion, typeahead discarded) and writing
  (colour, markdown, wrapping in terminal columns). Input and output are injectable so tests can script a game.

Everything printed comes from the message catalog (``terminal.*`` keys, ``bot/locales/<locale>/terminal.json``)
in the locale given with ``--locale``, which is also the table's locale; a text not yet translated falls back to
English. The game runs with ``bot.i18n.SURFACE`` set to ``"terminal"``, so a shared text that names Discord (DMs,
buttons, slash commands) is replaced by its ``<key>@terminal`` variant; Discord never sees those.
"""

from bot.terminal.command import add_arguments, build_parser, main, main_from_args
from bot.terminal.console import TtyReader
from bot.terminal.game import TerminalGame, computer_name, parse_levels, play, resolve_levels, seat_count
from bot.terminal.presenter import TerminalPresenter

__all__ = [
    "TerminalGame",
    "TerminalPresenter",
    "TtyReader",
    "add_arguments",
    "build_parser",
    "computer_name",
    "main",
    "main_from_args",
    "parse_levels",
    "play",
    "resolve_levels",
    "seat_count",
]
