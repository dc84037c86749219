"""The log's tracebacks: at most one per distinct error (its type and the line that raised it) per minute, for the
whole process. A database outage or a dropped connection fails the same way many times a second; the first
traceback says what, the rest would bury the log. A repeat within the minute is dropped and counted, and the next
one that passes says "(N more like this since HH:MM:SS)".

``install()`` puts one shared filter on every handler of the root logger (a handler's filters see the records
that propagate to it; the root logger's own filters would not), idempotently: the bot calls it when it starts
(bot.client), so a bot under test gets it too, and takes it off when it closes if it was the one that put it
there (in production the bot lives as long as the process; in tests no count outlives its bot).
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from types import TracebackType

EVERY = 60.0  # seconds between two tracebacks of one error

Key = tuple[str, str, int]  # the exception's type, and the file and line where it was raised


def error_key(error: BaseException, tb: TracebackType | None) -> Key:
    """The error's type and where it was raised: the innermost frame of its traceback."""
    kind = f"{type(error).__module__}.{type(error).__qualname__}"
    frames = traceback.extract_tb(tb) if tb is not None else []
    if not frames:
        return kind, "", 0
    last = frames[-1]
    return kind, last.filename, last.lineno or 0


class OncePerMinute(logging.Filter):
    """Passes a record with a traceback only if its error has not had one within ``every`` seconds. ``clock``:
    wall-clock seconds (the note shows the time of the first dropped repeat)."""

    def __init__(self, every: float = EVERY, clock: Callable[[], float] = time.time) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self._last: dict[Key, float] = {}  # error -> when its last traceback passed
        self._dropped: dict[Key, tuple[int, float]] = {}  # error -> repeats dropped since, and when the first was

    def filter(self, record: logging.LogRecord) -> bool:
        seen = getattr(record, "_once_per_minute", None)
        if seen is not None:  # the same record at another handler: the same answer
            return bool(seen)
        passed = self._decide(record)
        record._once_per_minute = passed
        return passed

    def _decide(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or record.exc_info[1] is None:
            return True
        key = error_key(record.exc_info[1], record.exc_info[2])
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.every:
            count, first = self._dropped.get(key, (0, now))
            self._dropped[key] = (count + 1, first)
            return False
        self._last[key] = now
        if len(self._last) > 10_000:  # a bound on the memory, never reached by a bot's handful of errors
            self._last = {k: t for k, t in self._last.items() if now - t < self.every}
        dropped = self._dropped.pop(key, None)
        if dropped is not None:
            count, first = dropped
            since = time.strftime("%H:%M:%S", time.localtime(first))
            record.msg = f"{record.getMessage()} ({count} more like this since {since})"
            record.args = None
        return True


_installed: OncePerMinute | None = None  # the process's filter, once installed


def install(root: logging.Logger | None = None) -> OncePerMinute | None:
    """Put the process's filter on every handler of ``root`` (default: the root logger) that lacks it. Returns the
    filter if this call made it (its caller may ``uninstall`` it: a bot under test, so no state outlives it),
    None if one was installed already (by ``dicetavern``'s logging set-up, or a bot before)."""
    global _installed
    made = None
    if _installed is None:
        _installed = made = OncePerMinute()
    for handler in (root if root is not None else logging.getLogger()).handlers:
        if _installed not in handler.filters:
            handler.addFilter(_installed)
    return made


def uninstall(installed: OncePerMinute, root: logging.Logger | None = None) -> None:
    """Take ``installed`` off ``root``'s handlers (what ``install`` returned, when its owner stops)."""
    global _installed
    for handler in (root if root is not None else logging.getLogger()).handlers:
        handler.removeFilter(installed)
    if _installed is installed:
        _installed = None
