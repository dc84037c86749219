"""Turn reminders end to end: at half of the turn time the player still to act gets one short message that pings
only them; it goes when they act or time out. Time moves by ``TableService.run_due(now=...)``, never by sleeping."""

from __future__ import annotations

import sqlite3
from typing import Any

from bot.games.dice import ScriptedDice
from tests.e2e.conftest import World
from tests.fakediscord import FakeMessage


def reminders(world: World) -> list[FakeMessage]:
    """Every reminder the bot posted in the table's channel, deleted ones included, oldest first."""
    return [m for m in world.fake.channel_messages(world.channel, include_deleted=True) if m.content.startswith("⏰")]


def live_reminders(world: World) -> list[FakeMessage]:
    return [m for m in reminders(world) if not m.deleted]


async def running_pig(world: World) -> FakeMessage:
    board = (await world.slash(world.alice, "pig", "new")).expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    assert (await world.click(world.alice, board, "start")).type == 7
    return board


async def half_time(bot: Any, table: Any, past: float = 1.0) -> None:
    """Move the clock just past half of the current turn (the turn timeout is 120 s: half is 60 s before the end)."""
    await bot.tables.run_due(now=table.deadline - 60 + past)


async def quiet(world: World, bot: Any, table: Any) -> None:
    """Wait until the presenter has nothing left to do in the table's channel."""
    await world.fake.wait_for(lambda: table.id not in bot.presenter._workers, what="the table's channel worker")


def mover_user(world: World, table: Any) -> Any:
    seat = table.seats[table.engine.to_act(table.state)[0]]
    return next(u for u in (world.alice, world.bob, world.carol) if u.id == seat.id)


async def test_a_reminder_at_half_time_pings_only_that_player_and_goes_when_they_act(world: World):
    async with world.bot(ScriptedDice([3] * 20)) as bot:
        board = await running_pig(world)
        table = bot.tables.table(world.channel.id)
        player = mover_user(world, table)
        assert player is world.alice
        await half_time(bot, table, past=-1)  # not yet half
        await quiet(world, bot, table)
        assert reminders(world) == []

        await half_time(bot, table)
        reminder = await world.fake.wait_for(lambda: next(iter(live_reminders(world)), None), what="the reminder")
        assert f"<@{world.alice.id}>" in reminder.content and f"<@{world.bob.id}>" not in reminder.content
        assert f"<t:{int(table.deadline)}:R>" in reminder.content  # Discord keeps the relative time current
        assert "Pig" in reminder.content
        mentions = reminder.allowed_mentions
        assert mentions is not None and mentions["parse"] == []  # no @everyone, no roles
        assert [int(u) for u in mentions["users"]] == [world.alice.id]

        await half_time(bot, table, past=5)  # the same turn, later: still one reminder
        await quiet(world, bot, table)
        assert reminders(world) == [reminder]

        assert (await world.click(world.alice, board, "roll")).type == 7  # she acts: the reminder goes
        await world.fake.wait_for(lambda: reminder.deleted, what="the reminder's deletion")
        await quiet(world, bot, table)
        row = await bot.store.fetch_one("SELECT COUNT(*) FROM reminders")
        assert row[0] == 0
    assert world.fake.max_messages_in_window(world.channel) <= 5
    world.fake.assert_no_problems()


async def test_a_reminder_goes_when_the_player_times_out_and_the_next_player_gets_their_own(world: World):
    async with world.bot(ScriptedDice([3] * 20)) as bot:
        await running_pig(world)
        table = bot.tables.table(world.channel.id)
        await half_time(bot, table)
        first = await world.fake.wait_for(lambda: next(iter(live_reminders(world)), None), what="alice's reminder")
        assert f"<@{world.alice.id}>" in first.content

        assert await bot.tables.run_due(now=table.deadline) == 1  # alice times out
        await world.fake.wait_for(lambda: first.deleted, what="the reminder's deletion")
        assert mover_user(world, table) is world.bob

        await half_time(bot, table)
        second = await world.fake.wait_for(
            lambda: next((m for m in live_reminders(world) if m is not first), None), what="bob's reminder"
        )
        assert f"<@{world.bob.id}>" in second.content and f"<@{world.alice.id}>" not in second.content
        assert live_reminders(world) == [second]  # never more than one per table
        await bot.tables.run_due(now=table.deadline)
        await world.fake.wait_for(lambda: second.deleted, what="bob's reminder's deletion")
    assert world.fake.max_messages_in_window(world.channel) <= 5
    world.fake.assert_no_problems()


