"""Smoke tests: the fake Discord (tests/fakediscord) works with the REAL discord.py client.

A tiny ``commands.Bot`` (default intents, no privileged ones) with a ``/smoke`` command group: it replies
ephemerally, DMs, posts a channel message with a non-persistent view button and a DynamicItem button, defers,
autocompletes and has a Manage-Server-only subcommand. Everything waits on events, nothing sleeps.
"""

from __future__ import annotations

import contextlib
import io
import logging
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    DEFAULT_MEMBER_PERMISSIONS,
    IS_COMPONENTS_V2,
    BotStartError,
    CommandUnavailable,
    ComponentUnavailable,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    leftover_tasks,
    run_bot,
    start_bot,
    stop_bot,
)

GAMES = ["pig", "mia", "mex", "liar's dice", "mythical dice"]


class RollButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"smoke:roll:(?P<game>[0-9]+)"):
    """A stateless button that survives bot restarts (state is in the custom_id)."""

    def __init__(self, game: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Roll", style=discord.ButtonStyle.primary, custom_id=f"smoke:roll:{game}"
        )
        super().__init__(button)
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> RollButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content=f"game {self.game}: rolled by {interaction.user.name}")


class ConfirmView(discord.ui.View):
    """A non-persistent view (keyed by message id in discord.py's view store)."""

    def __init__(self, game: int) -> None:
        super().__init__(timeout=None)
        self.add_item(RollButton(game))

    @discord.ui.button(label="Confirm", custom_id="smoke:confirm")
    async def confirm(self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]) -> None:
        button.disabled = True
        await interaction.response.edit_message(content="confirmed", view=self)


@dataclass
class BotLog:
    """What the bot observed (for assertions about discord.py's side)."""

    dm_errors: list[tuple[int, int]] = field(default_factory=list)
    callback_errors: list[tuple[int, int]] = field(default_factory=list)
    locales: list[str] = field(default_factory=list)


