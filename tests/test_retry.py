"""The presenter's retry policy (cogs.utils.retry): which failures can pass, and the backoff between tries."""

from __future__ import annotations

import random
from types import SimpleNamespace

import aiohttp
import discord
import pytest

from cogs.utils import retry


def http(status: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="x"), {"message": "x", "code": 0})


@pytest.mark.parametrize("status", [500, 502, 503, 504, 429])
def test_server_errors_and_rate_limits_past_the_retries_can_pass(status: int):
    assert retry.transient(http(status))


@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_other_client_errors_are_permanent(status: int):
    assert not retry.transient(http(status))


@pytest.mark.parametrize(
    "error",
    [
        aiohttp.ServerDisconnectedError(),
        aiohttp.ClientConnectionError("reset"),
        ConnectionResetError(104, "Connection reset by peer"),
        OSError(101, "Network is unreachable"),
        TimeoutError(),
    ],
)
def test_dropped_connections_and_timeouts_can_pass(error: BaseException):
    assert retry.transient(error)


@pytest.mark.parametrize("error", [ValueError("bug"), RuntimeError("x"), KeyError(1)])
def test_bugs_are_not_retried(error: BaseException):
    assert not retry.transient(error)


def test_the_backoff_doubles_from_the_first_wait_up_to_the_cap_with_bounded_jitter():
    rng = random.Random(1)
    waits = [retry.delay(n, 1.0, 30.0, rng) for n in range(8)]
    for n, wait in enumerate(waits):
        base = min(30.0, 2.0**n)
        assert base <= wait <= base * (1 + retry.JITTER)
    assert retry.delay(10_000, 1.0, 30.0, rng) <= 30.0 * (1 + retry.JITTER)  # no overflow on a long outage
    assert retry.delay(0, 0.01, 0.05, rng) < 0.05  # tests can make it small


def test_a_retried_failure_is_described_in_one_short_line():
    assert retry.describe(http(503)) == "HTTP 503"
    assert retry.describe(aiohttp.ServerDisconnectedError()).startswith("ServerDisconnectedError")
    assert retry.describe(TimeoutError()) == "TimeoutError"
