"""SQLite persistence with group commit, on a thread of its own.

The standard library's ``sqlite3`` connection lives on one dedicated thread; every call on it (reads,
migrations, the group commit) is queued to that thread in order and answered through an asyncio future,
so the event loop never blocks on SQLite. Every write goes through one writer task: whatever is pending
when it wakes is committed in a single transaction, so a thousand tables acting at once cost one fsync,
not a thousand awaits.

Durability (``DICETAVERN_DURABILITY``, read when the store is opened): ``full`` (the default) runs WAL with
``synchronous=FULL``: the WAL is fsynced at every commit, so once a write is answered it survives a power loss
or an OS crash; a group-commit batch costs one fsync, paid before any write in it is answered. ``fast`` runs
``synchronous=NORMAL``: no fsync at commit (only at checkpoints), so a power loss or OS crash may lose the last
answered writes; a crash of the process alone loses nothing in either mode (the WAL is in the OS's hands).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from queue import SimpleQueue
from typing import Any, TypeVar

log = logging.getLogger(__name__)

Statement = tuple[str, Sequence[Any]]
# A write that needs Python between reads and writes (a finished game's ratings: read, rate, write), run on the
# store's thread inside the batch's transaction, so it commits or rolls back with the statements beside it.
Step = Callable[[sqlite3.Cursor], None]
T = TypeVar("T")

DURABILITY_ENV = "DICETAVERN_DURABILITY"
SYNCHRONOUS = {"full": "FULL", "fast": "NORMAL"}  # durability setting -> SQLite's synchronous pragma


def durability_setting(value: str | None = None) -> str:
    """``value`` or the environment's setting: ``full`` (the default) or ``fast``; anything else is refused."""
    chosen = (value if value is not None else os.environ.get(DURABILITY_ENV, "")).strip().lower() or "full"
    if chosen not in SYNCHRONOUS:
        raise ValueError(f"{DURABILITY_ENV} must be one of {', '.join(SYNCHRONOUS)}, not {chosen!r}")
    return chosen


def _python_steps() -> dict[int, Callable[[sqlite3.Connection], None]]:
    """Python run after a migration's SQL, in its transaction: what SQL alone cannot compute."""
    from bot.store.ratings import backfill  # (imported here: bot.store.ratings imports this module)

    return {8: backfill}  # 0008: ratings from the results already stored, in finish order


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("bot.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)


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
    """One SQLite database. Reads go straight through; writes are group-committed."""

    def __init__(self, thread: _SQLiteThread, conn: sqlite3.Connection, path: str, durability: str = "full") -> None:
        self._thread = thread
        self._conn: sqlite3.Connection | None = conn  # used on its own thread only
        self.path = path
        self.durability = durability
        # The next transaction's writes, in arrival order, each with the future its writer awaits.
        self._pending: list[tuple[list[Statement | Step], asyncio.Future[list[int | None]]]] = []
        self._wake = asyncio.Event()
        self._busy = False
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed (benchmarks report it)

    @classmethod
    async def open(cls, path: str | Path, durability: str | None = None) -> Store:
        """``durability``: ``full`` or ``fast`` (see the module's notes); None reads ``DICETAVERN_DURABILITY``."""
        path = str(path)
        durability = durability_setting(durability)
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

    # -- writes -------------------------------------------------------------------------------

    async def write(self, statements: Iterable[Statement | Step]) -> list[int | None]:
        """Commit ``statements`` atomically (with whatever else is pending); returns each lastrowid (None for a
        ``Step``)."""
        if self._writer is None:
            raise RuntimeError("store is closed")
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
                # _commit_batch is looked up at call time: the benchmarks wrap it to time the SQLite thread.
                results: list[Any] = await self._call(_commit_batch, [s for s, _ in batch])
            except Exception:  # one bad statement must not fail the others' writes
                log.exception("group commit failed; retrying one by one")
                results = []
                for statements, _ in batch:
                    try:
                        results.append((await self._call(_commit_batch, [statements]))[0])
                    except Exception as single:  # noqa: BLE001
                        results.append(single)
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

    # -- reads --------------------------------------------------------------------------------

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return await self._call(_fetch_all, sql, params)

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        return await self._call(_fetch_one, sql, params)


# -- run on the store's thread ----------------------------------------------------------------


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
    current = conn.execute("PRAGMA user_version").fetchone()[0]
    steps = _python_steps()
    for number, sql in _migrations():
        if number > current:
            log.info("applying migration %04d", number)
            if number not in steps:
                conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;")
                continue
            conn.executescript(f"BEGIN;\n{sql}")  # the transaction stays open for the Python step
            try:
                steps[number](conn)
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


def _commit_batch(conn: sqlite3.Connection, batch: list[list[Statement | Step]]) -> list[list[int | None]]:
    """One transaction for the whole batch."""
    results: list[list[int | None]] = []
    cursor = conn.cursor()
    cursor.execute("BEGIN IMMEDIATE")
    try:
        for statements in batch:
            ids: list[int | None] = []
            for statement in statements:
                if callable(statement):
                    statement(cursor)
                    ids.append(None)
                    continue
                sql, params = statement
                cursor.execute(sql, params)
                ids.append(cursor.lastrowid)
            results.append(ids)
        cursor.execute("COMMIT")
    except BaseException:
        cursor.execute("ROLLBACK")
        raise
    return results
