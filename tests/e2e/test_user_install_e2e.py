"""User installs end to end (issue 29): the app installed to players' accounts, played in a group DM the bot is not
in and in a server that never added it, through the real discord.py client against the fake Discord.

There the table lives on its interaction's message (cogs.utils.interaction_transport): every click answers with
UPDATE_MESSAGE, the computer players' moves and the deadlines edit it through the latest token while it is valid,
and a 15-minute gap (the fake's test clock: every token dies) is bridged by the next click. The bot's token is
never used there (the fake answers 403 and lists it in ``problems()``), and no shared message holds a secret.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.client import DiceTavern
from bot.games.dice import SeededDice
from bot.games.fair import FairDice
from bot.render import dice_text
from bot.store import ratings, repo
from cogs.utils.interaction_transport import LAST_WORD, MARGIN, WINDOW
from tests.e2e.drawn import shows
from tests.fakediscord import CommandUnavailable, FakeDiscord, FakeMessage, run_bot

WINDOW_NOTE = "Nobody has clicked for a while"


@contextlib.asynccontextmanager
async def bot_on(fake: FakeDiscord, db: str, seed: int | None = 3) -> AsyncIterator[DiceTavern]:
    """``seed`` None: the bot's default dice (a FairDice per table)."""
    dice = FairDice.new if seed is None else SeededDice(seed)
    bot = DiceTavern(database_path=db, dice=dice, bot_delay=(0, 0), guild_ready_timeout=0.1)
    async with run_bot(fake, bot):
        await bot.tree.sync()
        bot.tables.clock = fake.clock  # one clock: the tokens age by it, the deadlines and windows too
        yield bot


def control(message: FakeMessage, name: str) -> str:
    return next(c for c in message.custom_ids() if c.endswith(f":{name}"))


def has(message: FakeMessage, name: str) -> bool:
    return any(c.endswith(f":{name}") for c in message.custom_ids())


async def click(fake: FakeDiscord, user: Any, board: FakeMessage, name: str) -> Any:
    record = await fake.click(user, board, control(board, name))
    return await record.response()


async def open_table(fake: FakeDiscord, host: Any, guest: Any, place: Any, game: str, **options: Any) -> FakeMessage:
    """``host`` opens the table in ``place``, adds a computer player, ``guest`` joins, ``host`` starts."""
    reply = await (await fake.slash(host, place, game, "new", options=options or None)).response()
    assert reply.type == 4 and not reply.ephemeral
    board = reply.expect_message()
    record = await fake.select(host, board, control(board, "addbot"), ["addbot:normal"])
    assert (await record.response()).type == 7
    assert (await click(fake, guest, board, "join")).type == 7
    assert (await click(fake, host, board, "start")).type == 7
    return board


def no_bot_token_there(fake: FakeDiscord, channel: Any) -> None:
    """The bot never used its token in ``channel`` (every such call is refused there, 403/50001)."""
    refused = [c for c in fake.rest_calls if f"/channels/{channel.id}" in c.path]
    assert not refused, [(c.method, c.path) for c in refused]


async def pig_turn(fake: FakeDiscord, bot: DiceTavern, board: FakeMessage, table: Any, users: dict[int, Any]) -> None:
    """The human on turn rolls until their turn has 10 points or more, then holds (a bust ends it sooner)."""
    seat = table.state.current
    user = users[table.seats[seat].id]
    await fake.wait_for(lambda: has(board, "roll") and not table.lock.locked(), what="the board's controls")
    if table.state.turn_total >= 10 and has(board, "hold"):
        assert (await click(fake, user, board, "hold")).type == 7
    else:
        assert (await click(fake, user, board, "roll")).type == 7


async def play_pig(fake: FakeDiscord, bot: DiceTavern, board: FakeMessage, table: Any, users: dict[int, Any]) -> None:
    for _ in range(400):
        await fake.settle()
        await fake.wait_for(lambda: not table.lock.locked(), what="the table to settle")
        if table.status != "running":
            return
        if table.seats[table.state.current].is_bot:
            await fake.wait_for(
                lambda: table.status != "running" or not table.seats[table.state.current].is_bot,
                what="the computer player's move",
            )
            continue
        await pig_turn(fake, bot, board, table, users)
    raise AssertionError("the Pig game did not end")


