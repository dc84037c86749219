"""User installs in the fake Discord (issue 29), driven by the REAL discord.py client: commands' integration types
and contexts as stored from the sync (Discord's defaults when absent) and enforced when a user types them; a group
DM the bot is not in and a server that never added it (context, ``authorizing_integration_owners``,
``app_permissions``, the channel object, and what discord.py makes of them); the bot token refused there
(403/50001); interaction tokens that expire after 15 minutes on the test clock while a click still brings a fresh
one; the 3 s rule on the same clock; 5 follow-ups per user-install interaction (40094); shared and ephemeral
messages in a group DM."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    DEFAULT_MEMBER_PERMISSIONS,
    CommandUnavailable,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    run_bot,
)
from tests.fakediscord.installs import (
    BOT_DM_APP_PERMISSIONS,
    FOLLOWUP_LIMIT_CODE,
    PRIVATE_CHANNEL_APP_PERMISSIONS,
    TOKEN_LIFETIME,
    USE_EXTERNAL_APPS,
)

MISSING_ACCESS = (403, 50001)
INVALID_TOKEN = (401, 50027)


@dataclass
class Seen:
    """What the bot observed of each interaction, by command or button, and the errors it got."""

    interactions: dict[str, discord.Interaction[Any]] = field(default_factory=dict)
    errors: list[tuple[str, int, int]] = field(default_factory=list)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class Roll(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ui:roll"):
    """A restart-proof button on the table message: a click answers with UPDATE_MESSAGE (type 7)."""

    seen: Seen

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Roll", custom_id="ui:roll"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: Any, match: Any) -> Roll:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        Roll.seen.interactions["roll"] = interaction
        await interaction.response.edit_message(content=f"rolled by {interaction.user.name}")


def table_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Roll())
    return view


def make_bot(seen: Seen) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)
    Roll.seen = seen

    @app_commands.command(name="table", description="A shared table message")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)
    async def table(interaction: discord.Interaction[Any]) -> None:
        seen.interactions["table"] = interaction
        await interaction.response.send_message("the table", view=table_view())

    @app_commands.command(name="peek", description="My secret dice")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)
    async def peek(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"secret for {interaction.user.name}: 6 6 1", ephemeral=True)

    @app_commands.command(name="burst", description="Several follow-ups")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def burst(interaction: discord.Interaction[Any], count: int) -> None:
        seen.interactions["burst"] = interaction
        await interaction.response.send_message("burst")
        for i in range(count):
            try:
                await interaction.followup.send(f"follow-up {i}")
            except discord.HTTPException as error:
                seen.errors.append(("burst", error.status, error.code))

    @app_commands.command(name="wait", description="Answers once the test releases it")
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def wait(interaction: discord.Interaction[Any]) -> None:
        await seen.release.wait()
        try:
            await interaction.response.send_message("answered")
        except discord.HTTPException as error:
            seen.errors.append(("wait", error.status, error.code))

    @app_commands.command(name="admin", description="Server settings")
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.guild_only()
    async def admin(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("settings", ephemeral=True)

    @app_commands.command(name="plain", description="Declares nothing: Discord's defaults")
    async def plain(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("plain")

    async def setup_hook() -> None:
        for command in (table, peek, burst, wait, admin, plain):
            bot.tree.add_command(command)
        bot.add_dynamic_items(Roll)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@dataclass
class World:
    fake: FakeDiscord
    bot: commands.Bot
    seen: Seen
    tavern: FakeGuild  # a server that added the bot
    elsewhere: FakeGuild  # a server that never did
    alice: FakeUser  # installed the app to her account
    bob: FakeUser  # did not
    gdm: Any


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        tavern = fake.add_guild("Tavern", channels=["dice"])
        elsewhere = fake.add_guild("Elsewhere", channels=["chat"], bot_member=False)
        alice = fake.add_user("alice", guild=[tavern, elsewhere], app_installed=True)
        bob = fake.add_user("bob", guild=[tavern, elsewhere])
        gdm = fake.add_group_dm([alice, bob], "friends")
        seen = Seen()
        bot = make_bot(seen)
        async with run_bot(fake, bot):
            await bot.tree.sync()
            yield World(fake, bot, seen, tavern, elsewhere, alice, bob, gdm)


def params(content: str) -> Any:
    return discord.http.handle_message_parameters(content=content)


def forbidden(error: discord.HTTPException) -> tuple[int, int]:
    return error.status, error.code


# --------------------------------------------------------------------------------------------------------------------
# registration: integration types and contexts
# --------------------------------------------------------------------------------------------------------------------


async def test_sync_stores_integration_types_and_contexts_with_discords_defaults(world: World) -> None:
    stored = {c["name"]: (c["integration_types"], c["contexts"]) for c in world.fake.registered_commands()}
    assert stored["table"] == ([0, 1], [0, 2])
    assert stored["burst"] == ([0, 1], [0, 1, 2])
    assert stored["admin"] == ([0], [0])  # allowed_installs(users=False) + guild_only
    assert stored["plain"] == ([0, 1], [0, 1, 2])  # discord.py sends null: the app's install types, every context
    # GET returns them as stored (discord.py 2.7.1's AppCommand reads these arrays as 1-based flags, so the test
    # reads the raw list: fetched AppCommand.allowed_installs/allowed_contexts are not to be trusted)
    raw = {c["name"]: c for c in await world.bot.http.get_global_commands(world.fake.application_id)}
    assert (raw["table"]["integration_types"], raw["table"]["contexts"]) == ([0, 1], [0, 2])


async def test_an_app_installable_to_servers_only_refuses_user_install_commands() -> None:
    async with FakeDiscord(install_types=(0,)) as fake:
        fake.add_guild("Tavern")
        bot = make_bot(Seen())
        async with run_bot(fake, bot):
            with pytest.raises(discord.HTTPException) as refused:
                await bot.tree.sync()
            assert (refused.value.status, refused.value.code) == (400, 50035)
            assert "integration_types" in str(fake.rest_calls[-1].errors["0"])  # type: ignore[index]
            bot.tree.remove_command("table")
            for name in ("peek", "burst", "wait"):
                bot.tree.remove_command(name)
            await bot.tree.sync()
            (plain, admin) = sorted(fake.registered_commands(), key=lambda c: c["name"], reverse=True)
            assert plain["integration_types"] == [0] and admin["integration_types"] == [0]  # the app's default
        assert fake.application_id and fake._application_payload()["integration_types_config"] == {"0": {}}


async def test_the_client_offers_a_command_only_where_it_declares_it(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    with pytest.raises(CommandUnavailable, match="PRIVATE_CHANNEL"):
        await fake.slash(alice, world.gdm, "admin")  # server-only
    with pytest.raises(CommandUnavailable, match="BOT_DM"):
        await fake.slash(alice, None, "table")  # contexts leave out the DM with the bot
    with pytest.raises(CommandUnavailable, match="has not installed the app"):
        await fake.slash(bob, world.gdm, "table")  # bob never installed the app: nothing to offer him
    with pytest.raises(CommandUnavailable, match="never added the bot"):
        await fake.slash(bob, world.elsewhere.channel("chat"), "table")
    with pytest.raises(CommandUnavailable, match="leave out USER_INSTALL"):
        await fake.slash(alice, world.elsewhere.channel("chat"), "admin")
    assert fake.interactions == []  # nothing was delivered
    # where it is declared, it goes through; a server with the bot needs no user install
    record = await fake.slash(bob, world.tavern.channel("dice"), "table")
    assert (await record.response()).content == "the table"
    assert record.owners == {"0": str(world.tavern.id)} and record.context == 0
    both = await fake.slash(alice, world.tavern.channel("dice"), "table")
    await both.response()
    assert both.owners == {"0": str(world.tavern.id), "1": str(alice.id)}
    dm = await fake.slash(alice, None, "burst", options={"count": 0})
    await dm.response()
    assert dm.context == 1 and dm.owners == {"0": "0", "1": str(alice.id)}
    assert dm.payload["app_permissions"] == str(BOT_DM_APP_PERMISSIONS)
    fake.assert_no_problems()


# --------------------------------------------------------------------------------------------------------------------
# a group DM the bot is not in
# --------------------------------------------------------------------------------------------------------------------


async def test_a_group_dm_table_through_interactions_only(world: World) -> None:
    fake, alice, bob, gdm, seen = world.fake, world.alice, world.bob, world.gdm, world.seen
    record = await fake.slash(alice, gdm, "table")
    payload = record.payload
    assert payload["context"] == 2 and "guild_id" not in payload and "member" not in payload
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert payload["channel"]["type"] == 3 and payload["channel"]["name"] == "friends"
    assert [u["id"] for u in payload["channel"]["recipients"]] == [str(alice.id), str(bob.id)]
    assert payload["app_permissions"] == str(PRIVATE_CHANNEL_APP_PERMISSIONS)
    reply = await record.response()
    table = reply.expect_message()
    assert reply.type == 4 and table.channel_id == gdm.id and table.guild_id is None

    # what discord.py makes of it
    seen_table = seen.interactions["table"]
    assert seen_table.context.private_channel and not seen_table.context.guild
    assert seen_table.is_user_integration() and not seen_table.is_guild_integration()
    assert isinstance(seen_table.channel, discord.GroupChannel)
    assert {u.id for u in seen_table.channel.recipients} == {alice.id, bob.id}
    assert seen_table.app_permissions.value == PRIVATE_CHANNEL_APP_PERMISSIONS and seen_table.guild is None

    # bob (no install) clicks alice's table: a fresh token, UPDATE_MESSAGE edits the table; alice still authorizes
    click = await fake.click(bob, table, "ui:roll")
    assert (await click.response()).type == 7 and table.content == "rolled by bob"
    assert click.owners == {"1": str(alice.id)} and click.token != record.token and click.context == 2
    assert not seen.interactions["roll"].is_user_integration()  # the clicker is not the authorizing user

    # the shared message is in the channel's model; an ephemeral only for its user
    peek = await fake.slash(alice, gdm, "peek")
    secret = (await peek.response()).expect_message()
    assert fake.channel_messages(gdm) == [table]
    assert secret in fake.visible_messages(gdm, alice) and secret not in fake.visible_messages(gdm, bob)
    assert "6 6 1" not in "".join(m.all_text for m in fake.visible_messages(gdm, bob))
    # people may chat there too (the bot hears nothing)
    said = await fake.post_message(bob, gdm, "nice")
    assert fake.visible_messages(gdm, alice) == [table, secret, said]
    fake.assert_no_problems()


async def test_the_bot_token_is_refused_in_a_group_dm(world: World) -> None:
    fake, bot, gdm = world.fake, world.bot, world.gdm
    record = await fake.slash(world.alice, gdm, "table")
    table = (await record.response()).expect_message()
    channel = world.seen.interactions["table"].channel
    assert isinstance(channel, discord.GroupChannel)
    mark = fake.mark()
    attempts = [
        channel.send("hello"),
        bot.fetch_channel(gdm.id),
        bot.http.edit_message(gdm.id, table.id, params=params("edited")),
        bot.http.delete_message(gdm.id, table.id),
        bot.http.get_message(gdm.id, table.id),
        bot.http.send_typing(gdm.id),
    ]
    for attempt in attempts:
        with pytest.raises(discord.Forbidden) as refused:
            await attempt
        assert forbidden(refused.value) == MISSING_ACCESS
    assert table.content == "the table" and not table.deleted and fake.channel_messages(gdm) == [table]
    assert all(c.status == 403 and c.error_code == 50001 for c in fake.calls(since=mark))
    assert len(fake.problems()) == len(attempts)  # a bot that tries is told so

    # DMs to a player still follow the DM rules (the bot shares the Tavern with alice)
    user = await bot.fetch_user(world.alice.id)
    await user.send("your dice: 6 6 1")
    assert [m.content for m in fake.dms(world.alice)] == ["your dice: 6 6 1"]


# --------------------------------------------------------------------------------------------------------------------
# a server that never added the bot
# --------------------------------------------------------------------------------------------------------------------


async def test_a_server_without_the_bot(world: World) -> None:
    fake, bot, alice, elsewhere = world.fake, world.bot, world.alice, world.elsewhere
    chat = elsewhere.channel("chat")
    assert [g.id for g in bot.guilds] == [world.tavern.id]  # no GUILD_CREATE for Elsewhere
    record = await fake.slash(alice, chat, "table")
    payload = record.payload
    assert payload["context"] == 0 and payload["guild_id"] == str(elsewhere.id)
    assert payload["authorizing_integration_owners"] == {"1": str(alice.id)}
    assert "permission_overwrites" not in payload["channel"] and payload["member"]["user"]["id"] == str(alice.id)
    table = (await record.response()).expect_message()
    seen = world.seen.interactions["table"]
    assert seen.guild_id == elsewhere.id and seen.context.guild
    assert seen.is_user_integration() and not seen.is_guild_integration()
    assert fake.channel_messages(chat) == [table]

    click = await fake.click(world.bob, table, "ui:roll")
    assert (await click.response()).type == 7 and click.owners == {"1": str(alice.id)}

    mark = fake.mark()
    for attempt in (
        bot.http.send_message(chat.id, params=params("hi")),
        bot.http.edit_message(chat.id, table.id, params=params("edited")),
        bot.fetch_channel(chat.id),
        bot.fetch_guild(elsewhere.id),
    ):
        with pytest.raises(discord.Forbidden) as refused:
            await attempt
        assert forbidden(refused.value) == MISSING_ACCESS
    assert len(fake.calls(since=mark)) == 4 and table.content == "rolled by bob"


# --------------------------------------------------------------------------------------------------------------------
# tokens and the test clock
# --------------------------------------------------------------------------------------------------------------------


async def test_tokens_expire_after_15_minutes_on_the_test_clock(world: World) -> None:
    fake, gdm, seen = world.fake, world.gdm, world.seen
    record = await fake.slash(world.alice, gdm, "table")
    table = (await record.response()).expect_message()
    interaction = seen.interactions["table"]
    assert record.token_valid and record.token_expires_at == pytest.approx(record.issued_at + TOKEN_LIFETIME)
    # snowflakes carry the test clock: discord.py's created_at agrees with it
    assert interaction.created_at.timestamp() == pytest.approx(record.issued_at, abs=1)

    fake.clock.advance(TOKEN_LIFETIME - 60)  # 14 minutes: still valid
    await interaction.edit_original_response(content="the table (14 min)")
    await interaction.followup.send("still here")
    assert table.content == "the table (14 min)" and len(record.followups) == 1

    fake.clock.advance(61)  # past 15 minutes
    assert not record.token_valid
    for attempt in (
        interaction.edit_original_response(content="too late"),
        interaction.followup.send("too late"),
        interaction.original_response(),
        interaction.delete_original_response(),
    ):
        with pytest.raises(discord.HTTPException) as refused:
            await attempt
        assert (refused.value.status, refused.value.code) == INVALID_TOKEN
    assert table.content == "the table (14 min)" and len(record.followups) == 1

    # a click on the bot's message comes with a fresh token: UPDATE_MESSAGE, then its own 15 minutes
    click = await fake.click(world.bob, table, "ui:roll")
    assert (await click.response()).type == 7 and table.content == "rolled by bob"
    fresh = seen.interactions["roll"]
    await fresh.edit_original_response(content="rolled by bob: 5")
    assert table.content == "rolled by bob: 5" and click.token_valid
    assert snowflake_after(fresh.id, record.issued_at + TOKEN_LIFETIME)
    assert len(fake.problems()) == 4  # the four refused calls


def snowflake_after(snowflake: int, when: float) -> bool:
    return discord.utils.snowflake_time(snowflake).timestamp() >= when - 1


async def test_the_3_second_rule_counts_the_test_clock(world: World) -> None:
    fake, seen = world.fake, world.seen
    fake.interaction_deadline = 3.0
    record = await fake.slash(world.alice, world.gdm, "wait")
    fake.clock.advance(4)  # the bot sat on it for 4 s of test time
    seen.release.set()
    await fake.wait_for(lambda: seen.errors, what="the late callback refused")
    assert record.late and seen.errors == [("wait", 404, 10062)]


# --------------------------------------------------------------------------------------------------------------------
# follow-up limit
# --------------------------------------------------------------------------------------------------------------------


async def test_five_follow_ups_per_user_install_interaction(world: World) -> None:
    fake, seen = world.fake, world.seen
    record = await fake.slash(world.alice, world.gdm, "burst", options={"count": 7})
    await fake.wait_for(lambda: len(seen.errors) == 2, what="the 6th and 7th follow-ups refused")
    assert [m.content for m in record.followups] == [f"follow-up {i}" for i in range(5)]
    assert seen.errors == [("burst", 400, FOLLOWUP_LIMIT_CODE)] * 2
    # with the bot in the server (a guild install among the owners) there is no such limit
    seen.errors.clear()
    for user, channel in ((world.bob, world.tavern.channel("dice")), (world.alice, world.tavern.channel("dice"))):
        record = await fake.slash(user, channel, "burst", options={"count": 7})
        await record.wait_followups(7)
    # a server without the bot: the user install alone, the limit again
    record = await fake.slash(world.alice, world.elsewhere.channel("chat"), "burst", options={"count": 6})
    await fake.wait_for(lambda: len(seen.errors) == 1, what="the 6th follow-up refused")
    assert len(record.followups) == 5


async def test_without_use_external_apps_a_user_install_answers_ephemerally(world: World) -> None:
    fake = world.fake
    no_apps = DEFAULT_MEMBER_PERMISSIONS & ~USE_EXTERNAL_APPS
    carol = fake.add_user("carol", app_installed=True)
    for guild in (world.tavern, world.elsewhere):
        fake.add_member(guild, carol, permissions=no_apps)
    chat = world.elsewhere.channel("chat")
    record = await fake.slash(carol, chat, "burst", options={"count": 1})
    reply = await record.response()
    (followup,) = await record.wait_followups(1)
    assert reply.ephemeral and followup.ephemeral and reply.message is not None
    assert reply.message.visible_to == carol.id and fake.channel_messages(chat) == []
    # where the app is also installed to the server, the permission does not apply
    here = await fake.slash(carol, world.tavern.channel("dice"), "table")
    assert not (await here.response()).ephemeral
    # and alice, who has it, answers publicly in the same server
    public = await fake.slash(world.alice, chat, "table")
    assert not (await public.response()).ephemeral
    fake.assert_no_problems()


async def test_dms_need_a_mutual_server_when_the_fake_is_told_so() -> None:
    async with FakeDiscord(dm_needs_mutual_guild=True) as fake:
        tavern = fake.add_guild("Tavern")
        elsewhere = fake.add_guild("Elsewhere", bot_member=False)
        member = fake.add_user("member", guild=tavern)
        stranger = fake.add_user("stranger", guild=elsewhere)  # shares only a server without the bot
        installed = fake.add_user("installed", app_installed=True)
        bot = make_bot(Seen())
        async with run_bot(fake, bot):
            for user in (member, installed):
                await (await bot.fetch_user(user.id)).send("hi")
                assert [m.content for m in fake.dms(user)] == ["hi"]
            with pytest.raises(discord.Forbidden) as refused:
                await (await bot.fetch_user(stranger.id)).send("hi")
            assert forbidden(refused.value) == (403, 50278) and fake.dm_attempts_blocked(stranger) == 1
        fake.assert_no_problems()  # a refused DM is the bot's to handle, not a misuse
