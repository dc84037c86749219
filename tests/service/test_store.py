"""The store itself on both backends: group commit, failures, Steps, closing, crash and restart; then each
backend's own settings (SQLite's thread and pragmas, PostgreSQL's migrations and durability)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.store import SQL, IntegrityError, database_target, open_store
from bot.store.db import parse_target
from bot.store.schema import migrations
from bot.store.sql import Cursor, postgres_text
from tests.databases import postgres_schema

NOTE = ("INSERT INTO users (user_id, dms_closed) VALUES (?, ?)", (7, 1))
NO_TABLE = {"sqlite": sqlite3.OperationalError, "postgresql": asyncpg.UndefinedTableError}


@pytest.fixture
async def store(database):
    store = await open_store(database)
    yield store
    await store.close()


@pytest.fixture
async def sqlite_store(tmp_path):
    store = await open_store(tmp_path / "store.sqlite3")
    yield store
    await store.close()


# -- both backends ------------------------------------------------------------------------------


async def test_writes_arriving_together_commit_in_one_transaction_with_their_returned_values(store):
    batches = store.batches
    writes = [store.write([("INSERT INTO users (user_id) VALUES (?) RETURNING user_id", (g,))]) for g in range(1, 51)]
    results = await asyncio.gather(*writes)
    assert store.batches == batches + 1
    assert sorted(ids[0] for ids in results) == list(range(1, 51))
    assert (await store.fetch_one("SELECT count(*) FROM users"))[0] == 50


async def test_a_games_row_gets_its_id_from_returning_id(store):
    insert = (
        "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, seats, created_at, updated_at)"
        " VALUES (?, ?, 'mia', 'lobby', 1, '{}', '[]', 0, 0) RETURNING id"
    )
    first, second = await asyncio.gather(store.write([(insert, (1, 10))]), store.write([(insert, (1, 11))]))
    assert {first[0], second[0]} == {1, 2}
    assert [r["id"] for r in await store.fetch_all("SELECT id FROM games ORDER BY id")] == [1, 2]


async def test_a_bad_statement_fails_only_its_own_write(store):
    good = store.write([("INSERT INTO users (user_id) VALUES (1)", ())])
    bad = store.write([("INSERT INTO users (user_id) VALUES (2)", ()), ("INSERT INTO no_such_table VALUES (1)", ())])
    also_good = store.write([("INSERT INTO users (user_id) VALUES (3)", ())])
    results = await asyncio.gather(good, bad, also_good, return_exceptions=True)
    assert isinstance(results[1], NO_TABLE[store.dialect])
    assert not isinstance(results[0], Exception) and not isinstance(results[2], Exception)
    rows = await store.fetch_all("SELECT user_id FROM users ORDER BY user_id")
    assert [r["user_id"] for r in rows] == [1, 3]  # the bad write's first statement was rolled back


async def test_statements_of_the_same_text_in_a_row_all_land_in_order(store):
    upsert = (
        "INSERT INTO users (user_id, dms_closed) VALUES (?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed"
    )
    writes = [store.write([(upsert, (u % 5, u)) for u in range(20)]), store.write([(upsert, (0, 99))])]
    await asyncio.gather(*writes)
    rows = await store.fetch_all("SELECT user_id, dms_closed FROM users ORDER BY user_id")
    assert [tuple(r) for r in rows] == [(0, 99), (1, 16), (2, 17), (3, 18), (4, 19)]


async def test_a_unique_key_taken_raises_the_shared_integrity_error(store):
    await store.write([NOTE])
    with pytest.raises(IntegrityError):
        await store.write([NOTE])


async def test_a_step_reads_its_own_write_and_commits_with_its_batch(store):
    seen: list[object] = []

    def step(cursor: Cursor) -> None:
        seen.append(cursor.dialect)
        seen.append(cursor.execute("SELECT dms_closed FROM users WHERE user_id = ?", (7,)).fetchone()[0])
        cursor.execute("UPDATE users SET dms_closed = 0 WHERE user_id >= ?", (0,))
        seen.append(cursor.rowcount)
        cursor.executemany("INSERT INTO users (user_id) VALUES (?)", [(8,), (9,)])
        seen.append([tuple(r) for r in cursor.execute("SELECT user_id FROM users ORDER BY user_id").fetchall()])

    assert await store.write([NOTE, step]) == ([7, None] if store.dialect == "sqlite" else [None, None])
    assert seen == [store.dialect, 1, 1, [(7,), (8,), (9,)]]
    rows = await store.fetch_all("SELECT user_id, dms_closed FROM users ORDER BY user_id")
    assert [tuple(r) for r in rows] == [(7, 0), (8, 0), (9, 0)]


async def test_a_read_while_a_batch_is_open_never_sees_its_writes_before_they_commit(store):
    state = {"open": False, "done": False}

    def step(cursor: Cursor) -> None:
        cursor.execute("INSERT INTO users (user_id) VALUES (8)")
        state["open"] = True
        time.sleep(0.2)  # the batch's transaction stays open meanwhile
        state["done"] = True

    write = asyncio.ensure_future(store.write([step]))
    for _ in range(5000):
        if state["open"]:
            break
        await asyncio.sleep(0.001)
    assert state["open"]
    ids = [r[0] for r in await store.fetch_all("SELECT user_id FROM users")]
    assert 8 not in ids or state["done"]  # before the batch (PostgreSQL's readers) or after it (SQLite's queue)
    await write
    assert [r[0] for r in await store.fetch_all("SELECT user_id FROM users")] == [8]


async def test_a_failing_step_rolls_back_its_write_and_only_its_write(store):
    def step(cursor: Cursor) -> None:
        cursor.execute("INSERT INTO users (user_id) VALUES (8)")
        raise ValueError("no")

    failing = store.write([NOTE, step])
    fine = store.write([("INSERT INTO users (user_id) VALUES (9)", ())])
    results = await asyncio.gather(failing, fine, return_exceptions=True)
    assert isinstance(results[0], ValueError) and not isinstance(results[1], Exception)
    assert [r[0] for r in await store.fetch_all("SELECT user_id FROM users")] == [9]


async def test_sql_pairs_and_question_marks_in_literals(store):
    assert (await store.fetch_one(SQL(sqlite="SELECT 'a'", postgresql="SELECT 'b'")))[0] == (
        "a" if store.dialect == "sqlite" else "b"
    )
    row = await store.fetch_one("SELECT '?' AS q, CAST(?2 AS INTEGER) AS two, CAST(?1 AS INTEGER) AS one", (1, 2))
    assert (row["q"], row["two"], row["one"]) == ("?", 2, 1)
    assert list(row.keys()) == ["q", "two", "one"] and dict(row) == {"q": "?", "two": 2, "one": 1}


async def test_a_cancelled_read_leaves_the_store_working(store):
    read = asyncio.ensure_future(store.fetch_all("SELECT * FROM users"))
    await asyncio.sleep(0)
    read.cancel()
    with pytest.raises(asyncio.CancelledError):
        await read
    await store.write([NOTE])
    assert [tuple(r) for r in await store.fetch_all("SELECT user_id, dms_closed FROM users")] == [(7, 1)]


async def test_a_bad_read_raises_the_backends_error(store):
    with pytest.raises(NO_TABLE[store.dialect]):
        await store.fetch_one("SELECT * FROM no_such_table")
    assert await store.fetch_one("SELECT * FROM users") is None


async def test_close_lands_every_acknowledged_write_and_then_refuses(database):
    store = await open_store(database)
    pending = asyncio.ensure_future(store.write([("INSERT INTO users (user_id) VALUES (7) RETURNING user_id", ())]))
    await asyncio.sleep(0)
    await store.close()
    assert pending.done() and pending.result() == [7]
    with pytest.raises(RuntimeError):
        await store.write([NOTE])
    with pytest.raises(RuntimeError):
        await store.fetch_one("SELECT 1")
    reopened = await open_store(database)
    try:
        assert (await reopened.fetch_one("SELECT count(*) FROM users"))[0] == 1
    finally:
        await reopened.close()


async def test_debug_logging_never_writes_a_statements_parameters(store, caplog):
    """A bot run at DEBUG must not log what it stores: a games row's fair-dice seed, the hidden dice in a state
    (aiosqlite logs each call with its arguments at DEBUG unless its logger is held at INFO)."""
    secret = "5eed" * 16
    caplog.set_level(logging.DEBUG)
    await store.write([("INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)", (1, "k", secret))])
    row = await store.fetch_one("SELECT value FROM guild_settings WHERE value = ?", (secret,))
    assert row is not None
    assert secret not in caplog.text


def test_a_crash_keeps_every_acknowledged_write(database):
    script = textwrap.dedent(
        f"""
        import asyncio, os
        from bot.store import open_store

        async def main():
            store = await open_store({database!r})
            writes = [store.write([("INSERT INTO users (user_id) VALUES (?)", (u,))]) for u in range(1, 41)]
            await asyncio.gather(*writes)
            print("acknowledged", flush=True)
            os._exit(0)  # no close, no cleanup: as if killed

        asyncio.run(main())
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "acknowledged", done.stderr

    async def count() -> int:
        store = await open_store(database)
        try:
            return (await store.fetch_one("SELECT count(*) FROM users"))[0]
        finally:
            await store.close()

    assert asyncio.run(count()) == 40


