"""``dicetavern play``: play a game in the terminal against computer players.

The game runs through the same :class:`~bot.tables.TableService` as on Discord (lobby, start,
``act``; every move committed to a SQLite store, ``:memory:`` by default) with a
:class:`TerminalPresenter` in place of the Discord one. The person is seat 0; the computer
players are seats 1..N-1 (``Seat`` with a level and a negative id) and move through
``bot.ai.choose`` from their own seat's view, after a short pause so a person can follow.

What the person sees is exactly what a Discord player sees: the public event lines, their own
private events (marked 🔒), and the table body rendered for their seat. Other seats' private
events are never printed. The table is redrawn before each of the person's prompts whenever it
changed (a run of computer moves is coalesced into one redraw, like the Discord presenter's
coalesced edits) and once more at the end.

At the prompt (see :mod:`bot.terminal_moves`): a move by its number or its words, as the catalog labels
it (``roll``, ``end round``, ``griffin``), or typed when there are too many to list (a Liar's Dice bid
``3x5``, a Mia value ``53``); ``rules`` for the game's rules at this table, ``help`` for the commands,
``table`` to redraw, ``quit`` or Ctrl-D to leave. At a real terminal ``readline`` gives history and
tab completion, and keys typed while the computer players moved are discarded before each prompt.
Input and output are injectable (a function or a stream) so tests can script a game.

Everything printed comes from the message catalog (``terminal.*`` keys, ``bot/locales/<locale>/
terminal.json``) in the locale given with ``--locale``, which is also the table's locale; a text
not yet translated falls back to English. The game runs with ``bot.i18n.SURFACE`` set to
``"terminal"``, so a shared text that names Discord (DMs, buttons, slash commands) is replaced by its
``<key>@terminal`` variant; Discord never sees those.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from bot.games import Event, IllegalMove, available_games, get_engine
from bot.games.dice import DiceSource, SecureDice, SeededDice
from bot.games.parsing import parse_int, quote
from bot.i18n import DEFAULT, SURFACE, has, normalise, t
from bot.render import error_text, event_text, fill, game_module, private_text, rules_text, seat_names, table_text
from bot.simulate import (
    Chooser,
    _isatty,
    add_option_argument,
    check_level,
    computer_move,
    default_chooser,
    known_levels,
    options_dict,
)
from bot.store import Store
from bot.tables import Seat, Table, TableError, TableService
from bot.terminal_moves import Moves, Refusal, display_width, wrap
from bot.terminal_moves import build as build_moves

GUILD = CHANNEL = 0  # the terminal's one "server" and "channel"
HUMAN_ID = 1
DEFAULT_PAUSE = 0.8
DEFAULT_NAME = "Player"
MENU_REPEAT = 8  # after a wrong answer, repeat the moves inline when there are at most this many
# Whole words only: a single letter would shadow a move's start ("r" for roll, "t" for throw, "h" for hold).
QUIT_WORDS = {"quit", "exit", "q", ":q"}
HELP_WORDS = {"help", "?"}
RULES_WORDS = {"rules", "rule"}
TABLE_WORDS = {"table", "show"}
COMMANDS = ("rules", "help", "table", "quit")  # offered by tab completion at every prompt

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]


# --------------------------------------------------------------------------------------------
# Text helpers


def _markdown(text: str, color: bool) -> str:
    """Discord markdown for a terminal: **bold** / *italics* / ~~strike~~ become ANSI (or plain), `code` loses
    its ticks."""
    text = re.sub(r"\*\*(.+?)\*\*", (lambda m: f"\x1b[1m{m.group(1)}\x1b[0m") if color else r"\1", text)
    italic = r"(?<![*\w])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![*\w])"
    text = re.sub(italic, (lambda m: f"\x1b[3m{m.group(1)}\x1b[0m") if color else r"\1", text)
    text = re.sub(r"~~(.+?)~~", (lambda m: f"\x1b[9m{m.group(1)}\x1b[0m") if color else r"\1", text)
    text = re.sub(r"\|\|(.+?)\|\|", r"\1", text)  # a spoiler: only the viewer's own text ever gets here
    return re.sub(r"`([^`]*)`", r"\1", text)


def compact(data: dict[str, Any], skip: Sequence[str] = ()) -> str:
    """``key=value`` pairs on one line, for views and events no render module describes yet."""
    parts = []
    for key, value in data.items():
        if key in skip:
            continue
        text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        parts.append(f"{key}={text}")
    return " ".join(parts)


def _render_missing(error: ImportError, game: str) -> bool:
    return isinstance(error, ModuleNotFoundError) and (error.name or "").startswith(f"bot.render.{game}")


class TerminalPresenter:
    """The Presenter protocol for one person at a terminal (``viewer`` is their seat).

    ``publish`` prints each public event line at once, and the viewer's own private events with a
    🔒; private events of other seats are dropped. The table body is marked dirty and drawn by
    :meth:`flush` (the game loop calls it before each prompt and at the end).
    """

    def __init__(self, write: OutputFn, viewer: int = 0, *, color: bool = False, width: int | None = None) -> None:
        self.write = write
        self.viewer = viewer
        self.color = color
        self.width = width or min(shutil.get_terminal_size((100, 24)).columns, 120)
        self.dirty = False
        self._table: Table | None = None
        self._warned: set[str] = set()

    # -- the Presenter protocol -----------------------------------------------------------

    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None:
        self._table = table
        for event in events:
            if event.to is None:
                line = self.event_line(table, event)
                if line:
                    self.say(line)
            elif event.to == self.viewer:
                line = self.event_line(table, event, private=True)
                if line:
                    self.say(t("terminal.private", table.locale, line=line))
            # anything else is another seat's secret: never shown
        if refresh and table.state is not None:
            self.dirty = True

    # -- drawing ----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """One line of output; a line wider than the terminal is wrapped (plain, under a hanging indent)."""
        plain = _markdown(text, False)
        if display_width(plain) <= self.width:
            self.write(_markdown(text, self.color))
            return
        for line in wrap(plain, self.width):
            self.write(line)

    def event_line(self, table: Table, event: Event, private: bool = False) -> str | None:
        """The catalog's line for ``event``; a compact ``kind: key=value`` line if the catalog has none."""
        names = seat_names(table)
        try:
            if private:
                text = private_text(table, event, table.locale)
            else:
                text = event_text(table.game, event.kind, event.data, names, table.locale)
        except ImportError as error:
            if not _render_missing(error, table.game):
                raise
            text = self._catalog_line(table, event, names)
        if text:
            return text
        if self._has_template(table, event):
            return None  # an empty template: the log deliberately skips this event
        return f"{event.kind}: {compact(fill(event.data, names))}".rstrip(": ")

    @staticmethod
    def _keys(table: Table, event: Event) -> list[str]:
        kinds = [event.kind]
        try:
            module = game_module(table.game)
            if hasattr(module, "event_key"):
                kinds.insert(0, module.event_key(event.kind, event.data))
        except ImportError:
            pass
        return [key for kind in kinds for key in (f"{table.game}.event.{kind}", f"event.{kind}")]

    def _has_template(self, table: Table, event: Event) -> bool:
        return any(has(key, table.locale) for key in self._keys(table, event))

    def _catalog_line(self, table: Table, event: Event, names: list[str]) -> str | None:
        for key in self._keys(table, event):
            if has(key, table.locale):
                return t(key, table.locale, **fill(event.data, names)) or None
        return None

    def flush(self, table: Table | None = None, force: bool = False) -> None:
        """Draw the table for the viewer if it changed since the last drawing (or ``force``)."""
        table = table or self._table
        if table is None or table.state is None or not (self.dirty or force):
            return
        self.dirty = False
        for line in self.table_lines(table):
            self.say(line)

    def table_lines(self, table: Table) -> list[str]:
        locale = table.locale
        try:
            text = table_text(table, locale, viewer=self.viewer)
            title, body = text.title, text.body
        except Exception as error:  # noqa: BLE001 - a render module in progress must not end the game
            title = t(
                "table.title", locale, game=t(f"game.{table.game}", locale), status=t(f"status.{table.status}", locale)
            )
            if not (isinstance(error, ImportError) and _render_missing(error, table.game)):
                note = t(
                    "terminal.render_failed",
                    locale,
                    game=table.game,
                    error_type=type(error).__name__,
                    error=error,
                )
                if note not in self._warned:
                    self._warned.add(note)
                    title += "\n" + note
            body = self.raw_view(table)
        rule = "─" * max(0, min(self.width, 60) - len(title) - 4)
        return ["", f"── {title} {rule}", *body, ""]

    def raw_view(self, table: Table) -> list[str]:
        """The viewer's own view, compactly (never anyone else's: the engine strips their secrets)."""
        view = table.engine.view(table.state, self.viewer)
        names = seat_names(table)
        seats = ", ".join(t("terminal.seat", table.locale, number=i + 1, name=n) for i, n in enumerate(names))
        lines = [t("terminal.raw_players", table.locale, players=seats)]
        text = compact(view, skip=("options", "legal", "game", "you"))
        lines += textwrap.wrap(text, self.width, break_on_hyphens=False) or [""]
        return lines


