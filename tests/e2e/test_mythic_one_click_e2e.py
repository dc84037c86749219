"""Mythical Dice: a roll is one click from the player's open 🎲 My dice reply.

The reply, redrawn in place after each of the player's moves, keeps offering their hand's dice while the others
bid or roll; when their turn comes a pick from it rolls at once (the table service's double-click guard accepts
a control drawn after the player's own last move). A die they may not roll then (the suit led) is refused and
changes nothing. bob's DMs are closed (see conftest): he gets his dice in the reply. Nothing of anyone's hand is
ever on a public message.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games import IllegalMove
from bot.games.dice import ScriptedDice
from bot.games.mythical_dice import FACES, bag_types
from bot.render.mythic import hand_text
from tests.e2e.conftest import World
from tests.fakediscord import FakeMessage

TYPES = bag_types()
RED, YELLOW, PURPLE, GRAY = 6, 13, 20, 28  # die ids in the standard bag (see TYPES)
DIE_ID = re.compile(r"^play:\d+$")


def roll(kind: str, face: str) -> int:
    return FACES[kind].index(face) + 1


def dice_offered(message: FakeMessage) -> list[str]:
    """The ``play:<die id>`` values of every select on the message, wherever it sits in the layout."""
    return [o["value"] for c in message.all_components() for o in c.get("options", []) if DIE_ID.match(o["value"])]


def select_of(message: FakeMessage, value: str) -> str:
    for comp in message.all_components():
        if any(o["value"] == value for o in comp.get("options", [])):
            return str(comp["custom_id"])
    raise AssertionError(f"no select offers {value!r}: {dice_offered(message)}")


async def pick(world: World, user: Any, message: FakeMessage, value: str) -> Any:
    record = await world.fake.select(user, message, select_of(message, value), [value])
    return await record.response()


def public_messages(world: World) -> list[FakeMessage]:
    return [m for m in world.fake.channel_messages(world.channel) if not m.ephemeral]


async def test_a_roll_is_one_click_from_the_open_reply_and_a_closed_dm_still_gets_the_dice(world: World):
    # Hand 1 (alice leads): alice red, bob yellow, carol purple.
    # Hand 2 (bob leads): alice two grays, bob yellow + purple, carol red + purple.
    faces = [roll("red", "7"), roll("yellow", "5"), roll("purple", "3")]  # hand 1
    faces += [roll("purple", "2"), roll("purple", "3"), roll("gray", "1")]  # hand 2, trick 1
    dice = ScriptedDice(faces=faces, samples=[[RED, YELLOW, PURPLE], [GRAY, GRAY + 1, YELLOW, PURPLE + 1, RED, PURPLE]])
    async with world.bot(dice) as bot:
        reply = await world.slash(world.alice, "mythic", "new", first_start_player="host")
        board = reply.expect_message()
        for user in (world.bob, world.carol):
            await world.click(user, board, "join")
        await world.click(world.alice, board, "start")
        table = bot.tables.table(world.channel.id)
        for user in (world.alice, world.bob, world.carol):
            await world.slash(user, "mythic", "bid", tricks=0)
        for user, die in ((world.alice, "red"), (world.bob, "yellow"), (world.carol, "purple")):
            await world.slash(user, "mythic", "play", die=die)
        assert table.state.hand_no == 2
        for user in (world.alice, world.bob, world.carol):
            await world.slash(user, "mythic", "bid", tricks=1)
        assert table.state.phase == "playing" and table.state.current == 1  # bob leads hand 2

        # a control may name a die by its type (a roll menu that shows no hand): one of the player's dice of it
        cog: Any = bot.game_cogs["mythic"]
        assert cog.resolve_action(table, world.alice.id, "play:gray") == f"play:{GRAY}"
        assert cog.resolve_action(table, world.carol.id, "play:red") == f"play:{RED}"  # refused later: not her turn
        with pytest.raises(IllegalMove) as refused_type:
            cog.resolve_action(table, world.alice.id, "play:red")
        assert refused_type.value.code == "die_not_in_hand"
        for action in ("play:dragon", f"play:{RED}", "bid:1"):  # anything else goes to the service as it is
            assert cog.resolve_action(table, world.alice.id, action) == action
        assert cog.resolve_action(table, world.admin.id, "play:red") == "play:red"  # not seated: the service says

        # carol and alice open 🎲 My dice while bob is to roll: their whole hands are offered already
        await world.fake.settle()
        carol = (await world.slash(world.carol, "mythic", "hand")).expect_message()
        assert carol.ephemeral and set(dice_offered(carol)) == {f"play:{RED}", f"play:{PURPLE}"}
        alice = (await world.slash(world.alice, "mythic", "hand")).expect_message()
        assert dice_offered(alice) == [f"play:{GRAY}"]  # two grays: one option (dice of a type are alike)

        # bob's DMs are closed: his reply carries his dice, no DM was delivered
        bob = await world.slash(world.bob, "mythic", "hand")
        assert bob.ephemeral and hand_text(["yellow", "purple"]) in bob.text
        assert world.fake.dms(world.bob) == []
        bob_reply = bob.expect_message()
        assert (await pick(world, world.bob, bob_reply, f"play:{PURPLE + 1}")).type == 7  # one click: bob leads
        assert table.state.hands[1] == [YELLOW] and table.state.current == 2

        # carol's turn, from the reply she opened before bob rolled: red may not be rolled (purple was led)
        before = (table.engine.dumps(table.state), table.version)
        refused = await pick(world, world.carol, carol, f"play:{RED}")
        assert refused.ephemeral and (table.engine.dumps(table.state), table.version) == before
        mine = refused.expect_message()
        assert "follow the suit" in refused.text  # why, not only that the table moved on
        assert dice_offered(mine) == [f"play:{PURPLE}"]  # redrawn as the table stands: the legal die only
        # one click rolls the legal die; the reply, redrawn in place, offers what she has left
        rolled = await pick(world, world.carol, mine, f"play:{PURPLE}")
        assert rolled.type == 7 and rolled.ephemeral and "**carol** rolls 🟪 **3**" in rolled.text
        assert table.state.hands[2] == [RED] and dice_offered(rolled.expect_message()) == [f"play:{RED}"]

        # alice, from the reply she opened before bob and carol rolled: one click
        clicks = len(world.fake.interactions)
        rolled = await pick(world, world.alice, alice, f"play:{GRAY}")
        assert rolled.type == 7 and len(world.fake.interactions) == clicks + 1
        assert len(table.state.hands[0]) == 1 and table.state.trick == []  # the trick is done
        assert dice_offered(rolled.expect_message()) == [f"play:{GRAY + 1}"]

        # nothing of anyone's hand on a public message, ever: no die id among its controls, no "your dice"
        await bot.presenter.drain()
        for message in public_messages(world):
            for version in message.history:
                values = [o["value"] for c in _walk(version.components) for o in c.get("options", [])]
                assert not [v for v in values if DIE_ID.match(v)], values
        assert all("Your dice" not in m.text for m in public_messages(world))
    world.fake.assert_no_problems()


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out, stack = [], list(components)
    while stack:
        comp = stack.pop()
        out.append(comp)
        stack += comp.get("components", [])
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])
    return out
