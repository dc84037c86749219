"""/privacy delete leaves nothing, end to end: a member who played a game, then left a lobby (as the refusal asks)
and deleted their data is in no row and no byte of the SQLite files (database, write-ahead log, shared memory),
also after that lobby's game is played to its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.test_history_e2e import play_pig_to_the_end
from tests.e2e.test_privacy_e2e import ask_to_delete, button, click, everything, found
from tests.service.test_privacy_files import found_in_files

pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def test_a_member_who_left_an_open_lobby_and_deleted_is_in_no_row_and_no_byte(world: World):
    async with world.bot() as bot:
        await play_pig_to_the_end(world, bot)
        await world.slash(world.alice, "me", "language", language="en")
        await world.slash(world.alice, "privacy", "export")
        assert found_in_files(Path(world.db), world.alice.id, "alice")  # there is something to find

        board = (await world.slash(world.bob, "pig", "new", target=20)).expect_message()
        await world.click(world.alice, board, "join")
        await world.click(world.alice, board, "leave")  # the lobby's log: "alice left"
        confirm = await ask_to_delete(world, world.alice)
        await click(world, world.alice, confirm, button(confirm, "yes"))
        assert "Done." in confirm.text and "2 games now show" in confirm.text
        assert found(await everything(bot), str(world.alice.id)) == [] and found(await everything(bot), "alice") == []
        assert found_in_files(Path(world.db), world.alice.id, "alice") == []

        await world.click(world.carol, board, "join")  # the lobby goes on: its snapshots come from memory
        await world.click(world.bob, board, "start")
        table = bot.tables.table(world.channel.id)
        players = {world.bob.id: world.bob, world.carol.id: world.carol}
        while table.running:
            user = players[table.seats[table.state.current].id]
            await world.slash(user, "pig", "hold" if table.state.turn_total >= 8 else "roll")
        rows = await everything(bot)
        assert found(rows, str(world.alice.id)) == [] and found(rows, "alice") == []
        assert found_in_files(Path(world.db), world.alice.id, "alice") == []
    world.fake.assert_no_problems()
