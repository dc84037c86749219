"""Which failures of a publish to Discord can pass, and how long to wait before trying again. Pure: no I/O.

Transient: a 5xx (discord.py retried it already), a 429 past discord.py's own retries, a dropped connection
(``aiohttp.ClientConnectionError``, a reset, any ``OSError``: discord.py does not retry those) and a timeout.
Permanent: any other 4xx (403, 404, 400): trying again would fail the same way.
"""

from __future__ import annotations

import random

import aiohttp
import discord

FIRST = 1.0  # seconds before the first retry
CAP = 30.0  # the longest wait between two tries
JITTER = 0.2  # each wait is stretched by up to this fraction, so tables that failed together do not retry together


def transient(error: BaseException) -> bool:
    """True if the same call may succeed later."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.status == 429
    if isinstance(error, discord.RateLimited):  # a rate limit longer than the client's max_ratelimit_timeout
        return True
    return isinstance(error, aiohttp.ClientConnectionError | OSError | TimeoutError)


def delay(attempt: int, first: float = FIRST, cap: float = CAP, rng: random.Random | None = None) -> float:
    """The wait before retry number ``attempt`` (0 for the first): first, 2·first, 4·first, … up to ``cap``,
    plus up to JITTER of it."""
    base = min(cap, first * 2 ** min(attempt, 32))
    return base * (1 + JITTER * (rng or random).random())


def describe(error: BaseException) -> str:
    """One short line for a retried failure's WARNING (no traceback: it is expected to pass)."""
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
