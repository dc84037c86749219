"""Render once: the table message drawn from cached pieces (log lines, title, body, controls, menu options) is
exactly the one drawn from scratch, move after move, in every game and locale, on Discord and in the terminal."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

import bot.i18n
from bot.games.dice import SeededDice
from bot.games.registry import game_ids, spec
from bot.i18n import SURFACE, locales
from bot.render import log_lines, seat_names, table_text
from bot.tables.model import Seat, Table
from cogs.utils.components import table_message

SEATS = [Seat(11, "alice"), Seat(12, "Bartholomew"), Seat(-1, "Carol", "normal"), Seat(14, "dan")]
OPTIONS: dict[str, dict[str, Any]] = {"liar": {"mode": "lose_die"}}  # several rounds: a long log


def cold_catalog() -> AbstractContextManager[None]:
    """Every memo is keyed by the catalog's generation: a new one (same texts) makes them all miss."""
    return bot.i18n.overridden({})


def copy_of(table: Table) -> Table:
    """The same table as a new object: no render cache, its own log deque (the same entries)."""
    fresh = Table(
        table.id,
        table.guild_id,
        table.channel_id,
        table.game,
        table.status,
        table.host_id,
        table.options,
        list(table.seats),
        table.state,
        table.version,
    )
    fresh.add_log(list(table.log))
    return fresh


def drawn(table: Table, locale: str) -> tuple[Any, ...]:
    text = table_text(table, locale)
    return text.title, text.body, text.log, text.footer, table_message(table, locale).to_components()


def check(table: Table, locale: str) -> None:
    warm = drawn(table, locale)
    assert drawn(table, locale) == warm  # drawn again from the cache
    with cold_catalog():
        assert drawn(copy_of(table), locale) == warm


def play(game: str, seed: int, seats: list[Seat], on_move: Callable[[Table, int], None]) -> Table:
    engine = spec(game).engine
    options = OPTIONS.get(game, {})
    rng, dice = random.Random(seed), SeededDice(seed)
    table = Table(seed, 1, 100 + seed, game, "running", seats[0].id, options, list(seats))
    state, events = engine.new_game(len(seats), engine.options(options), dice)
    table.state = state
    table.add_log([(e.kind, e.data) for e in events if e.public])
    move = 0
    while not engine.is_over(state) and move < 90:
        on_move(table, move)
        player = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)), dice)
        table.state, table.version = state, table.version + 1
        table.status = "finished" if engine.is_over(state) else "running"
        table.add_log([(e.kind, e.data) for e in events if e.public])
        move += 1
    on_move(table, move)
    return table


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("locale", locales())
def test_every_move_is_drawn_as_from_scratch(game: str, locale: str) -> None:
    other = next(code for code in locales() if code != locale)

    def on_move(table: Table, move: int) -> None:
        check(table, locale)
        if move % 7 == 3:  # a spectator in another language between two moves
            check(table, other)

    for seed, seats in ((1, SEATS), (2, SEATS[:3])):
        table = play(game, seed, seats, on_move)
        table.status = "cancelled"
        table.add_log([("closed", {"reason": "cancelled"})])
        check(table, locale)


@pytest.mark.parametrize("game", game_ids())
def test_the_terminal_surface_and_changed_names_are_drawn_as_from_scratch(game: str) -> None:
    def on_move(table: Table, move: int) -> None:
        if move % 5:
            return
        token = SURFACE.set("terminal")
        try:
            check(table, "en")
        finally:
            SURFACE.reset(token)
        check(table, "en")
        table.seats[0] = Seat(table.seats[0].id, f"alice{move}")  # a renamed seat: its log lines read anew
        check(table, "en")

    play(game, 3, SEATS, on_move)


def test_the_lobby_is_drawn_as_from_scratch() -> None:
    table = Table(5, 1, 105, "pig", "lobby", 11, {"target": 50}, [SEATS[0]])
    check(table, "en")
    table.seats.append(SEATS[1])
    table.add_log([("joined", {"player": 1})])
    check(table, "en")
    table.status = "cancelled"
    table.add_log([("closed", {"reason": "empty"})])
    check(table, "en")


def test_a_log_line_is_rendered_once_and_forgotten_when_its_event_leaves_the_log(monkeypatch) -> None:
    rendered: list[str] = []
    real = bot.render.event_text

    def counting(game: str, kind: str, data: dict[str, Any], names: list[str], locale: str) -> str | None:
        rendered.append(kind)
        return real(game, kind, data, names, locale)

    monkeypatch.setattr(bot.render, "event_text", counting)
    table = Table(6, 1, 106, "pig", "running", 11, {}, SEATS[:2])
    names = seat_names(table)
    for n in range(100):
        table.add_log([("hold", {"player": n % 2, "banked": n, "score": n})])
        log_lines(table, names, "en")
    assert len(rendered) == 100  # each event once, as it arrived
    cached = next(iter(table.render_cache.logs.values()))
    assert len(cached) <= 8 + 4  # only lines that may still show are kept (the log holds 24 events, 8 show)


def test_a_log_line_is_drawn_anew_when_the_catalog_changes_or_its_entry_is_another_object() -> None:
    """The memo holds the entries it drew and knows them by identity: an equal entry that is another object (a log
    put back), or a new generation of the catalog, draws again, with the new text."""
    table = Table(7, 1, 107, "pig", "running", 11, {}, SEATS[:2])
    names = seat_names(table)
    table.add_log([("hold", {"player": 0, "banked": 5, "score": 5})])
    (line,) = log_lines(table, names, "en")
    with bot.i18n.overridden({"en": {"pig.event.hold": "{player} banks"}}):
        assert log_lines(table, names, "en") == ["**alice** banks"]
        table.log.clear()
        table.add_log([("hold", {"player": 1, "banked": 5, "score": 5})])
        assert log_lines(table, names, "en") == ["**Bartholomew** banks"]
    assert log_lines(table, names, "en") == [line.replace("alice", "Bartholomew")]
    copied = copy_of(table)
    copied.render_cache = table.render_cache  # the same memo, a log of other (equal) objects
    copied.log.clear()
    copied.add_log([("hold", {"player": 0, "banked": 5, "score": 5})])
    assert log_lines(copied, names, "en") == [line]
