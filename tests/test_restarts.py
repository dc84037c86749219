"""bot.restarts: the identify budget and the backoff between restarts, as pure logic (an injected clock, no sleep)."""

from __future__ import annotations

import json

import pytest

from bot.restarts import (
    CLEAN,
    CRASH,
    LEASE_LOST,
    REFUSED,
    RUNNING,
    Here,
    IdentifyBudgetLow,
    RestartLog,
    RestartPolicy,
    Run,
    SessionStarts,
    check_budget,
    min_identifies,
    streak,
)

POLICY = RestartPolicy(base=2.0, cap=60.0, window=3600.0, stable=600.0)
HERE = Here(process="this", host="here", pid=100, alive=lambda pid: pid == 200)  # pid 200 lives, others are gone


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def ended(how: str, started: float, lasted: float = 5.0, pid: int = 7) -> Run:
    return Run("earlier", "here", pid, started, started + lasted, how)


def test_the_minimum_comes_from_the_environment_and_a_bad_one_is_refused(monkeypatch):
    monkeypatch.delenv("DICETAVERN_MIN_IDENTIFIES", raising=False)
    assert min_identifies() == 20
    monkeypatch.setenv("DICETAVERN_MIN_IDENTIFIES", " 50 ")
    assert min_identifies() == 50
    assert min_identifies("0") == 0  # no minimum
    for bad in ("many", "-1", "2.5"):
        with pytest.raises(ValueError, match="DICETAVERN_MIN_IDENTIFIES"):
            min_identifies(bad)


def test_too_few_session_starts_is_a_refusal_that_says_how_many_and_when_they_are_renewed():
    starts = SessionStarts.from_limit({"total": 1000, "remaining": 12, "reset_after": 5_400_000}, now=0.0)
    check_budget(starts, 12)  # exactly the minimum starts
    with pytest.raises(IdentifyBudgetLow) as refused:
        check_budget(starts, 13)
    text = str(refused.value)
    assert "only 12 of 1000 session starts" in text and "DICETAVERN_MIN_IDENTIFIES=13" in text
    assert "renewed in 1.5 h (at 1970-01-01 01:30 UTC)" in text and "\n" not in text
    assert refused.value.starts.remaining == 12 and refused.value.minimum == 13


def test_what_is_left_after_identifying_is_shown_for_the_ready_line():
    starts = SessionStarts.from_limit({"total": 1000, "remaining": 900, "reset_after": 86_400_000}, now=0.0)
    assert starts.after(4).shown() == "896 of 1000 session starts left (renewed in 24.0 h)"
    assert starts.after(5000).remaining == 0


def test_the_wait_doubles_with_each_bad_end_in_a_row_up_to_the_cap():
    assert [POLICY.delay(n) for n in range(9)] == [0, 2, 4, 8, 16, 32, 60, 60, 60]


def test_bad_ends_in_a_row_count_and_a_clean_stop_or_a_long_run_ends_the_streak():
    now = 10_000.0
    bad = [ended(how, now - 100 * (i + 1)) for i, how in enumerate((LEASE_LOST, CRASH, REFUSED))]
    assert streak(bad, now, POLICY, HERE) == 3
    assert streak([*bad, ended(CLEAN, now - 50)], now, POLICY, HERE) == 0  # the newest ended cleanly
    assert streak([ended(CLEAN, now - 400), *bad[:2]], now, POLICY, HERE) == 2  # the clean stop came before
    stayed = ended(CRASH, now - 2000, lasted=1000)  # up 1000 s (stable: 600) before it crashed
    older = ended(LEASE_LOST, now - 2500)
    assert streak([bad[0], stayed, older], now, POLICY, HERE) == 1


def test_bad_ends_outside_the_window_do_not_count():
    now = 10_000.0
    assert streak([ended(LEASE_LOST, now - 100), ended(CRASH, now - 3700 - 5)], now, POLICY, HERE) == 1


def test_a_run_left_running_by_a_process_that_is_gone_was_a_crash_but_a_live_one_is_no_end():
    now = 10_000.0
    killed = Run("earlier", "here", 7, now - 100)  # still "running", pid 7 is gone: SIGKILL, out of memory
    assert streak([killed], now, POLICY, HERE) == 1
    container = Run("earlier", "here", 100, now - 100)  # our pid, another process token: a restarted container
    assert streak([container], now, POLICY, HERE) == 1
    alive = Run("other", "here", 200, now - 50)  # a live process on the same shards (waiting for the leases)
    mine = Run("this", "here", 100, now - 40)  # this process's own run
    remote = Run("other", "elsewhere", 7, now - 30)  # on another host: cannot be checked, taken as alive
    assert streak([killed, alive, mine, remote], now, POLICY, HERE) == 1


def test_the_restart_log_records_each_start_and_end_and_computes_the_next_wait(tmp_path):
    clock = Clock()
    path = RestartLog.next_to(tmp_path / "tavern.sqlite3.heartbeat")
    assert path == tmp_path / "tavern.sqlite3.restarts.json"

    def run(how: str, lasted: float = 3.0) -> tuple[float, int]:
        restarts = RestartLog(path, POLICY, clock, Here(process=f"p{clock.now}", host="here", pid=1, alive=bool))
        wait = restarts.wait()
        clock.now += wait[0]  # the bot's sleep, on this clock
        restarts.started()
        clock.now += lasted
        restarts.ended(how)
        clock.now += 1
        return wait

    schedule = [run(LEASE_LOST) for _ in range(4)]
    assert schedule == [(0.0, 0), (2.0, 1), (4.0, 2), (8.0, 3)]
    assert run(CLEAN) == (16.0, 4)  # the fifth start waited, then stopped cleanly
    assert run(CRASH) == (0.0, 0)  # so the sixth did not wait
    assert run(CRASH, lasted=700) == (2.0, 1)  # one crash before it; this one stayed up 700 s
    assert run(CRASH) == (0.0, 0)
    runs = json.loads(path.read_text())["runs"]
    assert [r["how"] for r in runs][-3:] == [CRASH, CRASH, CRASH] and all(r["ended"] for r in runs)


def test_the_file_keeps_only_recent_runs_and_a_live_process_run(tmp_path):
    clock = Clock()
    path = tmp_path / "restarts.json"
    old = Run("gone", "here", 7, clock.now - 9000, clock.now - 8990, CRASH)
    live = Run("other", "here", 200, clock.now - 9000)  # running for hours in another process
    path.write_text(json.dumps({"runs": [vars(old), vars(live)]}))
    restarts = RestartLog(path, POLICY, clock, HERE)
    restarts.started()
    assert [(r.process, r.how) for r in restarts.load()] == [("other", RUNNING), ("this", RUNNING)]


def test_a_file_that_cannot_be_read_or_written_costs_the_wait_not_the_start(tmp_path, caplog):
    path = tmp_path / "restarts.json"
    path.write_text("{not json")
    restarts = RestartLog(path, POLICY, Clock(), HERE)
    assert restarts.wait() == (0.0, 0)
    assert restarts.wait() == (0.0, 0)
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "bot.restarts"]  # said once
    assert "cannot read" in warning and str(path) in warning
    blocked = RestartLog(tmp_path / "file" / "restarts.json", POLICY, Clock(), HERE)
    (tmp_path / "file").write_text("a file where the folder should be")
    blocked.started()
    blocked.ended(CLEAN)  # no exception: one warning
    said = [r.getMessage() for r in caplog.records if str(blocked.path) in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("cannot ")
