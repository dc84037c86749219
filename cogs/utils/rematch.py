"""The 🔁 Rematch button of a game's end message, and posting a new table as an interaction's response.

``rm:<game id>`` (``RematchButton``, a DynamicItem registered by ``cogs/rematch.py``) holds only the finished game's
id: the click reads that game from the store (``TableService.rematch``), so the button works after a restart. It is
answered in its own callback: it is no table control (cogs/tables.py's ``Click`` leaves custom ids it does not know
alone). The new lobby is the click's response, a new public message below the end message, and becomes the table
message (``post_table``, as ``/<game> new`` posts one); it pings the invited players once, nobody else. A refusal
(a stranger, a game not finished or too old, a table already open here) takes the one error path, privately. The
end message keeps its button: a second click while the new lobby is open is refused (``table_exists``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.games.parsing import parse_int
from bot.i18n import t
from bot.tables import Seat
from bot.tables.rematch import invited
from cogs.utils import wire
from cogs.utils.components import button_label, table_message
from cogs.utils.replies import answer_error, note_locale

if TYPE_CHECKING:
    from bot.client import DiceTavern
    from bot.tables import Table

REMATCH_ID = r"rm:(?P<game>[0-9]{1,20})"  # RematchButton's custom id: the finished game's id


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REMATCH_ID):
    """``rm:<game id>`` on a finished game's end message: a new lobby like that game, in one click."""

    def __init__(self, game_id: int, label: str = "") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or "🔁", style=discord.ButtonStyle.primary, custom_id=f"rm:{game_id}"
        )
        super().__init__(button)
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(parse_int(match["game"]) or 0, button_label(item))  # beyond a database integer: no game (0)

    async def callback(self, interaction: discord.Interaction) -> None:
        await rematch(interaction, self.game_id)


def rematch_view(table: Table, locale: str) -> discord.ui.View | None:
    """The end message's controls: 🔁 Rematch for a finished game (the presenter posts no end message otherwise)."""
    if table.status != "finished":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(table.id, t("ui.rematch", locale)))
    return view


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """A click of 🔁: the new lobby as the click's response, or the refusal, privately (one answer either way)."""
    bot = cast("DiceTavern", interaction.client)
    user = interaction.user
    # the host's part of the client seed: the click's interaction id, as a command's id is for /<game> new
    host = Seat(user.id, user.display_name, entropy=str(interaction.id))
    try:
        note_locale(interaction)  # before any DM to the host can be sent
        table = await bot.tables.rematch(game_id, host, channel_id=interaction.channel_id)
        people = [discord.Object(user_id) for user_id in invited(table)]
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=people)
        await post_table(interaction, table, mentions)
    except Exception as error:
        await answer_error(interaction, error)


async def post_table(
    interaction: discord.Interaction, table: Table, mentions: discord.AllowedMentions = discord.utils.MISSING
) -> None:
    """A new table's message as the interaction's response (a public message in its channel), which becomes the
    table message; the presenter's paced edits wait meanwhile. ``mentions``: whom it may ping (default: the bot's
    default). Shared by every way a table opens (``/<game> new``, 🔁 Rematch)."""
    presenter = cast("DiceTavern", interaction.client).presenter
    async with presenter.holding(table) as held:
        held.shown = presenter.look(table)
        message_id = await wire.send_message(interaction, table_message(table, table.locale), allowed_mentions=mentions)
        if message_id:
            await presenter.set_message(table, message_id)
