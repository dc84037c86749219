"""Discord cost: REST calls per player move, over whole games with 2-6 people, DMs open and DMs closed.

The real bot (``bot.client.DiceTavern``, every cog in cogs/) runs against the in-process fake Discord
(tests/fakediscord), which logs every REST call with its kind: ``bot`` (bot-token REST, counts against the
50/s global limit), ``callback`` (interaction callbacks: exempt from it) and ``webhook`` (follow-ups and
edits of an interaction's message). Every game is played to its end by fake people, once per player count
its spec allows between 2 and 6 (``bot.games.registry.spec(game).players``) and once with every player's DMs
open, once with every player's DMs closed. A move is a player's applied action (the host's start too).

How the people play: they choose as the bot's "normal" computer player would (``bot.ai.choose``, seeded;
``--policy random``: uniformly among the legal moves), through the controls the bot shows them, found by
custom id anywhere in a message's components (the layout is free to change). A move the table message
offers is made there; a move offered only in the player's own 🎲 My dice reply is made from the reply they
keep open (a move from it redraws it in place), else from a newly opened one. A player whose DMs are closed
opens 🎲 My dice before acting whenever the bot holds a secret of theirs it could not deliver (their hand).

The pace: people are slower than the presenter's spacing of table-message edits (1.1 s), so it coalesces
none of them. The benchmark has that without waiting: the spacing is set to 0 and every move waits until
the presenter has sent everything the move caused (``--fast``: the real spacing, moves back to back, as
bots that click faster than 1.1 s; fewer edits). Turn reminders (half a turn without a move: a post and a
delete) need a slow player and are not in the figures.

The people are regulars: the bot has DMed them before (discord.py keeps their DM channels) or knows their DMs
are closed (a 403 at an earlier game; the mark is kept an hour). One row, "first game", seats people the bot
has never DMed: each costs one more call then (a DM channel opened, or the 403). The lobby (the host's /new,
the others' joins) is counted apart.

Chatter (``--chatter K``): K messages by someone who does not play are posted in the channel before every move
(the fake Discord dispatches them as MESSAGE_CREATE, as it does the bot's own messages); at the server's default
``/settings repost`` (8 messages) the table's next redraw posts it anew at the bottom and deletes the old message.
Those calls are in the figures (the "reposts" column counts the table messages posted anew).

Rematch (``--rematch``): after each game the host clicks 🔁 Rematch on the end message (``rm:<game id>``) and the
other players join the new lobby with one click each: the "rematch calls" column counts those calls (the click's
response is the new table message; compare "lobby calls", the host's ``/<game> new`` and the joins). The new lobby
is then cancelled (not counted).

    python -m benchmarks.discord_cost            # every game, 2-6 people, DMs open and closed (~2 min)
    python -m benchmarks.discord_cost --quick    # the fewest and the most people of each game
    python -m benchmarks.discord_cost --quick --chatter 2   # two chat messages before every move
    python -m benchmarks.discord_cost --quick --rematch     # and a rematch after every game
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
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
MAX_MOVES = 3000
PEOPLE = range(2, 7)
PATHS = {"keep": "", "mine": " (from My dice)", "reopen": " (My dice reopened)"}
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("pig", {"target": 100}),
    ("liar", {}),
    ("liar", {"mode": "lose_die"}),
    ("mia", {}),
    ("mex", {}),
    ("mythic", {}),
]


@dataclass
class Cost:
    game: str
    options: dict[str, Any]
    people: int
    dms: str  # "open" | "closed"
    # "keep": a move the table message offers is made there, else from the open My dice reply (a new one if it
    # offers no legal move); "mine": the same, but a Mythical Dice roll is made from the reply, not from the
    # table's menu of die types; "reopen": as "mine", with a new reply for every move made privately
    path: str = "keep"
    fresh: bool = False  # people the bot has never DMed (their DM channels are opened in this game)
    moves: int = 0
    calls: Counter[str] = field(default_factory=Counter)
    lobby_calls: int = 0
    dm_calls: int = 0  # DMs sent or refused, and DM channels opened
    private_views: int = 0  # "🎲 My dice" replies opened
    private_moves: int = 0  # moves made from a My dice reply
    reposts: int = 0  # table messages posted anew at the bottom (chatter below the table)
    rematch_calls: int | None = None  # 🔁 Rematch clicked and the new lobby joined (--rematch)
    seconds: float = 0.0
    cpu: float = 0.0
    finished: bool = False
    note: str = ""

    @property
    def name(self) -> str:
        return self.game + "".join(f" {k}={v}" for k, v in self.options.items())

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
    """action text -> ("button", custom_id) or ("select", custom_id) for every game control on ``message``, found
    anywhere in its component tree (action rows, containers, sections' accessories)."""
    out: dict[str, tuple[str, str]] = {}
    stack = list(message.components)
    while stack:
        comp = stack.pop()
        stack += comp.get("components", [])
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])
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


