"""Waiting in tests: for the event itself, never for a fixed time.

A test that needs something to have happened (a log line, a row, a task that ended) waits until it has, with a
deadline that only bounds a real hang: ``DEADLINE`` seconds, 120 by default (``DICETAVERN_TEST_DEADLINE``
overrides it). A busy 2-core machine is slow, not broken (a bot's start-up once took over 60 s with both cores
oversubscribed several times), so the deadline is generous; a test that passes waits no longer than the event takes.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

DEADLINE_ENV = "DICETAVERN_TEST_DEADLINE"
DEADLINE = float(os.environ.get(DEADLINE_ENV) or 120.0)
POLL = 0.01  # seconds between two looks at something that says nothing when it changes (a file, a row, a thread)


async def eventually(
    predicate: Callable[[], T | Awaitable[T]], timeout: float = DEADLINE, *, what: str, poll: float = POLL
) -> T:
    """The first truthy value of ``predicate()`` (a plain or an async function), looked at every ``poll`` seconds;
    ``TimeoutError`` naming ``what`` after ``timeout``. For events nobody announces: where the fake Discord records
    the change, its ``wait_for`` wakes on it instead."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        result = await value if inspect.isawaitable(value) else value
        if result:
            return result  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(poll)

