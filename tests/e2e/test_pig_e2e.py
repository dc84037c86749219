"""Pig end to end through slash commands and the table message's buttons."""

from __future__ import annotations

import asyncio

from bot.games.dice import ScriptedDice
from bot.render import option_label
from tests.e2e.conftest import World
from tests.waiting import DEADLINE


def table_message(world: World):
    messages = [
        m for m in world.fake.channel_messages(world.channel) if any(c.startswith("dt:") for c in m.custom_ids())
    ]
    assert messages, "no table message in the channel"
    return messages[-1]


async def open_pig_table(world: World, **options):
    reply = await world.slash(world.alice, "pig", "new", **options)
    assert reply.type == 4 and not reply.ephemeral
    board = reply.expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    assert "bob" in board.text
    assert (await world.click(world.alice, board, "start")).type == 7
    return board


async def test_a_whole_two_player_pig_game_through_commands_and_buttons(world: World):
    # Seat 0 (alice) starts: 6, 6 hold; bob busts; alice 6, 4 reaches 20 and auto-holds.
    async with world.bot(ScriptedDice([6, 6, 1, 6, 4])) as _bot:
        board = await open_pig_table(world, target=20)
        reply = await world.slash(world.alice, "pig", "roll")
        assert reply.ephemeral and "rolled" in reply.text and "6" in reply.text
        assert (await world.click(world.alice, board, "roll")).type == 7
        assert (await world.click(world.alice, board, "hold")).type == 7
        assert "banks **12**" in board.text
        reply = await world.slash(world.bob, "pig", "roll")
        assert "bust" in reply.text
        await world.click(world.alice, board, "roll")
        reply = await world.slash(world.alice, "pig", "roll")
        assert "wins" in reply.text
        await world.fake.wait_for(lambda: "wins" in board.text and "finished" in board.text)
        assert not any(c.endswith(":roll") for c in board.custom_ids())  # a finished table offers no moves

        board_reply = await world.slash(world.carol, "leaderboard", game="pig")
        assert (
            f"<@{world.alice.id}>" in board_reply.text
            and "1 win · 0 losses / 1 game (100% won) · best" in board_reply.text
        )
        stats = await world.slash(world.bob, "stats")
        assert stats.ephemeral and "0 wins · 1 loss / 1 game (0% won), best score" in stats.text
    for record in world.fake.interactions:
        assert record.ack_latency is not None and record.ack_latency < 3.0
    # one table message, edited: the channel never sees more than Discord's ~5 messages per 5 s
    assert world.fake.max_messages_in_window(world.channel) <= 5
    world.fake.assert_no_problems()


async def test_a_non_player_pressing_roll_is_refused_and_nothing_changes(world: World):
    async with world.bot(ScriptedDice([3] * 10)) as bot:
        board = await open_pig_table(world)
        table = bot.tables.table(world.channel.id)
        before = (table.engine.dumps(table.state), table.version, board.edits)
        reply = await world.click(world.carol, board, "roll")
        assert reply.ephemeral and "not playing" in reply.text
        reply = await world.click(world.bob, board, "roll")  # a player, but not on turn
        assert reply.ephemeral and "not your turn" in reply.text
        reply = await world.click(world.alice, board, "hold")
        assert reply.ephemeral and "roll at least once" in reply.text
        assert (table.engine.dumps(table.state), table.version, board.edits) == before


async def test_lobby_errors_are_specific_and_ephemeral(world: World):
    async with world.bot() as bot:
        reply = await world.slash(world.alice, "pig", "roll")
        assert reply.ephemeral and "no table" in reply.text
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        reply = await world.slash(world.bob, "pig", "new")
        assert reply.ephemeral and "already has an open Pig table" in reply.text
        reply = await world.click(world.alice, board, "join")
        assert reply.ephemeral and "already at this table" in reply.text
        reply = await world.click(world.alice, board, "start")
        assert reply.ephemeral and "At least 2 players" in reply.text
        reply = await world.slash(world.carol, "game", "cancel")
        assert reply.ephemeral and "Only the host" in reply.text
        reply = await world.slash(world.admin, "game", "cancel")
        assert not reply.text.startswith("⚠️")
        assert world.channel.id not in bot.tables.by_channel
        await world.fake.wait_for(lambda: "cancelled" in board.text)


