"""What every game's command group shares: join, leave, start, status, table, rules, and playing a move.

A game's cog subclasses ``GameCog``: its own ``new`` command (the options differ per game) and its
action commands; discord.py's CogMeta collects the shared commands below from the base class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.render import Control, Menu, event_text, rules_pages, seat_names
from bot.tables import Seat, Table, TableError
from cogs.utils.components import COLOURS, MAX_CHOICES, controls_view, table_message, text_message
from cogs.utils.interaction_transport import InteractionTransport, interaction_only
from cogs.utils.presenter import DiscordPresenter
from cogs.utils.rematch import post_table
from cogs.utils.replies import (
    AnswersErrors,
    anywhere,
    channel_of,
    guild_of,
    locale_of,
    note_locale,
    send_ephemeral,
    table_locale_of,
    within_deadline,
)

if TYPE_CHECKING:
    from bot.client import DiceTavern
    from bot.tables import TableService


def seat_for(user: discord.abc.User, entropy: str | None = None) -> Seat:
    """``entropy``: the player's part of the fair dice's client seed (their ``seed:`` text, or the interaction id)."""
    return Seat(user.id, getattr(user, "display_name", None) or user.name, entropy=entropy)


MENTION = re.compile(r"<@!?(\d+)>|(-?\d+)")


def find_seat(table: Table, text: str) -> int:
    """The seat id a ``player:`` option names: an autocomplete value (the seat id), a mention, or a name."""
    text = text.strip()
    names = seat_names(table)
    for seat, name in zip(table.seats, names, strict=True):
        if text.casefold() in (seat.name.casefold(), name.casefold()):
            return seat.id
    match = MENTION.fullmatch(text)
    if match:
        return int(match[1] or match[2])  # the service refuses an id that is not seated
    raise TableError("no_such_player", name=text[:50])


@anywhere
class GameCog(AnswersErrors, commands.GroupCog):
    """A game's command group. Its commands' refusals (TableError, IllegalMove) simply propagate: the one error
    path (``AnswersErrors``) answers them privately, in this game's words."""

    game: ClassVar[str] = ""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.game_cogs[self.game] = self  # the table surface finds a game's private controls here

    async def cog_unload(self) -> None:
        if self.bot.game_cogs.get(self.game) is self:
            del self.bot.game_cogs[self.game]

    def error_game(self, interaction: discord.Interaction) -> str | None:
        return self.game

    @property
    def tables(self) -> TableService:
        return self.bot.tables

    @property
    def interactions(self) -> InteractionTransport:
        """The tables that live on an interaction's message (the presenter's second transport)."""
        return cast(DiscordPresenter, self.bot.presenter).interactions

    def _table_here(self, interaction: discord.Interaction) -> Table:
        table = self.tables.table(channel_of(interaction))
        if table.game != self.game:
            raise TableError("wrong_game", game=table.game)
        return table

    # -- shared commands ----------------------------------------------------------------------

    async def open_table(
        self, interaction: discord.Interaction, options: dict[str, Any], language: str | None = None
    ) -> None:
        """``language``: the host's choice for the table (sticky), else the server's (see ``table_locale_of``)."""
        options = {k: v for k, v in options.items() if v is not None}
        assert interaction.channel_id is not None
        locale = table_locale_of(interaction, language)
        note_locale(interaction)  # before any DM to the host can be sent
        scope = guild_of(interaction)  # a group DM's own id: its results, its board
        if interaction.guild_id is None and not await self.tables.global_on(scope):
            # a group DM's games count for its players across servers (the global board), as no server holds them
            await self.tables.set_global(scope, True)
        table = await self.tables.create(
            scope,
            interaction.channel_id,
            seat_for(interaction.user, str(interaction.id)),  # the host's entropy: the opening command's id
            self.game,
            options,
            locale=locale,
            locale_chosen=language is not None,
        )
        if interaction_only(interaction):  # the bot cannot reach this channel: the table lives on this response
            await self.interactions.note(table, interaction)
        await post_table(interaction, table)  # this response becomes the table message

    @app_commands.command(name="join", description=t("cmd.join"))
    @app_commands.describe(seed=t("cmd.join_seed"))
    async def join(self, interaction: discord.Interaction, seed: app_commands.Range[str, 1, 100] | None = None) -> None:
        table = self._table_here(interaction)
        await self.bot.table_ui.lobby_action(interaction, table.channel_id, "join", entropy=seed)

    @app_commands.command(name="leave", description=t("cmd.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, "leave")

    @app_commands.command(name="start", description=t("cmd.start"))
    async def start(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, "start")

    @app_commands.command(name="status", description=t("cmd.status"))
    async def status(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        self.bot.presenter.refresh(table)  # re-shows it if someone deleted the message
        await send_ephemeral(interaction, view=table_message(table, locale_of(interaction), with_controls=False))

    @app_commands.command(name="table", description=t("cmd.table"))
    async def bring_down(self, interaction: discord.Interaction) -> None:
        """The table message posted anew at the bottom of the channel now (paced, one repost however often it is
        asked for), answered privately with a link; nothing sent if it is the channel's last message already."""
        table = self._table_here(interaction)
        if self.interactions.owns(table):
            raise TableError("table_on_message", game=table.game)  # it lives on its message: nothing goes below it
        moved, link = await within_deadline(interaction, self.bot.presenter.bring_down(table))
        key = "ui.table_below" if moved else "ui.table_at_bottom"
        await send_ephemeral(interaction, t(key, locale_of(interaction), link=link))

    @app_commands.command(name="rules", description=t("cmd.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        table = self.tables.by_channel.get(channel_of(interaction))
        options = {}
        if table is not None and table.game == self.game:
            options = table.engine.options(table.options).changed()
        first, *more = rules_pages(self.game, options, locale)  # a translation may run past one message
        await send_ephemeral(interaction, first)
        for page in more:
            await interaction.followup.send(page, ephemeral=True)

    @app_commands.command(name="kick", description=t("cmd.kick"))
    @app_commands.describe(player=t("cmd.kick_player"))
    async def kick(self, interaction: discord.Interaction, player: str) -> None:
        await self.host_tool(interaction, "kick", player)

    @app_commands.command(name="host", description=t("cmd.host"))
    @app_commands.describe(player=t("cmd.host_player"))
    async def host(self, interaction: discord.Interaction, player: str) -> None:
        await self.host_tool(interaction, "host", player)

    @kick.autocomplete("player")
    async def kick_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.seat_choices(interaction, current, lambda table, seat: seat.id != interaction.user.id)

    @host.autocomplete("player")
    async def host_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.seat_choices(interaction, current, lambda table, seat: not seat.is_bot and seat.id != table.host_id)

    def seat_choices(
        self, interaction: discord.Interaction, current: str, wanted: Callable[[Table, Seat], bool]
    ) -> list[app_commands.Choice[str]]:
        """The lobby's seats as autocomplete choices (value: the seat id, so computer players can be named)."""
        table = self.tables.by_channel.get(channel_of(interaction))
        if table is None or table.game != self.game or table.status != "lobby":
            return []
        typed = current.strip().casefold()
        return [
            app_commands.Choice(name=name[:100], value=str(seat.id))
            for seat, name in zip(table.seats, seat_names(table), strict=True)
            if wanted(table, seat) and typed in name.casefold()
        ][:MAX_CHOICES]

    async def host_tool(self, interaction: discord.Interaction, tool: str, player: str) -> None:
        table = self._table_here(interaction)
        target = find_seat(table, player)
        await self.bot.table_ui.lobby_action(interaction, table.channel_id, f"{tool}:{target}")

    async def lobby(self, interaction: discord.Interaction, verb: str) -> None:
        table = self._table_here(interaction)
        await self.bot.table_ui.lobby_action(interaction, table.channel_id, verb)

    # -- playing ------------------------------------------------------------------------------

    def private_controls(self, table: Table, seat: int, locale: str) -> Sequence[Control | Menu]:
        """Controls for the 🎲 My dice reply (e.g. a select of your own hand); none by default."""
        return ()

    def private_view(self, table: Table, seat: int, locale: str) -> discord.ui.View | None:
        """``private_controls`` as discord.py items (🎲 My dice sends them as JSON: ``Click.private_view``)."""
        return controls_view(table, self.private_controls(table, seat, locale), locale)

    def resolve_action(self, table: Table, user_id: int, action: str) -> str:
        """A control's action as the table service takes it (a control may name a move as the player sees it:
        Mythical Dice's table menu names a die type); unchanged by default."""
        return action

    def confirmation(self, table: Table, seat: int, action: str, events: list[Any], locale: str) -> str | None:
        """A private word for the player about their own move that the public log cannot say (a secret bid)."""
        return None

    async def play(self, interaction: discord.Interaction, action: str) -> None:
        """A move by slash command: apply it, answer with what happened, let the table message update."""
        locale = locale_of(interaction)
        table = self._table_here(interaction)
        note_locale(interaction)  # their next DM follows their client (a dict lookup unless it changed)
        table, events = await within_deadline(
            interaction, self.tables.act(table.channel_id, interaction.user.id, action, str(interaction.id))
        )
        names = seat_names(table)
        lines = [line for e in events if e.public and (line := event_text(table.game, e.kind, e.data, names, locale))]
        seat = table.seat_of(interaction.user.id)
        note = self.confirmation(table, seat, action, events, locale) if seat is not None else None
        lines += [note] if note else []
        secrets = await self.bot.presenter.undelivered(table.id, interaction.user.id)
        if secrets:
            lines += ["", t("ui.dm_closed", locale), *secrets]
        await send_ephemeral(interaction, view=text_message(lines or [t("ui.done", locale)], COLOURS.get(table.status)))
