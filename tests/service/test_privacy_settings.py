"""A server's privacy contact (``/settings privacy-contact``): one guild_settings row, read back after a restart,
deleted when cleared, and a text past the limit refused with nothing written, on both backends."""

from __future__ import annotations

import pytest

from bot.privacy_contact import MAX_CONTACT
from bot.store import open_store, repo
from bot.tables import TableError
from bot.tables.settings import Settings

GUILD = 412_000_000_000_000_001


async def test_a_servers_privacy_contact_is_kept_read_back_and_cleared(database):
    store = await open_store(database)
    try:
        settings = Settings(store)
        assert (await settings.of(GUILD)).privacy_contact is None
        assert await settings.set_privacy_contact(GUILD, "  the   mods ") == "the mods"
        assert await repo.guild_settings(store, GUILD) == {"privacy_contact": "the mods"}
        assert (await Settings(store).of(GUILD)).privacy_contact == "the mods"  # a restart reads it back

        with pytest.raises(TableError) as refused:
            await settings.set_privacy_contact(GUILD, "x" * (MAX_CONTACT + 1))
        assert (refused.value.code, refused.value.params) == (
            "privacy_contact_too_long",
            {"max": MAX_CONTACT, "count": MAX_CONTACT + 1},
        )
        assert await repo.guild_settings(store, GUILD) == {"privacy_contact": "the mods"}  # nothing written

        assert await settings.set_privacy_contact(GUILD, "x" * MAX_CONTACT) == "x" * MAX_CONTACT
        assert await settings.set_privacy_contact(GUILD, "   ") is None
        assert await repo.guild_settings(store, GUILD) == {}  # the default again: no row
    finally:
        await store.close()
