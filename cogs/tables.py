"""The table surface every game shares: its buttons, ``/game cancel``, and showing tables after a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import IllegalMove
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.render import event_text, seat_names, table_text
from bot.tables import Table, TableError
from cogs.utils.components import TableButton, TableSelect, button_label, on_control, on_message, table_ui, table_view
from cogs.utils.gamecog import seat_for
from cogs.utils.presenter import DiscordPresenter, Hold, table_embed
from cogs.utils.replies import (
    AnswersErrors,
    answer_error,
    channel_of,
    locale_of,
    note_locale,
    refuse,
    send_ephemeral,
    within_deadline,
)

if TYPE_CHECKING:
    from bot.client import DiceTavern


@app_commands.guild_only()
class Tables(AnswersErrors, commands.GroupCog, group_name="game", group_description=t("cmd.game")):
    """The table surface every game shares; the bot's ``table_ui``. Game cogs reach it through that attribute."""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.table_ui = self
        if self.bot.commands_only:
            return  # `dicetavern sync`: only the command tree; no store, table service or presenter
        presenter = DiscordPresenter(self.bot)
        await presenter.load()
        self.bot.presenter = presenter
        self.bot.tables.presenter = presenter
        self.bot.add_dynamic_items(TableButton, TableSelect, DmRetryButton)
        self.bot.loop.create_task(self._reshow_tables())

    async def _reshow_tables(self) -> None:
        """After a restart every open table message is re-rendered (its buttons keep working)."""
        await self.bot.wait_until_ready()
        for table in list(self.bot.tables.by_id.values()):
            self.bot.presenter.refresh(table)

    @app_commands.command(name="cancel", description=t("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        is_admin = bool(getattr(interaction.permissions, "manage_guild", False))
        await self.bot.tables.cancel(channel_of(interaction), interaction.user.id, is_admin=is_admin)
        await send_ephemeral(interaction, t("ui.cancelled", locale_of(interaction)))

    # -- buttons and selects on the table message --------------------------------------------

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click that raced an edit names a control the message no longer has; discord.py drops those
        silently ("interaction failed"), so handle it here with its own, older version."""
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = str(interaction.data.get("custom_id", ""))
        if on_message(interaction.message, custom_id):
            return  # still on the message: the DynamicItem handles it (and refuses a malformed one)
        if (retry := DmRetryButton.__discord_ui_compiled_template__.fullmatch(custom_id)) is not None:
            await self.retry_dm(interaction, int(retry["table"]))  # the reply was redrawn without it
            return
        values = interaction.data.get("values")  # a select's chosen values (strings); absent for a button
        await on_control(interaction, custom_id, [str(v) for v in values] if isinstance(values, list) else None)

    async def on_table_button(
        self, interaction: discord.Interaction, table_id: int, action: str, version: int | None = None
    ) -> None:
        table = self.bot.tables.by_id.get(table_id)
        if table is None or table.channel_id != interaction.channel_id:
            await refuse(interaction, TableError("stale_button"))
            return
        note_locale(interaction)  # their DMs follow their client's language (a dict lookup unless it changed)
        try:
            if action in ("join", "leave", "start") or action.startswith(("addbot:", "kick:", "host:")):
                await self.lobby_action(interaction, table.channel_id, action, edit=True)
            elif action == "me":
                await self.show_private_view(interaction, table)
            else:
                await self.game_action(interaction, table, action, version)
        except Exception as error:  # refused, or failed: never leave the player with "This interaction failed"
            await answer_error(interaction, error, table.game)

    async def lobby_action(
        self,
        interaction: discord.Interaction,
        channel_id: int,
        verb: str,
        edit: bool = False,
        entropy: str | None = None,
    ) -> None:
        """A lobby verb: by slash command (answered privately) or from the table message (``edit``: the response
        redraws the table message). A refusal propagates to the one error path. ``entropy``: a join's ``seed:``."""
        table = self.bot.tables.table(channel_id)
        note_locale(interaction)  # before a DM to a joining player can be sent
        if not edit:
            reply = await self._lobby_verb(interaction, table, verb, entropy)
            done = {"join": "ui.joined", "leave": "ui.left", "start": "ui.started"}
            await send_ephemeral(interaction, reply or t(done[verb], locale_of(interaction)))
            return
        async with self.bot.presenter.holding(table) as held:
            await self._lobby_verb(interaction, table, verb)
            await self._edit_table_message(interaction, table, held)

    async def _lobby_verb(
        self, interaction: discord.Interaction, table: Table, verb: str, entropy: str | None = None
    ) -> str | None:
        """Apply a lobby verb; the private reply of a host tool (None for the others)."""
        service, channel_id = self.bot.tables, table.channel_id
        if verb == "join":  # the player's entropy for the fair dice: their seed: text, else this interaction's id
            await service.join(channel_id, seat_for(interaction.user, (entropy or "").strip() or str(interaction.id)))
        elif verb.startswith(("kick:", "host:")):
            return await self._host_tool(interaction, channel_id, verb)
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
        return None

    async def _host_tool(self, interaction: discord.Interaction, channel_id: int, verb: str) -> str:
        """``kick:<seat id>`` / ``host:<seat id>`` from the host's select or slash command; returns the reply."""
        tool, _, target = verb.partition(":")
        target_id = parse_int(target, signed=True)  # computer players have negative ids
        if target_id is None:
            raise TableError("illegal_action")
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
        on_table_message = interaction.message is not None and interaction.message.id == table.message_id
        locale = locale_of(interaction)
        async with presenter.holding(table) as held:
            try:
                _, events = await within_deadline(
                    interaction,
                    self.bot.tables.act(table.channel_id, interaction.user.id, action, str(interaction.id), version),
                )
            except IllegalMove as error:
                if not raced_a_redraw(error, table, version):
                    raise  # refused: the one error path answers
                # The player used the controls they were shown, which the table had moved past (its message is
                # redrawn at a paced rate): show them the table as it stands now instead of blaming them.
                news = moved_on_text(table, locale)
                if on_table_message:
                    await self._edit_table_message(interaction, table, held)
                    await send_ephemeral(interaction, news)
                elif interaction.message is not None and interaction.message.flags.ephemeral:
                    await self.show_private_view(interaction, table, [news], edit=True)  # the player's own reply
                else:  # an older public message: the table as it stands, privately
                    await send_ephemeral(interaction, news, embed=table_embed(table, locale))
                return
            if on_table_message:
                await self._edit_table_message(interaction, table, held)
        seat = table.seat_of(interaction.user.id)
        cog = self.bot.game_cogs.get(table.game)
        note = cog.confirmation(table, seat, action, events, locale) if cog is not None and seat is not None else None
        if not on_table_message:
            # A control on the player's private reply: redraw that reply in place with what happened and
            # fresh controls, so the next move from it is not mistaken for a double click.
            names = seat_names(table)
            lines = [x for e in events if e.public and (x := event_text(table.game, e.kind, e.data, names, locale))]
            await self.show_private_view(interaction, table, [*lines, *([note] if note else [])], edit=True)
            return
        secrets = await presenter.undelivered(table.id, interaction.user.id)
        lines = [*([note] if note else []), *([t("ui.dm_closed", locale), *secrets] if secrets else [])]
        if lines:  # the player's own confirmation (a secret bid) and what a closed DM could not carry
            await send_ephemeral(interaction, "\n".join(lines)[:2000])

    async def _edit_table_message(self, interaction: discord.Interaction, table: Table, held: Hold) -> None:
        """Show the table in this response (the message held meanwhile); the hold records what it showed."""
        look = self.bot.presenter.look(table)
        embed, view = table_embed(table, table.locale), table_view(table, table.locale)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=view)
        else:
            await interaction.response.edit_message(embed=embed, view=view)
        held.shown = look

    async def show_private_view(
        self, interaction: discord.Interaction, table: Table, news: list[str] | None = None, edit: bool = False
    ) -> None:
        """The 🎲 My dice reply: the player's own view and controls, always ephemeral, plus undelivered secrets."""
        locale = locale_of(interaction)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.state is None:
            await send_ephemeral(interaction, t("ui.spectator", locale))
            return
        if table.engine.open_information:  # the table message shows it all: say so, plus what is only for them
            public = set(table_text(table, locale).body)
            own = [t("ui.no_secrets", locale), *(x for x in table_text(table, locale, seat).body if x not in public)]
        else:
            own = [t("ui.your_view", locale), *table_text(table, locale, seat).body]
        lines = [*(news or []), *([""] if news else []), *own]
        secrets = await self.bot.presenter.undelivered(table.id, interaction.user.id)
        if secrets:  # what a closed DM could not carry, as it was sent (the view above may have moved on)
            lines += ["", t("ui.dm_closed", locale), *secrets]
        content = "\n".join(lines)[:2000]
        view = None
        cog = self.bot.game_cogs.get(table.game)
        if cog is not None and table.running:
            view = cog.private_view(table, seat, locale)
        if interaction.user.id in self.bot.presenter.dms_closed and not table.engine.open_information:
            view = with_dm_retry(view, table.id, locale)
        if edit:
            shown = view or discord.ui.View()
            if interaction.response.is_done():
                await interaction.edit_original_response(content=content, view=shown, embed=None)
            else:
                await interaction.response.edit_message(content=content, view=shown, embed=None)
        else:
            await send_ephemeral(interaction, content, **({"view": view} if view else {}))

    async def retry_dm(self, interaction: discord.Interaction, table_id: int) -> None:
        """The "Send my dice by DM" button: try a DM at once, whatever the "DMs closed" mark says; say how it went."""
        locale = locale_of(interaction)
        table = self.bot.tables.by_id.get(table_id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        if table is None or seat is None or table.state is None:
            await refuse(interaction, TableError("stale_button"))
            return
        presenter = self.bot.presenter
        dm_locale = presenter.dm_language(table, interaction.user.id)
        text = "\n".join([presenter.dm_header(table, dm_locale), *table_text(table, dm_locale, seat).body])[:2000]
        sent = await within_deadline(interaction, presenter.send_dm(interaction.user.id, text))
        key = {True: "ui.dm_retry_sent", False: "ui.dm_retry_closed", None: "ui.dm_retry_failed"}[sent]
        await send_ephemeral(interaction, t(key, locale))


class DmRetryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dm:(?P<table>[0-9]{1,20})"):
    """``dm:<table id>`` on the 🎲 My dice reply of a player marked "DMs closed": retry the DM now."""

    def __init__(self, table_id: int, label: str = "") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or "DM", style=discord.ButtonStyle.secondary, custom_id=f"dm:{table_id}"
        )
        super().__init__(button)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmRetryButton:
        return cls(int(match["table"]), button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await table_ui(interaction).retry_dm(interaction, self.table_id)


def with_dm_retry(view: discord.ui.View | None, table_id: int, locale: str) -> discord.ui.View:
    view = view or discord.ui.View(timeout=None)
    try:
        view.add_item(DmRetryButton(table_id, t("ui.dm_retry", locale)))
    except ValueError:
        pass  # the game's own controls fill the reply; 🎲 My dice still shows everything
    return view


def raced_a_redraw(error: Exception, table: Table, version: int | None) -> bool:
    """An illegal move from controls drawn at an older version: the table moved on before the message caught up
    (a double click of the player's own move is a TableError, "duplicate", and is answered as such)."""
    return isinstance(error, IllegalMove) and version is not None and version < table.version


def moved_on_text(table: Table, locale: str) -> str:
    """The note for a raced click: the table's last log line, and that it is shown as it stands now."""
    names = seat_names(table)
    for kind, data in reversed(table.log):
        line = event_text(table.game, kind, data, names, locale)
        if line:
            return t("ui.moved_on", locale, event=line)
    return t("ui.moved_on_plain", locale)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Tables(bot))
