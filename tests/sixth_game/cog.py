"""High Roll on Discord: /highroll new|join|leave|start|roll|status|rules."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.i18n import t
from bot.languages import discord_choices
from cogs.utils.gamecog import GameCog


class HighRollCog(GameCog, group_name="highroll", group_description=t("highroll.cmd.group")):
    game = "highroll"

    @app_commands.command(name="new", description=t("cmd.new"))
    @app_commands.describe(ties=t("highroll.cmd.opt_ties"), language=t("cmd.new_language"))
    @app_commands.choices(language=discord_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        ties: Literal["reroll", "share"] | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_table(interaction, dict(ties=ties), language)

    @app_commands.command(name="roll", description=t("highroll.cmd.roll"))
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "roll")


async def setup(bot) -> None:  # noqa: ANN001
    await bot.add_cog(HighRollCog(bot))
