"""Languages in the store and the table service: the 0007 migration, the server's language and the open tables it
switches (but not a host's choice), and which language a message is in (bot.languages)."""

from __future__ import annotations

import sqlite3

import pytest
from discord import Locale

from bot.games.dice import ScriptedDice
from bot.languages import SHIPPED, discord_choices, display, for_person, for_table, from_environment, native, shipped
from bot.store import open_store, repo
from bot.store.schema import migrations
from bot.tables import Seat, TableError, TableService

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB = Seat(100, "Alice"), Seat(200, "Bob")


class Recorder:
    """A presenter that records which tables were published (a language switch redraws them)."""

    def __init__(self) -> None:
        self.published: list[tuple[int, str]] = []

    def publish(self, table, events, *, refresh=True) -> None:  # noqa: ANN001
        self.published.append((table.id, table.locale))


async def open_service(db: str, presenter: Recorder | None = None) -> TableService:
    store = await open_store(db)
    service = TableService(store, ScriptedDice([3] * 50), presenter=presenter, run_dispatcher=False)
    await service.start()
    return service


async def close_service(service: TableService) -> None:
    await service.stop()
    await service.store.close()


@pytest.fixture
def db(database) -> str:
    """A store target on each backend (SQLite file, PostgreSQL schema)."""
    return database


# -- the store -------------------------------------------------------------------------------


async def test_a_database_from_before_languages_upgrades_and_keeps_its_users(tmp_path):
    # SQLite only: a SQLite file from before 0007 (a PostgreSQL database starts at the whole schema, 0008).
    db = str(tmp_path / "tavern.sqlite3")
    conn = sqlite3.connect(db)
    for number, sql in migrations():
        if number < 7:
            conn.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version={number};\nCOMMIT;")
    conn.execute("INSERT INTO users (user_id, dms_closed, dms_closed_at) VALUES (7, 1, 5.0)")
    conn.execute("INSERT INTO guild_settings (guild_id, key, value) VALUES (1, 'timeout', '60')")
    conn.commit()
    conn.close()
    store = await open_store(db)
    try:
        assert (await store.fetch_one("PRAGMA user_version"))[0] == migrations()[-1][0]  # 0007 and any later
        row = await store.fetch_one("SELECT * FROM users WHERE user_id = 7")
        assert (row["dms_closed"], row["dms_closed_at"], row["language"], row["discord_locale"]) == (1, 5.0, None, None)
        assert await repo.user_languages(store) == ({}, {})
        assert await repo.guild_languages(store) == {}
        await store.write([repo.set_user_language(7, "cy"), repo.set_discord_locale(8, "ru")])
        assert await repo.user_languages(store) == ({7: "cy"}, {8: "ru"})
        await store.write([repo.set_user_language(7, None)])
        assert await repo.user_languages(store) == ({}, {8: "ru"})
        assert await repo.dms_closed_users(store) == {7: 5.0}  # the other columns untouched
    finally:
        await store.close()


# -- the service -----------------------------------------------------------------------------


async def test_the_server_language_switches_open_tables_that_did_not_choose_and_survives_a_restart(db):
    presenter = Recorder()
    service = await open_service(db, presenter)
    follows = await service.create(GUILD, 10, ALICE, "pig", locale="en")
    chosen = await service.create(GUILD, 11, BOB, "pig", locale="it", locale_chosen=True)
    elsewhere = await service.create(OTHER_GUILD, 12, ALICE, "pig", locale="de")
    await service.join(10, BOB)
    await service.start_game(10, ALICE.id)
    await service.act(10, ALICE.id, "roll")  # a move after the start: the games row is not rewritten by it
    presenter.published.clear()

    switched = await service.set_language(GUILD, "cy")
    assert switched == [follows] and presenter.published == [(follows.id, "cy")]  # drawn again, in Welsh
    assert (follows.locale, chosen.locale, elsewhere.locale) == ("cy", "it", "de")
    assert service.server_language(GUILD) == "cy" and service.server_language(OTHER_GUILD) is None
    assert (await service.settings(GUILD))["language"] == "cy"
    version = follows.version
    await close_service(service)

    service = await open_service(db)
    try:
        assert service.server_language(GUILD) == "cy"  # loaded at start: no read on a click
        restored = service.table(10)
        assert (restored.locale, restored.locale_chosen, restored.version) == ("cy", False, version)
        assert (service.table(11).locale, service.table(11).locale_chosen) == ("it", True)
        assert service.table(12).locale == "de"
        await service.act(10, ALICE.id, "roll")  # the game goes on from its log as before
    finally:
        await close_service(service)


async def test_an_unknown_server_language_is_refused_and_changes_nothing(db):
    service = await open_service(db)
    try:
        table = await service.create(GUILD, 10, ALICE, "pig", locale="en")
        for bad in ("xx", "EN", "", "en-US"):
            with pytest.raises(TableError) as refused:
                await service.set_language(GUILD, bad)
            assert refused.value.code == "unknown_language"
        assert service.server_language(GUILD) is None and table.locale == "en"
        assert await service.store.fetch_all("SELECT * FROM guild_settings") == []
    finally:
        await close_service(service)


# -- which language ------------------------------------------------------------------------


def test_the_shipped_languages_and_their_names_come_from_babel():
    assert SHIPPED == ("en", "it", "ru", "el", "de", "cy", "et")
    assert display("cy", "en") == "Welsh (Cymraeg)" and display("cy", "cy") == "Cymraeg"
    assert display("cy", "ru") == "валлийский (Cymraeg)" and display("et", "de", autonym=False) == "Estnisch"
    assert display("ru", "xx-unknown") == "Russian (Русский)"  # an unknown reader reads English
    assert [native(code) for code in SHIPPED] == [
        "English",
        "Italiano",
        "Русский",
        "Ελληνικά",
        "Deutsch",
        "Cymraeg",
        "Eesti",
    ]
    assert [(c.name, c.value) for c in discord_choices()] == [(native(code), code) for code in SHIPPED]
    assert [shipped(x) for x in ("ru", "de-DE", "cy_GB", Locale.greek, Locale.american_english, "fr", None, "")] == [
        "ru", "de", "cy", "el", "en", None, None, None
    ]  # fmt: skip


def test_a_tables_language():
    assert for_table("et", "cy", "ru") == "et"  # the host's choice
    assert for_table(None, "cy", "ru") == "cy"  # the server's setting
    assert for_table(None, None, Locale.russian) == "ru"  # the server's preferred locale
    assert for_table(None, None, Locale.japanese) == "en"  # not shipped: English


def test_a_private_replys_language():
    assert for_person("de", "ru", "cy", "el") == "de"  # /me language first
    assert for_person(None, "en-US", "cy", "cy") == "cy"  # no Welsh Discord client: the server's Welsh
    assert for_person(None, Locale.british_english, "et", "et") == "et"
    assert for_person(None, "en-US", "de", "de") == "en"  # German has a client: the English one means English
    assert for_person(None, "ru", "cy", "cy") == "ru"  # their Discord locale
    assert for_person(None, "ja", None, "el") == "el"  # not shipped: the fallback (the server's, the table's)
    assert for_person(None, None, None, "it") == "it"  # a DM to someone never seen


def test_the_terminal_default_follows_the_environment(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    assert from_environment() == "el"
    monkeypatch.setenv("LANGUAGE", "et:en")
    assert from_environment() == "et"
    monkeypatch.setenv("LANGUAGE", "pt_BR")
    assert from_environment() == "en"
