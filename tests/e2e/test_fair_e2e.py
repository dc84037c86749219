"""Fair dice end to end: the real client against the fake Discord, with the bot's default dice (a FairDice per table).

The commitment is on the table message from the lobby on; the client seed is the players' entropy (the host's
command id, a ``seed:`` text, a button click's id); the seed shows nowhere (no message version, DM, ephemeral,
REST body or log line) until the game ends, then it is in the channel and the game read back from the database
verifies, across a restart in the middle of it."""

from __future__ import annotations

import json
import logging

from bot.games.fair import FairDice, client_seed_from, commitment_of
from bot.replay import export_of
from bot.store import history
from bot.verify import verify_export
from tests.e2e.conftest import World


def everything_sent(world: World, caplog) -> str:
    """Every version of every message (channel, DM, ephemeral), every REST body and every log line so far."""
    versions = [v for m in world.fake.messages.values() for v in m.history]
    sent = json.dumps([(v.content, v.embeds, v.components) for v in versions], ensure_ascii=False)
    bodies = json.dumps([repr(c.body) for c in world.fake.rest_calls], ensure_ascii=False)
    return "\n".join([sent, bodies, caplog.text])


def fair_field(message) -> str:
    """The table message's fair-dice line (its small print, last text block: the commitment, the client seed, the
    seed of a cancelled table, the table's id)."""
    return message.text_displays()[-1]


async def stored_fair(bot, game_id: int) -> dict:
    row = await bot.store.fetch_one("SELECT fair FROM games WHERE id = ?", (game_id,))
    return json.loads(row["fair"])


async def play_to_the_end(world: World, bot, seed: str, caplog, moves: int | None = None) -> None:
    """Roll until 8 this turn, then hold, by slash command; after every move that leaves the game running, the seed
    must be nowhere. ``moves``: stop after that many."""
    table = bot.tables.table(world.channel.id)
    players = {u.id: u for u in (world.alice, world.bob, world.carol)}
    while table.running and moves != 0:
        user = players[table.seats[table.state.current].id]
        reply = await world.slash(user, "pig", "hold" if table.state.turn_total >= 8 else "roll")
        assert not reply.text.startswith("⚠️"), reply.text
        if table.running:
            await world.fake.settle()
            assert seed not in everything_sent(world, caplog)
        moves = None if moves is None else moves - 1


async def test_a_fair_game_commits_reveals_at_the_end_and_verifies_after_a_restart(world: World, caplog):
    caplog.set_level(logging.DEBUG)
    async with world.bot(FairDice.new) as bot:  # the bot's default dice: a fresh FairDice per table
        opened = await world.fake.slash(world.alice, world.channel, "pig", "new", options={"target": 20})
        board = (await opened.response()).expect_message()
        table = bot.tables.table(world.channel.id)
        stored = await stored_fair(bot, table.id)
        seed, commitment = stored["seed"], stored["commitment"]
        assert commitment == commitment_of(bytes.fromhex(seed)) and stored["client_seed"] is None
        assert commitment in fair_field(board)  # public from the lobby on

        joined = await world.slash(world.bob, "pig", "join", seed="bob's | luck")
        assert joined.ephemeral
        click = await world.fake.click(world.carol, board, next(c for c in board.custom_ids() if c.endswith(":join")))
        await click.response()
        await world.click(world.alice, board, "start")
        client_seed = client_seed_from([str(opened.id), "bob's | luck", str(click.id)])
        assert (await stored_fair(bot, table.id))["client_seed"] == client_seed == table.fair.client_seed
        await world.fake.wait_for(lambda: "Client seed" in fair_field(board))
        assert commitment in fair_field(board) and client_seed in fair_field(board)

        status = await world.slash(world.carol, "pig", "status")
        assert status.ephemeral and commitment in status.text
        await play_to_the_end(world, bot, seed, caplog, moves=6)
        assert table.running
        game_id = table.id

    async with world.bot(FairDice.new) as bot:  # a restart mid-game: the same stream goes on
        table = bot.tables.table(world.channel.id)
        assert table.fair.commitment == commitment and table.fair.client_seed == client_seed
        await play_to_the_end(world, bot, seed, caplog)
        assert table.status == "finished"
        final = await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.text)
        assert seed in final.text and f"/game verify game:{game_id}" in final.text
        await world.fake.wait_for(lambda: "finished" in board.text_displays()[0])
        # a quiet end: the seed is shown once, in the final message; the finished table offers no control
        assert seed not in board.text and commitment in fair_field(board) and board.custom_ids() == []

        record = await history.game_record(bot.store, game_id)
        assert record is not None
        export = export_of(record)
        assert export["server_seed"] == seed and export["client_seed"] == client_seed
        assert verify_export(export) is None
        verified = await world.slash(world.bob, "game", "verify", game=game_id)
        assert "✓" in verified.text
    world.fake.assert_no_problems()


async def test_a_blank_seed_is_the_join_id_and_a_cancelled_lobby_reveals_its_seed(world: World, caplog):
    async with world.bot(FairDice.new) as bot:
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        table = bot.tables.table(world.channel.id)
        seed = (await stored_fair(bot, table.id))["seed"]
        joined = await world.fake.slash(world.bob, world.channel, "pig", "join", options={"seed": "  "})
        await joined.response()
        assert table.seats[1].entropy == str(joined.id)
        assert seed not in everything_sent(world, caplog)
        await world.slash(world.alice, "game", "cancel")
        await world.fake.wait_for(lambda: seed in fair_field(board))
        assert seed in everything_sent(world, caplog)
    world.fake.assert_no_problems()
