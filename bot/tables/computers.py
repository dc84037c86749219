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


class Computers:
    """One task per computer player whose turn it is. ``enabled`` False: the caller moves them (terminal play)."""

    def __init__(self, tables: TablePort, delay: tuple[float, float], enabled: bool) -> None:
        self.tables = tables
        self.delay = delay  # (shortest, longest) pause in seconds before a move
        self.enabled = enabled
        self._rng = random.Random(secrets.randbits(64))
        self._tasks: dict[tuple[int, int], asyncio.Task[None]] = {}

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

    async def _move(self, table: Table, seat: int) -> None:
        key = (table.id, seat)
        try:
            lo, hi = self.delay
            await asyncio.sleep(self._rng.uniform(lo, hi) if hi > 0 else 0)
            if not table.running or seat not in table.engine.to_act(table.state):
                return
            from bot import ai  # computer players are optional at import time: numpy-free, but not tiny

            view = table.engine.view(table.state, seat)
            legal = table.engine.legal_actions(table.state, seat)
            level = table.seats[seat].level or "normal"
            action = await asyncio.to_thread(ai.choose, table.game, view, level, self._rng, legal)
            self._tasks.pop(key, None)  # act() may schedule this seat's next move
            await self.tables.act(table.channel_id, table.seats[seat].id, action)
        except (TableError, IllegalMove):
            log.info("computer player %s at table %s was overtaken; retrying", seat, table.id)
            self._tasks.pop(key, None)
            self.schedule(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player %s at table %s failed; its deadline will move the game", seat, table.id)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
