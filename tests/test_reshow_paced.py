"""The re-show after a restart is paced (issue 30): tables are loaded and queued a batch at a time, with a yield to the
event loop between batches, soonest deadline first; deterministic (the pause is recorded, not slept)."""

from __future__ import annotations

from types import SimpleNamespace

from bot.tables.lookup import Lookup
from bot.tables.model import Pending, Table
from cogs.utils.presenter import DiscordPresenter


def restored(table_id: int, deadline: float | None) -> Table:
    table = Table(table_id, 1, 100 + table_id, "pig", "running", 1, {}, [], deadline=deadline)
    table.pending = Pending(None, [])  # restored, not loaded yet
    return table


def presenter_over(tables: list[Table], closed: frozenset[int] = frozenset()):
    loaded: list[int] = []

    def load(table: Table) -> bool:
        loaded.append(table.id)
        table.pending = None
        return table.id not in closed

    lookup = Lookup(load)
    for table in tables:
        lookup.put(table.id, table)
    presenter = DiscordPresenter(SimpleNamespace(tables=SimpleNamespace(by_id=lookup)))  # type: ignore[arg-type]
    refreshed: list[int] = []
    pauses: list[tuple[int, int, float]] = []
    presenter.refresh = lambda table: refreshed.append(table.id)  # type: ignore[method-assign]

    async def pause(seconds: float) -> None:
        pauses.append((len(loaded), len(refreshed), seconds))

    presenter.pause = pause
    return presenter, loaded, refreshed, pauses


async def test_the_reshow_loads_and_queues_one_batch_then_yields_soonest_deadline_first():
    deadlines = [50.0, None, 10.0, 30.0, None, 20.0, 40.0]
    presenter, loaded, refreshed, pauses = presenter_over([restored(i + 1, d) for i, d in enumerate(deadlines)])
    assert await presenter.reshow(batch=3, rate=1.0) == 7
    # a pause after each full batch, none after the last; nothing of the next batch loaded before the pause
    assert [(n, m) for n, m, _ in pauses] == [(3, 3), (6, 6)]
    assert all(0 < seconds <= 3.0 for _, _, seconds in pauses)  # at most `rate` tables a second
    assert refreshed == [3, 6, 4, 7, 1, 2, 5]  # deadline 10, 20, 30, 40, 50, then the tables without one (by id)
    assert loaded == refreshed


async def test_a_table_that_cannot_be_loaded_is_skipped_and_the_rest_are_shown():
    presenter, loaded, refreshed, pauses = presenter_over(
        [restored(i, None) for i in range(1, 6)], closed=frozenset({2})
    )
    assert await presenter.reshow(batch=2, rate=1000.0) == 4
    assert loaded == [1, 2, 3, 4, 5] and refreshed == [1, 3, 4, 5]
    assert [(n, m) for n, m, _ in pauses] == [(2, 1), (4, 3)]


async def test_a_few_tables_are_shown_in_one_batch_without_a_pause():
    presenter, _, refreshed, pauses = presenter_over([restored(i, None) for i in range(1, 4)])
    assert await presenter.reshow() == 3
    assert refreshed == [1, 2, 3] and pauses == []
