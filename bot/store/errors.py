"""What a store raises that callers catch, the same on both backends."""

from __future__ import annotations

import sqlite3

import asyncpg  # type: ignore[import-untyped]

__all__ = ["IntegrityError", "LeaseLost"]

# A constraint refused the write (a unique key taken, a foreign key missing): catchable the same on both backends.
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


class LeaseLost(Exception):
    """This process no longer holds a shard's lease: another took it over (or it was released)."""

    def __init__(self, shard: int, holder: str) -> None:
        super().__init__(f"lost the lease on shard {shard} to {holder or 'nobody'}")
        self.shard = shard
        self.holder = holder
