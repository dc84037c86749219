"""The production click: the bot's CPU per click through the real discord.py client, fair dice, SQLite on disk.

The bot is ``bot.client.DiceTavern`` as ``dicetavern run`` builds it: every cog, provably fair dice per table
(``dice=None``: ``FairDice.new`` as each table opens, an HMAC-SHA256 block per die), the durable SQLite store on a
file (``synchronous=FULL``, group commit), the garbage collector tuned as at start-up, the presenter's real edit
spacing (1.1 s per table message), secret hands DMed (every player's DMs open). It runs in this process's main
thread and event loop, as in production. The fake Discord (tests/fakediscord: gateway and REST on loopback) and
the fake people run in a second thread with their own event loop: each click is a gateway INTERACTION_CREATE
the bot parses, handles, commits, and answers over HTTP (the callback redrawing the table message), plus what
the move causes afterwards (DMs, the end-of-game message, edits of the table message after a private move).

**The bot's CPU** is the process's user + system time (``resource.getrusage(RUSAGE_SELF)``) less the CPU of the
fake Discord's thread (its POSIX thread CPU clock, ``time.pthread_getcpuclockid``) over the measured window,
divided by the interactions the bot answered in it (moves, and the lobby clicks that re-open a finished game and
the 🎲 My dice replies opened, both counted apart too). The people's choice of a move runs in the fake's thread,
so it is not the bot's. That window runs without the profiler.

**The breakdown**: a second window of the same length under a sampling profiler of the bot's event-loop thread
(``Sampler``: SIGALRM every ``SAMPLE_EVERY`` s, each sample charged the loop thread's CPU since the previous
one); a sample goes to the first frame, from the innermost out, whose module names a part (``PARTS``); those
shares split the first window's loop-thread CPU, shown in µs per click. The store's own thread (aiosqlite's:
SQLite's statements and commits) and any other thread are measured by their CPU clocks. Code in C (the
aiohttp parser, orjson, sqlite3, hashlib) is charged to the Python frame that called it. A loop thread that was
waiting for the GIL when the signal came runs the handler where it let the GIL go (a hand-over to another thread,
e.g. the put on aiosqlite's queue), charging that point with the CPU spent before it: the split is approximate,
the totals are not.

Two loads per game: **1 open table** (one click at a time), and **1,000 open tables** (200 of each game open at
once; the game's 200 are clicked in turn by ``WORKERS`` people at a time). Each game at its defaults, 2 players
(Mythical Dice 3), moves chosen uniformly among those the table message (or the player's 🎲 My dice reply)
offers.

    nice -n 19 .venv/bin/python -m benchmarks.production_click            # ~4 min on 2 cores
    nice -n 19 .venv/bin/python -m benchmarks.production_click --quick    # 1 and 50 open tables, short windows
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import random
import re
import resource
import signal
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show, verdict

LEAVES_OUT = (
    "Discord's real network (loopback to the fake), TLS, zlib-compressed gateway frames, other guilds' events, "
    "the 5-minute full GC, computer players, restarts"
)
TARGET_CPU = 1.5e-3  # s of the bot's CPU per click, end to end (issue 30)
GAMES = ("pig", "mia", "mex", "liar", "mythic")
WORKERS = 4  # people clicking at once at the large size (each on a table nobody else is clicking)
SAMPLE_EVERY = 0.002  # s between samples of the bot's event-loop thread
CHANNELS_PER_GUILD = 200
VERSIONED = re.compile(r"^d[ts]:(\d+):(\d+):")

# Parts of a click, by the module of the first frame (innermost first) that names one; frames of other modules
# (the standard library, discord.py's models and utilities) pass the sample on to their caller.
PARTS: list[tuple[str, str]] = [
    ("/bot/games/fair.py", "dice"),
    ("/bot/games/dice.py", "dice"),
    ("/bot/tables/dice.py", "dice"),
    ("/hmac.py", "dice"),
    ("/bot/games/", "engine"),
    ("/bot/ai/", "engine"),
    ("/bot/store/", "store (loop side)"),
    ("/sqlite3/", "store (loop side)"),
    ("/bot/render/", "render"),
    ("/bot/i18n.py", "render"),
    ("/bot/emojis.py", "render"),
    ("/cogs/utils/components.py", "render"),
    ("/cogs/utils/wire.py", "HTTP"),  # a prebuilt message's request, through discord.py's adapters
    ("/cogs/utils/lean_gateway.py", "gateway parse"),  # a table click's Interaction, a MESSAGE_UPDATE left unparsed
    ("/discord/ui/", "render"),
    ("/discord/components.py", "render"),
    ("/discord/embeds.py", "render"),
    ("/discord/http.py", "HTTP"),
    ("/discord/webhook/", "HTTP"),
    ("/aiohttp/client_ws.py", "gateway parse"),
    ("/aiohttp/_websocket/", "gateway parse"),
    ("/aiohttp/http_websocket.py", "gateway parse"),
    ("/aiohttp/", "HTTP"),
    ("/multidict/", "HTTP"),
    ("/yarl/", "HTTP"),
    ("/discord/gateway.py", "gateway parse"),
    ("/discord/state.py", "gateway parse"),
    ("/discord/client.py", "gateway parse"),
    ("/discord/app_commands/", "handler"),
    ("/discord/ext/", "handler"),
    ("/bot/", "handler"),
    ("/cogs/", "handler"),
    ("/asyncio/selector_events.py", "socket I/O"),
    ("/asyncio/", "event loop"),
]
ORDER = [
    "gateway parse",
    "handler",
    "engine",
    "dice",
    "store (loop side)",
    "render",
    "HTTP",
    "socket I/O",
    "event loop",
    "other",
]


def part_of(frame: Any) -> str | None:
    """The part a sample of ``frame`` (the innermost) belongs to; None when the thread is idle in select."""
    code = frame.f_code
    if code.co_filename.endswith("selectors.py") and code.co_name == "select":
        return None
    while frame is not None:
        name = frame.f_code.co_filename.replace("\\", "/")
        for fragment, part in PARTS:
            if fragment in name:
                return part
        frame = frame.f_back
    return "other"


def thread_cpu(ident: int) -> float:
    """CPU seconds of a live thread of this process (its POSIX CPU clock; read only threads still running)."""
    try:
        return time.clock_gettime(time.pthread_getcpuclockid(ident))
    except (OSError, ValueError, OverflowError):
        return 0.0


def user_system(native_id: int | None) -> tuple[float, float]:
    """A thread's user and system CPU seconds from /proc (clock ticks: 10 ms steps); zeros where unreadable."""
    try:
        fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0, 0.0
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def process_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


