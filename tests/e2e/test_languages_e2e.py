"""Which language each message is in, end to end: a whole game in Russian (Discord locale) and in Welsh (the
server's setting), with no English catalog text in the channel, any DM or any ephemeral; /settings language,
/me language, a host's language: choice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.i18n
from bot.games.dice import ScriptedDice
from bot.i18n import t
from bot.languages import display
from bot.render import rules_pages
from tests.e2e.conftest import World, new_world
from tests.e2e.drawn import drawn, shows
from tests.e2e.english import assert_no_english, english_in
from tests.fakediscord import CommandUnavailable, FakeDiscord, FakeMessage


@pytest.fixture
async def ru_world(tmp_path) -> AsyncIterator[World]:
    """A Russian server (its preferred locale) whose members all run Discord in Russian."""
    async with FakeDiscord() as fake:
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"), guild_locale="ru", user_locale="ru")


def table_message(world: World, channel: Any = None) -> FakeMessage:
    messages = [
        m
        for m in world.fake.channel_messages(channel or world.channel)
        if any(c.startswith("dt:") for c in m.custom_ids())
    ]
    assert messages, "no table message in the channel"
    return messages[-1]


def custom_id(message: FakeMessage, name: str) -> str:
    return next(c for c in message.custom_ids() if c.endswith(f":{name}"))


def everything(world: World) -> list[FakeMessage]:
    """What the bot showed anyone: the channel (ephemerals included), every DM."""
    messages = world.fake.channel_messages(world.channel, include_ephemeral=True, include_deleted=True)
    for user in (world.alice, world.bob, world.carol, world.admin):
        messages += world.fake.dms(user, include_deleted=True)
    return messages


async def shown(world: World, table: Any, board: FakeMessage, locale: str) -> None:
    """Wait until the table message shows the table as it stands, drawn in ``locale``."""
    await world.fake.wait_for(lambda: shows(board, table, locale), what=f"the table message in {locale}")


async def play_mia(world: World, bot: Any, language: str) -> None:
    """Alice and Bob, one life each: Alice holds 5 3 (her DM), claims 53 from the table's menu; Bob looks and
    loses. Along the way: 🎲 My dice, /mia status and rules, a refused move, a turn reminder, the final message."""
    reply = await world.slash(world.alice, "mia", "new", lives=1)
    board = reply.expect_message()
    table = bot.tables.table(world.channel.id)
    assert table.locale == language
    assert (await world.click(world.bob, board, "join")).type == 7
    assert (await world.slash(world.carol, "mia", "rules")).ephemeral
    assert (await world.click(world.alice, board, "start")).type == 7
    await shown(world, table, board, language)
    await world.fake.wait_for_dm(world.alice, lambda m: "⚄5 ⚂3" in m.text)
    refused = await world.click(world.bob, board, "me")  # bob's DMs are closed: his view, privately
    assert refused.ephemeral
    refused = await world.slash(world.carol, "mia", "claim", value=53)  # not a player: refused privately
    assert refused.ephemeral and refused.text.startswith("⚠️")
    assert (await world.slash(world.bob, "mia", "status")).ephemeral
    await bot.tables.run_due(now=table.deadline - 59)  # half of alice's turn: a reminder in the channel
    await world.fake.wait_for(
        lambda: any(m.content.startswith("⏰") for m in world.fake.channel_messages(world.channel)),
        what="the turn reminder",
    )
    menu = custom_id(board, "claim")
    assert (await (await world.fake.select(world.alice, board, menu, ["claim:53"])).response()).type == 7
    reply = await world.slash(world.bob, "mia", "liar")
    assert reply.ephemeral
    await world.fake.wait_for(
        lambda: table.status == "finished" and "🏁" in world.fake.last_message(world.channel).text
    )
    await shown(world, table, board, language)


async def test_a_whole_game_in_russian_by_discord_locale(ru_world: World):
    world = ru_world
    async with world.bot(ScriptedDice([5, 3], samples=[[0]])) as bot:
        await play_mia(world, bot, "ru")
        reply = await world.slash(world.alice, "stats")
        assert reply.ephemeral
    assert_no_english(everything(world), "ru")
    world.fake.assert_no_problems()


async def test_a_whole_game_in_welsh_by_the_server_setting(world: World):
    """English Discord clients (there is no Welsh one) at a server set to Welsh read Welsh everywhere; Bob also
    chose Welsh for himself."""
    async with world.bot(ScriptedDice([5, 3], samples=[[0]])) as bot:
        reply = await world.slash(world.admin, "settings", "language", language="cy")
        assert reply.ephemeral and display("cy", "cy") in reply.text  # the admin's English client: Welsh too
        assert (await world.slash(world.bob, "me", "language", language="cy")).ephemeral
        assert (await world.slash(world.admin, "settings", "show")).ephemeral
        await play_mia(world, bot, "cy")
    assert_no_english(everything(world), "cy")
    world.fake.assert_no_problems()


async def test_only_a_manager_sets_the_server_language(world: World):
    async with world.bot() as bot:
        # Discord hides /settings from non-managers; a server can override that, so the bot checks again.
        record = await world.fake.slash(
            world.carol, world.channel, "settings", "language", options={"language": "de"}, check_permissions=False
        )
        reply = await record.response()
        assert reply.ephemeral and reply.text.startswith("⚠️") and "Manage Server" in reply.text
        assert bot.tables.server_language(world.guild.id) is None
        assert await bot.store.fetch_all("SELECT * FROM guild_settings") == []
        with pytest.raises(CommandUnavailable):  # the client offers the shipped languages only
            await world.slash(world.admin, "settings", "language", language="xx")
        reply = await world.slash(world.admin, "settings", "show")
        assert display("en", "en") in reply.text  # no setting: the server's Discord language, English here
        reply = await world.slash(world.admin, "settings", "language", language="de")
        assert reply.text == t("ui.language_server_set", "en", language=display("de", "en"))  # an English client
        assert bot.tables.server_language(world.guild.id) == "de"
    world.fake.assert_no_problems()


async def test_switching_redraws_open_tables_except_a_hosts_choice_and_new_tables_follow(world: World):
    second = world.fake.add_channel(world.guild, "second")
    third = world.fake.add_channel(world.guild, "third")
    assert table_embed_differs("de")
    async with world.bot(ScriptedDice([3] * 20)) as bot:
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        record = await world.fake.slash(world.bob, second, "pig", "new", options={"language": "it"})
        chosen_board = (await record.response()).expect_message()
        table = bot.tables.table(world.channel.id)
        chosen = bot.tables.table(second.id)
        assert (table.locale, chosen.locale, chosen.locale_chosen) == ("en", "it", True)
        assert (await world.click(world.bob, board, "join")).type == 7
        assert (await world.click(world.alice, board, "start")).type == 7

        await world.slash(world.admin, "settings", "language", language="de")
        assert (table.locale, chosen.locale) == ("de", "it")
        await shown(world, table, board, "de")  # redrawn in German without anyone acting
        await shown(world, chosen, chosen_board, "it")  # the host's choice sticks
        record = await world.fake.slash(world.carol, third, "mia", "new")
        third_board = (await record.response()).expect_message()
        assert bot.tables.table(third.id).locale == "de"  # the next table follows
        assert third_board.text_displays()[0] == drawn(bot.tables.table(third.id), "de")[0]  # its title, in German
    async with world.bot(ScriptedDice([3] * 20)) as bot:  # all of it survives a restart
        assert bot.tables.table(world.channel.id).locale == "de"
        assert (bot.tables.table(second.id).locale, bot.tables.table(second.id).locale_chosen) == ("it", True)
        await world.slash(world.admin, "settings", "language", language="el")
        assert bot.tables.table(world.channel.id).locale == "el"
        assert bot.tables.table(second.id).locale == "it"
    world.fake.assert_no_problems()


def table_embed_differs(locale: str) -> bool:
    """The test needs ``locale``'s table texts translated (else a redraw in it looks like English)."""
    return t("status.lobby", locale) != t("status.lobby", "en") and t("status.running", locale) != t(
        "status.running", "en"
    )


