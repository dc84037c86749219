"""Mex end to end: slash commands and the table message's buttons, against the fake Discord.

Mex throws are open (rules/mex.md §10), so the secrecy checks assert that nothing is hidden at all:
every seat's view equals the public one, no event is private, and nobody is sent a DM.
"""

from __future__ import annotations

from typing import Any

from bot.games.dice import ScriptedDice
from tests.e2e.conftest import World
from tests.e2e.drawn import shows

SEAT_ONLY_KEYS = ("you", "legal")  # the only view fields that depend on the viewer


def actions_on(board) -> set[str]:
    """The encoded actions the table message offers (``dt:<table>:<version>:<action>``)."""
    return {c.split(":", 3)[3] for c in board.custom_ids() if c.startswith("dt:")}


def assert_nothing_hidden(table: Any) -> None:
    """Mex hides nothing: each player's view is the public view (plus whose view it is)."""
    public = table.engine.view(table.state, None)
    for seat in range(len(table.seats)):
        own = table.engine.view(table.state, seat)
        assert {k: v for k, v in own.items() if k not in SEAT_ONLY_KEYS} == {
            k: v for k, v in public.items() if k not in SEAT_ONLY_KEYS
        }


async def shown(world: World, table: Any, board) -> None:
    """Wait until the table message shows the table's current state (slash moves update it by REST)."""
    await world.fake.wait_for(lambda: shows(board, table), what="the table message to catch up")


class Mex:
    """Drives one table: every move through a button or a slash command, checked after each step."""

    def __init__(self, world: World, bot: Any) -> None:
        self.world, self.bot = world, bot
        self.board: Any = None
        self.table: Any = None

    async def open(self, **options: Any):
        reply = await self.world.slash(self.world.alice, "mex", "new", **options)
        assert reply.type == 4 and not reply.ephemeral
        self.board = reply.expect_message()
        assert (await self.world.click(self.world.bob, self.board, "join")).type == 7
        assert (await self.world.click(self.world.carol, self.board, "join")).type == 7
        assert (await self.world.click(self.world.alice, self.board, "start")).type == 7
        self.table = self.bot.tables.table(self.world.channel.id)
        return self.board

    async def press(self, user: Any, action: str) -> None:
        """Click a move on the table message: it must be offered, accepted, and shown in place."""
        await shown(self.world, self.table, self.board)  # a player clicks what the message shows now
        assert action in actions_on(self.board), actions_on(self.board)
        version = self.table.version
        reply = await self.world.click(user, self.board, action)
        assert reply.type == 7, reply.text
        assert self.table.version == version + 1
        assert_nothing_hidden(self.table)

    async def slash(self, user: Any, *path: str, **options: Any) -> str:
        version = self.table.version
        reply = await self.world.slash(user, "mex", *path, **options)
        assert reply.ephemeral and "⚠️" not in reply.text, reply.text
        assert self.table.version == version + 1
        assert_nothing_hidden(self.table)
        return reply.text

    async def refused(self, reply_coro, expected: str) -> None:
        """A bad move: a specific ephemeral error and nothing changed."""
        await shown(self.world, self.table, self.board)
        before = (self.table.engine.dumps(self.table.state), self.table.version, self.board.edits)
        reply = await reply_coro
        assert reply.ephemeral and reply.text.startswith("⚠️") and expected in reply.text, reply.text
        assert (self.table.engine.dumps(self.table.state), self.table.version, self.board.edits) == before


