"""/settings: per-server language, turn timeout, reminders, when the table message is posted anew below the chat
(``repost``), default options per game, rating seasons, the cross-server board and whom members ask about their
data (``privacy-contact``) (Manage Server only)."""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import InvalidOptions
from bot.i18n import t
from bot.languages import discord_choices, display, for_table
from bot.privacy_contact import shown
from bot.store import ratings
from bot.tables import TableError
from cogs.utils.games import game_choices
from cogs.utils.replies import AnswersErrors, guild_of, locale_of, refuse, send_ephemeral, server_only

if TYPE_CHECKING:
    from bot.client import DiceTavern

MAX_OPTIONS_TEXT = 400  # far more than every option of a game takes; a longer paste is refused as a whole


def parse_options(text: str) -> dict[str, str]:
    """``target=50 dice=2`` -> {"target": "50", "dice": "2"}; the engine's Options validate the values.

    Refusals are TableErrors only (their params quote the user's text, which ``error_text`` cuts short)."""
    if len(text) > MAX_OPTIONS_TEXT:
        raise TableError("options_too_long", count=len(text), max=MAX_OPTIONS_TEXT, text=text)
    try:
        words = shlex.split(text)
    except ValueError:  # an unclosed quote (or a trailing backslash)
        raise TableError("bad_option", option=text, problem=InvalidOptions(text, "unclosed_quote")) from None
    options = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key.strip():
            raise TableError("bad_option", option=word, problem=InvalidOptions(word, "not_name_value"))
        options[key.strip()] = value.strip()
    return options


