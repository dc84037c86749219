"""Slash command names, descriptions and choice names in the user's language, from the message catalog.

Commands are declared with English text from the catalog; discord.py hands every such string to the
translator at sync time, once per Discord locale, and sends what it answers as the command's localisations.

- Names (groups, commands, options) come from ``name.json``: ``name.group.<name>``, ``name.command.<name>``,
  ``name.param.<name>``, keyed by the English name.
- A choice's name: a ``Literal[...]`` choice (named by its value) reads ``name.choice.<value>``; a game id
  choice reads the game's name (``game.<id>``); any other choice (``⚀ ones``) the key whose English text it is.
- Descriptions: the key named in the string's ``extras["key"]``, else the key whose English text it is.

Only the shipped languages Discord has as a locale (it, ru, el, de) are answered: Welsh and Estonian have
no Discord locale, and English is the commands' own text. A translation that breaks Discord's rules (a name
with a space or a capital, a description over 100 characters) is not sent, since Discord would refuse the
whole sync: the command keeps its English text there, and tests/test_translator.py names the culprit.
"""

from __future__ import annotations

import logging
import unicodedata
from functools import cache
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT, catalog, locales, normalise

log = logging.getLogger(__name__)

NAME_MAX, DESCRIPTION_MAX, CHOICE_MAX = 32, 100, 100  # Discord's limits
NAMED = {Where.group_name: "group", Where.command_name: "command", Where.parameter_name: "param"}
# Scripts Discord allows in a name besides letters and digits (\p{sc=Deva}, \p{sc=Thai}), as code point ranges.
EXTRA_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F), (0x0E00, 0x0E7F))


@cache
def _keys_by_english() -> dict[str, str]:
    """English text -> its key (the first in catalog order), for strings declared by their English text."""
    found: dict[str, str] = {}
    for key, text in catalog(DEFAULT).items():
        if isinstance(text, str) and not key.startswith("name."):
            found.setdefault(text, key)
    return found


@cache
def discord_languages() -> tuple[str, ...]:
    """The shipped languages Discord has a locale for (English aside): the ones commands are localised in."""
    return tuple(sorted({normalise(locale) for locale in discord.Locale} & set(locales()) - {DEFAULT}))


def _name_char(char: str) -> bool:
    if char in "-_" or unicodedata.category(char)[0] in "LN":
        return True
    return any(lo <= ord(char) <= hi for lo, hi in EXTRA_SCRIPTS)


def name_problem(name: str) -> str | None:
    """Why Discord would refuse ``name`` as a command, group or option name (``^[-_\\p{L}\\p{N}…]{1,32}$``,
    lowercase), or None."""
    if not 1 <= len(name) <= NAME_MAX:
        return f"{len(name)} characters (1-{NAME_MAX})"
    if bad := sorted({c for c in name if not _name_char(c)}):
        return f"characters not allowed in a name: {bad}"
    if name != name.lower():
        return "not lowercase"
    return None


def text_problem(text: str, limit: int) -> str | None:
    """Why Discord would refuse ``text`` as a description or choice name (1 to ``limit`` characters), or None."""
    return None if 1 <= len(text) <= limit else f"{len(text)} characters (1-{limit})"


def key_for(string: app_commands.locale_str, context: app_commands.TranslationContext[Any, Any]) -> str | None:
    """The catalog key a command string reads from (see the module's docstring), or None."""
    where = context.location
    if where in NAMED:
        return f"name.{NAMED[where]}.{string.message}"
    if where is Where.choice_name:
        if not any(c.isalpha() for c in string.message):
            return None  # a number reads the same in every language
        value = getattr(context.data, "value", None)
        if string.message == str(value):  # a Literal choice, or a choice named by its value
            for key in (f"name.choice.{value}", f"game.{value}"):
                if key in catalog(DEFAULT):
                    return key
    return string.extras.get("key") or _keys_by_english().get(string.message)


def problem(text: str, location: Where) -> str | None:
    """Why Discord would refuse ``text`` at ``location``, or None."""
    if location in NAMED:
        return name_problem(text)
    return text_problem(text, CHOICE_MAX if location is Where.choice_name else DESCRIPTION_MAX)


class CatalogTranslator(app_commands.Translator):
    """``checked=False`` answers even what Discord would refuse: for the tests that show what is wrong."""

    def __init__(self, checked: bool = True) -> None:
        super().__init__()
        self.checked = checked

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        language = normalise(locale)
        if language not in discord_languages():
            return None  # English is the commands' own text; other languages are not ours
        key = key_for(string, context)
        text = catalog(language).get(key) if key else None
        if not isinstance(text, str):
            return None  # Discord shows the English text
        if self.checked and (why := problem(text, context.location)):
            log.warning("not sending the %s translation of %s (%s): %s", language, key, text, why)
            return None
        return text
