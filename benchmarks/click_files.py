"""The files one click enters: one Liar's Dice bid click on the table message, under a profiler.

The real bot (``bot.client.DiceTavern``, every cog) runs against the in-process fake Discord (tests/fakediscord).
Three players open a Liar's Dice table and start it; then the player to act clicks the table message's smallest
legal raise ("bid" button). From the click's INTERACTION_CREATE until the bot has answered and gone quiet
(``FakeDiscord.settle``), ``sys.setprofile`` records every Python function call on the event loop's thread.
Only the project's own code counts: files under ``bot/`` and ``cogs/``. Printed:

* **files**: distinct project files entered; **functions**: distinct project functions entered;
* **calls**: calls into project functions;
* **file switches**: how often consecutive project calls (in the order they happen) change file, and how many of
  those go back to a file the path had already left (the path bouncing between modules).

The figures count one click's whole path: the listener and DynamicItem tasks discord.py starts for it, the table
service's ``act`` (lock, engine, commit: the store's SQLite thread is not profiled, its queue calls are), the reply's
render, and anything the click schedules that runs before the bot goes quiet. With ``--list`` each file's calls are
shown. Several runs give the same figures (seeded dice, one table); they do not depend on the machine's speed.

    python -m benchmarks.click_files            # ~5 s
    python -m benchmarks.click_files --list
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from benchmarks._common import header, parser
from bot.client import DiceTavern
from bot.games.dice import SeededDice
from tests.fakediscord import FakeDiscord, run_bot

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tuple(str(ROOT / part) + "/" for part in ("bot", "cogs"))


@dataclass
class Path_:
    """What the profiler saw: project calls in order, as (file, function)."""

    calls: list[tuple[str, str]] = field(default_factory=list)

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        name = frame.f_code.co_filename
        if name.startswith(PROJECT):
            self.calls.append((name[len(str(ROOT)) + 1 :], frame.f_code.co_qualname))

    def areas(self) -> dict[str, tuple[int, int, int]]:
        """Per area (``bot/games``, ``bot/render``, ``cogs``, a module of bot/ itself…): files, functions, calls."""
        found: dict[str, tuple[set[str], set[tuple[str, str]], int]] = {}
        for file, function in self.calls:
            parts = file.split("/")
            area = "/".join(parts[:2]) if parts[0] == "bot" and len(parts) > 2 else parts[0]
            files, functions, calls = found.setdefault(area, (set(), set(), 0))
            files.add(file)
            functions.add((file, function))
            found[area] = (files, functions, calls + 1)
        return {area: (len(f), len(fn), n) for area, (f, fn, n) in sorted(found.items())}

    def figures(self) -> dict[str, int]:
        switches = back = 0
        left: set[str] = set()
        previous: str | None = None
        for file, _ in self.calls:
            if previous is not None and file != previous:
                switches += 1
                back += file in left
                left.add(previous)
            previous = file
        return {
            "files": len({f for f, _ in self.calls}),
            "functions": len(set(self.calls)),
            "calls": len(self.calls),
            "file switches": switches,
            "back to a file already left": back,
        }


async def one_click(folder: Path) -> Path_:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern", channels=["dice"])
        channel = guild.channel("dice")
        users = [fake.add_user(name, guild=guild) for name in ("alice", "bob", "carol")]
        bot = DiceTavern(
            database_path=str(folder / "tavern.sqlite3"), dice=SeededDice(7), bot_delay=(0, 0), guild_ready_timeout=0.1
        )
        async with run_bot(fake, bot):
            await bot.tree.sync()
            board = (await (await fake.slash(users[0], channel, "liar", "new")).response()).expect_message()
            for user in users[1:]:
                await (await fake.click(user, board, control(board, "join"))).response()
            await (await fake.click(users[0], board, control(board, "start"))).response()
            await fake.settle()
            table = bot.tables.table(channel.id)
            current = table.engine.to_act(table.state)[0]
            user = next(u for u in users if u.id == table.seats[current].id)
            bid = control(board, "bid:")
            await asyncio.sleep(0.2)  # the start's paced work (DMs of the hands) is done before the click
            await fake.settle()
            seen, version = Path_(), table.version
            sys.setprofile(seen.hook)
            try:
                reply = await (await fake.click(user, board, bid)).response()
                await fake.settle()
            finally:
                sys.setprofile(None)
            assert reply.type == 7, f"the bid was not answered by an edit of the table message: {reply.text!r}"
            assert table.version > version, "the bid did not move the table"
            return seen


def control(message: Any, action: str) -> str:
    """The custom id of the first button whose action starts with ``action`` (``join``, ``bid:``)."""
    return next(c for c in message.custom_ids() if c.startswith("dt:") and c.split(":", 3)[3].startswith(action))


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--list", action="store_true", help="each file's calls and distinct functions")
    args = p.parse_args()
    header("one Liar's Dice bid click: project files and functions entered")
    print(
        "leaves out: CPU and time (it counts files and calls), the store's thread, fair dice (SeededDice), other "
        "tables and guilds"
    )
    with tempfile.TemporaryDirectory() as folder:
        seen = asyncio.run(one_click(Path(folder)))
    for name, value in seen.figures().items():
        print(f"{name:>28}: {value:,}")
    print("by area (files, functions, calls):")
    for area, (files, functions, calls) in seen.areas().items():
        print(f"  {area:<14} {files:>3} {functions:>5} {calls:>6,}")
    if args.list:
        calls = Counter(f for f, _ in seen.calls)
        functions = Counter(f for f, _ in set(seen.calls))
        for file, n in calls.most_common():
            print(f"  {n:>5} calls {functions[file]:>4} functions  {file}")


if __name__ == "__main__":
    main()
