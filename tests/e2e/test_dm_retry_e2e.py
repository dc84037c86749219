"""A player marked "DMs closed" is not locked out of DMs for good: the mark expires, and the 🎲 My dice reply has
a "Send my dice by DM" button that tries at once. bob's DMs start closed (see conftest)."""

from __future__ import annotations

from typing import Any

from bot.games.dice import SeededDice
from bot.render import dice_text
from tests.e2e.conftest import World
from tests.fakediscord import FakeMessage
from tests.waiting import DEADLINE, eventually

RETRY = "📬 Send my dice by DM"


async def liar_table(world: World, bot: Any) -> tuple[FakeMessage, Any]:
    board = (await world.slash(world.alice, "liar", "new", mode="lose_die", dice_per_player=2)).expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    assert (await world.click(world.alice, board, "start")).type == 7
    table = bot.tables.table(world.channel.id)
    await world.fake.wait_for(lambda: world.bob.id in bot.presenter.dms_closed, what="bob's DMs-closed mark")

    async def stored() -> bool:  # the presenter marks him in memory, then writes the mark
        row = await users_row(bot, world.bob)
        return row is not None and bool(row["dms_closed"])

    await eventually(stored, what="bob's DMs-closed mark in the store")
    return board, table


async def next_round(bot: Any, table: Any) -> None:
    """Play to the next deal: the smallest bid, then a challenge (each deal DMs every hand)."""
    round_no = table.state.round_no
    while table.running and table.state.round_no == round_no:
        seat = table.state.current
        legal = [a.encode() for a in table.engine.legal_actions(table.state, seat)]
        move = "challenge" if "challenge" in legal else legal[0]
        await bot.tables.act(table.channel_id, table.seats[seat].id, move)


async def users_row(bot: Any, user: Any) -> Any:
    return await bot.store.fetch_one("SELECT dms_closed, dms_closed_at FROM users WHERE user_id = ?", (user.id,))


async def test_the_retry_button_says_dms_are_still_closed_then_sends_at_once_and_clears_the_mark(world: World):
    async with world.bot(SeededDice(3)) as bot:
        board, table = await liar_table(world, bot)
        assert world.fake.dm_attempts_blocked(world.bob) == 1
        me = (await world.click(world.bob, board, "me")).expect_message()
        button = me.button(RETRY)
        assert button["custom_id"] == f"dm:{table.id}"

        reply = await (await world.fake.click(world.bob, me, button["custom_id"])).response()
        assert reply.ephemeral and "still closed" in reply.text and "Privacy settings" in reply.text
        assert "Direct messages" in reply.text
        assert world.fake.dms(world.bob) == [] and world.bob.id in bot.presenter.dms_closed

        world.bob.dms_open = True  # bob opens his DMs and presses again: the DM goes at once
        reply = await (await world.fake.click(world.bob, me, button["custom_id"])).response()
        assert reply.ephemeral and "in your DMs" in reply.text
        (dm,) = world.fake.dms(world.bob)
        assert dice_text(table.state.hands[1]) in dm.text and "Liar" in dm.text
        assert world.bob.id not in bot.presenter.dms_closed
        assert (await users_row(bot, world.bob))["dms_closed"] == 0

        me = (await world.click(world.bob, board, "me")).expect_message()
        assert RETRY not in [b.get("label") for b in me.buttons()]  # nothing to retry any more
        data = {"custom_id": button["custom_id"], "component_type": 2}  # a click that raced the reply's redraw
        record = await world.fake._component_interaction(world.bob, me, button["custom_id"], data, None, DEADLINE)
        reply = await record.response()
        assert reply.ephemeral and "in your DMs" in reply.text and len(world.fake.dms(world.bob)) == 2
        await next_round(bot, table)  # the next deal comes by DM again
        await world.fake.wait_for(lambda: len(world.fake.dms(world.bob)) == 3, what="bob's next hand by DM")
    world.fake.assert_no_problems()


async def test_the_dms_closed_mark_expires_after_the_configured_period(world: World):
    async with world.bot(SeededDice(5)) as bot:
        _, table = await liar_table(world, bot)
        marked_at = bot.presenter.dms_closed[world.bob.id]
        assert (await users_row(bot, world.bob))["dms_closed_at"] == marked_at  # stored, for after a restart
        world.bob.dms_open = True  # he opens them; the mark is fresh, so nobody knocks yet

        await next_round(bot, table)
        held = bot.presenter.pending  # what bob's 🎲 My dice will show him: round 1's hand and now round 2's
        await world.fake.wait_for(lambda: len(held.get((table.id, world.bob.id), [])) == 2, what="bob's 2nd hand")
        assert world.fake.dms(world.bob) == []

        bot.presenter.clock = lambda: marked_at + bot.presenter.dm_retry_after + 1  # an hour later
        await next_round(bot, table)
        dm = await world.fake.wait_for_dm(world.bob)
        assert dice_text(table.state.hands[1]) in dm.text
        await world.fake.wait_for(lambda: world.bob.id not in bot.presenter.dms_closed, what="the mark cleared")
        assert world.fake.dm_attempts_blocked(world.bob) == 1  # the one 403 at the start, no more


async def test_a_mark_survives_a_restart_and_still_expires(world: World):
    dice = SeededDice(9)
    async with world.bot(dice) as bot:
        _, table = await liar_table(world, bot)
        marked_at = bot.presenter.dms_closed[world.bob.id]
    async with world.bot(dice) as bot:
        assert bot.presenter.dms_closed == {world.bob.id: marked_at}
        assert bot.presenter.dm_closed(world.bob.id)
        bot.presenter.clock = lambda: marked_at + bot.presenter.dm_retry_after + 1
        assert not bot.presenter.dm_closed(world.bob.id)  # expired: the next secret tries a DM again
