"""The schema's migrations: the numbered SQL files of each dialect and the Python steps run after some of them.

bot/store/migrations/NNNN_*.sql (SQLite) and bot/store/migrations/postgresql/NNNN_*.sql (PostgreSQL) are applied
in number order, each once, by the backend that opens the store. A number in ``PYTHON_STEPS`` also runs that
Python, after the file's SQL and in the same transaction: what SQL alone cannot compute.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources

from bot.store.ratings import backfill
from bot.store.sql import Cursor

__all__ = ["PYTHON_STEPS", "migrations"]

PYTHON_STEPS: dict[int, Callable[[Cursor], None]] = {
    8: backfill,  # 0008: ratings from the results already stored, in finish order
}


def migrations(dialect: str = "sqlite") -> list[tuple[int, str]]:
    """``(number, SQL text)`` of every migration of ``dialect`` ("sqlite" or "postgresql"), in number order."""
    folder = resources.files("bot.store") / "migrations"
    if dialect == "postgresql":
        folder = folder / "postgresql"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    return sorted(found)
