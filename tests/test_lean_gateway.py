"""The lean gateway parsers (``cogs.utils.lean_gateway``, issue 30): a click on a table control becomes the same
``discord.Interaction`` discord.py would build (all but the clicked message's components) and is dispatched as
``interaction``; every other interaction, and any MESSAGE_UPDATE someone could read, takes discord.py's parser."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import DiceTavern
from cogs.utils import lean_gateway

MESSAGE = {
    "id": "20",
    "channel_id": "30",
    "type": 0,
    "content": "",
    "author": {"id": "99", "username": "bot", "discriminator": "0", "avatar": None, "bot": True},
    "attachments": [],
    "embeds": [],
    "mentions": [],
    "mention_roles": [],
    "pinned": False,
    "mention_everyone": False,
    "tts": False,
    "timestamp": "2026-12-07T00:00:00+00:00",
    "edited_timestamp": None,
    "flags": 32768,
    "components": [{"type": 17, "components": [{"type": 10, "content": "## 🎲 Pig"}]}],
}


def click(custom_id: str) -> dict[str, Any]:
    return {
        "id": "10",
        "application_id": "99",
        "type": 3,
        "token": "tok",
        "version": 1,
        "attachment_size_limit": 10485760,
        "channel_id": "30",
        "locale": "en-US",
        "user": {"id": "7", "username": "ann", "discriminator": "0", "avatar": None},
        "message": dict(MESSAGE),
        "data": {"custom_id": custom_id, "component_type": 2},
    }


@pytest.fixture
async def bot() -> Any:
    made = DiceTavern(database=":memory:")
    calls: list[str] = []
    parsers = made._connection.parsers
    original = dict(parsers)
    parsers["INTERACTION_CREATE"] = lambda data: calls.append("discord.py interaction")
    parsers["MESSAGE_UPDATE"] = lambda data: calls.append("discord.py update")
    lean_gateway.install(made)
    lean_gateway.install(made)  # twice: once in effect
    made.calls = calls  # type: ignore[attr-defined]
    yield made
    parsers.update(original)


async def test_a_table_click_is_dispatched_as_discord_py_would_without_the_message_components(bot: Any) -> None:
    seen: list[Any] = []
    bot._connection.dispatch = lambda event, *args: seen.append((event, *args))
    for custom_id in ("dt:1:2:roll", "ds:1:2:bid", "dm:1"):
        bot._connection.parsers["INTERACTION_CREATE"](click(custom_id))
    assert bot.calls == []
    assert [event for event, *_ in seen] == ["interaction"] * 3
    interaction = seen[0][1]
    assert interaction.data["custom_id"] == "dt:1:2:roll" and interaction.user.id == 7
    assert interaction.message.id == 20 and interaction.message.flags.components_v2
    assert interaction.message.components == []  # the part nobody read
    assert interaction.token == "tok" and not interaction.response.is_done()


async def test_any_other_interaction_takes_discord_py_s_parser(bot: Any) -> None:
    for custom_id in ("rm:1", "history:2", "other"):
        bot._connection.parsers["INTERACTION_CREATE"](click(custom_id))
    command = click("dt:1:2:roll") | {"type": 2, "data": {"name": "pig", "id": "5", "type": 1}}
    bot._connection.parsers["INTERACTION_CREATE"](command)
    assert bot.calls == ["discord.py interaction"] * 4


async def test_a_message_update_is_left_only_while_nothing_could_read_it(bot: Any) -> None:
    update = bot._connection.parsers["MESSAGE_UPDATE"]
    update(dict(MESSAGE))
    assert bot.calls == []

    async def on_raw_message_edit(payload: Any) -> None:
        pass

    bot.add_listener(on_raw_message_edit)
    update(dict(MESSAGE))
    assert bot.calls == ["discord.py update"]
    bot.remove_listener(on_raw_message_edit)
    update(dict(MESSAGE))
    assert bot.calls == ["discord.py update"]
    bot._connection._messages = []  # a message cache: discord.py's parser keeps it
    update(dict(MESSAGE))
    assert bot.calls == ["discord.py update"] * 2
