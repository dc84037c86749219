"""Issue 10, "At the table", end to end with full three-player games: clicks that race a redraw of the table
message, neutral results on the leaderboard and in /stats, Mythical Dice's wording and bid confirmations, the
"nothing is hidden" reply, DMs that name their table, the final message that pings the players, plural counts.
"""

from __future__ import annotations

from typing import Any

from bot.games.dice import ScriptedDice, SeededDice
from bot.i18n import t
from bot.render import event_text
from tests.e2e.conftest import World
from tests.fakediscord import FakeMessage


def is_current(board: FakeMessage, table: Any) -> bool:
    """The table message carries the table's current version in its custom_ids."""
    return any(c.startswith(f"dt:{table.id}:{table.version}:") for c in board.custom_ids())


def control(message: FakeMessage, name: str) -> str:
    return next(c for c in message.custom_ids() if c.endswith(f":{name}"))


def channel_posts(world: World) -> list[Any]:
    """Messages the bot posted in the table's channel by REST (not interaction replies, not DMs)."""
    path = f"/channels/{world.channel.id}/messages"
    return [c for c in world.fake.calls(method="POST", route="/channels/{channel_id}/messages") if c.path == path]


def snapshot(table: Any) -> tuple[str, int]:
    return table.engine.dumps(table.state), table.version


async def open_table(world: World, game: str, **options: Any) -> FakeMessage:
    reply = await world.slash(world.alice, game, "new", **options)
    board = reply.expect_message()
    for user in (world.bob, world.carol):
        assert (await world.click(user, board, "join")).type == 7
    assert (await world.click(world.alice, board, "start")).type == 7
    return board


# -- clicks that race a redraw ----------------------------------------------------------------------------------


async def test_mia_a_click_on_a_table_message_not_yet_redrawn_is_answered_with_the_table_as_it_stands(world: World):
    async with world.bot(ScriptedDice([5, 3, 6, 2], samples=[[0]])) as bot:
        board = await open_table(world, "mia", lives=1)
        table = bot.tables.table(world.channel.id)
        assert "3 players, 1 life each" in board.text  # a plural entry, not "1 lives"
        assert (await world.slash(world.alice, "mia", "claim", value=53)).ephemeral
        await world.fake.wait_for(lambda: is_current(board, table), what="the table message at bob's turn")
        drawn = control(board, "roll")  # "believe & roll", drawn for bob's turn

        bot.presenter.hold(table.id)  # the paced REST edit of the table message has not happened yet
        try:
            assert "believes it and rolls again" in (await world.slash(world.bob, "mia", "roll")).text
            assert drawn in board.custom_ids() and not is_current(board, table)
            before = snapshot(table)
            record = await world.fake.click(world.carol, board, drawn)  # a fast click on what she was shown
            reply = await record.response()
            (note,) = await record.wait_followups(1)
        finally:
            bot.presenter.release(table, None)
        # No refusal ("use the buttons on the table message" / "not your turn"): the click's response redraws the
        # table message as it stands, and a private note says what changed.
        assert reply.type == 7 and is_current(board, table)
        assert note.ephemeral and note.visible_to == world.carol.id
        assert note.text.startswith("↪️ The table moved on:") and "believes it and rolls again" in note.text
        assert "⚠️" not in note.text and "use the buttons" not in note.text
        assert snapshot(table) == before  # the raced click changed nothing
    world.fake.assert_no_problems()


