"""Per-server settings (``/settings``): one declared structure with its defaults, read once per server and kept.

Stored as guild_settings rows, one per setting that differs from its default (key -> JSON value): ``timeout``
(seconds a turn lasts), ``reminders`` (false: none), ``global`` (true: on the cross-server board), ``language``
(the server's language), ``repost`` (messages posted below the table message before its next redraw posts it anew
at the bottom; 0: never), ``privacy_contact`` (whom its members ask about their data, shown by /privacy info and
/help when the operator set none) and ``options.<game>`` (the game's default options, as the engine's ``changed()``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games import Engine, InvalidOptions, get_engine
from bot.privacy_contact import MAX_CONTACT
from bot.store import Store, repo
from bot.store.sql import Statement
from bot.tables.model import Table, TableError, check_language

log = logging.getLogger(__name__)

TIMEOUT_RANGE = (15, 3600)  # seconds a server may give a turn
# messages below the table before it is posted anew (or 0: never). Fewer than 3 would repost (a post and a delete)
# on nearly every move of a chatty channel; more than 100 is "never" in all but name.
REPOST_RANGE = (3, 100)


@dataclass(frozen=True)
class GuildSettings:
    """One server's settings; each field's default is what a server that never set it gets."""

    timeout: float = 120.0  # seconds a turn lasts (a lobby left idle closes after LOBBY_IDLE)
    reminders: bool = True  # a reminder at half of the turn time
    global_board: bool = False  # its members are on the cross-server board
    language: str | None = None  # None: tables follow the server's Discord language (or English)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # game -> its default options
    repost_after: int = 8  # messages below the table message before it is posted anew at the bottom; 0: never
    privacy_contact: str | None = None  # whom members ask about their data (``/settings privacy-contact``)

    @classmethod
    def from_rows(cls, rows: Mapping[str, Any]) -> GuildSettings:
        """The settings the guild_settings rows (key -> value) hold; a missing key is its default."""
        default = DEFAULTS
        options = {key.split(".", 1)[1]: value for key, value in rows.items() if key.startswith("options.")}
        return cls(
            timeout=rows.get("timeout", default.timeout),
            reminders=rows.get("reminders", default.reminders),
            global_board=rows.get("global", default.global_board),
            language=rows.get("language", default.language),
            repost_after=rows.get("repost", default.repost_after),
            privacy_contact=rows.get("privacy_contact", default.privacy_contact),
            options=options,
        )

    def rows(self) -> dict[str, Any]:
        """The guild_settings rows that hold these settings: one per setting that is not its default."""
        default = DEFAULTS
        stored: dict[str, Any] = {}
        for key, value, unset in (
            ("timeout", self.timeout, default.timeout),
            ("reminders", self.reminders, default.reminders),
            ("global", self.global_board, default.global_board),
            ("language", self.language, default.language),
            ("repost", self.repost_after, default.repost_after),
            ("privacy_contact", self.privacy_contact, default.privacy_contact),
        ):
            if value != unset:
                stored[key] = value
        stored.update((f"options.{game}", dict(options)) for game, options in self.options.items())
        return stored

    def game_options(self, game: str) -> dict[str, Any]:
        """The server's default options for ``game`` (none set: {})."""
        return dict(self.options.get(game, {}))


DEFAULTS = GuildSettings()


