"""The two backends' schemas after every migration: the same tables, columns (names, order, type family, NOT NULL,
primary key), indexes (name, table, columns, unique, partial) and version. The SQLite migrations are the reference;
PostgreSQL's are written apart (bot/store/migrations/postgresql), so this is what keeps them in step."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.store import Store, open_store
from bot.store.schema import migrations
from tests.databases import database_target

pytestmark = pytest.mark.postgres

# SQLite's declared type -> the PostgreSQL types that hold the same values (ids BIGINT, REAL as DOUBLE PRECISION).
FAMILIES = {
    "INTEGER": {"integer", "bigint"},
    "REAL": {"double precision"},
    "TEXT": {"text"},
}
# Bookkeeping of one backend only: SQLite keeps its version in PRAGMA user_version.
OWN_TABLES = {"postgresql": {"schema_version"}, "sqlite": set()}

Schema = dict[str, Any]


async def sqlite_schema(store: Store) -> Schema:
    tables: dict[str, list[tuple[str, str, bool, int]]] = {}
    indexes: dict[str, tuple[str, tuple[str | None, ...], bool, bool]] = {}
    names = await store.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    for (table,) in names:
        # (cid, name, type, notnull, default, pk); an INTEGER PRIMARY KEY (the rowid) is NOT NULL without saying so
        info = await store.fetch_all(f"PRAGMA table_info('{table}')")
        tables[table] = [(c["name"], c["type"].upper(), bool(c["notnull"] or c["pk"]), c["pk"]) for c in info]
        for index in await store.fetch_all(f"PRAGMA index_list('{table}')"):
            if index["origin"] != "c":  # the automatic index of a primary key or UNIQUE column
                continue
            columns = tuple(c["name"] for c in await store.fetch_all(f"PRAGMA index_info('{index['name']}')"))
            indexes[index["name"]] = (table, columns, bool(index["unique"]), bool(index["partial"]))
    version = (await store.fetch_one("PRAGMA user_version"))[0]
    return {"tables": tables, "indexes": indexes, "version": version}


async def postgres_schema(store: Store) -> Schema:
    tables: dict[str, list[tuple[str, str, bool, int]]] = {}
    columns = await store.fetch_all(
        "SELECT c.table_name, c.column_name, c.data_type, c.is_nullable = 'NO' AS notnull,"
        " COALESCE(k.ordinal_position, 0) AS pk"
        " FROM information_schema.columns c"
        " LEFT JOIN information_schema.table_constraints t ON t.table_schema = c.table_schema"
        " AND t.table_name = c.table_name AND t.constraint_type = 'PRIMARY KEY'"
        " LEFT JOIN information_schema.key_column_usage k ON k.constraint_schema = t.constraint_schema"
        " AND k.constraint_name = t.constraint_name AND k.column_name = c.column_name"
        " WHERE c.table_schema = current_schema() ORDER BY c.table_name, c.ordinal_position"
    )
    for c in columns:
        tables.setdefault(c["table_name"], []).append((c["column_name"], c["data_type"], c["notnull"], c["pk"]))
    indexes: dict[str, tuple[str, tuple[str | None, ...], bool, bool]] = {}
    found = await store.fetch_all(
        "SELECT x.relname AS name, t.relname AS table_name, i.indisunique AS is_unique,"
        " i.indpred IS NOT NULL AS partial,"
        " ARRAY(SELECT pg_get_indexdef(i.indexrelid, n, true) FROM generate_series(1, i.indnkeyatts) n) AS keys"
        " FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid"
        " WHERE x.relnamespace = current_schema()::regnamespace AND NOT i.indisprimary"
    )
    for index in found:
        # A case-folded key stands for SQLite's COLLATE NOCASE column (seasons_name).
        keys = tuple(re.sub(r"^lower\((\w+)\)$", r"\1", key) for key in index["keys"])
        indexes[index["name"]] = (index["table_name"], keys, index["is_unique"], index["partial"])
    version = (await store.fetch_one("SELECT MAX(version) FROM schema_version"))[0]
    return {"tables": tables, "indexes": indexes, "version": version}


@pytest.fixture
async def schemas(tmp_path) -> dict[str, Schema]:
    """Both backends migrated from empty, as schemas to compare."""
    found: dict[str, Schema] = {}
    for kind, read in (("sqlite", sqlite_schema), ("postgresql", postgres_schema)):
        targets = database_target(kind, tmp_path)
        try:
            store = await open_store(await anext(targets))
            try:
                found[kind] = await read(store)
            finally:
                await store.close()
        finally:
            await targets.aclose()
    return found


def test_the_same_tables(schemas):
    sqlite, postgres = (set(schemas[k]["tables"]) - OWN_TABLES[k] for k in ("sqlite", "postgresql"))
    assert postgres == sqlite
    assert {"games", "actions", "results", "ratings", "leases"} <= sqlite


def test_the_same_columns_in_the_same_order_with_the_same_types_and_keys(schemas):
    sqlite, postgres = schemas["sqlite"]["tables"], schemas["postgresql"]["tables"]
    for table, columns in sqlite.items():
        assert [c[0] for c in postgres[table]] == [c[0] for c in columns], table
        for (name, family, notnull, pk), (_, pg_type, pg_notnull, pg_pk) in zip(columns, postgres[table], strict=True):
            assert pg_type in FAMILIES[family], f"{table}.{name}: {pg_type} does not hold SQLite's {family}"
            assert (pg_notnull, pg_pk) == (notnull, pk), f"{table}.{name}: NOT NULL / primary key position"


def test_the_ids_are_64_bit_on_postgresql(schemas):
    """Discord snowflakes pass 2**31: every integer id column is BIGINT."""
    sqlite, postgres = schemas["sqlite"]["tables"], schemas["postgresql"]["tables"]
    ids = {
        (table, name): pg[1]
        for table, columns in sqlite.items()
        for (name, family, _, _), pg in zip(columns, postgres[table], strict=True)
        if family == "INTEGER" and (name == "id" or name.endswith("_id"))
    }
    assert ("games", "guild_id") in ids and {key: kind for key, kind in ids.items() if kind != "bigint"} == {}


def test_the_same_indexes(schemas):
    assert schemas["postgresql"]["indexes"] == schemas["sqlite"]["indexes"]
    assert schemas["sqlite"]["indexes"]["games_one_open_per_channel"] == ("games", ("channel_id",), True, True)


def test_the_same_version_and_migration_numbers(schemas):
    sqlite, postgres = migrations("sqlite"), migrations("postgresql")
    assert schemas["sqlite"]["version"] == schemas["postgresql"]["version"] == sqlite[-1][0] == postgres[-1][0]
    # PostgreSQL starts at the whole schema (0008); from there every migration has its twin.
    assert [n for n, _ in sqlite if n >= postgres[0][0]] == [n for n, _ in postgres]
