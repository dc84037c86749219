"""A constraint's refusal, catchable the same on both backends (it names both drivers' exceptions, so the base
store module does not import this)."""

from __future__ import annotations

import sqlite3

import asyncpg  # type: ignore[import-untyped]

__all__ = ["IntegrityError"]

# A constraint refused the write (a unique key taken, a foreign key missing): catchable the same on both backends.
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
