"""Leases on shards, with a fencing token checked in every write batch.

A process serving shards takes a lease on each in the ``leases`` table (migration 0009): its owner, host and
pid, an expiry and a token that grows by one at every takeover. It renews them every ttl/3 (``run``). A lease
can be taken when it is free, expired, or held by a dead process on this host (same host name and the pid gone,
or the pid equal to ours: a restarted container). ``store.fence = leases`` makes every write batch check first,
in its own transaction, that this process still holds each lease with its token; the first batch that finds
otherwise rolls back, every write in it raises ``LeaseLost`` and the store refuses all later writes. So a process
that stalled past its expiry (a long GC pause, a frozen VM) cannot overwrite the tables its successor now runs.

Expiry is judged by each process's wall clock: hosts sharing a database need their clocks in step (NTP) to well
within the ttl. The fence does not depend on clocks: a takeover always raises the token.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Sequence
from typing import Any

from bot.environment import number
from bot.store.db import LeaseLost, Store
from bot.store.sql import SQL, Cursor

log = logging.getLogger(__name__)

TTL_ENV = "DICETAVERN_LEASE_TTL"
DEFAULT_TTL = 30.0

_COLUMNS = "shard, shard_count, owner, host, pid, token, expires_at"


def lease_ttl(value: str | None = None) -> float:
    """Seconds a lease lasts unrenewed: ``value`` or ``DICETAVERN_LEASE_TTL``, default 30."""
    return number(TTL_ENV, value, DEFAULT_TTL, what="a number of seconds", above_zero=True)


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process, alive
        return True
    return True


class Leases:
    """This process's leases on ``shards`` of ``shard_count``. ``host`` and ``pid`` default to this process's."""

    def __init__(
        self,
        store: Store,
        shards: Sequence[int],
        shard_count: int,
        owner: str | None = None,
        ttl: float | None = None,
        *,
        host: str | None = None,
        pid: int | None = None,
    ) -> None:
        self.shards = tuple(sorted(set(shards)))
        if shard_count < 1 or not self.shards or not all(0 <= s < shard_count for s in self.shards):
            raise ValueError(f"shards {list(shards)} of {shard_count} cannot be leased")
        self.store = store
        self.shard_count = shard_count
        self.host = host if host is not None else socket.gethostname()
        self.pid = pid if pid is not None else os.getpid()
        self.owner = owner or f"{self.host}:{self.pid}:{secrets.token_hex(3)}"
        self.ttl = ttl if ttl is not None else lease_ttl()
        self.tokens: dict[int, int] = {}  # shard -> the token we hold it with
        self.lost = False
        self._released = False
        marks = ", ".join("?" * len(self.shards))
        check = f"SELECT shard, owner, token FROM leases WHERE shard IN ({marks})"
        self._check_sql = SQL(sqlite=check, postgresql=f"{check} FOR SHARE")

    # -- the fence ---------------------------------------------------------------------------------

    @property
    def check_sql(self) -> SQL:
        return self._check_sql

    @property
    def check_params(self) -> Sequence[Any]:
        return self.shards

    def verify(self, rows: Sequence[Any]) -> LeaseLost | None:
        """None while ``rows`` (the check's answer) show each of our shards ours with our token."""
        held = {row[0]: (row[1], row[2]) for row in rows}
        for shard in self.shards:
            owner, token = held.get(shard, ("", None))
            if self._released or owner != self.owner or token != self.tokens.get(shard):
                return LeaseLost(shard, owner)
        return None

    # -- taking, keeping, giving back ----------------------------------------------------------

    async def acquire(self) -> None:
        """Take every shard's lease at once, waiting (and saying who holds them) while any is held. Call it before
        ``store.fence = leases``: a store fenced by lost leases writes no more, this included."""
        said: list[str] = []
        while True:
            blockers = await self._attempt()
            if not blockers:
                return
            holders = [holder for holder, _ in blockers]  # said again when they change, not as the seconds run
            if holders != said:
                for _, line in blockers:
                    log.warning("waiting for a lease: %s", line)
                said = holders
            await asyncio.sleep(min(1.0, max(0.05, self.ttl / 10)))

    async def try_acquire(self) -> list[str]:
        """One attempt: takes them all and returns [], or takes none and returns why (one line per holder)."""
        return [line for _, line in await self._attempt()]

    async def _attempt(self) -> list[tuple[str, str]]:
        """``try_acquire``'s blockers, each as (the holder's shard and owner, the line saying so)."""
        outcome: list[list[tuple[str, str]]] = []
        tokens: dict[int, int] = {}

        def step(cursor: Cursor) -> None:
            now = time.time()
            cursor.executemany(
                "INSERT INTO leases (shard, shard_count) VALUES (?, ?) ON CONFLICT (shard) DO NOTHING",
                [(shard, self.shard_count) for shard in self.shards],
            )
            select = f"SELECT {_COLUMNS} FROM leases ORDER BY shard"
            rows = cursor.execute(SQL(sqlite=select, postgresql=f"{select} FOR UPDATE")).fetchall()
            blockers = []
            for shard, count, owner, host, pid, token, expires in rows:
                mine = shard in self.shards
                if mine:
                    tokens[shard] = token + 1
                if not owner or expires <= now or self._takeable(owner, host, pid):
                    continue
                if mine:
                    left = expires - now
                    line = f"shard {shard} is held by {owner} (host {host}, pid {pid}) for {left:.1f} s more"
                    blockers.append((f"{shard}:{owner}", line))
                elif count != self.shard_count:  # two shard counts at once would split a guild's games
                    line = f"shard {shard} of {count} is held by {owner}; we run {self.shard_count} shards"
                    blockers.append((f"{shard}:{owner}", line))
            if blockers:
                outcome.append(blockers)
                return
            until = now + self.ttl
            cursor.executemany(
                "UPDATE leases SET shard_count = ?, owner = ?, host = ?, pid = ?, token = ?, expires_at = ?"
                " WHERE shard = ?",
                [(self.shard_count, self.owner, self.host, self.pid, tokens[s], until, s) for s in self.shards],
            )

        await self.store.write([step])
        if outcome:
            return outcome[0]
        self.tokens, self.lost, self._released = tokens, False, False
        log.info(
            "took the leases on shards %s of %d as %s (tokens %s)",
            list(self.shards),
            self.shard_count,
            self.owner,
            [tokens[s] for s in self.shards],
        )
        return []

    def _takeable(self, owner: str, host: str, pid: int) -> bool:
        return owner == self.owner or (host == self.host and (pid == self.pid or not pid_alive(pid)))

    async def renew(self) -> None:
        """Push every lease's expiry ttl on; raises LeaseLost (and sets ``lost``) if one is no longer ours."""
        if not self.tokens:
            raise RuntimeError("no leases held: acquire() first")
        failed: list[int] = []

        def step(cursor: Cursor) -> None:
            until = time.time() + self.ttl
            for shard, token in self.tokens.items():
                cursor.execute(
                    "UPDATE leases SET expires_at = ? WHERE shard = ? AND owner = ? AND token = ?",
                    (until, shard, self.owner, token),
                )
                if cursor.rowcount != 1:
                    failed.append(shard)

        try:
            await self.store.write([step])
        except LeaseLost:
            self.lost = True
            raise
        if failed:
            self.lost = True
            row = await self.store.fetch_one("SELECT owner FROM leases WHERE shard = ?", (failed[0],))
            raise LeaseLost(failed[0], row[0] if row else "")

    async def run(self) -> None:
        """Renew every ttl/3 until cancelled; returns once a lease is lost (``lost`` tells)."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew()
            except LeaseLost as lost:
                # A fenced store has said so at ERROR already (once); an unfenced one has not.
                level = logging.WARNING if self.store.fence is self else logging.ERROR
                log.log(level, "%s; the leases are no longer renewed", lost)
                return
            except Exception as exc:  # noqa: BLE001 - the database may come back before the expiry
                if not (self.store.outage.down and self.store.unavailable(exc)):  # (an outage is said once)
                    log.warning("could not renew the leases: %s", exc)

    async def release(self) -> None:
        """Give the leases back (their tokens stay, so the next holder's are higher); writes end here. Logs what
        it did: released them all, or which it no longer held and who has them (a fenced process releases none)."""
        if not self.tokens:
            return
        held = dict(self.tokens)
        released: list[int] = []

        def step(cursor: Cursor) -> None:
            released.clear()  # (a batch retried write by write runs this again)
            for shard, token in held.items():
                cursor.execute(
                    "UPDATE leases SET owner = '', expires_at = 0 WHERE shard = ? AND owner = ? AND token = ?",
                    (shard, self.owner, token),
                )
                if cursor.rowcount == 1:
                    released.append(shard)

        try:
            await self.store.write([step])  # (the fence checks the tokens still held)
        except LeaseLost:
            released.clear()  # the fence refused the batch: nothing of it was written
        except Exception as error:  # noqa: BLE001 - closing goes on: they expire by themselves
            log.warning(
                "could not release the leases on shards %s (%s): they expire within %.0f s",
                sorted(held),
                error,
                self.ttl,
            )
            return
        finally:
            self._released = True
            self.tokens = {}
        kept = sorted(set(held) - set(released))
        if not kept:
            log.info("released the leases on shards %s", sorted(released))
            return
        start = f"released the leases on shards {sorted(released)}; " if released else "released no lease: "
        log.info("%sno longer held those on shards %s (%s)", start, kept, await self._holders(kept))

    async def _holders(self, shards: Sequence[int]) -> str:
        """Who holds ``shards`` now, as words for the log."""
        marks = ", ".join("?" * len(shards))
        try:
            rows = await self.store.fetch_all(f"SELECT shard, owner FROM leases WHERE shard IN ({marks})", shards)
        except Exception as error:  # noqa: BLE001 - only the log line's detail
            return f"their holders could not be read: {error}"
        owners = {row[0]: row[1] for row in rows}

        def said(shard: int) -> str:
            owner = owners.get(shard) or ""
            if owner == self.owner:  # a fenced process writes nothing, its release included
                return f"shard {shard} left to expire (this process is fenced)"
            return f"shard {shard} lost to {owner or 'nobody (released)'}"

        return ", ".join(said(s) for s in shards)
