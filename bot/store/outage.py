"""Whether the database answers, for the operator's log: one WARNING when it stops answering, one INFO when it is
back (how long it was out, how many presses were refused meanwhile), instead of a traceback per failed write.

Every write batch reports here (``bot.store.db``: a failure that ``unavailable`` says is the database's, not the
statement's, or a commit). A press answered with the generic error because the database was out counts itself
(``refuse``, from cogs/utils/replies.py). A read that fails while every write succeeds is not seen until a press
reports it; the leases' renewal writes every few seconds, so an outage is noticed within that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from urllib.parse import urlsplit

log = logging.getLogger(__name__)


def described(dialect: str, target: str) -> str:
    """The database as the outage lines name it: SQLite's file, PostgreSQL's host and database (no credentials)."""
    if dialect != "postgresql":
        return f"SQLite {target}"
    parts = urlsplit(target)
    return f"PostgreSQL {parts.netloc.rpartition('@')[2]}{parts.path}"


def one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class Outage:
    """The database's state as the store sees it. ``clock``: monotonic seconds (tests pass their own)."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.clock = clock
        self.since: float | None = None  # when the current outage began (None: the database answers)
        self.refused = 0  # presses refused during the current outage
        self.outages = 0  # outages since the store opened

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, error: BaseException) -> None:
        """A batch (or a press's read) failed because the database is out: said once, when the outage begins."""
        if self.since is not None:
            return
        self.since = self.clock()
        self.refused = 0
        self.outages += 1
        log.warning(
            "the database (%s) is unreachable: %s; presses are refused until it answers again",
            self.what,
            one_line(error),
        )

    def answered(self) -> None:
        """A batch committed: if the database was out, it is back."""
        if self.since is None:
            return
        lasted, self.since = self.clock() - self.since, None
        log.info(
            "the database (%s) is back after %.1f s; %d %s refused meanwhile",
            self.what,
            lasted,
            self.refused,
            "press was" if self.refused == 1 else "presses were",
        )
        self.refused = 0

    def refuse(self, error: BaseException) -> None:
        """A press was answered with the generic error because of ``error`` (a database one)."""
        self.failed(error)
        self.refused += 1
