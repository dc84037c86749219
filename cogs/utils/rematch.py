"""The 🔁 Rematch button of a game's end message (filled in by issue 25's rematch work)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.tables import Table


def rematch_view(table: Table, locale: str) -> discord.ui.View | None:
    """The end message's controls: none yet."""
    return None
