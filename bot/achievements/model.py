"""What achievements read: one recorded finished game, and one member's past results.

Pure: the records a store fills from its rows (columns named on each; those made per row are named tuples, a
third of a frozen dataclass's cost to build: a game end builds one per move and per past game), and the replay of
a game's action log through its engine with the recorded dice (``bot.games.logged.apply_logged``, as
``bot.replay`` does, without the store). Nothing here reads or writes anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from bot.games import Event, get_engine
from bot.games.dice import ReplayDice
from bot.games.logged import apply_logged

WIN, LOSS, NEUTRAL = "win", "loss", "neutral"


class Seat(NamedTuple):
    """One seat, in seat order: ``games.seats`` JSON ``{"id", "name", "level"}``; a computer player has a level."""

    member_id: int
    computer: bool = False


class Result(NamedTuple):
    """One seat's result: the ``results`` row of that seat (``place``, ``result``, ``score``)."""

    place: int
    result: str  # win, loss or neutral
    score: int


class LoggedMove(NamedTuple):
    """One ``actions`` row (``seat``, ``action``, ``dice`` as JSON), in ``seq`` order; or one entry of a compacted
    ``games.record``. ``start`` first, then moves as the game encodes them, ``timeout`` or ``forfeit:<why>``."""

    seat: int | None
    action: str
    dice: Sequence[Sequence[Any]] | None = None


@dataclass(frozen=True)
class GameRecord:
    """A finished game: ``games.id``, ``games.game``, ``games.options`` (JSON), ``games.seats``, its action log and
    its results (one per seat, in seat order). Only games with ``status = 'finished'`` earn achievements."""

    game_id: int
    game: str
    options: dict[str, Any]
    seats: tuple[Seat, ...]
    moves: tuple[LoggedMove, ...]
    results: tuple[Result, ...]


class PlayerGame(NamedTuple):
    """One of a member's finished games, from their ``results`` row: ``game_id``, ``game``, ``result``, ``place``,
    ``finished_at``. Computer players have no history: their rows (``is_bot = 1``) are left out by the store."""

    game_id: int
    game: str
    result: str
    place: int
    finished_at: float


class Step(NamedTuple):
    """The game right after one logged action: who acted (None for ``start``), what, the events, the state."""

    seat: int | None
    action: str
    events: list[Event]
    state: Any


@dataclass(frozen=True)
class Played:
    """A replayed finished game, as the per-game rules read it."""

    record: GameRecord
    steps: list[Step] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.steps[-1].state

    def events(self) -> Sequence[Event]:
        """Every event of the game, in order (private ones too: the game is over). Built once and shared by every
        rule and seat (a tuple: no rule can change what the next one reads)."""
        found: tuple[Event, ...] | None = self.__dict__.get("_events")
        if found is None:
            found = tuple(event for step in self.steps for event in step.events)
            self.__dict__["_events"] = found  # (frozen: set past the dataclass's __setattr__, as a cache)
        return found

    def won(self, seat: int) -> bool:
        return self.record.results[seat].result == WIN


def replay(record: GameRecord) -> Played | None:
    """The game replayed from its log; None when the log does not replay to a finished game (a damaged record, an
    engine changed since): such a game earns nothing, rather than something it may not have earned."""
    try:
        engine = get_engine(record.game)
    except KeyError:
        return None
    players = len(record.seats)
    state: Any = None
    steps: list[Step] = []
    for move in record.moves:
        dice = ReplayDice([list(call) for call in move.dice or ()])
        try:
            state, events = apply_logged(engine, state, move.seat, move.action, dice, players, record.options)
        except Exception:  # a stored record that does not replay is reported as nothing earned, never raised
            return None
        if not dice.exhausted:
            return None
        steps.append(Step(move.seat, move.action, events, state))
    if not steps or not engine.is_over(state) or len(record.results) != players:
        return None
    return Played(record, steps)
