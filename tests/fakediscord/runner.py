"""Start and stop a real discord.py client against a :class:`FakeDiscord`, deterministically."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TypeVar

import discord

from tests.waiting import DEADLINE

from .models import FakeDiscordError, FakeTimeout
from .server import FakeDiscord

__all__ = ["run_bot", "start_bot", "stop_bot", "leftover_tasks", "handlers_done", "BotStartError"]

ClientT = TypeVar("ClientT", bound=discord.Client)

# The names discord.py gives the tasks that run a slash command, an event handler and a view's callback.
HANDLER_TASKS = ("CommandTree-invoker", "discord.py: on_", "discord-ui-view-dispatch-")


class BotStartError(FakeDiscordError):
    """``bot.start()`` ended before the bot became ready (the original exception is chained)."""


async def start_bot(
    fake: FakeDiscord, bot: discord.Client, *, token: str = "fake-token", timeout: float = DEADLINE
) -> asyncio.Task[None]:
    """Run ``bot.start(token)`` as a task and wait until ``on_ready`` fired; returns the task.

    The bot must be built with ``guild_ready_timeout`` small (e.g. 0.1): discord.py waits that long after the
    last GUILD_CREATE before ``on_ready``.
    """
    connections_before = len(fake.connections)
    task: asyncio.Task[None] = asyncio.create_task(bot.start(token), name="fakediscord-bot-start")
    task.add_done_callback(lambda _: fake.notify())

    def connected_or_failed() -> bool:
        new = fake.connections[connections_before:]
        return task.done() or any(c.ready for c in new)

    try:
        await fake.wait_for(connected_or_failed, timeout, what="the bot to log in and identify")
    except FakeTimeout:
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise
    if task.done():
        raise BotStartError(f"bot.start() ended before ready: {task.exception()!r}") from task.exception()
    # login() has run (it creates the ready event), so wait_until_ready() is safe now.
    ready = asyncio.create_task(bot.wait_until_ready(), name="fakediscord-wait-ready")
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        with contextlib.suppress(BaseException):
            await ready
        if task.done():
            raise BotStartError(f"bot.start() ended before ready: {task.exception()!r}") from task.exception()
        await stop_bot(bot, task)
        raise FakeTimeout(f"bot connected but on_ready did not fire within {timeout}s (guild_ready_timeout?)")
    return task


async def stop_bot(bot: discord.Client, task: asyncio.Task[None], *, timeout: float = DEADLINE) -> None:
    """``bot.close()`` and wait for the start task to finish (re-raising anything it raised)."""
    await bot.close()
    await asyncio.wait_for(task, timeout)


def leftover_tasks() -> set[asyncio.Task[object]]:
    """Tasks still pending besides the caller and the fake's own server-side connection handlers.

    Call after ``stop_bot``: anything left (e.g. ``BaseView.__timeout_task_impl`` of a ``View`` with a timeout,
    which discord.py does not cancel on ``close()``) would be "Task was destroyed but it is pending!" later.
    """
    current = asyncio.current_task()
    left: set[asyncio.Task[object]] = set()
    for task in asyncio.all_tasks():
        if task is current:
            continue
        qualname = getattr(task.get_coro(), "__qualname__", "")
        if qualname.startswith(("RequestHandler.", "WebSocketResponse.", "GatewayConnection.")):
            continue
        left.add(task)
    return left


async def handlers_done(timeout: float = DEADLINE) -> None:
    """Wait until every slash command, event handler and view callback running in this loop has ended (and any
    that started meanwhile): after it, the bot has said all it will say to what it was sent. A test that checks
    that nothing more came (no second answer) waits for this instead of sleeping."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    current = asyncio.current_task()
    while True:
        running = {t for t in asyncio.all_tasks() if t is not current and t.get_name().startswith(HANDLER_TASKS)}
        if not running:
            return
        remaining = deadline - loop.time()
        if remaining <= 0:
            names = sorted(t.get_name() for t in running)
            raise FakeTimeout(f"timed out after {timeout}s waiting for the bot's handlers {names} to end")
        await asyncio.wait(running, timeout=remaining)


@contextlib.asynccontextmanager
async def run_bot(
    fake: FakeDiscord, bot: ClientT, *, token: str = "fake-token", timeout: float = DEADLINE
) -> AsyncIterator[ClientT]:
    """``async with run_bot(fake, bot): ...`` — the bot is ready inside the block and closed after it."""
    task = await start_bot(fake, bot, token=token, timeout=timeout)
    try:
        yield bot
    finally:
        await stop_bot(bot, task, timeout=timeout)
