"""Which guilds this process serves: Discord's shard of a guild is ``(guild_id >> 22) % shard_count``.

A process runs some shards of ``count`` (``dicetavern run --shards 0-3 --shard-count 8``); the gateway sends it the
events of those shards' guilds only, and its table service restores, times out, moves computer players for and
compacts those guilds' games only: another process owns the rest of the same database.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

SHARDS_ENV = "DICETAVERN_SHARDS"
SHARD_COUNT_ENV = "DICETAVERN_SHARD_COUNT"
MAX_SHARDS = 1 << 16  # far beyond any bot's; it keeps a typo from building a huge set


class ShardError(ValueError):
    """A shard range or count that cannot be used; the message says why in one line."""


def group_dm_scope(channel_id: int) -> int:
    """A group DM's scope (its tables, results and board): its channel id negated. Negative, so it never meets a
    server's id and lies on shard 0, where Discord sends every interaction that comes without a server."""
    return -channel_id


def shard_of(guild_id: int, count: int) -> int:
    """Discord's shard of a guild: the snowflake's timestamp bits modulo the shard count; a group DM's scope
    (negative, ``group_dm_scope``) is shard 0's."""
    return 0 if guild_id < 0 else (guild_id >> 22) % count


@dataclass(frozen=True)
class Shards:
    ids: frozenset[int]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ShardError(f"the shard count must be at least 1, not {self.count}")
        if not self.ids:
            raise ShardError("no shard given")
        wrong = sorted(i for i in self.ids if not 0 <= i < self.count)
        if wrong:
            raise ShardError(f"shard {wrong[0]} is out of range: shards are 0 to {self.count - 1} of {self.count}")

    @classmethod
    def all(cls) -> Shards:
        """One process for every guild: shard 0 of 1 (the default)."""
        return cls(frozenset({0}), 1)

    @property
    def everything(self) -> bool:
        """This process owns every guild (nothing to filter)."""
        return len(self.ids) == self.count

    @property
    def sharded(self) -> bool:
        """Discord is asked for shards (more than one exists), so the client must identify with them."""
        return self.count > 1

    def owns(self, guild_id: int) -> bool:
        return self.everything or shard_of(guild_id, self.count) in self.ids

    def sql(self, column: str = "guild_id") -> str:
        """The same test as an SQL condition on ``column`` (SQLite and PostgreSQL alike: ``>>`` and ``%`` on
        64-bit integers); literal numbers, so it adds no parameters. "1 = 1" when every guild is owned."""
        if self.everything:
            return "1 = 1"
        ids = ", ".join(str(i) for i in sorted(self.ids))
        return f"(CASE WHEN {column} < 0 THEN 0 ELSE ({column} >> 22) % {self.count} END) IN ({ids})"

    def __str__(self) -> str:
        return f"{format_ids(self.ids)} of {self.count}"


def format_ids(ids: frozenset[int]) -> str:
    """``{0, 1, 2, 3, 6}`` -> ``0-3,6``: the form ``parse`` reads."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def parse_count(text: str | int) -> int:
    raw = str(text).strip()
    try:
        count = int(raw)
    except ValueError:
        raise ShardError(f"the shard count must be a whole number, not {raw!r}") from None
    if count < 1:
        raise ShardError(f"the shard count must be at least 1, not {count}")
    if count > MAX_SHARDS:
        raise ShardError(f"the shard count must be at most {MAX_SHARDS}, not {count}")
    return count


def parse(text: str, count: int | str) -> Shards:
    """``"0-3,6"`` of ``count`` shards: single ids and inclusive ranges, comma-separated."""
    total = parse_count(count)
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            if text.strip():
                raise ShardError(f"an empty item in the shard list {text!r}")
            raise ShardError("no shard given: use e.g. 0-3,6")
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ShardError(f"{part!r} is not a shard number or a range like 0-3") from None
        if first > last:
            raise ShardError(f"the shard range {part!r} runs backwards")
        if first < 0 or last >= total:
            raise ShardError(f"shard {part} is out of range: shards are 0 to {total - 1} of {total}")
        ids.update(range(first, last + 1))
    return Shards(frozenset(ids), total)


def in_effect(ids: str | None = None, count: str | None = None) -> Shards:
    """The shards to serve, from ``--shards``/``--shard-count`` (None: not given) or else ``DICETAVERN_SHARDS`` /
    ``DICETAVERN_SHARD_COUNT``. Neither: every guild. A count alone: every shard of it, in this process. A range
    needs a count."""
    ids = ids if ids is not None else os.environ.get(SHARDS_ENV, "").strip() or None
    count = count if count is not None else os.environ.get(SHARD_COUNT_ENV, "").strip() or None
    if count is None:
        if ids is not None:
            raise ShardError(f"--shards {ids} needs --shard-count (or {SHARD_COUNT_ENV}): the bot's shards in all")
        return Shards.all()
    if ids is None:
        total = parse_count(count)
        return Shards(frozenset(range(total)), total)
    return parse(ids, count)
