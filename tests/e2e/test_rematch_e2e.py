"""🔁 Rematch end to end: a short Pig game against a computer player to its end, then the end message's button opens a
new lobby below it in one click (the computer re-seated, the other player invited in the log and pinged by that
message alone), the invited player joins with one click and the game starts; a stranger's click, a click while the
new lobby is open and a click on a game too old are refused privately with nothing sent but the answer; after a
restart the old end message's button still works. In English and Italian."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.dice import ScriptedDice
from bot.i18n import normalise, t
from bot.tables.rematch import REMATCH_HOURS
from tests.e2e.conftest import World, new_world
from tests.fakediscord import FakeDiscord, FakeMessage

# alice's four sixes reach 20 on her first turn; the rest is for the rematch
DICE = [6, 6, 6, 6] + [3] * 20

LANGUAGES = {
    # locale: (the button's label, the rematch's log line, a stranger's refusal, an open table's, too old's)
    "en-US": ("🔁 Rematch", "🔁 Rematch of table #{id}", "Only the players of table #{id}", "already has an open Pig",
              "finished more than {hours} hours ago"),
    "it": ("🔁 Rivincita", "🔁 Rivincita del tavolo #{id}", "Solo chi ha giocato al tavolo #{id}",
           "c'è già un tavolo di", "è finita più di {hours} ore fa"),
}  # fmt: skip


@pytest.fixture(params=sorted(LANGUAGES))
async def world(request, tmp_path):
    async with FakeDiscord() as fake:
        locale = request.param
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"), guild_locale=locale, user_locale=locale)


def texts(world: World) -> tuple[str, ...]:
    return LANGUAGES[world.guild.locale]


def rematch_id(message: FakeMessage) -> str:
    (custom_id,) = [c for c in message.custom_ids() if c.startswith("rm:")]
    return custom_id


async def finished_game(world: World, bot: Any) -> tuple[FakeMessage, FakeMessage, int]:
    """alice and bob against Easy bot 1 at Pig to 20, won by alice on her first turn: the table message, the end
    message and the game's id."""
    board = (await world.slash(world.alice, "pig", "new", target=20)).expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    menu = next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":addbot"))
    assert (await (await world.fake.select(world.alice, board, menu, ["addbot:easy"])).response()).type == 7
    assert (await world.click(world.alice, board, "start")).type == 7
    table = bot.tables.table(world.channel.id)
    for _ in range(4):
        await world.click(world.alice, board, "roll")
    assert table.status == "finished"
    final = await world.fake.wait_for_message(
        world.channel, lambda m: any(c.startswith("rm:") for c in m.custom_ids()), after=board.id
    )
    return board, final, table.id


async def click_rematch(world: World, user: Any, final: FakeMessage) -> Any:
    return await (await world.fake.click(user, final, rematch_id(final))).response()


async def refused_quietly(world: World, user: Any, final: FakeMessage) -> str:
    """``user``'s click on 🔁, refused: privately, and the answer is the only call the bot made to Discord."""
    fake = world.fake
    await fake.settle()
    mark, messages = fake.mark(), len(fake.channel_messages(world.channel))
    reply = await click_rematch(world, user, final)
    await fake.settle()
    assert reply.type == 4 and reply.ephemeral and reply.text.startswith("⚠️")
    assert [c.kind for c in fake.calls(since=mark)] == ["callback"]
    assert len(fake.channel_messages(world.channel)) == messages
    return reply.text