class Sampler:
    """A sampling profiler of the bot's event-loop thread (this process's main thread).

    While on, SIGALRM comes every ``SAMPLE_EVERY`` s of wall time; Python runs its handler in the main thread at
    the next bytecode, with the frame it interrupted, and the handler charges the loop thread's CPU used since the
    previous sample (its CPU clock) to that frame's part. Samples of a thread waiting in ``select`` charge ~0.
    A signal handler sees the thread as it runs, where a sampler thread could look only when the loop thread has
    let go of the GIL (in a syscall): those samples would all be in socket reads and writes.
    """

    def __init__(self, ident: int) -> None:
        self.ident = ident
        self.charged: Counter[str] = Counter()
        self.samples = 0
        self.last = 0.0
        signal.signal(signal.SIGALRM, self._tick)
        signal.siginterrupt(signal.SIGALRM, False)  # syscalls the signal interrupts restart (SA_RESTART)

    def start(self) -> None:
        self.charged, self.samples = Counter(), 0
        self.last = thread_cpu(self.ident)
        signal.setitimer(signal.ITIMER_REAL, SAMPLE_EVERY, SAMPLE_EVERY)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0, 0)

    def _tick(self, signum: int, frame: Any) -> None:
        now = thread_cpu(self.ident)
        used, self.last = now - self.last, now
        if frame is None:
            return
        self.samples += 1
        self.charged[part_of(frame) or "idle"] += used


@dataclass
class Window:
    game: str
    tables: int
    moves: int = 0
    lobby: int = 0  # interactions re-opening finished games (new, joins, start)
    private: int = 0  # 🎲 My dice replies opened
    refused: int = 0
    wall: float = 0.0
    bot_cpu: float = 0.0
    loop_cpu: float = 0.0
    store_cpu: float = 0.0
    store_user: float = 0.0  # of which user and system time (/proc: 10 ms steps)
    store_system: float = 0.0
    other_cpu: float = 0.0
    fake_cpu: float = 0.0
    gc_wall: float = 0.0
    shares: dict[str, float] = field(default_factory=dict)  # the loop thread's CPU by part (profiled window)
    samples: int = 0
    profiled_us: float = float("nan")  # bot CPU per click in the profiled window (the profiler's cost included)
    note: str = ""

    @property
    def clicks(self) -> int:
        return self.moves + self.lobby + self.private

    def us(self, seconds: float) -> float:
        return seconds / self.clicks * 1e6 if self.clicks else float("nan")


