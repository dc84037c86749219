"""The bot's periodic collection (``bot.client``, issue 30): what survives a pass is frozen, so the next pass goes only
through newer objects, and every few passes one goes through everything, so cycles among long-lived objects are
still freed."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

import bot.client
from bot.client import collect_and_freeze, collect_periodically


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """Two objects that reference each other, referenced from nowhere else once this returns."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def thawed() -> Iterator[None]:
    """The collector as the test found it, whatever the test froze."""
    was = gc.isenabled()
    gc.disable()  # no automatic pass in between: only the test's own
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


def test_a_pass_collects_what_is_not_frozen_and_freezes_what_survives(thawed: None) -> None:
    kept = Node()
    gone = cycle()
    frozen_before = gc.get_freeze_count()
    assert collect_and_freeze() >= 2 and gone() is None
    assert gc.get_freeze_count() > frozen_before
    assert gc.is_tracked(kept) and all(obj is not kept for obj in gc.get_objects())  # frozen: in no generation


def test_a_cycle_among_frozen_objects_waits_for_the_pass_over_everything(thawed: None) -> None:
    ref = cycle()
    gc.freeze()  # as a previous pass left it: the cycle was alive then
    collect_and_freeze()
    assert ref() is not None  # frozen: an ordinary pass does not go through it
    collect_and_freeze(everything=True)
    assert ref() is None


async def test_the_periodic_task_goes_through_everything_every_nth_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    passes: list[bool] = []

    def recording(everything: bool = False) -> int:
        passes.append(everything)
        return 0

    monkeypatch.setattr(bot.client, "collect_and_freeze", recording)
    task = asyncio.create_task(collect_periodically(0, 3))
    while len(passes) < 7:
        await asyncio.sleep(0)
    task.cancel()
    assert passes[:7] == [False, False, True, False, False, True, False]
