"""/privacy end to end: what is stored, deleting a member's data with a confirm button (after a finished game, across
a restart), cancel, someone else's click, an expired confirmation, a member still seated, and the opt-out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games.fair import FairDice
from tests.e2e.conftest import World
from tests.e2e.test_history_e2e import play_pig_to_the_end
from tests.fakediscord import FakeMessage
from tests.waiting import DEADLINE

# Every test here also proves that nothing was logged as an error (a traceback in the bot's log).
pytestmark = pytest.mark.usefixtures("no_errors_logged")


def button(message: FakeMessage, way: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith(f"pv:{way}:"))


async def click(world: World, user: Any, message: FakeMessage, custom_id: str) -> Any:
    """A click on ``custom_id`` by ``user``, seen or not (an ephemeral message is its asker's only: a forged click)."""
    data = {"custom_id": custom_id, "component_type": 2}
    record = await world.fake._component_interaction(user, message, custom_id, data, None, DEADLINE)
    return await record.response()


async def everything(bot: Any) -> dict[str, list[tuple[Any, ...]]]:
    tables = [r[0] for r in await bot.store.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {name: [tuple(r) for r in await bot.store.fetch_all(f'SELECT * FROM "{name}"')] for name in tables}


def found(rows: dict[str, list[tuple[Any, ...]]], needle: str) -> list[str]:
    return [f"{t}: {r}" for t, table_rows in rows.items() for r in table_rows if any(needle in str(v) for v in r)]


async def ask_to_delete(world: World, user: Any) -> FakeMessage:
    reply = await world.slash(user, "privacy", "delete")
    assert reply.ephemeral and "cannot be undone" in reply.text and "“deleted player”" in reply.text
    message = reply.expect_message()
    assert [b["label"] for b in message.buttons()] == ["Delete my data", "Cancel"]
    return message


async def test_privacy_info_in_a_server_and_in_dms(world: World):
    async with world.bot():
        reply = await world.slash(world.alice, "privacy", "info")
        assert reply.ephemeral and "Your data at Dice Tavern" in reply.text
        assert "Discord id" in reply.text and "90 days after the game ends" in reply.text
        assert "`/privacy delete`" in reply.text and "`/privacy optout`" in reply.text and "PRIVACY.md" in reply.text
        dm = await (await world.fake.slash(world.alice, None, "privacy", "info")).response()
        assert "Your data at Dice Tavern" in dm.text
    world.fake.assert_no_problems()


async def test_delete_after_a_finished_game_across_a_restart(world: World):
    async with world.bot(FairDice.new) as bot:
        game_id = await play_pig_to_the_end(world, bot)
        await world.slash(world.alice, "me", "language", language="en")  # a users row to delete
        assert f"<@{world.alice.id}>" in (await world.slash(world.carol, "leaderboard")).text
        confirm = await ask_to_delete(world, world.alice)

    async with world.bot(FairDice.new) as bot:  # the buttons survive a restart
        reply = await click(world, world.alice, confirm, button(confirm, "yes"))
        assert reply.type == 7 and "Done." in confirm.text and "1 game now shows “deleted player”" in confirm.text
        assert confirm.buttons() == []
        assert world.alice.id not in bot.presenter.user_language

        rows = await everything(bot)
        assert found(rows, str(world.alice.id)) == [] and found(rows, "alice") == []
        assert f"<@{world.alice.id}>" not in (await world.slash(world.carol, "leaderboard")).text
        assert "No finished games" in (await world.slash(world.alice, "history", member=world.alice.id)).text
        theirs = await world.slash(world.bob, "history", member=world.bob.id)
        assert f"`#{game_id}`" in theirs.text and "deleted player, bob" in theirs.text
        replayed = await world.slash(world.bob, "game", "replay", game=game_id)
        assert "Replay of Pig" in replayed.text and "deleted player" in replayed.text
        verified = await world.slash(world.bob, "game", "verify", game=game_id)
        assert "✓" in verified.text
        exported = (await world.slash(world.bob, "game", "export", game=game_id)).expect_message()
        export = json.loads(world.fake.attachment_bytes(exported.attachments[0]))
        assert export["players"] == ["deleted player", "bob"]
    world.fake.assert_no_problems()


async def test_cancel_and_someone_elses_click_change_nothing(world: World):
    async with world.bot() as bot:
        await play_pig_to_the_end(world, bot)
        confirm = await ask_to_delete(world, world.alice)
        before = await everything(bot)

        refused = await click(world, world.bob, confirm, button(confirm, "yes"))
        assert refused.ephemeral and "Only the member who asked" in refused.text
        assert confirm.buttons() != [] and await everything(bot) == before

        reply = await click(world, world.alice, confirm, button(confirm, "no"))
        assert reply.type == 7 and "Cancelled: nothing was deleted." in confirm.text and confirm.buttons() == []
        assert await everything(bot) == before
    world.fake.assert_no_problems()


async def test_an_expired_confirmation_deletes_nothing(world: World):
    async with world.bot() as bot:
        await play_pig_to_the_end(world, bot)
        confirm = await ask_to_delete(world, world.alice)
        before = await everything(bot)
        now = bot.tables.clock()
        bot.tables.clock = lambda: now + 301
        await click(world, world.alice, confirm, button(confirm, "yes"))
        assert "expired: nothing was deleted" in confirm.text and confirm.buttons() == []
        assert await everything(bot) == before
    world.fake.assert_no_problems()


async def test_a_member_seated_at_an_open_table_is_refused(world: World):
    async with world.bot() as bot:
        await play_pig_to_the_end(world, bot)
        confirm = await ask_to_delete(world, world.alice)  # asked while free, confirmed once seated
        await world.slash(world.bob, "pig", "new")
        board = world.fake.channel_messages(world.channel)[-1]
        await world.click(world.alice, board, "join")
        lobby = bot.tables.table(world.channel.id).id
        before = await everything(bot)

        refused = await world.slash(world.alice, "privacy", "delete")
        assert refused.ephemeral and f"still open (game #{lobby})" in refused.text and refused.text.startswith("⚠️")
        reply = await click(world, world.alice, confirm, button(confirm, "yes"))
        assert reply.ephemeral and f"still open (game #{lobby})" in reply.text
        assert await everything(bot) == before

        await world.click(world.alice, board, "leave")  # then it goes through
        await click(world, world.alice, confirm, button(confirm, "yes"))
        assert "Done." in confirm.text
    world.fake.assert_no_problems()


async def test_optout_and_optin(world: World):
    async with world.bot() as bot:

        async def flag() -> int | None:
            row = await bot.store.fetch_one("SELECT opted_out FROM users WHERE user_id = ?", (world.carol.id,))
            return None if row is None else row[0]

        assert await flag() is None
        reply = await world.slash(world.carol, "privacy", "optout")
        assert reply.ephemeral and "kept off every leaderboard" in reply.text and await flag() == 1
        reply = await world.slash(world.carol, "privacy", "optin")
        assert reply.ephemeral and "shown on leaderboards again" in reply.text and await flag() == 0
    world.fake.assert_no_problems()
