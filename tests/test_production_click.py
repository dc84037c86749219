"""benchmarks.production_click's attribution: a sample goes to the part of its innermost frame that names one.

The benchmark itself runs the bot for minutes (``--quick``: about a minute); here only what decides its breakdown
is checked: which part a stack is charged to, and that an idle loop thread is no part at all.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from benchmarks.production_click import ORDER, PARTS, part_of, thread_cpu


@dataclass
class Code:
    co_filename: str
    co_name: str


@dataclass
class Frame:
    f_code: Code
    f_back: Frame | None


def stack(*frames: tuple[str, str]) -> Frame:
    """A frame chain from the outermost (first) to the innermost (last, returned)."""
    frame = None
    for filename, name in frames:
        frame = Frame(Code(filename, name), frame)
    assert frame is not None
    return frame


LOOP = ("/usr/lib/python3.11/asyncio/events.py", "_run")


def test_the_innermost_frame_that_names_a_part_decides():
    engine = stack(LOOP, ("/work/main/cogs/tables.py", "move"), ("/work/main/bot/games/pig.py", "apply"))
    assert part_of(engine) == "engine"
    dice = stack(LOOP, ("/work/main/bot/games/pig.py", "apply"), ("/work/main/bot/games/fair.py", "roll"))
    assert part_of(dice) == "dice"
    http = stack(LOOP, ("/work/main/cogs/tables.py", "move"), ("/x/site-packages/discord/http.py", "request"))
    assert part_of(http) == "HTTP"


def test_library_and_stdlib_frames_pass_the_sample_to_their_caller():
    # json, enum and discord.py's models name no part: the code that called them is charged
    rendered = stack(
        LOOP,
        ("/work/main/cogs/utils/components.py", "table_message"),
        ("/x/site-packages/discord/enums.py", "__getattr__"),
        ("/usr/lib/python3.11/enum.py", "__call__"),
    )
    assert part_of(rendered) == "render"
    parsed = stack(
        LOOP,
        ("/x/site-packages/discord/gateway.py", "received_message"),
        ("/x/site-packages/discord/state.py", "parse_interaction_create"),
        ("/x/site-packages/discord/interactions.py", "__init__"),
    )
    assert part_of(parsed) == "gateway parse"
    assert part_of(stack(("/usr/lib/python3.11/threading.py", "run"))) == "other"


def test_a_loop_thread_waiting_in_select_is_idle():
    idle = stack(LOOP, ("/usr/lib/python3.11/selectors.py", "select"))
    assert part_of(idle) is None
    # the asyncio transports' own frames (recv, send, aiohttp's C parsers under them) are socket I/O
    read = stack(LOOP, ("/usr/lib/python3.11/asyncio/selector_events.py", "_read_ready__data_received"))
    assert part_of(read) == "socket I/O"


def test_every_part_is_reported():
    assert {part for _, part in PARTS} | {"other"} == set(ORDER)


def test_a_threads_cpu_clock_counts_its_own_work_only():
    used: list[float] = []

    def work() -> None:
        ident = threading.get_ident()
        start = thread_cpu(ident)
        deadline = time.thread_time() + 0.05
        while time.thread_time() < deadline:
            pass
        used.append(thread_cpu(ident) - start)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    assert used and 0.05 <= used[0] < 1.0
