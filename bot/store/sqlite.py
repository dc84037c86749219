"""The SQLite store (aiosqlite): the group commit on one aiosqlite connection, whose thread owns the database.

A batch is one function (``commit_batch``) on the store's own worker thread (``Driver``): one ``BEGIN IMMEDIATE``
… ``COMMIT`` on one cursor, run as one coroutine on a private event loop of that thread, so the bot's loop awaits
one future per batch and no hop to the connection's thread waits behind a thousand tables' turns. Consecutive
statements with the same text and no rows wanted (a thousand tables' ``INSERT INTO actions``) run as one
``executemany``. A statement run on its own answers its lastrowid, a RETURNING one its first column. A ``Step``
runs in a thread of its own (that loop must keep running to answer its calls), inside the transaction. A read is
queued on the worker thread too, so it never runs inside a batch's open transaction.

Durability: WAL always; ``full`` (the default) runs ``synchronous=FULL``: the WAL is fsynced at every commit, so
once a write is answered it survives a power loss or an OS crash; a group-commit batch costs one fsync, paid
before any write in it is answered. ``fast`` runs ``synchronous=NORMAL``: no fsync at commit (only at
checkpoints), so a power loss or OS crash may lose the last answered writes; a crash of the process alone loses
nothing in either mode (the WAL is in the OS's hands).

Migrations: bot/store/migrations/NNNN_*.sql (``bot.store.schema``), the version in ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store import schema
from bot.store.db import Fence, Store, Write
from bot.store.sql import SQL, returns_rows

log = logging.getLogger(__name__)

T = TypeVar("T")
SYNCHRONOUS = {"full": "FULL", "fast": "NORMAL"}  # durability setting -> SQLite's synchronous pragma
Run = Callable[[Coroutine[Any, Any, Any]], Any]  # runs one aiosqlite call to its end, from the batch's thread


def _text(sql: str | SQL) -> str:
    return sql if isinstance(sql, str) else sql.sqlite


def unstarted(path: str, **options: Any) -> aiosqlite.Connection:
    """``aiosqlite.connect(path, **options)`` (to be awaited), with its thread a daemon: a store left open cannot keep
    the process from exiting (every acknowledged write is committed already). A thread is a daemon when the thread
    that created it is one, so the connection object is made on a short-lived daemon thread."""
    made: list[aiosqlite.Connection] = []
    maker = threading.Thread(target=lambda: made.append(aiosqlite.connect(path, **options)), daemon=True)
    maker.start()
    maker.join()
    return made[0]


async def connect(path: str, synchronous: str = "FULL") -> aiosqlite.Connection:
    """An aiosqlite connection to ``path`` with the store's settings: WAL, ``synchronous``, a 5 s busy timeout,
    foreign keys on, rows as ``sqlite3.Row``, and no implicit transactions (the group commit and migrations BEGIN
    themselves)."""
    conn = await unstarted(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute_fetchall("PRAGMA journal_mode=WAL")
        await conn.execute_fetchall(f"PRAGMA synchronous={synchronous}")  # WAL + FULL: fsynced at every commit
        await conn.execute_fetchall("PRAGMA busy_timeout=5000")
        await conn.execute_fetchall("PRAGMA foreign_keys=ON")
    except BaseException:
        await conn.close()
        raise
    return conn


class Driver:
    """The thread a batch runs on (one worker), driving the aiosqlite connection through a private event loop of its
    own. The loop is idle but for this thread's calls, so each hop to the connection's thread is answered at once,
    not after a turn of the bot's loop (which, with a thousand tables acting, is long)."""

    def __init__(self) -> None:
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="store-sqlite")
        self.steps = ThreadPoolExecutor(1, thread_name_prefix="store-steps")  # a batch's Python steps
        self._loop: asyncio.AbstractEventLoop | None = None  # made, used and closed on the worker thread only

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """On the worker thread: ``coro`` (an aiosqlite call) run to its end."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(coro)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the worker thread, awaited from the bot's loop."""
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn, *args)

    def _close_loop(self) -> None:
        if self._loop is not None:
            self._loop.close()
            self._loop = None

    async def stop(self) -> None:
        await self.call(self._close_loop)
        self.thread.shutdown(wait=False)
        self.steps.shutdown(wait=False)


