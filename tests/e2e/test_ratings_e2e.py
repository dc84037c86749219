"""Ratings end to end (issue 15): the leaderboard by rating with its provisional section and the computer levels for
reference, /stats with its chart, seasons (a fresh start, the old standings still shown), and the global board
(opted-in servers only, opted-out members nowhere)."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.store import ratings
from cogs.stats import PAGE_ID
from tests.e2e.conftest import MANAGE_GUILD, World
from tests.fakediscord import DEFAULT_MEMBER_PERMISSIONS

# Every test here also proves that nothing was logged as an error (a traceback in the bot's log).
pytestmark = pytest.mark.usefixtures("no_errors_logged")


async def play_pig(world: World, bot: Any, players: list[Any], computer: str | None = None, channel: Any = None) -> int:
    """The first player hosts Pig to 20, the others join (and a computer player of level ``computer``); each
    person rolls until their turn holds 8, then holds. Returns the game id."""
    channel = channel or world.channel
    host = players[0]
    board = (await (await world.fake.slash(host, channel, "pig", "new", options={"target": 20})).response()).message
    assert board is not None
    for player in players[1:]:
        await (
            await world.fake.click(player, board, next(c for c in board.custom_ids() if c.endswith(":join")))
        ).response()
    if computer is not None:
        menu = next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":addbot"))
        await (await world.fake.select(host, board, menu, [f"addbot:{computer}"])).response()
    await (await world.fake.click(host, board, next(c for c in board.custom_ids() if c.endswith(":start")))).response()
    table = bot.tables.table(channel.id)
    people = {p.id: p for p in players}
    while table.running:
        seat = table.seats[table.state.current]
        if seat.is_bot:  # the computer player moves by itself
            await asyncio.sleep(0.005)
            continue
        move = "hold" if table.state.turn_total >= 8 else "roll"
        reply = await (await world.fake.slash(people[seat.id], channel, "pig", move)).response()
        assert not reply.text.startswith("⚠️"), reply.text
    return table.id


def board_lines(text: str) -> list[str]:
    return text.split("\n")


async def test_the_board_ranks_by_rating_with_provisional_members_apart_and_computers_for_reference(world: World):
    async with world.bot() as bot:
        for _ in range(5):
            await play_pig(world, bot, [world.alice, world.bob])
        await play_pig(world, bot, [world.carol, world.alice], computer="hard")

        reply = await world.slash(world.admin, "leaderboard", game="pig")
        lines = board_lines(reply.text)
        expected = [e.user_id for e in (await ratings.board(bot.store, world.guild.id, 0, "pig", 10))[0]]
        assert expected[2] == world.carol.id  # one game: provisional, after the others whatever her rating
        first, second = (next(x for x in lines if f"<@{u}>" in x) for u in expected[:2])
        assert first.startswith(f"1. <@{expected[0]}> — **") and second.startswith(f"2. <@{expected[1]}> — **")
        provisional = lines.index("**Provisional** (fewer than 5 rated games)")
        carol = next(i for i, x in enumerate(lines) if f"<@{world.carol.id}>" in x)
        assert carol > provisional and lines[carol].startswith("• ")
        assert "1 win · 0 losses / 1 game (100% won)" in lines[carol] or "0 wins · 1 loss / 1 game" in lines[carol]
        hard = next(x for x in lines if x.startswith("Hard computer: "))
        assert re.fullmatch(r"Hard computer: \d{1,3}(,\d{3})* pts", hard)  # the shown scale, with its unit
        assert "<@-" not in reply.text and "Season: First season" in reply.text  # never a computer on the board

        stats = await world.slash(world.alice, "stats", game="pig")
        assert stats.ephemeral and re.search(r"\*\*Rating — Pig\*\* \(First season\): \*\*\d,\d{3} pts\*\*", stats.text)
        assert "μ" not in stats.text and "σ" not in stats.text  # no jargon
        assert "Rank on this server: #" in stats.text and "Favourite game: Pig" in stats.text
        assert re.search(r"Hard computer: [\d,]+ pts — you are [\d,]+ pts (ahead|behind)", stats.text)
        assert "**Pig**: " in stats.text  # the all-time record stays
        explain = await world.click(world.alice, stats.expect_message(), "explain")
        assert explain.ephemeral and "Everyone starts at **1,000 pts**" in explain.text
        assert "**provisional**" in explain.text and "μ" not in explain.text
        (attachment,) = stats.expect_message().attachments
        assert attachment["filename"] == "rating.png"
        assert world.fake.attachment_bytes(attachment).startswith(b"\x89PNG\r\n\x1a\n")

        carol_stats = await world.slash(world.carol, "stats")
        assert (
            "Provisional: 1 rated game of the 5" in carol_stats.text and "Rank on this server" not in carol_stats.text
        )
        # One rated game: a sentence, not a one-dot chart.
        assert "The chart of your rating appears after 2 more rated games." in carol_stats.text
        assert not carol_stats.expect_message().attachments
    world.fake.assert_no_problems()


async def test_a_new_season_starts_fresh_and_the_old_standings_stay(world: World):
    async with world.bot() as bot:
        await play_pig(world, bot, [world.alice, world.bob])
        started = await world.slash(world.admin, "settings", "season", "start", name="Spring")
        assert started.ephemeral and "Season “Spring” has started" in started.text

        now = await world.slash(world.carol, "leaderboard")
        assert "No finished games yet." in now.text and "Season: Spring" in now.text
        choices = await world.fake.autocomplete(world.carol, world.channel, "leaderboard", options={"season": ""})
        assert choices == [{"name": "Spring", "value": "#1"}, {"name": "First season", "value": "#0"}]
        assert await world.fake.autocomplete(world.carol, world.channel, "leaderboard", options={"season": "spr"}) == [
            {"name": "Spring", "value": "#1"}
        ]
        old = await world.slash(world.carol, "leaderboard", season="#0")
        assert f"<@{world.alice.id}>" in old.text and "Season: First season" in old.text
        assert "Season: Spring" in (await world.slash(world.carol, "leaderboard", season="SPRING")).text

        unknown = await world.slash(world.carol, "leaderboard", season="Autumn")
        assert unknown.ephemeral and unknown.text == "⚠️ This server has no season called “Autumn”."
        taken = await world.slash(world.admin, "settings", "season", "start", name="spring")
        assert taken.ephemeral and "already has a season called “spring”" in taken.text
        long = await world.slash(world.admin, "settings", "season", "start", name="x" * 33)
        assert "at most 32 characters" in long.text
        assert [s.name for s in await ratings.seasons(bot.store, world.guild.id)] == ["Spring", None]

        await play_pig(world, bot, [world.carol, world.bob])
        spring = await world.slash(world.alice, "leaderboard", game="pig")
        assert f"<@{world.carol.id}>" in spring.text and f"<@{world.alice.id}>" not in spring.text
        shown = await world.slash(world.admin, "settings", "show")
        assert "Rating season: Spring" in shown.text and "Cross-server leaderboard: not shared" in shown.text
    world.fake.assert_no_problems()


async def test_the_global_board_lists_opted_in_servers_and_never_opted_out_members(world: World):
    fake = world.fake
    inn = fake.add_guild("Inn", channels=["dice"])
    dave, erin = fake.add_user("dave", guild=inn), fake.add_user("erin", guild=inn)
    keeper = fake.add_user("keeper", guild=inn, permissions=DEFAULT_MEMBER_PERMISSIONS | MANAGE_GUILD)
    async with world.bot() as bot:
        await play_pig(world, bot, [world.alice, world.bob])
        await play_pig(world, bot, [dave, erin], channel=inn.channel("dice"))

        async def global_board(user: Any, channel: Any) -> str:
            record = await fake.slash(user, channel, "leaderboard", options={"scope": "global"})
            return str((await record.response()).text)

        assert "No finished games yet." in await global_board(dave, inn.channel("dice"))  # nobody shares yet
        on = await world.slash(world.admin, "settings", "global", state="on")
        assert on.ephemeral and "now appear on the cross-server leaderboard" in on.text
        text = await global_board(dave, inn.channel("dice"))
        assert f"<@{world.alice.id}>" in text and f"<@{world.bob.id}>" in text
        assert f"<@{dave.id}>" not in text and "This server does not share its board" in text

        await (await fake.slash(keeper, inn.channel("dice"), "settings", "global", options={"state": "on"})).response()
        text = await global_board(world.carol, world.channel)
        assert all(f"<@{u.id}>" in text for u in (world.alice, world.bob, dave, erin))
        assert "Every server that shares its board" in text

        await world.slash(world.bob, "privacy", "optout")  # off every board: the global one and the server's
        assert f"<@{world.bob.id}>" not in await global_board(dave, inn.channel("dice"))
        assert f"<@{world.bob.id}>" not in (await world.slash(world.carol, "leaderboard")).text
        assert "Not on the leaderboards" not in (await world.slash(world.bob, "stats")).text  # provisional says so

        refused = await world.slash(world.carol, "leaderboard", scope="global", season="#0")
        assert refused.ephemeral and "Seasons belong to one server" in refused.text
        await world.slash(world.admin, "settings", "global", state="off")
        text = await global_board(dave, inn.channel("dice"))
        assert f"<@{world.alice.id}>" not in text and f"<@{dave.id}>" in text
    world.fake.assert_no_problems()


async def test_board_button_ids_old_and_new_parse():
    from types import SimpleNamespace

    from cogs.stats import PageButton

    async def button(custom_id: str) -> PageButton:
        match = re.fullmatch(PAGE_ID, custom_id)
        assert match is not None
        return await PageButton.from_custom_id(SimpleNamespace(guild_id=5), SimpleNamespace(label="Next"), match)

    old = await button("lb:5:pig:2")  # from before seasons: the current season's board, as it was
    assert (old.guild_id, old.game, old.page, old.season, old.scope) == (5, "pig", 2, None, "server")
    assert old.custom_id == "lb:5:pig:2"
    season = await button("lb:5:all:3:12")
    assert (season.season, season.scope, season.custom_id) == (12, "server", "lb:5:all:3:12")
    shared = await button("lb:5:pig:1:g")
    assert (shared.season, shared.scope, shared.custom_id) == (None, "global", "lb:5:pig:1:g")
    assert re.fullmatch(PAGE_ID, "lb:5:pig:1:x") is None
