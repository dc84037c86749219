"""Achievements end to end (issue 28), on both databases: a game that earns achievements names them in one line of
its end message, /achievements lists them with their rarity on the server (and the locked ones), /stats shows them;
an opted-out member's list is theirs alone and leaves the rarity; games in the database from before the
achievements existed (migration 0015) get theirs when the bot starts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.games.dice import ScriptedDice
from bot.store import open_store
from tests.e2e.conftest import World, new_world
from tests.fakediscord import FakeDiscord

# Every test here also proves that nothing was logged as an error (a traceback in the bot's log).
pytestmark = pytest.mark.usefixtures("no_errors_logged")

EARNED = ("All in one go", "Never a one", "First win")  # pig_one_turn_win, pig_no_bust, first_win


@pytest.fixture
async def tavern(database: str) -> AsyncIterator[World]:
    """The tavern of tests/e2e/conftest.py on the test's database: SQLite, then PostgreSQL."""
    async with FakeDiscord() as fake:
        yield new_world(fake, database)


async def one_turn_pig(world: World, bot: Any, dice: ScriptedDice, host: Any, guest: Any) -> int:
    """Pig to 20: ``host`` starts (the scripted draw) and rolls 6, 6, 6, 2: the automatic hold at 20 wins."""
    board = (await world.slash(host, "pig", "new", target=20)).expect_message()
    await world.click(guest, board, "join")
    dice.samples.append([0])
    await world.click(host, board, "start")
    table = bot.tables.table(world.channel.id)
    for face in (6, 6, 6, 2):
        dice.push(face)
        reply = await world.slash(host, "pig", "roll")
        assert not reply.text.startswith("⚠️"), reply.text
    assert table.status == "finished"
    return int(table.id)


async def test_a_game_that_earns_names_them_at_its_end_and_achievements_and_stats_list_them(tavern: World):
    world, dice = tavern, ScriptedDice()
    async with world.bot(dice) as bot:
        game_id = await one_turn_pig(world, bot, dice, world.alice, world.bob)
        final = await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.text)
        line = next(x for x in final.text.split("\n") if x.startswith("🏅"))
        assert line == f"🏅 New achievements: <@{world.alice.id}> {', '.join(EARNED)}"
        assert f"<@{world.bob.id}>" not in line

        mine = await world.slash(world.alice, "achievements")
        assert mine.ephemeral
        text = mine.text
        assert "3 of 29 earned on this server" in text
        for name in EARNED:
            assert f"🏅 **{name}**" in text
        assert "Win with a single hold: the whole score banked in one turn." in text  # the rule
        assert text.count("50% of players on this server") == 3  # Alice of Alice and Bob
        assert "Pig · <t:" in text and "Across games · <t:" in text
        assert "🔒 **Big bank** — Bank 30 points or more in one turn." in text  # a locked one, with its rule
        assert "### Still to earn" in text

        bobs = await world.slash(world.bob, "achievements")
        assert "0 of 29 earned on this server" in bobs.text and "No achievement yet" in bobs.text
        theirs = await world.slash(world.bob, "achievements", member=world.alice, game="pig")
        assert "2 of 5 earned on this server" in theirs.text and "First win" not in theirs.text
        assert "🔒 **Snake eyes** — With two dice, roll double ones when they are worth 25." in theirs.text

        stats = await world.slash(world.alice, "stats")
        assert "🏅 Achievements (3 of 29): All in one go (50%), Never a one (50%), First win (50%)" in stats.text
        assert "🏅 No achievements yet" in (await world.slash(world.bob, "stats")).text

        # Bob opts out: he leaves the rarity, and his list (empty or not) is his alone.
        await world.slash(world.bob, "privacy", "optout")
        assert "100% of players on this server" in (await world.slash(world.alice, "achievements")).text
        hidden = await world.slash(world.alice, "achievements", member=world.bob)
        assert hidden.ephemeral and hidden.text == "bob opted out: their achievements are theirs to look at."
        assert "0 of 29 earned" in (await world.slash(world.bob, "achievements")).text
        assert game_id > 0
        assert "`/achievements`" in (await world.slash(world.carol, "help")).text  # /help reads the tree
    world.fake.assert_no_problems()


async def test_games_from_before_achievements_get_theirs_when_the_bot_starts(tavern: World, database: str):
    world, dice = tavern, ScriptedDice()
    async with world.bot(dice) as bot:
        await one_turn_pig(world, bot, dice, world.carol, world.alice)
        await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.text)
    await forget_achievements(database)  # the database as it was before migration 0015

    async with world.bot(dice) as bot:
        cog = bot.get_cog("Achievements")
        assert cog is not None and cog.backfill is not None
        assert await cog.backfill.wait() == 1
        text = (await world.slash(world.carol, "achievements")).text
        assert "3 of 29 earned on this server" in text and text.count("50% of players on this server") == 3
        stats = await world.slash(world.carol, "stats")
        assert "🏅 Achievements (3 of 29): All in one go (50%)" in stats.text
        ends = [m for m in world.fake.channel_messages(world.channel) if "is over" in m.text]
        assert len(ends) == 1  # the old game's end is not announced again
    world.fake.assert_no_problems()


async def forget_achievements(database: str) -> None:
    """Drop the tables of migration 0015 and after (0016: interaction_windows) and set the schema back to 0014, as
    an older bot left its database."""
    store = await open_store(database)
    drops = [(f"DROP TABLE {name}", ()) for name in ("achievements", "achievement_games", "interaction_windows")]
    try:
        if store.dialect == "sqlite":
            await store.write(drops)
            await store.write([("PRAGMA user_version = 14", ())])
        else:
            await store.write([*drops, ("UPDATE schema_version SET version = 14", ())])
    finally:
        await store.close()