# --------------------------------------------------------------------------------------------
# The prompt


class Quit(Exception):
    """The person left (``quit`` or end of input)."""


# --------------------------------------------------------------------------------------------
# The game


class TerminalGame:
    def __init__(
        self,
        game: str,
        players: int,
        levels: Sequence[str],
        options: dict[str, Any],
        dice: DiceSource,
        rng: random.Random,
        *,
        read: InputFn,
        write: OutputFn,
        pause: float = DEFAULT_PAUSE,
        name: str = DEFAULT_NAME,
        database: str = ":memory:",
        chooser: Chooser | None = None,
        color: bool = False,
        width: int | None = None,
        locale: str = DEFAULT,
    ) -> None:
        self.game = game
        self.locale = locale
        self.players = players
        self.levels = list(levels)
        self.options = options
        self.dice = dice
        self.rng = rng
        self.read = read
        self.write = write
        self.pause = pause
        self.name = name
        self.database = database
        self.chooser = chooser
        self.presenter = TerminalPresenter(write, 0, color=color, width=width)
        self.table: Table | None = None
        self.service: TableService | None = None

    def say(self, text: str = "") -> None:
        self.presenter.say(text)

    def text(self, key: str, **params: Any) -> str:
        """The catalog's text for ``key`` in this game's locale."""
        return t(key, self.locale, **params)

    async def run(self) -> int:
        surface = SURFACE.set("terminal")  # catalog texts in their terminal variants (no DMs, no slash commands)
        try:
            return await self._run()
        finally:
            SURFACE.reset(surface)

    async def _run(self) -> int:
        store = await Store.open(self.database)
        # The terminal paces computer players itself (and offers a "random" level), so the service doesn't.
        self.service = TableService(store, self.dice, self.presenter, run_dispatcher=False, auto_bots=False)
        try:
            await self.service.start()
            try:
                await self._setup()
            except TableError as error:
                self.say(self.text("terminal.error", message=error_text(error, self.locale, self.game)))
                return 2
            try:
                await self._loop()
            except Quit:
                self.say("")
                self.say(self.text("terminal.quit"))
                return 0
            self._result()
            return 0
        finally:
            await self.service.stop()
            await store.close()

    async def _setup(self) -> None:
        assert self.service is not None
        human = Seat(HUMAN_ID, self.name)
        self.table = await self.service.create(GUILD, CHANNEL, human, self.game, self.options, locale=self.locale)
        self.say(
            self.text(
                "terminal.intro",
                game=t(f"game.{self.game}", self.locale),
                name=self.name,
                count=len(self.levels),
                levels=", ".join(self.levels),
            )
        )
        changed = self.table.engine.options(self.table.options).changed()
        if changed:
            self.say(self.text("terminal.options", options=", ".join(f"{k}={v}" for k, v in changed.items())))
        self.say(self.text("terminal.instructions"))
        for i, level in enumerate(self.levels):
            name = computer_name(level, i, self.levels, self.locale)
            await self.service.add_computer(CHANNEL, HUMAN_ID, level, name)
        await self.service.start_game(CHANNEL, HUMAN_ID)

    async def _loop(self) -> None:
        table, service = self.table, self.service
        assert table is not None and service is not None
        engine = table.engine
        watching = False
        while engine.outcome(table.state) is None:
            movers = engine.to_act(table.state)
            if 0 in movers:
                self.presenter.flush(table)
                await self._human_turn(table)
                continue
            if not watching and not self._human_in_game(table):
                watching = True
                self.say(self.text("terminal.watching"))
            for seat in movers:
                if engine.outcome(table.state) is not None or seat not in engine.to_act(table.state):
                    continue
                await self._computer_turn(table, seat)
        self.presenter.flush(table, force=True)

    def _human_in_game(self, table: Table) -> bool:
        """Whether seat 0 still plays, from the usual view fields (``alive`` / ``active`` / ``out``)."""
        view = table.engine.view(table.state, 0)
        for key in ("alive", "active"):
            flags = view.get(key)
            if isinstance(flags, list) and flags and isinstance(flags[0], bool):
                return bool(flags[0])
        out = view.get("out")
        if isinstance(out, list) and out:
            return not out[0] if isinstance(out[0], bool) else 0 not in out
        return True

    async def _human_turn(self, table: Table) -> None:
        assert self.service is not None
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
                self._help(moves)
            elif lowered in RULES_WORDS:
                self._rules(table)
            elif lowered in TABLE_WORDS:
                self.presenter.flush(table, force=True)
            elif await self._try(table, moves, text):
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

    async def _try(self, table: Table, moves: Moves, text: str) -> bool:
        """Play what ``text`` names; on a refusal say why and remind the person of the moves."""
        assert self.service is not None
        found = moves.match(text)
        if isinstance(found, Refusal):  # the reason says what would do (the lowest bid, the values)
            self.say(self.text("terminal.rejected", reason=found.reason))
            return False
        if found is None:
            self._explain(moves, text)
            self._remind(moves)
            return False
        try:
            await self.service.act(CHANNEL, HUMAN_ID, found)
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

    def _help(self, moves: Moves) -> None:
        """The commands this prompt understands: the moves, then rules / table / help / quit."""
        self._menu(moves)
        game = t(f"game.{self.game}", self.locale)
        self.say(self.text("terminal.help_title"))
        for key in ("terminal.help_rules", "terminal.help_table", "terminal.help_help", "terminal.help_quit"):
            self.say(self.text(key, game=game))

    def _rules(self, table: Table) -> None:
        """The game's rules for this table's options, as /<game> rules shows them, in terminal words."""
        changed = table.engine.options(table.options).changed()
        text = rules_text(table.game, changed, self.locale)
        width = max(40, self.presenter.width)
        self.say("")
        for paragraph in _markdown(text, color=False).split("\n"):  # plain: a bold span may not survive a wrap
            indent = "  " if paragraph.startswith("•") else ""
            for line in wrap(paragraph, width, indent):
                self.write(line)
        self.say("")

    async def _computer_turn(self, table: Table, seat: int) -> None:
        assert self.service is not None
        user = table.seats[seat]
        level = user.level or "normal"
        _, view = self.service.view(CHANNEL, user.id)
        legal = table.engine.legal_actions(table.state, seat)
        if self.pause:
            await asyncio.sleep(self.pause)
        action = computer_move(table.game, view, level, self.rng, legal, self.chooser)
        if action not in legal:  # a computer player's bug must not end the person's game
            self.say(self.text("terminal.computer_illegal", name=user.name, action=action))
            action = self.rng.choice(legal)
        await self.service.act(CHANNEL, user.id, action)

    def _result(self) -> None:
        table = self.table
        assert table is not None
        outcome = table.engine.outcome(table.state)
        assert outcome is not None
        names = seat_names(table)
        place, parts = 1, []
        for group in outcome.ranking:
            for seat in group:
                parts.append(
                    self.text("terminal.result_entry", place=place, name=names[seat], score=outcome.scores[seat])
                )
            place += len(group)
        self.say(self.text("terminal.result", ranking=" · ".join(parts)))
        winners = outcome.winners
        if 0 in winners:
            self.say(self.text("terminal.win" if len(winners) == 1 else "terminal.shared_win"))
        else:
            self.say(self.text("terminal.lost"))


