"""The ready line names whom members ask about their data (bot.privacy_contact.ready_note, added by bot/client.py)."""

from __future__ import annotations

import logging

from tests.fakediscord import FakeDiscord
from tests.test_cli import _run_until_ready, env  # noqa: F401 - a fixture


async def test_the_ready_line_names_the_privacy_contact_before_the_invite(env, tmp_path, caplog):  # noqa: F811
    caplog.set_level(logging.INFO)
    env.setenv("DATABASE_PATH", str(tmp_path / "tavern.sqlite3"))
    env.setenv("DICETAVERN_PRIVACY_CONTACT", "dpo@tavern.example")
    env.setenv("DICETAVERN_PRIVACY_URL", "https://tavern.example/privacy")
    async with FakeDiscord() as fake:
        stop, task = await _run_until_ready(fake, caplog)
        stop.set()
        await task
    (ready,) = [r.getMessage() for r in caplog.records if r.getMessage().startswith("ready: ")]
    assert ", privacy contact dpo@tavern.example, https://tavern.example/privacy, invite https://" in ready