async def test_rematch_opens_a_lobby_below_with_the_computer_and_an_invitation_and_the_game_starts(world: World):
    label, line, stranger, open_table, _ = texts(world)
    async with world.bot(ScriptedDice(DICE)) as bot:
        board, final, old = await finished_game(world, bot)
        assert final.buttons()[0]["label"] == label and rematch_id(final) == f"rm:{old}"

        # a stranger is refused, and nothing opens
        assert stranger.format(id=old) in await refused_quietly(world, world.carol, final)
        assert world.channel.id not in bot.tables.by_channel

        # bob's click: the new lobby is the click's answer, a public message below the end message, and the only
        # call to Discord (no REST post, no edit after it)
        await world.fake.settle()
        mark = world.fake.mark()
        reply = await click_rematch(world, world.bob, final)
        assert reply.type == 4 and not reply.ephemeral
        lobby = reply.expect_message()
        assert lobby.id > final.id and world.fake.channel_messages(world.channel)[-1] is lobby
        table = bot.tables.table(world.channel.id)
        assert table.id != old and table.host_id == world.bob.id
        # (the bot makes it the table message once it has read Discord's answer to its response)
        await world.fake.wait_for(lambda: table.message_id == lobby.id, what="the lobby as the table message")
        assert table.options["target"] == 20 and table.locale == normalise(world.guild.locale)
        assert [(s.id, s.level) for s in table.seats] == [(world.bob.id, None), (-1, "easy")]
        assert line.format(id=old) in lobby.text and f"<@{world.alice.id}>" in lobby.text and "🤖" in lobby.text
        # it pings alice, once, and nobody else (bob hosts; carol did not play)
        assert lobby.allowed_mentions == {"users": [world.alice.id], "parse": []}
        await world.fake.settle()
        assert [c.kind for c in world.fake.calls(since=mark)] == ["callback"]
        assert lobby.edits == 0  # the answer showed the lobby: no REST edit follows it
        assert rematch_id(final) == f"rm:{old}"  # the end message keeps its button

        # a second click while the lobby is open: table_exists, privately, nothing else sent
        assert open_table in await refused_quietly(world, world.alice, final)
        assert bot.tables.table(world.channel.id) is table

        # alice joins with one click, bob starts: the rematch plays
        assert (await world.click(world.alice, lobby, "join")).type == 7
        assert (await world.click(world.bob, lobby, "start")).type == 7
        assert table.running and [s.id for s in table.seats] == [world.bob.id, -1, world.alice.id]
        assert (await world.click(world.bob, lobby, "roll")).type == 7
    world.fake.assert_no_problems()


async def test_after_a_restart_the_old_end_message_still_opens_a_rematch(world: World):
    label, line, _, _, _ = texts(world)
    async with world.bot(ScriptedDice(DICE)) as bot:
        _, final, old = await finished_game(world, bot)
    async with world.bot(ScriptedDice(DICE)) as bot:  # a new process on the same database
        reply = await click_rematch(world, world.bob, final)
        assert reply.type == 4 and not reply.ephemeral
        lobby = reply.expect_message()
        table = bot.tables.table(world.channel.id)
        assert line.format(id=old) in lobby.text
        await world.fake.wait_for(lambda: table.message_id == lobby.id, what="the lobby as the table message")
        assert lobby.allowed_mentions == {"users": [world.alice.id], "parse": []}
        assert (await world.click(world.alice, lobby, "join")).type == 7
        assert [s.id for s in table.seats] == [world.bob.id, -1, world.alice.id]
    world.fake.assert_no_problems()


async def test_a_game_finished_too_long_ago_is_refused(world: World):
    _, _, _, _, too_old = texts(world)
    async with world.bot(ScriptedDice(DICE)) as bot:
        _, final, old = await finished_game(world, bot)
        earlier = REMATCH_HOURS * 3600 + 60  # the game's stored end moved back past the window: no sleeping
        await bot.store.write(
            [
                ("UPDATE results SET finished_at = finished_at - ? WHERE game_id = ?", (earlier, old)),
                ("UPDATE games SET updated_at = updated_at - ? WHERE id = ?", (earlier, old)),
            ]
        )
        text = await refused_quietly(world, world.alice, final)
        assert too_old.format(hours=REMATCH_HOURS) in text and f"#{old}" in text
        locale = normalise(world.guild.locale)
        game = t("game.pig", locale)
        assert text == "⚠️ " + t("error.rematch_too_old", locale, id=old, count=REMATCH_HOURS, game_name=game)
        assert world.channel.id not in bot.tables.by_channel
    world.fake.assert_no_problems()


async def test_the_lobby_posted_anew_below_pings_nobody_again(world: World):
    async with world.bot(ScriptedDice(DICE)) as bot:
        _, final, _ = await finished_game(world, bot)
        lobby = (await click_rematch(world, world.bob, final)).expect_message()
        table = bot.tables.table(world.channel.id)
        await world.fake.wait_for(lambda: table.message_id == lobby.id, what="the lobby as the table message")
        await world.fake.post_message(world.carol, world.channel, "gg")
        assert (await world.slash(world.bob, "pig", "table")).ephemeral  # /pig table: the lobby posted anew below
        moved = await world.fake.wait_for(
            lambda: table.message_id != lobby.id and world.fake.message(table.message_id), what="the lobby anew"
        )
        assert f"<@{world.alice.id}>" in moved.text  # its log still invites alice, but only the first message pinged
        assert moved.allowed_mentions == {"parse": []}
