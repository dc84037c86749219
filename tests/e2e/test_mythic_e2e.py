"""Mythical Dice end to end: secret hands by DM (or ephemerally), secret bids, tricks, scores, results.

The secrecy checks work from the engine state: after every step the test notes each player's hidden
dice and each unrevealed bid, and the public table body that state renders to. Every version of
every channel message is then matched to the state it shows (by its body) and searched for that
state's secrets; DMs and ephemeral replies are checked against the secrets of the other players.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.games.dice import ScriptedDice, SeededDice
from bot.games.mythical_dice import FACES, bag_types
from bot.i18n import t
from bot.render import Menu, controls, event_text, option_label, option_word, seat_names
from bot.render.mythic import hand_text
from tests.e2e.conftest import World
from tests.e2e.drawn import drawn
from tests.fakediscord import FakeMessage, MessageVersion

TYPES = bag_types()


def version_text(version: MessageVersion) -> str:
    return version.all_text  # content, embeds, every V2 text block, and what the controls say


def option_values(components: list[dict[str, Any]]) -> list[str]:
    """Every select option's value, however deep the select sits (an action row, a V2 container's row)."""
    values, stack = [], list(reversed(components))
    while stack:
        comp = stack.pop()
        values += [o["value"] for o in comp.get("options", [])]
        stack += reversed(comp.get("components", []))
    return values


def select_id(message: FakeMessage, name: str) -> str:
    return next(c for c in message.custom_ids() if c.startswith("ds:") and c.endswith(f":{name}"))


@dataclass
class Secrets:
    """What the engine hides in one state: each seat's hidden dice (types, ids) and unrevealed bids."""

    hands: dict[int, list[dict[str, Any]]]
    bids: dict[int, int]

    @classmethod
    def of(cls, state: Any) -> Secrets:
        hands = {p: [{"id": d, "type": TYPES[d]} for d in h] for p, h in enumerate(state.hands) if h}
        hidden = {p: b for p, b in enumerate(state.bids) if b is not None and not state.revealed}
        return cls(hands, hidden if state.phase != "over" else {})


@dataclass
class Ledger:
    """The states the table went through, and every leak check against them."""

    world: World
    table: Any
    users: list[Any]
    by_body: dict[str, list[Secrets]] = field(default_factory=dict)
    deals: dict[int, list[list[dict[str, Any]]]] = field(default_factory=dict)  # hand -> seat -> dice
    versions_seen: dict[int, int] = field(default_factory=dict)  # message id -> versions checked
    ephemeral: dict[int, list[str]] = field(default_factory=dict)  # seat -> texts of its ephemeral replies

    @property
    def names(self) -> list[str]:
        return seat_names(self.table)

    def note(self) -> None:
        """After each step: remember this state's public body and secrets; check new private messages."""
        state = self.table.state
        secrets = Secrets.of(state) if state is not None else Secrets({}, {})
        shown = drawn(self.table)  # what the table message shows now, whether or not it is sent
        self.by_body.setdefault("\n".join(shown), []).append(secrets)
        values = [a for c in controls(self.table) if isinstance(c, Menu) for _, a in c.options]
        self._check_public("\n".join(shown), values, secrets)
        if state is not None and state.phase == "bidding" and state.hand_no not in self.deals:
            self.deals[state.hand_no] = [[{"id": d, "type": TYPES[d]} for d in h] for h in state.hands]
        self._check_private(secrets)

    def deal_line(self, hand: int, seat: int) -> str:
        line = event_text("mythic", "deal", {"hand": hand, "dice": self.deals[hand][seat]}, self.names, "en")
        assert line and hand_text([d["type"] for d in self.deals[hand][seat]]) in line
        return line

    def _own_lines(self, seat: int, secrets: Secrets) -> set[str]:
        """Lines that would give away ``seat``'s hidden dice: its DM line and its 🎲 My dice line."""
        lines = set()
        if seat in secrets.hands:
            kinds = [d["type"] for d in secrets.hands[seat]]
            lines.add(t("mythic.your_dice", "en", dice=hand_text(kinds)))
        hand = self.table.state.hand_no
        if hand in self.deals and self.deals[hand][seat]:
            lines.add(self.deal_line(hand, seat))
        return lines

    def _check_private(self, secrets: Secrets) -> None:
        """Ephemeral replies (and every edit of them) show only the viewer's own secrets, line by line."""
        for message in self.world.fake.messages.values():
            done = self.versions_seen.get(message.id, 0)
            if not message.ephemeral or done == len(message.history):
                continue
            self.versions_seen[message.id] = len(message.history)
            viewer = next(p for p, u in enumerate(self.users) if u.id == message.visible_to)
            own = self._own_lines(viewer, secrets)
            for version in message.history[done:]:
                self.ephemeral.setdefault(viewer, []).append(version.text)
                lines = set(version.text.splitlines())
                for seat in range(len(self.users)):
                    if seat == viewer:
                        continue
                    leaked = (self._own_lines(seat, secrets) - own) & lines
                    assert not leaked, f"{self.names[seat]}'s dice in {self.names[viewer]}'s reply: {leaked}"
                    if seat in secrets.bids:
                        name = re.escape(f"**{self.names[seat]}**")
                        assert not re.search(rf"{name}[^\n]*bid \*\*\d", version.text), version.text

    def _check_public(self, text: str, values: list[str], secrets: Secrets) -> None:
        assert "**Your dice:**" not in text and "**Your bid:" not in text  # a player's own view
        for seat, dice in secrets.hands.items():
            assert hand_text([d["type"] for d in dice]) not in text, (self.names[seat], text)
            assert not {f"play:{d['id']}" for d in dice} & set(values), values
        for seat, bid in secrets.bids.items():
            name = re.escape(f"**{self.names[seat]}**")
            assert not re.search(rf"{name}[^\n]*bid \*\*{bid}\*\*", text), text

    def check_channel(self) -> int:
        """Every version of every channel message, against the secrets of the state it shows."""
        checked = 0
        for message in self.world.fake.channel_messages(self.world.channel):
            for version in message.history:
                blocks = version.text_displays()
                if not blocks or blocks[0].split("\n")[0].endswith("lobby"):
                    continue  # nothing is dealt yet
                body = "\n".join(blocks)
                assert body in self.by_body, f"a table message showing a state the test never saw:\n{body}"
                for secrets in self.by_body[body]:
                    self._check_public(version_text(version), option_values(version.components), secrets)
                checked += 1
        return checked

    def check_dms(self) -> None:
        """Each DM is its owner's own hand, one per hand; bob's DMs are closed, so he gets none."""
        hands = self.table.state.hands_total
        for seat, user in enumerate(self.users):
            dms = self.world.fake.dms(user)
            if not user.dms_open:
                assert dms == [] and self.world.fake.dm_attempts_blocked(user) == 1
                continue
            assert len(dms) == hands, [m.text for m in dms]
            for hand, dm in enumerate(dms, start=1):
                header, line = dm.text.split("\n")
                assert header.startswith("🎲 Mythical Dice") and line == self.deal_line(hand, seat)


