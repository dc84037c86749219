"""What the rooms around the table service may ask of it, declared: the presenter it shows tables through, and the
port the timers (``bot.tables.deadlines``) and the computer players (``bot.tables.computers``) act through.

``TableService`` implements ``TablePort``; the timers and computer players know only this Protocol, so neither
imports the service nor reaches into it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from bot.games import Action, Event
from bot.tables.model import Table

log = logging.getLogger(__name__)


class Presenter(Protocol):
    """Shows a table to people. Must return quickly: network work is scheduled, not awaited.

    A presenter may also have ``may_expire(table) -> bool`` (False: a due turn waits, see ``Deadlines.run_due``) and
    ``remind(table, user_ids, due)``: the turn of ``table.version`` is half over
    and these people have not acted (see ``Deadlines._remind``). It is called again for the same turn
    when a new presenter is attached, so it must ignore a turn it already reminds about.
    """

    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None: ...


class NullPresenter:
    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None:
        pass


class TablePort(Protocol):
    """The table service as the timers and the computer players see it.

    Every method that changes a table takes the table's lock itself and commits before it publishes, as a
    person's move does; a table handed out here is loaded (restored and up to date).
    """

    clock: Callable[[], float]

    @property
    def presenter(self) -> Presenter: ...

    def table_by_id(self, game_id: int) -> Table | None:
        """The open table of ``game_id``, loaded; None once it is closed (or it could not be restored)."""
        ...

    async def reminders_on(self, guild_id: int) -> bool: ...

    async def act(self, channel_id: int, user_id: int, action: Action | str) -> tuple[Table, list[Event]]:
        """A seat's move, as a person makes it (``TableService.act``)."""
        ...

    async def expire(self, table: Table, version: int) -> bool:
        """The turn of ``version`` ran out: every seat still to act times out (``MAX_TIMEOUTS`` in a row forfeit
        the seat), in one commit. False when the table moved on, or closed, meanwhile (nothing was due then)."""
        ...

    async def close(self, table: Table, reason: str, version: int) -> bool:
        """Close the table (a lobby left idle: ``reason`` "expired") if it is still open at ``version`` with a
        deadline; False when it moved on, or closed, meanwhile."""
        ...


class TableWatcher(Protocol):
    """Another service with a stake in some tables (the tournaments: ``bot.tables.tournaments``), told of each
    table's end after its commit. ``TableService.watchers`` holds them; the service never imports one."""

    async def may_cancel(self, table: Table, user_id: int, is_admin: bool) -> bool | None:
        """Whether ``user_id`` may cancel ``table``; None: not a table of this watcher's (the table's own rule:
        its host or an admin). Called under the table's lock: it must not act on tables."""
        ...

    async def table_closed(self, table: Table) -> None:
        """``table`` finished or was cancelled, committed (its status says which). Called under the table's lock
        (it is out of the lookups already, its channel free): it must return quickly, longer work (opening other
        tables) is its own task. Its errors are logged, not raised: the table's end is committed, and the watcher
        repairs what it missed on its next start-up."""
        ...

    async def settle(self) -> None:
        """Wait for the work ``table_closed`` began (before the store closes; tests: before they look)."""
        ...


class Watchers(list[TableWatcher]):
    """``TableService.watchers``: each one asked in turn, told in turn."""

    async def may_cancel(self, table: Table, user_id: int, is_admin: bool) -> bool | None:
        """The first watcher's say on cancelling ``table`` (None: no watcher claims it)."""
        for watcher in self:
            allowed = await watcher.may_cancel(table, user_id, is_admin)
            if allowed is not None:
                return allowed
        return None

    async def table_closed(self, table: Table) -> None:
        """After a table's end is committed and published: each watcher hears of it."""
        for watcher in self:
            try:
                await watcher.table_closed(table)
            except Exception:  # the end is committed; the watcher catches up at its next start-up
                log.exception("a watcher failed on the end of table %s", table.id)

    async def settle(self) -> None:
        for watcher in self:
            await watcher.settle()
