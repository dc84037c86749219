"""History, replay, export and verify end to end: a fair Pig game played through the real client, then looked up."""

from __future__ import annotations

import json

from bot.games.fair import FairDice
from bot.store import repo
from bot.verify import verify_export
from tests.e2e.conftest import World
from tests.fakediscord import FakeMessage


def button(message: FakeMessage, way: str) -> str:
    """The replay button that goes ``way`` (f, p, n, l): ``rp:<game>:<step>:<way>``."""
    return next(c for c in message.custom_ids() if c.startswith("rp:") and c.endswith(f":{way}"))


def disabled(message: FakeMessage, way: str) -> bool:
    return bool(message.find_component(button(message, way)).get("disabled"))


async def play_pig_to_the_end(world: World, bot) -> int:
    """Alice and Bob play Pig to 20 by slash commands: roll until 8 this turn, then hold. Returns the game id."""
    board = (await world.slash(world.alice, "pig", "new", target=20)).expect_message()
    await world.click(world.bob, board, "join")
    await world.click(world.alice, board, "start")
    table = bot.tables.table(world.channel.id)
    players = {world.alice.id: world.alice, world.bob.id: world.bob}
    while table.running:
        user = players[table.seats[table.state.current].id]
        reply = await world.slash(user, "pig", "hold" if table.state.turn_total >= 8 else "roll")
        assert not reply.text.startswith("⚠️"), reply.text
    assert table.status == "finished"
    return table.id


async def revealed_seed(bot, game_id: int) -> str:
    """The seed the service kept in games.fair for a game that is over (its fair dice, drawn as the lobby opened)."""
    row = await bot.store.fetch_one("SELECT fair FROM games WHERE id = ?", (game_id,))
    assert row["fair"] is not None, "the fair-dice service persisted no commitment and seed"
    fair = json.loads(row["fair"])
    assert fair["client_seed"] is not None and FairDice.from_hex(fair["seed"], "").commitment == fair["commitment"]
    return fair["seed"]


async def test_history_replay_export_and_verify_of_a_finished_game_and_the_buttons_survive_a_restart(
    world: World, monkeypatch
):
    async with world.bot(FairDice.new) as bot:  # the real path: each table its own fair dice, persisted
        game_id = await play_pig_to_the_end(world, bot)
        seed = await revealed_seed(bot, game_id)
        moves = len(await repo.actions(bot.store, game_id)) - 1  # the start is not a move

        listed = await world.slash(world.carol, "history")
        assert listed.ephemeral
        assert f"`#{game_id}`" in listed.text and "**Pig**" in listed.text and "alice, bob" in listed.text
        assert "🏆" in listed.text and "<t:" in listed.text
        assert "No finished games" in (await world.slash(world.carol, "history", member=world.carol.id)).text
        assert "No finished games" in (await world.slash(world.carol, "history", game="mia")).text
        assert f"`#{game_id}`" in (await world.slash(world.carol, "history", member=world.bob.id, game="pig")).text

        reply = await world.slash(world.carol, "game", "replay", game=game_id)
        assert reply.ephemeral and "Replay of Pig" in reply.text and "the deal" in reply.text
        replayed = reply.expect_message()
        assert disabled(replayed, "f") and disabled(replayed, "p") and not disabled(replayed, "n")
        assert (await (await world.fake.click(world.carol, replayed, button(replayed, "n"))).response()).type == 7
        assert f"move 1 of {moves}" in replayed.text
        await (await world.fake.click(world.carol, replayed, button(replayed, "l"))).response()
        assert f"move {moves} of {moves}" in replayed.text and "🏆" in replayed.text
        assert disabled(replayed, "n") and disabled(replayed, "l")
        await (await world.fake.click(world.carol, replayed, button(replayed, "p"))).response()
        assert f"move {moves - 1} of {moves}" in replayed.text
        await (await world.fake.click(world.carol, replayed, button(replayed, "f"))).response()
        assert "the deal" in replayed.text

        monkeypatch.delenv("DICETAVERN_VERIFIER_URL", raising=False)  # no verifier online: the page comes attached
        exported = await world.slash(world.bob, "game", "export", game=game_id)
        assert exported.ephemeral and "verify.html" in exported.text and "dicetavern verify" in exported.text
        attachment, page = exported.expect_message().attachments
        assert attachment["filename"] == f"dicetavern-pig-{game_id}.json" and page["filename"] == "verify.html"
        from importlib import resources  # the page as the package ships it

        shipped = resources.files("bot").joinpath("assets", "verify.html").read_bytes()
        assert world.fake.attachment_bytes(page) == shipped
        monkeypatch.setenv("DICETAVERN_VERIFIER_URL", "https://tavern.example/verify.html")  # online: linked instead
        linked = await world.slash(world.bob, "game", "export", game=game_id)
        assert linked.ephemeral and "<https://tavern.example/verify.html>" in linked.text
        assert [a["filename"] for a in linked.expect_message().attachments] == [attachment["filename"]]
        export = json.loads(world.fake.attachment_bytes(attachment))
        assert export["version"] == 2 and export["id"] == game_id and export["players"] == ["alice", "bob"]
        assert export["start"].isdigit() and export["owner_seated"] is False  # the start click's id; no owner
        assert export["chain"] == export["moves"][-1]["link"] is not None
        assert export["server_seed"] == seed and len(export["moves"]) == moves + 1
        assert verify_export(export) is None

        verified = await world.slash(world.bob, "game", "verify", game=game_id)
        assert not verified.ephemeral and "✓" in verified.text and f"#{game_id}" in verified.text

    async with world.bot(FairDice.new):  # a new process: the replay's buttons still answer
        await (await world.fake.click(world.carol, replayed, button(replayed, "n"))).response()
        assert f"move 1 of {moves}" in replayed.text
        await (await world.fake.click(world.carol, replayed, button(replayed, "l"))).response()
        assert f"move {moves} of {moves}" in replayed.text
    world.fake.assert_no_problems()