async def mythic_bids(world: World, bot: Any, board: FakeMessage) -> Any:
    """Hand 1 (one die each): alice bids from the table's menu, bob and carol by command; each is told their bid.
    Before carol's bid the table message is held back (a paced redraw), so alice's second pick races it."""
    table = bot.tables.table(world.channel.id)
    record = await world.fake.select(world.alice, board, control(board, "bid"), ["bid:0"])
    reply = await record.response()
    (confirm,) = await record.wait_followups(1)
    assert reply.type == 7 and confirm.ephemeral and confirm.visible_to == world.alice.id
    # the bidder's own view follows the word, so the hand's dice are one click away
    assert confirm.text.startswith("🤫 You bid **0** — secret until everyone has bid.\n")
    assert "Your view" in confirm.text
    reply = await world.slash(world.bob, "mythic", "bid", tricks=1)
    assert reply.ephemeral and "🤫 You bid **1** — secret until everyone has bid." in reply.text
    await world.fake.wait_for(lambda: is_current(board, table), what="the table message after bob's bid")
    drawn = control(board, "bid")

    bot.presenter.hold(table.id)
    try:
        reply = await world.slash(world.carol, "mythic", "bid", tricks=0)
        assert "🤫 You bid **0** — every bid is in, so they are all revealed now." in reply.text
        before = snapshot(table)
        record = await world.fake.select(world.alice, board, drawn, ["bid:1"])  # the menu she still sees
        reply = await record.response()
        (note,) = await record.wait_followups(1)
    finally:
        bot.presenter.release(table, None)
    bids = [c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":bid")]
    assert reply.type == 7 and is_current(board, table) and bids == []  # the bids are in: a roll menu now
    assert note.text.startswith("↪️ The table moved on: 🃏 Bids revealed:") and "⚠️" not in note.text
    assert "not your turn" not in note.text and snapshot(table) == before
    return table


async def test_mythic_raced_clicks_wording_and_secret_bid_confirmations(world: World):
    async with world.bot(SeededDice(11)) as bot:
        board = await open_table(world, "mythic")
        assert board.button("🎲 My dice")  # one name for it, as in the footer, the log and the rules
        assert "My hand" not in str(board.components)
        table = await mythic_bids(world, bot, board)
        leader = table.seats[table.engine.to_act(table.state)[0]]
        assert f"▶️ **{leader.name}** to roll: 🎲 My dice or `/mythic play`" in board.text

        # The leader's own reply offers their dice; their turn then times out (the deadline rolls for them)
        # before they pick: the pick races the table and redraws their private reply with what changed.
        user = world.fake.users[leader.id]
        mine = (await world.slash(user, "mythic", "hand")).expect_message()
        drawn = control(mine, "play")
        value = mine.find_component(drawn)["options"][0]["value"]
        assert await bot.tables.run_due(table.deadline + 0.001) == 1
        before = snapshot(table)
        reply = await (await world.fake.select(user, mine, drawn, [value])).response()
        assert reply.type == 7 and reply.ephemeral
        assert reply.text.startswith("↪️ The table moved on:") and "Your view" in reply.text
        assert "⚠️" not in reply.text and "not your turn" not in reply.text
        assert snapshot(table) == before
    world.fake.assert_no_problems()


# -- results: neutral seats, the final message, DMs that name their table, plurals ------------------------------


