"""What the store's callers catch, the same on both backends. asyncpg (the ``postgres`` extra) is optional: without it
these name SQLite's exceptions only, and asking for PostgreSQL raises ``DriverMissing``."""

from __future__ import annotations

import sqlite3
from types import ModuleType

try:
    import asyncpg  # type: ignore[import-untyped]
except ImportError:  # a SQLite-only install: pip install "dicetavern[postgres]" adds it
    asyncpg = None

__all__ = ["SETUP_ERRORS", "DriverMissing", "IntegrityError", "postgres_driver"]


class DriverMissing(ImportError):
    """DATABASE_URL names PostgreSQL, and this install has no asyncpg (the ``postgres`` extra)."""

    def __init__(self) -> None:
        super().__init__('asyncpg is not installed: pip install "dicetavern[postgres]"')


def postgres_driver() -> ModuleType:
    """asyncpg, or ``DriverMissing`` for an install without the ``postgres`` extra."""
    if asyncpg is None:
        raise DriverMissing
    return asyncpg


_POSTGRES_INTEGRITY = () if asyncpg is None else (asyncpg.IntegrityConstraintViolationError,)
_POSTGRES_SETUP = () if asyncpg is None else (asyncpg.PostgresError, asyncpg.InterfaceError)

# A constraint refused the write (a unique key taken, a foreign key missing): catchable the same on both backends.
IntegrityError: tuple[type[BaseException], ...] = (sqlite3.IntegrityError, *_POSTGRES_INTEGRITY)

# What opening the store may raise that is the setup's fault, not a bug: a path, a file, a server, a URL, a driver.
SETUP_ERRORS: tuple[type[BaseException], ...] = (OSError, sqlite3.Error, ValueError, DriverMissing, *_POSTGRES_SETUP)