def is_store_thread(thread: threading.Thread) -> bool:
    """aiosqlite's connection thread (it runs every statement and commit of the SQLite store)."""
    target = getattr(thread, "_target", None)
    return "connection_worker" in getattr(target, "__name__", "") or "sqlite" in thread.name.lower()


class Marks:
    """CPU of the process and of each of its threads at the window's start, to subtract at its end."""

    def __init__(self, fake_ident: int, loop_ident: int) -> None:
        self.fake, self.loop = fake_ident, loop_ident
        self.process = process_cpu()
        self.threads = {t.ident: thread_cpu(t.ident) for t in threading.enumerate() if t.ident is not None}
        self.split = {t.ident: user_system(t.native_id) for t in threading.enumerate() if t.ident is not None}
        self.wall = time.perf_counter()

    def close(self, window: Window) -> None:
        window.wall = time.perf_counter() - self.wall
        total = process_cpu() - self.process
        for t in threading.enumerate():
            if t.ident is None:
                continue
            used = thread_cpu(t.ident) - self.threads.get(t.ident, 0.0)
            if t.ident == self.fake:
                window.fake_cpu = used
            elif t.ident == self.loop:
                window.loop_cpu = used
            elif is_store_thread(t):
                window.store_cpu += used
                user, system = user_system(t.native_id)
                before = self.split.get(t.ident, (0.0, 0.0))
                window.store_system += system - before[1]
                window.store_user += user - before[0]
        window.bot_cpu = total - window.fake_cpu
        # every other thread (asyncio.to_thread's, any that ended in the window): the rest of the process
        window.other_cpu = max(0.0, window.bot_cpu - window.loop_cpu - window.store_cpu)


