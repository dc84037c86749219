"""The host's lobby tools end to end: `/<game> kick`, `/<game> host`, and the host's select on the table message."""

from __future__ import annotations

from tests.e2e.conftest import World


def host_menu(board) -> str:
    return next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":host"))


def menu_values(board) -> list[str]:
    return [o["value"] for o in board.find_component(host_menu(board))["options"]]


async def pick(world: World, user, board, value: str):
    return await (await world.fake.select(user, board, host_menu(board), [value])).response()


async def test_the_host_removes_and_promotes_players_by_slash_command(world: World):
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "mia", "new")).expect_message()
        await world.click(world.bob, board, "join")
        await world.click(world.carol, board, "join")
        table = bot.tables.table(world.channel.id)

        choices = await world.fake.autocomplete(world.alice, world.channel, "mia", "kick", options={"player": "b"})
        assert choices == [{"name": "bob", "value": str(world.bob.id)}]
        choices = await world.fake.autocomplete(world.alice, world.channel, "mia", "host", options={"player": ""})
        assert [c["name"] for c in choices] == ["bob", "carol"]  # people other than the host

        reply = await world.slash(world.carol, "mia", "kick", player="bob")
        assert reply.ephemeral and "Only the host or a server manager can remove" in reply.text
        reply = await world.slash(world.alice, "mia", "kick", player="dave")
        assert reply.ephemeral and "no player called **dave**" in reply.text
        reply = await world.slash(world.alice, "mia", "kick", player="alice")
        assert reply.ephemeral and "can't remove yourself" in reply.text
        assert [s.id for s in table.seats] == [world.alice.id, world.bob.id, world.carol.id]

        reply = await world.slash(world.alice, "mia", "kick", player=str(world.bob.id))  # an autocomplete pick
        assert reply.ephemeral and reply.text == "**bob** was removed from the lobby."
        await world.fake.wait_for(lambda: "🚪 **bob** was removed from the lobby." in board.text)
        assert "2. carol" in board.text and "bob\n" not in board.text

        reply = await world.slash(world.alice, "mia", "host", player="Carol")
        assert reply.ephemeral and reply.text == "**carol** is now the host."
        await world.fake.wait_for(lambda: "carol 👑" in board.text and "👑 **carol** is now the host." in board.text)
        reply = await world.slash(world.alice, "mia", "host", player="alice")
        assert reply.ephemeral and "Only the host or a server manager can hand over" in reply.text
        reply = await world.slash(world.carol, "mia", "host", player="carol")
        assert reply.ephemeral and "**carol** is already the host" in reply.text
        reply = await world.slash(world.alice, "pig", "kick", player="carol")
        assert reply.ephemeral and "use the `/mia` commands" in reply.text

        await world.click(world.carol, board, "start")
        reply = await world.slash(world.carol, "mia", "kick", player="alice")
        assert reply.ephemeral and "already started" in reply.text
        assert len(table.seats) == 2
    world.fake.assert_no_problems()


async def test_the_host_select_removes_a_computer_player_and_hands_over_the_host_role(world: World):
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        assert not any(c.endswith(":host") for c in board.custom_ids())  # alone: nothing to offer
        await world.click(world.bob, board, "join")
        addbot = next(c for c in board.custom_ids() if c.endswith(":addbot"))
        await (await world.fake.select(world.alice, board, addbot, ["addbot:easy"])).response()
        assert "🤖" in board.text
        table = bot.tables.table(world.channel.id)
        robot = table.seats[2].id
        assert sorted(menu_values(board)) == sorted([f"kick:{world.bob.id}", f"kick:{robot}", f"host:{world.bob.id}"])
        assert len(board.components) <= 5

        reply = await pick(world, world.bob, board, f"kick:{robot}")
        assert reply.ephemeral and "Only the host or a server manager can remove" in reply.text
        reply = await pick(world, world.alice, board, f"kick:{robot}")
        assert reply.type == 7 and "🤖" not in board.text.split("Log")[0]
        assert "🚪 **Easy bot 1** was removed from the lobby." in board.text

        reply = await pick(world, world.alice, board, f"host:{world.bob.id}")
        assert reply.type == 7 and "bob 👑" in board.text and table.host_id == world.bob.id
        assert menu_values(board) == [f"kick:{world.alice.id}", f"host:{world.alice.id}"]
        reply = await world.click(world.alice, board, "start")
        assert reply.ephemeral and "Only the host" in reply.text
    async with world.bot() as bot:  # a restart keeps the new host; the select still works
        table = bot.tables.table(world.channel.id)
        assert table.host_id == world.bob.id
        reply = await pick(world, world.admin, board, f"host:{world.alice.id}")  # Manage Server may, too
        assert reply.type == 7 and table.host_id == world.alice.id
        await world.click(world.alice, board, "leave")  # the host leaves: the role passes to bob
        assert table.host_id == world.bob.id and "bob 👑" in board.text
        assert not any(c.endswith(":host") for c in board.custom_ids())
        await world.click(world.bob, board, "leave")  # nobody left: the lobby closes
        assert world.channel.id not in bot.tables.by_channel
        await world.fake.wait_for(lambda: "Everyone left the lobby." in board.text)
    world.fake.assert_no_problems()
