"""Mex on Discord: /mex new|join|leave|start|status|rules|throw|stand|end_round|hold|choose."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.i18n import t
from bot.languages import discord_choices
from cogs.utils.gamecog import GameCog


class Mex(GameCog, group_name="mex", group_description=t("mex.cmd.mex")):
    game = "mex"

    @app_commands.command(name="new", description=t("mex.cmd.new"))
    @app_commands.describe(
        starting_lives=t("mex.cmd.opt_starting_lives"),
        max_throws=t("mex.cmd.opt_max_throws"),
        mex_penalty=t("mex.cmd.opt_mex_penalty"),
        allow_end_round_early=t("mex.cmd.opt_allow_end_round_early"),
        tiebreak_mode_choice=t("mex.cmd.opt_tiebreak_mode_choice"),
        first_starter=t("mex.cmd.opt_first_starter"),
        mex_ends_turn=t("mex.cmd.opt_mex_ends_turn"),
        points_enabled=t("mex.cmd.opt_points_enabled"),
        mex_passes_lead=t("mex.cmd.opt_mex_passes_lead"),
        hold_one_or_two=t("mex.cmd.opt_hold_one_or_two"),
        language=t("cmd.new_language"),
    )
    @app_commands.choices(language=discord_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        starting_lives: app_commands.Range[int, 1, 99] | None = None,
        max_throws: app_commands.Range[int, 1, 3] | None = None,
        mex_penalty: Literal["seed", "additive", "double_once", "doubling"] | None = None,
        allow_end_round_early: bool | None = None,
        tiebreak_mode_choice: Literal["chooser", "always_mex", "always_pips"] | None = None,
        first_starter: Literal["random", "host", "seat1"] | None = None,
        mex_ends_turn: bool | None = None,
        points_enabled: bool | None = None,
        mex_passes_lead: bool | None = None,
        hold_one_or_two: bool | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_table(
            interaction,
            dict(
                starting_lives=starting_lives,
                max_throws=max_throws,
                mex_penalty=mex_penalty,
                allow_end_round_early=allow_end_round_early,
                tiebreak_mode_choice=tiebreak_mode_choice,
                first_starter=first_starter,
                mex_ends_turn=mex_ends_turn,
                points_enabled=points_enabled,
                mex_passes_lead=mex_passes_lead,
                hold_one_or_two=hold_one_or_two,
            ),
            language,
        )

    @app_commands.command(name="throw", description=t("mex.cmd.throw"))
    async def throw(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "throw")

    @app_commands.command(name="stand", description=t("mex.cmd.stand"))
    async def stand(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "stand")

    @app_commands.command(name="end_round", description=t("mex.cmd.end_round"))
    async def end_round(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "end_round")

    @app_commands.command(name="hold", description=t("mex.cmd.hold"))
    @app_commands.describe(face=t("mex.cmd.opt_face"))
    async def hold(self, interaction: discord.Interaction, face: Literal[1, 2]) -> None:
        await self.play(interaction, f"hold:{face}")

    @app_commands.command(name="choose", description=t("mex.cmd.choose"))
    @app_commands.describe(mode=t("mex.cmd.opt_mode"))
    async def choose(self, interaction: discord.Interaction, mode: Literal["pips", "mex"]) -> None:
        await self.play(interaction, f"choose:{mode}")


async def setup(bot) -> None:  # noqa: ANN001
    await bot.add_cog(Mex(bot))
