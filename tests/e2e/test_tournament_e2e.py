"""Tournaments end to end (issue 28) through the real discord.py client against the fake Discord, on both database
backends: a whole 5-player Swiss (a bye each round) with its tables in threads, and a whole 6-player knockout (byes
to the top seeds) played in the channel one table at a time where the bot may not start threads; each with a
player who never acts and forfeits by the table's turn deadline, and a restart of the bot mid-round. Each round's
announcement pings only that round's players and shows no die; the final standings equal an independent
recomputation (``bot.tournaments.standings`` over the rows read from the database). And the refusals: a stranger
starting, joining twice, a full tournament, a non-host cancelling a tournament table with /game cancel."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import pytest

from bot.games.dice import ScriptedDice
from bot.games.logged import TIMEOUT
from bot.store import open_store
from bot.tables import tournaments as runner
from bot.tournaments import Entrant, Outcome, Pairing, Plan, Round, standings, winners
from cogs.tournament import standing_lines
from tests.e2e.conftest import World, new_world
from tests.fakediscord import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    CommandUnavailable,
    FakeDiscord,
    FakeMessage,
)


@pytest.fixture(autouse=True)
def nothing_logged_as_an_error(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No traceback in the bot's log while the test ran (its call phase: a fixture's teardown sees only its own)."""
    caplog.set_level(logging.WARNING)
    yield
    errors = [r.getMessage() for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, errors


NO_THREADS = discord.Permissions(create_public_threads=True).value
DIE_FACES = re.compile(r"[⚀⚁⚂⚃⚄⚅🎲]|<:d\d")  # a die's Unicode face, the dice emoji, an application die emoji


class Tavern:
    """The world, six players in it, and the sign-up message of the tournament under test."""

    def __init__(self, world: World) -> None:
        self.world = world
        fake, guild = world.fake, world.guild
        self.players = [world.alice, world.bob, world.carol] + [fake.add_user(n, guild=guild) for n in ("dave", "eve")]
        self.sixth = fake.add_user("fred", guild=guild)
        self.people = {u.id: u for u in [*self.players, self.sixth, world.admin]}

    @property
    def fake(self) -> FakeDiscord:
        return self.world.fake

    async def new(self, host: Any, **options: Any) -> FakeMessage:
        reply = await self.world.slash(host, "tournament", "new", **options)
        assert not reply.ephemeral, reply.text
        return reply.expect_message()

    async def join(self, users: list[Any], signup: FakeMessage) -> None:
        for user in users:
            reply = await self.world.click(user, signup, "join")
            assert reply.type == 7 and f"<@{user.id}>" in reply.text  # the message itself, redrawn

    def announcements(self) -> list[FakeMessage]:
        return [m for m in self.fake.channel_messages(self.world.channel) if m.text.startswith("🏆 **Round ")]

    async def round_announced(self, number: int) -> FakeMessage:
        def found() -> FakeMessage | None:
            return next((m for m in self.announcements() if m.text.startswith(f"🏆 **Round {number}**")), None)

        return await self.fake.wait_for(found, what=f"the announcement of round {number}")

    async def over(self) -> FakeMessage:
        def found() -> FakeMessage | None:
            msgs = self.fake.channel_messages(self.world.channel)
            return next((m for m in msgs if m.text.startswith("🏆 **The Pig tournament is over.**")), None)

        return await self.fake.wait_for(found, what="the end of the tournament")


async def fast_pig(tavern: Tavern) -> None:
    """Pig to 20 on this server: with every die a 6, whoever moves first wins in four rolls."""
    world = tavern.world
    reply = await world.slash(world.admin, "settings", "options", game="pig", values="target=20")
    assert "target=20" in reply.text


async def tables_of(bot: Any, tournament_id: int, number: int) -> list[Any]:
    row = await runner.store_t.load(bot.store, tournament_id)
    assert row is not None
    return [x for x in row.tables if x.round == number]


async def play(tavern: Tavern, bot: Any, game_id: int, no_show: int | None = None) -> None:
    """Play one Pig table to its end by slash commands where it plays (a thread or the channel). Everyone rolls
    (a 6 every time: the mover reaches 20 and wins); at a table with a ``no_show``, who never acts and times out at
    each of their turns (the turn deadline moved to now), the others roll once and hold, until the no-show has
    missed three turns and forfeits."""
    fake = tavern.fake
    while True:
        table = bot.tables.table_by_id(game_id)
        if table is None or not table.running:
            return
        seat = table.seats[table.state.current]
        if seat.id == no_show:
            assert table.deadline is not None
            await bot.tables.run_due(now=table.deadline + 1)
            continue
        move = "hold" if no_show is not None and table.state.turn_total > 0 else "roll"
        record = await fake.slash(tavern.people[seat.id], table.channel_id, "pig", move)
        reply = await record.response()
        assert not reply.text.startswith("⚠️"), reply.text


def check_announcement(message: FakeMessage, players: set[int], tournament_channel: int, in_threads: bool) -> None:
    """Pings exactly ``players`` (no one else, no roles, no @everyone); names each table's thread; shows no die."""
    mentions = message.allowed_mentions or {}
    assert {int(u) for u in mentions.get("users", [])} == players
    assert mentions.get("parse") == [] and not mentions.get("roles")
    assert {int(u) for u in re.findall(r"<@(\d+)>", message.text)} == players
    assert not DIE_FACES.search(message.text), message.text
    threads = re.findall(r"<#(\d+)>", message.text)
    if in_threads:
        assert threads and all(int(t) != tournament_channel for t in threads)
    else:
        assert not threads and "here in this channel" in message.text


async def recomputed(database: str, tournament_id: int) -> tuple[Plan, list[Any], tuple[int, ...], list[Outcome]]:
    """The standings and winners from the database's rows alone: the plan, entrants, rounds and byes, each table's
    players and game, and each game's results and action log (a no-show: only timeouts, then the forfeit)."""
    store = await open_store(database)
    try:
        (plan_text,) = await store.fetch_one("SELECT plan FROM tournaments WHERE id = ?", (tournament_id,))
        plan = Plan.from_json(json.loads(plan_text))
        rows = await store.fetch_all(
            "SELECT user_id, rating, joined, withdrawn FROM tournament_entrants WHERE tournament_id = ?",
            (tournament_id,),
        )
        entrants = [Entrant(int(u), float(r), float(j)) for u, r, j, _ in rows]
        withdrawn = frozenset(int(u) for u, _, _, w in rows if w)
        byes = {
            int(r): tuple(json.loads(b))
            for r, b in await store.fetch_all(
                "SELECT round, byes FROM tournament_rounds WHERE tournament_id = ?", (tournament_id,)
            )
        }
        tables = await store.fetch_all(
            "SELECT round, number, players, game_id, outcome FROM tournament_tables WHERE tournament_id = ?"
            " ORDER BY round, number",
            (tournament_id,),
        )
        rounds, outcomes = [], []
        for number in sorted(byes):
            pairs = [Pairing(int(n), tuple(json.loads(p))) for r, n, p, _, _ in tables if int(r) == number]
            rounds.append(Round(number, tuple(pairs), byes[number]))
        for r, n, p, game_id, outcome in tables:
            players = tuple(json.loads(p))
            if outcome is not None:
                outcomes.append(Outcome.from_json(json.loads(outcome)))
                continue
            places = {
                int(u): int(place)
                for u, place in await store.fetch_all(
                    "SELECT user_id, place FROM results WHERE game_id = ?", (game_id,)
                )
            }
            assert set(places) == set(players)  # every table finished, rated as an ordinary game
            actions = await store.fetch_all(
                "SELECT seat, action FROM actions WHERE game_id = ? AND seat IS NOT NULL", (game_id,)
            )
            absent = {
                players[int(seat)]
                for seat, action in actions
                if action == "forfeit:timeouts"
                and all(a.startswith(TIMEOUT) or a == "forfeit:timeouts" for s, a in actions if s == seat)
            }
            shown = {u: place for u, place in places.items() if u not in absent}
            outcomes.append(Outcome(int(r), int(n), shown, frozenset(absent)))
        table = standings(plan, entrants, rounds, outcomes, withdrawn)
        return plan, table, winners(plan, entrants, rounds, outcomes, withdrawn), outcomes
    finally:
        await store.close()


@pytest.fixture
async def tavern(database: str) -> AsyncIterator[Tavern]:
    async with FakeDiscord() as fake:
        yield Tavern(new_world(fake, database))


def without_threads(world: World) -> None:
    """Neither the bot's role nor @everyone may start a public thread (set before the bot connects)."""
    world.guild.bot_permissions = DEFAULT_BOT_PERMISSIONS & ~NO_THREADS
    world.guild.everyone_permissions = DEFAULT_MEMBER_PERMISSIONS & ~NO_THREADS


async def test_a_whole_swiss_in_threads_with_a_bye_a_no_show_and_a_restart(tavern: Tavern, database: str):
    world, fake = tavern.world, tavern.fake
    dice = ScriptedDice([6] * 2000)
    async with world.bot(dice) as bot:
        await fast_pig(tavern)
        signup = await tavern.new(world.alice, game="pig", format="swiss")
        assert "Pig tournament" in signup.text and "Swiss system" in signup.text
        assert signup.allowed_mentions == {"parse": []}  # the host's mention pings nobody
        await tavern.join(tavern.players, signup)
        tid = int(signup.custom_ids()[0].split(":")[1])
        started = await world.click(world.alice, signup, "start")
        assert started.type == 7 and "Under way: round 1." in started.text
        assert [c.rsplit(":", 1)[1] for c in started.expect_message().custom_ids()] == ["standings", "leave"]

        # round 1: two tables in threads, one bye; the last table has a player who never acts
        first = await tavern.round_announced(1)
        tables = await tables_of(bot, tid, 1)
        assert len(tables) == 2 and {len(x.players) for x in tables} == {2}
        (bye,) = {u.id for u in tavern.players} - {p for x in tables for p in x.players}
        check_announcement(first, {u.id for u in tavern.players}, world.channel.id, in_threads=True)
        assert f"Bye (a win without playing): <@{bye}>" in first.text
        threads = fake.threads(world.channel)
        assert [t.name for t in threads] == ["Round 1 · Table 1", "Round 1 · Table 2"]
        assert {x.channel_id for x in tables} == {t.id for t in threads}
        for x in tables:
            assert f"<#{x.channel_id}>" in first.text
            table = bot.tables.table_by_id(x.game_id)
            assert table is not None and table.running and table.channel_id == x.channel_id
            board = fake.last_message(x.channel_id)  # the table's own message, in its thread
            assert board.channel_id == x.channel_id

        # a non-host may not cancel a tournament table, even its own host seat
        x = tables[0]
        seat_host = tavern.people[x.players[0]]
        if seat_host is world.alice:
            seat_host = tavern.people[x.players[1]]
        refused = await (await fake.slash(seat_host, x.channel_id, "game", "cancel")).response()
        assert refused.ephemeral and refused.text == "⚠️ Only the tournament's host or a server manager can do that."
        assert bot.tables.table_by_id(x.game_id).running

        await play(tavern, bot, tables[0].game_id)
        no_show = tables[1].players[1]
        await play(tavern, bot, tables[1].game_id, no_show=no_show)

        # round 2: the restart comes after one of its tables has ended
        second = await tavern.round_announced(2)
        check_announcement(second, {u.id for u in tavern.players}, world.channel.id, in_threads=True)
        tables = await tables_of(bot, tid, 2)
        await play(tavern, bot, tables[0].game_id)
    async with world.bot(dice) as bot:
        assert bot.tables.table_by_id(tables[1].game_id).running  # restored in its thread
        after = await world.click(world.carol, signup, "standings")  # the sign-up message's buttons outlive it
        assert after.ephemeral and after.text.startswith("**Standings** after round 2")
        await play(tavern, bot, tables[1].game_id)
        third = await tavern.round_announced(3)
        check_announcement(third, {u.id for u in tavern.players}, world.channel.id, in_threads=True)
        for x in await tables_of(bot, tid, 3):
            await play(tavern, bot, x.game_id)
        over = await tavern.over()
        all_tables = [x for n in (1, 2, 3) for x in await tables_of(bot, tid, n)]
        assert len(tavern.announcements()) == 3  # one announcement per round, none repeated by the restart
        assert len(fake.threads(world.channel)) == 6 and all(t.type == 11 for t in fake.threads(world.channel))
        await fake.wait_for(lambda: all(t.archived for t in fake.threads(world.channel)), what="threads archived")
        byes = [
            int(b)
            for m in tavern.announcements()
            for b in re.findall(r"Bye \(a win without playing\): <@(\d+)>", m.text)
        ]
        assert len(byes) == 3 and len(set(byes)) == 3  # nobody has a bye twice
    plan, table, won, outcomes = await recomputed(database, tid)
    assert {(o.round, o.table): set(o.no_shows) for o in outcomes if o.no_shows} == {(1, 2): {no_show}}
    lines = standing_lines(plan, table, "en")
    assert "\n".join(lines) in over.text
    assert ("Winner: " if len(won) == 1 else "Winners: ") + ", ".join(f"<@{p}>" for p in won) in over.text
    assert over.allowed_mentions == {"parse": []} and not DIE_FACES.search(over.text)
    picture(tavern, over)
    later = [x for x in all_tables if x.round > 1]
    assert any(no_show in x.players for x in later)  # a no-show of a Swiss is paired again in the later rounds
    fake.assert_no_problems()


async def test_a_whole_knockout_in_the_channel_without_threads(tavern: Tavern, database: str):
    world, fake = tavern.world, tavern.fake
    without_threads(world)
    six = [*tavern.players, tavern.sixth]
    dice = ScriptedDice([6] * 2000)
    async with world.bot(dice) as bot:
        await fast_pig(tavern)
        signup = await tavern.new(world.bob, game="pig", format="knockout")
        await tavern.join(six, signup)
        tid = int(signup.custom_ids()[0].split(":")[1])
        started = await world.slash(world.bob, "tournament", "start")
        assert started.ephemeral and started.text == "The tournament has started: round 1 is being opened."

        first = await tavern.round_announced(1)
        tables = await tables_of(bot, tid, 1)
        assert len(tables) == 2
        seated = {p for x in tables for p in x.players}
        check_announcement(first, {u.id for u in six}, world.channel.id, in_threads=False)
        assert "Byes (a win without playing): " in first.text and len(seated) == 4
        assert "after the tables before it" in first.text
        assert fake.threads(world.channel) == []
        assert not fake.calls(route="/channels/{channel_id}/threads")  # the cache said no: no call refused
        # one table at a time in the channel: the second waits for the first
        assert tables[0].game_id is not None and tables[1].game_id is None
        no_show = tables[0].players[0]
        await play(tavern, bot, tables[0].game_id, no_show=no_show)
        done = tables[0].game_id
        opened = await fake.wait_for(lambda: channel_table(bot, world.channel.id, other_than=done))
        assert opened == (await tables_of(bot, tid, 1))[1].game_id  # the queued table, now in the channel
        await play(tavern, bot, opened)

        second = await tavern.round_announced(2)
        players = {p for x in await tables_of(bot, tid, 2) for p in x.players}
        assert no_show not in players and len(players) == 4
        check_announcement(second, players, world.channel.id, in_threads=False)
        tables = await tables_of(bot, tid, 2)
        await play(tavern, bot, tables[0].game_id)
    async with world.bot(dice) as bot:
        # start-up opened the table that was queued behind the one that ended before the restart
        opened = await fake.wait_for(lambda: channel_table(bot, world.channel.id, other_than=tables[0].game_id))
        assert opened == (await tables_of(bot, tid, 2))[1].game_id
        await play(tavern, bot, opened)
        third = await tavern.round_announced(3)
        (final,) = await tables_of(bot, tid, 3)
        check_announcement(third, set(final.players), world.channel.id, in_threads=False)
        await play(tavern, bot, final.game_id)
        over = await tavern.over()
    plan, table, won, outcomes = await recomputed(database, tid)
    assert {(o.round, o.table): set(o.no_shows) for o in outcomes if o.no_shows} == {(1, 1): {no_show}}
    assert "\n".join(standing_lines(plan, table, "en")) in over.text
    assert len(won) == 1 and f"Winner: <@{won[0]}>" in over.text
    assert next(s for s in table if s.player == no_show).eliminated
    picture(tavern, over)  # the bracket
    fake.assert_no_problems()


def picture(tavern: Tavern, message: FakeMessage) -> None:
    """The message shows the standings picture (a PNG of the table or the bracket) below its text."""
    (attachment,) = message.attachments
    assert attachment["filename"] == "standings.png"
    png = tavern.fake.attachment_bytes(attachment)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000
    galleries = [c for c in message.all_components() if c.get("type") == 12]
    assert [item["media"]["url"] for g in galleries for item in g["items"]] == ["attachment://standings.png"]


def channel_table(bot: Any, channel_id: int, other_than: int | None = None) -> int | None:
    """The game id of the table running in ``channel_id`` (not ``other_than``), or None."""
    table = bot.tables.by_channel.peek(channel_id)
    return table.id if table is not None and table.running and table.id != other_than else None


async def test_refusals_change_nothing(tavern: Tavern, monkeypatch: pytest.MonkeyPatch):
    world = tavern.world
    monkeypatch.setattr(runner, "MAX_ENTRANTS", 2)
    async with world.bot(ScriptedDice([6] * 200)) as bot:
        signup = await tavern.new(world.alice, game="pig", format="round-robin")
        await tavern.join([world.alice], signup)
        twice = await world.click(world.alice, signup, "join")
        assert twice.ephemeral and twice.text == "⚠️ You are already signed up for this tournament."
        await tavern.join([world.bob], signup)
        left = await world.click(world.bob, signup, "leave")
        assert left.type == 7 and f"<@{world.bob.id}>" not in left.text and "**1 player** signed up" in left.text
        again = await world.click(world.bob, signup, "leave")
        assert again.ephemeral and again.text == "⚠️ You are not signed up for this tournament."
        await tavern.join([world.bob], signup)
        full = await world.click(world.carol, signup, "join")
        assert full.ephemeral and full.text == "⚠️ The tournament is full (2 players)."
        stranger = await world.click(world.carol, signup, "start")
        assert stranger.ephemeral and stranger.text == "⚠️ Only the tournament's host or a server manager can do that."
        by_command = await world.slash(world.carol, "tournament", "start")
        assert by_command.text == stranger.text
        cancel = await world.slash(world.carol, "tournament", "cancel")
        assert cancel.text == stranger.text
        row = await bot.tournaments.in_channel(world.channel.id)
        assert (
            row is not None
            and row.status == "signup"
            and [e.user_id for e in row.entrants]
            == [
                world.alice.id,
                world.bob.id,
            ]
        )
        again = await world.slash(world.bob, "tournament", "new", game="pig", format="swiss")
        assert again.text == "⚠️ This channel already has a tournament: finish or cancel it first."
        fixed = await world.slash(world.bob, "tournament", "new", game="pig", format="knockout", rounds=3)
        assert fixed.text.startswith("⚠️ A knockout or a round robin has as many rounds as it needs")
        seats = await world.slash(world.bob, "tournament", "new", game="pig", format="round-robin", seats=3)
        assert seats.ephemeral and seats.text.startswith("⚠️ ")
        assert (await world.slash(world.carol, "tournament", "pause")).text == stranger.text
        assert (await world.slash(world.alice, "tournament", "pause")).text == "⚠️ The tournament is not under way."
        # an admin may use the host's tools: cancelled, the message says so and loses its buttons
        done = await world.slash(world.admin, "tournament", "cancel")
        assert done.text == "The tournament is cancelled."
        await tavern.fake.wait_for(lambda: "Cancelled." in signup.text and not signup.custom_ids())

        # rounds below 1 cannot be typed; too many for the entrants are refused at the start, which changes nothing
        with pytest.raises(CommandUnavailable):
            await tavern.fake.slash(
                world.bob, world.channel, "tournament", "new", options={"game": "pig", "format": "swiss", "rounds": 0}
            )
        swiss = await tavern.new(world.bob, game="pig", format="swiss", rounds=5)
        assert "5 rounds" in swiss.text
        await tavern.join([world.alice, world.bob], swiss)
        many = await world.click(world.bob, swiss, "start")
        assert many.ephemeral and many.text == "⚠️ This tournament can have 1 to 1 rounds, not 5."
        row = await bot.tournaments.in_channel(world.channel.id)
        assert row is not None and row.status == "signup" and not row.tables
    tavern.fake.assert_no_problems()


async def test_host_tools_remove_pause_resume_and_cancel_a_running_round_robin(tavern: Tavern):
    world, fake = tavern.world, tavern.fake
    dave = tavern.players[3]
    async with world.bot(ScriptedDice([6] * 500)) as bot:
        await fast_pig(tavern)
        signup = await tavern.new(world.carol, game="pig", format="round-robin")
        await tavern.join([world.alice, world.bob, world.carol, dave], signup)
        stranger = await world.slash(world.carol, "tournament", "remove", member=tavern.sixth.id)
        assert stranger.ephemeral and stranger.text == "⚠️ That member is not in this tournament."
        not_host = await world.slash(world.alice, "tournament", "remove", member=dave.id)
        assert not_host.text == "⚠️ Only the tournament's host or a server manager can do that."
        removed = await world.slash(world.carol, "tournament", "remove", member=dave.id)
        assert removed.ephemeral and removed.text == f"<@{dave.id}> is out of the tournament."
        await fake.wait_for(lambda: f"<@{dave.id}>" not in signup.text and "**3 players** signed up" in signup.text)
        empty = await world.slash(world.alice, "tournament", "standings")
        assert empty.text == "No round has been played yet."

        await world.click(world.carol, signup, "start")
        first = await tavern.round_announced(1)
        check_announcement(first, {world.alice.id, world.bob.id, world.carol.id}, world.channel.id, in_threads=True)
        tid = int(signup.custom_ids()[0].split(":")[1])
        (table,) = await tables_of(bot, tid, 1)
        paused = await world.slash(world.admin, "tournament", "pause")  # a manager may use the host's tools
        assert paused.text == "The tournament is paused: tables in play finish, the next round waits."
        await fake.wait_for(lambda: "Paused by the host after round 1." in signup.text)
        again = await world.slash(world.carol, "tournament", "pause")
        assert again.text == "⚠️ The tournament is already paused."
        await play(tavern, bot, table.game_id)
        settle = getattr(bot.tournaments, "settle", None)  # where a table's end is acted on in the background
        if settle is not None:
            await settle()
        assert len(tavern.announcements()) == 1  # the round is over, the next one waits
        standings = await world.slash(world.bob, "tournament", "standings")
        assert standings.ephemeral and standings.text.startswith("**Standings** after round 1")
        assert "1. <@" in standings.text and "— 1 pt · Sonneborn–Berger " in standings.text  # the winner, the bye
        assert "— 0 pts · Sonneborn–Berger " in standings.text  # the loser
        picture(tavern, standings.expect_message())

        resumed = await world.slash(world.carol, "tournament", "resume")
        assert resumed.text == "The tournament goes on."
        second = await tavern.round_announced(2)
        (table,) = await tables_of(bot, tid, 2)
        check_announcement(second, {world.alice.id, world.bob.id, world.carol.id}, world.channel.id, in_threads=True)
        assert bot.tables.table_by_id(table.game_id).running

        # the host cancels round 2's table with /game cancel: a no-contest (both share place 1), round 3 opens
        gone = await (await fake.slash(world.carol, table.channel_id, "game", "cancel")).response()
        assert gone.ephemeral and not gone.text.startswith("⚠️")
        third = await tavern.round_announced(3)
        check_announcement(third, {world.alice.id, world.bob.id, world.carol.id}, world.channel.id, in_threads=True)
        (stored,) = await tables_of(bot, tid, 2)
        assert stored.outcome is not None and sorted(stored.outcome["places"]) == sorted(
            [[p, 1] for p in stored.players]
        )
        (table,) = await tables_of(bot, tid, 3)

        cancelled = await world.slash(world.carol, "tournament", "cancel")
        assert cancelled.text == "The tournament is cancelled."
        assert bot.tables.table_by_id(table.game_id) is None  # its open table is cancelled with it
        await fake.wait_for(lambda: "Cancelled." in signup.text and not signup.custom_ids())
        said = await fake.wait_for(
            lambda: next((m for m in fake.channel_messages(world.channel) if "was cancelled" in m.text), None)
        )
        assert said.text == "🏆 The Pig tournament was cancelled by its host."
        await fake.wait_for(lambda: all(t.archived for t in fake.threads(world.channel)), what="threads archived")
        assert len(fake.threads(world.channel)) == 3
        assert said.allowed_mentions == {"parse": []}
        gone = await world.slash(world.carol, "tournament", "standings")
        assert gone.text == "⚠️ There is no tournament open in this channel."
    fake.assert_no_problems()


async def test_a_player_who_leaves_a_running_tournament_forfeits_their_table_and_is_never_paired_again(tavern: Tavern):
    world, fake = tavern.world, tavern.fake
    three = [world.alice, world.bob, world.carol]
    async with world.bot(ScriptedDice([6] * 500)) as bot:
        await fast_pig(tavern)
        signup = await tavern.new(world.alice, game="pig", format="round-robin")
        await tavern.join(three, signup)
        await world.click(world.alice, signup, "start")
        await tavern.round_announced(1)
        tid = int(signup.custom_ids()[0].split(":")[1])
        (table,) = await tables_of(bot, tid, 1)
        leaver = tavern.people[table.players[1]]
        record = await fake.click(leaver, signup, next(c for c in signup.custom_ids() if c.endswith(":leave")))
        left = await record.response()
        assert left.type == 7 and f"<@{leaver.id}> (out)" in left.text
        (note,) = await record.wait_followups(1)
        assert note.ephemeral and note.text == "You have left the tournament; your results so far still count."
        await fake.wait_for(lambda: not bot.tables.table_by_id(table.game_id), what="the leaver's table closed")
        second = await tavern.round_announced(2)
        rest = {u.id for u in three} - {leaver.id}
        assert leaver.id not in {p for x in await tables_of(bot, tid, 2) for p in x.players}
        assert {int(u) for u in (second.allowed_mentions or {}).get("users", [])} <= rest
        assert f"<@{leaver.id}>" not in second.text
        refused = await world.click(leaver, signup, "leave")
        assert refused.ephemeral and refused.text == "⚠️ You are not signed up for this tournament."
    fake.assert_no_problems()


async def test_a_tournament_speaks_the_servers_language(database: str):
    async with FakeDiscord() as fake:
        world = new_world(fake, database, guild_locale="de", user_locale="de")
        async with world.bot(ScriptedDice([6] * 50)):
            reply = await world.slash(world.alice, "tournament", "new", game="pig", format="knockout")
            signup = reply.expect_message()
            assert signup.text.startswith("🏆 **Schweinchen-Turnier** · K.-o.-System")
            assert "Noch hat sich niemand angemeldet." in signup.text
            assert [b["label"] for b in signup.buttons()] == ["Mitspielen", "Aussteigen", "Starten"]
            twice = await world.click(world.alice, signup, "join")
            assert twice.type == 7 and "**1 Spieler** angemeldet:" in twice.text
            refused = await world.click(world.alice, signup, "join")
            assert refused.text == "⚠️ Du bist für dieses Turnier schon angemeldet."
            few = await world.click(world.alice, signup, "start")
            assert few.text == "⚠️ Ein Turnier braucht mindestens 2 Spieler; bisher angemeldet: 1."
        fake.assert_no_problems()
