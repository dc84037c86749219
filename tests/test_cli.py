"""The `dicetavern` command: clear one-line errors, explicit command sync."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot import cli
from tests.fakediscord import FakeDiscord


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    root = logging.getLogger()
    handlers = list(root.handlers)
    yield monkeypatch
    root.handlers[:] = handlers  # main() installs discord.py's log handler on the (captured) stderr


def test_missing_token_is_a_one_line_error(env, capsys):
    env.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: DISCORD_TOKEN is not set (put it in the environment or in a .env file)"]


async def test_rejected_token_is_a_one_line_error_and_sync_registers_commands(env, capsys):
    async with FakeDiscord(token="good-token") as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "wrong-token")
        assert await asyncio.to_thread(cli.main, ["run"]) == 2
        err = capsys.readouterr().err
        assert "error: Discord rejected DISCORD_TOKEN" in err and "Traceback" not in err

        env.setenv("DISCORD_TOKEN", "good-token")
        assert await asyncio.to_thread(cli.main, ["sync"]) == 0
        names = {c["name"] for c in fake.registered_commands()}
        assert {"pig", "game", "leaderboard", "stats", "settings"} <= names
        assert "synced" in capsys.readouterr().out


def test_token_from_dotenv_file(env, tmp_path):
    env.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\n")
    assert cli._token() == "from-file"
