"""One path for a click (issue 11): the table surface and the game cogs are typed attributes of the bot, a
refusal or a failure is answered once through one error path, and a held table is released however the
block that showed it ends."""

from __future__ import annotations

import asyncio
import logging
import sys
from types import SimpleNamespace

import pytest

from bot.games.dice import ScriptedDice
from cogs.utils.presenter import DiscordPresenter
from tests.e2e.conftest import World
from tests.e2e.test_pig_e2e import open_pig_table
from tests.fakediscord import handlers_done
from tests.waiting import DEADLINE

GAMES = {"pig", "mia", "mex", "liar", "mythic"}


async def test_the_table_surface_and_every_game_cog_are_attributes_of_the_bot(world: World):
    async with world.bot() as bot:
        assert bot.table_ui is bot.get_cog("Tables")
        assert set(bot.game_cogs) == GAMES
        assert all(cog.game == game and bot.get_cog(type(cog).__name__) is cog for game, cog in bot.game_cogs.items())
        await bot.remove_cog("Pig")
        assert "pig" not in bot.game_cogs  # a cog that is unloaded unregisters itself


async def test_a_refused_command_is_answered_once_privately_and_logs_nothing(world: World, caplog):
    caplog.set_level(logging.WARNING)
    async with world.bot():
        record = await world.fake.slash(world.alice, world.channel, "pig", "join")
        reply = await record.response()
        assert reply.ephemeral and reply.text.startswith("⚠️") and "Something went wrong" not in reply.text
        await handlers_done()  # the command and the tree-wide error handler have both ended
        assert record.followups == []  # the tree-wide handler did not answer it a second time
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_an_unexpected_failure_in_a_command_is_logged_once_and_answered_once(world: World, caplog):
    caplog.set_level(logging.WARNING)
    async with world.bot() as bot:
        assert not (await world.slash(world.alice, "pig", "new")).ephemeral

        async def broken_join(*args, **kwargs):
            raise RuntimeError("boom")

        bot.tables.join = broken_join
        record = await world.fake.slash(world.bob, world.channel, "pig", "join")
        reply = await record.response()
        assert reply.ephemeral and "Something went wrong" in reply.text
        await handlers_done()
        assert record.followups == []
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "pig join" in errors[0].getMessage()


def fake_table(table_id: int = 7) -> SimpleNamespace:
    return SimpleNamespace(
        id=table_id, version=3, status="running", host_id=1, seats=[SimpleNamespace(id=1)], locale="en"
    )


async def test_holding_releases_with_what_the_block_showed():
    presenter = DiscordPresenter(bot=None)  # type: ignore[arg-type]
    table = fake_table()
    async with presenter.holding(table) as held:
        assert presenter._held[table.id] == 1  # the paced editor keeps off the table message meanwhile
        held.shown = presenter.look(table)
    assert presenter._held[table.id] == 0 and presenter._shown[table.id] == presenter.look(table)


async def test_holding_is_released_when_the_block_fails_and_records_nothing_it_did_not_show():
    presenter = DiscordPresenter(bot=None)  # type: ignore[arg-type]
    table = fake_table()
    with pytest.raises(RuntimeError):
        async with presenter.holding(table):
            async with presenter.holding(table):  # holds nest, as hold() counts
                assert presenter._held[table.id] == 2
            raise RuntimeError("the response failed")
    assert presenter._held[table.id] == 0 and table.id not in presenter._shown


# -- one object answers a click (issue 23) ------------------------------------------------------


async def test_a_click_on_the_message_and_one_that_raced_its_redraw_are_each_answered_once(world: World):
    """Both take the one entry point: the control's DynamicItem answers nothing, so neither is answered twice."""
    async with world.bot(ScriptedDice([3, 4, 5])) as bot:
        board = await open_pig_table(world)
        stale = next(c for c in board.custom_ids() if c.endswith(":roll"))
        record = await world.fake.click(world.alice, board, stale)
        assert (await record.response()).type == 7  # the response redrew the table message
        await handlers_done()
        assert len(record.callbacks) == 1 and record.followups == []
        assert stale not in board.custom_ids()  # redrawn with the new version's controls
        data = {"custom_id": stale, "component_type": 2}
        raced = await world.fake._component_interaction(world.alice, board, stale, data, None, DEADLINE)
        reply = await raced.response()
        assert reply.ephemeral and "already applied" in reply.text
        await handlers_done()
        assert len(raced.callbacks) == 1 and raced.followups == []
        assert bot.tables.table(world.channel.id).state.rolls_this_turn == 1
    world.fake.assert_no_problems()


async def test_a_move_still_busy_near_the_deadline_is_deferred_and_then_shown(world: World, monkeypatch):
    """Click.answer defers a click whose work runs long (a deferred update: the 3 s deadline holds), then edits
    the table message through the interaction's original response."""
    async with world.bot(ScriptedDice([3, 4, 5])) as bot:
        board = await open_pig_table(world)
        act = bot.tables.act

        async def slow_act(*args, **kwargs):
            await asyncio.sleep(0.3)
            return await act(*args, **kwargs)

        surface = sys.modules["cogs.tables"]  # the module the bot loaded (load_extension runs it anew)
        monkeypatch.setattr(surface, "DEFER_AFTER", 0.05)
        monkeypatch.setattr(bot.tables, "act", slow_act)
        roll = next(c for c in board.custom_ids() if c.endswith(":roll"))
        record = await world.fake.click(world.alice, board, roll)
        assert (await record.response()).type == 6  # deferred update: nothing shown yet, the deadline is met
        await world.fake.wait_for(lambda: roll not in board.custom_ids(), what="the table message redrawn")
        await handlers_done()
        assert len(record.callbacks) == 1 and record.followups == []
        assert bot.tables.table(world.channel.id).state.rolls_this_turn == 1
    world.fake.assert_no_problems()