def alias(table: Any, action: str) -> str | None:
    """The other name a control may give a legal action: a Mythical Dice die as its type (``play:red``)."""
    name, _, value = action.partition(":")
    if table.game == "mythic" and name == "play" and value.isdigit():
        from bot.games.mythical_dice import bag_types

        return f"play:{bag_types(table.options.get('dice_set', 'standard'))[int(value)]}"
    return None


def reachable(table: Any, legal: list[str], offered: dict[str, tuple[str, str]]) -> dict[str, tuple[str, str, str]]:
    """legal action -> (kind, custom_id, value to send) for the legal moves ``offered`` has a control for."""
    out = {}
    for action in legal:
        for value in (action, alias(table, action)):
            if value is not None and value in offered:
                out[action] = (*offered[value], value)
                break
    return out


def choose(table: Any, seat: int, legal: list[str], policy: str, rng: random.Random) -> str:
    if policy == "random":
        return rng.choice(sorted(legal))
    from bot import ai
    from bot.games import Action

    view = table.engine.view(table.state, seat)
    return ai.choose(table.game, view, "normal", rng, [Action.parse(a) for a in legal]).encode()


def group_of(bot: Any, game: str) -> str | None:
    for cog in bot.cogs.values():
        if getattr(cog, "game", None) == game:
            return getattr(cog, "__cog_group_name__", None) or game
    return None


async def quiet(fake: Any, bot: Any, fast: bool) -> None:
    """Wait until the presenter has sent what the last move caused (table edits, DMs, the final message)."""
    await fake.settle()
    if fast:
        return
    presenter = bot.presenter
    for _ in range(200):
        pending = [*presenter._tasks, *presenter._workers.values()]
        if not pending:
            break
        await asyncio.wait(pending, timeout=5)
        await fake.settle()


async def open_table(fake: Any, bot: Any, channel: Any, users: list[Any], game: str, options: dict) -> Any:
    rec = await fake.slash(users[0], channel, group_of(bot, game), "new", options=options or None)
    board = (await rec.response()).expect_message()
    for user in users[1:]:
        await (await fake.click(user, board, button_for(board, "join"))).response()
    await fake.settle()
    return board


def is_dm(fake: Any, call: Any) -> bool:
    return call.path.endswith("/users/@me/channels") or any(
        f"/channels/{ch_id}/" in call.path for ch_id, ch in fake.channels.items() if getattr(ch, "type", None) == 1
    )


async def chat(fake: Any, bot: Any, channel: Any, chatty: Any, count: int) -> None:
    """``count`` messages by someone who does not play, each counted by the bot before the next move."""
    if not count:
        return
    before = bot.presenter.below(channel.id) or 0
    for n in range(count):
        await fake.post_message(chatty, channel, f"chat {n}")
    with contextlib.suppress(TimeoutError):  # (a repost in flight with --fast may reset the count meanwhile)
        await fake.wait_for(lambda: (bot.presenter.below(channel.id) or 0) >= before + count, 5)