async def the_gap(fake: FakeDiscord, bot: DiceTavern, board: FakeMessage, table: Any) -> int:
    """Nobody clicks for 15 minutes. The turn on hand times out while the window is open (its default move is shown
    through the token); the next turn's deadline passes after, and waits; before the window ends the table's last
    edit says what happens next; then every token dies. Returns the version the table waits at."""
    transport = bot.presenter.interactions  # type: ignore[attr-defined]
    window = transport.windows[table.id]
    await fake.wait_for(lambda: not table.lock.locked() and not table.seats[table.state.current].is_bot)
    first = table.version
    fake.clock.advance(table.deadline - fake.clock() + 1)
    assert await bot.tables.run_due() == 1  # seen: the window is open
    await fake.wait_for(lambda: not table.seats[table.state.current].is_bot and table.version > first)
    seat = next(i for i, n in enumerate(table.timeouts) if n)  # the one who missed their turn
    await fake.wait_for(lambda: not table.lock.locked() and shows(board, table), what="the default move, shown")
    assert any(k == "timeout" and d["player"] == seat for k, d in table.log) and table.timeouts[seat] == 1
    waiting = table.version
    fake.clock.advance(max(table.deadline, window.until - MARGIN - LAST_WORD) - fake.clock() + 1)
    assert await bot.tables.run_due() == 0  # one missed turn per gap is shown; this one waits for a click
    await bot.presenter.drain()  # the reminder of that turn, edited in while the window is open
    assert await transport.run_due() == 1
    assert WINDOW_NOTE in board.text and "next click" in board.text
    fake.clock.advance(WINDOW)  # every token is dead now
    assert await bot.tables.run_due() == 0 and await transport.run_due() == 0
    assert table.version == waiting and table.deadline is not None and table.deadline < fake.clock()
    return waiting


@pytest.fixture
async def friends(tmp_path) -> AsyncIterator[tuple[FakeDiscord, Any, Any, Any, str]]:
    async with FakeDiscord() as fake:
        alice = fake.add_user("alice", app_installed=True)
        bob = fake.add_user("bob", app_installed=True)
        gdm = fake.add_group_dm([alice, bob], "friends")
        yield fake, alice, bob, gdm, str(tmp_path / "tavern.sqlite3")


async def test_a_whole_pig_game_in_a_group_dm_with_a_computer_player_and_a_15_minute_gap(friends):
    fake, alice, bob, gdm, db = friends
    users = {alice.id: alice, bob.id: bob}
    async with bot_on(fake, db, seed=None) as bot:  # fair dice, verified at the end
        board = await open_table(fake, alice, bob, gdm, "pig", target=60)
        table = bot.tables.table(gdm.id)
        assert table.guild_id == -gdm.id  # a group DM is its own scope (negative: shard 0's)
        for _ in range(2):  # a few turns, the computer's moves edited in through the clicks' tokens
            await fake.wait_for(lambda: not table.seats[table.state.current].is_bot and not table.lock.locked())
            await pig_turn(fake, bot, board, table, users)
        waiting = await the_gap(fake, bot, board, table)
        on_turn = table.state.current

        # The next click (whoever makes it) resumes: the missed turn gets its default move first, then the table
        # is shown as it stands (the click's controls were drawn before: it says the table moved on).
        other = bob if table.seats[on_turn].id == alice.id else alice
        reply = await click(fake, other, board, "me")
        assert reply.type == 7  # UPDATE_MESSAGE, whatever the click
        assert table.version > waiting and table.timeouts[on_turn] >= 1
        assert WINDOW_NOTE not in board.text  # redrawn through the fresh interaction
        await play_pig(fake, bot, board, table, users)
        assert table.status == "finished"

        # the end: a follow-up through the latest token that names the players
        await fake.wait_for(lambda: any("is over" in m.text for m in fake.channel_messages(gdm)), what="the end")
        stored = await repo.actions(bot.store, table.id)
        assert len(stored) >= table.version - 1  # every acknowledged move is in the log
        results = await bot.store.fetch_all("SELECT guild_id, user_id FROM results WHERE game_id = ?", (table.id,))
        assert {r["guild_id"] for r in results} == {-gdm.id}
        board_entries, _ = await ratings.global_board(bot.store, "pig", 10)
        assert {alice.id, bob.id} <= {e.user_id for e in board_entries}  # counted across servers
        stats = await (await fake.slash(bob, gdm, "stats")).response()
        assert stats.ephemeral and "1 game" in stats.text
        here = await (await fake.slash(alice, gdm, "leaderboard", options={"game": "pig"})).response()
        assert f"<@{alice.id}>" in here.text and f"<@{bob.id}>" in here.text  # the group DM's own board
        verified = await (await fake.slash(bob, gdm, "game", "verify", options={"game": table.id})).response()
        assert "game verified" in verified.text  # fair dice: the same check as in a server
        history = await (await fake.slash(alice, gdm, "history")).response()
        assert f"#{table.id}" in history.text
    no_bot_token_there(fake, gdm)
    fake.assert_no_problems()


