"""/dicestats end to end (issue 27), on both store backends: after real games through the fake Discord, the
server's counts per face (equal to the dice the store recorded), the χ² line and the chart attached; a member's
luck; an opted-out member's dice not shown to others."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from typing import Any

import pytest

from tests.e2e.conftest import World, new_world
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.usefixtures("no_errors_logged")
FACES = "⚀⚁⚂⚃⚄⚅"


@pytest.fixture
async def tavern(database: str) -> Any:
    """The e2e world on each backend: the bot's store a SQLite file, then a PostgreSQL schema."""
    async with FakeDiscord() as fake:
        yield new_world(fake, database)


async def play_pig(world: World, bot: Any, players: list[Any]) -> int:
    """The first player hosts Pig to 20, the other joins; each rolls until 8 are at stake, then holds."""
    host = players[0]
    board = (
        await (await world.fake.slash(host, world.channel, "pig", "new", options={"target": 20})).response()
    ).message
    assert board is not None
    for player in players[1:]:
        join = next(c for c in board.custom_ids() if c.endswith(":join"))
        await (await world.fake.click(player, board, join)).response()
    start = next(c for c in board.custom_ids() if c.endswith(":start"))
    await (await world.fake.click(host, board, start)).response()
    table = bot.tables.table(world.channel.id)
    people = {p.id: p for p in players}
    while table.running:
        seat = table.seats[table.state.current]
        move = "hold" if table.state.turn_total >= 8 else "roll"
        reply = await (await world.fake.slash(people[seat.id], world.channel, "pig", move)).response()
        assert not reply.text.startswith("⚠️"), reply.text
    return table.id


async def recorded_faces(bot: Any, seat: int | None = None) -> list[int]:
    """Each face's count in the store's action log (of one seat's own moves), read here without the bot's code."""
    rows = await bot.store.fetch_all("SELECT seat, dice FROM actions WHERE dice IS NOT NULL")
    counted = Counter(
        face
        for row in rows
        if seat is None or row["seat"] == seat
        for call in json.loads(row["dice"])
        if call[0] == "r"
        for face in call[2]
    )
    return [counted[face] for face in range(1, 7)]


def shown_faces(text: str) -> list[int]:
    return [int(re.search(rf"{face} \*\*([\d,]+)\*\*", text)[1].replace(",", "")) for face in FACES]  # type: ignore[index]


async def test_the_server_sees_each_faces_count_the_chi_square_line_and_the_chart(tavern: World):
    world = tavern
    async with world.bot() as bot:
        for _ in range(3):
            await play_pig(world, bot, [world.alice, world.bob])
            await asyncio.sleep(0)

        reply = await world.slash(world.carol, "dicestats")
        assert reply.ephemeral
        assert "🎲 Dice on this server — all games" in reply.text
        assert "Every season · finished games: 3 · dice: " in reply.text
        assert shown_faces(reply.text) == await recorded_faces(bot)
        assert "χ² goodness of fit: χ² = " in reply.text or "Too few dice for the χ² test" in reply.text
        assert "**Pig** — rolls: " in reply.text and "fewer is luckier" in reply.text
        (attachment,) = reply.expect_message().attachments
        assert attachment["filename"] == "dice.png"
        png = world.fake.attachment_bytes(attachment)
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5_000

        # A member: their own rolls only (in Pig every roll is the roller's own move), and their luck.
        alice = await world.slash(world.bob, "dicestats", member=world.alice.id, game="pig")
        assert "🎲 alice's dice — Pig" in alice.text
        rows = await bot.store.fetch_all("SELECT id, seats FROM games WHERE status = 'finished'")
        counted: Counter[int] = Counter()
        for row in rows:
            seat = [s["id"] for s in json.loads(row["seats"])].index(world.alice.id)
            for dice in await bot.store.fetch_all(
                "SELECT dice FROM actions WHERE game_id = ? AND seat = ? AND dice IS NOT NULL", (row["id"], seat)
            ):
                counted.update(f for call in json.loads(dice[0]) for f in call[2])
        assert shown_faces(alice.text) == [counted[f] for f in range(1, 7)]
        rolls = re.search(r"\*\*Pig\*\* — rolls: (\d+) · busts \(a 1\): (\d+)", alice.text)
        assert rolls is not None and int(rolls[1]) >= int(rolls[2])
        assert alice.expect_message().attachments

        # A season that does not exist is refused in words; an existing one by its number.
        refused = await world.slash(world.carol, "dicestats", season="Nope")
        assert refused.text == "⚠️ This server has no season called “Nope”."
        first = await world.slash(world.carol, "dicestats", season="#0")
        assert "First season · finished games: 3" in first.text
    world.fake.assert_no_problems()


async def test_an_opted_out_members_dice_are_not_shown_to_others(world: World):
    async with world.bot() as bot:
        await play_pig(world, bot, [world.alice, world.bob])
        await world.slash(world.bob, "privacy", "optout")

        theirs = await world.slash(world.alice, "dicestats", member=world.bob.id)
        assert theirs.ephemeral and "bob has opted out (`/privacy optout`)" in theirs.text
        assert "⚀" not in theirs.text and not theirs.expect_message().attachments
        own = await world.slash(world.bob, "dicestats", member=world.bob.id)  # their own, privately
        assert own.ephemeral and "🎲 bob's dice" in own.text and own.expect_message().attachments
        server = await world.slash(world.alice, "dicestats")  # the server's counts still hold every die
        assert shown_faces(server.text) == await recorded_faces(bot)
    world.fake.assert_no_problems()