async def test_a_whole_three_player_mex_game_through_commands_and_buttons(world: World):
    faces = [4, 2, 5, 5, 3, 1, 4, 1, 1, 4]  # round 1: alice 42 → 500 (limit 2), bob 31 → 41, carol 41: a tie
    faces += [2, 5, 1, 2]  # extra round in pips: bob 7, carol 3 → carol loses 1 life
    faces += [2, 1, 3, 2, 6, 6]  # round 2 (carol starts): carol MEX, alice 32, bob 600 → alice loses 2, out
    faces += [3, 1]  # round 3 (bob starts): bob 31 and ends the round → bob loses 1
    faces += [6, 5, 5, 4]  # round 4: bob 65, carol 54 → carol out, bob wins
    dice = ScriptedDice(faces)
    async with world.bot(dice) as bot:
        game = Mex(world, bot)
        board = await game.open(starting_lives=2)
        alice, bob, carol = world.alice, world.bob, world.carol
        assert "Round 1" in board.text and "up to **3**" in board.text and "❤️ 2" in board.text
        assert actions_on(board) == {"throw", "me"}  # nothing to stand on before a throw

        # Round 1: alice sets the limit at 2 throws.
        await game.press(alice, "throw")
        assert "alice** threw ⚃4 ⚁2 → **42** (1/3)" in board.text
        assert {"throw", "stand", "end_round"} <= actions_on(board)
        text = await game.slash(alice, "throw")
        assert "→ **500** (2/3)" in text
        await game.press(alice, "stand")
        assert "Throw limit: **2**" in board.text and "42 → **500**" in board.text
        await game.press(bob, "throw")
        await game.press(bob, "throw")  # 41: at the limit, but he may still end the round early
        assert "throw" not in actions_on(board) and {"stand", "end_round"} <= actions_on(board)
        reply = await world.click(bob, board, "me")  # bob's DMs are closed: My dice still answers, ephemerally
        assert reply.ephemeral and "Your moves: ✋ Stand · ⏹️ End round" in reply.text
        # nothing in Mex is hidden: the reply says so instead of repeating the table
        assert reply.text.startswith("Nothing is hidden in this game") and "Round 1" not in reply.text
        await game.press(bob, "stand")
        await game.press(carol, "throw")
        await game.press(carol, "stand")  # 41 too: an extra round, carol threw last and picks the counting
        assert "Extra round 1:** bob, carol" in board.text and "carol picks the counting" in board.text
        assert actions_on(board) == {"choose:pips", "choose:mex", "me"}
        reply = await world.slash(bob, "mex", "choose", mode="mex")
        assert reply.ephemeral and "Only **carol**" in reply.text
        await game.press(carol, "choose:pips")
        await game.press(bob, "throw")
        text = await game.slash(carol, "throw")  # 1 + 2 = 3 pips: no Mex in pips counting
        assert "→ **3** pips" in text and "carol** loses 1 ❤️ (1 left)" in text
        await shown(world, game.table, board)
        assert "Round 2" in board.text and "carol started" in board.text

        # Round 2: carol's Mex ends her turn and sets the limit at 1; the stake doubles.
        await game.press(carol, "throw")
        assert "🌶️ **MEX**" in board.text and "loses **2** ❤️" in board.text
        await game.press(alice, "throw")  # 32 ends her turn: limit 1 and no early end after a Mex
        await game.press(bob, "throw")
        assert "alice** loses 2 ❤️ (0 left)" in board.text and "alice** is out (place 3)" in board.text

        # Round 3: bob starts (alice is out) and ends the round on his own 31.
        await game.press(bob, "throw")
        await game.press(bob, "end_round")
        assert "bob** ends the round on **31**" in board.text

        # Round 4: bob starts again; carol throws lower and is out.
        await game.slash(bob, "throw")
        await game.slash(bob, "stand")
        await game.press(carol, "throw")
        table = game.table
        assert table.status == "finished" and table.state.winner == 1
        assert table.state.points == [0, 7, 2] and table.state.lives == [0, 1, 0]
        await world.fake.wait_for(lambda: "bob** is the last one standing and wins!" in board.text)
        assert "finished" in board.text and actions_on(board) == set()  # a finished table offers no moves
        assert dice.faces == []
        # Only the table message is posted in the channel (the rest is ephemeral or an edit of it), then one
        # short message at the end that mentions the players; no version of it ever rendered one player's view.
        final = await world.fake.wait_for_message(world.channel, after=board.id)
        assert world.fake.channel_messages(world.channel) == [board, final]
        assert f"🏆 <@{bob.id}> won · <@{carol.id}> lost · <@{alice.id}> lost" in final.text
        assert len(board.history) > 20
        for version in board.history:
            text = version.text
            assert "Your moves" not in text and "Not your move" not in text

        leaderboard = await world.slash(carol, "leaderboard", game="mex")
        assert f"<@{bob.id}>" in leaderboard.text and "1 win · 0 losses / 1 game (100% won)" in leaderboard.text
        assert "best 7" in leaderboard.text

    # Nothing in Mex is secret: nobody gets a DM, and the bot never even tries bob's closed DMs.
    for user in (alice, bob, carol, world.admin):
        assert world.fake.dms(user) == []
    assert world.fake.dm_attempts_blocked(bob) == 0
    for record in world.fake.interactions:
        assert record.ack_latency is not None and record.ack_latency < 3.0
    world.fake.assert_no_problems()


async def test_bad_moves_are_refused_specifically_and_change_nothing(world: World):
    # alice 42, 53, 41 (three throws, limit 3); bob 41; carol 600 → alice and bob tie, bob picks.
    async with world.bot(ScriptedDice([4, 2, 5, 3, 4, 1, 4, 1, 6, 6])) as bot:
        game = Mex(world, bot)
        board = await game.open()
        alice, bob, carol = world.alice, world.bob, world.carol
        await game.refused(world.slash(alice, "mex", "stand"), "Throw at least once before you stand")
        await game.refused(world.slash(alice, "mex", "end_round"), "Throw at least once before you stand")
        await game.refused(world.click(bob, board, "throw"), "It is not your turn")
        await game.refused(world.slash(carol, "mex", "throw"), "It is not your turn")
        await game.press(alice, "throw")
        await game.press(alice, "throw")
        await game.slash(alice, "throw")
        await shown(world, game.table, board)
        assert "throw" not in actions_on(board) and "3 of 3 throws used" in board.text
        await game.refused(world.slash(alice, "mex", "throw"), "throw limit (**3**)")
        await game.refused(world.slash(alice, "mex", "choose", mode="pips"), "no counting to pick now")
        await game.refused(world.slash(alice, "mex", "hold", face=1), "switched off")
        await game.press(alice, "stand")
        await game.press(bob, "throw")
        await game.press(bob, "stand")
        await game.press(carol, "throw")
        await game.press(carol, "stand")
        assert "bob picks the counting" in board.text
        # The engine names the chooser (a seat number; refuse() draws it as a name once it passes the seat names).
        await game.refused(world.click(alice, board, "choose:pips"), "the last tied player, picks how the extra round")
        await game.refused(world.slash(alice, "mex", "choose", mode="pips"), "Only **bob**, the last tied player")
        await game.refused(world.slash(carol, "mex", "choose", mode="mex"), "Only **bob**")
        await game.refused(world.slash(bob, "mex", "throw"), "First the last tied player picks")
        await game.refused(world.slash(world.admin, "mex", "throw"), "not playing at this table")
        await game.press(bob, "choose:mex")
        assert "Counted as **mex**" in board.text
        await game.refused(world.slash(alice, "mex", "stand"), "throws exactly once")
    world.fake.assert_no_problems()


