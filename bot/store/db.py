"""SQLite persistence on aiosqlite with group commit.

Every write goes through one writer task: whatever is pending when it wakes is committed in a
single transaction, so a thousand tables acting at once cost one fsync, not a thousand awaits.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)

Statement = tuple[str, Sequence[Any]]


def _migrations() -> list[tuple[int, str]]:
    folder = resources.files("bot.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)


class Store:
    """One SQLite database. Reads go straight through; writes are group-committed."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self._conn = conn
        self.path = path
        # The next transaction's writes, in arrival order, each with the future its writer awaits.
        self._pending: list[tuple[list[Statement], asyncio.Future[list[int | None]]]] = []
        self._wake = asyncio.Event()
        self._busy = False
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed (benchmarks report it)

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        path = str(path)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable at checkpoints, no torn DB
        await conn.execute("PRAGMA busy_timeout=5000")
        await conn.execute("PRAGMA foreign_keys=ON")
        store = cls(conn, path)
        await store._migrate()
        store._writer = asyncio.create_task(store._write_loop(), name="store-writer")
        return store

    async def _migrate(self) -> None:
        current = (await (await self._conn.execute("PRAGMA user_version")).fetchone())[0]
        for number, sql in _migrations():
            if number > current:
                log.info("applying migration %04d", number)
                await self._conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;")

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
        await self._conn.close()

    # -- writes -------------------------------------------------------------------------------

    async def write(self, statements: Iterable[Statement]) -> list[int | None]:
        """Commit ``statements`` atomically (with whatever else is pending); returns each lastrowid."""
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
                results: list[Any] = await self._conn._execute(_commit_batch, self._conn._conn, [s for s, _ in batch])
            except Exception:  # one bad statement must not fail the others' writes
                log.exception("group commit failed; retrying one by one")
                results = []
                for statements, _ in batch:
                    try:
                        results.append((await self._conn._execute(_commit_batch, self._conn._conn, [statements]))[0])
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
        async with self._conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        async with self._conn.execute(sql, params) as cursor:
            return await cursor.fetchone()


def _commit_batch(conn: sqlite3.Connection, batch: list[list[Statement]]) -> list[list[int | None]]:
    """Runs on aiosqlite's thread: one transaction for the whole batch."""
    results: list[list[int | None]] = []
    cursor = conn.cursor()
    cursor.execute("BEGIN IMMEDIATE")
    try:
        for statements in batch:
            ids: list[int | None] = []
            for sql, params in statements:
                cursor.execute(sql, params)
                ids.append(cursor.lastrowid)
            results.append(ids)
        cursor.execute("COMMIT")
    except BaseException:
        cursor.execute("ROLLBACK")
        raise
    return results
