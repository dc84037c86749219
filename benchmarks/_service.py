"""Driving the real TableService from benchmarks: a no-op store, tables of every game, simple legal players."""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from bot.games import Action, get_engine
from bot.tables import Seat, TableService

GUILD = 1
GAMES = ("pig", "mia", "mex", "liar", "mythic")  # every game the bot ships
PIG_OPTIONS = {"target": 500}  # the largest target the rules allow: a game lasts ~600 actions
HOLD_AT = 20  # the benchmark player holds once its turn total reaches 20 (the classic "hold at 20")
SNOWFLAKE = 1_250_000_000_000_000_000  # interaction ids look like Discord's (19 digits)


class NullStore:
    """Persistence switched off: what TableService uses from ``Store``, doing nothing.

    ``write`` returns one lastrowid-like number per statement (``create`` takes the first as the game id);
    ``fetch_all``/``fetch_one`` find nothing. The statements are still built by the service (state JSON and
    all), so the difference to the real store is SQLite and the hop to its thread, not serialisation.
    """

    path = ":null:"

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.batches = 0
        self.statements = 0

    async def write(self, statements: Iterable[Any]) -> list[int | None]:
        ids = [next(self._ids) for _ in statements]
        self.batches += 1
        self.statements += len(ids)
        return ids

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return []

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return None

    async def close(self) -> None:
        pass


def seats_for(game: str) -> int:
    """Players per table: the fewest the game allows with its default options (Mythical Dice: 3, the rest 2)."""
    engine = get_engine(game)
    return engine.player_range(engine.options())[0]


def players(channel: int, count: int = 2) -> list[Seat]:
    return [Seat(channel * 10 + i + 1, f"{'ABCDEFGH'[i]}{channel}") for i in range(count)]


def options_for(game: str) -> dict[str, Any] | None:
    return PIG_OPTIONS if game == "pig" else None  # the others: their defaults


async def open_table(service: TableService, channel: int, game: str = "pig", options: dict[str, Any] | None = None):
    """Create, join and start a table of ``game`` in ``channel`` (the path a lobby takes)."""
    seats = players(channel, seats_for(game))
    await service.create(GUILD, channel, seats[0], game, options if options is not None else options_for(game))
    for seat in seats[1:]:
        await service.join(channel, seat)
    return await service.start_game(channel, seats[0].id)


async def open_pig(service: TableService, channel: int, options: dict[str, Any] | None = None) -> None:
    await open_table(service, channel, "pig", options or PIG_OPTIONS)


def game_of(channel: int, games: Sequence[str]) -> str:
    """The game a benchmark channel plays: ``games`` dealt round-robin over the channels."""
    return games[channel % len(games)]


async def play_moves(service: TableService, channels: Sequence[int], moves: int) -> None:
    """``moves`` moves at each table (fewer where its game ends), 1,000 tables at a time, each with an interaction id
    as the cogs pass one."""
    ids = itertools.count(SNOWFLAKE)

    async def play(channel: int) -> None:
        for _ in range(moves):
            table = service.by_channel.get(channel)
            if table is None:
                return
            user, action = next_move(table)
            await service.act(channel, user, action, str(next(ids)))
            await asyncio.sleep(0)

    for i in range(0, len(channels), 1000):
        await asyncio.gather(*(play(c) for c in channels[i : i + 1000]))


async def open_many(
    service: TableService, channels: Sequence[int], chunk: int = 200, games: Sequence[str] = ("pig",)
) -> None:
    for i in range(0, len(channels), chunk):
        await asyncio.gather(*(open_table(service, c, game_of(c, games)) for c in channels[i : i + chunk]))


def next_move(table: Any, rng: random.Random | None = None) -> tuple[int, Action | str]:
    """(user id, action) for a player the table waits for.

    Pig: roll until the turn total reaches HOLD_AT, then hold (games long enough to hold 300 moves). The other
    games: a seat chosen at random among those to act, and a uniformly random one of its ``legal_actions``.
    """
    state = table.state
    if table.game == "pig":
        return table.seats[state.current].id, ("hold" if state.turn_total >= HOLD_AT else "roll")
    rng = rng or random
    engine = table.engine
    waiting = engine.to_act(state)
    seat = waiting[0] if len(waiting) == 1 else rng.choice(waiting)
    return table.seats[seat].id, rng.choice(engine.legal_actions(state, seat))


def bot_gc(on: bool = True) -> Callable[[], None]:
    """The garbage-collector tuning the bot applies once start-up is done (``bot.client.tune_gc``: collect, freeze
    what exists, raise the thresholds), so a benchmark measures the service as the bot runs it; returns the undo.
    The bot's full collection every 5 minutes is not run (one would fall in a 5 s window at most every 60 runs)."""
    if not on:
        return lambda: None
    try:
        from bot.client import tune_gc
    except ImportError:  # a tree from before the tuning
        return lambda: None
    saved = tune_gc()

    def undo() -> None:
        gc.unfreeze()
        gc.set_threshold(*saved)

    return undo
