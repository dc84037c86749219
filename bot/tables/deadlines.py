"""Deadlines: when a turn (or an idle lobby) runs out, and when a turn is half over.

Each open table has one deadline in the database; here it sits in a heap that one dispatcher task fires (or the
caller fires through ``run_due()`` when there is no dispatcher). A due turn gives everyone still to act the game's
timeout action; ``MAX_TIMEOUTS`` in a row forfeit the seat. A due lobby closes. Half of each turn's time is a
second heap: the people still to act then get a reminder from the presenter. A presenter may hold a due turn back
(``may_expire``: a table on an interaction's message that nobody can see now); its next click applies it. What a
due deadline does to a table goes through the service's port (``bot.tables.port.TablePort``: ``expire``, ``close``).
"""

from __future__ import annotations

import asyncio
import heapq
import logging
from collections.abc import Callable
from typing import Any

from bot.games import Event
from bot.games.logged import TIMEOUT
from bot.tables.model import Entry, Table
from bot.tables.port import TablePort

log = logging.getLogger(__name__)

MAX_TIMEOUTS = 3  # consecutive timeouts before a player forfeits


def forfeit_events(events: list[Event], why: str) -> list[Event]:
    """An engine's forfeit events, each tagged with why the seat forfeited (``leave``, ``timeouts``, …):
    the log says "forfeited after missed turns" rather than "left" (see ``bot.render.event_text``)."""
    extra = {"why": why, "missed": MAX_TIMEOUTS} if why == "timeouts" else {"why": why}
    return [Event(e.kind, {**e.data, **extra}, e.to) for e in events]


def timed_out(table: Table, draw: Callable[..., tuple[Any, str | None]]) -> tuple[Any, list[Event], list[Entry]]:
    """Every seat still to act times out (the game's timeout action); the ``MAX_TIMEOUTS``-th in a row forfeits the
    seat. The new state, its events and the log entries; ``draw(table, engine_call, *args)`` records the dice
    (``TableDice.draw``). The table's timeout counters move here, the rest is the caller's to commit."""
    engine, state = table.engine, table.state
    events: list[Event] = []
    entries: list[Entry] = []
    for seat in engine.to_act(state):
        if engine.is_over(state) or seat not in engine.to_act(state):
            continue
        (state, happened), dice = draw(table, engine.timeout, state, seat)
        events += happened
        entries.append((seat, TIMEOUT, None, dice))
        table.timeouts[seat] += 1
        if table.timeouts[seat] >= MAX_TIMEOUTS and not engine.is_over(state):
            (state, happened), dice = draw(table, engine.forfeit, state, seat)
            events += forfeit_events(happened, "timeouts")
            entries.append((seat, "forfeit:timeouts", None, dice))
    return state, events, entries


