"""Liar's Dice end to end: slash commands, the table message's buttons and menus, secret hands by DM."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.games.dice import SeededDice
from bot.render import dice_text
from bot.render.liar import bid_text
from tests.e2e.conftest import World
from tests.e2e.drawn import shows
from tests.fakediscord import CommandUnavailable, FakeMessage, MessageVersion


def version_text(version: MessageVersion) -> str:
    """Everything one version of a message shows: content, embeds, and component labels."""
    return version.all_text  # content, embeds, every V2 text block, and what the controls say


DICE_RUN = re.compile(r"[⚀-⚅][1-6](?: [⚀-⚅][1-6])*")  # a rendered hand, e.g. "⚀1 ⚃4 ⚃4"


def leaks(hand: str, text: str, public: set[str]) -> bool:
    """Does ``text`` show the rendered ``hand``, other than as (a coincidence with) an already revealed hand?"""
    return any(f" {hand} " in f" {run} " for run in DICE_RUN.findall(text) if run not in public)


async def board_is_current(world: World, board: FakeMessage, table: Any) -> None:
    """Wait until the table message shows the current state (slash-command moves update it asynchronously)."""
    await world.fake.wait_for(lambda: shows(board, table), what="the table message")


class Secrets:
    """Every hand dealt so far (read from the engine state), and checks that none leaks before its reveal."""

    def __init__(self, world: World, table: Any, users: list[Any]) -> None:
        self.world, self.table, self.users = world, table, users
        self.hands: dict[int, list[list[int]]] = {}  # round -> the hands dealt in it
        self.revealed: set[int] = set()  # rounds whose hands a challenge showed
        self.record()

    def record(self) -> None:
        state = self.table.state
        if state.last_reveal is not None:
            self.revealed.add(state.last_reveal["round"])
        if not state.finished:
            self.hands.setdefault(state.round_no, [list(h) for h in state.hands])
            assert self.hands[state.round_no] == state.hands, "hands changed within a round"

    def hidden(self) -> list[tuple[int, str]]:
        """(seat, rendered hand) for the round in play, if its hands are still secret."""
        state = self.table.state
        if state.finished or state.round_no in self.revealed:
            return []
        return [(seat, dice_text(h)) for seat, h in enumerate(state.hands) if h]

    def public_texts(self) -> set[str]:
        return {dice_text(h) for r in self.revealed for h in self.hands[r] if h}

    def own(self, seat: int) -> set[str]:
        """The rendered hands ``seat`` itself was dealt (a coincidence with another's hidden hand is no leak)."""
        return {dice_text(hands[seat]) for hands in self.hands.values() if hands[seat]}

    def check(self) -> None:
        self.record()
        hidden, public = self.hidden(), self.public_texts()
        fake, world = self.world.fake, self.world
        seat_of = {user.id: seat for seat, user in enumerate(self.users)}
        for message in fake.channel_messages(world.channel, include_ephemeral=True, include_deleted=True):
            viewer = seat_of.get(message.visible_to) if message.visible_to is not None else None
            known = public | (self.own(viewer) if viewer is not None else set())  # an ephemeral shows its own hand
            for version in message.history:
                text = version_text(version)
                for seat, hand in hidden:
                    if seat != viewer:
                        assert not leaks(hand, text, known), f"seat {seat}'s hand {hand} leaked into {message.id}"
        for owner_seat, owner in enumerate(self.users):
            own = self.own(owner_seat)
            for dm in fake.dms(owner):
                for seat, hand in hidden:
                    if seat != owner_seat:
                        assert not leaks(hand, dm.text, public | own), f"seat {seat}'s hand leaked to {owner.name}"


async def open_liar_table(world: World, **options: Any) -> FakeMessage:
    reply = await world.slash(world.alice, "liar", "new", **options)
    assert reply.type == 4 and not reply.ephemeral, reply.text
    board = reply.expect_message()
    assert (await world.click(world.bob, board, "join")).type == 7
    reply = await world.slash(world.carol, "liar", "join")
    assert reply.ephemeral and "joined" in reply.text
    # (the lobby message is not re-rendered after a slash-command join: lobby changes keep table.version,
    # so the presenter believes it is already shown; Start below re-renders it anyway)
    assert (await world.click(world.alice, board, "start")).type == 7
    return board


async def test_a_three_player_lose_die_game_deals_by_dm_reveals_and_reaches_the_leaderboard(world: World):
    fake = world.fake
    async with world.bot(SeededDice(7)) as bot:
        board = await open_liar_table(world, mode="lose_die", dice_per_player=2)
        table = bot.tables.table(world.channel.id)
        engine = table.engine
        users = [world.alice, world.bob, world.carol]  # seat order: host, then joiners
        assert [s.id for s in table.seats] == [u.id for u in users]
        secrets = Secrets(world, table, users)
        secrets.check()
        assert "Round 1" in board.text and "🎲 **2 dice**" in board.text
        seen_round_by_bob = 0
        step = bids_made = challenges = 0
        used: set[str] = set()
        while not table.state.finished:
            state = table.state
            seat = state.current
            user = users[seat]
            await board_is_current(world, board, table)
            private = None
            if (state.round_no != seen_round_by_bob and state.counts[1]) or seat == 1:
                # bob's DMs are closed: 🎲 My dice shows him his hand (and the controls when it is his turn)
                reply = await world.click(world.bob, board, "me")
                assert reply.ephemeral and reply.message.visible_to == world.bob.id
                assert f"Your dice:** {dice_text(state.hands[1])}" in reply.text
                moves = [c for c in reply.message.custom_ids() if not c.startswith("dm:")]  # dm: retries a DM
                assert bool(moves) == (seat == 1)
                seen_round_by_bob = state.round_no
                if seat == 1 and step % 2 == 0:
                    private = reply.message
            legal = [a.encode() for a in engine.legal_actions(state, seat)]
            bids = [a for a in legal if a.startswith("bid:")]
            bidding = state.bid is None or (len(state.bids) < 2 and bids)
            if private is not None:  # bob plays from the controls on his private 🎲 My dice reply
                used.add("private controls")
                reply = await world.click(world.bob, private, bids[0] if bidding else "challenge")
                assert reply.ephemeral and reply.message.visible_to == world.bob.id
                assert ("bids" if bidding else "Liar!") in reply.text, reply.text
            elif bidding:
                kind = bids_made % 3
                bids_made += 1
                used.add(("slash bid", "button bid", "menu bid")[kind])
                if kind == 0:  # by slash command, the smallest raise
                    q, f = bids[0].split(":")[1:]
                    reply = await world.slash(user, "liar", "bid", quantity=int(q), face=int(f))
                    assert reply.ephemeral and "bids" in reply.text, reply.text
                elif kind == 1:  # the Min raise / Min bid button
                    reply = await world.click(user, board, bids[0])
                    assert reply.type == 7 and "bids" in board.text
                else:  # a raise from one of the menus
                    menu = next(c for c in board.all_components() if c.get("type") == 3)
                    value = menu["options"][-1]["value"]
                    assert value in bids
                    record = await fake.select(user, board, menu["custom_id"], [value])
                    assert (await record.response()).type == 7
                    assert table.state.bids[-1][1:] == [int(x) for x in value.split(":")[1:]]
            else:  # call Liar!
                used.add("button challenge" if challenges % 2 else "slash challenge")
                challenges += 1
                if challenges % 2 == 0:
                    reply = await world.click(user, board, "challenge")
                    assert reply.type == 7
                else:
                    reply = await world.slash(user, "liar", "challenge")
                    assert reply.ephemeral and "Liar!" in reply.text and "Counted" in reply.text
            if not bidding:
                reveal = table.state.last_reveal
                await board_is_current(world, board, table)
                assert "Reveal" in board.text
                seats = board.text_displays()[1:4]  # the title block, then one block per seat
                for hand, name, seat in zip(reveal["hands"], ("alice", "bob", "carol"), seats, strict=True):
                    if hand:  # every hand of the challenged round is shown on the table message, under its seat
                        assert f"**{name}**" in seat and f"🔍 {dice_text(hand)}" in seat, seat
            step += 1
            secrets.check()
            assert step < 60, "the game should have ended"

        await board_is_current(world, board, table)
        assert "finished" in board.text and "Game over" in board.text
        assert not any(c.startswith("ds:") or c.endswith(":challenge") for c in board.custom_ids())
        outcome = engine.outcome(table.state)
        winner = users[outcome.winners[0]]
        assert len(secrets.hands) >= 3  # several rounds were dealt
        assert len(used) == 6, used  # every way to bid and to challenge was exercised

        # DMs: alice and carol got exactly their own hand of every round they played, nobody else's
        for seat, user in enumerate(users):
            expected = [dice_text(hands[seat]) for _, hands in sorted(secrets.hands.items()) if hands[seat]]
            dms = fake.dms(user)
            if seat == 1:
                assert dms == [] and fake.dm_attempts_blocked(world.bob) == 1  # one 403, then remembered
                continue
            assert [m.text.split("your dice: ")[-1] for m in dms] == expected
            assert all(m.channel_id == user.dm_channel.id for m in dms)
        # bob (DMs closed) got each round's deal ephemerally, and only he could see it
        bob_private = [
            m for m in fake.channel_messages(world.channel, include_ephemeral=True) if m.visible_to == world.bob.id
        ]
        for number, hands in secrets.hands.items():
            if hands[1]:
                line = f"Round {number} — your dice: {dice_text(hands[1])}"
                # a private reply is redrawn in place after each move, so look through its versions
                assert any(line in v.text for m in bob_private for v in [*m.history, m]), line
        assert not any("your dice:" in m.text for m in fake.channel_messages(world.channel))

        reply = await world.slash(world.carol, "leaderboard", game="liar")
        assert f"<@{winner.id}>" in reply.text and "1 win · 0 losses / 1 game (100% won)" in reply.text
    for record in fake.interactions:
        assert record.ack_latency is not None and record.ack_latency < 3.0
    fake.assert_no_problems()


async def test_bad_bids_and_moves_out_of_turn_are_specific_ephemeral_errors_that_change_nothing(world: World):
    async with world.bot(SeededDice(3)) as bot:
        board = await open_liar_table(world, raise_rule="pirates", wild_ones=True)
        table = bot.tables.table(world.channel.id)
        users = [world.alice, world.bob, world.carol]
        first = table.state.current
        second, third = (first + 1) % 3, (first + 2) % 3

        def snapshot() -> tuple[str, int]:
            return table.engine.dumps(table.state), table.version

        async def refused(user: Any, *path: str, **options: Any) -> str:
            before = snapshot()
            reply = await world.slash(user, "liar", *path, **options)
            assert reply.ephemeral and reply.text.startswith("⚠️"), reply.text
            assert snapshot() == before
            return reply.text

        assert "no bid to challenge" in await refused(users[first], "challenge")
        assert "not your turn" in await refused(users[second], "bid", quantity=1, face=2)
        assert "Ones are wild" in await refused(users[first], "bid", quantity=2, face=1)
        assert "Only 15 dice are in play" in await refused(users[first], "bid", quantity=16, face=3)
        assert "not playing" in await refused(world.admin, "bid", quantity=1, face=2)
        before = snapshot()
        for options in ({"quantity": 2, "face": 7}, {"quantity": 0, "face": 3}, {"quantity": 37, "face": 3}):
            with pytest.raises(CommandUnavailable):  # the Discord client refuses values outside the schema
                await world.slash(users[first], "liar", "bid", **options)
        assert snapshot() == before

        reply = await world.slash(users[first], "liar", "bid", quantity=2, face=4)
        assert "bids **2 × ⚃** (fours)" in reply.text
        text = await refused(users[second], "bid", quantity=3, face=4)  # pirates: neither 3 nor 4 beats max(2, 4)
        smallest = table.engine.min_raise(table.state)
        assert "under the pirates' rule (the quantity or the face must be more than 4" in text, text
        assert f"The smallest legal raise is {bid_text(*smallest)}." in text, text
        assert smallest == (1, 5)
        await board_is_current(world, board, table)
        assert "at least **1 × ⚄** (five)" in board.text  # the table message names the smallest raise too

        before = snapshot()
        reply = await world.click(users[first], board, "challenge")  # the bidder may not challenge their own bid
        assert reply.ephemeral and "not your turn" in reply.text
        reply = await world.click(users[third], board, "bid:1:5")
        assert reply.ephemeral and "not your turn" in reply.text
        assert snapshot() == before

        rules = await world.slash(world.carol, "liar", "rules")
        assert rules.ephemeral and "pirates" in rules.text and "wild_ones=True" in rules.text
        assert "If you run out of time" in rules.text and "Liar!" in rules.text
    world.fake.assert_no_problems()
