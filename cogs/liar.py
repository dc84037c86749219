"""Liar's Dice on Discord: /liar new|join|leave|start|bid|challenge|status|rules.

Hands are dealt by DM each round (the engine's private ``dice`` events; 🎲 My dice for closed DMs).
The table message offers the smallest legal raise, Liar!, and menus of legal raises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.games.liars_dice import ENGINE as LIARS_DICE
from bot.i18n import t
from bot.languages import discord_choices
from bot.render import Control, Menu
from bot.render.liar import controls
from bot.tables import Table
from cogs.utils.gamecog import GameCog

FACES = [app_commands.Choice(name=t(f"liar.face_choice.{f}"), value=f) for f in range(1, 7)]
MAX_DICE = 36  # 6 players x 6 dice: the most a bid can ever claim (the table's cap is checked by the engine)


class Liar(GameCog, group_name="liar", group_description=t("liar.cmd.group")):
    game = "liar"

    @app_commands.command(name="new", description=t("cmd.new"))
    @app_commands.describe(
        dice_per_player=t("liar.cmd.opt_dice_per_player"),
        raise_rule=t("liar.cmd.opt_raise_rule"),
        wild_ones=t("liar.cmd.opt_wild_ones"),
        mode=t("liar.cmd.opt_mode"),
        starter=t("liar.cmd.opt_starter"),
        max_rounds=t("liar.cmd.opt_max_rounds"),
        language=t("cmd.new_language"),
    )
    @app_commands.choices(language=discord_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        dice_per_player: app_commands.Range[int, 1, 6] | None = None,
        raise_rule: Literal["poker", "simple", "sum", "pirates", "lefthand"] | None = None,
        wild_ones: bool | None = None,
        mode: Literal["single", "loot", "lose_die"] | None = None,
        starter: Literal["loser", "winner"] | None = None,
        max_rounds: app_commands.Range[int, 0, 10_000] | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_table(
            interaction,
            dict(
                dice_per_player=dice_per_player,
                raise_rule=raise_rule,
                wild_ones=wild_ones,
                mode=mode,
                starter=starter,
                max_rounds=max_rounds,
            ),
            language,
        )

    @app_commands.command(name="bid", description=t("liar.cmd.bid"))
    @app_commands.describe(quantity=t("liar.cmd.bid_quantity"), face=t("liar.cmd.bid_face"))
    @app_commands.choices(face=FACES)
    async def bid(
        self, interaction: discord.Interaction, quantity: app_commands.Range[int, 1, MAX_DICE], face: int
    ) -> None:
        await self.play(interaction, f"bid:{quantity}:{face}")

    @app_commands.command(name="challenge", description=t("liar.cmd.challenge"))
    async def challenge(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "challenge")

    def private_controls(self, table: Table, seat: int, locale: str) -> Sequence[Control | Menu]:
        """On your turn, 🎲 My dice also carries the raise controls, so you can bid while looking at your hand."""
        if table.state is None or table.engine.to_act(table.state) != (seat,):
            return ()
        return controls(LIARS_DICE.view(table.state, None))


async def setup(bot) -> None:  # noqa: ANN001
    await bot.add_cog(Liar(bot))
