"""Mythical Dice with D-tables.patch and D-render-mythic.patch applied: a roll is one click on the table message.

The table's roll menu names die types (every type of the bag, the same for everyone: it tells nothing of a hand);
the player to roll picks a type they hold and one of their dice of it is rolled. A type they do not hold, a die
that does not follow suit, a pick out of turn: each is refused privately with its reason and changes nothing. A
bid from the table's menu is followed by the bidder's own view (their bid, their hand, their dice to roll).
"""

from __future__ import annotations

import re
from typing import Any

from bot.games.dice import ScriptedDice
from bot.games.mythical_dice import DIE_TYPES, FACES
from tests.e2e.conftest import World
from tests.fakediscord import FakeMessage

RED, YELLOW, PURPLE, GRAY = 6, 13, 20, 28  # die ids in the standard bag
DIE_ID = re.compile(r"^play:\d+$")


def roll(kind: str, face: str) -> int:
    return FACES[kind].index(face) + 1


def options(message: FakeMessage) -> list[str]:
    return [o["value"] for c in message.all_components() for o in c.get("options", [])]


async def pick(world: World, user: Any, message: FakeMessage, value: str) -> Any:
    cid = next(
        str(c["custom_id"]) for c in message.all_components() if value in [o["value"] for o in c.get("options", [])]
    )
    return await (await world.fake.select(user, message, cid, [value])).response()


async def test_a_roll_is_one_click_on_the_table_and_bad_picks_are_refused(world: World):
    faces = [roll("red", "7"), roll("yellow", "5"), roll("purple", "3")]
    faces += [roll("purple", "2"), roll("purple", "3"), roll("gray", "1")]
    dice = ScriptedDice(faces=faces, samples=[[RED, YELLOW, PURPLE], [GRAY, GRAY + 1, YELLOW, PURPLE + 1, RED, PURPLE]])
    async with world.bot(dice) as bot:
        board = (await world.slash(world.alice, "mythic", "new", first_start_player="host")).expect_message()
        for user in (world.bob, world.carol):
            await world.click(user, board, "join")
        await world.click(world.alice, board, "start")
        table = bot.tables.table(world.channel.id)
        await world.fake.settle()
        # a bid from the table's menu: the table is redrawn, and the bidder's own view follows
        record = await world.fake.select(
            world.alice, board, next(c for c in board.custom_ids() if c.endswith(":bid")), ["bid:0"]
        )
        reply = await record.response()
        assert reply.type == 7
        (own,) = await record.wait_followups(1)
        assert own.ephemeral and own.visible_to == world.alice.id and "You bid **0**" in own.text
        assert options(own) == [f"play:{RED}"]  # her hand, to roll from when her turn comes
        for user in (world.bob, world.carol):
            await world.slash(user, "mythic", "bid", tricks=0)
        await world.fake.wait_for(lambda: "play:red" in options(board), what="the table's roll menu")
        assert sorted(v for v in options(board)) == sorted(f"play:{k}" for k in DIE_TYPES)  # every type, no hand
        assert (await pick(world, world.alice, board, "play:red")).type == 7  # one click on the table
        assert table.state.hands[0] == []
        await world.fake.settle()
        for user, kind in ((world.bob, "yellow"), (world.carol, "purple")):
            assert (await pick(world, user, board, f"play:{kind}")).type == 7
            await world.fake.settle()
        assert table.state.hand_no == 2
        for user in (world.alice, world.bob, world.carol):
            await world.slash(user, "mythic", "bid", tricks=1)
        await world.fake.wait_for(lambda: "play:red" in options(board), what="the table's roll menu")

        async def refused(user: Any, value: str, reason: str) -> None:
            before = (table.engine.dumps(table.state), table.version)
            reply = await pick(world, user, board, value)
            assert reply.ephemeral and reply.text.startswith("⚠️") and reason in reply.text, reply.text
            assert (table.engine.dumps(table.state), table.version) == before
            await world.fake.settle()

        await refused(world.carol, "play:red", "not your turn")
        await refused(world.bob, "play:gray", "not in your hand")
        assert (await pick(world, world.bob, board, "play:purple")).type == 7 and table.state.hands[1] == [YELLOW]
        await world.fake.settle()
        await refused(world.carol, "play:red", "follow the suit")
        assert (await pick(world, world.carol, board, "play:purple")).type == 7 and table.state.hands[2] == [RED]
        await bot.presenter.drain()
        for message in world.fake.channel_messages(world.channel):
            if not message.ephemeral:
                for version in message.history:
                    assert not [v for v in options_of(version.components) if DIE_ID.match(v)]
    world.fake.assert_no_problems()


def options_of(components: list[dict[str, Any]]) -> list[str]:
    out, stack = [], list(components)
    while stack:
        comp = stack.pop()
        out += [o["value"] for o in comp.get("options", [])]
        stack += comp.get("components", [])
    return out