async def test_a_changed_die_fails_verify_at_its_move(world: World):
    async with world.bot(FairDice.new) as bot:
        game_id = await play_pig_to_the_end(world, bot)
        await revealed_seed(bot, game_id)
        row = await bot.store.fetch_one(
            "SELECT seq, dice FROM actions WHERE game_id = ? AND action = 'roll' ORDER BY seq LIMIT 1", (game_id,)
        )
        calls = json.loads(row["dice"])
        calls[0][2][0] = calls[0][2][0] % 6 + 1
        await bot.store.write(
            [("UPDATE actions SET dice = ? WHERE game_id = ? AND seq = ?", (json.dumps(calls), game_id, row["seq"]))]
        )
        verified = await world.slash(world.alice, "game", "verify", game=game_id)
        assert "✗" in verified.text and f"move {row['seq']} (roll)" in verified.text  # its link: the chain breaks


async def test_running_lobby_unknown_and_other_servers_games_are_refused_without_the_seed(world: World):
    elsewhere = world.fake.add_guild("Elsewhere", channels=["dice"])
    dave = world.fake.add_user("dave", guild=elsewhere)
    async with world.bot(FairDice.new) as bot:
        other = await (await world.fake.slash(dave, elsewhere.channel("dice"), "pig", "new")).response()
        assert not other.ephemeral
        other_id = bot.tables.table(elsewhere.channel("dice").id).id

        lobby = (await world.slash(world.alice, "pig", "new")).expect_message()
        lobby_id = bot.tables.table(world.channel.id).id
        await world.slash(world.alice, "game", "cancel")
        await world.fake.wait_for(lambda: "cancelled" in lobby.text)

        board = (await world.slash(world.alice, "pig", "new", target=20)).expect_message()
        await world.click(world.bob, board, "join")
        await world.click(world.alice, board, "start")
        running = bot.tables.table(world.channel.id)
        await world.slash(world.alice if running.state.current == 0 else world.bob, "pig", "roll")

        for command in ("replay", "export", "verify"):
            reply = await world.slash(world.carol, "game", command, game=running.id)
            assert reply.ephemeral and f"Game #{running.id} is still being played" in reply.text
            assert "only finished games" in reply.text
            reply = await world.slash(world.carol, "game", command, game=other_id)
            assert reply.ephemeral and f"Game #{other_id} was played on another server." in reply.text
            reply = await world.slash(world.carol, "game", command, game=lobby_id)
            assert reply.ephemeral and "cancelled before it started" in reply.text
            reply = await world.slash(world.carol, "game", command, game=987654)
            assert reply.ephemeral and "There is no game #987654." in reply.text
        reply = await world.fake.slash(dave, elsewhere.channel("dice"), "game", "replay", options={"game": other_id})
        assert "still in its lobby" in (await reply.response()).text

        rows = await bot.store.fetch_all("SELECT fair FROM games WHERE id IN (?, ?)", (running.id, other_id))
        secrets = [json.loads(row["fair"])["seed"] for row in rows]  # the two games not over
        assert len(secrets) == 2
        versions = [v for m in world.fake.messages.values() for v in m.history]
        seen = json.dumps([(v.content, v.embeds, v.components) for v in versions])
        assert not any(secret in seen for secret in secrets)
    world.fake.assert_no_problems()


