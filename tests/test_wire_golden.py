"""The table message and the private replies built as JSON (``cogs.utils.components``: ``table_components``,
``text_components``, ``controls_rows``; issue 30) are exactly what discord.py's ``ui`` objects serialise to
(``table_message(...).to_components()``, ``text_message(...)``, ``rows_of(controls_view(...))``): every game, in the
lobby (with and without computer players, one and several seats), at many points of a random game, finished and
cancelled, in every language, with the die faces uploaded and not, with and without controls and a note. A golden
equality: the JSON path is what the bot sends, the ``ui`` path the reference it must not drift from."""

from __future__ import annotations

import random
from collections.abc import Iterator

import discord
import pytest

from bot.games import get_engine
from bot.games.dice import SeededDice
from bot.games.fair import FairDice
from bot.i18n import locales
from bot.render import faces
from bot.tables.model import Seat, Table
from cogs.utils import components as c
from cogs.utils.components import (
    COLOURS,
    controls_rows,
    rows_of,
    table_message,
    text_components,
    text_message,
)


def table_layout(
    table: Table, locale: str, *, with_controls: bool = True, note: str | None = None
) -> discord.ui.LayoutView:
    """The whole table message as a Components V2 layout of discord.py ``ui`` objects, as the bot built it before
    issue 30: the reference the JSON that is sent must equal. One container whose accent colour says the state, the
    title and the game's head lines, one text block per seat (its marker, name, numbers, last claim), what the
    table waits for, the last lines of the log, why it closed, the fair dice and the table's id in one small
    line, then the controls (none once the table is over: a finished table offers nothing it cannot do).
    ``with_controls`` False: the same table without them (``/<game> status``, privately); ``note``: a line above
    the container (a private copy's why)."""
    text = c.table_text(table, locale)
    blocks = c.Blocks()
    blocks.text("\n".join([f"## {text.title}", *text.head]))
    blocks.separator()
    blocks.seats(text.seats)
    if any(text.foot):
        blocks.text("\n".join(text.foot).strip("\n"))
    if table.status == "cancelled":
        blocks.text(c.t(f"table.closed_{c.close_reason(table)}", locale))
    small = " · ".join([*text.fair, text.footer])
    rows = c.table_rows(table, locale) if with_controls else []
    title = c.t("table.log", locale)
    return blocks.layout(COLOURS.get(table.status, 0), log=text.log, small=small, rows=rows, log_title=title, note=note)


GAMES = ("pig", "mia", "mex", "liar", "mythic")
STEPS = (0, 1, 2, 4, 7, 12, 20, 33)
FAKE_FACES = {key: (f"dt_{key}", 1_000_000 + n) for n, key in enumerate(faces.KEYS)}


@pytest.fixture(params=[False, True], ids=["unicode", "uploaded"])
def uploaded(request: pytest.FixtureRequest) -> Iterator[bool]:
    if request.param:
        faces.load(FAKE_FACES)
    try:
        yield request.param
    finally:
        faces.load({})


def seats(count: int, bots: int = 0) -> list[Seat]:
    made = [Seat(100 + i, f"Player {i}") for i in range(count - bots)]
    return made + [Seat(-1 - i, f"Bot {i}", "hard") for i in range(bots)]


def tables(game: str, seed: int = 3) -> Iterator[Table]:
    """Lobbies, a random game at ``STEPS`` and its end, and a cancelled table."""
    engine = get_engine(game)
    low = engine.player_range(engine.options({}))[0]
    for count, bots in ((1, 0), (max(2, low), 0), (max(3, low), 1), (6, 2)):
        lobby = Table(7, 1, 2, game, "lobby", 100, {}, seats(count, bots), None, count)
        lobby.message_id = 55
        yield lobby
    count = max(3, low)
    rng, dice = random.Random(seed), SeededDice(seed)
    state, events = engine.new_game(count, engine.options({}), dice)
    log = [(e.kind, e.data) for e in events if e.public]
    for step in range(500):
        over = engine.is_over(state)
        if step in STEPS or over:
            table = Table(7, 1, 2, game, "finished" if over else "running", 100, {}, seats(count), state, step + 1)
            table.add_log(log[-30:])
            table.fair = FairDice(b"\x07" * 32, "players' luck")
            table.message_id = 55
            yield table
        if over:
            break
        mover = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, mover, rng.choice(engine.legal_actions(state, mover)), dice)
        log += [(e.kind, e.data) for e in events if e.public]
    cancelled = Table(7, 1, 2, game, "cancelled", 100, {}, seats(count), state, 99)
    cancelled.add_log([*log[-5:], ("closed", {"reason": "timeout"})])
    yield cancelled


