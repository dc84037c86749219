"""The store's base: the interface both backends implement, and the group commit they share. It knows no backend.

``bot.store.open_store(target)`` picks the backend (bot.store.sqlite or bot.store.postgres) and starts the
writer. Every write goes through that one writer task: whatever is pending when it wakes is committed in a single
transaction, so a thousand tables acting at once cost one commit, not a thousand awaits. A failed batch is retried
write by write, so one bad statement fails only its own write. A store with a ``fence`` (bot.store.leases) first
checks, in that transaction, that this process still holds its shards. A batch that fails because the database is
out (``Store.unavailable``: a stopped server, a full disk, a lock held past the timeout) is not retried write by
write and logs no traceback: ``Store.outage`` (bot.store.outage) says once that the database is gone, and once
that it is back.

Durability (``DICETAVERN_DURABILITY``, read when the store is opened): ``full`` (the default) or ``fast``; what
each means on each backend is in that backend's notes (SQLite: ``synchronous=FULL`` or ``NORMAL`` under WAL;
PostgreSQL: ``synchronous_commit`` on or off for the writer).
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from bot.paths import POSTGRES_SCHEMES
from bot.store.outage import Outage, described
from bot.store.sql import SQL, Cursor, Statement, Step

log = logging.getLogger(__name__)

__all__ = [
    "DURABILITIES",
    "SQL",
    "Cursor",
    "Fence",
    "LeaseLost",
    "Statement",
    "Step",
    "Store",
    "Write",
    "durability_setting",
    "parse_target",
]

Write = list[Statement | Step]

DURABILITY_ENV = "DICETAVERN_DURABILITY"
DURABILITIES = ("full", "fast")


def durability_setting(value: str | None = None) -> str:
    """``value`` or the environment's setting: ``full`` (the default) or ``fast``; anything else is refused."""
    chosen = (value if value is not None else os.environ.get(DURABILITY_ENV, "")).strip().lower() or "full"
    if chosen not in DURABILITIES:
        raise ValueError(f"{DURABILITY_ENV} must be one of {', '.join(DURABILITIES)}, not {chosen!r}")
    return chosen


def parse_target(target: str | Path) -> tuple[str, str]:
    """``(dialect, where)``: ("postgresql", the URL) or ("sqlite", the file's path)."""
    text = str(target)
    if text.startswith(POSTGRES_SCHEMES):
        return "postgresql", text
    if text.startswith("sqlite:"):
        text = text.removeprefix("sqlite:")
        if text.startswith("//"):  # sqlite:///abs/path or sqlite://rel (URL style)
            text = text[2:]
    if not text:
        raise ValueError("an empty SQLite path")
    return "sqlite", text


class LeaseLost(Exception):
    """This process no longer holds a shard's lease: another took it over (or it was released)."""

    def __init__(self, shard: int, holder: str) -> None:
        super().__init__(f"lost the lease on shard {shard} to {holder or 'nobody'}")
        self.shard = shard
        self.holder = holder


class Fence(Protocol):
    """What a store checks at the start of every write batch (``bot.store.leases.Leases`` is one)."""

    lost: bool

    @property
    def check_sql(self) -> SQL: ...

    @property
    def check_params(self) -> Sequence[Any]: ...

    def verify(self, rows: Sequence[Any]) -> LeaseLost | None: ...