async def open_table(world: World, **options: Any) -> FakeMessage:
    reply = await world.slash(world.alice, "mythic", "new", **options)
    assert reply.type == 4 and not reply.ephemeral
    board = reply.expect_message()
    for user in (world.bob, world.carol):
        assert (await world.click(user, board, "join")).type == 7
    assert (await world.click(world.alice, board, "start")).type == 7
    return board


def is_current(board: FakeMessage, table: Any) -> bool:
    """The table message shows the table's current version (its custom_ids carry the version)."""
    return f"dt:{table.id}:{table.version}:me" in board.custom_ids()


async def my_dice(world: World, user: Any, board: FakeMessage, table: Any, ledger: Ledger | None = None) -> Any:
    """The player's own view: the 🎲 My dice button if the table message is up to date, else ``/mythic hand``.

    (A click racing an edit of the table message names a custom_id the message no longer has, and
    discord.py drops such a click unanswered; the test does not click stale buttons.)
    """
    if is_current(board, table):
        reply = await world.click(user, board, "me")
    else:
        reply = await world.slash(user, "mythic", "hand")
    assert reply.ephemeral and "Your view" in reply.text
    if ledger is not None:
        ledger.note()  # check the reply against the state it shows
    return reply


async def test_a_whole_three_player_game_keeps_every_secret(world: World):
    async with world.bot(SeededDice(11)) as bot:
        board = await open_table(world)
        table = bot.tables.table(world.channel.id)
        engine = table.engine
        users = [world.alice, world.bob, world.carol]
        ledger = Ledger(world, table, users)
        ledger.note()
        step, hand = 0, 0
        while table.state.phase != "over":
            state = table.state
            if state.hand_no != hand:  # a new hand: bob (DMs closed) looks at his dice
                hand = state.hand_no
                reply = await my_dice(world, world.bob, board, table, ledger)
                kinds = [TYPES[d] for d in state.hands[1]]
                assert hand_text(kinds) in reply.text
            step += 1
            if state.phase == "bidding":
                seat = engine.to_act(state)[0]
                user, bid = users[seat], step % (state.hand_no + 1)
                if step % 3 == 0:
                    reply = await world.slash(user, "mythic", "bid", tricks=bid)
                    assert reply.ephemeral and ("secret bid" in reply.text or "Bids revealed" in reply.text)
                elif step % 3 == 1:  # the menu under 🎲 My dice
                    mine = (await my_dice(world, user, board, table, ledger)).expect_message()
                    record = await world.fake.select(user, mine, select_id(mine, "bid"), [f"bid:{bid}"])
                    assert (await record.response()).ephemeral
                else:  # the table message's menu (once it shows this state): the bid stays secret
                    await world.fake.wait_for(lambda: is_current(board, table))
                    record = await world.fake.select(user, board, select_id(board, "bid"), [f"bid:{bid}"])
                    assert (await record.response()).type == 7
                    assert f"✅ **{user.name}**" in board.text  # who has bid, never the bid
                assert table.state.bids[seat] == bid
            else:
                seat = state.current
                user, legal = users[seat], [a.encode() for a in engine.legal_actions(state, seat)]
                before = len(state.hands[seat])
                if step % 2 == 0:  # the die menu under 🎲 My dice offers exactly the legal dice
                    mine = (await my_dice(world, user, board, table, ledger)).expect_message()
                    offered = [o for c in mine.all_components() for o in c.get("options", [])]
                    assert {o["value"] for o in offered} <= set(legal)
                    assert {TYPES[int(o["value"][5:])] for o in offered} == {TYPES[int(a[5:])] for a in legal}
                    choice = offered[step % len(offered)]["value"]
                    record = await world.fake.select(user, mine, select_id(mine, "play"), [choice])
                    assert (await record.response()).ephemeral
                elif step % 4 == 1:  # /mythic play with the autocomplete's suggestion
                    choices = await world.fake.autocomplete(user, world.channel, "mythic", "play", options={"die": ""})
                    assert {f"play:{c['value']}" for c in choices} <= set(legal)
                    reply = await world.slash(user, "mythic", "play", die=choices[0]["value"])
                    assert reply.ephemeral and "rolls" in reply.text
                else:  # /mythic play typed by die type
                    kind = TYPES[int(legal[-1][5:])]
                    reply = await world.slash(user, "mythic", "play", die=kind.upper())
                    assert reply.ephemeral and "rolls" in reply.text
                assert len(table.state.hands[seat]) == before - 1 or table.state.hand_no != state.hand_no
            ledger.note()

        await world.fake.wait_for(lambda: "Final ranking" in board.text and "finished" in board.text)
        assert not any(c.startswith("ds:") for c in board.custom_ids())  # nothing left to pick
        outcome = engine.outcome(table.state)
        winner = table.seats[outcome.winners[0]].name
        assert f"🥇 **{winner}**" in board.text
        assert ledger.check_channel() > 10  # edits are coalesced: not every state is sent
        ledger.check_dms()
        to_bob = ledger.ephemeral[1]
        for hand in range(1, table.state.hands_total + 1):  # bob saw each of his hands ephemerally
            assert any(ledger.deal_line(hand, 1) in text for text in to_bob), hand
        assert any("DMs are closed" in text for text in to_bob)
        shown = [version_text(v) for v in board.history]
        assert any("takes trick" in text for text in shown) and any("📊 **Hand" in text for text in shown)
        used = {r.custom_id.split(":")[-1] if r.custom_id else r.command_path for r in world.fake.interactions}
        assert {"me", "bid", "play", "mythic bid", "mythic play", "mythic hand"} <= used

        board_reply = await world.slash(world.carol, "leaderboard", game="mythic")
        first = table.seats[outcome.ranking[0][0]]
        assert (
            f"<@{first.id}>" in board_reply.text and "1 win · 0 losses / 1 game (100% won) · best" in board_reply.text
        )
    for record in world.fake.interactions:
        assert record.ack_latency is not None and record.ack_latency < 3.0
    world.fake.assert_no_problems()


