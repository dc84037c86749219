"""Fixtures for every test folder: ``database``, a target for ``Store.open`` on each backend (tests/databases.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.databases import KINDS, database_target


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs against PostgreSQL (skipped when none is reachable)")


@pytest.fixture(params=KINDS)
async def database(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[str]:
    """A SQLite file path, or a ``postgresql://`` URL of a fresh schema (dropped after the test)."""
    async for target in database_target(request.param, tmp_path):
        yield target