async def test_liar_single_round_neutral_result_final_message_and_dm_header(world: World):
    fake = world.fake
    users = [world.alice, world.bob, world.carol]
    async with world.bot(SeededDice(5)) as bot:
        board = await open_table(world, "liar", dice_per_player=1)
        table = bot.tables.table(world.channel.id)
        assert board.text.count("🎲 **1 die**") == 3  # seat lines: "1 die", not "1"

        # alice's DM names the server, the channel and links the table message
        dm = await fake.wait_for_dm(world.alice)
        header = dm.text.split("\n")[0]
        link = f"https://discord.com/channels/{world.guild.id}/{world.channel.id}/{board.id}"
        assert header.startswith("🎲 Liar's Dice #") and "**Tavern** › #dice" in header and link in header

        bidder = table.state.current
        challenger = (bidder + 1) % 3
        assert "bids" in (await world.slash(users[bidder], "liar", "bid", quantity=1, face=2)).text
        await world.slash(users[challenger], "liar", "challenge")
        outcome = table.engine.outcome(table.state)
        assert outcome is not None and len(outcome.neutral) == 1
        winner, neutral = users[outcome.winners[0]], users[outcome.neutral[0]]
        loser = next(u for u in users if u not in (winner, neutral))

        # One new message in the channel pings the players (an edit would not) with the result, once.
        final = await fake.wait_for_message(world.channel, lambda m: "is over" in m.text, after=board.id)
        expected = f"🏆 <@{winner.id}> won · <@{neutral.id}> neutral · <@{loser.id}> lost"
        assert final.text.startswith("🏁 **Liar's Dice** #") and expected in final.text and link in final.text
        (post,) = channel_posts(world)  # the table message itself was the /liar new reply
        assert post.body["allowed_mentions"] == {"users": [u.id for u in users], "parse": []}

        board_reply = await world.slash(world.admin, "leaderboard", game="liar")
        lines = {u: next(x for x in board_reply.text.split("\n") if f"<@{u.id}>" in x) for u in users}
        assert lines[winner].endswith("1 win · 0 losses / 1 game (100% won)")
        assert lines[loser].endswith("0 wins · 1 loss / 1 game (0% won)")
        assert lines[neutral].endswith("0 wins · 0 losses · 1 neutral / 1 game (none decided)")
        assert "best" not in board_reply.text  # a Liar's Dice score is not a score to be best at
        everything = await world.slash(world.admin, "leaderboard")
        assert "1 neutral / 1 game" in everything.text

        stats = await world.slash(neutral, "stats")
        assert "**Liar's Dice**: 0 wins · 0 losses · 1 neutral / 1 game (none decided)" in stats.text
        assert "best score" not in stats.text
        await fake.settle()
        assert len([m for m in fake.channel_messages(world.channel) if "is over" in m.text]) == 1
    fake.assert_no_problems()


async def test_pig_my_dice_says_nothing_is_hidden_and_the_final_message_skips_computer_players(world: World):
    async with world.bot(ScriptedDice([6, 6, 6, 6], samples=[[0]])) as bot:
        reply = await world.slash(world.alice, "pig", "new", target=20)
        board = reply.expect_message()
        await world.fake.select(world.alice, board, control(board, "addbot"), ["addbot:easy"])
        assert (await world.click(world.alice, board, "start")).type == 7
        table = bot.tables.table(world.channel.id)
        assert table.state.current == 0 and "1 die" in board.text and "die/dice" not in board.text
        me = await world.click(world.alice, board, "me")
        assert me.ephemeral and me.text == "Nothing is hidden in this game: everything is on the table message."
        for _ in range(3):
            await world.click(world.alice, board, "roll")
        assert "after 3 rolls" in board.text
        await world.click(world.alice, board, "roll")  # 24: past the target, the game ends
        final = await world.fake.wait_for_message(world.channel, lambda m: "is over" in m.text, after=board.id)
        assert f"🏆 <@{world.alice.id}> won · 🤖 Easy bot 1 lost" in final.text
        (post,) = channel_posts(world)
        assert post.body["allowed_mentions"] == {"users": [world.alice.id], "parse": []}
    world.fake.assert_no_problems()


def test_counts_next_to_a_noun_take_plural_forms():
    """(Pure: no Discord needed.) The log and table lines that show a count with a noun, at 1 and at 2."""
    names = ["alice", "bob", "carol"]
    for n, lives, hands in ((1, "1 life", "1 hand"), (2, "2 lives", "2 hands")):
        assert f"3 players, {lives} each" in event_text("mia", "start", {"players": 3, "lives": n}, names, "en")
        mex = event_text("mex", "start", {"players": 3, "lives": n, "starter": 0}, names, "en")
        assert f"❤️ {lives} each" in mex
        assert f"3 players, {hands}." in event_text("mythic", "start", {"players": 3, "hands": n}, names, "en")
    assert t("mex.turn", "en", name="a", thrown=0, limit=1, count=1).endswith("0 of 1 throw used")
    assert "(s)" not in t("mex.error.throw_limit_reached", "en", limit=1)
