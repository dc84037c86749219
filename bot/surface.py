"""What the Discord surface (cogs/) provides to the bot, as Protocols the cogs implement.

The bot (``bot.client.DiceTavern``) types the attributes its cogs set on load with these, so ``bot/`` never imports
``cogs/``, not even for types: the cogs import ``bot.client``, never the reverse. Each member here is one that a
module other than its implementation uses; mypy checks an implementation where a cog assigns it to the bot.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, ClassVar, Protocol

import discord
from discord import app_commands

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bot.games import Event
    from bot.render import Control, Menu
    from bot.tables import Table


class Shown(Protocol):
    """A table held by a response that shows it itself: ``shown`` is the look of what it showed, if it did."""

    shown: tuple[object, ...] | None


class Presenter(Protocol):
    """The Discord presenter (``cogs/utils/presenter.py``): table messages, DMs, the members' languages."""

    user_language: dict[int, str]  # user id -> their ``/me language``
    seen_locale: dict[int, str]  # user id -> the Discord locale of their last interaction
    dms_closed: dict[int, float]  # user id -> when a DM to them last failed

    def holding(self, table: Table) -> AbstractAsyncContextManager[Shown]: ...

    def look(self, table: Table) -> tuple[object, ...]: ...

    def refresh(self, table: Table) -> None: ...

    async def bring_down(self, table: Table) -> tuple[bool, str]:
        """``/<game> table``: the table message posted anew at the bottom (False: it is the channel's last message
        already, nothing sent), and the link to the table message."""
        ...

    async def set_message(self, table: Table, message_id: int) -> None: ...

    async def undelivered(self, table_id: int, user_id: int) -> list[str]: ...

    async def set_user_language(self, user_id: int, language: str | None) -> None: ...

    def note_locale(self, user_id: int, locale: object) -> None: ...

    async def drain(self) -> None: ...


class TableSurface(Protocol):
    """The table surface (``cogs/tables.py``): what a game's commands share with the table message's controls."""

    async def lobby_action(
        self, interaction: discord.Interaction, channel_id: int, verb: str, entropy: str | None = None
    ) -> None: ...

    async def show_private_view(self, interaction: discord.Interaction, table: Table) -> None: ...


class GameCommands(Protocol):
    """A game's cog (``cogs/utils/gamecog.py``): its command group and the private words and controls it adds."""

    game: ClassVar[str]

    @property
    def app_command(self) -> app_commands.Group | None: ...

    def private_view(self, table: Table, seat: int, locale: str) -> discord.ui.View | None: ...

    def private_controls(self, table: Table, seat: int, locale: str) -> Sequence[Control | Menu]: ...

    def confirmation(self, table: Table, seat: int, action: str, events: list[Event], locale: str) -> str | None: ...

    def resolve_action(self, table: Table, user_id: int, action: str) -> str: ...
