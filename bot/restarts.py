"""The restart budget. Discord allows a token ``total`` session starts (IDENTIFYs) a day, says how many are left in
``GET /gateway/bot``'s ``session_start_limit``, and resets the token past that. A bot that loses its lease exits 4
and its supervisor starts it again, so a restart loop spends that budget.

Two guards, both before the bot identifies (bot.client):

* ``check_budget``: fewer than ``DICETAVERN_MIN_IDENTIFIES`` (default 20) left is a refusal to start,
  ``IdentifyBudgetLow``, one line saying how many are left and when they are renewed (``dicetavern run`` exits 5).
* ``RestartLog``: each start and how it ended (``clean``, ``lease_lost``, ``crash``, ``refused``) is kept in a
  small JSON file next to the heartbeat (``<heartbeat stem>.restarts.json``). When the last n runs in a row ended
  badly within ``window`` seconds, the next start first waits ``min(base * 2**(n-1), cap)``. A clean stop, or a
  run that stayed up ``stable`` seconds, ends the streak. A run still marked running whose process is gone was
  killed (SIGKILL, out of memory): a crash.

Everything here is pure or takes its clock: tests never sleep.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bot.environment import number
from bot.i18n import t
from bot.store.leases import pid_alive

log = logging.getLogger(__name__)

MIN_IDENTIFIES_ENV = "DICETAVERN_MIN_IDENTIFIES"
DEFAULT_MIN_IDENTIFIES = 20

CLEAN, LEASE_LOST, CRASH, REFUSED, RUNNING = "clean", "lease_lost", "crash", "refused", "running"
BAD = frozenset({LEASE_LOST, CRASH, REFUSED, RUNNING})  # (RUNNING: a run whose process is gone, unrecorded)
KEPT = 20  # runs the file keeps at most

PROCESS = secrets.token_hex(4)  # this process's runs, told apart from an earlier process with the same pid


def min_identifies(value: str | None = None) -> int:
    """How many session starts must be left to start: ``value`` or ``DICETAVERN_MIN_IDENTIFIES``, default 20."""
    return int(
        number(MIN_IDENTIFIES_ENV, value, DEFAULT_MIN_IDENTIFIES, what="a whole number of session starts", whole=True)
    )


# -- the budget ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionStarts:
    """``GET /gateway/bot``'s ``session_start_limit``: ``reset_after`` in seconds, ``read_at`` the wall clock then."""

    total: int
    remaining: int
    reset_after: float
    read_at: float

    @classmethod
    def from_limit(cls, limit: Mapping[str, Any], now: float | None = None) -> SessionStarts:
        return cls(
            total=int(limit["total"]),
            remaining=int(limit["remaining"]),
            reset_after=float(limit.get("reset_after", 0)) / 1000,
            read_at=time.time() if now is None else now,
        )

    @property
    def hours(self) -> float:
        return self.reset_after / 3600

    @property
    def reset_at(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.gmtime(self.read_at + self.reset_after))

    def after(self, identifies: int) -> SessionStarts:
        """What is left once this process has identified ``identifies`` times (one per shard it serves)."""
        return SessionStarts(self.total, max(0, self.remaining - identifies), self.reset_after, self.read_at)

    def shown(self) -> str:
        return t("cli.identifies", remaining=self.remaining, total=self.total, hours=self.hours)


class IdentifyBudgetLow(Exception):
    """Too few session starts are left to start: identifying now could spend the last ones (Discord resets the
    token then). ``dicetavern run`` exits with status 5."""

    def __init__(self, starts: SessionStarts, minimum: int) -> None:
        super().__init__(
            t(
                "cli.identify_budget_low",
                remaining=starts.remaining,
                total=starts.total,
                variable=MIN_IDENTIFIES_ENV,
                minimum=minimum,
                hours=starts.hours,
                at=starts.reset_at,
            )
        )
        self.starts = starts
        self.minimum = minimum


def check_budget(starts: SessionStarts, minimum: int) -> None:
    """Raise ``IdentifyBudgetLow`` when fewer than ``minimum`` session starts are left."""
    if starts.remaining < minimum:
        raise IdentifyBudgetLow(starts, minimum)


# -- the backoff ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RestartPolicy:
    """Seconds: the first wait, the longest, how far back a bad end counts, how long a run must last to count
    as a good one."""

    base: float = 2.0
    cap: float = 300.0
    window: float = 3600.0
    stable: float = 600.0

    def delay(self, streak: int) -> float:
        """The wait before a start that follows ``streak`` bad ends in a row."""
        return 0.0 if streak <= 0 else min(self.base * 2 ** (streak - 1), self.cap)