async def test_a_whole_liars_dice_game_in_a_group_dm_shows_no_hand_in_any_shared_message(friends):
    fake, alice, bob, gdm, db = friends
    users = {alice.id: alice, bob.id: bob}
    async with bot_on(fake, db, seed=5) as bot:
        board = await open_table(fake, alice, bob, gdm, "liar", mode="lose_die", dice_per_player=2)
        table = bot.tables.table(gdm.id)
        engine = table.engine
        gap_done = False
        for _ in range(300):
            await fake.settle()
            await fake.wait_for(lambda: not table.lock.locked(), what="the table to settle")
            if table.status != "running":
                break
            state, seat = table.state, table.state.current
            if table.seats[seat].is_bot:
                before = table.version
                await fake.wait_for(lambda: table.version != before or table.status != "running")  # noqa: B023
                continue
            if not gap_done and state.bid is not None:
                await the_gap(fake, bot, board, table)
                gap_done = True
                reply = await click(fake, alice, board, "me")
                assert reply.type == 7  # the table redrawn, the missed turn given its default first
                continue
            user = users[table.seats[seat].id]
            record = await fake.click(user, board, control(board, "me"))  # 🎲 My dice: the table redrawn, and
            assert (await record.response()).type == 7  # the hand privately, in a follow-up
            await fake.wait_for(lambda: record.followups, what="the player's own view")  # noqa: B023
            (own,) = record.followups
            hand = f"Your dice:** {dice_text(state.hands[seat])}"
            assert own.ephemeral and own.visible_to == user.id and hand in own.text
            legal = [a.encode() for a in engine.legal_actions(state, seat)]
            bids = [a for a in legal if a.startswith("bid:")]
            if (state.bid is None or len(state.bids) < 2) and bids:
                assert (await click(fake, user, board, bids[0])).type == 7
            else:
                assert (await click(fake, user, board, "challenge")).type == 7
        assert table.status == "finished" and gap_done
    shared = [m for m in fake.channel_messages(gdm) if not m.ephemeral]
    assert board in shared
    for message in shared:  # every version of every message everyone in the group DM sees
        for version in message.history:
            assert "Your dice" not in version.all_text
        assert "Your dice" not in message.all_text
    assert not [c for c in fake.rest_calls if c.path == "/users/@me/channels"]  # no DM tried: 🎲 My dice only
    no_bot_token_there(fake, gdm)
    fake.assert_no_problems()


async def test_after_a_restart_the_table_goes_on_through_the_token_in_the_store(friends):
    fake, alice, bob, gdm, db = friends
    async with bot_on(fake, db) as bot:
        board = await open_table(fake, alice, bob, gdm, "pig", target=100)
        table = bot.tables.table(gdm.id)
        await fake.wait_for(lambda: not table.lock.locked() and not table.seats[table.state.current].is_bot)
        window = bot.presenter.interactions.windows[table.id]  # type: ignore[attr-defined]
        version = table.version
    async with bot_on(fake, db) as bot:
        table = bot.tables.table(gdm.id)
        assert bot.presenter.interactions.windows[table.id] == window  # type: ignore[attr-defined]
        fake.clock.advance(table.deadline - fake.clock() + 1)
        assert await bot.tables.run_due() == 1  # the missed turn, shown through the token read back
        await fake.wait_for(lambda: not table.lock.locked() and shows(board, table), what="the table, edited")
        assert table.version > version
    no_bot_token_there(fake, gdm)
    fake.assert_no_problems()


async def test_a_game_in_a_server_that_never_added_the_bot(tmp_path):
    async with FakeDiscord() as fake:
        elsewhere = fake.add_guild("Elsewhere", channels=["games"], bot_member=False)
        alice = fake.add_user("alice", guild=elsewhere, app_installed=True)
        bob = fake.add_user("bob", guild=elsewhere, app_installed=True)
        channel = elsewhere.channel("games")
        async with bot_on(fake, str(tmp_path / "tavern.sqlite3")) as bot:
            board = await open_table(fake, alice, bob, channel, "pig", target=20)
            table = bot.tables.table(channel.id)
            assert table.guild_id == elsewhere.id
            await play_pig(fake, bot, board, table, {alice.id: alice, bob.id: bob})
            assert table.status == "finished"
            refused = await (await fake.slash(alice, channel, "pig", "table")).response()
            assert refused.ephemeral  # no table any more: refused, privately
        no_bot_token_there(fake, channel)
        fake.assert_no_problems()


async def test_refusals_an_admin_command_in_a_group_dm_and_a_table_command_where_the_table_is_not(friends):
    fake, alice, bob, gdm, db = friends
    async with bot_on(fake, db) as bot:
        with pytest.raises(CommandUnavailable):
            await fake.slash(alice, gdm, "settings", "show")  # server-only: Discord does not offer it here
        reply = await (await fake.slash(alice, gdm, "pig", "roll")).response()
        assert reply.ephemeral and "no table" in reply.text
        board = (await (await fake.slash(alice, gdm, "pig", "new")).response()).expect_message()
        reply = await (await fake.slash(alice, gdm, "pig", "table")).response()
        assert reply.ephemeral and "lives on its own message" in reply.text
        assert bot.tables.table(gdm.id).message_id == board.id
    no_bot_token_there(fake, gdm)
    fake.assert_no_problems()
