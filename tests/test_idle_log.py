"""An idle table's log back to JSON text (``Table.compact``, issue 30): it reads back as the log a restart gives,
the table draws and plays as one never compacted, and the decode queue compacts only what is idle."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import pytest

from bot.games.dice import SeededDice
from bot.games.registry import game_ids, spec
from bot.i18n import locales
from bot.jsontext import dumps, loads
from bot.render import log_lines, seat_names, table_text
from bot.tables import model
from bot.tables.model import LOG_EVENTS, Seat, Table, split_meta
from cogs.utils.components import table_message

SEATS = [Seat(11, "alice"), Seat(12, "Bartholomew"), Seat(-1, "Carol", "normal")]
OPTIONS: dict[str, dict[str, Any]] = {"liar": {"mode": "lose_die"}}  # several rounds: a long log


@pytest.fixture(autouse=True)
def own_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test its own queue of decoded logs (the module's is shared by every table of the process)."""
    monkeypatch.setattr(model, "_decoded", deque())


def drawn(table: Table, locale: str) -> tuple[Any, ...]:
    text = table_text(table, locale)
    return text.title, text.body, text.log, text.footer, table_message(table, locale).to_components()


def restarted(entries: list[Any]) -> list[Any]:
    """The log as a restart reads it back from the meta column."""
    return [tuple(entry) for entry in loads(dumps(entries))]


def twins(game: str, seed: int) -> tuple[Table, Table]:
    """The same new game twice (same seats, options, dice): one to compact, one left alone."""
    engine = spec(game).engine
    options = OPTIONS.get(game, {})
    tables = []
    for _ in range(2):
        table = Table(seed, 1, 100 + seed, game, "running", SEATS[0].id, options, list(SEATS))
        state, events = engine.new_game(len(SEATS), engine.options(options), SeededDice(seed))
        table.state = state
        table.add_log([(e.kind, e.data) for e in events if e.public])
        tables.append(table)
    return tables[0], tables[1]


@pytest.mark.parametrize("game", game_ids())
def test_a_compacted_table_reads_draws_and_plays_as_one_never_compacted(game: str) -> None:
    """Move after move, one twin is compacted (after it was drawn, as an idle table is) and the other is not: the
    logs read back equal, and both draw the same message in every locale and go on to the same state."""
    engine = spec(game).engine
    kept, idle = twins(game, 5)
    rng, dice_kept, dice_idle = random.Random(5), SeededDice(50), SeededDice(50)
    move = 0
    while True:
        locale = locales()[move % len(locales())]
        assert drawn(idle, locale) == drawn(kept, locale)
        assert idle.compact()  # drawn, then idle: the log back to text, the render cache dropped
        assert idle.decoded_log is None and idle.render_cache is None and idle.log_text is not None
        assert not idle.compact()  # nothing left to do
        assert list(idle.log) == restarted(list(kept.log))  # what a restart would read back
        assert drawn(idle, locale) == drawn(kept, locale)  # decoded again, drawn anew: the same message
        idle.compact()
        if engine.is_over(kept.state) or move == 90:
            break
        player = rng.choice(engine.to_act(kept.state))
        action = rng.choice(engine.legal_actions(kept.state, player))
        for table, dice in ((kept, dice_kept), (idle, dice_idle)):
            state, events = engine.apply(table.state, player, action, dice)
            table.state, table.version = state, table.version + 1
            table.status = "finished" if engine.is_over(state) else "running"
            table.add_log([(e.kind, e.data) for e in events if e.public])  # onto the text while it is compacted
        assert engine.dumps(idle.state) == engine.dumps(kept.state)
        move += 1
    assert list(idle.log) == restarted(list(kept.log))
    assert drawn(idle, "en") == drawn(kept, "en")


def test_the_log_round_trip_keeps_the_last_events_in_order_and_the_meta_the_same() -> None:
    table = Table(1, 1, 101, "pig", "running", 11, {}, SEATS[:2])
    for n in range(30):
        table.add_log([("hold", {"player": n % 2, "banked": n, "score": n, "name": "Zoë ✓"})])
    meta = table.meta()
    before = list(table.log)
    assert table.compact()
    assert table.meta() == meta  # the snapshot writes the same text, from the text
    table.compact()
    for n in range(30, 40):  # moves while idle go on the text's side, up to a whole log
        table.add_log([("hold", {"player": n % 2, "banked": n, "score": n, "name": "Zoë ✓"})])
    after = list(table.log)
    assert len(after) == LOG_EVENTS
    added = [("hold", {"player": n % 2, "banked": n, "score": n, "name": "Zoë ✓"}) for n in range(30, 40)]
    assert after == restarted(before + added)[-LOG_EVENTS:]
    _, text = split_meta(table.meta())
    assert text is not None and [tuple(e) for e in loads(text)] == after


def restored_table(n: int, status: str = "running") -> Table:
    """A table as start-up leaves it: its log still JSON text."""
    table = Table(n, 1, 100 + n, "pig", status, 11, {}, SEATS[:2])
    table.log_text = (dumps([["hold", {"player": 0, "banked": n, "score": n}]]), [])
    return table


async def test_the_log_decoded_longest_ago_is_compacted_once_idle_not_while_played_or_held(monkeypatch) -> None:
    monkeypatch.setattr(model, "IDLE_AFTER", 2)
    tables = [restored_table(n) for n in range(6)]
    names = seat_names(tables[0])
    lines = [log_lines(table, names, "en") for table in tables[:2]]
    tables[1].version += 1  # played since its decode: not idle
    log_lines(tables[2], names, "en")  # the third decode: the oldest (0) is looked at, idle
    assert tables[0].decoded_log is None and tables[0].render_cache is None
    assert tables[1].decoded_log is not None and tables[2].decoded_log is not None
    log_lines(tables[3], names, "en")  # 1 moved on: to the back, decoded; then 2, idle
    assert tables[1].decoded_log is not None and tables[2].decoded_log is None
    assert [entry[0].id for entry in model._decoded] == [3, 1]
    async with tables[3].lock:  # a move in progress on 3
        log_lines(tables[4], names, "en")  # 3 held: to the back; 1, not moved since its last look: idle
    assert tables[3].decoded_log is not None and tables[1].decoded_log is None
    log_lines(tables[5], names, "en")  # 4: idle
    assert tables[4].decoded_log is None and [entry[0].id for entry in model._decoded] == [3, 5]
    assert log_lines(tables[0], names, "en") == lines[0]  # decoded and drawn again, as it was
    assert tables[0].log[0] == ("hold", {"player": 0, "banked": 0, "score": 0})


def test_a_closed_table_leaves_the_queue_as_it_is(monkeypatch) -> None:
    monkeypatch.setattr(model, "IDLE_AFTER", 1)
    finished, other = restored_table(1, "finished"), restored_table(2)
    assert finished.log and other.log
    assert finished.decoded_log is not None  # dropped from the queue, not compacted: it is gone from the service
    assert [entry[0].id for entry in model._decoded] == [2]


def test_a_log_that_does_not_encode_stays_decoded_and_the_read_goes_on(monkeypatch, caplog) -> None:
    monkeypatch.setattr(model, "IDLE_AFTER", 1)
    odd, other = restored_table(1), restored_table(2)
    odd.log.append(("hold", {"player": 0, "faces": {1, 2}}))  # a set: no JSON for it
    assert other.log[0][0] == "hold"  # this read compacts nothing, and fails nothing
    assert odd.decoded_log is not None and odd.log[-1] == ("hold", {"player": 0, "faces": {1, 2}})
    assert "does not encode" in caplog.text