async def test_history_pages_with_buttons_that_survive_a_restart(world: World):
    seats = [{"id": world.alice.id, "name": "alice", "level": None}, {"id": -1, "name": "Bot", "level": "easy"}]
    async with world.bot() as bot:
        rows = [
            repo.insert_game(
                {
                    "guild_id": world.guild.id,
                    "channel_id": 1000 + n,
                    "game": "pig",
                    "status": "finished",
                    "host_id": world.alice.id,
                    "options": {},
                    "seats": seats,
                    "now": 1_700_000_000.0 + n,
                }
            )
            for n in range(12)
        ]
        ids = [ids[0] for ids in [await bot.store.write([row]) for row in rows]]
        await bot.store.write(
            [repo.insert_result(i, world.guild.id, "pig", -1, True, 1, 20, "win", 0.0) for i in ids]
            + [repo.insert_result(i, world.guild.id, "pig", world.alice.id, False, 2, 5, "loss", 0.0) for i in ids]
        )
        reply = await world.slash(world.carol, "history", game="pig")
        assert "Page 1/2" in reply.text and f"`#{ids[-1]}`" in reply.text and f"`#{ids[1]}`" not in reply.text
        assert "🏆 🤖 Bot" in reply.text and "alice, 🤖 Bot" in reply.text
        listed = reply.expect_message()
    async with world.bot():
        forward = next(c for c in listed.custom_ids() if c.startswith("hist:n:"))
        assert (await (await world.fake.click(world.carol, listed, forward)).response()).type == 7
        assert "Page 2/2" in listed.text and f"`#{ids[0]}`" in listed.text and f"`#{ids[-1]}`" not in listed.text
    world.fake.assert_no_problems()


async def test_a_game_without_a_fair_record_replays_and_exports_but_cannot_be_verified(world: World):
    async with world.bot() as bot:  # plain seeded dice: no commitment, no seed (as a game from before fair dice)
        game_id = await play_pig_to_the_end(world, bot)
        assert (await bot.store.fetch_one("SELECT fair FROM games WHERE id = ?", (game_id,)))["fair"] is None
        reply = await world.slash(world.alice, "game", "replay", game=game_id)
        assert reply.ephemeral and "Replay of Pig" in reply.text
        exported = await world.slash(world.alice, "game", "export", game=game_id)
        assert "cannot be verified" in exported.text
        export = json.loads(world.fake.attachment_bytes(exported.expect_message().attachments[0]))
        assert export["server_seed"] is None and export["commitment"] is None and export["moves"]
        verified = await world.slash(world.alice, "game", "verify", game=game_id)
        assert verified.ephemeral and f"Game #{game_id} was played before provably fair dice" in verified.text
    world.fake.assert_no_problems()


async def test_a_game_cancelled_after_it_started_is_listed_with_its_seed_and_the_owners_game_is_marked(world: World):
    async with world.bot(FairDice.new) as bot:
        board = (await world.slash(world.alice, "pig", "new", target=20)).expect_message()
        await world.click(world.bob, board, "join")
        await world.click(world.alice, board, "start")
        table = bot.tables.table(world.channel.id)
        await world.slash(world.alice, "pig", "roll")
        await world.slash(world.alice, "game", "cancel")
        cancelled_id = table.id
        seed = await revealed_seed(bot, cancelled_id)
        lobby = (await world.slash(world.alice, "pig", "new")).expect_message()  # cancelled before it started
        await world.slash(world.alice, "game", "cancel")
        world.fake.add_member(world.guild, world.fake.owner)  # the application's owner plays here too
        owners = (await world.slash(world.fake.owner, "pig", "new", target=20)).expect_message()
        assert owners is not lobby
        await world.click(world.carol, owners, "join")
        await world.click(world.fake.owner, owners, "start")
        owned = bot.tables.table(world.channel.id)
        assert owned.owner_seated
        players = {world.fake.owner.id: world.fake.owner, world.carol.id: world.carol}
        while owned.running:
            user = players[owned.seats[owned.state.current].id]
            await world.slash(user, "pig", "hold" if owned.state.turn_total >= 8 else "roll")
        end = await world.fake.wait_for(
            lambda: next((m for m in world.fake.channel_messages(world.channel) if "is over" in m.text), None),
            what="the end message",
        )
        assert "👑 The bot's owner played at this table." in end.text
        assert f"🔗 Move log chain `{owned.chain}`" in end.text

        listed = (await world.slash(world.carol, "history")).text
        lines = [line for line in listed.splitlines() if line.startswith("`#")]
        assert len(lines) == 2  # the finished game and the started cancel; not the lobby cancelled before its start
        cancel_line = next(line for line in lines if f"`#{cancelled_id}`" in line)
        assert "✖ cancelled after it started" in cancel_line and f"🔓 `{seed}`" in cancel_line
        assert "👑 the bot's owner played" in next(line for line in lines if f"`#{owned.id}`" in line)
        mine = (await world.slash(world.carol, "history", member=world.bob.id)).text
        assert f"`#{cancelled_id}`" in mine and f"`#{owned.id}`" not in mine  # bob sat at the cancelled one only
    world.fake.assert_no_problems()
