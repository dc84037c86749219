"""Pig on Discord: /pig new|join|leave|start|roll|hold|status|rules."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.i18n import t
from bot.languages import discord_choices
from cogs.utils.gamecog import GameCog


class Pig(GameCog, group_name="pig", group_description=t("pig.cmd.group")):
    game = "pig"

    @app_commands.command(name="new", description=t("cmd.new"))
    @app_commands.describe(
        dice=t("pig.cmd.opt_dice"),
        target=t("pig.cmd.opt_target"),
        double_ones=t("pig.cmd.opt_double_ones"),
        doubles_multiplier=t("pig.cmd.opt_doubles_multiplier"),
        must_roll_after_doubles=t("pig.cmd.opt_must_roll_after_doubles"),
        auto_hold_at_target=t("pig.cmd.opt_auto_hold_at_target"),
        equal_turns=t("pig.cmd.opt_equal_turns"),
        language=t("cmd.new_language"),
    )
    @app_commands.choices(language=discord_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        dice: Literal[1, 2] | None = None,
        target: app_commands.Range[int, 20, 500] | None = None,
        double_ones: Literal["plus25", "lose_score", "bust"] | None = None,
        doubles_multiplier: Literal[1, 2] | None = None,
        must_roll_after_doubles: bool | None = None,
        auto_hold_at_target: bool | None = None,
        equal_turns: bool | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_table(
            interaction,
            dict(
                dice=dice,
                target=target,
                double_ones=double_ones,
                doubles_multiplier=doubles_multiplier,
                must_roll_after_doubles=must_roll_after_doubles,
                auto_hold_at_target=auto_hold_at_target,
                equal_turns=equal_turns,
            ),
            language,
        )

    @app_commands.command(name="roll", description=t("pig.cmd.roll"))
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "roll")

    @app_commands.command(name="hold", description=t("pig.cmd.hold"))
    async def hold(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "hold")


async def setup(bot) -> None:  # noqa: ANN001
    await bot.add_cog(Pig(bot))
