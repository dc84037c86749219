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


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say it once at the end, under -q too, when the PostgreSQL half of the suite did not run."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = [r.longrepr[2] if isinstance(r.longrepr, tuple) else str(r.longrepr) for r in skipped]
    missing = [reason for reason in reasons if "PostgreSQL not reachable" in reason]
    if missing:
        why = missing[0][missing[0].index("PostgreSQL not reachable") :]
        terminalreporter.write_line(f"{len(missing)} PostgreSQL tests skipped: {why}", yellow=True)
