"""A database outage while presses arrive, on both backends, counted in the log: one WARNING when it begins, one
INFO when it ends (how long, how many presses were refused), no traceback per refused press.

SQLite's outage is a full disk: every batch's commit fails with SQLITE_FULL ("database or disk is full") while it
lasts. PostgreSQL's is a server that goes away: the bot reaches it through a TCP proxy, which drops every
connection and refuses new ones, then listens again on the same port.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest

from bot.logs import error_key
from bot.store import sqlite as sqlite_store
from tests.e2e.conftest import World, new_world
from tests.e2e.test_pig_e2e import open_pig_table
from tests.fakediscord import FakeDiscord

PRESSES = 6  # presses while the database is out
BACK = re.compile(r"the database \((.+)\) is back after ([0-9.]+) s; (\d+) press(?:es were| was) refused meanwhile")


class Proxy:
    """A TCP proxy to PostgreSQL that can go away (every connection dropped, new ones refused) and come back."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.upstream = host, port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()

    async def listen(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def go_away(self) -> None:
        assert self._server is not None
        self._server.close()
        for link in list(self._links):
            link.transport.abort()
        self._links.clear()
        await self._server.wait_closed()
        self._server = None

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(self.host, self.upstream)
        except OSError:
            writer.transport.abort()
            return
        self._links |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._links.discard(writer)
            writer.transport.abort()


class Outage:
    """Turns the bot's database off and on."""

    async def down(self) -> None: ...

    async def up(self) -> None: ...


class FullDisk(Outage):
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        real = sqlite_store.commit_batch

        def commit_batch(conn: sqlite3.Connection, batch: Any, fence: Any = None) -> Any:
            if self.full:
                error = sqlite3.OperationalError("database or disk is full")
                error.sqlite_errorcode = 13  # type: ignore[attr-defined]  # SQLITE_FULL, as SQLite sets it
                raise error
            return real(conn, batch, fence)

        monkeypatch.setattr(sqlite_store, "commit_batch", commit_batch)

    async def down(self) -> None:
        self.full = True

    async def up(self) -> None:
        self.full = False


class ServerGone(Outage):
    def __init__(self, proxy: Proxy) -> None:
        self.proxy = proxy

    async def down(self) -> None:
        await self.proxy.go_away()

    async def up(self) -> None:
        await self.proxy.listen()


@pytest.fixture
async def world_and_outage(database: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[World, Outage]]:
    async with FakeDiscord() as fake:
        if not database.startswith("postgresql://"):
            yield new_world(fake, database), FullDisk(monkeypatch)
            return
        parts = urlsplit(database)
        proxy = Proxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        await proxy.listen()
        netloc = parts.netloc.replace(f"{parts.hostname}:{parts.port}", f"127.0.0.1:{proxy.port}")
        try:
            yield new_world(fake, parts._replace(netloc=netloc).geturl()), ServerGone(proxy)
        finally:
            if proxy._server is not None:
                await proxy.go_away()


@contextlib.contextmanager
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[list[logging.LogRecord]]:
    """The records logged inside the block."""
    start = len(caplog.records)
    inside: list[logging.LogRecord] = []
    try:
        yield inside
    finally:
        inside.extend(caplog.records[start:])


async def test_an_outage_is_one_warning_and_one_info_with_the_refused_presses(world_and_outage, caplog):
    world, outage = world_and_outage
    caplog.set_level(logging.INFO)
    async with world.bot() as bot:
        board = await open_pig_table(world)
        with logged(caplog) as records:
            await outage.down()
            began = time.monotonic()
            refused = 0
            for _ in range(PRESSES):
                for player in (world.alice, world.bob):  # one of them is on turn: the other is refused as ever
                    reply = await world.click(player, board, "roll")
                    if "Something went wrong" in reply.text:
                        assert reply.ephemeral
                        refused += 1
            assert refused == PRESSES and bot.store.outage.down
            await outage.up()
            lasted = time.monotonic() - began
            for _ in range(2):  # the first press that commits ends the outage
                replies = [await world.click(player, board, "roll") for player in (world.alice, world.bob)]
                assert not any("Something went wrong" in r.text for r in replies), [r.text for r in replies]
            assert not bot.store.outage.down

    warnings = [r for r in records if r.levelno == logging.WARNING]
    assert [r.name for r in warnings] == ["bot.store.outage"], [r.getMessage() for r in warnings]
    assert "is unreachable" in warnings[0].getMessage()
    (back,) = [m for r in records if (m := BACK.search(r.getMessage()))]
    assert 0 <= float(back.group(2)) <= lasted + 0.1 and int(back.group(3)) == PRESSES
    assert "***" not in back.group(1) and "@" not in back.group(1)  # no credentials in the log
    # at most one traceback per distinct error (its type and where it was raised) in this minute; here none at all:
    # the refused presses' tracebacks are the outage's one WARNING
    errors = [error_key(r.exc_info[1], r.exc_info[2]) for r in records if r.exc_info and r.exc_info[1]]
    assert len(errors) == len(set(errors))
    assert not [r for r in records if r.levelno >= logging.ERROR], [r.getMessage() for r in records]
