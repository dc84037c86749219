"""``dicetavern migrate``: copy a whole database from one store to another (SQLite -> PostgreSQL, or back).

Both ends are first brought to the current schema by ``open_store`` (as the bot does at start). The tables to copy
are read from the source's schema (its bookkeeping, ``schema_version`` and ``leases``, stays behind) and copied in
the order of their foreign keys, the target's side in ONE transaction: on PostgreSQL with COPY (asyncpg's
``copy_records_to_table``), on SQLite with ``executemany``. Before committing, every table is verified: its row
count, and an order-free checksum of its rows (the sum of the rows' hashes), read back from the target inside the
same transaction. Anything that does not match rolls the whole copy back, so the target is either a verified copy
or untouched. A non-empty target is refused unless ``--force`` (which empties it in the same transaction), and so is
a source or a target on which a bot holds a live lease (a copy of a database being written is stale at once, and
a database being served is not the copy's to fill).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import AsyncGenerator, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import t
from bot.paths import shown_database
from bot.store import DEFAULT_DATABASE, open_store
from bot.store.copy_ends import Batch, End, Types, converter, kind_of, open_end, parse_target
from bot.store.errors import DriverMissing

DEFAULT_BATCH = 5_000
SKIPPED = frozenset({"schema_version", "leases"})  # each database's own bookkeeping, not data


class CopyError(Exception):
    """A refusal or a failure, as one line for the operator: ``key`` (``migrate.<key>``) and its fields."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        return t(f"migrate.{self.key}", **self.params)


@dataclass
class TableCheck:
    """One table: rows read from the source, rows found in the target, and each side's checksum."""

    name: str
    source: int = 0
    target: int = 0
    source_sum: int = 0
    target_sum: int = 0

    @property
    def ok(self) -> bool:
        return self.source == self.target and self.source_sum == self.target_sum


@dataclass
class Report:
    tables: list[TableCheck] = field(default_factory=list)
    committed: bool = False
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return all(table.ok for table in self.tables)

    @property
    def rows(self) -> int:
        return sum(table.source for table in self.tables)


def dependency_order(tables: list[str], references: dict[str, set[str]]) -> list[str]:
    """``tables`` with every table after the tables it references (the rest in the given order)."""
    ordered: list[str] = []
    placing: set[str] = set()

    def place(name: str) -> None:
        if name in ordered or name in placing:  # placed, or a cycle (the insert order cannot satisfy it anyway)
            return
        placing.add(name)
        for parent in sorted(references.get(name, ())):
            if parent in tables and parent != name:
                place(parent)
        ordered.append(name)

    for name in tables:
        place(name)
    return ordered


async def _migrate_schema(target: str) -> None:
    """Bring ``target`` to the current schema (creating it if need be), exactly as the bot's start does."""
    store = await open_store(target)
    await store.close()


def _parse(target: str) -> tuple[str, str]:
    try:
        return parse_target(target)
    except ValueError:
        raise CopyError("bad_target", target=target) from None


async def _open(target: str, is_source: bool) -> End:
    """``target`` at the current schema, opened for the copy (a missing SQLite source is refused, not created)."""
    dialect, where = _parse(target)
    try:
        if dialect == "sqlite" and is_source and not os.path.exists(where):
            raise CopyError("no_source", path=where)
        await _migrate_schema(target)
        return await open_end(dialect, where)
    except CopyError:
        raise
    except DriverMissing:
        raise CopyError("cannot_open", target=_shown(target), error=t("cli.postgres_missing")) from None
    except Exception as error:  # noqa: BLE001 - a setup problem: one line, not a traceback
        raise CopyError("cannot_open", target=_shown(target), error=_one_line(error)) from error


def _one_line(error: BaseException) -> str:
    return "; ".join(line.strip() for line in str(error).splitlines() if line.strip()) or type(error).__name__


def _shown(target: str) -> str:
    """``target`` with its password masked, for messages (bot.paths' one masker)."""
    dialect, where = _parse(target)
    return shown_database(where) if dialect == "postgresql" else target


