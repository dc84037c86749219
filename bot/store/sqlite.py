"""The SQLite store (aiosqlite): the group commit on one aiosqlite connection, whose thread owns the database.

A batch is one call on that thread: ``execute_fetchall("SELECT dicetavern_call()")``, where ``dicetavern_call`` is a
SQL function registered with aiosqlite's ``create_function`` that runs the batch there on the connection itself:
BEGIN IMMEDIATE, the batch (``commit_batch``), COMMIT (``in_transaction``; the SELECT reads no table,
so it holds no transaction that would stop the COMMIT). So a thousand tables' writes cost one hop to the
connection's thread and one fsync, the ``Step``s (a finished game's ratings) run on that thread inside the
transaction, and a read (aiosqlite's ``execute_fetchall``, queued on the same thread) never runs inside a batch's
open transaction. Awaiting each statement instead costs a hop each (20-50 µs of CPU, more under load), 2.5-3x the
CPU of a Liar's Dice action (docs/PERFORMANCE.md, "The SQLite driver"). A failed batch rolls back, commits nothing
and raises its error, so the base retries it write by write.

The function reaches the connection through sqlite3's own ``factory`` argument (aiosqlite passes it on): the one
connection, used only on its thread, by the function SQLite calls there.

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
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store import schema
from bot.store.db import Fence, Store, Write
from bot.store.sql import SQL, Step

# SQLite's primary result codes that mean "the database cannot be used now", not "this statement is wrong": busy
# and locked (another writer held it past the busy timeout), read-only (a file system remounted so), I/O error,
# full (the disk, or PRAGMA max_page_count), cannot open.
SQLITE_UNAVAILABLE = frozenset({5, 6, 8, 10, 13, 14})
_SQLITE_WORDS = ("locked", "disk", "i/o", "unable to open", "readonly", "read-only")  # no code (an older sqlite3)


def sqlite_unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the SQLite file cannot be used now (or the OS refused: a full disk, a lost mount)."""
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF in SQLITE_UNAVAILABLE
        return isinstance(error, sqlite3.OperationalError) and any(w in str(error).lower() for w in _SQLITE_WORDS)
    return isinstance(error, OSError)


log = logging.getLogger(__name__)
# aiosqlite logs every call at DEBUG with its arguments: the statements' parameters, so a games row's secret fair-dice
# seed and the hidden dice in a state. A bot run with DEBUG logging must never write those: its records stop at INFO.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

T = TypeVar("T")
SYNCHRONOUS = {"full": "FULL", "fast": "NORMAL"}  # durability setting -> SQLite's synchronous pragma
FUNCTION = "dicetavern_call"  # the SQL function that runs a job on the connection's thread
_CALL = f"SELECT {FUNCTION}()"  # reads no table: it opens no transaction, so the job may BEGIN and COMMIT in it


def _text(sql: str | SQL) -> str:
    return sql if isinstance(sql, str) else sql.sqlite