class StepCursor:
    """A ``Step``'s cursor on SQLite, used from the batch's thread: a query's rows come back with it (one hop to the
    connection's thread, as PostgreSQL's cursor does); other statements run on the batch's cursor."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, cursor: aiosqlite.Cursor, run: Run) -> None:
        self._conn = conn
        self._cursor = cursor
        self._run = run
        self._rows: list[Any] = []
        self._at = 0
        self.rowcount = -1

    def execute(self, sql: str | SQL, parameters: Sequence[Any] = (), /) -> StepCursor:
        text = _text(sql)
        if returns_rows(text):
            self._rows = list(self._run(self._conn.execute_fetchall(text, parameters)))
            self.rowcount = -1  # as sqlite3's for a query
        else:
            self._rows = []
            self._run(self._cursor.execute(text, parameters))
            self.rowcount = self._cursor.rowcount
        self._at = 0
        return self

    def executemany(self, sql: str | SQL, seq_of_parameters: Iterable[Sequence[Any]], /) -> StepCursor:
        self._rows, self._at = [], 0
        self._run(self._cursor.executemany(_text(sql), [tuple(p) for p in seq_of_parameters]))
        self.rowcount = self._cursor.rowcount
        return self

    def fetchone(self) -> Any:
        if self._at >= len(self._rows):
            return None
        self._at += 1
        return self._rows[self._at - 1]

    def fetchall(self) -> list[Any]:
        rows, self._at = self._rows[self._at :], len(self._rows)
        return rows


class SQLiteStore(Store):
    """One SQLite database file (or ``:memory:``)."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str, durability: str = "full") -> None:
        super().__init__(path, durability)
        self._conn: aiosqlite.Connection | None = conn
        self.path = path
        self._driver = Driver()

    @classmethod
    async def connect(cls, path: str, durability: str) -> SQLiteStore:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = cls(await connect(path, SYNCHRONOUS[durability]), path, durability)
        try:
            await store._driver.call(_migrate, store.connection(), store._driver.run)
        except BaseException:
            await store.close()
            raise
        return store

    def connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("store is closed")
        return self._conn

    async def _shut(self) -> None:
        conn, self._conn = self._conn, None
        try:
            if conn is not None:
                await conn.close()
        finally:
            await self._driver.stop()

    async def _commit(self, writes: list[Write]) -> list[list[int | None]]:
        # commit_batch is looked up at call time: the benchmarks wrap it to time the batch's thread.
        return await self._driver.call(commit_batch, self.connection(), self._driver, writes, self.fence)

    # -- reads ----------------------------------------------------------------------------------

    # A read is queued on the batch's thread, behind any batch: it never runs inside a batch's open transaction (so
    # it never sees writes that are not yet committed, or that a failed batch rolls back).

    async def fetch_all(self, sql: str | SQL, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self._driver.call(fetch, self.connection(), self._driver.run, _text(sql), params)

    async def fetch_one(self, sql: str | SQL, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return next(iter(await self.fetch_all(sql, params)), None)


# -- run on the driver's thread ---------------------------------------------------------------

def commit_batch(
    conn: aiosqlite.Connection, driver: Driver, batch: list[Write], fence: Fence | None
) -> list[list[int | None]]:
    """One transaction for the whole batch, on one cursor: run on the driver's thread, as one coroutine on its loop
    (each hop to the connection's thread is then one await, not a turn of the loop started and stopped)."""
    return driver.run(_commit(conn, driver, batch, fence))


async def _commit(
    conn: aiosqlite.Connection, driver: Driver, batch: list[Write], fence: Fence | None
) -> list[list[int | None]]:
    loop = asyncio.get_running_loop()
    results: list[list[int | None]] = [[None] * len(statements) for statements in batch]
    cursor: aiosqlite.Cursor = await conn.cursor()
    run_text: str | None = None  # the statement gathered for one executemany, its parameters and its slot
    run_args: list[Sequence[Any]] = []
    run_slot = (0, 0)

    async def flush() -> None:
        nonlocal run_text
        if run_text is None:
            return
        if len(run_args) == 1:
            await cursor.execute(run_text, run_args[0])
            results[run_slot[0]][run_slot[1]] = cursor.lastrowid
        else:
            await cursor.executemany(run_text, list(run_args))
        run_text = None
        run_args.clear()

    def bridge(coro: Coroutine[Any, Any, Any]) -> Any:  # a step's call, from the steps' thread, on this loop
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

    try:
        await cursor.execute("BEGIN IMMEDIATE")
        try:
            if fence is not None:
                lost = fence.verify(list(await conn.execute_fetchall(_text(fence.check_sql), fence.check_params)))
                if lost is not None:
                    raise lost
            for i, statements in enumerate(batch):
                for j, statement in enumerate(statements):
                    if callable(statement):
                        await flush()
                        # In a thread of its own: its calls are awaited on this loop, which must keep running.
                        await loop.run_in_executor(driver.steps, statement, StepCursor(conn, cursor, bridge))
                        continue
                    sql, params = statement
                    text = _text(sql)
                    if text == run_text:
                        run_args.append(params)
                        continue
                    await flush()
                    if returns_rows(text):  # RETURNING: its first column (and the statement run to its end)
                        rows = list(await conn.execute_fetchall(text, params))
                        results[i][j] = rows[0][0] if rows else None
                    else:
                        run_text, run_slot = text, (i, j)
                        run_args.append(params)
            await flush()
            await cursor.execute("COMMIT")
        except BaseException:
            await cursor.execute("ROLLBACK")
            raise
    finally:
        await cursor.close()  # on the connection's thread (CPython issue 118172)
    return results


def fetch(conn: aiosqlite.Connection, run: Run, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    # execute_fetchall: the cursor is made and freed on the connection's thread, and holds no snapshot open
    return list(run(conn.execute_fetchall(sql, params)))


def _script(conn: aiosqlite.Connection, run: Run, sql: str) -> None:
    cursor = run(conn.executescript(sql))
    run(cursor.close())


def _migrate(conn: aiosqlite.Connection, run: Run) -> None:
    current = list(run(conn.execute_fetchall("PRAGMA user_version")))[0][0]
    for number, sql in schema.migrations("sqlite"):
        if number <= current:
            continue
        log.info("applying migration %04d", number)
        step = schema.PYTHON_STEPS.get(number)
        if step is None:
            _script(conn, run, f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;")
            continue
        _script(conn, run, f"BEGIN;\n{sql}")  # the transaction stays open for the Python step
        cursor = run(conn.cursor())
        try:
            step(StepCursor(conn, cursor, run))
            run(cursor.execute(f"PRAGMA user_version={number}"))
            run(cursor.execute("COMMIT"))
        except BaseException:
            run(cursor.execute("ROLLBACK"))
            raise
        finally:
            run(cursor.close())