async def copy_database(
    source: str, target: str, *, batch: int = DEFAULT_BATCH, force: bool = False, dry_run: bool = False
) -> Report:
    """Copy every table of ``source`` into ``target`` and verify it; commits only if every table matches (and not
    ``dry_run``). Raises :class:`CopyError` for a refusal (nothing written but the target's schema)."""
    started = time.perf_counter()
    if _same(source, target):
        raise CopyError("same", target=_shown(target))
    src = await _open(source, is_source=True)
    dst: End | None = None
    try:
        await src.begin_read()  # one snapshot for the lease check, the schema and the rows
        await _refuse_leased(src, source)
        dst = await _open(target, is_source=False)
        await _refuse_leased(dst, target)  # --force would pull a running bot's tables from under it
        columns, target_columns = await src.tables(), await dst.tables()
        names = _tables_to_copy(columns, target_columns, _shown(target))
        order = dependency_order(names, await src.references())
        await dst.begin_write()
        report = Report()
        try:
            await _prepare(dst, order, force, _shown(target))
            for name in order:
                report.tables.append(await _copy_table(src, dst, name, columns[name], target_columns[name], batch))
            try:
                await dst.finish_copy()
            except Exception as error:  # noqa: BLE001 - a row without its parent: one line, rolled back
                raise CopyError("constraint_failed", error=_one_line(error)) from error
            for check in report.tables:
                await _read_back(dst, check, list(columns[check.name]), batch)
            if report.ok and not dry_run:
                await dst.commit()
                report.committed = True
        finally:
            if not report.committed:
                await dst.rollback()
        report.seconds = time.perf_counter() - started
        return report
    finally:
        await src.close()
        if dst is not None:
            await dst.close()


def _same(source: str, target: str) -> bool:
    (dialect, a), (other, b) = _parse(source), _parse(target)
    if dialect == other == "sqlite":
        return os.path.realpath(a) == os.path.realpath(b)
    return (dialect, a) == (other, b)


def _tables_to_copy(columns: Types, target_columns: Types, shown: str) -> list[str]:
    """The source's tables but its bookkeeping; refused if the target lacks any of them or of their columns."""
    names = [name for name in columns if name not in SKIPPED]
    for name in names:
        if name not in target_columns:
            raise CopyError("missing_table", target=shown, table=name)
        missing = [c for c in columns[name] if c not in target_columns[name]]
        if missing:
            raise CopyError("missing_columns", target=shown, table=name, columns=", ".join(missing))
    return names


async def _copy_table(
    src: End, dst: End, name: str, types: dict[str, str], target_types: dict[str, str], batch: int
) -> TableCheck:
    """Stream one table from ``src`` into ``dst``; the check holds what was read (rows and checksum)."""
    check = TableCheck(name)
    cols = list(types)
    convert = _converters([types[c] for c in cols], [target_types[c] for c in cols])
    try:
        async with aclosing(_read_ahead(src.rows(name, cols, batch))) as batches:
            async for rows in batches:
                if convert is not None:
                    rows = convert(rows)
                check.source += len(rows)
                check.source_sum = (check.source_sum + _checksum(rows)) % 2**64
                await dst.insert(name, cols, rows)
    except Exception as error:  # noqa: BLE001 - a bad value, a constraint, a broken source: one line, rolled back
        raise CopyError("copy_failed", table=name, error=_one_line(error)) from error
    return check


async def _read_back(dst: End, check: TableCheck, cols: list[str], batch: int) -> None:
    """What the target now holds of one table, counted and summed as the source's rows were."""
    async for rows in dst.rows(check.name, cols, batch):
        check.target += len(rows)
        check.target_sum = (check.target_sum + _checksum(rows)) % 2**64


async def _read_ahead(batches: AsyncGenerator[Batch, None]) -> AsyncGenerator[Batch, None]:
    """``batches``, reading the next one while the caller writes the current one: the source's reads overlap the
    target's writes (different connections)."""
    pending = asyncio.ensure_future(anext(batches, None))
    try:
        while (rows := await pending) is not None:
            pending = asyncio.ensure_future(anext(batches, None))
            yield rows
    finally:
        if not pending.done():  # the copy failed: let the read in flight finish before its connection closes
            await asyncio.wait([pending])
        await batches.aclose()