class Deadlines:
    """The table service's timers. ``tables`` supplies the tables and the clock, and applies what expires."""

    def __init__(self, tables: TablePort) -> None:
        self.tables = tables
        # One heap entry per table: a later deadline is picked up from the table when the earlier pops.
        self.heap: list[tuple[float, int, int]] = []  # (due, game id, version)
        self._armed: dict[int, float] = {}  # game id -> its entry's due in the heap
        # Turn reminders: the half-time point of each running table's current turn, fired like a deadline.
        self._half: dict[int, tuple[float, int]] = {}  # game id -> (half time, version) of its current turn
        self._half_heap: list[tuple[float, int]] = []  # (half time, game id); one entry per table, like heap
        self._half_armed: dict[int, float] = {}
        self._reminded: dict[int, int] = {}  # game id -> the version whose reminder the presenter was given
        self._wake = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None

    def arm(self, game_id: int, due: float, version: int) -> None:
        armed = self._armed.get(game_id)
        if armed is None or due < armed:
            self._armed[game_id] = due
            heapq.heappush(self.heap, (due, game_id, version))
            self._wake.set()

    def arm_half(self, game_id: int, at: float, version: int) -> None:
        """``at`` is half of the turn of ``version``: remind whoever has not acted by then."""
        self._half[game_id] = (at, version)
        armed = self._half_armed.get(game_id)
        if armed is None or at < armed:
            self._half_armed[game_id] = at
            heapq.heappush(self._half_heap, (at, game_id))
            self._wake.set()

    def arm_turn(self, game_id: int, due: float, half: float, version: int) -> None:
        """A move's new turn: ``arm(game_id, due, version)`` and ``arm_half(game_id, half, version)`` in one call
        (every move makes both)."""
        armed = self._armed.get(game_id)
        if armed is None or due < armed:
            self._armed[game_id] = due
            heapq.heappush(self.heap, (due, game_id, version))
            self._wake.set()
        self._half[game_id] = (half, version)
        armed = self._half_armed.get(game_id)
        if armed is None or half < armed:
            self._half_armed[game_id] = half
            heapq.heappush(self._half_heap, (half, game_id))
            self._wake.set()

    def rearm(self, table: Table, turn_began: float | None) -> None:
        """A restored table's deadline, and the half of its turn (``turn_began``: when its last move was made); a
        turn already past half time is reminded at once."""
        if table.deadline is not None:
            self.arm(table.id, table.deadline, table.version)
            if turn_began is not None:
                self.arm_half(table.id, (turn_began + table.deadline) / 2, table.version)

    def forget(self, game_id: int) -> None:
        """The table closed or finished: no reminder for it any more (its deadline entry is skipped when due)."""
        self._half.pop(game_id, None)
        self._reminded.pop(game_id, None)

    def presenter_changed(self) -> None:
        """A reminder that fell due before the new presenter (a turn past half time across a restart) is given
        again to it; it keeps the ones it already shows."""
        self._reminded.clear()
        for game_id, (at, version) in list(self._half.items()):
            self.arm_half(game_id, at, version)

    # -- the dispatcher -----------------------------------------------------------------------

    def start(self) -> None:
        self._dispatcher = asyncio.create_task(self._dispatch_loop(), name="deadline-dispatcher")

    async def stop(self) -> None:
        if self._dispatcher:
            self._dispatcher.cancel()
            try:
                await self._dispatcher
            except asyncio.CancelledError:
                pass
            self._dispatcher = None

    async def _dispatch_loop(self) -> None:
        while True:
            await self.run_due()
            self._wake.clear()
            tops = [heap[0][0] for heap in (self.heap, self._half_heap) if heap]
            delay = max(0.0, min(tops) - self.tables.clock()) if tops else None
            try:
                await asyncio.wait_for(self._wake.wait(), delay)
            except TimeoutError:
                pass

    async def run_due(self, now: float | None = None) -> int:
        """Fire every deadline due by ``now``; returns how many fired (stale ones are skipped)."""
        now = self.tables.clock() if now is None else now
        fired = 0
        while self.heap and self.heap[0][0] <= now:
            due, game_id, _ = heapq.heappop(self.heap)
            if self._armed.get(game_id) == due:
                del self._armed[game_id]
            table = self.tables.table_by_id(game_id)
            if table is None or table.deadline is None:
                continue  # closed, or finished
            if table.deadline > now:  # the table moved on: its deadline is later now
                self.arm(game_id, table.deadline, table.version)
                continue
            may_expire = getattr(self.tables.presenter, "may_expire", None)
            if table.running and may_expire is not None and not may_expire(table):
                continue  # nobody can see the table now (its presenter says): its next click gives the default move
            try:
                fired += await self._expire(table, table.version)
            except Exception:
                log.exception("deadline of game %s failed", game_id)
        await self._fire_halves(now)  # after the deadlines: a turn that just timed out needs no reminder
        return fired

    # -- what a due deadline does -------------------------------------------------------------

    async def _expire(self, table: Table, version: int) -> int:
        """A lobby left idle closes; a running game's seats still to act time out."""
        if table.status == "lobby":
            return int(await self.tables.close(table, "expired", version))
        return int(await self.tables.expire(table, version))

    # -- turn reminders -----------------------------------------------------------------------

    async def _fire_halves(self, now: float) -> None:
        while self._half_heap and self._half_heap[0][0] <= now:
            at, game_id = heapq.heappop(self._half_heap)
            if self._half_armed.get(game_id) == at:
                del self._half_armed[game_id]
            half, table = self._half.get(game_id), self.tables.table_by_id(game_id)
            if half is None or table is None or not table.running:
                continue
            if half[0] > now:  # the table moved on: its current turn is half over later
                self.arm_half(game_id, *half)
                continue
            if half[1] == table.version and self._reminded.get(game_id) != table.version:
                await self._remind(table)

    async def _remind(self, table: Table) -> None:
        """Half of the turn time is gone: the people still to act get a reminder (computer players never),
        unless the server turned reminders off. The presenter posts it and deletes it once the table moves."""
        remind = getattr(self.tables.presenter, "remind", None)
        if remind is None or table.deadline is None or not await self.tables.reminders_on(table.guild_id):
            return
        self._reminded[table.id] = table.version
        people = [table.seats[s].id for s in table.engine.to_act(table.state) if not table.seats[s].is_bot]
        if people:
            try:
                remind(table, people, table.deadline)
            except Exception:  # a reminder is a courtesy: it must never stop the dispatcher
                log.exception("reminder for game %s failed", table.id)
