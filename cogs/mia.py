"""Mia on Discord: /mia new|join|leave|start|status|rules|claim|roll|liar|peek|concede|look|blind.

Secret dice arrive by DM (or privately through 🎲 My dice when DMs are closed); announcements are made with the
claim menu on the table message, the player's own menu in 🎲 My dice, or ``/mia claim`` whose autocomplete offers
only the legal values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.games.mia import ENGINE as MIA_ENGINE
from bot.games.mia import MIA
from bot.i18n import t
from bot.languages import discord_choices
from bot.render import Control, Menu
from bot.render.mia import player_controls, value_label
from bot.tables import Table
from cogs.utils.components import MAX_CHOICES
from cogs.utils.gamecog import GameCog
from cogs.utils.replies import channel_of, locale_of


class Mia(GameCog, group_name="mia", group_description=t("mia.cmd.group")):
    game = "mia"

    @app_commands.command(name="new", description=t("mia.cmd.new"))
    @app_commands.describe(
        doubles_order=t("mia.cmd.opt_doubles_order"),
        lives=t("mia.cmd.opt_lives"),
        mia_check_penalty=t("mia.cmd.opt_mia_check_penalty"),
        mia_mode=t("mia.cmd.opt_mia_mode"),
        blind_pass=t("mia.cmd.opt_blind_pass"),
        next_round_starter=t("mia.cmd.opt_next_round_starter"),
        stop_at_first_elimination=t("mia.cmd.opt_stop_at_first_elimination"),
        language=t("cmd.new_language"),
    )
    @app_commands.choices(language=discord_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        doubles_order: Literal["ones_high", "sixes_high"] | None = None,
        lives: app_commands.Range[int, 1, 10] | None = None,
        mia_check_penalty: app_commands.Range[int, 1, 3] | None = None,
        mia_mode: Literal["challengeable", "auto_reveal"] | None = None,
        blind_pass: Literal["off", "first_receiver", "any"] | None = None,
        next_round_starter: Literal["left_of_loser", "loser", "challenger"] | None = None,
        stop_at_first_elimination: bool | None = None,
        language: str | None = None,
    ) -> None:
        await self.open_table(
            interaction,
            dict(
                doubles_order=doubles_order,
                lives=lives,
                mia_check_penalty=mia_check_penalty,
                mia_mode=mia_mode,
                blind_pass=blind_pass,
                next_round_starter=next_round_starter,
                stop_at_first_elimination=stop_at_first_elimination,
            ),
            language,
        )

    # -- moves ------------------------------------------------------------------------------------

    @app_commands.command(name="claim", description=t("mia.cmd.claim"))
    @app_commands.describe(value=t("mia.cmd.claim_value"))
    async def claim(self, interaction: discord.Interaction, value: app_commands.Range[int, 11, 66]) -> None:
        await self.play(interaction, f"claim:{value}")

    @app_commands.command(name="roll", description=t("mia.cmd.roll"))
    async def roll(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "roll")

    @app_commands.command(name="liar", description=t("mia.cmd.liar"))
    async def liar(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "challenge")

    @app_commands.command(name="peek", description=t("mia.cmd.peek"))
    async def peek(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "peek")

    @app_commands.command(name="concede", description=t("mia.cmd.concede"))
    async def concede(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "give_up")

    @app_commands.command(name="look", description=t("mia.cmd.look"))
    async def look(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "challenge_mia")

    @app_commands.command(name="blind", description=t("mia.cmd.blind"))
    @app_commands.describe(value=t("mia.cmd.blind_value"))
    async def blind(self, interaction: discord.Interaction, value: app_commands.Range[int, 11, 66]) -> None:
        await self.play(interaction, f"blind_pass:{value}")

    @claim.autocomplete("value")
    async def claim_values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return self.legal_values(interaction, "claim", current)

    @blind.autocomplete("value")
    async def blind_values(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return self.legal_values(interaction, "blind_pass", current)

    def legal_values(
        self, interaction: discord.Interaction, move: str, current: object
    ) -> list[app_commands.Choice[int]]:
        """The values ``move`` may announce now for this user (none when it is not their move), lowest first."""
        table = self.tables.by_channel.get(channel_of(interaction))
        if table is None or table.game != self.game or table.state is None:
            return []
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            return []
        values = [int(a.args[0]) for a in table.engine.legal_actions(table.state, seat) if a.name == move]
        locale = locale_of(interaction)
        typed = str(current or "").strip().lower()  # Discord sends what has been typed so far, as text
        if typed:
            mia = value_label(MIA, locale).lower()
            values = [v for v in values if str(v).startswith(typed) or (v == MIA and typed in mia)]
        return [app_commands.Choice(name=value_label(v, locale), value=v) for v in values[:MAX_CHOICES]]

    # -- the 🎲 My dice reply -----------------------------------------------------------------------

    def private_controls(self, table: Table, seat: int, locale: str) -> Sequence[Control | Menu]:
        """The viewer's own legal moves: Peek, Believe & roll / Liar!, Concede / Look, and their claim menu."""
        if table.state is None or not table.running:
            return ()
        return player_controls(MIA_ENGINE.view(table.state, seat), locale)


async def setup(bot) -> None:  # noqa: ANN001
    await bot.add_cog(Mia(bot))
