"""Service test fixtures beside tests/conftest.py's ``database``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from tests.databases import database_target


@pytest.fixture
async def new_database(
    database: str, request: pytest.FixtureRequest, tmp_path
) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """Another fresh, empty database on the backend of the test's ``database`` (a test comparing two stores):
    ``await new_database()`` gives its target; each one is gone after the test."""
    kind = request.node.callspec.params["database"]
    async with contextlib.AsyncExitStack() as stack:
        made = 0

        async def make() -> str:
            nonlocal made
            made += 1
            targets = database_target(kind, tmp_path / f"more{made}")
            stack.push_async_callback(targets.aclose)
            return await anext(targets)

        yield make