@dataclass
class Run:
    """One start: by which process (``process`` token, host, pid), when, and how it ended (``RUNNING`` so far)."""

    process: str
    host: str
    pid: int
    started: float
    ended: float | None = None
    how: str = RUNNING

    @classmethod
    def parse(cls, data: Mapping[str, Any]) -> Run:
        ended = data.get("ended")
        return cls(
            process=str(data["process"]),
            host=str(data["host"]),
            pid=int(data["pid"]),
            started=float(data["started"]),
            ended=None if ended is None else float(ended),
            how=str(data.get("how", RUNNING)),
        )


@dataclass(frozen=True)
class Here:
    """Which process is asking, and how it tells whether another process is alive (tests pass their own)."""

    process: str = PROCESS
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)
    alive: Callable[[int], bool] = pid_alive

    def still_running(self, run: Run) -> bool:
        """A run not ended yet whose process lives: this process's, or a live pid's on this host (a process on
        another host is taken as alive: it cannot be checked). An earlier process with our pid (a restarted
        container) is gone."""
        if run.how != RUNNING:
            return False
        if run.process == self.process:
            return True
        if run.host != self.host:
            return True
        return run.pid != self.pid and self.alive(run.pid)


def streak(runs: Sequence[Run], now: float, policy: RestartPolicy, here: Here) -> int:
    """How many runs in a row, newest first, ended badly within ``policy.window`` of ``now``."""
    count = 0
    for run in sorted(runs, key=lambda r: r.started, reverse=True):
        if here.still_running(run):
            continue  # not an end (another process on the same shards waits for, or holds, the leases)
        end = run.ended if run.ended is not None else run.started
        if now - end > policy.window or run.how not in BAD:
            break
        if run.ended is not None and run.ended - run.started >= policy.stable:
            break  # it stayed up: whatever ended it, it was not a restart loop
        count += 1
    return count


class RestartLog:
    """The runs in ``path`` (``<heartbeat stem>.restarts.json``). A file that cannot be read or written costs the
    backoff, never the start: it is logged once."""

    def __init__(
        self,
        path: Path,
        policy: RestartPolicy | None = None,
        clock: Callable[[], float] = time.time,
        here: Here | None = None,
    ) -> None:
        self.path = path
        self.policy = policy or RestartPolicy()
        self.clock = clock
        self.here = here or Here()
        self.run: Run | None = None  # this start, once ``started``
        self._warned = False

    @staticmethod
    def next_to(heartbeat: Path) -> Path:
        return heartbeat.with_name(f"{heartbeat.stem}.restarts.json")

    def load(self) -> list[Run]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return [Run.parse(item) for item in data.get("runs", [])]
        except FileNotFoundError:
            return []
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            self._warn(f"cannot read {self.path} ({error}); starting without the restart backoff")
            return []

    def wait(self) -> tuple[float, int]:
        """(seconds to wait before identifying, the bad ends in a row that call for it)."""
        count = streak(self.load(), self.clock(), self.policy, self.here)
        return self.policy.delay(count), count

    def started(self) -> None:
        """Record this start (as running: a process killed before ``ended`` is a crash to the next start)."""
        here = self.here
        self.run = Run(here.process, here.host, here.pid, self.clock())
        self._save(self.run)

    def ended(self, how: str) -> None:
        """Record how this start ended."""
        if self.run is None:
            return
        self.run.ended, self.run.how = self.clock(), how
        self._save(self.run)

    def _save(self, mine: Run) -> None:
        now = self.clock()
        others = [
            r for r in self.load() if (r.process, r.started) != (mine.process, mine.started)
        ]  # (read again: another process on the same shards may have written since)
        recent = [r for r in others if now - (r.ended or r.started) <= self.policy.window or self.here.still_running(r)]
        runs = sorted([*recent, mine], key=lambda r: r.started)[-KEPT:]
        text = json.dumps({"runs": [asdict(r) for r in runs]}, indent=1)
        temporary = self.path.with_name(f"{self.path.name}.{self.here.pid}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, self.path)  # whole or not at all: a reader never sees half a file
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink()
            self._warn(f"cannot write {self.path} ({error}); the restart backoff does not know of this start")

    def _warn(self, line: str) -> None:
        if not self._warned:
            self._warned = True
            log.warning("%s", line)
