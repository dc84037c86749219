"""Driving the real TableService from benchmarks: a no-op store, Pig tables, a sensible Pig player."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from bot.tables import Seat, TableService

GUILD = 1
PIG_OPTIONS = {"target": 500}  # the largest target the rules allow: a game lasts ~600 actions
HOLD_AT = 20  # the benchmark player holds once its turn total reaches 20 (the classic "hold at 20")


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


def players(channel: int) -> tuple[Seat, Seat]:
    return Seat(channel * 10 + 1, f"A{channel}"), Seat(channel * 10 + 2, f"B{channel}")


async def open_pig(service: TableService, channel: int, options: dict[str, Any] | None = None) -> None:
    """Create, join and start a two-player Pig table in ``channel`` (the path a lobby takes)."""
    a, b = players(channel)
    await service.create(GUILD, channel, a, "pig", options or PIG_OPTIONS)
    await service.join(channel, b)
    await service.start_game(channel, a.id)


async def open_many(service: TableService, channels: Sequence[int], chunk: int = 200) -> None:
    for i in range(0, len(channels), chunk):
        await asyncio.gather(*(open_pig(service, c) for c in channels[i : i + chunk]))


def next_move(table: Any) -> tuple[int, str]:
    """(user id, action text) for the player on turn: roll until the turn total reaches HOLD_AT, then hold."""
    state = table.state
    return table.seats[state.current].id, ("hold" if state.turn_total >= HOLD_AT else "roll")