async def open_connection(
    path: str, factory: Callable[..., sqlite3.Connection] = sqlite3.Connection, **options: Any
) -> aiosqlite.Connection:
    """``await aiosqlite.connect(path, factory=factory, **options)``, with two differences. Its thread is a daemon: a
    store left open cannot keep the process from exiting (every acknowledged write is committed already); a thread
    is a daemon when the thread that created it is one, so the connection object is made on a short-lived daemon
    thread. And a file that cannot be opened raises here after the thread has stopped, with the loop still running
    (aiosqlite's own failure path leaves its thread to report to the loop later, which may be closed by then and
    print a thread's traceback beside the one-line error): a stand-in in-memory connection is opened instead and
    closed at once."""
    failed: list[sqlite3.Error] = []

    def opening(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.pop("factory", None)
        try:
            return factory(*args, **kwargs)
        except sqlite3.Error as error:
            failed.append(error)
            return sqlite3.Connection(":memory:")

    made: list[aiosqlite.Connection] = []
    maker = threading.Thread(
        target=lambda: made.append(aiosqlite.connect(path, factory=opening, **options)), daemon=True
    )
    maker.start()
    maker.join()
    conn = await made[0]
    if failed:
        await conn.close()
        raise failed[0]
    return conn


class OnThread:
    """Runs a job (a function of the sqlite3 connection) on the aiosqlite connection's thread, inside a statement
    that calls the SQL function ``dicetavern_call``. One job at a time (the store's writer, or the migrations)."""

    def __init__(self) -> None:
        self._raw: sqlite3.Connection | None = None  # made on, and used from, the connection's thread only
        self._job: Callable[[sqlite3.Connection], Any] | None = None
        self._outcome: tuple[Any, BaseException | None] = (None, None)
        self._one = asyncio.Lock()

    def factory(self, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        """sqlite3.connect's ``factory``: the connection aiosqlite opens on its thread, kept for the jobs."""
        self._raw = sqlite3.Connection(*args, **kwargs)
        return self._raw

    def invoke(self) -> int:
        """The SQL function's body, on the connection's thread: the job's result or error, kept for ``take``."""
        job, self._job = self._job, None
        try:
            if job is None or self._raw is None:
                raise RuntimeError(f"{FUNCTION}() called without a job")
            self._outcome = (job(self._raw), None)
        except BaseException as error:  # noqa: BLE001 - handed back to the awaiting coroutine
            self._outcome = (None, error)
        return 1

    def _take(self) -> Any:
        (result, error), self._outcome = self._outcome, (None, None)
        if error is not None:
            raise error
        return result

    async def call(self, conn: aiosqlite.Connection, job: Callable[[sqlite3.Connection], T]) -> T:
        """``job(connection)`` on the thread, in the transaction that is open (or none)."""
        async with self._one:
            self._job = job
            await conn.execute_fetchall(_CALL)
            result: T = self._take()
            return result

    async def transaction(self, conn: aiosqlite.Connection, job: Callable[[sqlite3.Connection], T]) -> T:
        """``job(connection)`` on the thread in a transaction of its own, committed in the same call: the SQL
        function itself runs BEGIN IMMEDIATE, the job and COMMIT on the connection (``in_transaction``). Its
        statement reads no table, so it holds no transaction of its own and SQLite lets it commit; the call is
        one ``execute_fetchall``: one hop to the thread and back, where ``executescript`` took two (its cursor's
        close is a second) and prepared its three statements again at every batch."""
        async with self._one:
            self._job = partial(in_transaction, job)
            try:
                await conn.execute_fetchall(_CALL)
            except BaseException:
                self._job = None
                raise
            result: T = self._take()
            return result


def in_transaction(job: Callable[[sqlite3.Connection], T], raw: sqlite3.Connection) -> T:
    """``job(raw)`` between BEGIN IMMEDIATE and COMMIT, on the connection's thread (``OnThread.transaction``). A job
    that fails, or a COMMIT that does (a full disk), rolls the transaction back: nothing of it stays."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        result = job(raw)
        raw.execute("COMMIT")
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise
    return result


async def connect(path: str, synchronous: str = "FULL") -> tuple[aiosqlite.Connection, OnThread]:
    """An aiosqlite connection to ``path`` with the store's settings (WAL, ``synchronous``, a 5 s busy timeout,
    foreign keys and secure delete on, rows as ``sqlite3.Row``, no implicit transactions: the group commit and
    migrations BEGIN themselves), and what runs jobs on its thread."""
    on_thread = OnThread()
    conn = await open_connection(path, on_thread.factory, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute_fetchall("PRAGMA journal_mode=WAL")
        await conn.execute_fetchall(f"PRAGMA synchronous={synchronous}")  # WAL + FULL: fsynced at every commit
        await conn.execute_fetchall("PRAGMA busy_timeout=5000")
        await conn.execute_fetchall("PRAGMA foreign_keys=ON")
        # Deleted rows' bytes are zeroed, not left in free space and free pages: /privacy delete leaves nothing.
        await conn.execute_fetchall("PRAGMA secure_delete=ON")
        await conn.create_function(FUNCTION, 0, on_thread.invoke)
    except BaseException:
        await conn.close()
        raise
    return conn, on_thread


class SQLiteStore(Store):
    """One SQLite database file (or ``:memory:``)."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, on_thread: OnThread, path: str, durability: str = "full") -> None:
        super().__init__(path, durability)
        self._conn: aiosqlite.Connection | None = conn
        self._on_thread = on_thread
        self.path = path

    def unavailable(self, error: BaseException) -> bool:
        return sqlite_unavailable(error)

    @classmethod
    async def connect(cls, path: str, durability: str) -> SQLiteStore:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn, on_thread = await connect(path, SYNCHRONOUS[durability])
        store = cls(conn, on_thread, path, durability)
        try:
            await store._migrate()
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
        if conn is not None:
            await conn.close()

    async def _commit(self, writes: list[Write]) -> list[list[int | None]]:
        fence = self.fence

        def job(raw: sqlite3.Connection) -> list[list[int | None]]:
            # commit_batch is looked up at call time: the benchmarks wrap it to time it on the connection's thread.
            return commit_batch(raw, writes, fence)

        return await self._on_thread.transaction(self.connection(), job)

    async def checkpoint(self) -> bool:
        """Copy the write-ahead log into the database file and truncate it to nothing (``/privacy delete``: the old
        pages the log holds go with it). False when another connection's read kept it from finishing."""
        row = await self.fetch_one("PRAGMA wal_checkpoint(TRUNCATE)")  # queued like a read: never inside a batch
        return row is not None and row[0] == 0

    # -- reads: queued on the connection's thread, so never inside a batch ------------------------

    async def fetch_all(self, sql: str | SQL, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        # execute_fetchall: the cursor is made and freed on the connection's thread, and holds no snapshot open
        return list(await self.connection().execute_fetchall(_text(sql), params))

    async def fetch_one(self, sql: str | SQL, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return next(iter(await self.fetch_all(sql, params)), None)

    # -- migrations -----------------------------------------------------------------------------

    async def _migrate(self) -> None:
        conn = self.connection()
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
            try:
                async with conn.executescript(f"BEGIN;\n{sql}"):  # the transaction stays open for the Python step
                    pass
                await self._on_thread.call(conn, partial(_run_step, step))
                await conn.execute_fetchall(f"PRAGMA user_version={number}")
                await conn.execute_fetchall("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute_fetchall("ROLLBACK")
                raise


# -- run on the connection's thread -----------------------------------------------------------


class SQLiteCursor(sqlite3.Cursor):
    """The cursor a ``Step`` gets on SQLite: takes ``str | SQL``."""

    dialect = "sqlite"

    def execute(self, sql: str | SQL, parameters: Any = (), /) -> SQLiteCursor:
        _execute(self, sql if isinstance(sql, str) else sql.sqlite, parameters)  # (no super(): a Step's hot path)
        return self

    def executemany(self, sql: str | SQL, seq_of_parameters: Any, /) -> SQLiteCursor:
        _executemany(self, _text(sql), seq_of_parameters)
        return self


_execute, _executemany = sqlite3.Cursor.execute, sqlite3.Cursor.executemany


def _run_step(step: Step, conn: sqlite3.Connection) -> None:
    step(conn.cursor(SQLiteCursor))


def commit_batch(conn: sqlite3.Connection, batch: list[Write], fence: Fence | None = None) -> list[list[int | None]]:
    """The whole batch in the transaction the caller opened (``in_transaction``, which rolls all of it back when this
    raises): each write's results, or the first error. (No savepoint of its own: its two statements were two more
    hand-overs of the GIL between the loop and this thread at every batch.)"""
    results: list[list[int | None]] = []
    cursor = conn.cursor(SQLiteCursor)
    execute = _execute  # a statement's text is picked here; a Step gets the cursor that takes SQL pairs
    try:
        if fence is not None:
            lost = fence.verify(cursor.execute(fence.check_sql, fence.check_params).fetchall())
            if lost is not None:
                raise lost
        for statements in batch:
            ids: list[int | None] = []
            for statement in statements:
                if callable(statement):
                    statement(cursor)
                    ids.append(None)
                    continue
                sql, params = statement
                execute(cursor, sql if isinstance(sql, str) else sql.sqlite, params)
                if cursor.description is None:
                    ids.append(cursor.lastrowid)
                else:  # RETURNING: its first column, as on PostgreSQL (and the statement run to its end)
                    rows = cursor.fetchall()
                    ids.append(rows[0][0] if rows else None)
            results.append(ids)
    finally:
        cursor.close()
    return results
