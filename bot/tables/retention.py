"""Retention: finished and cancelled games older than the retention period are compacted.

A compacted game keeps its games row (options, seats, final state), its results (leaderboards, stats) and its
move list with every move's dice in ``games.record`` (what verifying the game needs); its per-move rows and
public log are dropped. ``DICETAVERN_RETENTION_DAYS`` sets the period (default 90; 0 keeps everything).
Work goes in batches of ``BATCH`` games per transaction, so a long backlog never holds the writer for long.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.environment import number
from bot.store import Store, repo

log = logging.getLogger(__name__)

RETENTION_ENV = "DICETAVERN_RETENTION_DAYS"
DEFAULT_DAYS = 90.0
BATCH = 200  # games per transaction
INTERVAL = 3600.0  # seconds between passes of the periodic task
DAY = 86_400.0


def retention_days(value: float | str | None = None) -> float:
    """``value`` or the environment's setting, in days; 0 keeps every game forever."""
    return number(RETENTION_ENV, value, DEFAULT_DAYS, what="a number of days (0: keep forever)")


async def compact_expired(
    store: Store, now: float, days: float, batch: int | None = None, owned: str | None = None
) -> int:
    """Compact every game finished more than ``days`` before ``now``, ``batch`` (``BATCH``) per transaction;
    returns how many. ``owned``: an SQL condition on ``guild_id`` (``Shards.sql``): only this process's guilds,
    so two processes never compact the same game."""
    if days <= 0:
        return 0
    batch = batch or BATCH
    done = 0
    while True:
        games = await repo.games_to_compact(store, now - days * DAY, batch, owned)
        if games:
            await store.write([s for game_id in games for s in repo.compact_game(game_id)])
            done += len(games)
        if len(games) < batch:
            return done
        await asyncio.sleep(0)  # let moves in between batches


class Retention:
    """The periodic task: a pass at once (start-up), then one every ``interval`` seconds."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], float],
        days: float,
        interval: float = INTERVAL,
        owned: str | None = None,
    ) -> None:
        self.store, self.clock, self.days, self.interval, self.owned = store, clock, days, interval, owned
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.days > 0 and self._task is None:
            self._task = asyncio.create_task(self._loop(), name="retention")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None

    async def _loop(self) -> None:
        while True:
            try:
                compacted = await compact_expired(self.store, self.clock(), self.days, owned=self.owned)
                if compacted:
                    log.info("compacted %d games older than %g days", compacted, self.days)
            except Exception:
                log.exception("compacting old games failed; trying again later")
            await asyncio.sleep(self.interval)