async def _refuse_leased(end: End, target: str) -> None:
    live = await end.live_leases(time.time())
    if live:
        shard, owner, left = live[0]
        raise CopyError("leased", database=_shown(target), shard=shard, owner=owner, seconds=left)


async def _prepare(dst: End, order: list[str], force: bool, shown: str) -> None:
    """Refuse a target that holds data, or (``force``) empty it, children first."""
    for name in order:
        count = await dst.count(name)
        if count and not force:
            raise CopyError("not_empty", target=shown, table=name, rows=t("migrate.rows", count=count))
    if force:
        for name in reversed(order):
            await dst.clear(name)


def _converters(source_types: list[str], target_types: list[str]) -> Callable[[list[Any]], list[Any]] | None:
    """A function converting a batch's values where a column's declared kind differs between the two schemas
    (None when none does: then the values already are what the target takes)."""
    changes = [
        (i, converter(kind_of(dst)))
        for i, (src, dst) in enumerate(zip(source_types, target_types, strict=True))
        if kind_of(src) != kind_of(dst)
    ]
    if not changes:
        return None

    def convert(rows: list[Any]) -> list[Any]:
        converted = []
        for row in rows:
            values = list(row)
            for i, fn in changes:
                values[i] = fn(values[i])
            converted.append(tuple(values))
        return converted

    return convert


def _checksum(rows: list[tuple[Any, ...]]) -> int:
    # The sum of the rows' hashes: independent of row order (each backend returns its own), cheap (C-level hash of
    # plain ints, floats and strings), and both sides are hashed in this process, so str hashing's salt is shared.
    return sum(hash(tuple(row)) for row in rows) % 2**64


# -- the command --------------------------------------------------------------------------------------------------


def default_source() -> str:
    return "sqlite:" + os.environ.get("DATABASE_PATH", DEFAULT_DATABASE)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source",
        default=None,
        help="the database to copy: sqlite:PATH or a postgresql:// URL (default: sqlite:DATABASE_PATH)",
    )
    parser.add_argument(
        "--to", dest="target", required=True, help="the database to fill: a postgresql:// URL or sqlite:PATH"
    )
    parser.add_argument(
        "--batch", type=int, default=DEFAULT_BATCH, help=f"rows per round trip (default {DEFAULT_BATCH})"
    )
    parser.add_argument("--force", action="store_true", help="replace whatever the target holds (in one transaction)")
    parser.add_argument(
        "--dry-run", action="store_true", help="copy and verify, then roll back: the target keeps no rows"
    )
    parser.set_defaults(handler=run)


def format_report(report: Report) -> list[str]:
    """The table of counts the command prints: one line per table, then the headers' line first."""
    heads = [t("migrate.col_table"), t("migrate.col_source"), t("migrate.col_target"), t("migrate.col_check")]
    rows = [
        [check.name, f"{check.source:,}", f"{check.target:,}", t("migrate.match" if check.ok else "migrate.differs")]
        for check in report.tables
    ]
    widths = [max(len(row[i]) for row in [heads, *rows]) for i in range(4)]
    return [
        f"{row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:>{widths[2]}}  {row[3]}".rstrip()
        for row in [heads, *rows]
    ]


def run(args: argparse.Namespace) -> int:
    source = args.source or default_source()
    if args.batch < 1:
        print(t("cli.error", message=t("migrate.bad_batch", batch=args.batch)), file=sys.stderr)
        return 2
    try:
        report = asyncio.run(
            copy_database(source, args.target, batch=args.batch, force=args.force, dry_run=args.dry_run)
        )
    except CopyError as error:
        print(t("cli.error", message=error), file=sys.stderr)
        return 2
    print("\n".join(format_report(report)))
    shown = {"source": _shown(source), "target": _shown(args.target)}
    if not report.ok:
        print(t("cli.error", message=t("migrate.failed", **shown)), file=sys.stderr)
        return 1
    key = "migrate.done" if report.committed else "migrate.dry_run"
    rows, tables = t("migrate.rows", count=report.rows), t("migrate.tables", count=len(report.tables))
    print(t(key, rows=rows, tables=tables, seconds=report.seconds, **shown))
    return 0