async def test_me_language_is_kept_across_a_restart_and_reaches_dms(world: World):
    async with world.bot(ScriptedDice([5, 3], samples=[[0]])) as bot:
        reply = await world.slash(world.alice, "me", "language", language="de")
        assert reply.text == t("ui.language_me_set", "de", language=display("de", "de"))
        assert bot.presenter.user_language == {world.alice.id: "de"}
    async with world.bot(ScriptedDice([5, 3], samples=[[0]])) as bot:
        assert bot.presenter.user_language == {world.alice.id: "de"}
        reply = await world.slash(world.alice, "pig", "roll")  # no table: refused, in her language
        assert reply.text == "⚠️ " + t("error.no_table", "de")
        board = (await world.slash(world.alice, "mia", "new")).expect_message()
        table = bot.tables.table(world.channel.id)
        assert table.locale == "en"  # a table is in the server's language, not its host's own
        assert (await world.click(world.bob, board, "join")).type == 7
        assert (await world.click(world.alice, board, "start")).type == 7
        dm = await world.fake.wait_for_dm(world.alice, lambda m: "⚄5 ⚂3" in m.text)
        assert not english_in([dm], "de"), dm.text  # her DM follows her own language
        reply = await world.fake.slash(world.alice, None, "me", "language")  # in her DMs, no value: cleared
        assert (await reply.response()).text == t("ui.language_me_cleared", "en", language=display("en", "en"))
    async with world.bot() as bot:
        assert bot.presenter.user_language == {}
        assert bot.presenter.seen_locale[world.alice.id] == "en-US"  # kept for her DMs
    world.fake.assert_no_problems()


async def test_a_dm_follows_the_last_discord_locale_seen(world: World):
    """Without /me language, a DM is in the language of the player's last interaction (the join)."""
    world.alice.locale = "it"
    async with world.bot(ScriptedDice([5, 3], samples=[[0]])) as bot:
        board = (await world.slash(world.alice, "mia", "new")).expect_message()
        assert bot.presenter.seen_locale[world.alice.id] == "it"
        assert (await world.click(world.bob, board, "join")).type == 7
        assert (await world.click(world.alice, board, "start")).type == 7
        dm = await world.fake.wait_for_dm(world.alice, lambda m: "⚄5 ⚂3" in m.text)
        assert not english_in([dm], "it"), dm.text
    world.fake.assert_no_problems()


async def test_rules_longer_than_a_message_come_in_pages(world: World):
    """A translation's rules may run past Discord's 2,000 characters: they are sent whole, in pages."""
    longer = {"pig.rules": "\n".join(f"{n}. " + "Ein langer Absatz über das Würfeln. " * 20 for n in range(1, 6))}
    with bot.i18n.overridden({"de": longer}):
        expected = rules_pages("pig", {}, "de")
        timeout = t("rules.timeout", "de", action=t("pig.timeout_default", "de"))
        assert len(expected) == 3 and expected[-1].endswith(timeout)
        async with world.bot():
            record = await world.fake.slash(world.alice, world.channel, "pig", "rules", locale="de")
            reply = await record.response()
            await record.wait_followups(len(expected) - 1)
            texts = [reply.text, *(m.text for m in reply.followups)]
            assert texts == expected and all(m.ephemeral for m in [reply.expect_message(), *reply.followups])
            assert all(len(text) <= 2000 for text in texts)
    world.fake.assert_no_problems()
