"""The two ends of ``dicetavern migrate`` (bot/store/copy.py): raw connections that read a schema, stream a table's
rows, and write them in one transaction, for SQLite and for PostgreSQL.

They work beside ``Store`` rather than through it: a copy wants one long transaction, streamed reads and PostgreSQL's
COPY, none of which the bot's group-committing store offers (or should).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, Protocol

import aiosqlite

from bot.store import db
from bot.store.errors import postgres_driver
from bot.store.sqlite import open_connection

Batch = list[tuple[Any, ...]]  # rows, as many as one round trip carries
Types = dict[str, dict[str, str]]  # table -> column -> declared type, in the schema's order

LEASES = "leases"


def parse_target(target: str) -> tuple[str, str]:
    """The store's ``(dialect, where)`` for ``target``; ValueError also for a URL of any other kind (mysql://...),
    which the store would take for a file name."""
    dialect, where = db.parse_target(target)
    if dialect == "sqlite" and "://" in where:
        raise ValueError(target)
    return dialect, where


def kind_of(declared: str) -> str:
    """A declared column type's kind: ``int``, ``float``, ``text`` or ``other`` (SQLite's affinity rules, which
    read PostgreSQL's type names the same way)."""
    upper = declared.upper()
    if "INT" in upper:
        return "int"
    if any(word in upper for word in ("CHAR", "CLOB", "TEXT")):
        return "text"
    if any(word in upper for word in ("REAL", "FLOA", "DOUB", "NUMERIC", "DECIMAL")):
        return "float"
    return "other"


def _to_int(value: Any) -> Any:
    if value is None or type(value) is int:
        return value
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(f"{value!r} is not an integer")
    return int(value)


def _to_float(value: Any) -> Any:
    return value if value is None else float(value)


def _to_text(value: Any) -> Any:
    return value if value is None or isinstance(value, str) else str(value)


def converter(kind: str) -> Callable[[Any], Any]:
    return {"int": _to_int, "float": _to_float, "text": _to_text}.get(kind, lambda value: value)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class End(Protocol):
    """One database, opened for the copy: read as a source, or written as the target."""

    async def tables(self) -> Types: ...
    async def references(self) -> dict[str, set[str]]: ...
    async def live_leases(self, now: float) -> list[tuple[int, str, float]]: ...
    async def begin_read(self) -> None: ...
    def rows(self, table: str, columns: list[str], batch: int) -> AsyncGenerator[Batch, None]: ...
    async def begin_write(self) -> None: ...
    async def count(self, table: str) -> int: ...
    async def clear(self, table: str) -> None: ...
    async def insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None: ...
    async def finish_copy(self) -> None: ...
    async def commit(self) -> None: ...
    async def rollback(self) -> None: ...
    async def close(self) -> None: ...


async def open_end(dialect: str, where: str) -> End:
    if dialect == "postgresql":
        return PostgresEnd(await postgres_driver().connect(where))
    return await SQLiteEnd.open(where)


def _live(rows: list[dict[str, Any]], now: float) -> list[tuple[int, str, float]]:
    """The leases among ``rows`` that are held and have not expired: (shard, owner, seconds left)."""
    return [
        (int(row["shard"]), str(row["owner"]), float(row["expires_at"]) - now)
        for row in rows
        if row["owner"] and row["expires_at"] > now
    ]


