"""The Discord bot: opens the store, restores tables, loads the cogs. No privileged intents."""

from __future__ import annotations

import gc
import logging
import pkgutil
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.games.dice import DiceSource, SecureDice
from bot.i18n import normalise, t
from bot.store import Store
from bot.tables import TableService
from bot.translator import CatalogTranslator

log = logging.getLogger(__name__)


def extensions() -> list[str]:
    """Every module in cogs/ is an extension (cogs/utils holds shared helpers); a new game is a new file."""
    import cogs

    return [f"cogs.{m.name}" for m in pkgutil.iter_modules(cogs.__path__) if not m.ispkg]


DEFAULT_DATABASE = "data/dicetavern.sqlite3"


class DiceTavern(commands.Bot):
    store: Store
    tables: TableService
    presenter: Any

    def __init__(
        self,
        *,
        database_path: str | Path = DEFAULT_DATABASE,
        dice: DiceSource | None = None,
        bot_delay: tuple[float, float] = (0.8, 2.5),
        **options: Any,
    ) -> None:
        # Slash commands and components need only the guilds intent: no message content, members or presences.
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True), help_command=None, **options
        )
        self.database_path = str(database_path)
        self.dice = dice or SecureDice()
        self.bot_delay = bot_delay  # computer players' pause before a move

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.database_path)
        self.tables = TableService(self.store, self.dice, bot_delay=self.bot_delay)
        restored = await self.tables.start()
        log.info("restored %d open tables", len(restored))
        gc.freeze()  # what start-up loaded lives for the whole run: keep it out of every GC pass
        await self.tree.set_translator(CatalogTranslator())
        self.tree.on_error = self.on_app_command_error
        for extension in extensions():
            await self.load_extension(extension)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        if isinstance(error, discord.app_commands.CheckFailure):
            return  # the check already told the user why
        log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
        text = "⚠️ " + t("error.internal", normalise(interaction.locale))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def close(self) -> None:
        if hasattr(self, "tables"):
            await self.tables.stop()  # in-flight actions finish; no new deadline fires
        if getattr(self, "presenter", None) is not None:
            await self.presenter.drain()
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
