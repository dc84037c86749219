"""Issue 29: ``dicetavern sync`` registers the games, /help, /stats and /history for guild and user installs, usable
in servers and group DMs; the admin's commands stay installed to servers and used in servers only."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot import cli
from tests.fakediscord import FakeDiscord

# /game replay, export and verify are subcommands of /game: they go where /game goes
ANYWHERE = ("liar", "mex", "mia", "mythic", "pig", "game", "help", "stats", "leaderboard", "history")
SERVER_ONLY = ("settings", "tournament")
GUILD, USER = 0, 1  # integration types
IN_GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction contexts


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    root = logging.getLogger()
    handlers = list(root.handlers)
    yield monkeypatch
    root.handlers[:] = handlers  # main() installs discord.py's log handler on the (captured) stderr


async def test_sync_registers_the_tables_commands_for_user_installs_and_group_dms(env):
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        assert await asyncio.to_thread(cli.main, ["sync"]) == 0
        registered = {c["name"]: c for c in fake.registered_commands()}
    for name in ANYWHERE:
        command = registered[name]
        assert sorted(command["integration_types"]) == [GUILD, USER], name
        assert sorted(command["contexts"]) == [IN_GUILD, PRIVATE_CHANNEL], name  # never a bot DM: no table there
        assert command.get("dm_permission") is not False, name  # the deprecated flag must not contradict contexts
    for name in SERVER_ONLY:
        command = registered[name]
        assert command.get("integration_types") in (None, [GUILD]), name  # Discord's default is [0]
        assert command["contexts"] == [IN_GUILD], name
    assert registered["settings"]["default_member_permissions"] is not None  # Manage Server, as before
