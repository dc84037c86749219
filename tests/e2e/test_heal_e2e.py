"""A table that heals itself: a publish that fails for a reason that can pass (a dropped connection, a 503, a
rate limit past discord.py's retries) is tried again with backoff until the table shows its current version; the
end-of-game message comes once; a computer player whose move failed on a full disk moves again within seconds."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest

from bot.games.dice import SeededDice
from bot.i18n import t
from cogs.utils.components import table_message
from tests.e2e.conftest import World
from tests.e2e.test_outage_e2e import FullDisk
from tests.fakediscord import FakeMessage, components_text

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"
HEALED = 10.0  # seconds after a fault ends by which the table must be current again


def fast(bot: Any) -> None:
    bot.presenter.retry_first, bot.presenter.retry_cap = 0.05, 0.2  # the backoff, small for tests


def current(board: FakeMessage, table: Any) -> bool:
    """The table message shows the table as it is now."""
    return board.text == components_text(table_message(table, table.locale).to_components())


async def pig_table(world: World, bot: Any, target: int = 100) -> tuple[FakeMessage, Any]:
    board = (await world.slash(world.alice, "pig", "new", target=target)).expect_message()
    assert (await world.click(world.carol, board, "join")).type == 7
    assert (await world.click(world.alice, board, "start")).type == 7
    return board, bot.tables.table(world.channel.id)


async def healed_after(world: World, fault: Any, board: FakeMessage, table: Any) -> float:
    """Wait for the fault to be over and the table message current; how long the healing took after it."""
    await world.fake.wait_for(lambda: not fault.active, what="the fault to run out")
    ended = time.monotonic()
    await world.fake.wait_for(lambda: current(board, table), what="the table message to be current")
    return time.monotonic() - ended


@pytest.mark.parametrize("fault", [{"drop": True}, {"status": 503}, {"status": 429, "global_": True}])
async def test_a_failed_table_edit_is_retried_until_the_table_is_current(
    world: World, fault: dict[str, Any], caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING)
    async with world.bot(SeededDice(4)) as bot:
        fast(bot)
        board, table = await pig_table(world, bot)
        edits = len(board.history)
        # 429: discord.py sleeps retry_after and tries 5 times itself; 7 answers outlast that
        injected = world.fake.fail(EDIT, times=7 if fault.get("status") == 429 else 3, **fault)
        await bot.tables.act(world.channel.id, world.alice.id, "roll")
        await bot.tables.act(world.channel.id, world.alice.id, "roll")  # a newer state while the first is failing
        assert await healed_after(world, injected, board, table) < HEALED
        versions = [v.text for v in board.history[edits:]]
        assert versions[-1] == board.text and len(versions) <= 2  # coalesced: the newest, never an older after it
    tracebacks = [r for r in caplog.records if r.exc_info and "cogs.utils" in r.name]
    warnings = [r for r in caplog.records if "could not publish" in r.getMessage()]
    assert not tracebacks and warnings and all(r.levelno == logging.WARNING for r in warnings)
    world.fake.assert_no_problems()


async def test_the_end_of_the_game_is_announced_once_though_its_first_tries_fail(world: World):
    async with world.bot(SeededDice(4)) as bot:
        fast(bot)
        board, table = await pig_table(world, bot, target=20)
        injected = world.fake.fail(POST, drop=True, times=2)  # the table message exists: this is the end message
        while table.running:
            seat = table.state.current
            move = "hold" if table.state.turn_total >= 6 else "roll"
            await bot.tables.act(world.channel.id, table.seats[seat].id, move)
        await world.fake.wait_for(lambda: not injected.active, what="the fault to run out")
        await world.fake.wait_for(
            lambda: any("is over" in m.text for m in world.fake.channel_messages(world.channel)), what="the end"
        )
        await world.fake.wait_for(lambda: not bot.presenter._workers, what="the table's worker to finish")
        finals = [m for m in world.fake.channel_messages(world.channel) if "is over" in m.text]
        assert len(finals) == 1 and f"<@{world.carol.id}>" in finals[0].text
    world.fake.assert_no_problems()


async def test_a_secret_dm_that_fails_transiently_is_delivered(world: World):
    async with world.bot(SeededDice(3)) as bot:
        fast(bot)
        board = (await world.slash(world.alice, "liar", "new", mode="lose_die", dice_per_player=2)).expect_message()
        assert (await world.click(world.carol, board, "join")).type == 7
        injected = world.fake.fail("POST /users/@me/channels", drop=True, times=2)  # opening a DM channel
        assert (await world.click(world.alice, board, "start")).type == 7
        await world.fake.wait_for(lambda: not injected.active, what="the fault to run out")
        await world.fake.wait_for(lambda: world.fake.dms(world.carol), what="carol's hand by DM")
        await world.fake.wait_for(lambda: world.fake.dms(world.alice), what="alice's hand by DM")
        assert len(world.fake.dms(world.carol)) == 1 and not bot.presenter.pending
    world.fake.assert_no_problems()


async def test_a_computer_player_whose_move_failed_on_a_full_disk_moves_again_within_seconds(
    world: World, monkeypatch: pytest.MonkeyPatch
):
    disk = FullDisk(monkeypatch)
    async with world.bot(SeededDice(4)) as bot:
        computers = bot.tables.computers
        computers.retry_first, computers.retry_cap = 0.05, 0.3
        board = (await world.slash(world.alice, "pig", "new", target=100)).expect_message()
        menu = next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":addbot"))
        await (await world.fake.select(world.alice, board, menu, ["addbot:normal"])).response()
        await world.click(world.alice, board, "start")
        table = bot.tables.table(world.channel.id)
        computers.delay = (0.5, 0.5)  # time to fill the disk between alice's move and the computer's
        while table.engine.to_act(table.state) == (0,):  # alice's turn, to its end
            await world.click(world.alice, board, "hold" if table.state.turn_total else "roll")
        version = table.version
        await disk.down()
        await world.fake.wait_for(lambda: computers._failures, what="the computer's move to fail")
        assert table.version == version and table.running
        await disk.up()
        back = time.monotonic()
        await world.fake.wait_for(lambda: table.version != version or not table.running, what="the computer moved")
        assert time.monotonic() - back < HEALED


CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


async def test_a_press_whose_answer_dropped_after_its_move_was_committed_is_told_it_went_through(
    world: World, caplog: pytest.LogCaptureFixture
):
    async with world.bot(SeededDice(4)) as bot:
        board, table = await pig_table(world, bot)
        version = table.version
        world.fake.fail(CALLBACK, drop=True, times=1)  # the redrawn table, the click's answer: lost on the way
        reply = await world.click(world.alice, board, "roll")
        assert reply.ephemeral and reply.text == "⚠️ " + t("error.internal_applied", "en")
        assert table.version == version + 1  # it did go through, once
        await world.fake.wait_for(lambda: current(board, table), what="the table message to show the move")
    unhandled = [
        r for r in caplog.records if "Ignoring exception" in r.getMessage() or "Task exception" in r.getMessage()
    ]
    assert not unhandled


async def test_a_press_that_failed_before_its_move_was_committed_is_told_nothing_changed(
    world: World, monkeypatch: pytest.MonkeyPatch
):
    async with world.bot(SeededDice(4)) as bot:
        board, table = await pig_table(world, bot)
        version = table.version

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug before the commit")

        monkeypatch.setattr(bot.tables, "act", broken)
        reply = await world.click(world.alice, board, "roll")
        assert reply.ephemeral and reply.text == "⚠️ " + t("error.internal", "en")
        assert table.version == version


async def test_a_connection_that_drops_again_while_answering_a_failed_press_is_no_unhandled_traceback(
    world: World, caplog: pytest.LogCaptureFixture
):
    async with world.bot(SeededDice(4)) as bot:
        board, table = await pig_table(world, bot)
        version = table.version
        fault = world.fake.fail(CALLBACK, drop=True, times=2)  # the answer and the error's answer
        custom_id = next(c for c in board.custom_ids() if c.endswith(":roll"))
        await world.fake.click(world.alice, board, custom_id)
        await world.fake.wait_for(lambda: not fault.active, what="both answers to be dropped")
        await world.fake.wait_for(lambda: current(board, table) and table.version == version + 1, what="the move")
        await world.fake.wait_for(
            lambda: any("could not answer a failed press" in r.getMessage() for r in caplog.records), what="its line"
        )
    unhandled = [
        r for r in caplog.records if "Ignoring exception" in r.getMessage() or "Task exception" in r.getMessage()
    ]
    assert not unhandled


async def play_to_the_end(bot: Any, world: World, table: Any) -> None:
    while table.running:
        seat = table.state.current
        move = "hold" if table.state.turn_total >= 6 else "roll"
        await bot.tables.act(world.channel.id, table.seats[seat].id, move)


def finals(world: World) -> list[FakeMessage]:
    return [m for m in world.fake.channel_messages(world.channel) if "is over" in m.text]


async def owed(bot: Any) -> int:
    return (await bot.store.fetch_one("SELECT COUNT(*) FROM end_messages"))[0]


async def test_an_end_message_still_owed_when_the_bot_stopped_is_sent_once_after_the_restart(world: World):
    dice = SeededDice(4)
    async with world.bot(dice) as bot:
        fast(bot)
        board, table = await pig_table(world, bot, target=20)
        refused = world.fake.fail(POST, status=503)  # every end message refused until the bot is gone
        await play_to_the_end(bot, world, table)
        await world.fake.wait_for(lambda: refused.hits >= 2, what="the end message's tries")
        assert await owed(bot) == 1  # committed with the game's last move
    world.fake.heal()
    assert finals(world) == []
    async with world.bot(dice) as bot:  # a new process on the same database
        await world.fake.wait_for(lambda: finals(world), what="the end message")
        await world.fake.wait_for(lambda: not bot.presenter._workers, what="the table's worker to finish")
        (final,) = finals(world)
        assert f"<@{world.alice.id}>" in final.text and f"<@{world.carol.id}>" in final.text
        assert await owed(bot) == 0
    async with world.bot(dice) as bot:  # and once told, never again
        await world.fake.wait_for(lambda: not bot.presenter._workers, what="the presenter's workers")
        assert len(finals(world)) == 1
    world.fake.assert_no_problems()


async def test_an_end_message_whose_answer_was_lost_is_not_posted_twice(world: World):
    async with world.bot(SeededDice(4)) as bot:
        fast(bot)
        board, table = await pig_table(world, bot, target=20)
        lost = world.fake.fail(POST, drop=True, lost=True, times=1)  # Discord posts it; the answer never arrives
        await play_to_the_end(bot, world, table)
        await world.fake.wait_for(lambda: not lost.active, what="the lost answer")
        await world.fake.wait_for(lambda: not bot.presenter._workers, what="the table's worker to finish")
        posts = [c for c in world.fake.rest_calls if c.method == "POST" and c.route == POST.split(" ")[1]]
        assert len(posts) >= 2  # tried again with the same nonce: Discord answered with the message it had
        assert len(finals(world)) == 1 and await owed(bot) == 0
    world.fake.assert_no_problems()
