"""The PostgreSQL store (asyncpg): the same group commit as SQLite's, for running past one process.

One connection is the writer's: each batch is one transaction on it, in which consecutive statements with the
same text and no result wanted run as one ``executemany`` (asyncpg pipelines them: one round trip, not one per
statement). Reads go to a small pool of their own, so they never wait behind a commit. Statements are prepared
and cached by asyncpg per connection. A ``Step`` runs in a worker thread with a cursor that forwards each call
to the batch's connection on the event loop, so the Python in it never blocks the loop.

A stopped or restarting server, a dropped connection, a refused one, "too many connections" and a full disk are
``unavailable`` (bot.store.outage logs the outage once); the writer reconnects at the next batch.

Migrations: bot/store/migrations/postgresql/NNNN_*.sql, the version in ``schema_version``, each applied under
``pg_advisory_xact_lock`` (per schema) so processes starting together apply each once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]

from bot.store import schema
from bot.store.db import Store, Write
from bot.store.sql import SQL, postgres_text, returns_rows

log = logging.getLogger(__name__)

T = TypeVar("T")
READERS = 3  # the read pool's connections

# What asyncpg raises when the server cannot be used now: connection errors (class 08), a server shutting down or
# starting (57P0x), out of resources (53xxx: a full disk, too many connections); OSError covers a refused connect.
UNAVAILABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
)


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` means the PostgreSQL server cannot be reached or used now."""
    if isinstance(error, UNAVAILABLE):
        return True
    # asyncpg's "connection is closed" (a statement on a connection the server dropped) is an InterfaceError, as are
    # its misuse errors, which are bugs: only the closed connection is the server's doing.
    return isinstance(error, asyncpg.InterfaceError) and "closed" in str(error)


def _text(sql: str | SQL) -> str:
    return postgres_text(sql if isinstance(sql, str) else sql.postgresql)


def _rowcount(status: str) -> int:
    """The row count in a command status ("UPDATE 3", "INSERT 0 1"); -1 when it has none."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class BridgeCursor:
    """A ``Step``'s cursor on PostgreSQL: used from a worker thread, each call runs on the event loop on the
    connection of the batch's transaction."""

    dialect = "postgresql"

    def __init__(self, conn: asyncpg.Connection, loop: asyncio.AbstractEventLoop) -> None:
        self._conn = conn
        self._loop = loop
        self._rows: list[Any] = []
        self._at = 0
        self.rowcount = -1

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def execute(self, sql: str | SQL, parameters: Sequence[Any] = (), /) -> BridgeCursor:
        text = _text(sql)
        if returns_rows(text):
            self._rows = self._run(self._conn.fetch(text, *parameters))
            self.rowcount = len(self._rows)
        else:
            self._rows = []
            self.rowcount = _rowcount(self._run(self._conn.execute(text, *parameters)))
        self._at = 0
        return self

    def executemany(self, sql: str | SQL, seq_of_parameters: Iterable[Sequence[Any]], /) -> BridgeCursor:
        args = [tuple(p) for p in seq_of_parameters]
        if args:
            self._run(self._conn.executemany(_text(sql), args))
        self._rows, self._at, self.rowcount = [], 0, -1
        return self

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rows, self._at = self._rows[self._at :], len(self._rows)
        return rows


