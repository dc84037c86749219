"""Threads in the fake Discord, driven by the REAL discord.py client: a public thread started without a message and
one from a message (the thread channel object, THREAD_CREATE into discord.py's cache), messages and interactions in
a thread (guild_id and parent_id set), archiving, Missing Permissions (403/50013) without CREATE_PUBLIC_THREADS, and
a restarted client that finds the active threads in GUILD_CREATE."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import DEFAULT_MEMBER_PERMISSIONS, FakeDiscord, FakeGuild, run_bot

NO_THREADS = DEFAULT_MEMBER_PERMISSIONS & ~discord.Permissions(create_public_threads=True).value


class Ping(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"th:ping"):
    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Ping", custom_id="th:ping"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: Any) -> Ping:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        channel = interaction.channel
        kind = type(channel).__name__
        parent = getattr(channel, "parent_id", None)
        await interaction.response.send_message(f"pong from {kind} parent={parent}", ephemeral=True)


def make_bot(guild: FakeGuild, seen: list[str]) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)

    @app_commands.command(name="thread", description="Start a thread and post in it")
    async def thread(interaction: discord.Interaction[Any], name: str, from_message: bool = False) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await interaction.response.send_message("starting", ephemeral=True)
        try:
            if from_message:
                anchor = await channel.send(f"anchor {name}")
                made = await anchor.create_thread(name=name, auto_archive_duration=60)
            else:
                made = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        except discord.Forbidden as error:
            seen.append(f"forbidden {error.status}/{error.code}")
            return
        seen.append(f"made {type(made).__name__} {made.type} parent={made.parent_id}")
        view = discord.ui.View(timeout=None)
        view.add_item(Ping())
        await made.send(f"welcome to {name}", view=view)

    @app_commands.command(name="where", description="Where am I")
    async def where(interaction: discord.Interaction[Any]) -> None:
        channel = interaction.channel
        await interaction.response.send_message(f"{type(channel).__name__} {getattr(channel, 'parent_id', None)}")

    @app_commands.command(name="archive", description="Archive this thread")
    async def archive(interaction: discord.Interaction[Any]) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.Thread)
        await interaction.response.send_message("archiving", ephemeral=True)
        await channel.edit(archived=True)
        seen.append("archived")

    async def setup_hook() -> None:
        for command in (thread, where, archive):
            bot.tree.add_command(command)
        target = discord.Object(id=guild.id)
        bot.tree.copy_global_to(guild=target)
        await bot.tree.sync(guild=target)
        bot.add_dynamic_items(Ping)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_threads_are_channels_the_bot_starts_posts_in_and_is_clicked_from() -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern", channels=["general"])
        general = guild.channel("general")
        alice = fake.add_user("alice", guild=guild)
        seen: list[str] = []
        bot = make_bot(guild, seen)
        async with run_bot(fake, bot):
            await (await fake.slash(alice, general, "thread", options={"name": "Round 1 · Table 1"})).response()
            made = await fake.wait_for(lambda: fake.threads(general))
            thread = made[0]
            assert thread.type == 11 and thread.parent_id == general.id and thread.guild_id == guild.id
            assert guild.thread("Round 1 · Table 1") is thread
            call = fake.calls(method="POST", route="/channels/{channel_id}/threads")[-1]
            assert call.status == 200 and call.body["type"] == 11
            welcome = await fake.wait_for_message(thread)
            assert welcome.text == "welcome to Round 1 · Table 1"
            assert seen == [f"made Thread {discord.ChannelType.public_thread} parent={general.id}"]
            # THREAD_CREATE reached discord.py's cache
            await fake.wait_for(lambda: bot.get_channel(thread.id) is not None)
            cached = bot.get_channel(thread.id)
            assert isinstance(cached, discord.Thread) and cached.parent_id == general.id

            # a click and a command from inside the thread
            click = await (await fake.click(alice, welcome, "th:ping")).response()
            assert click.text == f"pong from Thread parent={general.id}"
            here = await (await fake.slash(alice, thread, "where")).response()
            assert here.text == f"Thread {general.id}"

            # a thread from a message takes the message's id
            await (await fake.slash(alice, general, "thread", options={"name": "t2", "from_message": True})).response()
            second = await fake.wait_for(lambda: next((c for c in fake.threads(general) if c.name == "t2"), None))
            anchor = fake.last_message(general)
            assert anchor.text == "anchor t2" and second.id == anchor.id and second.auto_archive_duration == 60

            # archiving (the bot started it); a message into it reopens it
            await (await fake.slash(alice, thread, "archive")).response()
            await fake.wait_for(lambda: "archived" in seen)
            assert thread.archived
            assert fake.calls(method="PATCH", route="/channels/{channel_id}")[-1].body == {"archived": True}
            await bot.get_partial_messageable(thread.id).send("back")
            assert not thread.archived
        fake.assert_no_problems()

        # a restarted client learns the active threads from GUILD_CREATE
        seen2: list[str] = []
        again = make_bot(guild, seen2)
        async with run_bot(fake, again):
            found = again.get_channel(thread.id)
            assert isinstance(found, discord.Thread) and found.name == "Round 1 · Table 1"


async def test_without_create_public_threads_the_bot_gets_missing_permissions() -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern", channels=["general"], everyone_permissions=NO_THREADS)
        general = guild.channel("general")
        alice = fake.add_user("alice", guild=guild)
        seen: list[str] = []
        bot = make_bot(guild, seen)
        bot_perms = discord.Permissions(guild.bot_permissions & ~discord.Permissions(create_public_threads=True).value)
        guild.bot_permissions = bot_perms.value
        async with run_bot(fake, bot):
            me = bot.get_guild(guild.id).me  # type: ignore[union-attr]
            channel = bot.get_channel(general.id)
            assert isinstance(channel, discord.TextChannel)
            assert not channel.permissions_for(me).create_public_threads  # the bot can tell before it asks
            await (await fake.slash(alice, general, "thread", options={"name": "nope"})).response()
            await fake.wait_for(lambda: seen)
            assert seen == ["forbidden 403/50013"]
            assert fake.threads(general) == []
            refused = fake.calls(method="POST", route="/channels/{channel_id}/threads")
            assert [(c.status, c.error_code) for c in refused] == [(403, 50013)]
