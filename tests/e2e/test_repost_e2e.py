"""Issue 25, part 1: the table stays in view. Messages posted below the table message are counted from MESSAGE_CREATE
(the non-privileged GUILD_MESSAGES intent); once a server's ``/settings repost`` count is reached, the table's next
redraw posts it anew at the bottom, commits the new message id, then deletes the old message, paced like its edits;
``/<game> table`` does the same on demand. Old controls answer privately with the table's link.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.games.dice import ScriptedDice
from bot.i18n import t
from bot.render import error_text
from bot.tables import TableError
from cogs.utils.presenter import table_link
from tests.e2e.conftest import World, new_world
from tests.e2e.test_liar_e2e import Secrets
from tests.fakediscord import FakeDiscord, FakeMessage


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    async with FakeDiscord(rate_limit="record") as fake:  # every channel post over 5 per 5 s is a problem
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"))


@pytest.fixture
async def welt(tmp_path) -> AsyncIterator[World]:
    """The same tavern, in German (the server's language and every member's client)."""
    async with FakeDiscord(rate_limit="record") as fake:
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"), guild_locale="de", user_locale="de")


@pytest.fixture
async def mondo(tmp_path) -> AsyncIterator[World]:
    """The same tavern, in Italian."""
    async with FakeDiscord(rate_limit="record") as fake:
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"), guild_locale="it", user_locale="it")


def sixes() -> ScriptedDice:
    return ScriptedDice([6] * 400)  # Pig: alice rolls and never busts, so she is always the one to move


async def open_pig(world: World, start: bool = True) -> FakeMessage:
    reply = await world.slash(world.alice, "pig", "new")
    board = reply.expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    if start:
        assert (await world.click(world.alice, board, "start")).type == 7
    return board


async def idle(world: World, bot: Any, table: Any) -> None:
    """Until the table's paced worker has sent everything (its edits, a repost's post and delete)."""
    presenter = bot.presenter
    await world.fake.wait_for(
        lambda: table.id not in presenter._workers and table.id not in presenter._dirty, what="the worker at rest"
    )
    await world.fake.settle()


async def chatter(world: World, bot: Any, count: int, who: Any = None) -> None:
    """``count`` messages by carol (or ``who``) below the table; waits until the bot has counted them."""
    before = bot.presenter.below(world.channel.id) or 0
    for n in range(count):
        await world.fake.post_message(who or world.carol, world.channel, f"chat {n}")
    await world.fake.wait_for(
        lambda: (bot.presenter.below(world.channel.id) or 0) >= before + count, what=f"{count} messages counted"
    )


def posts(world: World, since: int = 0) -> list[Any]:
    """The bot's REST posts in the table's channel (the table anew, reminders, the end message)."""
    path = f"/channels/{world.channel.id}/messages"
    return [c for c in world.fake.calls(since=since, method="POST") if c.path == path]


def deletes(world: World, since: int = 0) -> list[Any]:
    return [
        c for c in world.fake.calls(since=since, method="DELETE") if c.path.startswith(f"/channels/{world.channel.id}/")
    ]


def public_texts(world: World) -> str:
    """Every version of every public message in the channel (deleted ones too)."""
    messages = world.fake.channel_messages(world.channel, include_deleted=True)
    return "\n".join(v.text for m in messages for v in m.history)


def no_trouble(world: World) -> None:
    world.fake.assert_no_problems()
    assert world.fake.max_messages_in_window(world.channel) <= 5


# -- automatic: chatter below the table, then a move ---------------------------------------------------------------


async def test_chatter_below_the_table_brings_it_down_at_the_next_move(world: World):
    async with world.bot(sixes()) as bot:
        board = await open_pig(world)
        table = bot.tables.table(world.channel.id)
        await idle(world, bot, table)
        assert bot.presenter.below(world.channel.id) == 0  # the table message itself is not counted

        await chatter(world, bot, 7)  # one short of the default threshold (8)
        assert (await world.click(world.alice, board, "roll")).type == 7
        await idle(world, bot, table)
        assert table.message_id == board.id and not posts(world) and not board.deleted

        mark = world.fake.mark()
        await chatter(world, bot, 1)
        assert bot.presenter.below(world.channel.id) == 8
        assert (await world.click(world.alice, board, "roll")).type == 7  # the move, on the table message
        await idle(world, bot, table)
        new = world.fake.message(table.message_id)
        assert new.id != board.id and board.deleted and not new.deleted
        assert world.fake.last_message(world.channel).id == new.id  # at the bottom, below the chatter
        assert len(posts(world, mark)) == 1 and len(deletes(world, mark)) == 1  # one post, one delete
        assert bot.presenter.below(world.channel.id) == 0
        assert "12" in new.text  # the table as it stands: alice's two sixes this turn
        row = await bot.store.fetch_one("SELECT message_id FROM games WHERE id = ?", (table.id,))
        assert row[0] == new.id  # committed

        # its controls work: the next move edits the new message in place, nothing is posted
        mark = world.fake.mark()
        assert (await world.click(world.alice, new, "roll")).type == 7
        await idle(world, bot, table)
        assert "18" in new.text and not posts(world, mark) and table.message_id == new.id
    no_trouble(world)


async def test_the_bots_own_messages_count_and_a_deleted_one_no_longer_does(world: World):
    async with world.bot(sixes()) as bot:
        await open_pig(world)
        table = bot.tables.table(world.channel.id)
        await idle(world, bot, table)
        await chatter(world, bot, 3)
        gone = await world.fake.post_message(world.bob, world.channel, "oops")
        await world.fake.wait_for(lambda: bot.presenter.below(world.channel.id) == 4)
        world.fake._delete_message(gone)  # a moderator deletes it: it no longer pushes the table up
        await world.fake.wait_for(lambda: bot.presenter.below(world.channel.id) == 3)
        # the bot's own message below the table (here the reply to a public /leaderboard) counts like chat
        await world.slash(world.alice, "leaderboard")
        await world.fake.wait_for(lambda: bot.presenter.below(world.channel.id) == 4)
    no_trouble(world)


async def test_a_repost_survives_a_restart(world: World):
    dice = sixes()
    async with world.bot(dice) as bot:
        board = await open_pig(world)
        table = bot.tables.table(world.channel.id)
        await chatter(world, bot, 8)
        await world.click(world.alice, board, "roll")
        await idle(world, bot, table)
        new_id = table.message_id
        assert new_id != board.id and board.deleted
    new = world.fake.message(new_id)
    edits = new.edits
    mark = world.fake.mark()
    async with world.bot(dice) as bot:  # a new process on the same database
        table = bot.tables.table(world.channel.id)
        assert table.message_id == new_id
        await world.fake.wait_for(lambda: new.edits > edits, what="the table re-shown after the restart")
        await idle(world, bot, table)
        assert not posts(world, mark) and not deletes(world, mark)  # edited where it is now: no third message
        assert (await world.click(world.alice, new, "roll")).type == 7
        await idle(world, bot, table)
        assert table.message_id == new_id and not posts(world, mark)
    assert [m.id for m in world.fake.channel_messages(world.channel) if m.custom_ids()] == [new_id]
    no_trouble(world)


async def test_a_burst_of_chatter_and_moves_never_breaks_the_channels_rate_limit(world: World):
    async with world.bot(sixes()) as bot:
        board = await open_pig(world)
        table = bot.tables.table(world.channel.id)
        mark = world.fake.mark()
        for _ in range(4):  # chatter and a move, again and again: each time a repost is due
            await chatter(world, bot, 8)
            board = world.fake.message(table.message_id)
            await world.click(world.alice, board, "roll")  # a slash move meanwhile races the repost's delete:
            await world.slash(world.alice, "pig", "roll")  # answered privately, the table redrawn where it is
            await idle(world, bot, table)
        assert len(posts(world, mark)) == 4 and len(deletes(world, mark)) == 4
        tables = [m for m in world.fake.channel_messages(world.channel) if m.custom_ids()]
        assert [m.id for m in tables] == [table.message_id]  # one table message, the last one posted
        assert world.fake.rate_limit_violations == []
    no_trouble(world)


async def test_a_failed_post_keeps_the_old_table_message(world: World, monkeypatch):
    async with world.bot(sixes()) as bot:
        board = await open_pig(world)
        table = bot.tables.table(world.channel.id)
        await idle(world, bot, table)

        async def refused(*args: Any, **kwargs: Any) -> Any:
            raise discord.HTTPException(SimpleNamespace(status=500, reason="boom"), "no post today")

        monkeypatch.setattr(discord.PartialMessageable, "send", refused)
        await chatter(world, bot, 8)
        assert (await world.click(world.alice, board, "roll")).type == 7
        await idle(world, bot, table)
        assert table.message_id == board.id and not board.deleted  # the table is where it was
        assert bot.presenter.below(world.channel.id) == 0  # not retried at every redraw
        row = await bot.store.fetch_one("SELECT message_id FROM games WHERE id = ?", (table.id,))
        assert row[0] == board.id
        monkeypatch.undo()
        mark = world.fake.mark()
        await world.slash(world.alice, "pig", "roll")  # a move elsewhere: the old message is edited as before
        await idle(world, bot, table)
        assert table.message_id == board.id and not posts(world, mark)
        assert [c.method for c in world.fake.calls(since=mark, kind="bot")] == ["PATCH"]
    no_trouble(world)


# -- the threshold per server ---------------------------------------------------------------------------------------


async def test_the_threshold_is_the_servers_and_only_a_manager_sets_it_in_italian(mondo: World):
    world = mondo
    async with world.bot(sixes()) as bot:
        record = await world.fake.slash(
            world.carol, world.channel, "settings", "repost", options={"messages": 3}, check_permissions=False
        )
        reply = await record.response()
        assert reply.ephemeral and reply.text == "⚠️ " + t("error.not_manager", "it")
        assert await bot.tables.repost_after(world.guild.id) == 8 and await bot.tables.settings(world.guild.id) == {}

        for bad in (1, 2, 101, -1):
            reply = await world.slash(world.admin, "settings", "repost", messages=bad)
            assert reply.ephemeral and reply.text == "⚠️ " + t("error.bad_repost", "it", lo=3, hi=100)
        assert await bot.tables.settings(world.guild.id) == {}  # refused: nothing written

        reply = await world.slash(world.admin, "settings", "repost", messages=3)
        assert reply.ephemeral and reply.text == t("ui.settings_saved", "it", detail="repost=3")
        assert await bot.tables.settings(world.guild.id) == {"repost": 3}

        board = await open_pig(world)
        table = bot.tables.table(world.channel.id)
        assert "Maiale" in board.text or table.locale == "it"
        await chatter(world, bot, 3)
        await world.click(world.alice, board, "roll")
        await idle(world, bot, table)
        new = world.fake.message(table.message_id)
        assert board.deleted and new.id != board.id and world.fake.last_message(world.channel).id == new.id

        reply = await world.slash(world.admin, "settings", "repost", messages=0)
        assert reply.text == t("ui.settings_saved", "it", detail=f"repost={t('ui.repost_never', 'it')}")
        mark = world.fake.mark()
        await chatter(world, bot, 20)
        await world.click(world.alice, new, "roll")
        await idle(world, bot, table)
        assert table.message_id == new.id and not posts(world, mark) and not new.deleted  # 0: never

        reply = await world.slash(world.admin, "settings", "repost", messages=8)  # the default: no row
        assert await bot.tables.settings(world.guild.id) == {}
    no_trouble(world)


# -- /<game> table ----------------------------------------------------------------------------------------------------


async def test_the_table_command_brings_it_down_on_demand_in_german(welt: World):
    world = welt
    async with world.bot(sixes()) as bot:
        reply = await world.slash(world.alice, "pig", "table")  # no table here
        assert reply.ephemeral and reply.text == "⚠️ " + t("error.no_table", "de")

        board = await open_pig(world)
        table = bot.tables.table(world.channel.id)
        await idle(world, bot, table)
        reply = await world.slash(world.bob, "mia", "table")  # another game's table
        wrong = error_text(TableError("wrong_game", game="pig"), "de", "mia")
        assert reply.ephemeral and reply.text == "⚠️ " + wrong

        mark = world.fake.mark()
        reply = await world.slash(world.bob, "pig", "table")  # it is the last message already: nothing sent
        assert reply.ephemeral and reply.text == t("ui.table_at_bottom", "de", link=table_link(table))
        assert [c.kind for c in world.fake.calls(since=mark)] == ["callback"]

        await chatter(world, bot, 2)  # fewer than the threshold: on demand all the same
        mark = world.fake.mark()
        reply = await world.slash(world.bob, "pig", "table")
        new = world.fake.message(table.message_id)
        assert new.id != board.id
        assert reply.ephemeral and reply.text == t("ui.table_below", "de", link=table_link(table))
        assert str(new.id) in reply.text
        await idle(world, bot, table)
        assert board.deleted and world.fake.last_message(world.channel).id == new.id
        assert len(posts(world, mark)) == 1 and len(deletes(world, mark)) == 1
        assert (await world.click(world.alice, new, "roll")).type == 7  # its controls work

        # asked for again and again at once: one repost
        await chatter(world, bot, 1)
        mark = world.fake.mark()
        records = [
            await world.fake.slash(u, world.channel, "pig", "table") for u in (world.alice, world.bob, world.carol)
        ]
        replies = [await r.response() for r in records]
        await idle(world, bot, table)
        assert len(posts(world, mark)) == 1 and len(deletes(world, mark)) == 1
        assert all(r.ephemeral and str(table.message_id) in r.text for r in replies)
        assert [m.id for m in world.fake.channel_messages(world.channel) if m.custom_ids()] == [table.message_id]
    no_trouble(world)


# -- old controls after a repost --------------------------------------------------------------------------------------


async def posted_anew_keeping(
    world: World, bot: Any, table: Any, old: FakeMessage, monkeypatch: Any, who: Any, messages: int
) -> FakeMessage:
    """``messages`` of chatter and ``who``'s ``/<game> table``: the table posted anew, while the old message's delete
    fails (or is still on its way), so the old message stays, clickable; the new table message."""

    async def failed_delete(channel_id: int, message_id: int) -> None:
        return None

    monkeypatch.setattr(bot.presenter, "_delete_message", failed_delete)
    await chatter(world, bot, messages)
    await world.slash(who, table.game, "table")
    await idle(world, bot, table)
    new = world.fake.message(table.message_id)
    assert new.id != old.id and not old.deleted
    return new


async def test_a_click_on_an_old_table_message_is_answered_privately_with_the_tables_link(world: World, monkeypatch):
    async with world.bot(sixes()) as bot:
        reply = await world.slash(world.alice, "pig", "new")
        old = reply.expect_message()
        table = bot.tables.table(world.channel.id)
        await idle(world, bot, table)

        new = await posted_anew_keeping(world, bot, table, old, monkeypatch, world.alice, 1)
        shown = (old.edits, list(old.components))

        # a lobby verb on the old message: applied, answered privately, the old message left alone
        record = await world.fake.click(world.bob, old, next(c for c in old.custom_ids() if c.endswith(":join")))
        reply = await record.response()
        assert reply.type == 4 and reply.ephemeral and reply.message.visible_to == world.bob.id
        assert reply.text == t("ui.joined", "en") + "\n" + t("ui.table_moved", "en", link=table_link(table))
        assert table.seat_of(world.bob.id) is not None
        await idle(world, bot, table)
        assert (old.edits, list(old.components)) == shown  # never redrawn as a second table
        assert "bob" in new.text  # the table message shows him

        # the host starts from the old message: the game starts, the table message shows it
        record = await world.fake.click(world.alice, old, next(c for c in old.custom_ids() if c.endswith(":start")))
        reply = await record.response()
        assert reply.ephemeral and t("ui.table_moved", "en", link=table_link(table)) in reply.text
        await idle(world, bot, table)
        assert table.status == "running" and (old.edits, list(old.components)) == shown
    no_trouble(world)


async def test_a_move_from_an_old_liar_table_message_shows_no_secret_in_public(world: World, monkeypatch):
    async with world.bot(ScriptedDice([2, 3, 4, 5, 6, 2, 3, 4, 5, 6] * 20)) as bot:
        reply = await world.slash(world.alice, "liar", "new")
        old = reply.expect_message()
        assert (await world.click(world.bob, old, "join")).type == 7
        assert (await world.click(world.alice, old, "start")).type == 7
        table = bot.tables.table(world.channel.id)
        secrets = Secrets(world, table, [world.alice, world.bob])  # the hands dealt, to look for in public
        await idle(world, bot, table)

        await posted_anew_keeping(world, bot, table, old, monkeypatch, world.bob, 8)
        shown = old.edits

        seat = table.engine.to_act(table.state)[0]
        user = world.fake.users[table.seats[seat].id]
        # My dice from the old message: private, as ever
        reply = await world.click(user, old, "me")
        assert reply.ephemeral and reply.message.visible_to == user.id
        # a bid from the old message's menu: applied, answered privately with the link, the old message untouched
        select = next(c for c in old.custom_ids() if c.startswith("ds:"))
        option = next(o for o in old.find_component(select)["options"] if o["value"].startswith("bid:"))
        version = table.version
        record = await world.fake.select(user, old, select, [option["value"]])
        reply = await record.response()
        assert reply.ephemeral and reply.message.visible_to == user.id
        assert t("ui.table_moved", "en", link=table_link(table)) in reply.text
        assert table.version > version and old.edits == shown
        await idle(world, bot, table)
        secrets.check()  # no hand in any version of any public message (the old, the new), nor another's DM
        assert t("ui.your_view", "en") not in public_texts(world)
    no_trouble(world)
