"""The terminal game: one person (seat 0) against computer players, through the real table service.

The game runs through the same :class:`~bot.tables.TableService` as on Discord (lobby, start, ``act``; every
move committed to a SQLite store, ``:memory:`` by default) with a
:class:`~bot.terminal.presenter.TerminalPresenter` in place of the Discord one. The computer players are seats
1..N-1 (``Seat`` with a level and a negative id) and move through ``bot.ai.choose`` from their own seat's view,
after a short pause so a person can follow; the person's turns are :class:`~bot.terminal.prompt.Prompt`'s.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.games import Action, InvalidOptions, available_games, get_engine
from bot.games.dice import DiceSource
from bot.games.fair import FairDice
from bot.i18n import DEFAULT, SURFACE, has, normalise, t
from bot.render import error_text, option_error_text, seat_names
from bot.replay import export_of
from bot.simulate import Chooser, check_level, computer_move, default_chooser
from bot.store import Store, history, open_store
from bot.tables import Seat, Table, TableError, TableService
from bot.tables.service import DiceFactory
from bot.terminal.console import InputFn, OutputFn, reader, writer
from bot.terminal.presenter import TerminalPresenter
from bot.terminal.prompt import Prompt, Quit

GUILD = CHANNEL = 0  # the terminal's one "server" and "channel"
HUMAN_ID = 1
DEFAULT_PAUSE = 0.8


class TerminalGame:
    def __init__(
        self,
        game: str,
        players: int,
        levels: Sequence[str],
        options: dict[str, Any],
        dice: DiceSource | DiceFactory,
        rng: random.Random,
        *,
        read: InputFn,
        write: OutputFn,
        pause: float = DEFAULT_PAUSE,
        name: str | None = None,
        database: str = ":memory:",
        chooser: Chooser | None = None,
        color: bool = False,
        width: int | None = None,
        locale: str = DEFAULT,
        export: str | None = None,
    ) -> None:
        self.game = game
        self.export = export  # where to write the game's export when it is over (``dicetavern play --export``)
        self.locale = locale
        self.players = players
        self.levels = list(levels)
        self.options = options
        self.dice = dice
        self.rng = rng
        self.pause = pause
        self.name = name or t("terminal.default_name", locale)
        self.database = database
        self.chooser = chooser
        self.presenter = TerminalPresenter(write, 0, color=color, width=width)
        self.prompt = Prompt(read, self.presenter, locale)
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
        store = await open_store(self.database)
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
                if self.export:
                    self.say(self.text("terminal.not_exported"))
                return 0
            self._result()
            if self.export:
                await self._export(store)
            return 0
        finally:
            await self.service.stop()
            await store.close()

    async def _export(self, store: Store) -> None:
        """The finished game as ``/game export`` writes it, for ``dicetavern verify``."""
        assert self.table is not None and self.export is not None
        record = await history.game_record(store, self.table.id)
        assert record is not None
        try:
            Path(self.export).write_text(json.dumps(export_of(record), ensure_ascii=False, indent=1), encoding="utf-8")
        except OSError as error:
            self.say(self.text("terminal.export_failed", path=self.export, error=error))
            return
        self.say(self.text("terminal.exported", path=self.export))

    def level_name(self, level: str) -> str:
        """A computer level in the game's language (the table's Add-a-computer menu's word for it)."""
        key = f"ui.add_bot_{level}"
        return t(key, self.locale).lower() if has(key) else level  # mid-sentence: "(easy, hard)"

    async def _setup(self) -> None:
        assert self.service is not None
        human = Seat(HUMAN_ID, self.name)
        self.table = await self.service.create(GUILD, CHANNEL, human, self.game, self.options, locale=self.locale)
        fair = self.table.fair
        self.say(
            self.text(
                "terminal.intro",
                game=t(f"game.{self.game}", self.locale),
                name=self.name,
                count=len(self.levels),
                levels=", ".join(self.level_name(level) for level in self.levels),
            )
        )
        changed = self.table.engine.options(self.table.options).changed()
        if changed:
            self.say(self.text("terminal.options", options=", ".join(f"{k}={v}" for k, v in changed.items())))
        self.say(self.text("terminal.instructions"))
        if fair is not None:  # public before the game starts; the seed is printed when it ends
            self.say(t("fair.terminal_commitment", self.locale, commitment=fair.commitment))
        for i, level in enumerate(self.levels):
            name = computer_name(level, i, self.levels, self.locale)
            await self.service.add_computer(CHANNEL, HUMAN_ID, level, name)
        await self.service.start_game(CHANNEL, HUMAN_ID)
        fair = self.table.fair
        if fair is not None:  # fixed now: with the commitment above, all a verifier needs but the seed
            self.say(t("fair.terminal_client_seed", self.locale, client_seed=fair.client_seed))

    async def _loop(self) -> None:
        table, service = self.table, self.service
        assert table is not None and service is not None
        engine = table.engine
        watching = False
        while engine.outcome(table.state) is None:
            movers = engine.to_act(table.state)
            if 0 in movers:
                self.presenter.flush(table)
                await self.prompt.turn(table, self._act)
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

    async def _act(self, action: Action) -> None:
        """The person's move, through the table service like a Discord click."""
        assert self.service is not None
        await self.service.act(CHANNEL, HUMAN_ID, action)

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


def seeded_fair_dice(seed: int | str) -> DiceFactory:
    """Fair dice whose server seed is SHA-256 of ``{seed}:dice``: reproducible with ``--seed``, and still one
    documented stream that ``dicetavern verify`` can check (the seed is no secret to whoever chose it)."""
    server_seed = hashlib.sha256(f"{seed}:dice".encode()).digest()
    return lambda: FairDice(server_seed, "")


def computer_name(level: str, index: int, levels: Sequence[str] = (), locale: str = DEFAULT) -> str:
    """``bot.ai.bot_name`` (a tavern regular of that level, distinct per level), else ``Bot N``."""
    try:
        from bot.ai import bot_name

        return bot_name(level, list(levels[:index]).count(level))
    except (ImportError, ValueError, KeyError):
        return t("terminal.bot_name", locale, number=index + 1, level=level)


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
    name: str | None = None,
    database: str = ":memory:",
    chooser: Chooser | None = None,
    color: bool | None = None,
    width: int | None = None,
    locale: str = DEFAULT,
    export: str | None = None,
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
    write, auto_color = writer(output)
    read = reader(input, write)
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
        why = option_error_text(problem, locale) if isinstance(problem, InvalidOptions) else problem
        return error(t("terminal.invalid_option", locale, error=why))
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
    dice = FairDice.new if seed is None else seeded_fair_dice(seed)
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
        export=export,
    )
    return await session.run()
