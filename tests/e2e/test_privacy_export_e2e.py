"""/privacy export end to end (the member's data as a private JSON file, once per ten minutes each), and whom to ask
about one's data: the operator's contact and policy (environment), else the server's ``/settings privacy-contact``,
in /privacy info, /help and /settings show; a contact too long is refused."""

from __future__ import annotations

import json

import pytest

from bot.privacy_contact import CONTACT_ENV, URL_ENV
from cogs.privacy import EXPORT_EVERY
from tests.e2e.conftest import World
from tests.e2e.test_help_e2e import open_help
from tests.e2e.test_history_e2e import play_pig_to_the_end

pytestmark = pytest.mark.usefixtures("no_errors_logged")
UNKNOWN = "Questions or requests: ask whoever runs this bot. More in PRIVACY.md."


async def test_export_sends_the_members_data_privately_once_per_ten_minutes(world: World):
    async with world.bot() as bot:
        game_id = await play_pig_to_the_end(world, bot)
        await world.slash(world.alice, "me", "language", language="en")
        await world.slash(world.alice, "privacy", "optout")

        reply = await world.slash(world.alice, "privacy", "export")
        assert reply.ephemeral and "(games: 1, results: 1)" in reply.text and "Only you can see it" in reply.text
        (attachment,) = reply.expect_message().attachments
        assert attachment["filename"] == f"dicetavern-{world.alice.id}.json"
        data = json.loads(world.fake.attachment_bytes(attachment))
        assert data["user_id"] == str(world.alice.id) and data["exported_at"] == pytest.approx(
            bot.tables.clock(), abs=60
        )
        assert data["settings"]["language"] == "en" and data["settings"]["opted_out"] == 1
        assert [(r["game_id"], r["guild_id"], r["game"]) for r in data["results"]] == [
            (game_id, str(world.guild.id), "pig")
        ]
        assert {r["game"] for r in data["ratings"]} == {"pig", "all"} and len(data["rating_history"]) == 2
        assert data["stats"][str(world.guild.id)]["pig"]["games"] == 1
        assert [(g["id"], g["host"], g["seats"]) for g in data["games"]] == [
            (game_id, True, [{"seat": 1, "name": "alice"}])
        ]
        assert str(world.bob.id) not in json.dumps(data)  # nothing of the other player

        again = await world.slash(world.alice, "privacy", "export")
        assert again.ephemeral and again.text.startswith("⚠️") and "you can ask for another <t:" in again.text
        assert again.message is None or not again.message.attachments
        assert (await world.slash(world.bob, "privacy", "export")).expect_message().attachments  # per member

        now = bot.tables.clock()
        bot.tables.clock = lambda: now + EXPORT_EVERY + 1
        later = await world.slash(world.alice, "privacy", "export")
        assert later.expect_message().attachments
    world.fake.assert_no_problems()


async def test_the_servers_contact_shows_in_privacy_info_help_and_settings(world: World):
    async with world.bot():
        assert (await world.slash(world.alice, "privacy", "info")).text.endswith(UNKNOWN)

        refused = await world.slash(world.admin, "settings", "privacy-contact", text="x" * 201)
        assert refused.ephemeral and refused.text == (
            "⚠️ A privacy contact can be up to 200 characters; this one has 201."
        )

        saved = await world.slash(world.admin, "settings", "privacy-contact", text="  Ask   the mods in #help ")
        assert saved.ephemeral and saved.text.endswith("now read: Ask the mods in #help")
        info = await world.slash(world.alice, "privacy", "info")
        assert info.text.endswith("Questions or requests: Ask the mods in #help (this server's contact).")
        overview = (await open_help(world, world.carol)).text
        assert "🔒 Your data: `/privacy info` · Questions or requests: Ask the mods in #help" in overview
        assert len(overview) <= 1500
        assert "Privacy contact: Ask the mods in #help" in (await world.slash(world.admin, "settings", "show")).text
        dm = await (await world.fake.slash(world.alice, None, "privacy", "info")).response()
        assert dm.text.endswith(UNKNOWN)  # a DM is no server's: the server's contact is not shown there

        await world.slash(world.admin, "settings", "privacy-contact", text="https://example.org/ask")
        assert (
            "Questions or requests: <https://example.org/ask>" in (await world.slash(world.bob, "privacy", "info")).text
        )
        cleared = await world.slash(world.admin, "settings", "privacy-contact")
        assert "no privacy contact of its own" in cleared.text
        assert (await world.slash(world.alice, "privacy", "info")).text.endswith(UNKNOWN)
    world.fake.assert_no_problems()


async def test_the_operators_contact_and_policy_come_first(world: World, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(CONTACT_ENV, "privacy@tavern.example")
    monkeypatch.setenv(URL_ENV, "https://tavern.example/privacy")
    async with world.bot():
        await world.slash(world.admin, "settings", "privacy-contact", text="the mods")
        info = (await world.slash(world.alice, "privacy", "info")).text
        assert info.endswith(
            "Questions or requests: privacy@tavern.example (who runs this bot).\n"
            "Privacy policy: [tavern.example/privacy](https://tavern.example/privacy)"
        )
        assert "the mods" not in info
        overview = (await open_help(world, world.carol)).text
        assert "privacy@tavern.example (who runs this bot). · Privacy policy: [tavern.example/privacy]" in overview
    world.fake.assert_no_problems()