# -- targets ------------------------------------------------------------------------------------


def test_targets_name_their_backend(monkeypatch):
    assert parse_target("data/x.sqlite3") == ("sqlite", "data/x.sqlite3")
    assert parse_target("sqlite:data/x.sqlite3") == ("sqlite", "data/x.sqlite3")
    assert parse_target("sqlite:///abs/x.sqlite3") == ("sqlite", "/abs/x.sqlite3")
    assert parse_target("postgres://h/db") == ("postgresql", "postgres://h/db")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    assert database_target() == "data/dicetavern.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", "/var/db.sqlite3")
    assert database_target() == "/var/db.sqlite3"
    monkeypatch.setenv("DATABASE_URL", "postgresql://h/db")
    assert database_target() == "postgresql://h/db"


def test_placeholders_become_numbered_outside_quotes_and_comments():
    sql = "SELECT '?', \"a?\", x FROM t WHERE a = ? AND b = ?3 AND c = ? -- ?\n AND d = 'it''s ?' AND e = ?"
    assert postgres_text(sql) == (
        "SELECT '?', \"a?\", x FROM t WHERE a = $1 AND b = $3 AND c = $4 -- ?\n AND d = 'it''s ?' AND e = $5"
    )


# -- SQLite ---------------------------------------------------------------------------------------


