"""The SQLite store itself: its own thread, group commit, pragmas, migrations, closing."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from bot.store import Store
from bot.store.db import _migrations

NOTE = ("INSERT INTO users (user_id, dms_closed) VALUES (?, ?)", (7, 1))


@pytest.fixture
async def store(tmp_path):
    store = await Store.open(tmp_path / "store.sqlite3")
    yield store
    await store.close()


async def test_the_connection_is_wal_with_a_busy_timeout_foreign_keys_and_every_migration(store):
    assert (await store.fetch_one("PRAGMA journal_mode"))[0] == "wal"
    assert (await store.fetch_one("PRAGMA busy_timeout"))[0] == 5000
    assert (await store.fetch_one("PRAGMA foreign_keys"))[0] == 1
    assert (await store.fetch_one("PRAGMA user_version"))[0] == _migrations()[-1][0]


async def test_writes_arriving_together_commit_in_one_transaction_with_their_rowids(store):
    batches = store.batches
    writes = [store.write([(f"INSERT INTO users (user_id) VALUES ({g})", ())])
              for g in range(1, 51)]
    results = await asyncio.gather(*writes)
    assert store.batches == batches + 1
    assert sorted(ids[0] for ids in results) == list(range(1, 51))
    assert (await store.fetch_one("SELECT count(*) FROM users"))[0] == 50


async def test_a_bad_statement_fails_only_its_own_write(store):
    good = store.write([("INSERT INTO users (user_id) VALUES (1)", ())])
    bad = store.write([("INSERT INTO users (user_id) VALUES (2)", ()),
                       ("INSERT INTO no_such_table VALUES (1)", ())])
    also_good = store.write([("INSERT INTO users (user_id) VALUES (3)", ())])
    results = await asyncio.gather(good, bad, also_good, return_exceptions=True)
    assert isinstance(results[1], sqlite3.OperationalError)
    assert not isinstance(results[0], Exception) and not isinstance(results[2], Exception)
    rows = await store.fetch_all("SELECT user_id FROM users ORDER BY user_id")
    assert [r["user_id"] for r in rows] == [1, 3]  # the bad write's first statement was rolled back


async def test_a_cancelled_read_leaves_the_store_working(store):
    read = asyncio.ensure_future(store.fetch_all("SELECT * FROM users"))
    await asyncio.sleep(0)
    read.cancel()
    with pytest.raises(asyncio.CancelledError):
        await read
    await store.write([NOTE])
    assert [tuple(r) for r in await store.fetch_all("SELECT user_id, dms_closed FROM users")] == [(7, 1)]


async def test_a_bad_read_raises_sqlites_error(store):
    with pytest.raises(sqlite3.OperationalError):
        await store.fetch_one("SELECT * FROM no_such_table")
    assert await store.fetch_one("SELECT * FROM users") is None


async def test_close_lands_every_acknowledged_write_and_then_refuses(tmp_path):
    path = tmp_path / "store.sqlite3"
    store = await Store.open(path)
    pending = asyncio.ensure_future(store.write([NOTE]))
    await asyncio.sleep(0)
    await store.close()
    assert pending.done() and pending.result() == [7]
    with pytest.raises(RuntimeError):
        await store.write([NOTE])
    with pytest.raises(RuntimeError):
        await store.fetch_one("SELECT 1")
    reopened = await Store.open(path)
    try:
        assert (await reopened.fetch_one("SELECT count(*) FROM users"))[0] == 1
    finally:
        await reopened.close()


def test_the_store_needs_no_aiosqlite_and_an_unclosed_store_does_not_keep_the_process_alive(tmp_path):
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        sys.modules["aiosqlite"] = None  # importing it would fail
        from bot.store import Store

        async def main():
            store = await Store.open({str(tmp_path / "s.sqlite3")!r})
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
    store = await Store.open(tmp_path / "a.sqlite3")
    assert (store.durability, (await store.fetch_one("PRAGMA synchronous"))[0]) == ("full", 2)  # 2: FULL
    await store.close()
    monkeypatch.setenv("DICETAVERN_DURABILITY", "fast")
    store = await Store.open(tmp_path / "b.sqlite3")
    assert (store.durability, (await store.fetch_one("PRAGMA synchronous"))[0]) == ("fast", 1)  # 1: NORMAL
    await store.close()
    store = await Store.open(tmp_path / "c.sqlite3", durability="full")  # an explicit choice wins
    assert (await store.fetch_one("PRAGMA synchronous"))[0] == 2
    await store.close()
    monkeypatch.setenv("DICETAVERN_DURABILITY", "sometimes")
    with pytest.raises(ValueError, match="DICETAVERN_DURABILITY"):
        await Store.open(tmp_path / "d.sqlite3")
