"""The presenter remembers each player's DM channel (issue 30): discord.py keeps only 128 DM channels, so at a bot
with more players every DM asked Discord for the channel again first. A channel Discord no longer knows is
forgotten and asked for anew on the next DM; a closed DM is marked as before."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.utils import presenter as presenting
from cogs.utils.presenter import DiscordPresenter


def refusal(status: int) -> discord.HTTPException:
    response = SimpleNamespace(status=status, reason="no")
    return (discord.NotFound if status == 404 else discord.Forbidden)(response, "no")  # type: ignore[arg-type]


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Any:
    asked: list[int] = []
    sent: list[int] = []
    fail: dict[int, int] = {}

    async def create_dm(user: Any) -> Any:
        asked.append(user.id)
        return SimpleNamespace(id=1000 + user.id + 10_000 * len(asked))

    async def send_to_channel(bot: Any, channel_id: int, view: Any, **kwargs: Any) -> int:
        if channel_id in fail:
            raise refusal(fail.pop(channel_id))
        sent.append(channel_id)
        return 1

    async def write(statements: Any) -> None:
        pass

    monkeypatch.setattr(presenting.wire, "send_to_channel", send_to_channel)
    bot = SimpleNamespace(create_dm=create_dm, store=SimpleNamespace(write=write))
    return SimpleNamespace(presenter=DiscordPresenter(bot), asked=asked, sent=sent, fail=fail)  # type: ignore[arg-type]


async def test_a_players_dm_channel_is_asked_for_once(world: Any) -> None:
    for _ in range(3):
        assert await world.presenter.send_dm(7, "your dice") is True
    assert world.asked == [7] and len(world.sent) == 3 and len(set(world.sent)) == 1


async def test_a_dm_channel_discord_no_longer_knows_is_asked_for_anew(world: Any) -> None:
    assert await world.presenter.send_dm(7, "one") is True
    world.fail[world.sent[0]] = 404
    assert await world.presenter.send_dm(7, "two") is None  # failed (logged), as a NotFound did before
    assert await world.presenter.send_dm(7, "three") is True
    assert world.asked == [7, 7]


async def test_closed_dms_are_marked_and_the_channel_kept(world: Any) -> None:
    assert await world.presenter.send_dm(7, "one") is True
    world.fail[world.sent[0]] = 403
    assert await world.presenter.send_dm(7, "two") is False
    assert 7 in world.presenter.dms_closed and world.asked == [7]


async def test_the_memory_is_bounded(world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(presenting, "DM_CHANNELS", 2)
    for user in (1, 2, 3, 1):
        await world.presenter.send_dm(user, "x")
    assert world.asked == [1, 2, 3, 1]  # 1 was the oldest when 3 came