def make_bot(guild: FakeGuild, log: BotLog) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
    group = app_commands.Group(name="smoke", description="Smoke-test commands")
    games = {"n": 0}

    @group.command(name="hello", description="Say hello, DM and post a game")
    async def hello(interaction: discord.Interaction[Any], times: int = 1, loud: bool = False) -> None:
        log.locales.append(str(interaction.locale))
        await interaction.response.send_message(
            f"hello {interaction.user.name} x{times} loud={loud} locale={interaction.locale}", ephemeral=True
        )
        try:
            await interaction.user.send(f"psst {interaction.user.name}")
        except discord.Forbidden as exc:
            log.dm_errors.append((exc.status, exc.code))
            await interaction.followup.send(f"could not DM you ({exc.code})", ephemeral=True)
        games["n"] += 1
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(f"Game {games['n']}", view=ConfirmView(games["n"]))

    @group.command(name="poke", description="DM someone (deferred)")
    async def poke(interaction: discord.Interaction[Any], target: discord.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await target.send(f"{interaction.user.name} pokes you")
            text = f"poked {target.name}"
        except discord.Forbidden as exc:
            log.dm_errors.append((exc.status, exc.code))
            text = f"could not DM {target.name} ({exc.code})"
        await interaction.followup.send(text)

    @group.command(name="pick", description="Pick a game")
    async def pick(interaction: discord.Interaction[Any], game: str) -> None:
        await interaction.response.send_message(f"picked {game}")

    @pick.autocomplete("game")
    async def pick_autocomplete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g, value=g) for g in GAMES if g.startswith(current)]

    # default_permissions only works on top-level commands (discord.py ignores it on subcommands).
    @app_commands.command(name="smoke-settings", description="Server settings")
    @app_commands.default_permissions(manage_guild=True)
    async def settings(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"manage_guild={interaction.permissions.manage_guild}", ephemeral=True)

    @group.command(name="late", description="Answers; the fake may call it late")
    async def late(interaction: discord.Interaction[Any]) -> None:
        try:
            await interaction.response.send_message("late?")
        except discord.HTTPException as exc:
            log.callback_errors.append((exc.status, exc.code))
            assert isinstance(interaction.channel, discord.TextChannel)
            await interaction.channel.send("callback failed")

    @group.command(name="spam", description="Post several channel messages")
    async def spam(interaction: discord.Interaction[Any], count: int) -> None:
        await interaction.response.send_message("spamming", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        for i in range(count):
            await interaction.channel.send(f"spam {i}")

    async def setup_hook() -> None:
        bot.tree.add_command(group)
        bot.tree.add_command(settings)
        target = discord.Object(id=guild.id)
        bot.tree.copy_global_to(guild=target)
        await bot.tree.sync(guild=target)
        bot.add_dynamic_items(RollButton)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    alice: FakeUser
    bob: FakeUser
    admin: FakeUser

    @property
    def general(self) -> Any:
        return self.guild.channel("general")


def build_world(fake: FakeDiscord) -> World:
    guild = fake.add_guild("Tavern", channels=["general", "dice"], locale="en-US")
    alice = fake.add_user("alice", guild=guild, locale="de")
    bob = fake.add_user("bob", guild=guild, dms_open=False)
    admin = fake.add_user(
        "admin", guild=guild, permissions=DEFAULT_MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value
    )
    return World(fake, guild, alice, bob, admin)


async def test_real_client_end_to_end(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with FakeDiscord() as fake, contextlib.AsyncExitStack() as cleanup:
        assert fake.base_url == discord.http.Route.BASE
        world = build_world(fake)
        general, alice, bob, admin = world.general, world.alice, world.bob, world.admin
        log = BotLog()
        bot = make_bot(world.guild, log)
        cleanup.push_async_callback(bot.close)  # if an assertion fails mid-way
        task = await start_bot(fake, bot)
        assert bot.is_ready() and bot.user is not None and bot.user.id == fake.bot_user.id
        assert [g.id for g in bot.guilds] == [world.guild.id]

        # -- the command tree the bot synced
        smoke, smoke_settings = fake.registered_commands(world.guild)
        assert smoke["name"] == "smoke" and smoke["default_member_permissions"] is None
        assert smoke_settings["name"] == "smoke-settings"
        assert smoke_settings["default_member_permissions"] == str(discord.Permissions(manage_guild=True).value)
        subcommands = {o["name"]: o for o in smoke["options"]}
        assert set(subcommands) == {"hello", "poke", "pick", "late", "spam"}
        assert {o["name"]: o["type"] for o in subcommands["hello"]["options"]} == {"times": 4, "loud": 5}
        assert fake.registered_commands(None) == []

        # -- slash command: ephemeral reply, DM, channel message with buttons
        mark = fake.mark()
        rec = await fake.slash(alice, general, "smoke", "hello", options={"times": 2, "loud": True})
        sent = rec.payload["data"]["options"][0]
        assert sent["type"] == 1 and sent["name"] == "hello"
        assert [(o["name"], o["type"], o["value"]) for o in sent["options"]] == [("times", 4, 2), ("loud", 5, True)]
        reply = await rec.response()
        assert reply.type == 4 and reply.ephemeral
        assert reply.content == "hello alice x2 loud=True locale=de"
        assert rec.ack_latency is not None and rec.ack_latency < fake.interaction_deadline
        dm = await fake.wait_for_dm(alice)
        assert dm.content == "psst alice" and not dm.ephemeral
        game = await fake.wait_for_message(general, lambda m: m.content == "Game 1")
        assert game.custom_ids() == ["smoke:confirm", "smoke:roll:1"]
        assert not reply.message or reply.message not in fake.channel_messages(general)  # ephemeral: not public
        calls = fake.calls(since=mark)
        assert [c.kind for c in calls].count("callback") == 1
        assert [(c.method, c.route) for c in calls if c.kind == "bot"] == [
            ("POST", "/users/@me/channels"),
            ("POST", "/channels/{channel_id}/messages"),
            ("POST", "/channels/{channel_id}/messages"),
        ]

        # -- closed DMs: 403/50007 surfaces as discord.Forbidden in the bot
        rec_bob = await fake.slash(bob, general, "smoke", "hello")
        assert (await rec_bob.response()).content.startswith("hello bob x1")
        (followup,) = await rec_bob.wait_followups(1)
        assert followup.content == "could not DM you (50007)" and followup.ephemeral
        assert log.dm_errors == [(403, 50007)]
        assert fake.dms(bob) == [] and fake.dm_attempts_blocked(bob) == 1
        await fake.wait_for_message(general, lambda m: m.content == "Game 2")

        # -- deferred reply: the first follow-up replaces the "thinking" message, user option resolved
        rec_poke = await fake.slash(alice, general, "smoke", "poke", options={"target": bob})
        assert rec_poke.payload["data"]["resolved"]["users"][str(bob.id)]["username"] == "bob"
        poke = await rec_poke.response()
        assert poke.type == 5 and poke.ephemeral and poke.deferred
        assert poke.content == "could not DM bob (50007)" and poke.followups == []
        assert log.dm_errors[-1] == (403, 50007)

        # -- non-persistent view button: edit_message (type 7) updates the message in place
        mark = fake.mark()
        click = await fake.click(alice, game, "smoke:confirm")
        clicked = await click.response()
        assert clicked.type == 7 and clicked.message is game
        assert game.content == "confirmed" and game.edits == 1
        assert game.find_component("smoke:confirm") == {
            **game.history[0].components[0]["components"][0],
            "disabled": True,
        }
        assert click.payload["message"]["id"] == str(game.id)
        assert [c.kind for c in fake.calls(since=mark)] == ["callback"]  # one REST call, no bot-REST
        with pytest.raises(ComponentUnavailable):
            await fake.click(alice, game, "smoke:confirm")  # disabled now

        # -- DynamicItem button
        roll = await fake.click(bob, game, "smoke:roll:1")
        assert (await roll.response()).content == "game 1: rolled by bob"
        assert [v.content for v in game.history] == ["Game 1", "confirmed", "game 1: rolled by bob"]

        # -- autocomplete and default_member_permissions
        choices = await fake.autocomplete(alice, general, "smoke", "pick", options={"game": "m"})
        assert choices == [
            {"name": "mia", "value": "mia"},
            {"name": "mex", "value": "mex"},
            {"name": "mythical dice", "value": "mythical dice"},
        ]
        assert fake.interactions[-1].reply.type == 8
        with pytest.raises(CommandUnavailable, match="manage_guild"):
            await fake.slash(alice, general, "smoke-settings")
        with pytest.raises(CommandUnavailable, match="missing required option"):
            await fake.slash(alice, general, "smoke", "poke")
        settings = await (await fake.slash(admin, general, "smoke-settings")).response()
        assert settings.content == "manage_guild=True" and settings.ephemeral

        # -- stop the bot cleanly
        await stop_bot(bot, task)
        await fake.wait_for(lambda: not fake.connected)
        assert leftover_tasks() == set(), leftover_tasks()

        # -- a second bot instance: the old message's DynamicItem button still works
        log2 = BotLog()
        async with run_bot(fake, make_bot(world.guild, log2)) as bot2:
            assert bot2.is_ready() and len(fake.connections) == 2
            again = await fake.click(alice, game, "smoke:roll:1")
            assert (await again.response()).content == "game 1: rolled by alice"
            assert game.edits == 3
        assert leftover_tasks() == set(), leftover_tasks()
        assert len(fake.command_syncs) == 2

        fake.assert_no_problems()
        assert fake.unknown_routes == []
    assert discord.http.Route.BASE == "https://discord.com/api/v10"  # restored
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or "destroyed" in r.getMessage()]
    assert bad == [], [r.getMessage() for r in bad]


async def test_deadline_double_ack_unknown_routes_rate_limit_resume() -> None:
    async with FakeDiscord(rate_limit="record") as fake:
        world = build_world(fake)
        log = BotLog()
        async with run_bot(fake, make_bot(world.guild, log)):
            # A second callback on an answered interaction: 400/40060
            rec = await fake.slash(world.alice, world.general, "smoke", "pick", options={"game": "pig"})
            assert (await rec.response()).content == "picked pig"
            async with aiohttp.ClientSession() as session:
                url = f"{fake.base_url}/interactions/{rec.id}/{rec.token}/callback?with_response=1"
                async with session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp:
                    assert resp.status == 400
                    assert resp.headers["Content-Type"] == "application/json"
                    assert (await resp.json())["code"] == 40060
                async with session.get(f"{fake.base_url}/no/such/route") as resp:
                    assert resp.status == 404 and resp.headers["Content-Type"] == "application/json"
            assert len(rec.double_acks) == 1
            assert [c.path for c in fake.unknown_routes] == ["/no/such/route"]

            # Discord's 3 s deadline (made negative so that any answer is late, deterministically): 404/10062
            deadline, fake.interaction_deadline = fake.interaction_deadline, -1.0
            late = await fake.slash(world.alice, world.general, "smoke", "late")
            await fake.wait_for_message(world.general, lambda m: m.content == "callback failed")
            assert late.late and not late.acknowledged and log.callback_errors == [(404, 10062)]
            fake.interaction_deadline = deadline

            # Rate limit bookkeeping: 6 channel messages at once violate 5 per 5 s
            spam = await fake.slash(world.alice, world.general, "smoke", "spam", options={"count": 6})
            await spam.response()
            await fake.wait_for_message(world.general, lambda m: m.content == "spam 5")
            assert fake.max_messages_in_window(world.general) == 7  # includes "callback failed"
            assert len(fake.rate_limit_violations) == 2

            # RECONNECT → discord.py resumes the session on a new connection and keeps working
            first = fake.connections[-1]
            await fake.reconnect_gateway()
            await fake.wait_for(lambda: len(fake.connections) == 2 and fake.connections[-1].ready)
            assert fake.connections[-1].session is first.session
            assert first.session is not None and first.session.events[-1][1] == "RESUMED"
            seqs = [s for s, _ in first.session.events]
            assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
            after = await fake.slash(world.alice, world.general, "smoke", "pick", options={"game": "mia"})
            assert (await after.response()).content == "picked mia"

        problems = fake.problems()
        assert any("40060" in p for p in problems) and any("10062" in p for p in problems)
        assert any("unknown route" in p for p in problems) and any("rate limit" in p for p in problems)


async def test_privileged_intents_are_refused() -> None:
    async with FakeDiscord() as fake:
        fake.add_guild()
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.all(), guild_ready_timeout=0.1)
        with pytest.raises(Exception) as info:
            async with run_bot(fake, bot):
                pass
        assert isinstance(info.value.__cause__ or info.value, discord.PrivilegedIntentsRequired)
        await bot.close()


