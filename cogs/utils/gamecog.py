"""What every game's command group shares: join, leave, start, status, rules, and playing a move.

A game's cog subclasses ``GameCog``: its own ``new`` command (the options differ per game) and its
action commands; discord.py's CogMeta collects the shared commands below from the base class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import normalise, t
from bot.render import event_text, rules_text, seat_names
from bot.tables import Seat, Table, TableError
from cogs.utils.components import table_view
from cogs.utils.presenter import table_embed
from cogs.utils.replies import REFUSALS, locale_of, refuse, send_ephemeral, within_deadline

if TYPE_CHECKING:
    from bot.client import DiceTavern


def seat_for(user: discord.abc.User) -> Seat:
    return Seat(user.id, getattr(user, "display_name", None) or user.name)


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    game: ClassVar[str] = ""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    @property
    def tables(self) -> Any:
        return self.bot.tables

    def _table_here(self, interaction: discord.Interaction) -> Table:
        table = self.tables.table(interaction.channel_id)
        if table.game != self.game:
            raise TableError("wrong_game", game=table.game)
        return table

    # -- shared commands ----------------------------------------------------------------------

    async def open_table(self, interaction: discord.Interaction, options: dict[str, Any]) -> None:
        options = {k: v for k, v in options.items() if v is not None}
        assert interaction.guild_id is not None and interaction.channel_id is not None
        try:
            table = await self.tables.create(
                interaction.guild_id,
                interaction.channel_id,
                seat_for(interaction.user),
                self.game,
                options,
                locale=normalise(interaction.guild_locale),
            )
        except REFUSALS as error:
            await refuse(interaction, error, self.game)
            return
        presenter = self.bot.presenter
        presenter.hold(table.id)  # this response becomes the table message
        shown = presenter.look(table)
        try:
            response = await interaction.response.send_message(
                embed=table_embed(table, table.locale), view=table_view(table, table.locale)
            )
            if response.message_id:
                await presenter.set_message(table, response.message_id)
        finally:
            presenter.release(table, shown)

    @app_commands.command(name="join", description=t("cmd.join"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, "join")

    @app_commands.command(name="leave", description=t("cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, "leave")

    @app_commands.command(name="start", description=t("cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, "start")

    @app_commands.command(name="status", description=t("cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        try:
            table = self._table_here(interaction)
        except REFUSALS as error:
            await refuse(interaction, error, self.game)
            return
        self.bot.presenter.refresh(table)  # re-shows it if someone deleted the message
        await send_ephemeral(interaction, embed=table_embed(table, locale_of(interaction)))

    @app_commands.command(name="rules", description=t("cmd.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        table = self.tables.by_channel.get(interaction.channel_id)
        options = {}
        if table is not None and table.game == self.game:
            options = table.engine.options(table.options).changed()
        await send_ephemeral(interaction, rules_text(self.game, options, locale)[:2000])

    async def lobby(self, interaction: discord.Interaction, verb: str) -> None:
        try:
            self._table_here(interaction)
            await self.bot.get_cog("Tables").lobby_action(interaction, interaction.channel_id, verb)
        except REFUSALS as error:
            await refuse(interaction, error, self.game)

    # -- playing ------------------------------------------------------------------------------

    def private_view(self, table: Table, seat: int, locale: str) -> discord.ui.View | None:
        """Controls for the 🎲 My dice reply (e.g. a select of your own hand); none by default."""
        return None

    async def play(self, interaction: discord.Interaction, action: str) -> None:
        """A move by slash command: apply it, answer with what happened, let the table message update."""
        locale = locale_of(interaction)
        try:
            table = self._table_here(interaction)
            table, events = await within_deadline(
                interaction, self.tables.act(interaction.channel_id, interaction.user.id, action, str(interaction.id))
            )
        except REFUSALS as error:
            await refuse(interaction, error, self.game)
            return
        names = seat_names(table)
        lines = [line for e in events if e.public and (line := event_text(table.game, e.kind, e.data, names, locale))]
        secrets = await self.bot.presenter.undelivered(table.id, interaction.user.id)
        if secrets:
            lines += ["", t("ui.dm_closed", locale), *secrets]
        await send_ephemeral(interaction, "\n".join(lines)[:2000] or t("ui.done", locale))
