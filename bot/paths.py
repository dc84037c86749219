"""Where the bot keeps things, from the environment, and how a database is shown: standard library only, so
``dicetavern health`` (Docker's probe, every 30 s) and ``dicetavern config`` import no discord, aiohttp or driver."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DATABASE = "data/dicetavern.sqlite3"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
HEARTBEAT_INTERVAL = 30.0
HEARTBEAT_MAX_AGE = 3 * HEARTBEAT_INTERVAL
HEARTBEAT_ENV = "DICETAVERN_HEARTBEAT"  # the file's path, whatever the database (else see heartbeat_path)
HEARTBEAT_DIR = "data"  # with a PostgreSQL URL: no database file to sit next to
MASK = "***"


class ShardRange(Protocol):
    """What ``heartbeat_path`` reads of ``bot.shards.Shards``."""

    @property
    def everything(self) -> bool: ...


def database_target() -> str:
    """Where the store is, from the environment: ``DATABASE_URL`` (postgresql://...) if set, else
    ``DATABASE_PATH``, else data/dicetavern.sqlite3."""
    return os.environ.get("DATABASE_URL", "").strip() or os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE


def is_url(database: str | Path) -> bool:
    return str(database).startswith(POSTGRES_SCHEMES)


def shown_database(database: str | Path) -> str:
    """The database as logs, errors and ``dicetavern config`` show it: a file's absolute path, a URL with its
    password masked. The one masker: ``dicetavern migrate``'s messages use it too."""
    if "://" not in str(database):  # a file (any URL, even one the store refuses, keeps its password hidden)
        return os.path.abspath(str(database).removeprefix("sqlite:"))
    parts = urlsplit(str(database))
    if parts.password is None:
        return str(database)
    netloc = parts.netloc.replace(f":{parts.password}@", f":{MASK}@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def shown_secret(value: str) -> str:
    """A secret (the bot token) as ``dicetavern config`` shows it: that it is set, and its last 4 characters for
    telling tokens apart, never the rest."""
    value = value.strip()
    if not value:
        return "unset"
    return f"{MASK}{value[-4:]}" if len(value) >= 16 else MASK


def heartbeat_path(database: str | Path, shards: ShardRange | None = None) -> Path:
    """``DICETAVERN_HEARTBEAT`` if set; else next to a SQLite database (on the data volume the container can write),
    or in data/ beside a PostgreSQL one. A process on some shards has a file of its own (``.shards-0-3-of-8``), so
    processes sharing a folder never answer ``dicetavern health`` for one another."""
    chosen = os.environ.get(HEARTBEAT_ENV, "").strip()
    if chosen:
        return Path(chosen)
    base = f"{HEARTBEAT_DIR}/dicetavern" if is_url(database) else str(database).removeprefix("sqlite:")
    if shards is not None and not shards.everything:
        base += f".shards-{str(shards).replace(' of ', '-of-').replace(',', '_')}"
    return Path(f"{base}.heartbeat")