async def rematch(fake: Any, bot: Any, channel: Any, users: list[Any], cost: Cost, fast: bool) -> None:
    """The host clicks 🔁 Rematch on the end message, the others join the new lobby; then it is cancelled."""
    ends = [m for m in fake.channel_messages(channel) if any(c.startswith("rm:") for c in m.custom_ids())]
    if not ends:
        cost.note = "no 🔁 Rematch button"
        return
    end = ends[-1]
    mark = fake.mark()
    reply = await (await fake.click(users[0], end, next(c for c in end.custom_ids() if c.startswith("rm:")))).response()
    if reply.ephemeral or reply.message is None:
        cost.note = f"rematch refused: {reply.text[:80]!r}"
        return
    board = reply.message
    for user in users[1:]:
        join = button_for(board, "join")
        if join is not None and bot.tables.by_channel.get(channel.id) is not None:
            await (await fake.click(user, board, join)).response()
    await quiet(fake, bot, fast)
    cost.rematch_calls = len(fake.calls(since=mark))
    await (await fake.slash(users[0], channel, "game", "cancel")).response()
    await quiet(fake, bot, fast)


async def play(
    fake: Any,
    bot: Any,
    channel: Any,
    users: list[Any],
    cost: Cost,
    policy: str,
    fast: bool,
    chatter: int = 0,
    again: bool = False,
) -> None:
    private: dict[int, Any] = {}  # user id -> their open My dice reply (a move from it redraws it in place)
    by_id = {u.id: u for u in users}
    rng = random.Random(f"{cost.name}/{cost.people}/{cost.dms}")
    start_mark = fake.mark()
    board = await open_table(fake, bot, channel, users, cost.game, cost.options)
    cost.lobby_calls = len(fake.calls(since=start_mark))
    mark = fake.mark()
    began, cpu = time.perf_counter(), time.process_time()
    # The host's "start" is the first counted move: it deals the first hands (DMs in some games).
    await (await fake.click(users[0], board, button_for(board, "start"))).response()
    cost.moves += 1
    await quiet(fake, bot, fast)
    table = bot.tables.by_channel.get(channel.id)
    if table is None or table.state is None:
        cost.note = "the table did not start"
        return
    presenter, engine = bot.presenter, table.engine
    chatty = fake.add_user(f"chatty{channel.id}", guild=fake.guilds[channel.guild_id]) if chatter else None
    message_id = table.message_id

    async def open_mine(user: Any) -> Any:
        board = table_message(fake, channel)
        me = button_for(board, "me") if board is not None else None
        if me is None:
            return None
        reply = await (await fake.click(user, board, me)).response()
        cost.private_views += 1
        private[user.id] = reply.message
        await quiet(fake, bot, fast)
        return reply.message

    while cost.moves < MAX_MOVES:
        if table.status != "running" or not (seats := engine.to_act(table.state)):
            break
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        user = by_id[table.seats[seat].id]
        if chatty is not None:
            await chat(fake, bot, channel, chatty, chatter)
        if presenter.pending.get((table.id, user.id)):  # a secret they have not seen (DMs closed): look first
            await open_mine(user)
        legal = [a.encode() for a in engine.legal_actions(table.state, seat)]
        board = table_message(fake, channel)
        where = board
        offered = reachable(table, legal, controls(board) if board is not None else {})
        if cost.path != "keep":  # the table's roll menu (a die by its type) aside: those rolls are made privately
            offered = {a: c for a, c in offered.items() if c[2] == a}
        if not offered:  # only in their own reply
            where = private.get(user.id) if cost.path != "reopen" else None
            offered = reachable(table, legal, controls(where)) if where is not None else {}
            if not offered:
                where = await open_mine(user)
                offered = reachable(table, legal, controls(where)) if where is not None else {}
            cost.private_moves += 1
        if not offered:
            cost.note = f"no control for any of {legal[:4]}"
            break
        action = choose(table, seat, list(offered), policy, rng)
        kind, cid, value = offered[action]
        rec = await (fake.click(user, where, cid) if kind == "button" else fake.select(user, where, cid, [value]))
        reply = await rec.response()
        if reply.ephemeral and "⚠️" in reply.text:
            cost.note = f"refused: {reply.text[:80]!r}"
            break
        cost.moves += 1
        await quiet(fake, bot, fast)
        if table.message_id != message_id:
            cost.reposts, message_id = cost.reposts + 1, table.message_id
        for followup in reply.followups:  # a private follow-up with controls: the player plays on from it
            if followup.ephemeral and controls(followup):
                private[user.id] = followup
        table = bot.tables.by_id.get(table.id, table)
    cost.finished = table.status == "finished"
    await bot.presenter.drain()  # trailing table-message edits and DMs
    await quiet(fake, bot, fast)
    cost.seconds, cost.cpu = time.perf_counter() - began, time.process_time() - cpu
    calls = fake.calls(since=mark)
    cost.calls = Counter(c.kind for c in calls)
    cost.dm_calls = sum(1 for c in calls if is_dm(fake, c))
    if again and cost.finished:
        await rematch(fake, bot, channel, users, cost, fast)


