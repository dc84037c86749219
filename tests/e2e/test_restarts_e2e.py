"""The restart budget against the fake Discord's ``GET /gateway/bot`` (``session_start_limit``): a start refused
below the minimum before any IDENTIFY, the budget in the ready line, the wait after runs that lost their lease;
and the "run dicetavern sync" hint, which counts commands synced to servers too."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import discord
import pytest

from bot.client import GUILD_COMMANDS_CHECKED, DiceTavern
from bot.i18n import t
from bot.restarts import CLEAN, LEASE_LOST, REFUSED, IdentifyBudgetLow, RestartLog, RestartPolicy
from bot.store import open_store
from tests.fakediscord import FakeDiscord, handlers_done, run_bot, start_bot, stop_bot
from tests.waiting import DEADLINE

HINT = t("cli.no_commands")
POLICY = RestartPolicy(base=3.0, cap=100.0, window=3600.0, stable=600.0)


class Sleeps:
    """The bot's restart wait: recorded, not slept."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)


def bot_at(db: Path, **options) -> DiceTavern:
    return DiceTavern(database_path=str(db), guild_ready_timeout=0.1, bot_delay=(0, 0), **options)


async def test_a_start_with_too_few_session_starts_left_is_refused_before_identifying(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETAVERN_MIN_IDENTIFIES", "20")
    db = tmp_path / "tavern.sqlite3"
    async with FakeDiscord(identify_limit=(1000, 19)) as fake:
        fake.add_guild("Tavern")
        restarts = RestartLog(tmp_path / "restarts.json", POLICY)
        bot = bot_at(db, restarts=restarts)
        async with bot:
            with pytest.raises(IdentifyBudgetLow) as refused:
                await asyncio.wait_for(bot.start("token"), DEADLINE)
        assert fake.identifies_left == 19 and not fake.connections  # no IDENTIFY was spent
        assert not db.exists()  # refused before the store was opened: no lease taken, no table restored
    text = str(refused.value)
    assert text.startswith("only 19 of 1000 session starts (IDENTIFY) are left today, fewer than ")
    assert "DICETAVERN_MIN_IDENTIFIES=20" in text and "renewed in 24.0 h (at " in text
    assert [r.how for r in restarts.load()] == [REFUSED]


async def test_the_ready_line_says_how_many_session_starts_are_left(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with FakeDiscord(identify_limit=(1000, 900)) as fake:
        fake.add_guild("Tavern")
        async with run_bot(fake, bot_at(tmp_path / "tavern.sqlite3", min_identifies=900)):
            assert fake.identifies_left == 899
    (ready,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("ready: ")]
    assert ", 899 of 1000 session starts left (renewed in 24.0 h), " in ready


async def test_a_start_after_a_lost_lease_waits_and_a_clean_stop_ends_the_streak(tmp_path, monkeypatch):
    monkeypatch.setenv("DICETAVERN_LEASE_TTL", "0.3")  # renewed every 0.1 s: a stolen lease is noticed at once
    db = tmp_path / "tavern.sqlite3"
    sleeps = Sleeps()

    def bot() -> DiceTavern:
        # next to the heartbeat, as `dicetavern run` keeps it; the wait recorded instead of slept
        return bot_at(db, restarts=POLICY, sleep=sleeps)

    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        for _lost in range(3):
            first = bot()
            task = await start_bot(fake, first)
            thief = await open_store(str(db))
            try:
                await thief.write([("UPDATE leases SET owner = 'thief', token = token + 1", ())])
                await asyncio.wait_for(task, DEADLINE)  # it notices, closes itself and start() returns
            finally:
                await thief.close()
                await first.close()
            assert first.lease_lost
            await _free_the_lease(db)
        assert sleeps.asked == [3.0, 6.0]  # before the second and third starts
        async with run_bot(fake, bot()):
            pass
        assert sleeps.asked == [3.0, 6.0, 12.0]
        async with run_bot(fake, bot()):  # the last run stopped cleanly: no wait
            pass
        assert sleeps.asked == [3.0, 6.0, 12.0]
    log = RestartLog(RestartLog.next_to(bot().heartbeat), POLICY)
    assert log.path == tmp_path / "tavern.sqlite3.restarts.json"
    assert [r.how for r in log.load()] == [LEASE_LOST] * 3 + [CLEAN] * 2


async def _free_the_lease(db: Path) -> None:
    """The thief goes away (as a process that stopped would release it)."""
    store = await open_store(str(db))
    try:
        await store.write([("UPDATE leases SET owner = '', expires_at = 0", ())])
    finally:
        await store.close()


async def test_a_start_closed_during_its_wait_stops_without_identifying(tmp_path):
    db = tmp_path / "tavern.sqlite3"
    restarts = RestartLog(RestartLog.next_to(tmp_path / "tavern.sqlite3.heartbeat"), POLICY)
    restarts.started()
    restarts.ended(LEASE_LOST)
    waiting = asyncio.Event()

    async def forever(seconds: float) -> None:
        waiting.set()
        await asyncio.Event().wait()

    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        bot = bot_at(db, restarts=POLICY, sleep=forever)
        task = asyncio.create_task(bot.start("token"))
        await asyncio.wait_for(waiting.wait(), DEADLINE)
        await stop_bot(bot, task)
        assert not fake.connections and not db.exists()


async def test_the_sync_hint_counts_commands_synced_to_a_server_and_asks_a_bounded_number(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    db = tmp_path / "tavern.sqlite3"
    async with FakeDiscord() as fake:
        guilds = [fake.add_guild(f"Server {i}") for i in range(GUILD_COMMANDS_CHECKED + 5)]
        mark = fake.mark()
        async with run_bot(fake, bot_at(db)) as bot:
            await handlers_done()
            asked = fake.calls(since=mark, method="GET", route="/applications/{app_id}/guilds/{guild_id}/commands")
            assert len(asked) == GUILD_COMMANDS_CHECKED  # not one per server
            assert HINT in [r.getMessage() for r in caplog.records]
            target = discord.Object(guilds[3].id)  # `dicetavern sync --guild ID`
            bot.tree.copy_global_to(guild=target)
            await bot.tree.sync(guild=target)
        caplog.clear()
        async with run_bot(fake, bot_at(db)):
            await handlers_done()
        assert HINT not in [r.getMessage() for r in caplog.records]
