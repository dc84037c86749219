"""``/privacy export``'s data (``bot.store.privacy.export_member``) on real games' rows, on both backends: every row
that names the member is in it, and nothing of anyone else; a lobby they only left is found by their name, and
deleting them then leaves that name nowhere either."""

from __future__ import annotations

import json
from typing import Any

from bot.store import SQL, Store, open_store, privacy, repo
from bot.store import tournaments as store_t
from cogs.privacy import deleted_name
from tests.service.test_privacy import (
    BRAM,
    CORA,
    GUILD,
    OPTIONS,
    ZEPH,
    add_member_data,
    close,
    everything,
    mentions,
    open_service,
    play,
)

# Every table of the schema that holds no member's id or name, and why. A new table must be named here or in
# privacy.MEMBER_TABLES (then the export copies it): the test below fails until it is. The tournaments' tables
# (store_t.NAMING_TABLES) are exported and anonymised by bot.store.tournaments (test_tournament_privacy.py).
NOT_ABOUT_MEMBERS = {
    "actions": "moves name seats by number",
    "deadlines": "a game's turn deadline",
    "reminders": "a game's reminder message",
    "end_messages": "a finished game's end message still to send",
    "dice_tallies": "dice counts per game and seat number (members are found through games.seats)",
    "guild_settings": "a server's settings",
    "seasons": "a server's seasons (the export names those of the member's ratings)",
    "leases": "which process serves a shard",
    "data_upgrades": "one-off upgrades done",
    "achievement_games": "which finished games were evaluated for achievements",
    "interaction_windows": "a table's latest interaction token and when its window ends",
}
COLUMNS = SQL(
    sqlite="SELECT name FROM sqlite_master WHERE type = 'table'",
    postgresql="SELECT tablename FROM pg_tables WHERE schemaname = current_schema()",
)


async def test_every_table_is_either_copied_or_holds_no_member(database):
    store = await open_store(database)
    try:
        tables = {r[0] for r in await store.fetch_all(COLUMNS)} - {"schema_version"}
        assert tables == {*privacy.MEMBER_TABLES, "games", *store_t.NAMING_TABLES, *NOT_ABOUT_MEMBERS}
    finally:
        await store.close()


def as_sent(value: Any) -> Any:
    """A row's value as the export writes it (a Discord-sized integer as text)."""
    return str(value) if isinstance(value, int) and abs(value) > privacy.EXACT else value


async def table_rows(store: Store, table: str, user_id: int) -> list[dict[str, Any]]:
    rows = await store.fetch_all(f"SELECT * FROM {table} WHERE user_id = ?", (user_id,))
    return [{k: as_sent(r[k]) for k in r.keys() if k != "user_id"} for r in rows]  # noqa: SIM118


async def test_the_export_holds_every_row_that_names_the_member_and_nothing_of_the_others(database):
    service = await open_service(database)
    store = service.store
    try:
        games = [await play(service, game, seed) for seed, game in enumerate(OPTIONS)]
        await add_member_data(store)
        await store.write([privacy.set_opted_out(ZEPH.id, True)])
        await store.write(repo.compact_game(games[0]))
        data = json.loads(privacy.export_bytes(await privacy.export_member(store, ZEPH.id, [ZEPH.name])))

        assert data["format"] == privacy.EXPORT_FORMAT and data["user_id"] == str(ZEPH.id)
        assert data["settings"] == {
            "dms_closed": 1,
            "dms_closed_at": 5.0,
            "language": "de",
            "discord_locale": "de",
            "opted_out": 1,
        }
        for table in ("results", "ratings", "rating_history", "achievements"):
            expected = await table_rows(store, table, ZEPH.id)
            assert expected and sorted(data[table], key=repr) == sorted(expected, key=repr), table
        assert {r["season"] for r in data["ratings"]} == {0, 7}  # the games rated season 0, the test's rows 7
        assert [(s["guild_id"], s["number"]) for s in data["seasons"]] == [(str(GUILD), 0), (str(GUILD), 7)]
        assert data["stats"] == {
            str(GUILD): {
                game: {k: getattr(row, k) for k in ("games", "wins", "losses", "neutral", "best_score", "total_score")}
                for game, row in (await repo.player_stats(store, GUILD, ZEPH.id)).items()
            }
        }
        assert [g["id"] for g in data["games"]] == sorted(games)
        assert all(g["host"] and g["seats"] == [{"seat": 1, "name": ZEPH.name}] for g in data["games"])
        assert {g["game"] for g in data["games"]} == set(OPTIONS) and data["games"][0]["status"] == "finished"

        # Every row of every table that names them is in the export; the others' are not.
        found = mentions(await everything(store), str(ZEPH.id), ZEPH.name)
        in_tables = {line.split(":", 1)[0] for line in found}
        assert in_tables == {"games", "results", "ratings", "rating_history", "achievements", "users"}
        text = json.dumps(data)
        assert str(BRAM.id) not in text and BRAM.name not in text and CORA.name not in text
    finally:
        await close(service)


async def test_a_lobby_they_only_left_is_found_by_name_and_deleting_leaves_the_name_nowhere(database):
    """Coralie joined and left each lobby: the log's "left" event names her without her id."""
    service = await open_service(database)
    store = service.store
    try:
        for seed, game in enumerate(OPTIONS):
            await play(service, game, seed)
        before = await everything(store)
        games = sorted(r[0] for r in before["games"] if CORA.name in r[11])  # a long game's log lost the event
        assert games and mentions(before, str(CORA.id)) == []  # there is something to find, by name only
        data = await privacy.export_member(store, CORA.id, [CORA.name])
        assert [(g["id"], g["seats"], g["named_in_log"]) for g in data["games"]] == [
            (game_id, [], [CORA.name]) for game_id in games
        ]
        assert (data["settings"], data["results"], data["ratings"]) == (None, [], [])

        done = await privacy.delete_member(store, CORA.id, deleted_name, [CORA.name])
        assert done.games == len(games) and done.results == 0
        after = await everything(store)
        assert mentions(after, CORA.name, "Coralie", str(CORA.id)) == []
        logs = [json.loads(r[11])["log"] for r in after["games"] if r[0] in games]
        assert all(["left", {"name": "deleted player"}] in log for log in logs)
        assert mentions(after, ZEPH.name) and mentions(after, BRAM.name)  # the others are as they were
        empty = await privacy.export_member(store, CORA.id, [CORA.name])
        assert empty["games"] == [] and empty["settings"] is None
    finally:
        await close(service)


async def test_a_name_someone_seated_there_shares_stays_theirs(database):
    """Deleting a member named like a player still seated at a table they left leaves that player's name."""
    service = await open_service(database)
    store = service.store
    try:
        game_id = await play(service, "pig", 4)
        done = await privacy.delete_member(store, CORA.id + 100, deleted_name, [BRAM.name])
        assert done.games == 0
        record = await store.fetch_one("SELECT seats FROM games WHERE id = ?", (game_id,))
        assert BRAM.name in record[0]
    finally:
        await close(service)


async def test_a_member_the_bot_never_met_exports_nothing(database):
    store = await open_store(database)
    try:
        data = await privacy.export_member(store, ZEPH.id, [ZEPH.name])
        assert data == {
            "format": privacy.EXPORT_FORMAT,
            "user_id": str(ZEPH.id),
            "settings": None,
            "results": [],
            "ratings": [],
            "achievements": [],
            "rating_history": [],
            "tournament_entrants": [],
            "stats": {},
            "seasons": [],
            "games": [],
            "tournaments": [],
        }
    finally:
        await store.close()