class People:
    """The fake Discord's side: tables opened, moves chosen and clicked (runs in the fake's thread)."""

    def __init__(self, fake: Any, bot: Any, quick: bool) -> None:
        from benchmarks import discord_cost as dc

        self.dc = dc
        self.fake, self.bot, self.quick = fake, bot, quick
        self.guilds: list[Any] = []
        self.announced: set[int] = set()
        self.free: list[Any] = []
        self.users: dict[int, Any] = {}
        self.seated: dict[int, list[Any]] = {}  # channel id -> its people
        self.private: dict[int, Any] = {}  # user id -> their open 🎲 My dice reply
        self.window: Window | None = None
        self.rng = random.Random(30)
        self.count = 0

    def channels(self, n: int) -> list[Any]:
        while len(self.free) < n:
            g = len(self.guilds)
            guild = self.fake.add_guild(f"T{g}", channels=[f"c{g}_{i}" for i in range(CHANNELS_PER_GUILD)])
            self.guilds.append(guild)
            self.free += [guild.channel(f"c{g}_{i}") for i in range(CHANNELS_PER_GUILD)]
        taken, self.free = self.free[:n], self.free[n:]
        return taken

    async def announce(self) -> None:
        for guild in self.guilds:
            if guild.id not in self.announced:
                await self.fake.announce_guild(guild)
                self.announced.add(guild.id)

    def people(self, channel: Any, game: str) -> list[Any]:
        from bot.games.registry import spec

        if channel.id not in self.seated:
            guild = self.fake.guilds[channel.guild_id]
            n = max(2, spec(game).players[0])
            made = []
            for _ in range(n):
                self.count += 1
                user = self.fake.add_user(f"p{self.count}", guild=guild, dms_open=True)
                self.users[user.id] = user
                made.append(user)
            self.seated[channel.id] = made
        return self.seated[channel.id]

    def count_lobby(self, n: int) -> None:
        if self.window is not None:
            self.window.lobby += n

    async def open(self, channel: Any, game: str) -> None:
        users = self.people(channel, game)
        await self.dc.open_table(self.fake, self.bot, channel, users, game, {})
        board = self.dc.table_message(self.fake, channel)
        start = self.dc.button_for(board, "start") if board is not None else None
        if start is None:
            raise RuntimeError(f"{game}: no start button in {channel.name}")
        await (await self.fake.click(users[0], board, start)).response()
        self.count_lobby(len(users) + 1)

    async def cancel(self, channel: Any) -> None:
        host = self.seated[channel.id][0]
        await (await self.fake.slash(host, channel, "game", "cancel")).response()

    async def fresh_board(self, channel: Any, table: Any) -> Any | None:
        """The table message once it shows the table's current version (a private move redraws it later)."""
        deadline = time.perf_counter() + 5
        while True:
            board = self.dc.table_message(self.fake, channel)
            if board is not None:
                versions = {
                    int(m[2]) for c in board.custom_ids() if (m := VERSIONED.match(c)) and int(m[1]) == table.id
                }
                if not versions or table.version in versions:
                    return board
            if time.perf_counter() > deadline:
                return board
            await asyncio.sleep(0.01)

    async def open_mine(self, channel: Any, user: Any) -> Any | None:
        board = self.dc.table_message(self.fake, channel)
        me = self.dc.button_for(board, "me") if board is not None else None
        if me is None:
            return None
        reply = await (await self.fake.click(user, board, me)).response()
        if self.window is not None:
            self.window.private += 1
        self.private[user.id] = reply.message
        return reply.message

    async def move(self, channel: Any, game: str) -> None:
        """One click of the player whose turn it is (or a re-open if the game is over)."""
        dc = self.dc
        table = self.bot.tables.by_channel.get(channel.id)  # read across threads: choosing only, never changed
        if table is None or table.status != "running" or not (seats := table.engine.to_act(table.state)):
            if table is not None and table.status == "running":
                return
            await self.open(channel, game)
            return
        seat = seats[0] if len(seats) == 1 else self.rng.choice(seats)
        user = self.users[table.seats[seat].id]
        legal = [a.encode() for a in table.engine.legal_actions(table.state, seat)]
        where = await self.fresh_board(channel, table)
        offered = dc.reachable(table, legal, dc.controls(where) if where is not None else {})
        if not offered:
            where = self.private.get(user.id)
            offered = dc.reachable(table, legal, dc.controls(where)) if where is not None else {}
            if not offered:
                where = await self.open_mine(channel, user)
                offered = dc.reachable(table, legal, dc.controls(where)) if where is not None else {}
        if not offered:
            return
        action = self.rng.choice(sorted(offered))
        kind, cid, value = offered[action]
        fake = self.fake
        rec = await (fake.click(user, where, cid) if kind == "button" else fake.select(user, where, cid, [value]))
        reply = await rec.response()
        for followup in reply.followups:
            if followup.ephemeral and dc.controls(followup):
                self.private[user.id] = followup
        if self.window is not None:
            if reply.ephemeral and "⚠️" in reply.text:
                self.window.refused += 1
            else:
                self.window.moves += 1