def configurations(quick: bool) -> list[Cost]:
    runs = []
    for game, options in GAMES:
        lo, hi = spec(game).players
        counts = [n for n in PEOPLE if lo <= n <= hi]
        if quick:
            counts = sorted({counts[0], counts[-1]})
        runs += [Cost(game, options, n, dms) for n in counts for dms in ("open", "closed")]
    # The same 4-person Mythical Dice game by people who roll from their own 🎲 My dice reply (not from the
    # table's menu of die types, where it has one), and by people who open a new reply for every such roll
    # instead of rolling from the one redrawn after their last move: what the one-click roll saves.
    runs.append(Cost("mythic", {}, 4, "open", path="mine"))
    runs.append(Cost("mythic", {}, 4, "open", path="reopen"))
    runs.append(Cost("liar", {}, 6, "open", fresh=True))
    runs.append(Cost("liar", {}, 6, "closed", fresh=True))
    return runs


async def run_async(quick: bool, policy: str, fast: bool, chatter: int = 0, again: bool = False) -> list[Cost]:
    try:
        import discord

        import cogs.utils.presenter as presenter_module
        from bot.client import DiceTavern
        from bot.games.dice import SeededDice
        from tests.fakediscord import FakeDiscord, run_bot
    except ImportError as error:  # tests/ is part of a clone; the installed package alone lacks it
        print(f"fake Discord unavailable ({error}): skipped")
        return []
    logging.getLogger("discord").setLevel(logging.ERROR)
    results = configurations(quick)
    spacing = presenter_module.EDIT_SPACING
    if not fast:
        presenter_module.EDIT_SPACING = 0.0  # people's pace without the wait (see the module's doc)
    try:
        with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
            async with FakeDiscord() as fake:
                guild = fake.add_guild("Tavern", channels=[f"c{i}" for i in range(len(results))])
                bot = DiceTavern(
                    database_path=str(Path(folder) / "cost.sqlite3"), dice=SeededDice(3), guild_ready_timeout=0.1
                )
                regulars = {
                    dms: [fake.add_user(f"{dms}{k}", guild=guild, dms_open=dms == "open") for k in range(max(PEOPLE))]
                    for dms in ("open", "closed")
                }
                async with run_bot(fake, bot):
                    await bot.tree.sync()
                    for user in regulars["open"]:  # DMed before: discord.py has their DM channels
                        await bot.create_dm(discord.Object(user.id))
                    presenter: Any = bot.presenter  # the Discord presenter (its DM path)
                    for user in regulars["closed"]:  # a DM failed before: marked "DMs closed"
                        await presenter.send_dm(user.id, "warm-up")
                    for i, cost in enumerate(results):
                        if group_of(bot, cost.game) is None:
                            cost.note = "no cog"
                            continue
                        users = regulars[cost.dms][: cost.people]
                        if cost.fresh:
                            users = [
                                fake.add_user(f"new{i}_{k}", guild=guild, dms_open=cost.dms == "open")
                                for k in range(cost.people)
                            ]
                        try:
                            await asyncio.wait_for(
                                play(fake, bot, guild.channel(f"c{i}"), users, cost, policy, fast, chatter, again),
                                600,
                            )
                        except Exception as error:  # a cog being written: report, don't stop the others
                            cost.note = f"{type(error).__name__}: {str(error)[:90]}"
                with contextlib.suppress(Exception):
                    problems = fake.problems()
                    if problems:
                        print(f"fake Discord problems: {problems[:5]}")
    finally:
        presenter_module.EDIT_SPACING = spacing
    return results


