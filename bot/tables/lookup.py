"""The open tables by one key (game id or channel id), each loaded as it is handed out.

Restore leaves running tables ``pending`` (``bot.tables.restore``); a lookup (``[key]``, ``get``, ``values``) loads
the table first, so whoever gets a table gets it up to date. ``in``, ``len`` and the keys load nothing, and
``peek`` / ``peek_all`` give tables as they are, for bookkeeping that reads only the row's fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, ValuesView

from bot.tables.model import Table


class Lookup(Mapping[int, Table]):
    def __init__(self, load: Callable[[Table], bool]) -> None:
        """``load(table)``: bring a pending table up to date; False if it could not be (it is closed then, and the
        loader takes it out of the lookups)."""
        self._tables: dict[int, Table] = {}
        self._load = load

    def __getitem__(self, key: int) -> Table:
        table = self._tables[key]
        if table.pending is not None and not self._load(table):
            raise KeyError(key)
        return table

    def __iter__(self) -> Iterator[int]:
        return iter(list(self._tables))  # (a table that fails to load leaves while the keys are read)

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def values(self) -> ValuesView[Table]:
        return _Loaded(self)

    def peek(self, key: int) -> Table | None:
        """The table as it is, loaded or not."""
        return self._tables.get(key)

    def peek_all(self) -> list[Table]:
        """Every table as it is, loaded or not."""
        return list(self._tables.values())

    def put(self, key: int, table: Table) -> None:
        self._tables[key] = table

    def remove(self, key: int, table: Table) -> None:
        """Take ``table`` out, if it is still the one under ``key``."""
        if self._tables.get(key) is table:
            del self._tables[key]


class _Loaded(ValuesView[Table]):
    """The tables of a lookup, each loaded (one that cannot be is left out)."""

    def __init__(self, lookup: Lookup) -> None:
        super().__init__(lookup)
        self.lookup = lookup

    def __iter__(self) -> Iterator[Table]:
        for key in self.lookup:
            table = self.lookup.get(key)
            if table is not None:
                yield table

    def __contains__(self, value: object) -> bool:
        return any(table is value or table == value for table in self)