# -- bad input ---------------------------------------------------------------------------------------

RED, YELLOW, PURPLE, GRAY, MINOTAUR = 6, 13, 20, 28, 0  # die ids in the standard bag (see TYPES)


def roll(kind: str, face: str) -> int:
    return FACES[kind].index(face) + 1


async def test_bad_moves_are_refused_with_a_specific_reason_and_change_nothing(world: World):
    # Hand 1 (alice leads): alice red, bob yellow, carol purple.
    # Hand 2 (bob leads): alice two grays, bob yellow + purple, carol red + purple.
    dice = ScriptedDice(
        faces=[roll("red", "7"), roll("yellow", "5"), roll("purple", "3"), roll("purple", "2"), roll("purple", "3")],
        samples=[[RED, YELLOW, PURPLE], [GRAY, GRAY + 1, YELLOW, PURPLE + 1, RED, PURPLE]],
    )
    async with world.bot(dice) as bot:
        board = await open_table(world, first_start_player="host")
        table = bot.tables.table(world.channel.id)

        async def refused(user: Any, *path: str, expect: str, **options: Any) -> None:
            before = (table.engine.dumps(table.state), table.version)
            reply = await world.slash(user, "mythic", *path, **options)
            assert reply.ephemeral and reply.text.startswith("⚠️") and expect in reply.text, reply.text
            assert (table.engine.dumps(table.state), table.version) == before

        choices = await world.fake.autocomplete(world.alice, world.channel, "mythic", "bid", options={"tricks": ""})
        assert [c["value"] for c in choices] == [0, 1]
        await refused(world.alice, "bid", tricks=2, expect="from **0** to **1** tricks")
        await refused(world.alice, "play", die=str(RED), expect="Wait until every bid is in")
        assert (await world.slash(world.alice, "mythic", "bid", tricks=1)).ephemeral
        await refused(world.alice, "bid", tricks=0, expect="already bid this hand")
        before = (table.engine.dumps(table.state), table.version)
        record = await world.fake.select(world.alice, board, select_id(board, "bid"), ["bid:0"])
        reply = await record.response()
        assert reply.ephemeral and "already bid this hand" in reply.text
        assert (table.engine.dumps(table.state), table.version) == before
        await world.slash(world.bob, "mythic", "bid", tricks=0)
        await world.slash(world.carol, "mythic", "bid", tricks=0)
        assert table.state.phase == "playing" and table.state.current == 0

        await refused(world.bob, "play", die=str(YELLOW), expect="not your turn")
        await refused(world.alice, "play", die=str(MINOTAUR), expect="not in your hand")
        await refused(world.alice, "play", die="mermaid", expect="not in your hand")
        await refused(world.alice, "play", die="dragon", expect="Unknown die `dragon`")
        await refused(world.carol, "bid", tricks=1, expect="bids for this hand are all in")
        await world.slash(world.alice, "mythic", "play", die="red")
        await world.slash(world.bob, "mythic", "play", die="yellow")
        await world.slash(world.carol, "mythic", "play", die="purple")
        assert table.state.hand_no == 2 and table.state.scores == [20, 10, 10]

        for user, bid in ((world.alice, 0), (world.bob, 1), (world.carol, 2)):
            await world.slash(user, "mythic", "bid", tricks=bid)
        assert table.state.current == 1  # hand 2 is led by the next seat
        await world.slash(world.bob, "mythic", "play", die="purple")  # suit: purple
        await refused(world.carol, "play", die="red", expect="follow the suit: roll a **purple** die")
        await refused(world.carol, "play", die=str(RED + 1), expect="not in your hand")
        choices = await world.fake.autocomplete(world.carol, world.channel, "mythic", "play", options={"die": ""})
        assert [c["value"] for c in choices] == [str(PURPLE)]  # the only legal die
        mine = (await world.slash(world.carol, "mythic", "hand")).expect_message()
        assert option_values(mine.components) == [f"play:{PURPLE}"]
        assert "🟥 red · 🟪 purple" in mine.text and "You may roll: 🟪 purple" in mine.text
        await world.fake.wait_for(lambda: is_current(board, table))
        reply = await my_dice(world, world.alice, board, table)  # not alice's roll: her dice, one click on her turn
        assert option_values(reply.components) == [f"play:{GRAY}"] and "Waiting for **carol**" in reply.text
        record = await world.fake.select(world.carol, mine, select_id(mine, "play"), [f"play:{PURPLE}"])
        reply = await record.response()
        assert reply.ephemeral and "**carol** rolls 🟪 **3**" in reply.text
        assert table.state.hands[2] == [RED]
    world.fake.assert_no_problems()


async def test_options_reach_the_lobby_and_the_rules(world: World):
    async with world.bot() as _bot:
        reply = await world.slash(world.alice, "mythic", "new", hand_leader="last_trick_winner", hands_by_players="3:2")
        board = reply.expect_message()
        leader = option_label("mythic", "hand_leader", "en") + ": " + option_word(
            "mythic", "hand_leader", "last_trick_winner", "en"
        )
        hands = option_label("mythic", "hands_by_players", "en") + ": 3:2"  # the lobby's options line, in words
        assert leader in board.text and hands in board.text
        rules = await world.slash(world.bob, "mythic", "rules")
        assert rules.ephemeral and "Mythical Dice" in rules.text and "`hand_leader=last_trick_winner`" in rules.text
        assert "you bid **0**" in rules.text  # the timeout default
        reply = await world.slash(world.bob, "mythic", "new", dice_set="1,2,3")
        assert reply.ephemeral and "already has an open Mythical Dice table" in reply.text
        await world.slash(world.admin, "game", "cancel")
        reply = await world.slash(world.bob, "mythic", "new", dice_set="1,2,3")
        assert reply.ephemeral and "dice_set" in reply.text and "⚠️" in reply.text
    world.fake.assert_no_problems()
