"""🔁 Rematch: registers the end message's button (``cogs/utils/rematch.py``), so a click on it is answered after a
restart too (discord.py builds the item from its custom id; no view is kept in memory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from cogs.utils.rematch import RematchButton

if TYPE_CHECKING:
    from bot.client import DiceTavern


class Rematch(commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if not self.bot.commands_only:  # `dicetavern sync`: no table service to answer a click
            self.bot.add_dynamic_items(RematchButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RematchButton)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Rematch(bot))
