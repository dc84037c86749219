"""End to end: the real discord.py client, our bot, and the fake Discord in tests/fakediscord."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.client import DiceTavern
from bot.games.dice import DiceSource, SeededDice
from cogs.utils import presenter, replies
from tests.fakediscord import DEFAULT_MEMBER_PERMISSIONS, FakeDiscord, FakeMessage, run_bot
from tests.waiting import DEADLINE

MANAGE_GUILD = 1 << 5


@dataclass
class World:
    fake: FakeDiscord
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    admin: Any
    db: str

    @contextlib.asynccontextmanager
    async def bot(self, dice: DiceSource | None = None) -> AsyncIterator[DiceTavern]:
        bot = DiceTavern(database_path=self.db, dice=dice or SeededDice(1), bot_delay=(0, 0), guild_ready_timeout=0.1)
        async with run_bot(self.fake, bot):
            await bot.tree.sync()  # tests register the tree like `dicetavern sync` would
            yield bot

    async def slash(self, user: Any, *path: str, **options: Any) -> Any:
        record = await self.fake.slash(user, self.channel, *path, options=options or None)
        return await record.response()

    async def click(self, user: Any, message: FakeMessage, action: str) -> Any:
        custom_id = next(c for c in message.custom_ids() if c.endswith(f":{action}"))
        record = await self.fake.click(user, message, custom_id)
        return await record.response()


def new_world(fake: FakeDiscord, db: str, *, guild_locale: str = "en-US", user_locale: str = "en-US") -> World:
    """The tavern: one server with a #dice channel, three players (bob's DMs closed) and a manager."""
    guild = fake.add_guild("Tavern", channels=["dice"], locale=guild_locale)
    return World(
        fake=fake,
        guild=guild,
        channel=guild.channel("dice"),
        alice=fake.add_user("alice", guild=guild, locale=user_locale),
        bob=fake.add_user("bob", guild=guild, dms_open=False, locale=user_locale),
        carol=fake.add_user("carol", guild=guild, locale=user_locale),
        admin=fake.add_user(
            "admin", guild=guild, permissions=DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD, locale=user_locale
        ),
        db=db,
    )


@pytest.fixture(autouse=True)
def patient_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot defers an answer whose work takes DEFER_AFTER (2 s) and answers anyway after waiting DEFER_SOON
    (1.5 s) for the player's DMs: choices by the wall clock, which a loaded machine flips (a join click answered
    with a deferred update instead of the redrawn lobby). Here both wait as long as the tests do, so an answer's
    shape depends on the bot, not on the machine; a test of the deferred path sets its own (test_click_path_e2e)."""
    monkeypatch.setattr(replies, "DEFER_AFTER", DEADLINE / 2)  # cogs/tables.py reads it when the bot loads it
    monkeypatch.setattr(presenter, "DEFER_SOON", DEADLINE / 4)


@pytest.fixture
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """A test module that uses this proves that nothing was logged as an error (a traceback in the bot's log)."""
    caplog.set_level(logging.WARNING)
    yield
    # In teardown caplog.records holds the teardown's records only: the test's are the call phase's (and setup's).
    records = [*caplog.get_records("setup"), *caplog.get_records("call")]
    errors = [r for r in records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"))