def run(
    quick: bool = False, policy: str = "ai", fast: bool = False, chatter: int = 0, again: bool = False
) -> list[Cost]:
    pace = "back to back (edits coalesced)" if fast else "people's pace (no edit coalesced)"
    talk = f", {chatter} chat messages before every move" if chatter else ""
    header(f"Discord cost: REST calls per move over whole games ({policy} choices, {pace}{talk})")
    print(
        "leaves out: CPU per call (it counts REST calls; its times include the fake's), fair dice (SeededDice), turn "
        "reminders, the real edit spacing unless --fast"
    )
    results = asyncio.run(run_async(quick, policy, fast, chatter, again))
    rows: list[tuple[Any, ...]] = []
    for c in results:
        if not c.moves:
            rows.append((c.name, c.people, c.dms, 0, *([None] * 10), c.note or "skipped"))
            continue
        rows.append(
            (
                c.name + PATHS[c.path] + (" (first game)" if c.fresh else ""),
                c.people,
                c.dms,
                c.moves,
                c.per_move(),
                c.per_move("callback"),
                c.per_move("bot"),
                c.per_move("webhook"),
                c.dm_calls,
                c.private_views,
                c.private_moves,
                c.lobby_calls,
                c.reposts,
                c.rematch_calls,
                ("finished" if c.finished else "NOT finished") + (f"; {c.note}" if c.note else ""),
            )
        )
    show(
        rows,
        [
            "game",
            "people",
            "DMs",
            "moves",
            "REST/move",
            "callback/move",
            "bot/move",
            "webhook/move",
            "DM calls",
            "My dice opened",
            "private moves",
            "lobby calls",
            "reposts",
            "rematch calls",
            "notes",
        ],
    )
    counted = [c for c in results if c.moves and c.path == "keep" and not c.fresh]
    if not counted:
        return results
    moves, calls = sum(c.moves for c in counted), sum(c.total for c in counted)
    bot_calls = sum(c.calls["bot"] for c in counted)
    seconds, cpu = sum(c.seconds for c in counted), sum(c.cpu for c in counted)
    reposts = sum(c.reposts for c in counted)
    print(
        f"\nall games (but the My dice and first-game rows): {calls:,} REST calls for {moves:,} moves = "
        f"{calls / moves:.2f} per move, "
        f"{bot_calls / moves:.2f} of them bot calls (the global limit's); {reposts:,} reposts counted in; "
        f"played in {seconds:.1f} s wall, {cpu:.1f} s CPU"
    )
    worst: dict[str, Cost] = {}
    for c in counted:
        if c.name not in worst or c.per_move() > worst[c.name].per_move():
            worst[c.name] = c
    print("per game, the worst configuration:")
    for name, c in worst.items():
        print(f"  {name:20} {c.per_move():.2f} REST/move ({c.people} people, DMs {c.dms})")
    top = max(worst.values(), key=lambda c: c.per_move())
    every = all(c.finished for c in counted)
    print(
        f"target: every game's worst <= {TARGET_CALLS:g} REST calls per move: worst {top.per_move():.2f} "
        f"({top.name}, {top.people} people, DMs {top.dms})"
        f"{'' if every else ' (some game did not finish)'} {verdict(top.per_move() <= TARGET_CALLS and every)}"
    )
    return results


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--policy", choices=("ai", "random"), default="ai", help="how the people choose (default: ai)")
    p.add_argument("--fast", action="store_true", help="moves back to back with the real edit spacing")
    p.add_argument("--chatter", type=int, default=0, metavar="K", help="K chat messages before every move (default 0)")
    p.add_argument("--rematch", action="store_true", help="click 🔁 Rematch after every game and join its lobby")
    args = p.parse_args()
    run(args.quick, args.policy, args.fast, args.chatter, args.rematch)


if __name__ == "__main__":
    main()
