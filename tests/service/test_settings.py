"""Per-server settings (bot.tables.settings): one declared structure with its defaults, stored as guild_settings rows
under the keys older code wrote (no data migration), read back the same after a restart."""

from __future__ import annotations

import pytest

from bot.games.dice import SeededDice
from bot.store import open_store
from bot.tables import TableError, TableService
from bot.tables.settings import DEFAULTS, GuildSettings

GUILD, OTHER = 1, 2


async def open_service(db: str) -> TableService:
    service = TableService(await open_store(db), SeededDice(1), run_dispatcher=False)
    await service.start()
    return service


async def close(service: TableService) -> None:
    await service.stop()
    await service.store.close()


async def stored(service: TableService) -> dict[tuple[int, str], str]:
    rows = await service.store.fetch_all("SELECT guild_id, key, value FROM guild_settings")
    return {(r[0], r[1]): r[2] for r in rows}


async def test_a_server_that_set_nothing_has_the_declared_defaults_and_no_row(database):
    service = await open_service(database)
    try:
        assert await service.guild_settings(GUILD) == GuildSettings() == DEFAULTS
        assert (await service.turn_timeout(GUILD), await service.reminders_on(GUILD)) == (120.0, True)
        assert (await service.global_on(GUILD), service.server_language(GUILD)) == (False, None)
        assert await service.settings(GUILD) == {} and await stored(service) == {}
    finally:
        await close(service)


async def test_each_setting_is_the_row_older_code_wrote_and_comes_back_after_a_restart(database):
    service = await open_service(database)
    try:
        await service.set_timeout(GUILD, 45)
        await service.set_reminders(GUILD, False)
        await service.set_global(GUILD, True)
        await service.set_language(GUILD, "cy")
        assert await service.set_default_options(GUILD, "pig", {"target": 50}) == {"target": 50}
        await service.set_timeout(OTHER, 300)
        rows = await stored(service)
    finally:
        await close(service)
    assert rows == {
        (GUILD, "timeout"): "45",
        (GUILD, "reminders"): "false",
        (GUILD, "global"): "true",
        (GUILD, "language"): '"cy"',
        (GUILD, "options.pig"): '{"target":50}',
        (OTHER, "timeout"): "300",
    }
    service = await open_service(database)
    try:
        settings = await service.guild_settings(GUILD)
        assert settings == GuildSettings(45, False, True, "cy", {"pig": {"target": 50}})
        assert service.server_language(GUILD) == "cy"  # read at start, for every server
        assert await service.settings(GUILD) == {
            "timeout": 45,
            "reminders": False,
            "global": True,
            "language": "cy",
            "options.pig": {"target": 50},
        }
        assert await service.guild_settings(OTHER) == GuildSettings(timeout=300)
    finally:
        await close(service)


async def test_back_to_the_default_deletes_the_row_and_a_refusal_writes_nothing(database):
    service = await open_service(database)
    try:
        await service.set_timeout(GUILD, 45)
        await service.set_reminders(GUILD, False)
        await service.set_default_options(GUILD, "pig", {"target": 50})
        await service.set_default_options(GUILD, "mia", {"lives": 3})
        with pytest.raises(TableError) as refused:
            await service.set_timeout(GUILD, 5)
        assert refused.value.code == "bad_timeout"
        await service.set_timeout(GUILD, None)
        await service.set_reminders(GUILD, True)
        await service.set_default_options(GUILD, "pig", None)
        assert await stored(service) == {(GUILD, "options.mia"): '{"lives":3}'}
        assert await service.guild_settings(GUILD) == GuildSettings(options={"mia": {"lives": 3}})
    finally:
        await close(service)


async def test_the_repost_threshold_is_a_row_only_off_its_default_and_refused_outside_its_range(database):
    service = await open_service(database)
    try:
        assert await service.repost_after(GUILD) == DEFAULTS.repost_after == 8
        for bad in (1, 2, 101, -1):
            with pytest.raises(TableError) as refused:
                await service.set_repost(GUILD, bad)
            assert refused.value.code == "bad_repost" and refused.value.params == {"lo": 3, "hi": 100}
        assert await stored(service) == {}  # a refusal writes nothing
        await service.set_repost(GUILD, 0)  # never
        await service.set_repost(OTHER, 12)
        assert await stored(service) == {(GUILD, "repost"): "0", (OTHER, "repost"): "12"}
    finally:
        await close(service)
    service = await open_service(database)  # after a restart
    try:
        assert (await service.repost_after(GUILD), await service.repost_after(OTHER)) == (0, 12)
        assert await service.guild_settings(GUILD) == GuildSettings(repost_after=0)
        await service.set_repost(OTHER, 8)  # back to the default: the row goes
        assert await stored(service) == {(GUILD, "repost"): "0"}
    finally:
        await close(service)