@pytest.mark.parametrize("game", GAMES)
def test_the_table_message_as_json_is_what_discord_py_serialises(game: str, uploaded: bool) -> None:
    for locale in locales():
        for table in tables(game):
            for kwargs in ({}, {"with_controls": False, "note": "why"}, {"note": "the window ends"}):
                assert (
                    table_message(table, locale, **kwargs).to_components()
                    == table_layout(table, locale, **kwargs).to_components()
                ), (
                    game,
                    table.status,
                    table.version,
                    locale,
                    kwargs,
                )


@pytest.mark.parametrize("game", GAMES)
def test_a_private_reply_as_json_is_what_discord_py_serialises(game: str, uploaded: bool) -> None:
    from bot.render import controls

    for locale in ("en", "ru", "cy"):
        for table in tables(game):
            items = controls(table)
            rows = controls_rows(table, items, locale)
            view = c.controls_view(table, items, locale)
            assert rows == [row.to_component_dict() for row in rows_of(view)]
            lines = ["a line", "", "another", *[f"seat {s.name}" for s in table.seats]]
            assert (
                text_components(lines, COLOURS.get(table.status), rows)
                == text_message(lines, COLOURS.get(table.status), view).to_components()
            )
            assert text_components(lines) == text_message(lines).to_components()


def test_the_limits_raise_as_discord_py_does() -> None:
    """A classic view's room (25 items, 5 rows of width 5) and a V2 message's 40 components."""
    into, view = c.Controls(), __import__("discord").ui.View(timeout=None)
    raised: list[str] = []
    for n in range(30):
        item = c.select_json(1, 1, f"m{n}") if n % 7 == 3 else c.button_json(1, 1, f"a{n}")
        ours = theirs = None
        try:
            into.add(item)
        except ValueError as error:
            ours = str(error)
        dynamic = c.TableSelect(1, 1, f"m{n}") if item["type"] == c.SELECT else c.TableButton(1, 1, f"a{n}")
        try:
            view.add_item(dynamic)
        except ValueError as error:
            theirs = str(error)
        assert ours == theirs, n
        raised.append(ours or "")
    assert any(raised)
    assert into.rows() == [row.to_component_dict() for row in rows_of(view)]
    long = [f"line {n}" for n in range(60)]
    blocks, plain = c.Blocks(), c.PlainBlocks()
    for line in long:
        blocks.text(line)
        plain.text(line)
    with pytest.raises(ValueError):
        blocks.layout(1)
    with pytest.raises(ValueError):
        plain.layout(1)


def test_the_dm_retry_button_and_a_long_text() -> None:
    from bot.render import controls

    for locale in ("en", "de"):
        for table in tables("liar"):
            view = c.controls_view(table, controls(table), locale)
            into = c.add_controls_json(c.Controls(), table, controls(table), locale)
            ours = c.with_dm_retry_json(into, table.id, locale).rows()
            assert ours == [row.to_component_dict() for row in rows_of(c.with_dm_retry(view, table.id, locale))]
    full = c.Controls()
    for n in range(25):
        full.add(c.button_json(1, 1, f"a{n}"))
    assert len(c.with_dm_retry_json(full, 1, "en").items) == 25
    text = ["x" * 5000]
    assert text_components(text, 0) == text_message(text, 0).to_components()


def test_the_end_message_with_its_rematch_button() -> None:
    from cogs.utils.rematch import rematch_view

    finished = 0
    for locale in ("en", "el"):
        for table in tables("mex"):
            if table.status != "finished":
                continue
            finished += 1
            view = rematch_view(table, locale)
            rows = [row.to_component_dict() for row in rows_of(view)]
            lines = ["🏁 over", "-# the seed"]
            assert (
                rows
                and text_components(lines, COLOURS["finished"], rows)
                == text_message(lines, COLOURS["finished"], view).to_components()
            )
    assert finished == 2