async def test_the_connection_is_wal_with_a_busy_timeout_foreign_keys_and_every_migration(sqlite_store):
    store = sqlite_store
    assert (await store.fetch_one("PRAGMA journal_mode"))[0] == "wal"
    assert (await store.fetch_one("PRAGMA busy_timeout"))[0] == 5000
    assert (await store.fetch_one("PRAGMA foreign_keys"))[0] == 1
    assert (await store.fetch_one("PRAGMA user_version"))[0] == migrations()[-1][0]


async def test_sqlite_returns_each_statements_rowid(sqlite_store):
    results = await asyncio.gather(
        *(sqlite_store.write([(f"INSERT INTO users (user_id) VALUES ({g})", ())]) for g in (5, 6))
    )
    assert results == [[5], [6]]


def test_an_unclosed_store_does_not_keep_the_process_alive(tmp_path):
    script = textwrap.dedent(
        f"""
        import asyncio
        from bot.store import open_store

        async def main():
            store = await open_store({str(tmp_path / "s.sqlite3")!r})
            await store.write([("INSERT INTO users (user_id) VALUES (1)", ())])
            print((await store.fetch_one("SELECT user_id FROM users"))[0])

        asyncio.run(main())  # never closed
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1"


async def test_durability_is_full_by_default_and_fast_relaxes_it(tmp_path, monkeypatch):
    monkeypatch.delenv("DICETAVERN_DURABILITY", raising=False)
    store = await open_store(tmp_path / "a.sqlite3")
    assert (store.durability, (await store.fetch_one("PRAGMA synchronous"))[0]) == ("full", 2)  # 2: FULL
    await store.close()
    monkeypatch.setenv("DICETAVERN_DURABILITY", "fast")
    store = await open_store(tmp_path / "b.sqlite3")
    assert (store.durability, (await store.fetch_one("PRAGMA synchronous"))[0]) == ("fast", 1)  # 1: NORMAL
    await store.close()
    store = await open_store(tmp_path / "c.sqlite3", durability="full")  # an explicit choice wins
    assert (await store.fetch_one("PRAGMA synchronous"))[0] == 2
    await store.close()
    monkeypatch.setenv("DICETAVERN_DURABILITY", "sometimes")
    with pytest.raises(ValueError, match="DICETAVERN_DURABILITY"):
        await open_store(tmp_path / "d.sqlite3")


# -- PostgreSQL -----------------------------------------------------------------------------------


@pytest.fixture
async def postgres():
    async for url in postgres_schema():
        yield url


@pytest.mark.postgres
async def test_postgres_batches_are_one_transaction(postgres):
    store = await open_store(postgres)
    try:
        xmin = "INSERT INTO users (user_id) VALUES (?) RETURNING xmin::text::bigint"
        results = await asyncio.gather(*(store.write([(xmin, (u,))]) for u in range(1, 31)))
        assert len({ids[0] for ids in results}) == 1  # every row written by the same transaction
    finally:
        await store.close()


@pytest.mark.postgres
async def test_postgres_migrations_run_once_when_processes_start_together(postgres):
    stores = await asyncio.gather(open_store(postgres), open_store(postgres))
    try:
        assert [s.dialect for s in stores] == ["postgresql", "postgresql"]
        rows = await stores[0].fetch_all("SELECT version FROM schema_version")
        assert [r["version"] for r in rows] == [migrations("postgresql")[-1][0]]
    finally:
        for store in stores:
            await store.close()


@pytest.mark.postgres
async def test_postgres_fast_durability_turns_synchronous_commit_off_for_the_writer(postgres, monkeypatch):
    seen: list[tuple[str, str]] = []

    def show(cursor: Cursor) -> None:
        seen.append((store.durability, cursor.execute("SHOW synchronous_commit").fetchone()[0]))

    for durability in ("full", "fast"):
        monkeypatch.setenv("DICETAVERN_DURABILITY", durability)
        store = await open_store(postgres)
        try:
            await store.write([show])
        finally:
            await store.close()
    assert seen == [("full", "on"), ("fast", "off")]


@pytest.mark.postgres
async def test_postgres_steps_run_off_the_loop_and_reads_do_not_wait_behind_the_writer(postgres):
    store = await open_store(postgres)
    gate = threading.Event()
    threads: list[int] = []

    def step(cursor: Cursor) -> None:
        threads.append(threading.get_ident())
        cursor.execute("INSERT INTO users (user_id) VALUES (1)")
        gate.wait(30)  # holds the writer's transaction open

    try:
        writing = asyncio.ensure_future(store.write([step]))
        while not threads:
            await asyncio.sleep(0.01)
        # The loop runs and the read pool answers while the Step's transaction is open (and unseen).
        assert (await asyncio.wait_for(store.fetch_one("SELECT count(*) FROM users"), 30))[0] == 0
        gate.set()
        await writing
        assert threads != [threading.get_ident()]
        assert (await store.fetch_one("SELECT count(*) FROM users"))[0] == 1
    finally:
        gate.set()
        await store.close()


@pytest.mark.postgres
async def test_postgres_writer_reconnects_after_its_connection_is_dropped(postgres):
    store = await open_store(postgres)
    pids: list[int] = []
    try:
        await store.write([lambda cursor: pids.append(cursor.execute("SELECT pg_backend_pid()").fetchone()[0])])
        assert (await store.fetch_one("SELECT pg_terminate_backend(?)", pids))[0] is True
        await store.write([NOTE])  # the failed batch's retry runs on a fresh connection
        assert [tuple(r) for r in await store.fetch_all("SELECT user_id, dms_closed FROM users")] == [(7, 1)]
    finally:
        await store.close()
