"""The SQLite store (aiosqlite): the group commit on one aiosqlite connection, whose thread owns the database.

Each batch is one ``BEGIN IMMEDIATE`` … ``COMMIT`` on one cursor. Consecutive statements with the same text and no
rows wanted (a thousand tables' ``INSERT INTO actions``) run as one ``executemany``: one hop to the connection's
thread, not one per statement. A statement run on its own answers its lastrowid; a RETURNING one its first column.
A ``Step`` runs in a worker thread of its own with a cursor that forwards each call to the batch's cursor through
the event loop, so the Python in it never blocks the loop (as on PostgreSQL).

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
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store import schema
from bot.store.db import Store, Write
from bot.store.sql import SQL, Cursor, returns_rows

log = logging.getLogger(__name__)

T = TypeVar("T")
SYNCHRONOUS = {"full": "FULL", "fast": "NORMAL"}  # durability setting -> SQLite's synchronous pragma


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


class StepCursor:
    """A ``Step``'s cursor on SQLite: used from a worker thread, each call runs on the event loop on the batch's
    aiosqlite cursor (so on the connection's thread, inside the batch's transaction)."""

    dialect = "sqlite"

    def __init__(self, cursor: aiosqlite.Cursor, loop: asyncio.AbstractEventLoop) -> None:
        self._cursor = cursor
        self._loop = loop

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    def execute(self, sql: str | SQL, parameters: Sequence[Any] = (), /) -> StepCursor:
        self._run(self._cursor.execute(_text(sql), parameters))
        return self

    def executemany(self, sql: str | SQL, seq_of_parameters: Iterable[Sequence[Any]], /) -> StepCursor:
        self._run(self._cursor.executemany(_text(sql), [tuple(p) for p in seq_of_parameters]))
        return self

    def fetchone(self) -> Any:
        return self._run(self._cursor.fetchone())

    def fetchall(self) -> list[Any]:
        return list(self._run(self._cursor.fetchall()))


class SQLiteStore(Store):
    """One SQLite database file (or ``:memory:``)."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: str, durability: str = "full") -> None:
        super().__init__(path, durability)
        self._conn: aiosqlite.Connection | None = conn
        self.path = path
        self._steps = ThreadPoolExecutor(1, thread_name_prefix="store-steps")

    @classmethod
    async def connect(cls, path: str, durability: str) -> SQLiteStore:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = cls(await connect(path, SYNCHRONOUS[durability]), path, durability)
        try:
            await store._migrate()
        except BaseException:
            await store.close()
            raise
        return store

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise RuntimeError("store is closed")
        return self._conn

    async def _shut(self) -> None:
        conn, self._conn = self._conn, None
        try:
            if conn is not None:
                await conn.close()
        finally:
            self._steps.shutdown(wait=False)

    async def _step(self, step: Callable[[Cursor], None], cursor: aiosqlite.Cursor) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._steps, step, StepCursor(cursor, loop))

    # -- writes ---------------------------------------------------------------------------------

    async def _commit(self, writes: list[Write]) -> list[list[int | None]]:
        conn = self._connection()
        results: list[list[int | None]] = [[None] * len(statements) for statements in writes]
        async with conn.cursor() as cursor:  # closed on the connection's thread (CPython issue 118172)
            run_text: str | None = None  # the statement gathered for one executemany, its parameters and slot
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
                    await cursor.executemany(run_text, run_args)
                run_text = None
                run_args.clear()

            await cursor.execute("BEGIN IMMEDIATE")
            try:
                if self.fence is not None:
                    await cursor.execute(_text(self.fence.check_sql), self.fence.check_params)
                    lost = self.fence.verify(await cursor.fetchall())
                    if lost is not None:
                        raise lost
                for i, statements in enumerate(writes):
                    for j, statement in enumerate(statements):
                        if callable(statement):
                            await flush()
                            await self._step(statement, cursor)
                            continue
                        sql, params = statement
                        text = _text(sql)
                        if text == run_text:
                            run_args.append(params)
                            continue
                        await flush()
                        if returns_rows(text):  # RETURNING: its first column (and the statement run to its end)
                            await cursor.execute(text, params)
                            rows = list(await cursor.fetchall())
                            results[i][j] = rows[0][0] if rows else None
                        else:
                            run_text, run_slot = text, (i, j)
                            run_args.append(params)
                await flush()
                await cursor.execute("COMMIT")
            except BaseException:
                await cursor.execute("ROLLBACK")
                raise
        return results

    # -- reads ----------------------------------------------------------------------------------

    async def fetch_all(self, sql: str | SQL, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # execute_fetchall: the cursor is made and freed on the connection's thread, and holds no snapshot open
        return list(await self._connection().execute_fetchall(_text(sql), params))

    async def fetch_one(self, sql: str | SQL, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._connection().execute_fetchall(_text(sql), params)
        return next(iter(rows), None)

    # -- migrations -----------------------------------------------------------------------------

    async def _migrate(self) -> None:
        conn = self._connection()
        current = (await self.fetch_one("PRAGMA user_version") or (0,))[0]
        for number, sql in schema.migrations("sqlite"):
            if number <= current:
                continue
            log.info("applying migration %04d", number)
            step = schema.PYTHON_STEPS.get(number)
            if step is None:
                async with conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;"):
                    pass
                continue
            async with conn.executescript(f"BEGIN;\n{sql}"):  # the transaction stays open for the Python step
                pass
            try:
                async with conn.cursor() as cursor:
                    await self._step(step, cursor)
                    await cursor.execute(f"PRAGMA user_version={number}")
                    await cursor.execute("COMMIT")
            except BaseException:
                await conn.execute_fetchall("ROLLBACK")
                raise