# --------------------------------------------------------------------------------------------
# Entry points


def computer_name(level: str, index: int, levels: Sequence[str] = (), locale: str = DEFAULT) -> str:
    """``bot.ai.bot_name`` (a tavern regular of that level, distinct per level), else ``Bot N``."""
    try:
        from bot.ai import bot_name

        return bot_name(level, list(levels[:index]).count(level))
    except (ImportError, ValueError, KeyError):
        return t("terminal.bot_name", locale, number=index + 1, level=level)


class TtyReader:
    """``input()`` for a person at a terminal: line editing, history and tab completion (``readline``), and
    keys typed while the computer players moved are discarded before each prompt, not taken as a move."""

    def __init__(self, stdin: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.words: list[str] = []
        try:
            import readline
        except ImportError:  # Windows without pyreadline: plain input() still works
            self.readline = None
        else:
            self.readline = readline
            readline.set_completer(self._complete)
            readline.set_completer_delims(" \t")
            # libedit (macOS) and GNU readline spell the binding differently
            readline.parse_and_bind("bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete")

    def complete(self, words: Sequence[str]) -> None:
        """The words tab completes at the next prompt: its moves' words and the commands."""
        self.words = list(words)

    def _complete(self, text: str, state: int) -> str | None:
        hits = [w for w in self.words if w.lower().startswith(text.lower())]
        return hits[state] if state < len(hits) else None

    def flush_typeahead(self) -> None:
        try:
            import termios

            termios.tcflush(self.stdin, termios.TCIFLUSH)
        except (ImportError, OSError, ValueError):  # not a POSIX terminal: nothing to discard
            pass

    def __call__(self, prompt: str) -> str:
        self.flush_typeahead()
        return input(prompt)


def _reader(source: InputFn | TextIO | None, write: OutputFn) -> InputFn:
    if source is None:
        if _isatty(sys.stdin):
            return TtyReader()
        source = sys.stdin  # piped: read lines and echo them, so the transcript shows the answers
    if callable(source):
        return source
    stream = source

    def read(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        write(prompt + line.rstrip("\n"))  # echo, so a transcript reads like a session
        return line.rstrip("\n")

    return read


def _writer(sink: OutputFn | TextIO | None) -> tuple[OutputFn, bool]:
    if sink is None:
        sink = sys.stdout
    if callable(sink):
        return sink, False
    stream = sink

    def write(text: str) -> None:
        stream.write(text + "\n")
        stream.flush()

    color = _isatty(stream) and "NO_COLOR" not in os.environ
    return write, color


def parse_levels(levels: str | Sequence[str], locale: str = DEFAULT) -> list[str]:
    """``"easy, HARD"`` -> ``["easy", "hard"]`` (canonical names); ValueError naming an unknown level."""
    items = [x for x in (levels.split(",") if isinstance(levels, str) else levels) if x.strip()]
    return [check_level(x, locale) for x in items] or ["normal"]


def resolve_levels(levels: str | Sequence[str], computers: int, locale: str = DEFAULT) -> list[str]:
    """One level for every computer player: ``"hard"`` for all of them, or ``"easy,hard"`` with one per computer."""
    items = parse_levels(levels, locale)
    if len(items) == 1:
        return items * computers
    if len(items) != computers:
        raise ValueError(
            t(
                "terminal.level_count",
                locale,
                count=computers,
                players=computers + 1,
                levels=len(items),
                names=", ".join(items),
            )
        )
    return items


def seat_count(players: int | None, levels: list[str], fewest: int) -> int:
    """The seats a person means: ``--players`` if given; else one computer per level of a list of levels
    (``--level easy,hard``: three seats); else two, or the game's minimum (one level for every computer)."""
    if players is not None:
        return players
    if len(levels) > 1:
        return len(levels) + 1
    return max(2, fewest)


async def play(
    game: str,
    players: int | None = None,
    level: str | Sequence[str] = "normal",
    options: dict[str, Any] | None = None,
    seed: int | str | None = None,
    *,
    input: InputFn | TextIO | None = None,
    output: OutputFn | TextIO | None = None,
    pause: float = DEFAULT_PAUSE,
    name: str = DEFAULT_NAME,
    database: str = ":memory:",
    chooser: Chooser | None = None,
    color: bool | None = None,
    width: int | None = None,
    locale: str = DEFAULT,
) -> int:
    """Play ``game`` in a terminal: the person is seat 0, ``players - 1`` computer players the rest.

    ``level`` is one level for every computer player, or a list (``"easy,hard"``) with one level per computer
    player; without ``players`` such a list sets the number of seats (you and one computer per level).

    Returns an exit status: 0 when the game ended or the person quit, 2 for bad arguments.
    ``input`` is a function like :func:`input` (raising ``EOFError`` at the end) or a text stream;
    ``output`` a function taking one line or a text stream. ``seed`` makes the dice and the
    computer players' choices reproducible. ``locale`` (``en``, ``de``, ``de-DE``, ...) picks the
    catalog for everything printed and is the table's locale; missing texts fall back to English.
    """
    write, auto_color = _writer(output)
    read = _reader(input, write)
    locale = normalise(locale)

    def error(message: object) -> int:
        write(t("terminal.error", locale, message=message))
        return 2

    game = game.strip().lower()
    if game not in available_games():
        return error(t("terminal.unknown_game", locale, game=repr(game), games=", ".join(available_games())))
    engine = get_engine(game)
    try:
        fewest, most = engine.player_range(engine.options(options or {}))
    except (ValueError, TypeError) as problem:
        return error(t("terminal.invalid_option", locale, error=problem))
    try:
        listed = parse_levels(level, locale)
    except ValueError as problem:
        return error(problem)
    seats = seat_count(players, listed, fewest)
    if not fewest <= seats <= most:
        name = t(f"game.{game}", locale)
        key = "terminal.player_count" if players is not None or len(listed) == 1 else "terminal.level_seats"
        counts = {"fewest": fewest, "most": most, "fewest_levels": max(2, fewest - 1), "most_levels": most - 1}
        return error(t(key, locale, game=name, players=seats, count=len(listed), **counts))
    players = seats
    try:
        levels = resolve_levels(listed, players - 1, locale)
    except ValueError as problem:
        return error(problem)
    if chooser is None and any(lv != "random" for lv in levels):
        try:
            chooser = default_chooser(game, locale)
        except RuntimeError as problem:
            return error(problem)
    dice: DiceSource = SecureDice() if seed is None else SeededDice(f"{seed}:dice")
    rng = random.Random() if seed is None else random.Random(f"{seed}:ai")
    session = TerminalGame(
        game,
        players,
        levels,
        options or {},
        dice,
        rng,
        read=read,
        write=write,
        pause=pause,
        name=name,
        database=database,
        chooser=chooser,
        color=auto_color if color is None else color,
        width=width,
        locale=locale,
    )
    return await session.run()


PLAY_DESCRIPTION = """\
Play a Dice Tavern game in the terminal against computer players, with the
same rules and table service as on Discord.

At the prompt, type a move by its number or its words (roll, end round,
griffin ...), a Liar's Dice bid as quantity and face (3x5 or 3 5), or a Mia
value (53, mia). 'rules' shows this table's rules, 'help' the commands, 'quit'
(or Ctrl-D) leaves; Tab completes a move's words."""

PLAY_EPILOG = """\
examples:
  dicetavern play pig --players 3 --level hard -o target=50
  dicetavern play liar --level easy,hard -o raise_rule=pirates
      (you and two computer players, one easy and one hard)
  dicetavern play mythic --players 4 --seed 7"""


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.description = parser.description or PLAY_DESCRIPTION
    parser.epilog = parser.epilog or PLAY_EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the examples' lines
    parser.add_argument("game", help=", ".join(available_games()))
    parser.add_argument(
        "--players",
        "-p",
        type=int,
        metavar="N",
        help="seats in all, you included (default: one computer player per level of a --level list; "
        "else 2, or the game's minimum)",
    )
    parser.add_argument(
        "--level",
        "-l",
        default="normal",
        metavar="LEVEL[,LEVEL...]",
        help=f"the computer players' level ({', '.join(known_levels())}; default normal) for all of them, "
        "or a list with one level per computer player, e.g. easy,hard",
    )
    add_option_argument(parser)
    parser.add_argument("--seed", help="reproducible dice and computer choices")
    parser.add_argument(
        "--pause",
        type=float,
        default=DEFAULT_PAUSE,
        help=f"seconds before each computer move (default {DEFAULT_PAUSE})",
    )
    parser.add_argument("--name", default=DEFAULT_NAME, help=f"your name at the table (default {DEFAULT_NAME})")
    parser.add_argument(
        "--locale",
        default=DEFAULT,
        help=f"the language of the table and of everything printed, e.g. de (default {DEFAULT}; "
        "texts not yet translated are shown in English)",
    )
    parser.set_defaults(handler=main_from_args)
    return parser


def main_from_args(
    args: argparse.Namespace, input: InputFn | TextIO | None = None, output: OutputFn | TextIO | None = None
) -> int:
    coro = play(
        args.game,
        args.players,
        args.level,
        options_dict(args.option),
        args.seed,
        input=input,
        output=output,
        pause=max(0.0, args.pause),
        name=args.name,
        locale=args.locale,
    )
    # Not asyncio.run: its SIGINT handler would swallow the first Ctrl-C while input() blocks.
    loop = asyncio.new_event_loop()
    task = loop.create_task(coro)
    try:
        return loop.run_until_complete(task)
    except KeyboardInterrupt:  # during a computer's pause: let the game close its store, then go
        task.cancel()
        try:
            loop.run_until_complete(task)
        except BaseException:  # noqa: BLE001 - the cancellation we asked for
            pass
        print("\n" + t("terminal.interrupted", args.locale), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output went to a pager or `head` that has closed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def build_parser() -> argparse.ArgumentParser:
    return add_arguments(argparse.ArgumentParser(prog="dicetavern play"))


def main(argv: list[str] | None = None) -> int:
    return main_from_args(build_parser().parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
