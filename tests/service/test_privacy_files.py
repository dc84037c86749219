"""After ``/privacy delete`` the member is in no byte of the SQLite files (the database, its write-ahead log and
shared memory: free space and free pages included), and in no row of any PostgreSQL table read as text; on
databases where real games with them were played through the table service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import SQL, Store, privacy, repo
from bot.tables import TableService
from cogs.privacy import deleted_name
from tests.databases import postgres_schema
from tests.service.test_privacy import CORA, OPTIONS, ZEPH, add_member_data, close, open_service, play


def needles(user_id: int, name: str) -> dict[str, bytes]:
    """How SQLite may hold a member: their id as text (JSON, a query's text), as the 8-byte big-endian integer of a
    record, little-endian for good measure, and their name in UTF-8."""
    return {
        "id as text": str(user_id).encode(),
        "id big-endian": user_id.to_bytes(8, "big", signed=True),
        "id little-endian": user_id.to_bytes(8, "little", signed=True),
        "name": name.encode(),
    }


def found_in_files(path: Path, user_id: int, name: str) -> list[str]:
    """Which needles occur in which of the database's files (the ones that exist)."""
    files = [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]
    hits = []
    for file in files:
        if file.exists():
            data = file.read_bytes()
            hits += [f"{file.name}: {what}" for what, needle in needles(user_id, name).items() if needle in data]
    return hits


async def played(service: TableService, store: Store) -> None:
    for seed, game in enumerate(OPTIONS):
        await play(service, game, seed)
    await add_member_data(store)
    await store.write([privacy.set_opted_out(ZEPH.id, True), repo.set_user_language(CORA.id, "cy")])


async def test_after_a_delete_no_byte_of_the_sqlite_files_holds_the_member(tmp_path: Path):
    path = tmp_path / "tavern.sqlite3"
    service = await open_service(str(path))
    store = service.store
    try:
        await played(service, store)
        await store.write(repo.compact_game(1))  # retention ran on one game: its log gone, its moves in record
        assert {
            "tavern.sqlite3-wal: id as text",
            "tavern.sqlite3-wal: id big-endian",
            "tavern.sqlite3-wal: name",
        } <= set(found_in_files(path, ZEPH.id, ZEPH.name))  # the log holds them before: the check can fail
        assert "tavern.sqlite3-wal: name" in found_in_files(path, CORA.id, CORA.name)

        await privacy.delete_member(store, ZEPH.id, deleted_name, [ZEPH.name])
        await privacy.delete_member(store, CORA.id, deleted_name, [CORA.name])  # a lobby she left names her
        assert found_in_files(path, ZEPH.id, ZEPH.name) == []
        assert found_in_files(path, CORA.id, CORA.name) == []
        assert path.with_name(path.name + "-wal").stat().st_size == 0  # checkpointed and truncated
        row = await store.fetch_one("PRAGMA secure_delete")
        assert row is not None and row[0] == 1
    finally:
        await close(service)
    assert found_in_files(path, ZEPH.id, ZEPH.name) == []  # nor once closed (the log folded in at close)


TABLES = SQL(
    sqlite="SELECT name FROM sqlite_master WHERE type = 'table'",
    postgresql="SELECT tablename FROM pg_tables WHERE schemaname = current_schema()",
)


@pytest.fixture
async def postgres() -> AsyncIterator[str]:
    async for url in postgres_schema():
        yield url


@pytest.mark.postgres
async def test_after_a_delete_no_postgresql_row_holds_the_member(postgres: str):
    service = await open_service(postgres)
    store = service.store
    try:
        await played(service, store)

        async def rows_as_text() -> list[str]:
            tables = [r[0] for r in await store.fetch_all(TABLES)]
            return [r[0] for table in tables for r in await store.fetch_all(f'SELECT t::text FROM "{table}" t')]

        def holding(texts: list[str], user_id: int, name: str) -> list[str]:
            return [text for text in texts if str(user_id) in text or name in text]

        before = await rows_as_text()
        assert holding(before, ZEPH.id, ZEPH.name) and holding(before, CORA.id, CORA.name)
        await privacy.delete_member(store, ZEPH.id, deleted_name, [ZEPH.name])
        await privacy.delete_member(store, CORA.id, deleted_name, [CORA.name])
        after = await rows_as_text()
        assert holding(after, ZEPH.id, ZEPH.name) == [] and holding(after, CORA.id, CORA.name) == []
    finally:
        await close(service)