class SQLiteEnd:
    """An aiosqlite connection, so the loop stays free. Every cursor is made and closed on the connection's thread
    (``execute_fetchall``, or ``async with``): a cursor freed on another thread resets its statement, which sqlite3's
    statement cache may have handed to the call running meanwhile (CPython issue 118172)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    @classmethod
    async def open(cls, path: str) -> SQLiteEnd:
        return cls(await open_connection(path, isolation_level=None))

    async def _do(self, sql: str) -> None:
        await self._conn.execute_fetchall(sql)

    async def _all(self, sql: str) -> list[Any]:
        return list(await self._conn.execute_fetchall(sql))

    async def tables(self) -> Types:
        names = await self._all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
            " ORDER BY rowid"
        )
        found: Types = {}
        for (name,) in names:
            found[name] = {row[1]: row[2] for row in await self._all(f"PRAGMA table_info({_quote(name)})")}
        return found

    async def references(self) -> dict[str, set[str]]:
        return {
            name: {row[2] for row in await self._all(f"PRAGMA foreign_key_list({_quote(name)})")}
            for name in await self.tables()
        }

    async def live_leases(self, now: float) -> list[tuple[int, str, float]]:
        if LEASES not in await self.tables():
            return []
        rows = await self._all(f"SELECT shard, owner, expires_at FROM {LEASES}")
        return _live([{"shard": shard, "owner": owner, "expires_at": at} for shard, owner, at in rows], now)

    async def begin_read(self) -> None:
        await self._do("BEGIN")

    async def rows(self, table: str, columns: list[str], batch: int) -> AsyncGenerator[Batch, None]:
        sql = f"SELECT {', '.join(map(_quote, columns))} FROM {_quote(table)}"
        async with self._conn.execute(sql) as cursor:
            while True:
                rows: list[Any] = list(await cursor.fetchmany(batch))  # tuples: this connection has no row factory
                if not rows:
                    return
                yield rows

    async def begin_write(self) -> None:
        await self._do("BEGIN IMMEDIATE")

    async def count(self, table: str) -> int:
        return int((await self._all(f"SELECT COUNT(*) FROM {_quote(table)}"))[0][0])

    async def clear(self, table: str) -> None:
        await self._do(f"DELETE FROM {_quote(table)}")

    async def insert(self, table: str, columns: list[str], rows: Batch) -> None:
        sql = (
            f"INSERT INTO {_quote(table)} ({', '.join(map(_quote, columns))}) VALUES ({', '.join('?' * len(columns))})"
        )
        async with self._conn.executemany(sql, rows):
            pass

    async def finish_copy(self) -> None:
        pass  # no foreign key is enforced on this connection, and an INTEGER PRIMARY KEY continues by itself

    async def commit(self) -> None:
        await self._do("COMMIT")

    async def rollback(self) -> None:
        if self._conn.in_transaction:
            await self._do("ROLLBACK")

    async def close(self) -> None:
        try:
            await self.rollback()  # a source's read snapshot
        finally:
            await self._conn.close()


class PostgresEnd:
    """One asyncpg connection; the schema is the connection's current one (a URL's ``?search_path=`` chooses it)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn
        self._transaction: Any = None
        self._foreign_keys: list[Any] = []  # (table, name, definition) dropped for the copy

    async def tables(self) -> Types:
        rows = await self._conn.fetch(
            """SELECT c.table_name, c.column_name, c.data_type
                 FROM information_schema.columns c
                 JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
                ORDER BY c.table_name, c.ordinal_position"""
        )
        found: Types = {}
        for table, column, declared in rows:
            found.setdefault(table, {})[column] = declared
        return found

    async def references(self) -> dict[str, set[str]]:
        rows = await self._conn.fetch(
            """SELECT child.relname, parent.relname
                 FROM pg_constraint c
                 JOIN pg_class child ON child.oid = c.conrelid
                 JOIN pg_class parent ON parent.oid = c.confrelid
                WHERE c.contype = 'f' AND child.relnamespace = current_schema()::regnamespace"""
        )
        found: dict[str, set[str]] = {}
        for child, parent in rows:
            found.setdefault(child, set()).add(parent)
        return found

    async def live_leases(self, now: float) -> list[tuple[int, str, float]]:
        if LEASES not in await self.tables():
            return []
        rows = await self._conn.fetch(f"SELECT shard, owner, expires_at FROM {LEASES}")
        return _live([dict(row) for row in rows], now)

    async def begin_read(self) -> None:
        self._transaction = self._conn.transaction(isolation="repeatable_read", readonly=True)
        await self._transaction.start()

    async def rows(self, table: str, columns: list[str], batch: int) -> AsyncGenerator[Batch, None]:
        sql = f"SELECT {', '.join(map(_quote, columns))} FROM {_quote(table)}"
        if self._transaction is None:  # a cursor needs a transaction; reads outside one get their own
            async with self._conn.transaction(isolation="repeatable_read", readonly=True):
                async for rows in self._fetch(sql, batch):
                    yield rows
        else:
            async for rows in self._fetch(sql, batch):
                yield rows

    async def _fetch(self, sql: str, batch: int) -> AsyncGenerator[Batch, None]:
        cursor = await self._conn.cursor(sql)
        while records := await cursor.fetch(batch):
            yield [tuple(record) for record in records]

    async def begin_write(self) -> None:
        self._transaction = self._conn.transaction()
        await self._transaction.start()
        await self._suspend_foreign_keys()

    async def _suspend_foreign_keys(self) -> None:
        """Drop the schema's foreign keys for the copy, in its transaction (``finish_copy`` adds them back).

        COPY checks a foreign key row by row: measured, 200,000 actions rows took 4.6-6.8 s with actions -> games and
        0.8-1.7 s without. Added back after the copy, each is validated in one pass over its table, and the copy still
        fails, rolled back, on a row without its parent. Without the right to alter a table (another role owns it),
        the keys stay and the copy is only slower."""
        self._foreign_keys = await self._conn.fetch(
            """SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid)
                 FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"""
        )
        try:
            async with self._conn.transaction():  # a savepoint: a refusal leaves the keys as they were
                for table, name, _ in self._foreign_keys:
                    await self._conn.execute(f"ALTER TABLE {table} DROP CONSTRAINT {_quote(name)}")
        except postgres_driver().InsufficientPrivilegeError:
            self._foreign_keys = []

    async def count(self, table: str) -> int:
        return int(await self._conn.fetchval(f"SELECT COUNT(*) FROM {_quote(table)}"))

    async def clear(self, table: str) -> None:
        await self._conn.execute(f"DELETE FROM {_quote(table)}")

    async def insert(self, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        await self._conn.copy_records_to_table(table, records=rows, columns=columns)

    async def finish_copy(self) -> None:
        """The foreign keys back (each validated), and every identity (or serial) column's sequence continued after
        the largest id copied."""
        for table, name, definition in self._foreign_keys:
            await self._conn.execute(f"ALTER TABLE {table} ADD CONSTRAINT {_quote(name)} {definition}")
        self._foreign_keys = []
        rows = await self._conn.fetch(
            """SELECT table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name)
                 FROM information_schema.columns
                WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')"""
        )
        for table, column, sequence in rows:
            if sequence is None:
                continue
            top = await self._conn.fetchval(f"SELECT MAX({_quote(column)}) FROM {_quote(table)}")
            await self._conn.execute("SELECT setval($1, $2, $3)", sequence, top or 1, top is not None)

    async def commit(self) -> None:
        transaction, self._transaction = self._transaction, None
        await transaction.commit()

    async def rollback(self) -> None:
        transaction, self._transaction = self._transaction, None
        if transaction is not None:
            await transaction.rollback()

    async def close(self) -> None:
        await self.rollback()
        await self._conn.close()