async def test_reminders_off_for_the_server_posts_none_and_show_says_so(world: World):
    async with world.bot(ScriptedDice([3] * 20)) as bot:
        reply = await world.slash(world.admin, "settings", "show")
        assert "Turn reminders: on" in reply.text  # the default
        reply = await world.slash(world.admin, "settings", "reminders", state="off")
        assert reply.ephemeral and "reminders=off" in reply.text
        assert "Turn reminders: off" in (await world.slash(world.admin, "settings", "show")).text

        board = await running_pig(world)
        table = bot.tables.table(world.channel.id)
        await half_time(bot, table)
        await quiet(world, bot, table)
        assert reminders(world) == []

        await world.slash(world.admin, "settings", "reminders", state="on")  # from the next turn on
        await world.click(world.alice, board, "roll")
        await half_time(bot, table)
        await world.fake.wait_for(lambda: live_reminders(world), what="a reminder once they are on again")


async def test_a_non_manager_cannot_turn_reminders_off(world: World):
    async with world.bot() as bot:
        record = await world.fake.slash(
            world.carol, world.channel, "settings", "reminders", options={"state": "off"}, check_permissions=False
        )
        reply = await record.response()
        assert reply.ephemeral and "Manage Server" in reply.text
        assert await bot.tables.reminders_on(world.guild.id)


async def test_computer_players_get_no_reminders(world: World):
    async with world.bot(ScriptedDice([3] * 20)) as bot:
        bot.tables.bot_delay = (30, 30)  # the computer player thinks long: its turn reaches half time
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        menu = next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":addbot"))
        await (await world.fake.select(world.alice, board, menu, ["addbot:normal"])).response()
        await world.click(world.alice, board, "start")
        table = bot.tables.table(world.channel.id)
        await world.click(world.alice, board, "roll")
        await world.click(world.alice, board, "hold")
        assert table.seats[table.engine.to_act(table.state)[0]].is_bot
        await half_time(bot, table)
        await quiet(world, bot, table)
        assert reminders(world) == []


async def test_a_reminder_from_before_a_restart_is_not_repeated_and_goes_when_the_player_acts(world: World):
    dice = ScriptedDice([3] * 20)
    async with world.bot(dice) as bot:
        board = await running_pig(world)
        table = bot.tables.table(world.channel.id)
        await half_time(bot, table)
        reminder = await world.fake.wait_for(lambda: next(iter(live_reminders(world)), None), what="the reminder")
    async with world.bot(dice) as bot:  # a new process on the same database
        table = bot.tables.table(world.channel.id)
        await half_time(bot, table, past=2)
        await quiet(world, bot, table)
        assert reminders(world) == [reminder] and not reminder.deleted  # still there, not posted twice
        assert (await world.click(world.alice, board, "roll")).type == 7
        await world.fake.wait_for(lambda: reminder.deleted, what="the old reminder's deletion")
    world.fake.assert_no_problems()


async def test_a_turn_that_passed_half_time_while_the_bot_was_down_is_reminded_at_start(world: World):
    dice = ScriptedDice([3] * 20)
    async with world.bot(dice) as bot:
        await running_pig(world)
        assert reminders(world) == []
    # The bot was down for 70 s of a 120 s turn: move the turn's start and deadline back (no clock to fake here).
    with sqlite3.connect(world.db) as conn:
        conn.execute("UPDATE actions SET at = at - 70, due = due - 70")  # a move's row holds the deadline it left
        conn.execute("UPDATE deadlines SET due = due - 70")
    async with world.bot(dice) as bot:
        reminder = await world.fake.wait_for(lambda: next(iter(live_reminders(world)), None), what="the reminder")
        assert f"<@{world.alice.id}>" in reminder.content
        table = bot.tables.table(world.channel.id)
        await bot.tables.run_due(now=table.deadline)  # and it goes when she times out
        await world.fake.wait_for(lambda: reminder.deleted, what="the reminder's deletion")
    assert len(reminders(world)) == 1  # bob's turn is not half over yet


async def test_a_reminder_of_a_game_that_ended_while_the_bot_was_down_is_deleted_at_start(world: World):
    async with world.bot(ScriptedDice([3] * 20)) as bot:
        await running_pig(world)
        table = bot.tables.table(world.channel.id)
        await half_time(bot, table)
        reminder = await world.fake.wait_for(lambda: next(iter(live_reminders(world)), None), what="the reminder")
    with sqlite3.connect(world.db) as conn:  # e.g. a crash between the game's end and the reminder's deletion
        conn.execute("UPDATE games SET status = 'cancelled'")
    async with world.bot() as bot:
        await world.fake.wait_for(lambda: reminder.deleted, what="the stale reminder's deletion")
        await world.fake.wait_for(lambda: not bot.presenter._workers, what="the presenter's workers")
        row = await bot.store.fetch_one("SELECT COUNT(*) FROM reminders")
        assert row[0] == 0
    world.fake.assert_no_problems()