async def test_a_player_with_closed_dms_still_plays_and_my_dice_answers_ephemerally(world: World):
    async with world.bot(ScriptedDice([2, 1, 5])) as _bot:
        board = await open_pig_table(world)
        await world.click(world.alice, board, "roll")
        await world.click(world.alice, board, "roll")  # a 1: bob's turn
        assert (await world.click(world.bob, board, "roll")).type == 7
        reply = await world.click(world.bob, board, "me")
        # Pig hides nothing: the reply says so rather than repeating the table message
        assert reply.ephemeral and reply.text == "Nothing is hidden in this game: everything is on the table message."
    assert world.fake.dms(world.bob) == []


async def test_a_restarted_bot_finishes_the_game_and_old_buttons_still_work(world: World):
    dice = ScriptedDice([5, 5, 1, 6, 6, 6])
    async with world.bot(dice) as _bot:
        board = await open_pig_table(world, target=20)
        await world.click(world.alice, board, "roll")
        await world.click(world.alice, board, "roll")
        await world.click(world.alice, board, "hold")  # alice 10
    async with world.bot(dice) as bot:  # a new process on the same database
        table = bot.tables.table(world.channel.id)
        assert table.state.scores[0] == 10
        assert (await world.click(world.bob, board, "roll")).type == 7  # bob busts
        await world.click(world.alice, board, "roll")
        await world.click(world.alice, board, "roll")
        assert world.channel.id not in bot.tables.by_channel
        await world.fake.wait_for(lambda: "wins" in board.text)
        board_reply = await world.slash(world.alice, "leaderboard")
        assert f"<@{world.alice.id}>" in board_reply.text
    world.fake.assert_no_problems()


async def test_settings_need_manage_server(world: World):
    async with world.bot() as bot:
        reply = await world.slash(world.admin, "settings", "options", game="pig", values="target=50")
        assert "target=50" in reply.text
        reply = await world.slash(world.admin, "settings", "options", game="pig", values="target=7")
        assert reply.ephemeral and "target" in reply.text and "⚠️" in reply.text
        reply = await world.slash(world.admin, "settings", "timeout", seconds=60)
        assert await bot.tables.turn_timeout(world.guild.id) == 60
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        assert option_label("pig", "target", "en") + ": 50" in board.text  # the server's default, in words


async def test_commands_and_replies_follow_the_users_language(world: World):
    async with world.bot() as _bot:
        pig = world.fake.find_command("pig", None)
        join = next(o for o in pig["options"] if o["name"] == "join")
        assert join["description_localizations"]["de"] == "Dem Tisch in diesem Kanal beitreten"
        record = await world.fake.slash(world.alice, world.channel, "pig", "roll", locale="de")
        reply = await record.response()
        assert "keinen Tisch" in reply.text  # German user, German error
        reply = await world.slash(world.bob, "pig", "roll")
        assert "no table" in reply.text


async def test_two_clicks_at_once_apply_once(world: World):
    async with world.bot(ScriptedDice([3, 4, 5])) as bot:
        board = await open_pig_table(world)
        roll = next(c for c in board.custom_ids() if c.endswith(":roll"))
        clicks = await asyncio.gather(
            world.fake.click(world.alice, board, roll), world.fake.click(world.alice, board, roll)
        )
        replies = [await c.response() for c in clicks]
        assert sorted(r.type for r in replies) == [4, 7]  # one table update, one ephemeral refusal
        refusal = next(r for r in replies if r.type == 4)
        assert refusal.ephemeral and "already applied" in refusal.text
        assert bot.tables.table(world.channel.id).state.rolls_this_turn == 1


async def test_the_leaderboard_paginates(world: World):
    from bot.store import ratings, repo

    # 25 members in 75 two-player games (6 each: none provisional), rated by the back-fill from their results.
    pairs = [(i, (i + r) % 25) for r in (1, 2, 3) for i in range(25)]
    async with world.bot() as bot:
        games = [
            repo.insert_game(
                {
                    "guild_id": world.guild.id,
                    "channel_id": n,
                    "game": "pig",
                    "status": "finished",
                    "host_id": 1,
                    "options": {},
                    "seats": [],
                    "now": 0.0,
                }
            )
            for n in range(1, len(pairs) + 1)
        ]
        await bot.store.write(games)
        statements = [
            repo.insert_result(game_id, world.guild.id, "pig", 1001 + member, False, place, 100, result, float(game_id))
            for game_id, pair in enumerate(pairs, start=1)
            for member, place, result in ((min(pair), 1, "win"), (max(pair), 2, "loss"))
        ]
        await bot.store.write(statements)
        await bot.store.write([ratings.backfill])
        reply = await world.slash(world.carol, "leaderboard", game="pig")
        assert "Page 1/3" in reply.text and reply.text.count("<@") == 10
        message = reply.expect_message()
        page2 = await world.fake.click(world.carol, message, next(c for c in message.custom_ids() if ":2:" in c))
        assert (await page2.response()).type == 7
        assert "Page 2/3" in message.text and "11." in message.text


