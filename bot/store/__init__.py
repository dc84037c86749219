"""The store: SQLite (the default) or PostgreSQL behind one interface (bot.store.db)."""

from __future__ import annotations

import os
import sqlite3

import asyncpg  # type: ignore[import-untyped]

from bot.store.db import Store
from bot.store.sql import SQL

__all__ = ["DEFAULT_DATABASE", "SQL", "IntegrityError", "Store", "database_target"]

DEFAULT_DATABASE = "data/dicetavern.sqlite3"

# A constraint refused the write (a unique key taken, a foreign key missing): catchable the same on both backends.
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


def database_target() -> str:
    """Where the store is, from the environment: ``DATABASE_URL`` (postgresql://...) if set, else
    ``DATABASE_PATH``, else data/dicetavern.sqlite3."""
    return os.environ.get("DATABASE_URL", "").strip() or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE
