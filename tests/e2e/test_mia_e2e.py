"""Mia end to end: slash commands, the table message's buttons and claim menu, 🎲 My dice, DMs and secrecy."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.games.dice import ScriptedDice, SeededDice
from bot.games.mia import ENGINE, GAME_OVER, MiaOptions, values_above
from bot.i18n import has
from bot.render import Menu, body_lines, dice_text, event_text
from bot.render import mia as render
from tests.e2e.conftest import World
from tests.e2e.drawn import shows
from tests.fakediscord import FakeMessage, MessageVersion


def table_message(world: World) -> FakeMessage:
    messages = [
        m for m in world.fake.channel_messages(world.channel) if any(c.startswith("dt:") for c in m.custom_ids())
    ]
    assert messages, "no table message in the channel"
    return messages[-1]


def version_text(version: MessageVersion) -> str:
    return version.all_text  # content, embeds, every V2 text block, and what the controls say


def custom_id(message: FakeMessage, name: str) -> str:
    """The current custom_id of a control (``dt:<table>:<version>:<name>`` / ``ds:…:<name>``)."""
    return next(c for c in message.custom_ids() if c.endswith(f":{name}"))


def select_options(message: FakeMessage, name: str) -> list[str]:
    return [o["value"] for o in message.find_component(custom_id(message, name))["options"]]


async def choose(world: World, user: Any, message: FakeMessage, value: str, menu: str = "claim") -> Any:
    return await (await world.fake.select(user, message, custom_id(message, menu), [value])).response()


@dataclass
class Roll:
    dice: tuple[int, int]
    roller: int  # a Discord user id
    seen: bool = False
    revealed: bool = False

    def patterns(self) -> tuple[str, str]:
        a, b = self.dice
        return dice_text([a, b]), dice_text([b, a])


@dataclass
class Secrecy:
    """Follows every roll under the cup (from the engine state) and checks, after each step, that no message
    anyone can see holds dice they may not know: the channel (every version of every message), other players'
    ephemeral replies and other players' DMs. Only the roller who has looked may see unrevealed dice."""

    world: World
    table: Any
    rolls: list[Roll] = field(default_factory=list)

    def observe(self) -> None:
        state = self.table.state
        for kind, data in self.table.log:
            if kind == "reveal":
                for roll in self.rolls:
                    if list(roll.dice) == data["dice"]:
                        roll.revealed = True
        if state.cup_dice is None:
            return
        dice = tuple(state.cup_dice)
        if not self.rolls or self.rolls[-1].dice != dice:
            assert all(r.dice != dice for r in self.rolls), "the scripted rolls must all differ"
            self.rolls.append(Roll(dice, self.table.seats[state.roller].id))
        if state.looked:
            self.rolls[-1].seen = True

    def audiences(self) -> list[tuple[FakeMessage, set[int] | None]]:
        """Every message with who can read it (None: everyone in the channel)."""
        out: list[tuple[FakeMessage, set[int] | None]] = []
        for message in self.world.fake.channel_messages(self.world.channel, include_ephemeral=True):
            out.append((message, {message.visible_to} if message.ephemeral else None))
        for user in (self.world.alice, self.world.bob, self.world.carol, self.world.admin):
            out += [(m, {user.id}) for m in self.world.fake.dms(user)]
        return out

    def check(self) -> None:
        for roll in self.rolls:
            if roll.revealed:
                continue
            allowed = {roll.roller} if roll.seen else set()
            for message, audience in self.audiences():
                for version in message.history:
                    text = version_text(version)
                    if any(p in text for p in roll.patterns()):
                        assert audience is not None and audience <= allowed, (
                            f"hidden dice {roll.dice} leaked to {audience or 'the channel'}: {text!r}"
                        )

    async def step(self) -> None:
        """After an action: wait until the table message shows the new state, then check."""
        self.observe()
        board = table_message(self.world)
        table = self.table
        await self.world.fake.wait_for(lambda: shows(board, table), what="the table message to show the new state")
        self.check()


async def open_table(world: World, **options: Any) -> FakeMessage:
    reply = await world.slash(world.alice, "mia", "new", **options)
    assert reply.type == 4 and not reply.ephemeral
    board = reply.expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    assert (await world.slash(world.carol, "mia", "join")).ephemeral
    assert (await world.click(world.alice, board, "start")).type == 7
    return board


async def test_a_whole_three_player_game_keeps_every_die_secret(world: World):
    # Bob starts (5 3); Carol believes and rolls 6 2, peeks and bluffs 64; Alice calls it: Carol -1.
    # Alice (4 1) bluffs Mia; Bob looks: Alice -1. Bob has a real Mia (2 1); Carol concedes and is out.
    # Alice (3 3) understates 54; Bob believes, rolls 6 5, peeks in 🎲 My dice, announces 65; Alice calls: out.
    dice = ScriptedDice([5, 3, 6, 2, 4, 1, 2, 1, 3, 3, 6, 5], samples=[[1]])
    async with world.bot(dice) as bot:
        board = await open_table(world, lives=2)
        table = bot.tables.table(world.channel.id)
        watch = Secrecy(world, table)
        await watch.step()
        assert "Round 1" in board.text and "**bob** has the dice" in board.text
        assert "♥♥" in board.text and "Order: **21 Mia** > 11" in board.text
        assert board.find_component(custom_id(board, "claim"))["options"][-1]["label"] == "21 — Mia!"
        status = await world.slash(world.admin, "mia", "status")
        assert status.ephemeral and "**bob** has the dice" in status.text and "⚄5" not in status.text

        # Bob's DMs are closed: his dice wait for him in 🎲 My dice, with his own claim menu.
        me = await world.click(world.bob, board, "me")
        assert me.ephemeral and "Your dice: ⚄5 ⚂3 = **53**" in me.text
        assert select_options(me.expect_message(), "claim") == [f"claim:{v}" for v in values_above(None)]
        everything = list(values_above(None))
        choices = await world.fake.autocomplete(world.bob, world.channel, "mia", "claim", options={"value": ""})
        assert [c["value"] for c in choices] == everything and choices[-1]["name"] == "21 — Mia!"
        choices = await world.fake.autocomplete(world.bob, world.channel, "mia", "claim", options={"value": "6"})
        assert [c["value"] for c in choices] == [61, 62, 63, 64, 65, 66]
        assert await world.fake.autocomplete(world.alice, world.channel, "mia", "claim", options={"value": ""}) == []
        reply = await world.slash(world.bob, "mia", "claim", value=53)
        assert reply.ephemeral and "**bob** announces **53**" in reply.text
        await watch.step()
        assert "📣 **bob** announces **53**" in board.text and "▶️ **carol**: believe & roll" in board.text

        # Carol believes and rolls: nobody has seen the new dice; Peek sends them to her DMs only.
        assert (await world.click(world.carol, board, "roll")).type == 7
        await watch.step()
        assert "without looking yet" in board.text and custom_id(board, "peek")
        assert select_options(board, "claim") == [f"claim:{v}" for v in values_above(53)]
        assert (await world.click(world.carol, board, "peek")).type == 7
        await world.fake.wait_for_dm(world.carol, lambda m: "⚅6 ⚁2 = **62**" in m.text)
        await watch.step()
        assert (await choose(world, world.carol, board, "claim:64")).type == 7
        await watch.step()
        assert (await world.click(world.alice, board, "challenge")).type == 7
        await watch.step()
        assert "The cup shows ⚅6 ⚁2 = **62**: **carol** was bluffing!" in board.text
        assert "Caught bluffing: **carol** loses 1 ♥ (1 left)" in board.text

        # Round 2: Alice's dice by DM; she bluffs Mia with the menu; Bob looks.
        await world.fake.wait_for_dm(world.alice, lambda m: "⚃4 ⚀1 = **41**" in m.text)
        assert table.state.holder == 0
        assert (await choose(world, world.alice, board, "claim:21")).type == 7
        await watch.step()
        assert "📣 **alice** announces **Mia**!" in board.text
        assert [b["custom_id"].rsplit(":", 1)[1] for b in board.buttons()] == ["give_up", "challenge_mia", "me"]
        look = await world.click(world.bob, board, "challenge_mia")
        assert look.type == 7
        # Bob starts round 3 with a real Mia: his closed DMs make it an ephemeral follow-up to his click.
        (secret,) = await look.record.wait_followups(1)
        assert secret.ephemeral and secret.visible_to == world.bob.id and "⚁2 ⚀1 = **21 — Mia!**" in secret.text
        await watch.step()
        assert "No Mia! **alice** loses 1 ♥ (1 left)" in board.text
        reply = await world.slash(world.bob, "mia", "claim", value=21)
        await watch.step()
        assert (await world.click(world.carol, board, "give_up")).type == 7
        await watch.step()
        assert "**carol** concedes the Mia" in board.text and "💀 **carol** is out." in board.text
        assert "~~**carol**~~ — out" in board.text

        # Round 4: Alice understates 33 as 54; Bob believes, rolls, peeks privately and announces 65.
        await world.fake.wait_for_dm(world.alice, lambda m: "⚂3 ⚂3 = **33**" in m.text)
        assert (await world.slash(world.alice, "mia", "claim", value=54)).ephemeral
        await watch.step()
        reply = await world.slash(world.bob, "mia", "roll")
        assert reply.ephemeral and "**bob** believes it and rolls again" in reply.text
        await watch.step()
        me = await world.click(world.bob, board, "me")
        assert "You have not looked at your dice" in me.text and "Your dice" not in me.text
        assert [c.rsplit(":", 1)[1] for c in me.expect_message().custom_ids() if not c.startswith("dm:")] == ["peek"]
        peek = await world.click(world.bob, me.expect_message(), "peek")
        assert peek.ephemeral and "⚅6 ⚄5 = **65**" in peek.text and "Your DMs are closed" in peek.text
        await watch.step()
        me = await world.click(world.bob, board, "me")
        assert "Your dice: ⚅6 ⚄5 = **65**" in me.text
        assert select_options(me.expect_message(), "claim") == [f"claim:{v}" for v in values_above(54)]
        reply = await choose(world, world.bob, me.expect_message(), "claim:65")
        assert reply.ephemeral and "**bob** announces **65**" in reply.text
        await watch.step()
        reply = await world.slash(world.alice, "mia", "liar")
        assert "**bob** told the truth" in reply.text and "wins the game" in reply.text
        watch.observe()
        await world.fake.wait_for(lambda: "🏆 **bob** wins!" in board.text and "finished" in board.text)
        assert "First out: **carol**" in board.text
        assert not any(c.startswith("ds:") or c.endswith(":roll") for c in board.custom_ids())
        watch.check()

        # Every DM went to its owner, with exactly the dice that owner looked at; Bob got none.
        assert [m.text.split("\n")[1] for m in world.fake.dms(world.alice)] == [
            "🎲 Your dice: ⚃4 ⚀1 = **41**",
            "🎲 Your dice: ⚂3 ⚂3 = **33**",
        ]
        assert [m.text.split("\n")[1] for m in world.fake.dms(world.carol)] == ["🎲 Your dice: ⚅6 ⚁2 = **62**"]
        assert world.fake.dms(world.bob) == [] and world.fake.dm_attempts_blocked(world.bob) == 1
        assert [r.dice for r in watch.rolls if not r.revealed] == [(5, 3), (2, 1), (3, 3)]

        board_reply = await world.slash(world.carol, "leaderboard", game="mia")
        assert f"<@{world.bob.id}>" in board_reply.text and "1 win · 0 losses / 1 game (100% won)" in board_reply.text
    for record in world.fake.interactions:
        assert record.ack_latency is not None and record.ack_latency < 3.0
    world.fake.assert_no_problems()


async def test_bad_input_is_refused_specifically_and_changes_nothing(world: World):
    async with world.bot(ScriptedDice([5, 3, 4, 2], samples=[[0]])) as bot:
        board = await open_table(world)
        table = bot.tables.table(world.channel.id)

        def snapshot() -> tuple[str, int]:
            return table.engine.dumps(table.state), table.version

        async def refused(interaction: Any, *expected: str) -> None:
            """Dispatch ``interaction`` (a coroutine of the fake); expect a warning and an untouched game."""
            before = snapshot()
            reply = await (await interaction).response()
            assert reply.ephemeral and reply.text.startswith("⚠️"), reply.text
            for text in expected:
                assert text in reply.text, reply.text
            assert snapshot() == before

        before = snapshot()
        await refused(
            world.fake.slash(world.bob, world.channel, "mia", "claim", options={"value": 53}), "not your turn"
        )
        await refused(world.fake.select(world.admin, board, custom_id(board, "claim"), ["claim:53"]), "not playing")
        await refused(world.fake.slash(world.alice, world.channel, "mia", "peek"), "already seen these dice")
        await refused(world.fake.slash(world.alice, world.channel, "mia", "liar"), "can't do that")
        await refused(
            world.fake.slash(world.alice, world.channel, "mia", "claim", options={"value": 35}),
            "35 is not a Mia value",
            "Did you mean 53?",
        )
        await refused(
            world.fake.slash(world.alice, world.channel, "mia", "claim", options={"value": 17}),
            "17 is not a Mia value",
        )
        await refused(
            world.fake.slash(world.alice, world.channel, "mia", "blind", options={"value": 54}),
            "Blind passes are not enabled",
        )
        assert snapshot() == before

        assert (await world.slash(world.alice, "mia", "claim", value=53)).ephemeral
        await world.fake.wait_for(lambda: any(c.endswith(":roll") for c in board.custom_ids()))
        assert (await world.click(world.bob, board, "roll")).type == 7
        before = snapshot()
        await refused(
            world.fake.slash(world.bob, world.channel, "mia", "claim", options={"value": 43}),
            "**43** does not beat **53**: announce at least **54**",
        )
        await refused(
            world.fake.slash(world.bob, world.channel, "mia", "claim", options={"value": 53}),
            "announce at least **54**",
        )
        await refused(world.fake.click(world.alice, board, custom_id(board, "peek")), "not your turn")
        await refused(world.fake.click(world.admin, board, custom_id(board, "peek")), "not playing")
        await refused(world.fake.slash(world.carol, world.channel, "mia", "liar"), "not your turn")
        assert snapshot() == before
        assert select_options(board, "claim") == [f"claim:{v}" for v in values_above(53)]
    world.fake.assert_no_problems()


async def test_every_lobby_option_and_a_blind_pass_on_the_table_message(world: World):
    async with world.bot(ScriptedDice([6, 5, 3, 2], samples=[[0]])) as bot:
        board = await open_table(
            world,
            doubles_order="sixes_high",
            lives=3,
            mia_check_penalty=3,
            mia_mode="challengeable",
            blind_pass="any",
            next_round_starter="loser",
            stop_at_first_elimination=True,
        )
        rules = await world.slash(world.carol, "mia", "rules")
        assert rules.ephemeral and "If you run out of time:** you concede the round and lose 1 life" in rules.text
        assert "`blind_pass=any`" in rules.text and "`doubles_order=sixes_high`" in rules.text
        table = bot.tables.table(world.channel.id)
        assert table.engine.options(table.options).changed() == {
            "doubles_order": "sixes_high",
            "lives": 3,
            "mia_check_penalty": 3,
            "blind_pass": "any",
            "next_round_starter": "loser",
            "stop_at_first_elimination": True,
        }
        await world.fake.wait_for(lambda: "♥♥♥" in board.text and "Order: **21 Mia** > 66" in board.text)
        assert "anyone may pass on blind" in board.text

        assert (await world.slash(world.alice, "mia", "claim", value=43)).ephemeral
        await world.fake.wait_for(lambda: any(c.endswith(":blind") for c in board.custom_ids()))
        assert select_options(board, "blind") == [f"blind_pass:{v}" for v in values_above(43, "sixes_high", equal=True)]
        assert "call Liar!, or pass on blind" in board.text
        choices = await world.fake.autocomplete(world.bob, world.channel, "mia", "blind", options={"value": "4"})
        assert [c["value"] for c in choices] == [43, 44]  # 43 again, or the double 44
        assert (await choose(world, world.bob, board, "blind_pass:54", menu="blind")).type == 7
        assert "🙈 **bob** passes the cup on blind, announcing **54**" in board.text
        assert "the dice under the cup were rolled by **alice**" in board.text
        assert (await world.click(world.carol, board, "challenge")).type == 7
        assert "The cup shows ⚅6 ⚄5 = **65**: **bob** told the truth." in board.text
        assert "Wrong call: **carol** loses 1 ♥ (2 left)" in board.text
        assert "Round 2: **carol** has the dice" in board.text and table.state.holder == 2  # the loser starts
    world.fake.assert_no_problems()


async def test_a_first_receiver_blind_pass_is_offered_on_the_table_and_in_my_dice(world: World):
    async with world.bot(ScriptedDice([5, 3], samples=[[0]])) as bot:
        board = await open_table(world, blind_pass="first_receiver")
        table = bot.tables.table(world.channel.id)
        assert (await world.slash(world.alice, "mia", "claim", value=53)).ephemeral
        # One announcement so far (public): bob is the first receiver, so the table message offers the menu too.
        await world.fake.wait_for(lambda: "▶️ **bob**: believe & roll, call Liar!, or pass on blind" in board.text)
        assert select_options(board, "blind") == [f"blind_pass:{v}" for v in values_above(53, equal=True)]
        me = await world.click(world.bob, board, "me")
        private = me.expect_message()
        assert [c.rsplit(":", 1)[1] for c in private.custom_ids()] == ["roll", "challenge", "blind"]
        assert select_options(private, "blind") == [f"blind_pass:{v}" for v in values_above(53, equal=True)]
        reply = await choose(world, world.bob, private, "blind_pass:53", menu="blind")
        assert reply.ephemeral and "🙈 **bob** passes the cup on blind, announcing **53**" in reply.text
        # Carol is the second receiver: no blind menu on the table message any more, nor in her own view.
        await world.fake.wait_for(lambda: "▶️ **carol**: believe & roll, or call Liar!" in board.text)
        assert not any(c.endswith(":blind") for c in board.custom_ids())
        me = await world.click(world.carol, board, "me")
        assert [c.rsplit(":", 1)[1] for c in me.expect_message().custom_ids()] == ["roll", "challenge"]
        before = (table.engine.dumps(table.state), table.version)
        reply = await world.slash(world.carol, "mia", "blind", value=54)
        assert reply.ephemeral and "Only the first receiver of a round may pass blind" in reply.text
        assert (table.engine.dumps(table.state), table.version) == before
    world.fake.assert_no_problems()


def test_every_event_and_view_of_random_games_renders_from_the_catalog():
    """Random games under every option, with timeouts and forfeits: each event kind has a template whose fields are
    all filled, each view renders, and the controls respect Discord's limits. (Pure: no Discord needed.)"""
    names = ["alice", "bob", "carol", "dave"]
    kinds: set[str] = set()
    variants = [
        MiaOptions(),
        MiaOptions(doubles_order="sixes_high", lives=2, blind_pass="any", next_round_starter="challenger"),
        MiaOptions(lives=3, mia_mode="auto_reveal", blind_pass="first_receiver", stop_at_first_elimination=True),
        MiaOptions(lives=1, mia_check_penalty=3, next_round_starter="loser"),
    ]
    for seed in range(24):
        rng, dice = random.Random(seed), SeededDice(seed)
        options = variants[seed % len(variants)]
        state, events = ENGINE.new_game(len(names), options, dice)
        while True:
            for event in events:
                kinds.add(event.kind)
                key = render.event_key(event.kind, event.data)
                assert has(f"mia.event.{key}"), f"no template for {event.kind} ({key})"
                text = event_text("mia", event.kind, event.data, names, "en")
                assert text and "{" not in text and "None" not in text, (event, text)
            for viewer in (None, *range(len(names))):
                view = ENGINE.view(state, viewer)
                lines = "\n".join(body_lines("mia", view, names, "en"))
                assert "{" not in lines and "None" not in lines and "mia." not in lines, lines
                menus = render.controls(view) if viewer is None else render.player_controls(view)
                for control in menus:
                    if isinstance(control, Menu):
                        assert 0 < len(control.options) <= 25 and all(len(a) < 60 for _, a in control.options)
            if state.phase == GAME_OVER:
                break
            seat = ENGINE.to_act(state)[0]
            roll = rng.random()
            if roll < 0.03:
                state, events = ENGINE.timeout(state, seat, dice)
            elif roll < 0.05:
                state, events = ENGINE.forfeit(state, rng.randrange(len(names)), dice)
            else:
                state, events = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)), dice)
    expected = {"start", "round_start", "dice", "peek", "claim", "blind_pass", "roll", "give_up", "challenge"}
    expected |= {"challenge_mia", "reveal", "life_lost", "eliminated", "game_over", "timeout", "forfeit", "round_void"}
    assert kinds == expected
