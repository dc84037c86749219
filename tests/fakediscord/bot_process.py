"""Run the real ``dicetavern`` CLI in a process of its own, pointed at a :class:`FakeDiscord` in the test's.

``python -m tests.fakediscord.bot_process run`` (or ``sync``, any ``dicetavern`` arguments) with
``FAKE_DISCORD_API`` (the fake's ``base_url``, ``http://127.0.0.1:<port>/api/v10``) and ``FAKE_DISCORD_GATEWAY``
(its ``gateway_url``) in the environment; everything else comes from the environment as in production
(``DISCORD_TOKEN``, ``DATABASE_URL``, ``DICETAVERN_SHARDS``, ...). :func:`bot_env` builds that environment.

Only the two URLs are changed, plus discord.py's 5 s sleep before each non-initial IDENTIFY (a process on
several shards, or one identifying again), which the in-process tests replace the same way.

The test side: :class:`BotProcess` starts one such process, collects its log (stdout and stderr) line by line
and wakes the fake's ``wait_for`` on every line, so a test waits on "the log says X" without sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import discord
import discord.gateway
import discord.http
import yarl

from bot import cli
from tests.waiting import DEADLINE

from .server import FakeDiscord

API_ENV = "FAKE_DISCORD_API"
GATEWAY_ENV = "FAKE_DISCORD_GATEWAY"
REPO_ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;]*m")  # discord.py's log colours


def bot_env(
    api: str, gateway: str, extra: Mapping[str, str | None], base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment for a bot process: ``base`` (default: this process's) with the fake's URLs, the repo on
    ``PYTHONPATH`` (so the module runs from any working directory) and ``extra`` (a None value unsets)."""
    env = dict(os.environ if base is None else base)
    path = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(REPO_ROOT) if not path else os.pathsep.join((str(REPO_ROOT), path))
    env[API_ENV] = api
    env[GATEWAY_ENV] = gateway
    env["PYTHONUNBUFFERED"] = "1"  # the test reads the log line by line as it is written
    for name, value in extra.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def point_at_fake(environ: Mapping[str, str]) -> None:
    """Patch discord.py's REST base and gateway URL from the environment (both are required)."""
    missing = [name for name in (API_ENV, GATEWAY_ENV) if not environ.get(name)]
    if missing:
        raise SystemExit(f"bot_process: set {' and '.join(missing)} (the fake Discord's URLs)")
    discord.http.Route.BASE = environ[API_ENV]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(environ[GATEWAY_ENV])

    async def no_identify_wait(self: discord.Client, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # the fake has no IDENTIFY rate limit

    discord.Client.before_identify_hook = no_identify_wait  # type: ignore[method-assign]


class BotProcess:
    """``python -m tests.fakediscord.bot_process ARGS`` as a child of the test, its output kept in ``lines``."""

    def __init__(
        self,
        name: str,
        fake: FakeDiscord,
        env: Mapping[str, str | None],
        args: Sequence[str] = ("run",),
        cwd: Path | None = None,
    ) -> None:
        self.name = name
        self.fake = fake
        self.env = bot_env(fake.base_url, fake.gateway_url, env)
        self.args = list(args)
        self.cwd = cwd
        self.lines: list[str] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self.exited = False

    async def start(self) -> BotProcess:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.fakediscord.bot_process",
            *self.args,
            env=self.env,
            cwd=self.cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read(), name=f"bot-process-{self.name}")
        return self

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for raw in self.proc.stdout:
            self.lines.append(ANSI.sub("", raw.decode(errors="replace").rstrip()))
            self.fake.notify()
        await self.proc.wait()
        self.exited = True
        self.fake.notify()

    @property
    def pid(self) -> int:
        assert self.proc is not None, "start() first"
        return self.proc.pid

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode if self.exited and self.proc is not None else None

    @property
    def log(self) -> str:
        return "\n".join(self.lines)

    def logged(self, pattern: str) -> str | None:
        """The first log line matching the regular expression ``pattern`` (case-insensitive), or None."""
        regex = re.compile(pattern, re.IGNORECASE)
        return next((line for line in self.lines if regex.search(line)), None)

    async def wait_for_log(self, pattern: str, timeout: float) -> str:
        """Wait until a log line matches ``pattern``; fails early (with the log) if the process exits first."""

        def found() -> str | None:
            line = self.logged(pattern)
            if line is None and self.exited:
                raise AssertionError(f"{self.name} exited ({self.returncode}) before logging /{pattern}/")
            return line

        return await self.fake.wait_for(found, timeout, what=f"{self.name} to log /{pattern}/")

    async def wait_exit(self, timeout: float) -> int:
        await self.fake.wait_for(lambda: self.exited, timeout, what=f"{self.name} to exit")
        assert self.returncode is not None
        return self.returncode

    def kill(self) -> None:
        """SIGKILL: the process dies at once, holding whatever it held (leases, a half-sent request)."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()

    def pause(self) -> None:
        """SIGSTOP: the process freezes (a stalled machine, a long GC pause) with its sockets and leases as they are."""
        assert self.proc is not None and self.proc.returncode is None, f"{self.name} is not running"
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT after :meth:`pause`."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGCONT)

    async def stop(self, timeout: float = DEADLINE) -> int | None:
        """SIGTERM and wait for a clean exit; SIGKILL after ``timeout``. Returns the exit status of the SIGTERM
        (None if it had to be killed)."""
        if self.proc is None:
            return None
        if not self.exited:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
                self.proc.send_signal(signal.SIGCONT)  # a paused process handles the SIGTERM once it runs
            try:
                await self.wait_exit(timeout)
            except TimeoutError:
                self.kill()
                await self._drain()
                return None
        await self._drain()
        return self.returncode

    async def _drain(self) -> None:
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, DEADLINE)

    def report(self, tail: int = 60) -> str:
        """The last ``tail`` lines of the log, headed by the process's name and exit status (for failures)."""
        status = "running" if not self.exited else f"exit {self.returncode}"
        body = "\n".join(f"  | {line}" for line in self.lines[-tail:]) or "  | (no output)"
        return f"--- {self.name} ({' '.join(self.args)}; {status}) ---\n{body}"


def main(argv: list[str] | None = None) -> int:
    point_at_fake(os.environ)
    return cli.main(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    raise SystemExit(main())