@server_only  # an admin's or a host's tools: installed to servers, used in servers
@app_commands.default_permissions(manage_guild=True)
class Settings(AnswersErrors, commands.GroupCog, group_name="settings", group_description=t("cmd.settings")):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    def error_game(self, interaction: discord.Interaction) -> str | None:
        return getattr(interaction.namespace, "game", None)  # /settings options names the game its values are for

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # default_permissions only hides the command; a server can override it, so check again here.
        if interaction.permissions.manage_guild:
            return True
        await refuse(interaction, TableError("not_manager"))
        return False

    @app_commands.command(name="timeout", description=t("cmd.settings_timeout"))
    @app_commands.describe(seconds=t("cmd.settings_timeout_seconds"))
    async def timeout(self, interaction: discord.Interaction, seconds: int) -> None:
        await self.bot.tables.set_timeout(guild_of(interaction), seconds)
        await send_ephemeral(interaction, t("ui.settings_saved", locale_of(interaction), detail=f"timeout={seconds}s"))

    @app_commands.command(name="options", description=t("cmd.settings_options"))
    @app_commands.describe(game=t("cmd.settings_options_game"), values=t("cmd.settings_options_values"))
    @app_commands.choices(game=game_choices())
    async def options(self, interaction: discord.Interaction, game: str, values: str = "") -> None:
        parsed = parse_options(values) if values.strip() else None
        saved = await self.bot.tables.set_default_options(guild_of(interaction), game, parsed)  # refusals: TableError
        detail = f"{game}: " + (
            " ".join(f"{k}={v}" for k, v in saved.items()) or t("ui.settings_none", locale_of(interaction))
        )
        await send_ephemeral(interaction, t("ui.settings_saved", locale_of(interaction), detail=detail))

    @app_commands.command(name="reminders", description=t("cmd.settings_reminders"))
    @app_commands.describe(state=t("cmd.settings_reminders_state"))
    async def reminders(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        await self.bot.tables.set_reminders(guild_of(interaction), state == "on")
        locale = locale_of(interaction)
        detail = f"reminders={t(f'ui.reminders_{state}', locale)}"
        await send_ephemeral(interaction, t("ui.settings_saved", locale, detail=detail))

    @app_commands.command(name="repost", description=t("cmd.settings_repost"))
    @app_commands.describe(messages=t("cmd.settings_repost_messages"))
    async def repost(self, interaction: discord.Interaction, messages: int) -> None:
        await self.bot.tables.set_repost(guild_of(interaction), messages)  # refuses outside REPOST_RANGE (0: never)
        locale = locale_of(interaction)
        detail = f"repost={messages if messages else t('ui.repost_never', locale)}"
        await send_ephemeral(interaction, t("ui.settings_saved", locale, detail=detail))

    @app_commands.command(name="privacy-contact", description=t("cmd.settings_privacy_contact"))
    @app_commands.describe(text=t("cmd.settings_privacy_contact_text"))
    async def privacy_contact(self, interaction: discord.Interaction, text: str | None = None) -> None:
        saved = await self.bot.tables.set_privacy_contact(guild_of(interaction), text)  # refuses past MAX_CONTACT
        locale = locale_of(interaction)
        if saved is None:
            await send_ephemeral(interaction, t("privacy.contact_cleared", locale))
        else:
            await send_ephemeral(interaction, t("privacy.contact_saved", locale, contact=shown(saved)))

    @app_commands.command(name="language", description=t("cmd.settings_language"))
    @app_commands.describe(language=t("cmd.settings_language_language"))
    @app_commands.choices(language=discord_choices())
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await self.bot.tables.set_language(guild_of(interaction), language)  # refuses an unknown code
        locale = locale_of(interaction)  # after the change: an English client at a Welsh server now reads Welsh
        await send_ephemeral(interaction, t("ui.language_server_set", locale, language=display(language, locale)))

    season = app_commands.Group(name="season", description=t("rating.cmd_season"))

    @season.command(name="start", description=t("rating.cmd_season_start"))
    @app_commands.describe(name=t("rating.cmd_season_start_name"))
    async def season_start(self, interaction: discord.Interaction, name: str) -> None:
        locale = locale_of(interaction)
        try:
            number = await ratings.start_season(self.bot.store, guild_of(interaction), name, self.bot.tables.clock())
        except ratings.SeasonRefused as refused:
            await send_ephemeral(interaction, "⚠️ " + t(f"rating.error_{refused.code}", locale, **refused.params))
            return
        await send_ephemeral(interaction, t("rating.season_started", locale, season=name.strip(), number=number + 1))

    @app_commands.command(name="global", description=t("rating.cmd_global"))
    @app_commands.describe(state=t("rating.cmd_global_state"))
    async def global_(self, interaction: discord.Interaction, state: Literal["on", "off"]) -> None:
        await self.bot.tables.set_global(guild_of(interaction), state == "on")
        await send_ephemeral(interaction, t(f"rating.global_{state}", locale_of(interaction)))

    @app_commands.command(name="show", description=t("cmd.settings_show"))
    async def show(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        settings = await self.bot.tables.settings(guild_of(interaction))
        timeout = await self.bot.tables.turn_timeout(guild_of(interaction))
        on = await self.bot.tables.reminders_on(guild_of(interaction))
        reminders = t("ui.reminders_on" if on else "ui.reminders_off", locale)
        options = "\n".join(
            f"• {key.split('.', 1)[1]}: " + " ".join(f"{k}={v}" for k, v in value.items())
            for key, value in sorted(settings.items())
            if key.startswith("options.")
        ) or t("ui.settings_none", locale)
        chosen = self.bot.tables.server_language(guild_of(interaction))
        if chosen is not None:
            language = display(chosen, locale)
        else:  # no setting: tables follow the server's Discord language (or English)
            language = t(
                "ui.language_default", locale, language=display(for_table(None, None, interaction.guild_locale), locale)
            )
        text = t(
            "ui.settings_show", locale, language=language, timeout=int(timeout), reminders=reminders, options=options
        )
        season = (await ratings.seasons(self.bot.store, guild_of(interaction)))[0]
        named = season.name if season.name is not None else t("rating.season_first", locale)
        on = await self.bot.tables.global_on(guild_of(interaction))
        shared = t("rating.global_shown_on" if on else "rating.global_shown_off", locale)
        text += "\n" + t("rating.settings_show", locale, season=named, shared=shared)
        contact = await self.bot.tables.privacy_contact(guild_of(interaction))
        shown_contact = shown(contact) if contact is not None else t("ui.settings_none", locale)
        text += "\n" + t("privacy.settings_contact", locale, contact=shown_contact)
        await send_ephemeral(interaction, text)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Settings(bot))
