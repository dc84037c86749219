"""The databases tests run against: a temp SQLite file, and a fresh schema on the local PostgreSQL.

PostgreSQL comes from ``DICETAVERN_TEST_POSTGRES`` (default postgresql://postgres@127.0.0.1:5432/test). When no
server answers there, PostgreSQL tests skip with the reason, unless ``DICETAVERN_REQUIRE_POSTGRES=1`` (CI): then
they fail. Each test gets a schema of its own (``?search_path=t_<hex>``: asyncpg passes the URL's unknown query
parameters as server settings), dropped after it.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

POSTGRES_ENV = "DICETAVERN_TEST_POSTGRES"
REQUIRE_ENV = "DICETAVERN_REQUIRE_POSTGRES"
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"

# The ``database`` fixture's parameters; a PostgreSQL test is marked ``postgres`` (``-m "not postgres"`` skips them).
KINDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]

_unreachable: dict[str, str] = {}  # base URL -> why it could not be reached (asked once per session)


def postgres_base() -> str:
    return os.environ.get(POSTGRES_ENV, "").strip() or DEFAULT_POSTGRES


def with_schema(base: str, schema: str) -> str:
    """``base`` with ``search_path`` set to ``schema``."""
    return f"{base}{'&' if '?' in base else '?'}search_path={schema}"


async def _admin(base: str) -> Any:
    """A connection to ``base``, or a skip (a failure when PostgreSQL is required) naming why not."""
    import asyncpg  # type: ignore[import-untyped]

    if base not in _unreachable:
        try:
            return await asyncpg.connect(base, timeout=5)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:  # (TimeoutError is an OSError)
            _unreachable[base] = f"{type(error).__name__}: {error}"
    message = f"PostgreSQL not reachable at {base}: {_unreachable[base]}; set {POSTGRES_ENV}"
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{message} ({REQUIRE_ENV}=1)", pytrace=False)
    pytest.skip(message)


async def postgres_schema() -> AsyncIterator[str]:
    """A URL of a fresh schema on the test PostgreSQL, dropped when the generator closes."""
    base = postgres_base()
    admin = await _admin(base)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(base, schema)
    finally:
        try:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await admin.close()


async def database_target(kind: str, folder: Path) -> AsyncIterator[str]:
    """A target for ``open_store`` of ``kind`` ("sqlite" or "postgresql"), gone after the generator closes."""
    if kind == "sqlite":
        yield str(folder / "store.sqlite3")
        return
    if kind != "postgresql":
        raise ValueError(f"unknown database kind {kind!r}")
    async for url in postgres_schema():
        yield url
