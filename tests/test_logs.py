"""bot.logs: at most one traceback per distinct error (type and raising line) per minute, the repeats counted."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from bot import logs
from bot.logs import OncePerMinute


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def fail(kind: type[Exception] = RuntimeError) -> None:
    raise kind("boom")


def fail_elsewhere() -> None:
    raise RuntimeError("boom")


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logger() -> Iterator[tuple[logging.Logger, Kept, Clock]]:
    """A logger of its own with one handler under the filter, on a clock the test moves."""
    clock = Clock()
    kept = Kept()
    kept.addFilter(OncePerMinute(clock=clock))
    log = logging.getLogger("tests.logs.once")
    log.propagate = False
    log.addHandler(kept)
    log.setLevel(logging.INFO)
    yield log, kept, clock
    log.removeHandler(kept)


def log_failure(log: logging.Logger, what: str, thrower=fail) -> None:
    try:
        thrower()
    except Exception:
        log.exception("%s failed", what)


def test_one_traceback_per_error_per_minute_and_the_next_counts_the_repeats(logger):
    log, kept, clock = logger
    for i in range(5):
        log_failure(log, f"press {i}")
        clock.now += 10  # 0, 10, 20, 30, 40 s: one passes
    assert [r.getMessage() for r in kept.records] == ["press 0 failed"]
    clock.now = 1_000_000.0 + 61
    log_failure(log, "press 5")
    assert len(kept.records) == 2
    assert kept.records[1].getMessage().startswith("press 5 failed (4 more like this since ")
    assert kept.records[1].exc_info is not None  # the traceback itself is kept
    clock.now += 61
    log_failure(log, "press 6")  # nothing was dropped since: no note
    assert kept.records[2].getMessage() == "press 6 failed"


def test_other_errors_and_other_lines_have_their_own_minute(logger):
    log, kept, _ = logger
    log_failure(log, "a")
    log_failure(log, "b", lambda: fail(ValueError))  # another type, raised on the same line
    log_failure(log, "c", fail_elsewhere)  # the same type, raised elsewhere
    log_failure(log, "d")  # the first again: dropped
    assert [r.getMessage() for r in kept.records] == ["a failed", "b failed", "c failed"]


def test_records_without_a_traceback_always_pass(logger):
    log, kept, _ = logger
    for _ in range(3):
        log.warning("the same warning")
    assert len(kept.records) == 3


def test_install_is_idempotent_shares_one_filter_and_is_undone_by_its_owner(monkeypatch):
    monkeypatch.setattr(logs, "_installed", None)  # as in a fresh process: another test's bot may have left one
    root = logging.getLogger("tests.logs.root")
    first, second = Kept(), Kept()
    root.addHandler(first)
    root.addHandler(second)
    try:
        made = logs.install(root)
        assert made is not None and logs.install(root) is None  # the second call finds it
        assert first.filters == [made] and second.filters == [made]
        root.propagate = False
        try:
            fail()
        except RuntimeError:
            root.exception("once")  # both handlers see the one record: both keep it, the count is one
            root.exception("twice")
        assert [r.getMessage() for r in first.records] == ["once"] == [r.getMessage() for r in second.records]
        logs.uninstall(made, root)
        assert first.filters == [] == second.filters and logs.install(root) is not None
    finally:
        if logs._installed is not None:
            logs.uninstall(logs._installed, root)
        root.removeHandler(first)
        root.removeHandler(second)
