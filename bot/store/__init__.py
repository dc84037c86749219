"""The store: SQLite (the default, bot.store.sqlite) or PostgreSQL (bot.store.postgres) behind one interface
(bot.store.db). ``open_store`` is the factory: it sits here, beside the backends, so the base knows neither."""

from __future__ import annotations

from pathlib import Path

from bot.paths import DEFAULT_DATABASE, database_target
from bot.store.db import Store, durability_setting, parse_target
from bot.store.errors import IntegrityError, postgres_driver
from bot.store.sql import SQL
from bot.store.sqlite import SQLiteStore

__all__ = ["DEFAULT_DATABASE", "SQL", "IntegrityError", "Store", "database_target", "open_store"]


async def open_store(target: str | Path, durability: str | None = None) -> Store:
    """The store at ``target`` (a SQLite path, ``sqlite:PATH``, or a ``postgresql://`` URL), connected, migrated
    and taking writes. ``durability``: ``full`` or ``fast`` (bot.store.db's notes); None reads
    ``DICETAVERN_DURABILITY``."""
    dialect, where = parse_target(target)
    chosen = durability_setting(durability)
    store: Store
    if dialect == "postgresql":
        postgres_driver()  # DriverMissing, not a bare ImportError, on an install without the postgres extra
        from bot.store.postgres import PostgresStore

        store = await PostgresStore.connect(where, chosen)
    else:
        store = await SQLiteStore.connect(where, chosen)
    store.start()
    return store
