"""What a table is: the lobby's seats and options, the running game's state, and its bookkeeping."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import Engine, get_engine
from bot.games.fair import FairDice
from bot.jsontext import dumps

SEEN = 64  # interaction ids remembered per table for idempotency (also across a restart)
LOG_EVENTS = 24  # public events kept; the table message shows the last few that have text


def interaction_key(interaction_id: str) -> int | str:
    """How ``Table.seen`` holds an interaction id: Discord's (a snowflake: a plain positive decimal below 2**63) as
    an int, half the memory of its text (36 bytes against 68, 64 per table); anything else as it is. Start-up reads
    them the same way in SQL (``bot.store.repo.recent_interactions``)."""
    if interaction_id.isascii() and interaction_id.isdigit() and interaction_id[0] != "0":
        number = int(interaction_id)
        if number < 2**63:
            return number
    return interaction_id


class TableError(Exception):
    """A refused table operation. ``code`` keys the message catalog (``error.<code>``)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class Seat:
    id: int  # a Discord user id; computer players get negative ids
    name: str
    level: str | None = None  # computer player's level, None for people
    entropy: str | None = None  # what they added to the client seed as they joined (``seed:``, else the join's id)

    @property
    def is_bot(self) -> bool:
        return self.level is not None

    @property
    def entry(self) -> str:
        """This seat's part of the client seed: its entropy; a computer player without any adds its name."""
        if self.entropy is not None:
            return self.entropy
        return self.name if self.is_bot else ""

    def to_json(self) -> dict[str, Any]:
        seat: dict[str, Any] = {"id": self.id, "name": self.name, "level": self.level}
        if self.entropy is not None:  # only seats that joined with fair dice in play carry it
            seat["entropy"] = self.entropy
        return seat


@dataclass
class Table:
    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str  # lobby | running | finished | cancelled
    host_id: int
    options: dict[str, Any]
    seats: list[Seat]
    state: Any = None
    version: int = 0
    message_id: int | None = None
    timeouts: list[int] = field(default_factory=list)  # consecutive timeouts per seat
    log: deque[tuple[str, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=LOG_EVENTS))
    locale: str = "en"
    deadline: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False, compare=False)
    seen: deque[int | str] = field(default_factory=lambda: deque(maxlen=SEEN), repr=False)  # interaction_key()s
    acted: dict[int, int] = field(default_factory=dict, repr=False)  # user id -> version after their last action
    render_cache: Any = field(default=None, repr=False, compare=False)  # bot.render's rendered text, when shown
    snapshot_version: int = 0  # the version of the state in the games row (the log goes on to ``version``)
    # The dice the table draws from (``TableService`` gives each table its own FairDice, or a test's shared
    # source); ``fair``: the same object when they are the table's own fair dice, whose commitment is public and
    # whose seed is revealed once the game is over (a shared source, even a FairDice, is never revealed);
    # ``draws``: the fair draws committed so far (a move that fails, refused or not committed, rewinds to it).
    dice: Any = field(default=None, repr=False, compare=False)
    fair: FairDice | None = field(default=None, repr=False, compare=False)
    draws: int = 0

    @property
    def engine(self) -> Engine:
        return get_engine(self.game)

    @property
    def running(self) -> bool:
        return self.status == "running"

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.id == user_id:
                return index
        return None

    def add_log(self, entries: list[tuple[str, dict[str, Any]]]) -> None:
        self.log.extend(entries)

    def meta(self, extra: Sequence[tuple[str, dict[str, Any]]] = (), acted: dict[int, int] | None = None) -> str:
        """The meta column as JSON text; ``extra`` log entries and ``acted`` moves are included as if already made.

        Built only for a snapshot of the games row (every few moves, see ``bot.tables.service``), so the log is
        encoded then, in one call, rather than kept encoded beside itself in every table's memory. ``acted`` (the
        double-click guard) is stored as [[user id, version], ...], so a restart needs no query for it.
        """
        log = list(self.log)
        if extra:
            log = (log + list(extra))[-LOG_EVENTS:]
        moves = {**self.acted, **acted} if acted else self.acted
        # Fair dice: the stream's nonce at this snapshot, so a restart goes on from it plus the draws logged since.
        fair = self.fair
        draws = "" if fair is None else f',"draws":{fair.nonce}'
        return (
            f'{{"timeouts":{dumps(self.timeouts)},"locale":{dumps(self.locale)},"log":{dumps(log)},'
            f'"acted":{dumps(list(moves.items()))}{draws}}}'
        )

    def load_meta(self, meta: dict[str, Any]) -> bool:
        """Returns whether the meta held ``acted`` (meta written before the action log did not)."""
        self.timeouts = list(meta.get("timeouts", []))
        self.log.extend([(kind, data) for kind, data in meta.get("log", [])])
        self.locale = meta.get("locale", "en")
        acted = meta.get("acted")
        if acted is not None:
            self.acted.update((user_id, version) for user_id, version in acted)
        return acted is not None
