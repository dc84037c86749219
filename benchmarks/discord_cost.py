"""Discord cost: REST calls per player action, counted through the fake Discord (tests/fakediscord).

The real bot (``bot.client.DiceTavern``, every cog in cogs/) runs against the in-process fake Discord,
which logs every REST call with its kind: ``bot`` (bot-token REST, counts against the 50/s global
limit), ``callback`` (interaction callbacks: exempt from the global limit) and ``webhook`` (follow-ups
and edits of an interaction's original message). For each game whose cog exists, one complete game is
played by fake users through the table message's controls (buttons and menus; the ephemeral
"🎲 My dice" view when a move is only offered there), choosing among the legal moves the bot offers
(Pig: roll until the turn total reaches 20, then hold; other games: uniformly at random, seeded).
For Pig the same game is also played through slash commands (/pig roll, /pig hold). A player keeps
their My dice reply (a move made from it redraws it in place with fresh controls) and plays from it
while it offers a legal move, opening a new one otherwise; for comparison, Mythical Dice is played once
more by players who open a new reply for every private move ("buttons, reopen", left out of the totals).

Only the moves are counted (from the first move to the end of the game, including the presenter's
trailing table-message edits and DMs); opening the lobby is reported separately. ``--pace`` waits
between moves: the presenter coalesces table-message edits of moves less than 1.1 s apart, so
players faster than that cost fewer edits than people at a human pace.

    python -m benchmarks.discord_cost            # ~30 s (+ a paced slash game of Pig to target 20, ~20 s)
    python -m benchmarks.discord_cost --quick    # buttons only, no paced game
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show, verdict
from bot.games.registry import spec

TARGET_CALLS = 2.0
CONTROL = re.compile(r"^dt:\d+:(?:\d+:)?(?P<action>[A-Za-z_].*)$")
LOBBY = {"join", "leave", "start", "me", "cancel"}
MAX_MOVES = 3000


@dataclass
class Cost:
    game: str
    path: str
    pace: float
    options: dict = field(default_factory=dict)
    moves: int = 0
    calls: Counter = field(default_factory=Counter)
    lobby_calls: int = 0
    dm_calls: int = 0
    private_views: int = 0  # "🎲 My dice" replies opened
    private_reused: int = 0  # moves made from a My dice reply opened for an earlier move (redrawn in place)
    ack: list[float] = field(default_factory=list)
    seconds: float = 0.0
    finished: bool = False
    note: str = ""

    @property
    def interactions(self) -> int:
        return self.moves + self.private_views

    @property
    def total(self) -> int:
        return sum(self.calls.values())

    def per_move(self, kind: str | None = None) -> float:
        if not self.moves:
            return float("nan")
        return (self.total if kind is None else self.calls[kind]) / self.moves


def table_message(fake: Any, channel: Any) -> Any | None:
    found = [m for m in fake.channel_messages(channel) if any(c.startswith("dt:") for c in m.custom_ids())]
    return found[-1] if found else None


def controls(message: Any) -> dict[str, tuple[str, str]]:
    """action text -> ("button", custom_id) or ("select", custom_id) for every game control on ``message``."""
    out: dict[str, tuple[str, str]] = {}
    stack = list(message.components)
    while stack:
        comp = stack.pop()
        stack += comp.get("components", [])
        cid = comp.get("custom_id", "")
        if comp.get("disabled"):
            continue
        if comp.get("type") == 2 and (m := CONTROL.match(cid)):
            out.setdefault(m["action"], ("button", cid))
        elif comp.get("type") == 3 and cid.startswith("ds:"):
            for option in comp.get("options", []):
                out.setdefault(option["value"], ("select", cid))
    return out


def button_for(message: Any, action: str) -> str | None:
    kind_cid = controls(message).get(action)
    return kind_cid[1] if kind_cid and kind_cid[0] == "button" else None


def choose(game: str, state: Any, legal: list[str], rng: random.Random) -> str:
    if game == "pig":
        if "hold" in legal and state.turn_total >= 20:
            return "hold"
        return "roll" if "roll" in legal else legal[0]
    return rng.choice(sorted(legal))


def group_of(bot: Any, game: str) -> str | None:
    for cog in bot.cogs.values():
        if getattr(cog, "game", None) == game:
            return getattr(cog, "__cog_group_name__", None) or game
    return None


async def open_table(fake: Any, bot: Any, channel: Any, users: list[Any], game: str, options: dict) -> Any:
    group = group_of(bot, game)
    rec = await fake.slash(users[0], channel, group, "new", options=options or None)
    board = (await rec.response()).expect_message()
    for user in users[1:]:
        await (await fake.click(user, board, button_for(board, "join"))).response()
    await fake.settle()
    return board


async def play(
    fake: Any, bot: Any, channel: Any, users: list[Any], game: str, options: dict, path: str, pace: float, seed: int
) -> Cost:
    cost = Cost(game, path, pace, options)
    reuse = path == "buttons"  # "buttons, reopen": a new My dice reply for every private move
    private: dict[int, Any] = {}  # user id -> their last My dice reply (a move from it redraws it in place)
    by_id = {u.id: u for u in users}
    rng = random.Random(seed)
    start_mark = fake.mark()
    board = await open_table(fake, bot, channel, users, game, options)
    cost.lobby_calls = len(fake.calls(since=start_mark))
    mark = fake.mark()
    began = time.perf_counter()
    # The host's "start" is the first counted move: it deals the first hands (DMs in some games).
    await (await fake.click(users[0], board, button_for(board, "start"))).response()
    cost.moves += 1
    await fake.settle()
    table = bot.tables.by_channel.get(channel.id)
    if table is None or table.state is None:
        cost.note = "the table did not start"
        return cost
    engine = table.engine
    group = group_of(bot, game)
    while cost.moves < MAX_MOVES:
        if table.status != "running":
            cost.finished = True
            break
        seats = engine.to_act(table.state)
        if not seats:
            cost.finished = True
            break
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        user = by_id[table.seats[seat].id]
        legal = [a.encode() for a in engine.legal_actions(table.state, seat)]
        action = choose(game, table.state, legal, rng)
        if path == "slash":
            rec = await fake.slash(user, channel, group, action)
        else:
            board = table_message(fake, channel)
            offered = controls(board) if board is not None else {}
            where = board
            if not any(a in offered for a in legal):  # only on the private "My dice" view
                where = private.get(user.id) if reuse else None
                offered = controls(where) if where is not None else {}
                if any(a in offered for a in legal):  # the player's open reply still offers a legal move
                    cost.private_reused += 1
                else:
                    me = button_for(board, "me") if board is not None else None
                    if me is None:
                        cost.note = f"no control for any of {legal[:4]}"
                        break
                    reply = await (await fake.click(user, board, me)).response()
                    cost.private_views += 1
                    where = private[user.id] = reply.message
                    offered = controls(where) if where is not None else {}
            available = [a for a in legal if a in offered]
            if not available:
                cost.note = f"no control for any of {legal[:4]} (offered: {list(offered)[:4]})"
                break
            if action not in offered:
                action = choose(game, table.state, available, rng)
            kind, cid = offered[action]
            if kind == "button":
                rec = await fake.click(user, where, cid)
            else:
                rec = await fake.select(user, where, cid, [action])
        reply = await rec.response()
        if rec.ack_latency is not None:
            cost.ack.append(rec.ack_latency)
        if reply.ephemeral and "⚠️" in reply.text:
            cost.note = f"refused: {reply.text[:80]!r}"
            break
        cost.moves += 1
        await fake.settle()
        if pace:
            await asyncio.sleep(pace)
        table = bot.tables.by_id.get(table.id, table)
    await bot.presenter.drain()  # trailing table-message edits and DMs
    await fake.settle()
    cost.seconds = time.perf_counter() - began
    calls = fake.calls(since=mark)
    cost.calls = Counter(c.kind for c in calls)
    dm_channels = {ch_id for ch_id, ch in fake.channels.items() if getattr(ch, "type", None) == 1}
    cost.dm_calls = sum(
        1
        for c in calls
        if c.path.endswith("/users/@me/channels") or any(f"/channels/{d}/" in c.path for d in dm_channels)
    )
    return cost


async def run_async(quick: bool, pace: float | None) -> list[Cost]:
    try:
        from bot.client import DiceTavern
        from bot.games.dice import SeededDice
        from tests.fakediscord import FakeDiscord, run_bot
    except ImportError as error:  # tests/ is part of a clone; the installed package alone lacks it
        print(f"fake Discord unavailable ({error}): skipped")
        return []
    logging.getLogger("discord").setLevel(logging.ERROR)
    results: list[Cost] = []
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        async with FakeDiscord() as fake:
            runs: list[tuple[str, dict, str, float]] = [
                ("pig", {"target": 100}, "buttons", 0.0),
                ("liar", {}, "buttons", 0.0),
                ("liar", {"mode": "lose_die"}, "buttons", 0.0),
                ("mia", {}, "buttons", 0.0),
                ("mex", {}, "buttons", 0.0),
                ("mythic", {}, "buttons", 0.0),
            ]
            if not quick:
                runs.append(("pig", {"target": 100}, "slash", 0.0))
            if not quick or pace:  # a paced game takes ~1.2 s a move: keep it short
                runs.append(("pig", {"target": 20}, "slash", 1.2 if pace is None else pace))
            # The same Mythical Dice game by players who open a new My dice reply for every private move
            # instead of playing on from the one redrawn after their last move (the model before c949641's doc).
            runs.append(("mythic", {}, "buttons, reopen", 0.0))
            guild = fake.add_guild("Tavern", channels=[f"c{i}" for i in range(len(runs))])
            users = [fake.add_user(name, guild=guild) for name in ("alice", "bob", "carol")]
            bot = DiceTavern(
                database_path=str(Path(folder) / "cost.sqlite3"), dice=SeededDice(3), guild_ready_timeout=0.1
            )
            async with run_bot(fake, bot):
                await bot.tree.sync()
                for i, (game, options, path, p) in enumerate(runs):
                    channel = guild.channel(f"c{i}")
                    if group_of(bot, game) is None:
                        results.append(Cost(game, path, p, options, note="no cog"))
                        continue
                    seated = users[: spec(game).players[0]]  # the fewest a game takes
                    try:
                        cost = await asyncio.wait_for(
                            play(fake, bot, channel, seated, game, options, path, p, seed=i), 600
                        )
                    except Exception as error:  # a cog being written: report, don't stop the others
                        cost = Cost(game, path, p, options, note=f"{type(error).__name__}: {str(error)[:90]}")
                    results.append(cost)
            with contextlib.suppress(Exception):
                problems = fake.problems()
                if problems:
                    print(f"fake Discord problems: {problems[:5]}")
    return results


def run(quick: bool = False, pace: float | None = None) -> list[Cost]:
    header("Discord cost: REST calls per player move through the fake Discord (one complete game each)")
    results = asyncio.run(run_async(quick, pace))
    rows = []
    for c in results:
        name = c.game + "".join(f" {k}={v}" for k, v in c.options.items())
        if not c.moves:
            rows.append((name, c.path, c.pace, 0, None, None, None, None, None, None, None, None, c.note or "skipped"))
            continue
        rows.append(
            (
                name,
                c.path,
                c.pace,
                c.moves,
                c.per_move(),
                c.total / c.interactions,
                c.per_move("callback"),
                c.per_move("bot"),
                c.per_move("webhook"),
                c.dm_calls,
                c.lobby_calls,
                statistics.median(c.ack) * 1e3 if c.ack else None,
                ("finished" if c.finished else "NOT finished")
                + (f"; {c.private_views} My dice opened" if c.private_views else "")
                + (f", {c.private_reused} moves from an open one" if c.private_reused else "")
                + (f"; {c.note}" if c.note else ""),
            )
        )
    show(
        rows,
        [
            "game",
            "via",
            "pace s",
            "moves",
            "REST/move",
            "REST/interaction",
            "callback/move",
            "bot/move",
            "webhook/move",
            "DM calls",
            "lobby calls",
            "ack p50 ms",
            "notes",
        ],
    )
    counted = [c for c in results if c.moves and c.path != "buttons, reopen"]  # the comparison row aside
    if counted:
        moves = sum(c.moves for c in counted)
        calls = sum(c.total for c in counted)
        bot_calls = sum(c.calls["bot"] for c in counted)
        print(
            f"\nall games above (but the reopen row): {calls:,} REST calls for {moves:,} moves = "
            f"{calls / moves:.2f} per move "
            f"({bot_calls / moves:.2f} bot calls per move count against the global limit)"
        )
        worst = max(counted, key=lambda c: c.per_move())
        print(
            f"target: <= {TARGET_CALLS:g} REST calls per player move on average: worst {worst.per_move():.2f} "
            f"({worst.game} via {worst.path}, pace {worst.pace:g} s) {verdict(worst.per_move() <= TARGET_CALLS)}"
        )
        print(
            "(callbacks are exempt from the global 50/s limit; a DM channel is opened once per user per process,"
            " so later games in this run reuse the earlier games' DM channels)"
        )
    return results


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--pace", type=float, help="seconds between moves of the paced Pig slash game (default 1.2)")
    args = p.parse_args()
    run(args.quick, args.pace)


if __name__ == "__main__":
    main()