class Settings:
    """Every server's settings, each read from the store at its first use and kept; a change is written at once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, GuildSettings] = {}
        self.languages: dict[int, str] = {}  # guild id -> its language, every server's (read at start: clicks need it)

    async def load_languages(self) -> None:
        self.languages = await repo.guild_languages(self.store)

    async def of(self, guild_id: int) -> GuildSettings:
        known = self._known.get(guild_id)
        if known is None:
            known = self._known[guild_id] = GuildSettings.from_rows(await repo.guild_settings(self.store, guild_id))
        return known

    async def change(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Write the changed fields (a field set to its default deletes its row), then keep the new settings."""
        new = replace(await self.of(guild_id), **changes)
        await self.store.write(self.statements(guild_id, new))
        self.keep(guild_id, new)
        return new

    async def set_timeout(self, guild_id: int, seconds: int | None) -> None:
        """The server's turn time (None: the default); refused outside ``TIMEOUT_RANGE``."""
        if seconds is not None and not TIMEOUT_RANGE[0] <= seconds <= TIMEOUT_RANGE[1]:
            raise TableError("bad_timeout", lo=TIMEOUT_RANGE[0], hi=TIMEOUT_RANGE[1])
        await self.change(guild_id, timeout=DEFAULTS.timeout if seconds is None else seconds)

    async def set_repost(self, guild_id: int, messages: int) -> None:
        """How many messages below the table message make its next redraw post it anew (0: never); refused
        outside ``REPOST_RANGE``."""
        if messages != 0 and not REPOST_RANGE[0] <= messages <= REPOST_RANGE[1]:
            raise TableError("bad_repost", lo=REPOST_RANGE[0], hi=REPOST_RANGE[1])
        await self.change(guild_id, repost_after=messages)

    async def set_privacy_contact(self, guild_id: int, text: str | None) -> str | None:
        """Whom the server's members ask about their data (blank or None: none); refused past MAX_CONTACT
        characters. Returns what is stored (the text with its runs of blanks made one space)."""
        contact = " ".join((text or "").split()) or None
        if contact is not None and len(contact) > MAX_CONTACT:
            raise TableError("privacy_contact_too_long", max=MAX_CONTACT, count=len(contact))
        await self.change(guild_id, privacy_contact=contact)
        return contact

    async def set_default_options(self, guild_id: int, game: str, options: dict[str, Any] | None) -> dict[str, Any]:
        """Validate ``options`` (over the defaults already set) with the engine and store them as the server's
        defaults for ``game`` (None resets them); returns what is stored (the options that differ from the game's)."""
        settings = await self.of(guild_id)
        defaults = {name: dict(chosen) for name, chosen in settings.options.items() if name != game}
        value = None
        if options is not None:
            value = validate_options(get_engine(game), {**settings.game_options(game), **options}).changed()
            defaults[game] = value
        await self.change(guild_id, options=defaults)
        return value or {}

    async def set_language(self, guild_id: int, language: str, tables: list[Table]) -> list[Table]:
        """The server's language: every new table's, and that of each of its open ``tables`` whose host did not
        choose one (these are returned). An unknown code is refused and changes nothing."""
        check_language(language)
        new = replace(await self.of(guild_id), language=language)
        switched = [t for t in tables if t.guild_id == guild_id and not t.locale_chosen and t.locale != language]
        # In memory before the write is queued: a snapshot built before this joins the group commit ahead of it (its
        # meta's old locale is then overwritten), one built after already has the new locale.
        before = [(table, table.locale) for table in switched]
        for table in switched:
            table.locale = language
        try:
            locales = [repo.set_game_locale(table.id, language) for table in switched]
            await self.store.write(self.statements(guild_id, new) + locales)
        except BaseException:
            for table, locale in before:
                table.locale = locale
            raise
        self.keep(guild_id, new)
        return switched

    def statements(self, guild_id: int, new: GuildSettings) -> list[Statement]:
        """What writes ``new`` over the server's stored settings: each row that changed, set or deleted."""
        old, rows = self._known.get(guild_id, DEFAULTS).rows(), new.rows()
        changed = [key for key in {**old, **rows} if old.get(key) != rows.get(key)]
        return [repo.set_guild_setting(guild_id, key, rows.get(key)) for key in changed]

    def keep(self, guild_id: int, new: GuildSettings) -> None:
        """``new`` is committed: it is what the server's settings are now."""
        self._known[guild_id] = new
        if new.language is not None:
            self.languages[guild_id] = new.language
        else:
            self.languages.pop(guild_id, None)


def validate_options(engine: Engine, options: dict[str, Any]) -> Any:
    """The engine's options for ``options``, or a refusal in words (``bad_option``), never Python's text."""
    try:
        return engine.options(options)
    except InvalidOptions as error:
        raise TableError("bad_option", option=error.option, problem=error) from None  # error_text words it
    except (TypeError, ValueError):  # not an InvalidOptions: still a refusal in words, never Python's text
        log.warning("options %r refused without a reason code", options, exc_info=True)
        raise TableError("bad_option", option="values", problem=InvalidOptions("values", "invalid")) from None


class SettingsCommands:
    """The settings half of the table service's API (``TableService`` is one): what ``/settings`` reads and sets."""

    server_settings: Settings

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.server_settings.of(guild_id)

    async def settings(self, guild_id: int) -> dict[str, Any]:
        """The server's stored settings as their rows have them (key -> value; a default is not stored)."""
        return (await self.guild_settings(guild_id)).rows()

    async def turn_timeout(self, guild_id: int) -> float:
        return float((await self.guild_settings(guild_id)).timeout)

    async def set_timeout(self, guild_id: int, seconds: int | None) -> None:
        await self.server_settings.set_timeout(guild_id, seconds)

    async def reminders_on(self, guild_id: int) -> bool:
        return (await self.guild_settings(guild_id)).reminders

    async def set_reminders(self, guild_id: int, on: bool) -> None:
        """Turn reminders at half of the turn time, on (the default) or off for this server."""
        await self.server_settings.change(guild_id, reminders=on)

    async def global_on(self, guild_id: int) -> bool:
        """Whether the server's members are on the cross-server board (``/settings global``; off by default)."""
        return (await self.guild_settings(guild_id)).global_board

    async def set_global(self, guild_id: int, on: bool) -> None:
        await self.server_settings.change(guild_id, global_board=on)

    async def repost_after(self, guild_id: int) -> int:
        """Messages below the table message before its next redraw posts it anew at the bottom (0: never)."""
        return (await self.guild_settings(guild_id)).repost_after

    async def set_repost(self, guild_id: int, messages: int) -> None:
        await self.server_settings.set_repost(guild_id, messages)

    async def set_default_options(self, guild_id: int, game: str, options: dict[str, Any] | None) -> dict[str, Any]:
        return await self.server_settings.set_default_options(guild_id, game, options)

    async def privacy_contact(self, guild_id: int | None) -> str | None:
        """The server's ``/settings privacy-contact`` (None: none set, or not in a server)."""
        return None if guild_id is None else (await self.guild_settings(guild_id)).privacy_contact

    async def set_privacy_contact(self, guild_id: int, text: str | None) -> str | None:
        return await self.server_settings.set_privacy_contact(guild_id, text)

    def server_language(self, guild_id: int | None) -> str | None:
        """The server's ``/settings language``, None if it never set one (no read: loaded at start)."""
        return self.server_settings.languages.get(guild_id) if guild_id is not None else None