async def test_lobby_options_rules_and_the_keep_a_die_variant(world: World):
    async with world.bot(ScriptedDice([1, 5, 2, 4])) as bot:
        reply = await world.slash(world.alice, "mex", "new", hold_one_or_two=True, max_throws=1)
        assert reply.ephemeral and "hold_one_or_two" in reply.text and "max_throws" in reply.text
        options = dict(
            starting_lives=5,
            max_throws=3,
            mex_penalty="doubling",
            allow_end_round_early=False,
            tiebreak_mode_choice="always_pips",
            first_starter="host",
            mex_ends_turn=False,
            points_enabled=False,
            mex_passes_lead=True,
            hold_one_or_two=True,
        )
        game = Mex(world, bot)
        board = await game.open(**options)
        assert game.table.engine.options(game.table.options).to_dict() == options
        rules = await world.slash(world.carol, "mex", "rules")
        assert rules.ephemeral and "1-2 is MEX" in rules.text and "If you run out of time" in rules.text
        assert "`mex_penalty=doubling`" in rules.text and "`hold_one_or_two=True`" in rules.text

        await game.press(world.alice, "throw")  # 1, 5: she may keep the 1
        assert {"throw", "stand", "hold:1"} <= actions_on(board) and "end_round" not in actions_on(board)
        assert "⭐" not in board.text  # no points column with points off
        await game.press(world.alice, "hold:1")
        assert "keeps ⚀1" in board.text and actions_on(board) == {"throw", "me"}
        await game.press(world.alice, "throw")  # the kept 1 and a 2: Mex, which here does not end the turn
        assert "kept a 1 and threw ⚀1 ⚁2" not in board.text  # a Mex reads as MEX, not as a number
        assert "threw ⚀1 ⚁2 → 🌶️ **MEX**!" in board.text
        await game.refused(world.slash(world.alice, "mex", "hold", face=2), "only once per turn")
        await game.press(world.alice, "throw")  # the kept 1 and a 4: the last throw counts, not the best
        assert "🌶️ MEX → **41**" in board.text
    world.fake.assert_no_problems()


def test_every_event_and_view_of_random_games_renders_from_the_catalog():
    """Random games under random options: every event line and table body fills from the catalog
    (no missing key, no unfilled field, no Mex printed as 1000), and the buttons are the legal moves."""
    import random
    import re

    from bot.games.base import Action
    from bot.games.dice import SeededDice
    from bot.games.mex import ENGINE, MexOptions
    from bot.render import body_lines, event_text
    from bot.render import mex as render

    leak = re.compile(r"[{}]|\b(?:mex|event|error)\.[a-z_]+|1000")  # a missing key, an unfilled field, a raw Mex
    rng = random.Random(7)
    kinds: set[str] = set()
    for game in range(25):
        options = MexOptions(
            starting_lives=rng.randint(1, 3),
            max_throws=rng.choice((2, 3)),
            mex_penalty=rng.choice(("seed", "additive", "double_once", "doubling")),
            allow_end_round_early=rng.random() < 0.8,
            tiebreak_mode_choice=rng.choice(("chooser", "always_mex", "always_pips")),
            mex_ends_turn=rng.random() < 0.8,
            points_enabled=rng.random() < 0.8,
            mex_passes_lead=rng.random() < 0.3,
            hold_one_or_two=rng.random() < 0.5,
        )
        players = rng.randint(2, 5)
        names = [f"p{seat}" for seat in range(players)]
        dice = SeededDice(game)
        state, events = ENGINE.new_game(players, options, dice)
        for _ in range(2000):
            for event in events:
                assert event.public
                kinds.add(render.event_key(event.kind, event.data))
                line = event_text("mex", event.kind, event.data, names, "en") or ""
                assert not leak.search(line), line
            for viewer in (None, *ENGINE.to_act(state)):
                text = "\n".join(body_lines("mex", ENGINE.view(state, viewer), names, "en"))
                assert not leak.search(text), text
            if state.winner is not None:
                break
            actor = ENGINE.to_act(state)[0]
            offered = {c.action for c in render.controls(ENGINE.view(state, None))}
            assert offered == {a.encode() for a in ENGINE.legal_actions(state, actor)}
            roll = rng.random()
            if roll < 0.03:
                state, events = ENGINE.timeout(state, actor, dice)
            elif roll < 0.04:
                state, events = ENGINE.forfeit(state, rng.randrange(players), dice)
            else:  # ending early only now and then, so that more rounds run to a tie
                moves = sorted(offered - {"end_round"}) if rng.random() < 0.9 and len(offered) > 1 else sorted(offered)
                state, events = ENGINE.apply(state, actor, Action.parse(rng.choice(moves)), dice)
        assert state.winner is not None
    expected = {"throw", "throw_mex", "throw_held", "throw_extra", "throw_pips", "stand", "stand_limit", "end_round"}
    expected |= {"choose_pips", "choose_mex", "tiebreak", "tiebreak_pips", "round_over_early", "eliminated"}
    assert expected <= kinds, expected - kinds