async def measure(
    people: People, game: str, channels: list[Any], seconds: float, warmup: float, sampler: Sampler, loop_ident: int
) -> Window:
    """Click ``channels`` (tables of ``game``) in turn, ``WORKERS`` at a time (one if there is one table)."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    for channel in channels:
        queue.put_nowait(channel)
    window = Window(game, 0)
    gc_wall = [0.0, 0.0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if threading.get_ident() != loop_ident:
            return
        now = time.perf_counter()
        if phase == "start":
            gc_wall[1] = now
        else:
            gc_wall[0] += now - gc_wall[1]

    async def worker(stop_at: float) -> None:
        while time.perf_counter() < stop_at:
            channel = await queue.get()
            try:
                await people.move(channel, game)
            finally:
                queue.put_nowait(channel)

    workers = min(WORKERS, len(channels))
    began = time.perf_counter()
    await asyncio.gather(*(worker(began + warmup) for _ in range(workers)))
    await asyncio.sleep(0.3)  # the warm-up's trailing work (DMs, edits) before the marks
    # The figure: a window without the profiler. Then the breakdown: a window of the same length with it.
    marks = Marks(threading.get_ident(), loop_ident)
    people.window = window
    gc.callbacks.append(on_gc)
    try:
        await asyncio.gather(*(worker(time.perf_counter() + seconds) for _ in range(workers)))
    finally:
        people.window = None
        gc.callbacks.remove(on_gc)
    marks.close(window)
    window.gc_wall = gc_wall[0]
    profiled = Window(game, 0)
    people.window = profiled
    marks = Marks(threading.get_ident(), loop_ident)
    sampler.start()
    try:
        await asyncio.gather(*(worker(time.perf_counter() + seconds) for _ in range(workers)))
    finally:
        sampler.stop()
        people.window = None
    marks.close(profiled)
    total = sum(v for k, v in sampler.charged.items() if k != "idle") or 1.0
    # the shares of the profiled window's loop-thread CPU, applied to the unprofiled window's
    window.shares = {k: v / total for k, v in sampler.charged.items() if k != "idle"}
    window.samples = sampler.samples
    window.profiled_us = profiled.us(profiled.bot_cpu)
    return window


async def drive(
    people: People, sizes: list[int], games: list[str], seconds: float, sampler: Sampler, loop_ident: int
) -> list[Window]:
    results: list[Window] = []
    warmup = min(2.0, seconds / 2)
    fake = people.fake
    await idle(seconds, loop_ident, "before any table")
    if 1 in sizes:
        for game in games:
            (channel,) = people.channels(1)
            await people.announce()
            await people.open(channel, game)
            w = await measure(people, game, [channel], seconds, warmup, sampler, loop_ident)
            w.tables = 1
            results.append(w)
            report([w], fake)
            await people.cancel(channel)
    big = max(sizes)
    if big > 1:
        per = big // len(games)
        chosen = {game: people.channels(per) for game in games}
        await people.announce()
        began, cpu = time.perf_counter(), process_cpu()
        for game, channels in chosen.items():
            for i in range(0, len(channels), 20):
                await asyncio.gather(*(people.open(c, game) for c in channels[i : i + 20]))
        print(
            f"opened {per * len(games):,} tables ({per} of each game) in {time.perf_counter() - began:.1f} s wall, "
            f"{process_cpu() - cpu:.1f} s CPU (bot and fake together)",
            flush=True,
        )
        await idle(seconds, loop_ident, f"{per * len(games):,} tables open")
        for game in games:
            w = await measure(people, game, chosen[game], seconds, warmup, sampler, loop_ident)
            w.tables = per * len(games)
            results.append(w)
            report([w], fake)
    return results


async def idle(seconds: float, loop_ident: int, when: str) -> float:
    """The bot's CPU per second with nobody clicking (its timers, the gateway's heartbeat, the store's loop): a
    click's figure holds its share of it at that click rate."""
    await asyncio.sleep(0.5)
    marks = Marks(threading.get_ident(), loop_ident)
    await asyncio.sleep(seconds)
    window = Window("idle", 0)
    marks.close(window)
    per_second = window.bot_cpu / window.wall
    print(f"idle bot CPU ({when}): {per_second * 1e3:.1f} ms per second", flush=True)
    return per_second


def report(windows: list[Window], fake: Any) -> None:
    rows = []
    for w in windows:
        parts = [w.us(w.loop_cpu * w.shares.get(part, 0.0)) for part in ORDER]
        rows.append(
            (
                w.game,
                w.tables,
                w.clicks,
                w.clicks / w.wall if w.wall else 0.0,
                w.us(w.bot_cpu),
                w.wall / w.clicks * 1e3 if w.clicks else float("nan"),
                *parts,
                w.us(w.store_cpu),
                w.store_system / (w.store_user + w.store_system) if w.store_user + w.store_system else None,
                w.us(w.other_cpu),
                f"{w.lobby}/{w.private}/{w.refused}",
                w.gc_wall / w.wall if w.wall else 0.0,
                w.fake_cpu / w.clicks * 1e6 if w.clicks else float("nan"),
                f"{w.profiled_us:,.0f}, {w.samples:,}",
            )
        )
    show(
        rows,
        [
            "game",
            "open tables",
            "clicks",
            "clicks/s",
            "bot CPU us/click",
            "wall ms/click",
            *[f"{p} us" for p in ORDER],
            "store thread us",
            "its system share",
            "other threads us",
            "lobby/My dice/refused",
            "GC share",
            "fake us/click (excluded)",
            "profiled: bot us/click, samples",
        ],
    )


