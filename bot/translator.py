"""Slash command names and descriptions in the user's language, from the message catalog.

Commands are declared with English text from the catalog; discord.py hands every such string to the
translator at sync time, which finds its key by the English text and answers with the other locales.
"""

from __future__ import annotations

from functools import cache

import discord
from discord import app_commands

from bot.i18n import DEFAULT, catalog, locales, normalise


@cache
def _keys_by_english() -> dict[str, str]:
    return {text: key for key, text in catalog(DEFAULT).items() if isinstance(text, str)}


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        key = string.extras.get("key") or _keys_by_english().get(string.message)
        language = normalise(locale)
        if key is None or language == DEFAULT or language not in locales():
            return None
        text = catalog(language).get(key)
        return text if isinstance(text, str) else None  # None: Discord shows the English text
