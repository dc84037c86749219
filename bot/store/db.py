"""The store: group-committed writes and reads on SQLite (the default) or PostgreSQL, behind one interface.

``Store.open(target)`` takes a SQLite path (or ``sqlite:PATH``) or a ``postgresql://`` URL (bot.store.postgres).
Every write goes through one writer task: whatever is pending when it wakes is committed in a single
transaction, so a thousand tables acting at once cost one commit, not a thousand awaits. A store with a
``fence`` (bot.store.leases) first checks, in that transaction, that this process still holds its shards.

SQLite: the standard library's ``sqlite3`` connection lives on one dedicated thread; every call on it (reads,
migrations, the group commit) is queued to that thread in order and answered through an asyncio future,
so the event loop never blocks on SQLite.

Durability (``DICETAVERN_DURABILITY``, read when the store is opened): ``full`` (the default) runs WAL with
``synchronous=FULL``: the WAL is fsynced at every commit, so once a write is answered it survives a power loss
or an OS crash; a group-commit batch costs one fsync, paid before any write in it is answered. ``fast`` runs
``synchronous=NORMAL``: no fsync at commit (only at checkpoints), so a power loss or OS crash may lose the last
answered writes; a crash of the process alone loses nothing in either mode (the WAL is in the OS's hands).
On PostgreSQL ``fast`` turns ``synchronous_commit`` off for the writer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from queue import SimpleQueue
from typing import TYPE_CHECKING, Any, TypeVar

from bot.store.leases import LeaseLost
from bot.store.sql import SQL, Cursor, Statement, Step, pick

if TYPE_CHECKING:
    from bot.store.leases import Fence

log = logging.getLogger(__name__)

__all__ = ["SQL", "Cursor", "Statement", "Step", "Store", "durability_setting", "parse_target"]

T = TypeVar("T")
Write = list[Statement | Step]

DURABILITY_ENV = "DICETAVERN_DURABILITY"
SYNCHRONOUS = {"full": "FULL", "fast": "NORMAL"}  # durability setting -> SQLite's synchronous pragma
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def durability_setting(value: str | None = None) -> str:
    """``value`` or the environment's setting: ``full`` (the default) or ``fast``; anything else is refused."""
    chosen = (value if value is not None else os.environ.get(DURABILITY_ENV, "")).strip().lower() or "full"
    if chosen not in SYNCHRONOUS:
        raise ValueError(f"{DURABILITY_ENV} must be one of {', '.join(SYNCHRONOUS)}, not {chosen!r}")
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


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the awaiting coroutine was cancelled
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class _SQLiteThread:
    """One thread that owns the connection and runs the calls queued to it, one at a time, in order."""

    def __init__(self) -> None:
        self._calls: SimpleQueue[tuple[asyncio.Future[Any], Callable[..., Any], tuple[Any, ...]] | None]
        self._calls = SimpleQueue()
        # A daemon, so a store left open cannot keep the process alive; acknowledged writes are committed already.
        self._thread = threading.Thread(target=self._run, name="store-sqlite", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (item := self._calls.get()) is not None:
            future, fn, args = item
            result: Any = None
            error: BaseException | None = None
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
                error = exc
            try:
                future.get_loop().call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:  # the event loop is closed: nobody is waiting any more
                pass

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._calls.put((future, fn, args))
        return await future

    def stop(self) -> None:
        self._calls.put(None)  # after every call already queued


class Store:
    """One database. Reads go straight through; writes are group-committed. ``Store.open`` picks the backend."""

    dialect: str  # "sqlite" or "postgresql"

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

    @classmethod
    async def open(cls, target: str | Path, durability: str | None = None) -> Store:
        """``target``: a SQLite path (or ``sqlite:PATH``) or a ``postgresql://`` URL. ``durability``: ``full`` or
        ``fast`` (see the module's notes); None reads ``DICETAVERN_DURABILITY``."""
        dialect, where = parse_target(target)
        durability = durability_setting(durability)
        store: Store
        if dialect == "postgresql":
            from bot.store.postgres import PostgresStore  # (here: bot.store.postgres imports this module)

            store = await PostgresStore.connect(where, durability)
        else:
            store = await SQLiteStore.connect(where, durability)
        store._writer = asyncio.create_task(store._write_loop(), name="store-writer")
        return store

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
        future: asyncio.Future[list[int | None]] = asyncio.get_running_loop().create_future()
        self._pending.append((list(statements), future))
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
            return list(await self._commit(writes))
        except LeaseLost as lost:
            return [self._lose(lost)] * len(writes)
        except Exception:  # one bad statement must not fail the others' writes
            log.exception("group commit failed; retrying one by one")
        results: list[Any] = []
        for statements in writes:
            if self._lost is not None:
                results.append(self._lost)
                continue
            try:
                results.append((await self._commit([statements]))[0])
            except LeaseLost as lost:
                results.append(self._lose(lost))
            except Exception as single:  # noqa: BLE001
                results.append(single)
        return results

    def _lose(self, lost: LeaseLost) -> LeaseLost:
        if self._lost is None:
            self._lost = lost
            if self.fence is not None:
                self.fence.lost = True
            log.error("%s; this process stops writing", lost)
        return self._lost


class SQLiteStore(Store):
    """One SQLite database, its connection on a thread of its own."""

    dialect = "sqlite"

    def __init__(self, thread: _SQLiteThread, conn: sqlite3.Connection, path: str, durability: str = "full") -> None:
        super().__init__(path, durability)
        self._thread = thread
        self._conn: sqlite3.Connection | None = conn  # used on its own thread only
        self.path = path

    @classmethod
    async def connect(cls, path: str, durability: str) -> SQLiteStore:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        thread = _SQLiteThread()
        try:
            conn = await thread.call(_connect, path, SYNCHRONOUS[durability])
        except BaseException:
            thread.stop()
            raise
        store = cls(thread, conn, path, durability)
        try:
            await thread.call(_migrate, conn)
        except BaseException:
            await store.close()
            raise
        return store

    async def _shut(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                await self._thread.call(conn.close)
            finally:
                self._thread.stop()

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self._conn is None:
            raise RuntimeError("store is closed")
        return await self._thread.call(fn, self._conn, *args)

    async def _commit(self, writes: list[Write]) -> list[list[int | None]]:
        # _commit_batch is looked up at call time: the benchmarks wrap it to time the SQLite thread.
        return await self._call(_commit_batch, writes, self.fence)

    async def fetch_all(self, sql: str | SQL, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self._call(_fetch_all, pick(sql, "sqlite"), params)

    async def fetch_one(self, sql: str | SQL, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return await self._call(_fetch_one, pick(sql, "sqlite"), params)


# -- run on the store's thread ----------------------------------------------------------------


class SQLiteCursor(sqlite3.Cursor):
    """The cursor a ``Step`` gets on SQLite: takes ``str | SQL``."""

    dialect = "sqlite"

    def execute(self, sql: str | SQL, parameters: Any = (), /) -> SQLiteCursor:
        return super().execute(sql if isinstance(sql, str) else sql.sqlite, parameters)

    def executemany(self, sql: str | SQL, seq_of_parameters: Any, /) -> SQLiteCursor:
        return super().executemany(sql if isinstance(sql, str) else sql.sqlite, seq_of_parameters)


def _connect(path: str, synchronous: str = "FULL") -> sqlite3.Connection:
    # isolation_level=None: no implicit transactions; the group commit and migrations BEGIN themselves.
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={synchronous}")  # WAL + FULL: the WAL is fsynced at every commit
        conn.execute("PRAGMA busy_timeout=5000")
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _migrate(conn: sqlite3.Connection) -> None:
    from bot.store import schema  # (here until the backends leave this module: schema imports ratings, ratings this)

    current = conn.execute("PRAGMA user_version").fetchone()[0]
    steps = schema.PYTHON_STEPS
    for number, sql in schema.migrations():
        if number > current:
            log.info("applying migration %04d", number)
            if number not in steps:
                conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;")
                continue
            conn.executescript(f"BEGIN;\n{sql}")  # the transaction stays open for the Python step
            try:
                steps[number](conn.cursor(SQLiteCursor))
                conn.execute(f"PRAGMA user_version={number}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise


def _fetch_all(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _fetch_one(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> sqlite3.Row | None:
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchone()
    finally:
        cursor.close()  # ends the read at once, so it holds no snapshot open between calls


def _commit_batch(conn: sqlite3.Connection, batch: list[Write], fence: Fence | None = None) -> list[list[int | None]]:
    """One transaction for the whole batch."""
    results: list[list[int | None]] = []
    cursor = conn.cursor(SQLiteCursor)
    cursor.execute("BEGIN IMMEDIATE")
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
                cursor.execute(sql, params)
                if cursor.description is None:
                    ids.append(cursor.lastrowid)
                else:  # RETURNING: its first column, as on PostgreSQL (and the statement run to its end)
                    rows = cursor.fetchall()
                    ids.append(rows[0][0] if rows else None)
            results.append(ids)
        cursor.execute("COMMIT")
    except BaseException:
        cursor.execute("ROLLBACK")
        raise
    return results
