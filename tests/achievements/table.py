"""A game played move by move and recorded as the table service logs it (each move's dice calls), then handed
to achievements as the store would fill a ``GameRecord``."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from bot.achievements import GameRecord, LoggedMove, PlayerGame, Result, Seat
from bot.games import get_engine
from bot.games.dice import DiceSource, RecordingDice, ScriptedDice, SeededDice
from bot.games.logged import apply_logged

MEMBER = 100  # seat n is member 100 + n


class Table:
    def __init__(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None = None,
        faces: Iterable[int] = (),
        computers: Iterable[int] = (),
        dice: DiceSource | None = None,
        samples: Iterable[list[int]] = (),
    ) -> None:
        self.game, self.players, self.options = game, players, options or {}
        self.engine = get_engine(game)
        self.scripted = ScriptedDice(faces, samples)
        self.dice = dice or self.scripted
        self.computers = set(computers)
        self.moves: list[LoggedMove] = []
        self.state: Any = None
        self.events: list[Any] = []
        self.log(None, "start")

    def push(self, *faces: int) -> Table:
        self.scripted.push(*faces)
        return self

    def log(self, seat: int | None, action: str) -> Table:
        recording = RecordingDice(self.dice)
        self.state, events = apply_logged(self.engine, self.state, seat, action, recording, self.players, self.options)
        self.events += events
        self.moves.append(LoggedMove(seat, action, recording.calls or None))
        return self

    def do(self, *steps: tuple[int, str]) -> Table:
        for seat, action in steps:
            self.log(seat, action)
        return self

    @property
    def over(self) -> bool:
        return self.engine.is_over(self.state)

    def record(self, game_id: int = 1) -> GameRecord:
        outcome = self.engine.outcome(self.state)
        assert outcome is not None, "the scripted game is not over"
        place = {seat: n + 1 for n, group in enumerate(outcome.ranking) for seat in group}
        results = tuple(Result(place[s], outcome.result(s), outcome.scores[s]) for s in range(self.players))
        seats = tuple(Seat(MEMBER + s, s in self.computers) for s in range(self.players))
        return GameRecord(game_id, self.game, dict(self.options), seats, tuple(self.moves), results)


def random_game(game: str, players: int, options: dict[str, Any], seed: int, computers: Iterable[int] = ()) -> Table:
    """A game of random legal moves with seeded dice, to its end."""
    rng = random.Random(seed)
    table = Table(game, players, options, computers=computers, dice=SeededDice(seed))
    while not table.over:
        seat = rng.choice(table.engine.to_act(table.state))
        action = rng.choice(table.engine.legal_actions(table.state, seat))
        table.log(seat, action.encode())
    return table


def member(seat: int) -> int:
    return MEMBER + seat


def history_entry(record: GameRecord, seat: int, finished_at: float) -> PlayerGame:
    """The seat's ``results`` row of a finished game, as the store reads a member's history."""
    result = record.results[seat]
    return PlayerGame(record.game_id, record.game, result.result, result.place, finished_at)