class Store:
    """One database. Reads go straight through; writes are group-committed. A backend subclasses it and provides
    ``_commit``, ``_shut``, ``fetch_all`` and ``fetch_one``; ``bot.store.open_store`` opens one."""

    dialect: str  # "sqlite" or "postgresql"
    _loop: asyncio.AbstractEventLoop  # the writer's loop, set by start(): write() makes its futures there

    def __init__(self, target: str, durability: str = "full") -> None:
        self.target = target
        self.durability = durability
        # The next transaction's writes, in arrival order, each with the future its writer awaits.
        self._pending: list[tuple[Write, asyncio.Future[list[int | None]]]] = []
        self._wake = asyncio.Event()
        self._busy = False
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed (benchmarks report it)
        self.fence: Fence | None = None  # bot.store.leases.Leases: checked in every write batch
        self._lost: LeaseLost | None = None  # set once the fence fails: every later write is refused
        # the database's state, for the operator's log
        self.outage = Outage(described(getattr(self, "dialect", "sqlite"), target))

    def start(self) -> None:
        """Start the writer task (once the backend is connected and migrated): writes are taken from then on."""
        if self._writer is None:
            self._loop = asyncio.get_running_loop()
            self._writer = asyncio.create_task(self._write_loop(), name="store-writer")

    async def close(self) -> None:
        if self._writer is not None:
            while self._pending or self._busy:  # let every acknowledged write land
                await asyncio.sleep(0.001)
            self._writer.cancel()
            try:
                await self._writer
            except asyncio.CancelledError:
                pass
            self._writer = None
        await self._shut()

    # -- what each backend provides -------------------------------------------------------------

    async def _commit(self, writes: list[Write]) -> list[list[int | None]]:
        """Commit ``writes`` in one transaction (after the fence's check); each write's results."""
        raise NotImplementedError

    async def _shut(self) -> None:
        raise NotImplementedError

    def unavailable(self, error: BaseException) -> bool:
        """Whether ``error`` means the database cannot be reached or used now (not that a statement is wrong).
        Here the OS's refusals (a full disk, a lost mount); each backend adds its driver's."""
        return isinstance(error, OSError)

    async def fetch_all(self, sql: str | SQL, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def fetch_one(self, sql: str | SQL, params: Sequence[Any] = ()) -> Any | None:
        raise NotImplementedError

    # -- writes -------------------------------------------------------------------------------

    async def write(self, statements: Iterable[Statement | Step]) -> list[int | None]:
        """Commit ``statements`` atomically (with whatever else is pending); returns each one's result: SQLite's
        lastrowid, or the first column a RETURNING statement answered (None for a ``Step``, and on PostgreSQL for a
        statement without RETURNING). Raises ``LeaseLost`` once the store's fence has failed."""
        if self._writer is None:
            raise RuntimeError("store is closed")
        if self._lost is not None:
            raise self._lost
        future: asyncio.Future[list[int | None]] = self._loop.create_future()
        # a list is taken as it is: its writer awaits the commit, so nothing changes it while it waits
        self._pending.append((statements if type(statements) is list else list(statements), future))
        self._wake.set()
        return await future

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []  # writes from now on gather for the next transaction
            if not batch:
                continue
            self._busy = True
            try:
                results = await self._commit_all([s for s, _ in batch])
            finally:
                self._busy = False
            self.batches += 1
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if isinstance(result, Exception):
                    future.set_exception(result)
                else:
                    future.set_result(result)

    async def _commit_all(self, writes: list[Write]) -> list[Any]:
        """Each write's results, or the exception that failed it."""
        if self._lost is not None:
            return [self._lost] * len(writes)
        try:
            committed = list(await self._commit(writes))
        except LeaseLost as lost:
            return [self._lose(lost)] * len(writes)
        except Exception as error:  # one bad statement must not fail the others' writes
            if self.unavailable(error):  # nothing can commit now: each write fails, the outage is said once
                self.outage.failed(error)
                return [error] * len(writes)
            log.exception("group commit failed; retrying one by one")
        else:
            self.outage.answered()
            return committed
        results: list[Any] = []
        for statements in writes:
            if self._lost is not None:
                results.append(self._lost)
                continue
            try:
                results.append((await self._commit([statements]))[0])
                self.outage.answered()
            except LeaseLost as lost:
                results.append(self._lose(lost))
            except Exception as single:  # noqa: BLE001
                if self.unavailable(single):
                    self.outage.failed(single)
                results.append(single)
        return results

    def _lose(self, lost: LeaseLost) -> LeaseLost:
        if self._lost is None:
            self._lost = lost
            if self.fence is not None:
                self.fence.lost = True
            log.error("%s; this process stops writing", lost)
        return self._lost
