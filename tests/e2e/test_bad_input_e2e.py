"""Issue 10 end to end: bad input through the real client gets an ephemeral catalog refusal, never a traceback."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.dice import ScriptedDice, SeededDice
from tests.e2e.conftest import World
from tests.e2e.test_mythic_e2e import open_table as open_mythic_table
from tests.e2e.test_mythic_e2e import select_id
from tests.e2e.test_pig_e2e import open_pig_table
from tests.waiting import DEADLINE

# Every test here also proves that nothing was logged as an error (a traceback in the bot's log).
pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def raw_component(world: World, user: Any, message: Any, custom_id: str, **data: Any) -> Any:
    """A component interaction with exactly this custom_id and data, whether or not the message has it."""
    payload = {"custom_id": custom_id, "component_type": 2, **data}
    record = await world.fake._component_interaction(user, message, custom_id, payload, None, DEADLINE)
    return await record.response()


def state_of(table: Any) -> tuple[str, int]:
    return table.engine.dumps(table.state), table.version


async def test_mythic_play_with_superscript_or_circled_digits_says_unknown_die(world: World):
    async with world.bot(SeededDice(11)) as bot:
        await open_mythic_table(world)
        table = bot.tables.table(world.channel.id)
        before = state_of(table)
        for die in ("²", "①", "٣"):
            reply = await world.slash(world.alice, "mythic", "play", die=die)
            assert reply.ephemeral and "Unknown die" in reply.text and die in reply.text, reply.text
        assert state_of(table) == before
    world.fake.assert_no_problems()


async def test_settings_options_too_long_or_with_huge_numbers_are_refused_briefly(world: World):
    async with world.bot() as bot:
        reply = await world.slash(world.admin, "settings", "options", game="pig", values="a" * 3000)
        assert reply.ephemeral and "too long (3000 characters" in reply.text and len(reply.text) < 300
        reply = await world.slash(world.admin, "settings", "options", game="pig", values="target=" + "9" * 2500)
        assert reply.ephemeral and "too long (2507 characters" in reply.text and len(reply.text) < 300
        reply = await world.slash(world.admin, "settings", "options", game="pig", values="target=" + "9" * 390)
        assert reply.ephemeral and "`target`" in reply.text and "far smaller number" in reply.text
        assert len(reply.text) < 300
        reply = await world.slash(world.admin, "settings", "options", game="pig", values='target="50')
        assert reply.ephemeral and "⚠️" in reply.text and "a quotation mark is not closed" in reply.text
        reply = await world.slash(world.admin, "settings", "options", game="pig", values="target")
        assert reply.ephemeral and "Invalid option `target`: write options as name=value" in reply.text
        assert await bot.tables.settings(world.guild.id) == {}
    world.fake.assert_no_problems()


async def test_a_forged_bid_button_is_refused_and_changes_nothing(world: World):
    async with world.bot(SeededDice(11)) as bot:
        board = await open_mythic_table(world)
        table = bot.tables.table(world.channel.id)
        before = state_of(table)
        for action in ("bid:²:5", "bid:①", "play:٣"):
            reply = await raw_component(world, world.alice, board, f"dt:{table.id}:{table.version}:{action}")
            assert reply.ephemeral and "not one Dice Tavern drew" in reply.text, reply.text
        reply = await raw_component(world, world.alice, board, f"dt:{table.id}:{table.version}:bid:{'9' * 60}")
        assert reply.ephemeral and "whole number" in reply.text  # ASCII, but too long for a number: the engine's
        reply = await raw_component(world, world.alice, board, f"dt:{'9' * 90}:1:roll")
        assert reply.ephemeral and "⚠️" in reply.text
        assert state_of(table) == before
    world.fake.assert_no_problems()


async def test_a_bid_select_submitted_without_a_value_is_refused(world: World):
    async with world.bot(SeededDice(11)) as bot:
        board = await open_mythic_table(world)
        table = bot.tables.table(world.channel.id)
        mine = (await world.click(world.alice, board, "me")).expect_message()
        menu = select_id(mine, "bid")
        before = state_of(table)
        reply = await raw_component(world, world.alice, mine, menu, component_type=3, values=[])  # on the message
        assert reply.ephemeral and "not one Dice Tavern drew" in reply.text
        stale = menu.replace(f":{table.version}:", f":{table.version + 7}:")  # not on the message
        reply = await raw_component(world, world.alice, mine, stale, component_type=3, values=[])
        assert reply.ephemeral and "not one Dice Tavern drew" in reply.text
        assert state_of(table) == before
    world.fake.assert_no_problems()


async def test_a_roll_button_clicked_again_after_a_restart_rolls_once(world: World):
    dice = ScriptedDice([4, 4, 4, 4])
    async with world.bot(dice):
        board = await open_pig_table(world)
        roll = next(c for c in board.custom_ids() if c.endswith(":roll"))
        assert (await world.click(world.alice, board, "roll")).type == 7
    async with world.bot(dice) as bot:  # a new process; the message is redrawn, the old button still clicks
        reply = await raw_component(world, world.alice, board, roll)
        assert reply.ephemeral and "already applied" in reply.text
        assert bot.tables.table(world.channel.id).state.rolls_this_turn == 1
    world.fake.assert_no_problems()


async def test_the_old_buttons_of_a_closed_or_finished_table_say_it_is_closed(world: World):
    async with world.bot(ScriptedDice([6, 6, 6, 6])) as bot:
        lobby = (await world.slash(world.alice, "pig", "new")).expect_message()
        join = next(c for c in lobby.custom_ids() if c.endswith(":join"))
        assert not (await world.slash(world.alice, "pig", "leave")).text.startswith("⚠️")  # the lobby closes
        assert world.channel.id not in bot.tables.by_channel
        await world.fake.wait_for(lambda: "cancelled" in lobby.text.lower(), what="the closed lobby")
        assert "alice" not in lobby.text  # the closed lobby is shown without the player who left
        reply = await raw_component(world, world.bob, lobby, join)
        assert reply.ephemeral and "closed" in reply.text and "started" not in reply.text

        board = await open_pig_table(world, target=20)
        roll = next(c for c in board.custom_ids() if c.endswith(":roll"))
        for _ in range(4):
            await world.click(world.alice, board, "roll")  # 24: alice wins
        assert world.channel.id not in bot.tables.by_channel
        reply = await raw_component(world, world.alice, board, roll)
        assert reply.ephemeral and "closed" in reply.text and "started" not in reply.text
    world.fake.assert_no_problems()
