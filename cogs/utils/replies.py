"""Answering interactions: errors, ephemeral notes, the 3 s deadline."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.games import IllegalMove
from bot.i18n import normalise
from bot.render import error_text, seat_names
from bot.tables import TableError

T = TypeVar("T")
DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3


def locale_of(interaction: discord.Interaction) -> str:
    return normalise(interaction.locale or interaction.guild_locale)


async def send_ephemeral(interaction: discord.Interaction, content: str | None = None, **kwargs: Any) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


async def refuse(interaction: discord.Interaction, error: Exception, game: str | None = None) -> None:
    table = interaction.client.tables.by_channel.get(interaction.channel_id)  # type: ignore[attr-defined]
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


REFUSALS = (TableError, IllegalMove)