def bot_thread(quick: bool, sizes: list[int], games: list[str], seconds: float, folder: Path) -> list[Window]:
    """The bot in this (main) thread's loop; the fake Discord and the people in a thread of their own."""
    from bot.client import DiceTavern
    from tests.fakediscord import FakeDiscord

    logging.getLogger("discord").setLevel(logging.ERROR)
    loop_ident = threading.get_ident()
    sampler = Sampler(loop_ident)
    fake_up: Any = {}
    results: list[Window] = []
    errors: list[BaseException] = []

    async def bot_side() -> None:
        bot_loop = asyncio.get_running_loop()
        ready: asyncio.Future[Any] = bot_loop.create_future()
        finished: asyncio.Future[None] = bot_loop.create_future()
        stop_fake = threading.Event()

        def fake_main() -> None:
            async def fake_side() -> None:
                async with FakeDiscord() as fake:
                    fake.add_guild("Lobby", channels=["hall"])
                    bot_loop.call_soon_threadsafe(ready.set_result, fake)
                    while "bot" not in fake_up:
                        await asyncio.sleep(0.02)
                    people = People(fake, fake_up["bot"], quick)
                    try:
                        results.extend(await drive(people, sizes, games, seconds, sampler, loop_ident))
                    except BaseException as error:  # noqa: BLE001 - reported by the main thread
                        errors.append(error)
                    with contextlib.suppress(Exception):
                        problems = fake.problems()
                        if problems:
                            print(f"fake Discord problems: {problems[:5]}")
                    bot_loop.call_soon_threadsafe(finished.set_result, None)
                    while not stop_fake.is_set():
                        await asyncio.sleep(0.05)

            asyncio.run(fake_side())

        thread = threading.Thread(target=fake_main, name="fake-discord", daemon=True)
        thread.start()
        await ready
        bot = DiceTavern(database=str(folder / "production.sqlite3"), guild_ready_timeout=0.5)
        runner = asyncio.create_task(bot.start("fake-token"), name="bot")
        while not bot.is_ready():  # (wait_until_ready needs login() to have run)
            if runner.done():
                runner.result()
                raise RuntimeError("the bot stopped before it was ready")
            await asyncio.sleep(0.05)
        await bot.tree.sync()
        fake_up["bot"] = bot
        await finished
        await bot.close()
        with contextlib.suppress(Exception):
            await runner
        stop_fake.set()
        await asyncio.to_thread(thread.join, 30)

    asyncio.run(bot_side())
    if errors:
        raise errors[0]
    return results


def run(
    quick: bool = False, sizes: list[int] | None = None, games: list[str] | None = None, seconds: float | None = None
) -> list[Window]:
    sizes = sizes or ([1, 50] if quick else [1, 1000])
    games = games or list(GAMES)
    seconds = seconds or (1.5 if quick else 6.0)
    header(
        f"Production click: the bot's CPU per click (real discord.py client, fair dice, SQLite on disk, DMs); "
        f"{seconds:g} s windows"
    )
    print(f"leaves out: {LEAVES_OUT}")
    print(
        "bot CPU = this process's user + system (getrusage) less the fake Discord's thread (its pthread CPU clock), "
        "in a window without the profiler; the breakdown: the loop thread's CPU in that window split by the shares a "
        "second, profiled window (SIGALRM sampling) found; the store's thread and the others by their CPU clocks"
    )
    try:
        import tests.fakediscord  # noqa: F401
    except ImportError as error:  # tests/ is part of a clone; the installed package alone lacks it
        print(f"fake Discord unavailable ({error}): skipped")
        return []
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        results = bot_thread(quick, sizes, games, seconds, Path(folder))
    print("\nall rows:")
    report(results, None)
    print(f"\ntarget: <= {TARGET_CPU * 1e3:g} ms of the bot's CPU per click, end to end:")
    for w in results:
        ms = w.us(w.bot_cpu) / 1e3
        print(f"  {w.game:7} {w.tables:>5,} open tables: {ms:.2f} ms {verdict(ms <= TARGET_CPU * 1e3)}")
    return results


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, nargs="+", help="open tables (default 1 1000; --quick 1 50)")
    p.add_argument("--games", nargs="+", choices=GAMES, help="games (default: all five)")
    p.add_argument("--seconds", type=float, help="measured seconds per row (default 6, --quick 1.5)")
    args = p.parse_args()
    run(args.quick, args.tables, args.games, args.seconds)


if __name__ == "__main__":
    main()