class PoolFloor(logging.Filter):
    """On the ``asyncpg.pool`` logger: the read pool, whose connection the server dropped, reconnects in the
    background and logs a WARNING with a traceback at every failure (1, 2, 4 ... 60 s apart). A failure that is
    the server's is the store's outage (said once), not a line of its own."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__()
        self.store = store

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is None or not self.store.unavailable(error):
            return True
        self.store.outage.failed(error)
        return False


class PostgresStore(Store):
    """One PostgreSQL database (or schema: ``?search_path=`` in the URL)."""

    dialect = "postgresql"

    def __init__(self, url: str, durability: str, writer: asyncpg.Connection, readers: asyncpg.Pool) -> None:
        super().__init__(url, durability)
        self.url = url
        self._conn: asyncpg.Connection | None = writer
        self._readers: asyncpg.Pool | None = readers
        self._steps = ThreadPoolExecutor(1, thread_name_prefix="store-steps")
        self._pool_floor = PoolFloor(self)
        logging.getLogger("asyncpg.pool").addFilter(self._pool_floor)

    @classmethod
    async def connect(cls, url: str, durability: str) -> PostgresStore:
        writer = await cls._connect_writer(url, durability)
        try:
            readers = await asyncpg.create_pool(url, min_size=1, max_size=READERS)
        except BaseException:
            await writer.close()
            raise
        store = cls(url, durability, writer, readers)
        try:
            await store._migrate(writer)
        except BaseException:
            await store._shut()
            raise
        return store

    @staticmethod
    async def _connect_writer(url: str, durability: str) -> asyncpg.Connection:
        conn: asyncpg.Connection = await asyncpg.connect(url)
        if durability == "fast":  # the commit answers before the WAL is flushed, as SQLite's NORMAL
            await conn.execute("SET synchronous_commit = off")
        return conn

    def unavailable(self, error: BaseException) -> bool:
        return unavailable(error)

    async def _writer_conn(self) -> asyncpg.Connection:
        if self._conn is None:
            raise RuntimeError("store is closed")
        if self._conn.is_closed():  # the server restarted or dropped us: the next batch reconnects
            # A reconnect that fails is an outage (its WARNING says so once); one that works is worth a line only
            # outside an outage (the outage's INFO says the database is back).
            self._conn = await self._connect_writer(self.url, self.durability)
            if not self.outage.down:
                log.info("the writer's PostgreSQL connection had been closed (a server restart?); reconnected")
        return self._conn

    async def _shut(self) -> None:
        logging.getLogger("asyncpg.pool").removeFilter(self._pool_floor)
        conn, self._conn = self._conn, None
        readers, self._readers = self._readers, None
        try:
            if conn is not None:
                await conn.close()
        finally:
            if readers is not None:
                await readers.close()
            self._steps.shutdown(wait=False)

    async def _in_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._steps, fn, *args)

    # -- writes ---------------------------------------------------------------------------------

    async def _commit(self, writes: list[Write]) -> list[list[int | None]]:
        """The batch in one transaction. A connection the server dropped before the batch's COMMIT was sent
        (a terminated backend, a restart noticed only now) committed nothing: the batch runs once more on a new
        one, rather than refusing presses the next batch would take. Dropped during the COMMIT, the outcome is
        unknown: that is not tried again (it would apply twice), and fails as an outage does."""
        sent: list[bool] = []
        try:
            return await self._commit_once(writes, sent)
        except Exception as error:
            if sent or self._conn is None or not self._conn.is_closed() or not unavailable(error):
                raise
            log.info("the writer's PostgreSQL connection was dropped before its batch committed; trying it again")
            return await self._commit_once(writes, [])

    async def _commit_once(self, writes: list[Write], sent: list[bool]) -> list[list[int | None]]:
        """``sent`` gets an item once the COMMIT is about to be sent."""
        conn = await self._writer_conn()
        loop = asyncio.get_running_loop()
        results: list[list[int | None]] = [[None] * len(statements) for statements in writes]
        run_text: str | None = None  # the statement gathered for one executemany, and its parameters
        run_args: list[Sequence[Any]] = []

        async def flush() -> None:
            nonlocal run_text
            if run_text is None:
                return
            if len(run_args) == 1:
                await conn.execute(run_text, *run_args[0])
            else:
                await conn.executemany(run_text, run_args)
            run_text = None
            run_args.clear()

        async with conn.transaction():
            if self.fence is not None:
                lost = self.fence.verify(await conn.fetch(_text(self.fence.check_sql), *self.fence.check_params))
                if lost is not None:
                    raise lost
            for i, statements in enumerate(writes):
                for j, statement in enumerate(statements):
                    if callable(statement):
                        await flush()
                        await self._in_thread(statement, BridgeCursor(conn, loop))
                        continue
                    sql, params = statement
                    text = _text(sql)
                    if returns_rows(text):  # RETURNING: its first column goes in the statement's slot
                        await flush()
                        results[i][j] = await conn.fetchval(text, *params)
                    elif text == run_text:
                        run_args.append(params)
                    else:
                        await flush()
                        run_text = text
                        run_args.append(params)
            await flush()
            sent.append(True)  # leaving the block sends COMMIT
        return results

    # -- reads ----------------------------------------------------------------------------------

    def _pool(self) -> asyncpg.Pool:
        if self._readers is None:
            raise RuntimeError("store is closed")
        return self._readers

    async def fetch_all(self, sql: str | SQL, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        return await self._pool().fetch(_text(sql), *params)

    async def fetch_one(self, sql: str | SQL, params: Sequence[Any] = ()) -> asyncpg.Record | None:
        return await self._pool().fetchrow(_text(sql), *params)

    # -- migrations -----------------------------------------------------------------------------

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        steps = schema.PYTHON_STEPS
        loop = asyncio.get_running_loop()
        for number, sql in schema.migrations("postgresql"):
            async with conn.transaction():
                # One migrator at a time per schema; the others find the version moved on and skip it.
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtext('dicetavern.migrate.' || COALESCE(current_schema(), '')))"
                )
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
                if number <= await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"):
                    continue
                log.info("applying PostgreSQL migration %04d", number)
                if sql.strip():
                    await conn.execute(sql)
                if number in steps:
                    await self._in_thread(steps[number], BridgeCursor(conn, loop))
                await conn.execute("DELETE FROM schema_version")
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
