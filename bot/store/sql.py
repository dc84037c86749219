"""SQL text shared by both store backends: one portable text, or a ``SQL`` pair where the dialects differ.

Placeholders are SQLite's everywhere: ``?`` (the next number) and ``?N`` (number N). The PostgreSQL backend
rewrites them to ``$N`` once per text (cached); a ``?`` inside a string literal, a quoted identifier or a comment
is left alone. (PostgreSQL's jsonb ``?`` operators cannot be written as such: use ``jsonb_exists`` instead.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, NamedTuple, Protocol

DIALECTS = ("sqlite", "postgresql")


class SQL(NamedTuple):
    """A statement whose text differs between the dialects."""

    sqlite: str
    postgresql: str


def pick(sql: str | SQL, dialect: str) -> str:
    """The text of ``sql`` for ``dialect`` ("sqlite" or "postgresql")."""
    if isinstance(sql, str):
        return sql
    if dialect == "sqlite":
        return sql.sqlite
    if dialect == "postgresql":
        return sql.postgresql
    raise ValueError(f"unknown SQL dialect {dialect!r}")


def each(template: str, *parts: SQL, **common: object) -> SQL:
    """``template`` formatted per dialect: ``{0}``, ``{1}``... with that dialect's text of ``parts``, named fields
    with ``common`` (the same in both)."""
    return SQL(
        sqlite=template.format(*(p.sqlite for p in parts), **common),
        postgresql=template.format(*(p.postgresql for p in parts), **common),
    )


class Cursor(Protocol):
    """What a ``Step`` receives: on SQLite a ``sqlite3.Cursor`` subclass, on PostgreSQL a cursor that forwards each
    call to the batch's connection."""

    @property
    def dialect(self) -> str: ...

    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str | SQL, parameters: Sequence[Any] = (), /) -> Any: ...

    def executemany(self, sql: str | SQL, seq_of_parameters: Iterable[Sequence[Any]], /) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


Statement = tuple[str | SQL, Sequence[Any]]
# A write that needs Python between reads and writes (a finished game's ratings: read, rate, write), run inside the
# batch's transaction, so it commits or rolls back with the statements beside it.
Step = Callable[[Cursor], None]


@lru_cache(maxsize=4096)
def postgres_text(sql: str) -> str:
    """``sql`` with SQLite's ``?``/``?N`` placeholders as PostgreSQL's ``$N``."""
    if "?" not in sql:
        return sql
    out: list[str] = []
    highest = 0
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c in "'\"":  # a string literal or a quoted identifier: up to its closing quote ('' and "" stay inside)
            end = sql.find(c, i + 1)
            while end != -1 and end + 1 < n and sql[end + 1] == c:
                end = sql.find(c, end + 2)
            end = n if end == -1 else end + 1
            out.append(sql[i:end])
            i = end
        elif c == "-" and sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end == -1 else end
            out.append(sql[i:end])
            i = end
        elif c == "/" and sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            end = n if end == -1 else end + 2
            out.append(sql[i:end])
            i = end
        elif c == "?":
            j = i + 1
            while j < n and sql[j].isdigit():
                j += 1
            number = int(sql[i + 1 : j]) if j > i + 1 else highest + 1
            highest = max(highest, number)
            out.append(f"${number}")
            i = j
        else:
            j = i + 1
            while j < n and sql[j] not in "'\"-/?":
                j += 1
            out.append(sql[i:j])
            i = j
    return "".join(out)


_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES|TABLE|SHOW)\b|\bRETURNING\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def returns_rows(sql: str) -> bool:
    """Whether ``sql`` answers with rows: a query, or a write with RETURNING."""
    return _ROWS.search(sql) is not None
