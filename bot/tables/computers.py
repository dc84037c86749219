"""Computer players at a table: a short, human-looking pause, then a move through the same ``act()`` as people."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets

from bot.games import IllegalMove
from bot.tables.model import Table, TableError
from bot.tables.port import TablePort

log = logging.getLogger(__name__)

RETRY_FIRST, RETRY_CAP = 1.0, 5.0  # seconds: a failed move's first retry, and the longest wait between tries


class Computers:
    """One task per computer player whose turn it is. ``enabled`` False: the caller moves them (terminal play)."""

    def __init__(self, tables: TablePort, delay: tuple[float, float], enabled: bool) -> None:
        self.tables = tables
        self.delay = delay  # (shortest, longest) pause in seconds before a move
        self.enabled = enabled
        self._rng = random.Random(secrets.randbits(64))
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._failures: dict[tuple[int, int], int] = {}  # a move that failed on a storage error: tries in a row
        self.retry_first, self.retry_cap = RETRY_FIRST, RETRY_CAP

    def schedule(self, table: Table) -> None:
        """Start a move for each computer player the table waits for (one that is already thinking keeps on)."""
        if not self.enabled or not table.running or table.state is None:
            return
        self.warm(table)
        for seat in table.engine.to_act(table.state):
            key = (table.id, seat)
            if table.seats[seat].is_bot and key not in self._tasks:
                self._tasks[key] = asyncio.create_task(self._move(table, seat), name=f"bot-{key}")

    @staticmethod
    def warm(table: Table) -> None:
        """Start what the table's computer players need before they move, without waiting for it (``bot.ai.prepare``:
        each game's player module says what, e.g. a table to solve). Cheap when there is nothing to do; the lobby
        may call it as soon as the options are set."""
        levels = [seat.level for seat in table.seats if seat.level is not None]
        if levels:
            from bot import ai  # computer players are optional at import time: numpy-free, but not tiny

            ai.prepare(table.game, table.options, levels)

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks.values()))

    def _again(self, table: Table, seat: int, error: Exception) -> bool:
        """A move that failed on a storage or network error (a full disk, a lost connection): the same move again in
        a few seconds (RETRY_FIRST, doubling up to RETRY_CAP), not at the turn's deadline. False: another error."""
        unavailable = getattr(getattr(self.tables, "store", None), "unavailable", None)  # the service's store
        if not isinstance(error, OSError) and not (unavailable is not None and unavailable(error)):
            return False
        key = (table.id, seat)
        if key in self._tasks and self._tasks[key] is not asyncio.current_task():
            return True  # this seat's move was scheduled again meanwhile
        tries = self._failures.get(key, 0)
        self._failures[key] = tries + 1
        wait = min(self.retry_cap, self.retry_first * 2**tries) * (1 + 0.2 * self._rng.random())
        log.warning(
            "computer player %s at table %s could not move (%s); again in %.1f s",
            seat,
            table.id,
            type(error).__name__,
            wait,
        )
        self._tasks[key] = asyncio.create_task(self._move(table, seat, wait), name=f"bot-{key}")
        return True

    async def _move(self, table: Table, seat: int, pause: float | None = None) -> None:
        key = (table.id, seat)
        try:
            lo, hi = self.delay
            await asyncio.sleep(pause if pause is not None else self._rng.uniform(lo, hi) if hi > 0 else 0)
            if not table.running or seat not in table.engine.to_act(table.state):
                return
            from bot import ai  # computer players are optional at import time: numpy-free, but not tiny

            view = table.engine.view(table.state, seat)
            legal = table.engine.legal_actions(table.state, seat)
            level = table.seats[seat].level or "normal"
            action = await asyncio.to_thread(ai.choose, table.game, view, level, self._rng, legal)
            self._tasks.pop(key, None)  # act() may schedule this seat's next move
            await self.tables.act(table.channel_id, table.seats[seat].id, action)
            self._failures.pop(key, None)
        except (TableError, IllegalMove):
            log.info("computer player %s at table %s was overtaken; retrying", seat, table.id)
            self._tasks.pop(key, None)
            self.schedule(table)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if not self._again(table, seat, error):
                log.exception("computer player %s at table %s failed; its deadline will move the game", seat, table.id)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
