"""Fixtures for every test folder: ``database``, a target for ``open_store`` on each backend (tests/databases.py).

The suite runs in parallel (pyproject.toml: ``-n auto``), each pytest-xdist worker a process of its own: a test's
PostgreSQL schema has a random name (tests/databases.py), the fake Discord listens on a port the system picks,
every file a test writes is under its ``tmp_path`` (per worker), and what the computer players cache goes to a
folder of the worker's (``own_cache_folder``), never to the repository's data/.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from bot.ai.pig_player import CACHE_ENV
from tests.databases import KINDS, database_target


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: runs against PostgreSQL (skipped when none is reachable)")


@pytest.fixture(scope="session", autouse=True)
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The computer players' cache (Pig variants without a shipped table, solved and saved) in a folder of this
    worker's: two workers never write one file, and a test run leaves nothing in data/."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        yield


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