async def test_a_non_admin_changing_settings_is_refused(world: World):
    async with world.bot() as bot:
        # Discord hides /settings from non-managers; a server can override that, so the bot checks again.
        record = await world.fake.slash(
            world.carol, world.channel, "settings", "timeout", options={"seconds": 60}, check_permissions=False
        )
        reply = await record.response()
        assert reply.ephemeral and "Manage Server" in reply.text
        assert await bot.tables.turn_timeout(world.guild.id) == 120


async def test_a_click_that_raced_an_edit_is_still_answered(world: World):
    """The message no longer has the clicked control (it was redrawn meanwhile); discord.py would drop it."""
    async with world.bot(ScriptedDice([3, 4, 5])) as bot:
        board = await open_pig_table(world)
        stale_roll = next(c for c in board.custom_ids() if c.endswith(":roll"))
        stale_me = next(c for c in board.custom_ids() if c.endswith(":me"))
        await world.click(world.alice, board, "roll")  # redraws the message: new custom_ids
        assert stale_roll not in board.custom_ids()

        async def stale_click(custom_id):
            data = {"custom_id": custom_id, "component_type": 2}
            record = await world.fake._component_interaction(world.alice, board, custom_id, data, None, DEADLINE)
            return await record.response()

        reply = await stale_click(stale_roll)  # the second click of a double click
        assert reply.ephemeral and "already applied" in reply.text
        assert bot.tables.table(world.channel.id).state.rolls_this_turn == 1
        reply = await stale_click(stale_me)
        assert reply.ephemeral and "Nothing is hidden" in reply.text
    world.fake.assert_no_problems()


async def test_a_computer_player_joins_from_the_lobby_and_plays_by_the_same_rules(world: World):
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "pig", "new", target=20)).expect_message()
        menu = next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":addbot"))
        refused = await (await world.fake.select(world.bob, board, menu, ["addbot:hard"])).response()
        assert refused.ephemeral and "Only the host" in refused.text
        added = await (await world.fake.select(world.alice, board, menu, ["addbot:normal"])).response()
        assert added.type == 7 and "🤖" in board.text
        await world.click(world.alice, board, "start")
        table = bot.tables.by_id[int(menu.split(":")[1])]
        for _ in range(200):
            if not table.running:
                break
            if table.engine.to_act(table.state) == (0,):
                action = "hold" if table.state.turn_total >= 6 else "roll"
                await world.click(world.alice, board, action)
            else:
                version = table.version
                await world.fake.wait_for(lambda v=version: table.version != v or not table.running)
        assert table.status == "finished"
        await world.fake.wait_for(lambda: "wins" in board.text)
        rows = await bot.store.fetch_all("SELECT user_id, is_bot FROM results WHERE game_id = ?", (table.id,))
        assert sorted((r["user_id"] > 0, r["is_bot"]) for r in rows) == [(False, 1), (True, 0)]
    world.fake.assert_no_problems()


async def test_an_unexpected_failure_is_answered_and_changes_nothing(world: World):
    async with world.bot(ScriptedDice([3, 3, 3])) as bot:  # a failed commit still used up its roll
        board = await open_pig_table(world)
        table = bot.tables.table(world.channel.id)
        before = (table.engine.dumps(table.state), table.version)

        async def broken_write(statements):
            raise OSError("disk full")

        real_write, bot.store.write = bot.store.write, broken_write
        reply = await world.click(world.alice, board, "roll")
        assert reply.ephemeral and "Something went wrong" in reply.text
        reply = await world.slash(world.alice, "pig", "roll")
        assert reply.ephemeral and "Something went wrong" in reply.text
        assert (table.engine.dumps(table.state), table.version) == before  # nothing acknowledged, nothing lost
        bot.store.write = real_write
        assert (await world.click(world.alice, board, "roll")).type == 7
