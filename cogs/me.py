"""/me: a member's own preferences, for now the language of the bot's private replies and DMs to them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.languages import discord_choices, display
from bot.tables import check_language
from cogs.utils.replies import AnswersErrors, locale_of, note_locale, send_ephemeral

if TYPE_CHECKING:
    from bot.client import DiceTavern


class Me(AnswersErrors, commands.GroupCog, group_name="me", group_description=t("cmd.me")):
    """Works in DMs too: a member's language is theirs, not a server's."""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="language", description=t("cmd.me_language"))
    @app_commands.describe(language=t("cmd.me_language_language"))
    @app_commands.choices(language=discord_choices())
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """A language: the bot answers them privately (and DMs them) in it; none: their Discord language again."""
        if language is not None:
            check_language(language)
        note_locale(interaction)
        await self.bot.presenter.set_user_language(interaction.user.id, language)
        locale = locale_of(interaction)  # after the change: the answer is in the language they now get
        key = "ui.language_me_set" if language is not None else "ui.language_me_cleared"
        await send_ephemeral(interaction, t(key, locale, language=display(locale, locale)))


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Me(bot))
