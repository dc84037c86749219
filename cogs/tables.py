"""The table surface every game shares: its buttons, ``/game cancel``, and showing tables after a restart."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.render import event_text, seat_names, table_text
from bot.tables import Table, TableError
from cogs.utils.components import TableButton, TableSelect, on_message, parse_table_control, table_view
from cogs.utils.gamecog import seat_for
from cogs.utils.presenter import DiscordPresenter, table_embed
from cogs.utils.replies import REFUSALS, locale_of, refuse, send_ephemeral, within_deadline

if TYPE_CHECKING:
    from bot.client import DiceTavern

log = logging.getLogger(__name__)


@app_commands.guild_only()
class Tables(commands.GroupCog, group_name="game", group_description=t("cmd.game")):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        if self.bot.commands_only:
            return  # `dicetavern sync`: only the command tree; no store, table service or presenter
        presenter = DiscordPresenter(self.bot)
        await presenter.load()
        self.bot.presenter = presenter
        self.bot.tables.presenter = presenter
        self.bot.add_dynamic_items(TableButton, TableSelect)
        self.bot.loop.create_task(self._reshow_tables())

    async def _reshow_tables(self) -> None:
        """After a restart every open table message is re-rendered (its buttons keep working)."""
        await self.bot.wait_until_ready()
        for table in list(self.bot.tables.by_id.values()):
            self.bot.presenter.refresh(table)

    @app_commands.command(name="cancel", description=t("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        is_admin = bool(getattr(interaction.permissions, "manage_guild", False))
        try:
            await self.bot.tables.cancel(interaction.channel_id, interaction.user.id, is_admin=is_admin)
        except REFUSALS as error:
            await refuse(interaction, error)
            return
        await send_ephemeral(interaction, t("ui.cancelled", locale_of(interaction)))

    # -- buttons and selects on the table message --------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click that raced an edit names a control the message no longer has; discord.py drops those
        silently ("interaction failed"), so handle it here with its own, older version."""
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        parsed = parse_table_control(custom_id, interaction.data.get("values"))  # type: ignore[arg-type]
        if parsed is None or on_message(interaction.message, custom_id):
            return  # not ours, or still on the message: the DynamicItem handles it
        table_id, version, action = parsed
        await self.on_table_button(interaction, table_id, action, version)

    async def on_table_button(
        self, interaction: discord.Interaction, table_id: int, action: str, version: int | None = None
    ) -> None:
        table = self.bot.tables.by_id.get(table_id)
        if table is None or table.channel_id != interaction.channel_id:
            await refuse(interaction, TableError("stale_button"))
            return
        try:
            if action in ("join", "leave", "start") or action.startswith(("addbot:", "kick:", "host:")):
                await self.lobby_action(interaction, table.channel_id, action, edit=True)
            elif action == "me":
                await self.show_private_view(interaction, table)
            else:
                await self.game_action(interaction, table, action, version)
        except Exception:  # a failure must not leave the player with "This interaction failed"
            log.exception("table %s: %s failed", table_id, action)
            try:
                await send_ephemeral(interaction, "⚠️ " + t("error.internal", locale_of(interaction)))
            except discord.HTTPException:
                pass

    async def lobby_action(self, interaction: discord.Interaction, channel_id: int, verb: str, edit: bool = False):
        service, presenter = self.bot.tables, self.bot.presenter
        table = service.table(channel_id)
        if edit:
            presenter.hold(table.id)
        shown = reply = None
        try:
            if verb == "join":
                await service.join(channel_id, seat_for(interaction.user))
            elif verb.startswith(("kick:", "host:")):
                reply = await self._host_tool(interaction, channel_id, verb)
            elif verb == "leave":
                await service.leave(channel_id, interaction.user.id)
            elif verb.startswith("addbot:"):
                level = verb.split(":", 1)[1]
                if level not in ("easy", "normal", "hard"):
                    raise TableError("illegal_action")
                name = t(
                    "ui.bot_name",
                    table.locale,
                    level=t(f"ui.add_bot_{level}", table.locale),
                    n=sum(s.is_bot for s in table.seats) + 1,
                )
                await service.add_computer(channel_id, interaction.user.id, level, name)
            else:
                await service.start_game(channel_id, interaction.user.id)
            if edit:
                shown = await self._edit_table_message(interaction, table)
            else:
                done = {"join": "ui.joined", "leave": "ui.left", "start": "ui.started"}
                await send_ephemeral(interaction, reply or t(done[verb], locale_of(interaction)))
        except REFUSALS as error:
            await refuse(interaction, error, table.game)
        finally:
            if edit:
                presenter.release(table, shown)

    async def _host_tool(self, interaction: discord.Interaction, channel_id: int, verb: str) -> str:
        """``kick:<seat id>`` / ``host:<seat id>`` from the host's select or slash command; returns the reply."""
        tool, _, target = verb.partition(":")
        try:
            target_id = int(target)
        except ValueError:
            raise TableError("illegal_action") from None
        is_admin = bool(getattr(interaction.permissions, "manage_guild", False))  # as for /game cancel
        locale = locale_of(interaction)
        if tool == "kick":
            seat = await self.bot.tables.remove_player(channel_id, interaction.user.id, target_id, is_admin)
            return t("ui.removed", locale, name=seat.name)
        seat = await self.bot.tables.transfer_host(channel_id, interaction.user.id, target_id, is_admin)
        return t("ui.host_given", locale, name=seat.name)

    async def game_action(
        self, interaction: discord.Interaction, table: Table, action: str, version: int | None = None
    ) -> None:
        presenter = self.bot.presenter
        presenter.hold(table.id)
        shown = None
        try:
            _, events = await within_deadline(
                interaction,
                self.bot.tables.act(table.channel_id, interaction.user.id, action, str(interaction.id), version),
            )
            on_table_message = interaction.message is not None and interaction.message.id == table.message_id
            if on_table_message:
                shown = await self._edit_table_message(interaction, table)
        except REFUSALS as error:
            await refuse(interaction, error, table.game)
            return
        finally:
            presenter.release(table, shown)
        locale = locale_of(interaction)
        if not on_table_message:
            # A control on the player's private reply: redraw that reply in place with what happened and
            # fresh controls, so the next move from it is not mistaken for a double click.
            names = seat_names(table)
            lines = [x for e in events if e.public and (x := event_text(table.game, e.kind, e.data, names, locale))]
            await self.show_private_view(interaction, table, lines, edit=True)
            return
        secrets = await presenter.undelivered(table.id, interaction.user.id)
        if secrets:
            await send_ephemeral(interaction, "\n".join([t("ui.dm_closed", locale), *secrets])[:2000])

    async def _edit_table_message(self, interaction: discord.Interaction, table: Table) -> tuple[object, ...]:
        look = self.bot.presenter.look(table)
        embed, view = table_embed(table, table.locale), table_view(table, table.locale)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)
        return look

    async def show_private_view(
        self, interaction: discord.Interaction, table: Table, news: list[str] | None = None, edit: bool = False
    ) -> None:
        """The 🎲 My dice reply: the player's own view and controls, always ephemeral, plus undelivered secrets."""
        locale = locale_of(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            await send_ephemeral(interaction, t("ui.spectator", locale))
            return
        lines = [
            *(news or []),
            *([""] if news else []),
            t("ui.your_view", locale),
            *table_text(table, locale, seat).body,
        ]
        secrets = await self.bot.presenter.undelivered(table.id, interaction.user.id)
        if secrets:  # what a closed DM could not carry, as it was sent (the view above may have moved on)
            lines += ["", t("ui.dm_closed", locale), *secrets]
        content = "\n".join(lines)[:2000]
        view = None
        cog = self.game_cog(table.game)
        if cog is not None and table.running:
            view = cog.private_view(table, seat, locale)
        if edit:
            kwargs = {"content": content, "view": view or discord.ui.View(), "embed": None}
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
        else:
            await send_ephemeral(interaction, content, **({"view": view} if view else {}))

    def game_cog(self, game: str):  # noqa: ANN201 - GameCog, imported lazily to keep cogs independent
        for cog in self.bot.cogs.values():
            if getattr(cog, "game", None) == game:
                return cog
        return None


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Tables(bot))
