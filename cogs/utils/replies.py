"""Answering interactions: errors, ephemeral notes, the 3 s deadline."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord
from discord import app_commands

from bot.games import IllegalMove
from bot.i18n import normalise, t
from bot.languages import for_person, for_table
from bot.render import error_text, seat_names
from bot.shards import group_dm_scope
from bot.tables import TableError, check_language

if TYPE_CHECKING:
    from bot.client import DiceTavern

log = logging.getLogger(__name__)
T = TypeVar("T")
DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3
F = TypeVar("F")


def anywhere(command: F) -> F:
    """Installable to a server and to a player's account (issue 29), usable in servers and group DMs (a bot DM
    has no table to play at). Where the app is only user-installed the table lives on the interaction's message
    (``cogs.utils.interaction_transport``)."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=False, private_channels=True)(command)


def server_only(command: F) -> F:
    """Installed to servers only and used in servers only: an admin's commands (Manage Server), never offered to a
    user install or in a group DM."""
    command = app_commands.allowed_installs(guilds=True, users=False)(command)
    return app_commands.guild_only()(command)


def locale_of(interaction: discord.Interaction) -> str:
    """A private reply's language: the member's ``/me language``; else, for an English Discord client at a server
    whose language Discord has no locale for (Welsh, Estonian), the server's; else their Discord locale if shipped;
    else the server's language; else English. Read from memory only (a click waits for no query)."""
    bot = interaction.client
    presenter = getattr(bot, "presenter", None)
    own = presenter.user_language.get(interaction.user.id) if presenter is not None else None
    server = _server_language(interaction)
    return normalise(for_person(own, interaction.locale, server, for_table(None, server, interaction.guild_locale)))


def table_locale_of(interaction: discord.Interaction, chosen: str | None = None) -> str:
    """A new table's language: the host's ``language:`` (``chosen``), else the server's ``/settings language``,
    else the server's preferred locale if shipped, else English. An unknown ``chosen`` is refused."""
    if chosen is not None:
        check_language(chosen)
    return for_table(chosen, _server_language(interaction), interaction.guild_locale)


def _server_language(interaction: discord.Interaction) -> str | None:
    tables = getattr(interaction.client, "tables", None)
    return tables.server_language(interaction.guild_id) if tables is not None else None


def note_locale(interaction: discord.Interaction) -> None:
    """Remember the user's Discord locale for the DMs they may get (sent with no interaction to ask)."""
    presenter = getattr(interaction.client, "presenter", None)
    if presenter is not None:
        presenter.note_locale(interaction.user.id, interaction.locale)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel's id; 0 (a channel with no table) if Discord sent none."""
    return interaction.channel_id or 0


def guild_of(interaction: discord.Interaction) -> int:
    """The scope a table, its results and its board belong to: the server's id; in a group DM (no server) its
    channel id, negated (``bot.shards.group_dm_scope``), so a group DM has its own small board and lies on shard 0,
    where Discord sends its interactions."""
    if interaction.guild_id is not None:
        return interaction.guild_id
    assert interaction.channel_id is not None, "a command came with neither a server nor a channel"
    return group_dm_scope(interaction.channel_id)


async def send_ephemeral(interaction: discord.Interaction, content: str | None = None, **kwargs: Any) -> None:
    if content is not None:
        kwargs["content"] = content
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)


async def refuse(interaction: discord.Interaction, error: Exception, game: str | None = None) -> None:
    table = cast("DiceTavern", interaction.client).tables.by_channel.get(channel_of(interaction))
    names = seat_names(table) if table is not None else None  # seats in an error read as names
    await send_ephemeral(interaction, "⚠️ " + error_text(error, locale_of(interaction), game, names))


async def within_deadline(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool = True) -> T:
    """Run ``work``; if it is still busy near the deadline, defer so the interaction stays valid."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


REFUSALS = (TableError, IllegalMove)  # what a player's input can be refused with: answered, never logged
ANSWERED = "error_answered"  # the interaction's extras mark: the bot's tree-wide error handler leaves it be


async def answer_error(
    interaction: discord.Interaction,
    error: BaseException,
    game: str | None = None,
    *,
    applied: bool = False,
    applied_key: str = "error.internal_applied",
) -> None:
    """The one answer to a failed command or click: a refusal in the player's words, privately; anything
    unexpected is logged and answered with the generic error, so nobody is left with "interaction failed". A
    database that is out (``store.unavailable``) logs no traceback: the press is counted for the outage's lines
    (bot.store.outage). ``applied``: the caller read the store back and the action was committed before the
    failure (the answer says it went through, ``applied_key``, not "nothing was changed")."""
    if interaction.extras.get(ANSWERED):
        return  # answered once already
    interaction.extras[ANSWERED] = True
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, REFUSALS):
        await refuse(interaction, error, game)
        return
    if isinstance(error, app_commands.CheckFailure):
        return  # the check already told the user why
    store = getattr(interaction.client, "store", None)
    if not applied and store is not None and store.unavailable(error):
        store.outage.refuse(error)  # counted; the outage's one WARNING stands for every press's traceback
    else:
        data: Mapping[str, object] = interaction.data or {}
        what = getattr(interaction.command, "qualified_name", None) or data.get("custom_id", "?")
        log.error("%s failed", what, exc_info=error)
    try:
        key = applied_key if applied else "error.internal"
        await send_ephemeral(interaction, "⚠️ " + t(key, locale_of(interaction)))
    except discord.HTTPException:
        pass


class AnswersErrors:
    """Mixed into a cog: its commands' errors take the one path above (the game names an engine's refusal)."""

    def error_game(self, interaction: discord.Interaction) -> str | None:
        return None

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_error(interaction, error, self.error_game(interaction))
