"""The shipped languages: their names (from Babel's CLDR data, not the catalog) and which one a message is in.

Discord has a locale for it, ru, el and de; Welsh and Estonian have none, so a Welsh or Estonian speaker runs an
English Discord client and reaches their language only through the server's or their own setting.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.core import default_locale
from discord import app_commands

SHIPPED = ("en", "it", "ru", "el", "de", "cy", "et")
DEFAULT = "en"
NO_DISCORD_LOCALE = frozenset({"cy", "et"})  # no Discord client speaks these
ENGLISH_CLIENTS = frozenset({"en-US", "en-GB"})  # Discord's English locales


def shipped(value: Any) -> str | None:
    """'ru', 'de-DE', 'cy_GB', discord.Locale.greek -> the shipped code; None for anything else (or nothing)."""
    text = str(getattr(value, "value", value) or "")
    code = text.replace("_", "-").split("-")[0].lower()
    return code if code in SHIPPED else None


@cache
def display(code: str, reader: str, autonym: bool = True) -> str:
    """``code``'s name as ``reader`` writes it ("Welsh", "валлийский"), with its own name beside it when that
    differs and ``autonym`` ("Welsh (Cymraeg)")."""
    name = Locale.parse(code).get_display_name(Locale.parse(shipped(reader) or DEFAULT)) or code
    own = native(code)
    return f"{name} ({own})" if autonym and own.casefold() != name.casefold() else name


@cache
def native(code: str) -> str:
    """The language's own name for itself, capitalised as a label ("Cymraeg", "Русский", "Eesti")."""
    name = Locale.parse(code).get_display_name(Locale.parse(code)) or code
    return name[:1].upper() + name[1:]


def discord_choices() -> list[app_commands.Choice[str]]:
    """The shipped languages as a slash-command option's choices: each by its own name, the value its code."""
    return [app_commands.Choice(name=native(code), value=code) for code in SHIPPED]


def from_environment() -> str:
    """The terminal's default: the environment's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) if shipped, else
    English."""
    try:
        found = default_locale("LC_MESSAGES")
    except (UnknownLocaleError, ValueError):
        found = None
    return shipped(found) or DEFAULT


def for_table(chosen: str | None, server: str | None, guild_locale: Any) -> str:
    """A table's language: the host's ``language:``, else the server's ``/settings language``, else the server's
    preferred locale if shipped, else English."""
    return shipped(chosen) or shipped(server) or shipped(guild_locale) or DEFAULT


def for_person(own: str | None, discord_locale: Any, server: str | None, fallback: str) -> str:
    """A private reply's (or DM's) language: the person's ``/me language``; else the server's Welsh or Estonian for
    an English Discord client; else their Discord locale if shipped; else ``fallback`` (the server's language, or
    the table's for a DM)."""
    if own:
        return own
    text = str(getattr(discord_locale, "value", discord_locale) or "")
    if server in NO_DISCORD_LOCALE and text in ENGLISH_CLIENTS:
        return server
    return shipped(text) or fallback
