"""A logged game, move by move: the state after each move, replayed through the engine with the recorded dice.

Pure: the dice come from the record (``ReplayDice``), no dice source is ever asked, nothing is read or written.
Replaying reads each entry as the table service logged it (``bot.games.logged.apply_logged``) and tags forfeits
with their reason as the service did. Engines never edit an earlier state, so every step's state can be kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games import Event, get_engine
from bot.games.dice import ReplayDice
from bot.games.logged import FORFEIT, apply_logged
from bot.store.history import GameRecord, Move
from bot.tables.deadlines import forfeit_events
from bot.verify import build_export


@dataclass(frozen=True)
class Step:
    """The game right after one logged action."""

    move: Move
    state: Any
    events: list[Event]  # what the action made happen (public and private)


@dataclass(frozen=True)
class Replay:
    """The steps that replayed; ``failed`` the seq of the first action that did not (None: all of them)."""

    steps: list[Step]
    failed: int | None = None


def replay(game: str, players: int, options: dict[str, Any], moves: Sequence[Move]) -> Replay:
    """Every step of the game, from its ``start`` on. A record that stops replaying (an engine changed since,
    or a damaged record) keeps the steps before it and names the action."""
    engine = get_engine(game)
    steps: list[Step] = []
    state: Any = None
    for move in moves:
        dice = ReplayDice(move.dice or ())
        try:
            state, events = apply_logged(engine, state, move.seat, move.action, dice, players, options)
            if move.action.startswith(FORFEIT):
                events = forfeit_events(events, move.action.partition(":")[2])
            if not dice.exhausted:
                raise ValueError("recorded dice the move did not use")
        except Exception:  # any failure of a stored record is reported, never raised at the player
            return Replay(steps, move.seq)
        steps.append(Step(move, state, events))
    return Replay(steps)


def export_of(record: GameRecord) -> dict[str, Any]:
    """A game that is over as an export (``bot.verify.build_export``, schema v1 in docs/FAIRNESS.md). A game played
    before fair dice has no commitment, seeds or stream: those three are null, and it cannot be verified."""
    engine = get_engine(record.game)
    outcome = engine.outcome(engine.loads(record.state)) if record.state else None
    fair = record.fair or {}
    moves = [(m.seq, m.seat, m.action, m.dice, m.at, m.link) for m in record.moves]
    # Without a fair record (a game from before fair dice) the three are None, not text: check_schema says so.
    commitment, seed, client_seed = fair.get("commitment"), fair.get("seed"), fair.get("client_seed")
    return build_export(
        record.game,
        record.options,
        record.names,
        moves,
        commitment,
        seed,
        client_seed,
        outcome,
        record.id,
        start=fair.get("start"),
        chain=fair.get("chain"),
        owner_seated=bool(fair.get("owner_seated")),
    )