class NameModal(discord.ui.Modal, title="Name your tavern"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="smoke:modal:name")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"named {self.name.value}", ephemeral=True)


class MenuView(discord.ui.View):
    @discord.ui.select(
        custom_id="smoke:menu:game", options=[discord.SelectOption(label=g, value=g) for g in ("pig", "mia")]
    )
    async def game(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        if select.values == ["mia"]:
            await interaction.response.send_modal(NameModal())
        else:
            await interaction.response.defer()  # type 6: deferred update

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="smoke:menu:user")
    async def who(self, interaction: discord.Interaction[Any], select: discord.ui.UserSelect[Any]) -> None:
        await interaction.response.send_message(f"chose {select.values[0].name}")


def make_menu_bot(*, sharded: bool = False) -> commands.Bot | commands.AutoShardedBot:
    cls = commands.AutoShardedBot if sharded else commands.Bot
    bot = cls(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)

    async def no_identify_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py sleeps 5 s before every non-initial IDENTIFY (2nd shard, re-identify)

    bot.before_identify_hook = no_identify_wait  # type: ignore[method-assign]

    @bot.tree.command(name="menu", description="A menu")
    async def menu(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("menu", view=MenuView(timeout=None))

    @bot.tree.command(name="work", description="Defer, edit, follow up, upload, edit/delete a channel message")
    async def work(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        report = discord.File(io.BytesIO(b"3 dice"), "report.txt")
        await interaction.edit_original_response(content="working", attachments=[report])
        step = await interaction.followup.send("step", wait=True)
        await step.edit(content="step done")
        channel = interaction.channel
        assert isinstance(channel, discord.abc.Messageable)
        temp = await channel.send("temp")
        await temp.edit(content="temp 2", embed=discord.Embed(title="Score", description="alice 12"))
        await temp.delete()

    @bot.tree.command(name="v2", description="Components v2")
    async def v2(interaction: discord.Interaction[Any]) -> None:
        # timeout=None: a view with a timeout keeps a timeout task alive after bot.close() (see leftover_tasks)
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(discord.ui.Container(discord.ui.TextDisplay("hello v2")))
        await interaction.response.send_message(view=view)

    async def setup_hook() -> None:
        await bot.tree.sync()  # global commands

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_selects_modals_dm_context_edits_files_v2_and_shards() -> None:
    async with FakeDiscord(recommended_shards=2) as fake, contextlib.AsyncExitStack() as cleanup:
        guilds = [fake.add_guild("Shard0", shard=(0, 2)), fake.add_guild("Shard1", shard=(1, 2))]
        alice = fake.add_user("alice", guild=guilds)
        bob = fake.add_user("bob", guild=guilds[1])
        bot = make_menu_bot(sharded=True)
        cleanup.push_async_callback(bot.close)
        async with run_bot(fake, bot):
            assert sorted((c.session.shard_id, c.session.shard_count) for c in fake.connections if c.session) == [
                (0, 2),
                (1, 2),
            ]
            assert [c.route for c in fake.calls(kind="bot") if "gateway" in c.path] == ["/gateway/bot"]
            assert {c["name"] for c in fake.registered_commands()} == {"menu", "work", "v2"}
            general = guilds[1].channel("general")  # served by shard 1

            # string select → deferred update (6); "mia" → modal (9) → submit (5) → ephemeral reply
            menu = (await (await fake.slash(alice, general, "menu")).response()).expect_message()
            pig = await fake.select(alice, menu, "smoke:menu:game", ["pig"])
            assert (await pig.response()).type == 6 and menu.edits == 0
            with pytest.raises(ComponentUnavailable):
                await fake.select(alice, menu, "smoke:menu:game", ["yahtzee"])
            mia = await fake.select(alice, menu, "smoke:menu:game", ["mia"])
            modal = (await mia.response()).modal
            assert modal is not None and modal["title"] == "Name your tavern"
            submitted = await fake.submit_modal(alice, mia, {"smoke:modal:name": "The Rolling Die"})
            named = await submitted.response()
            assert named.content == "named The Rolling Die" and named.ephemeral
            # user select resolves the chosen member
            chose = await fake.select(alice, menu, "smoke:menu:user", [bob])
            assert (await chose.response()).content == "chose bob"

            # deferred → edit @original with a file, follow-up edited, channel message edited then deleted
            work = await fake.slash(alice, general, "work")
            worked = await work.response()
            assert worked.type == 5 and worked.content == "working" and not worked.ephemeral
            assert [a["filename"] for a in worked.expect_message().attachments] == ["report.txt"]
            temp = await fake.wait_for(
                lambda: next((m for m in fake.channel_messages(general, include_deleted=True) if m.deleted), None)
            )
            assert [v.content for v in temp.history] == ["temp", "temp 2"] and temp.embeds[0]["title"] == "Score"
            assert [v.content for v in work.followups[0].history] == ["step", "step done"]
            assert temp not in fake.channel_messages(general)

            # the same command in the user's DMs (channel=None): context 1, `user` instead of `member`
            dm_work = await fake.slash(alice, None, "work")
            assert dm_work.payload["context"] == 1 and "member" not in dm_work.payload
            assert (await dm_work.response()).content == "working"
            await fake.wait_for(lambda: any(m.deleted for m in fake.dms(alice, include_deleted=True)))

            # components v2
            v2 = await (await fake.slash(alice, guilds[0].channel("general"), "v2")).response()
            assert v2.message is not None and v2.message.flags & IS_COMPONENTS_V2 and v2.text == "hello v2"
        assert leftover_tasks() == set()
        fake.assert_no_problems()


def make_shard_bot(shard_ids: list[int], shard_count: int) -> commands.AutoShardedBot:
    """An AutoShardedBot whose ``/where`` answers with the shard the interaction reached."""
    bot = commands.AutoShardedBot(
        command_prefix="!",
        intents=discord.Intents.default(),
        guild_ready_timeout=0.1,
        shard_ids=shard_ids,
        shard_count=shard_count,
    )

    async def no_identify_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = no_identify_wait  # type: ignore[method-assign]

    @bot.tree.command(name="where", description="Which shard am I on?")
    async def where(interaction: discord.Interaction[Any]) -> None:
        shard = interaction.guild.shard_id if interaction.guild is not None else "dm"
        await interaction.response.send_message(f"shard {shard} of {sorted(bot.shards)}")

    return bot


async def test_two_sharded_clients_split_the_guilds_and_interactions_follow_the_guilds_shard() -> None:
    async with FakeDiscord(recommended_shards=2) as fake, contextlib.AsyncExitStack() as cleanup:
        guilds = [fake.add_guild(f"G{i}", shard=(i % 2, 2)) for i in range(4)]
        assert [fake.shard_of(g) for g in guilds] == [0, 1, 0, 1] and fake.shard_of(None) == 0
        alice = fake.add_user("alice", guild=guilds)
        bots = [make_shard_bot([0], 2), make_shard_bot([1], 2)]
        for bot in bots:
            cleanup.push_async_callback(bot.close)
            await cleanup.enter_async_context(run_bot(fake, bot))
        await bots[0].tree.sync()
        first = fake.shard_connection(0)
        assert first is not None and first is not fake.shard_connection(1)
        # each process got READY with its shard and GUILD_CREATE for its own guilds only
        assert sorted(g.id for g in bots[0].guilds) == [guilds[0].id, guilds[2].id]
        assert sorted(g.id for g in bots[1].guilds) == [guilds[1].id, guilds[3].id]
        assert [c.session.shard_id for c in fake.connections if c.session] == [0, 1]

        for guild in guilds:
            reply = await (await fake.slash(alice, guild.channel("general"), "where")).response()
            own = fake.shard_of(guild)
            assert reply.content == f"shard {own} of [{own}]"
        dm = await (await fake.slash(alice, None, "where")).response()
        assert dm.content == "shard dm of [0]"  # DMs reach shard 0

        # shard 1's process goes away: shard 0 keeps serving; a new process on shard 1 takes the interactions
        await bots[1].close()
        await fake.wait_for(lambda: fake.shard_connection(1) is None, what="shard 1 to disconnect")
        again = make_shard_bot([1], 2)
        cleanup.push_async_callback(again.close)
        await cleanup.enter_async_context(run_bot(fake, again))
        await fake.wait_for_shard(1)
        reply = await (await fake.slash(alice, guilds[3].channel("general"), "where")).response()
        assert reply.content == "shard 1 of [1]" and reply.record.payload["guild_id"] == str(guilds[3].id)
        assert fake.shard_connection(0) is first
    fake.assert_no_problems()


@pytest.mark.parametrize(
    ("shard_ids", "shard_count", "code"),
    [([2], 2, 4010), ([0], 1, 4011), ([0], 3, 4010)],
    ids=["id-not-below-count", "too-few-shards", "other-count"],
)
async def test_a_bad_shard_in_identify_is_refused_with_discords_close_code(
    shard_ids: list[int], shard_count: int, code: int
) -> None:
    async with FakeDiscord(recommended_shards=2) as fake:
        fake.add_guild("G", shard=(0, 2))
        bot = make_shard_bot(shard_ids, shard_count)
        try:
            with pytest.raises(BotStartError) as raised:
                await start_bot(fake, bot)
        finally:
            await bot.close()
        closed = raised.value.__cause__
        assert isinstance(closed, discord.ConnectionClosed) and closed.code == code
        assert not any(c.ready for c in fake.connections)


async def test_an_unsharded_client_still_gets_every_guild_from_a_sharded_fake() -> None:
    async with FakeDiscord(recommended_shards=2) as fake:
        guilds = [fake.add_guild("G0", shard=(0, 2)), fake.add_guild("G1", shard=(1, 2))]
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
        async with run_bot(fake, bot):
            assert sorted(g.id for g in bot.guilds) == sorted(g.id for g in guilds)
            assert fake.connections[-1].session is not None and fake.connections[-1].session.shard_count == 1
