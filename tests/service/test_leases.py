"""Leases on shards and the fence they put on a store's writes, on both backends."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys

import pytest

from bot.store import Store, open_store
from bot.store.leases import LeaseLost, Leases, lease_ttl

ELSEWHERE = "another-host"  # a holder whose process this host cannot see: only its expiry frees its leases


@pytest.fixture
async def stores(database):
    """Two stores on one database, as two processes would have."""
    first, second = await open_store(database), await open_store(database)
    yield first, second
    await first.close()
    await second.close()


async def tokens(store: Store) -> dict[int, tuple[str, int]]:
    rows = await store.fetch_all("SELECT shard, owner, token FROM leases ORDER BY shard")
    return {r["shard"]: (r["owner"], r["token"]) for r in rows}


async def test_a_live_lease_keeps_others_out_until_it_expires_then_its_holder_is_fenced(stores, caplog):
    first_store, second_store = stores
    first = Leases(first_store, [0, 1], 4, owner="first", ttl=0.5, host=ELSEWHERE)
    assert await first.try_acquire() == []
    first_store.fence = first
    await first_store.write([("INSERT INTO users (user_id) VALUES (1)", ())])  # holding: it writes

    second = Leases(second_store, [1, 2], 4, owner="second", ttl=30)
    refused = await second.try_acquire()
    assert len(refused) == 1 and refused[0].startswith("shard 1 is held by first (host another-host")
    assert (await tokens(second_store))[2] == ("", 0)  # all or nothing: shard 2 was not taken either

    await asyncio.wait_for(second.acquire(), timeout=30)  # waits out the first's expiry (it never renewed)
    assert await tokens(second_store) == {0: ("first", 1), 1: ("second", 2), 2: ("second", 1)}

    with caplog.at_level(logging.ERROR, logger="bot.store.db"):
        late = first_store.write([("INSERT INTO users (user_id) VALUES (2)", ())])
        beside = first_store.write([("INSERT INTO users (user_id) VALUES (3)", ())])
        for outcome in await asyncio.gather(late, beside, return_exceptions=True):
            assert isinstance(outcome, LeaseLost) and outcome.shard == 1 and outcome.holder == "second"
        with pytest.raises(LeaseLost):  # refused at once from now on
            await first_store.write([("INSERT INTO users (user_id) VALUES (4)", ())])
    assert first.lost
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [
        "lost the lease on shard 1 to second; this process stops writing"
    ]
    assert [r[0] for r in await second_store.fetch_all("SELECT user_id FROM users")] == [1]  # none of the late ones
    with pytest.raises(LeaseLost):
        await first.renew()


async def test_a_dead_process_on_this_host_is_taken_over_at_once(stores):
    first_store, second_store = stores
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    dead = Leases(first_store, [3], 8, owner="dead", ttl=300, pid=gone.pid)
    assert await dead.try_acquire() == []
    successor = Leases(second_store, [3], 8, owner="successor", ttl=300)
    assert await successor.try_acquire() == []
    assert (await tokens(second_store))[3] == ("successor", 2)


async def test_a_lease_held_under_our_own_pid_is_a_restarted_process_and_taken_over(stores):
    first_store, second_store = stores
    assert await Leases(first_store, [0], 1, owner="before-restart", ttl=300).try_acquire() == []
    assert await Leases(second_store, [0], 1, owner="after-restart", ttl=300, pid=os.getpid()).try_acquire() == []
    assert (await tokens(second_store))[0] == ("after-restart", 2)


async def test_a_live_process_on_this_host_keeps_its_lease(stores):
    first_store, second_store = stores
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        holder = Leases(first_store, [0], 2, owner="alive", ttl=300, pid=alive.pid)
        assert await holder.try_acquire() == []
        assert await Leases(second_store, [0], 2, owner="other", ttl=300).try_acquire() != []
    finally:
        alive.kill()
        alive.wait()


async def test_release_frees_the_leases_for_the_next_holder_with_a_higher_token(stores):
    first_store, second_store = stores
    first = Leases(first_store, [0, 1], 2, owner="first", ttl=300, host=ELSEWHERE)
    await first.acquire()
    first_store.fence = first
    await first.renew()
    await first.release()
    with pytest.raises(LeaseLost):  # a released store writes no more
        await first_store.write([("INSERT INTO users (user_id) VALUES (1)", ())])
    second = Leases(second_store, [0, 1], 2, owner="second", ttl=300)
    assert await second.try_acquire() == []
    assert await tokens(second_store) == {0: ("second", 2), 1: ("second", 2)}


async def test_renewing_keeps_the_lease_past_its_first_expiry(stores):
    first_store, second_store = stores
    first = Leases(first_store, [0], 1, owner="first", ttl=0.6, host=ELSEWHERE)
    await first.acquire()
    first_store.fence = first
    renewing = asyncio.create_task(first.run())
    try:
        await asyncio.sleep(1.0)
        assert await Leases(second_store, [0], 1, owner="second", ttl=30).try_acquire() != []
        await first_store.write([("INSERT INTO users (user_id) VALUES (1)", ())])
    finally:
        renewing.cancel()
    assert not first.lost


async def test_a_live_holder_of_another_shard_count_keeps_everyone_out(stores):
    first_store, second_store = stores
    assert await Leases(first_store, [5], 8, owner="eight", ttl=300, host=ELSEWHERE).try_acquire() == []
    refused = await Leases(second_store, [0], 4, owner="four", ttl=300).try_acquire()
    assert refused == ["shard 5 of 8 is held by eight; we run 4 shards"]


def test_the_ttl_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv("DICETAVERN_LEASE_TTL", raising=False)
    assert lease_ttl() == 30.0
    monkeypatch.setenv("DICETAVERN_LEASE_TTL", "2.5")
    assert lease_ttl() == 2.5
    for bad in ("soon", "0", "-1"):
        monkeypatch.setenv("DICETAVERN_LEASE_TTL", bad)
        with pytest.raises(ValueError, match="DICETAVERN_LEASE_TTL"):
            lease_ttl()


async def test_a_fenced_process_says_it_released_nothing_and_to_whom_its_leases_went(stores, caplog):
    first_store, second_store = stores
    first = Leases(first_store, [0, 1], 2, owner="first", ttl=0.3, host=ELSEWHERE)
    await first.acquire()
    first_store.fence = first
    second = Leases(second_store, [1], 2, owner="second", ttl=300)
    await asyncio.wait_for(second.acquire(), timeout=30)  # shard 1 expired: taken over
    with pytest.raises(LeaseLost):
        await first_store.write([("INSERT INTO users (user_id) VALUES (1)", ())])  # fenced from now on
    caplog.set_level(logging.INFO, logger="bot.store.leases")
    caplog.clear()
    await first.release()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.store.leases"]
    assert lines == [
        "released no lease: no longer held those on shards [0, 1] (shard 0 left to expire (this process is fenced), "
        "shard 1 lost to second)"
    ]
    assert not any("released the leases" in line for line in lines)
    assert (await tokens(second_store))[1] == ("second", 2)  # the successor's lease is untouched


async def test_an_unfenced_release_of_a_lease_taken_over_frees_only_what_it_still_held(stores, caplog):
    first_store, second_store = stores
    first = Leases(first_store, [0, 1], 2, owner="first", ttl=0.3, host=ELSEWHERE)
    await first.acquire()
    await first.renew()
    second = Leases(second_store, [1], 2, owner="second", ttl=300)
    await asyncio.wait_for(second.acquire(), timeout=30)
    await first_store.write([("UPDATE leases SET expires_at = ? WHERE shard = 0", (10**12,))])  # shard 0 stays ours
    caplog.set_level(logging.INFO, logger="bot.store.leases")
    caplog.clear()
    await first.release()
    (line,) = [r.getMessage() for r in caplog.records if r.name == "bot.store.leases"]
    assert line == "released the leases on shards [0]; no longer held those on shards [1] (shard 1 lost to second)"
    assert await tokens(second_store) == {0: ("", 1), 1: ("second", 2)}
