"""A replay's page: the table as it stood after one move, with every player's secret view shown beside it.

Drawn by the game renderers through ``table_text``, as the table message and 🎲 My dice are: the public body and
log, then for each seat the lines its own view adds (its dice, its hand). Only a game that is over is replayed,
so nothing here is a secret any more.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import t
from bot.render import faces, table_text
from bot.replay import Replay
from bot.store.history import GameRecord
from bot.tables.model import Seat, Table

REPLAY_LOG_LINES = 4  # the move shown and a little before it: the page also holds every seat's hand


@dataclass
class ReplayPage:
    title: str
    body: list[str]  # the public table
    hidden: list[str]  # every seat's own view lines, under its name
    log: list[str]
    footer: str


def step_table(record: GameRecord, replay: Replay, step: int) -> Table:
    """A Table (the renderers' input) holding the state after ``step`` and the public log up to it."""
    last = step == len(replay.steps) - 1
    table = Table(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        game=record.game,
        status=record.status if last else "running",
        host_id=0,
        options=record.options,
        seats=[Seat(s["id"], s["name"], s.get("level")) for s in record.seats],
        state=replay.steps[step].state,
        version=replay.steps[step].move.seq,
    )
    table.add_log([(e.kind, e.data) for s in replay.steps[: step + 1] for e in s.events if e.public])
    return table


def replay_page(record: GameRecord, replay: Replay, step: int, locale: str) -> ReplayPage:
    """Page ``step`` (0: the game as dealt, after ``start``) of a replay with at least one step."""
    step = min(max(step, 0), len(replay.steps) - 1)
    table = step_table(record, replay, step)
    public = table_text(table, locale)
    hidden: list[str] = []
    with faces.plain():  # every hand at once, in Unicode faces: the page holds them all within 4,000 characters
        shown = set(table_text(table, locale).body)
        for seat, name in enumerate(record.names):
            own = [line for line in table_text(table, locale, seat).body if line and line not in shown]
            if own:
                hidden += [t("history.replay_seat", locale, name=name), *own]
    game = t(f"game.{record.game}", locale)
    moves = len(replay.steps) - 1  # the start is not a move
    where = t("history.replay_start", locale) if step == 0 else t("history.replay_move", locale, move=step, moves=moves)
    footer = t("history.replay_footer", locale, where=where, id=record.id)
    if replay.failed is not None:
        footer += "\n" + t("history.replay_stops", locale, seq=replay.failed)
    title = t("history.replay_title", locale, game=game, id=record.id)
    return ReplayPage(title, public.body, hidden, public.log[-REPLAY_LOG_LINES:], footer)
