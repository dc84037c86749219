"""What a table is: the lobby's seats and options, the running game's state, and its bookkeeping."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.games import Engine, get_engine
from bot.games.fair import FairDice
from bot.jsontext import dumps, loads
from bot.languages import SHIPPED

SEEN = 64  # interaction ids remembered per table for idempotency (also across a restart)
LOG_EVENTS = 24  # public events kept; the table message shows the last few that have text
# What replaying the moves after a snapshot changes (``Table.defer_replay``), besides the log and the version: the
# dice too, as the fair stream's nonce moves on past the replayed draws, and the interaction ids of those moves.
REPLAYED = ("state", "timeouts", "acted", "draws", "fair", "dice", "seen")


def interaction_key(interaction_id: str) -> int | str:
    """How ``Table.seen`` holds an interaction id: Discord's (a snowflake: a plain positive decimal below 2**63) as
    an int, half the memory of its text (36 bytes against 68, 64 per table); anything else as it is. Start-up reads
    them the same way in SQL (``bot.store.repo.recent_interactions``)."""
    if interaction_id.isascii() and interaction_id.isdigit() and interaction_id[0] != "0":
        number = int(interaction_id)
        if number < 2**63:
            return number
    return interaction_id


def split_meta(text: str) -> tuple[dict[str, Any], str | None]:
    """The meta column without its log, and the log's JSON text (None when ``text`` is not as ``Table.meta`` writes
    it: then the meta is decoded whole, log included). Start-up defers the log (see ``Table.log_deferred``)."""
    # Table.meta writes {"timeouts":…,"locale":…,"log":[…],"acted":…,…}. A quote inside a JSON string is escaped,
    # so the first ,"log":[ is the top-level key; the log may hold an "acted" key, the keys after it cannot, so the
    # last ,"acted": is the one that ends the log.
    start, end = text.find(',"log":['), text.rfind(',"acted":')
    if not text.startswith('{"timeouts":') or start < 0 or end < start or text[end - 1] != "]":
        return loads(text), None
    return loads(text[:start] + text[end:]), text[start + 7 : end]


class TableError(Exception):
    """A refused table operation. ``code`` keys the message catalog (``error.<code>``)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def check_language(code: str) -> str:
    """``code`` if it is a shipped language; else the refusal that lists them."""
    if code not in SHIPPED:
        raise TableError("unknown_language", language=code[:20], languages=", ".join(SHIPPED))
    return code


@dataclass(slots=True)
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


@dataclass(slots=True)  # no per-table __dict__: ~10k of them stay in memory
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
    # A restored table's log as JSON text and the entries added since, until something reads ``log`` (a render, a
    # snapshot): 24 decoded events weigh ~9 KB, their text ~2 KB, and decoding them was 3/4 of a meta's read.
    log_deferred: tuple[str, list[tuple[str, dict[str, Any]]]] | None = field(default=None, repr=False, compare=False)
    # A restored table's snapshot values of REPLAYED and what replays the moves after it, until one is read.
    replay_deferred: tuple[tuple[Any, ...], Callable[[Table], None]] | None = field(
        default=None, repr=False, compare=False
    )
    locale: str = "en"
    locale_chosen: bool = False  # the host chose ``locale`` (``language:``): the server's language does not change it
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

    if not TYPE_CHECKING:  # (mypy would take any attribute name for one of these)

        def __getattr__(self, name: str) -> Any:
            """Only for an empty slot: ``log`` while it is deferred (``defer_log``) is decoded on this first read,
            and the fields a deferred replay sets (``defer_replay``) are brought up to date on the first read of any."""
            if name in REPLAYED and self.replay_deferred is not None:
                snapshot, finish = self.replay_deferred
                self.replay_deferred = None
                for field_name, value in zip(REPLAYED, snapshot, strict=True):
                    setattr(self, field_name, value)
                finish(self)  # may raise (a log that does not replay): the table is then closed
                return getattr(self, name)
            deferred = self.log_deferred if name == "log" else None
            if deferred is None:
                raise AttributeError(name)
            self.log_deferred = None
            log = deque(map(tuple, loads(deferred[0])), maxlen=LOG_EVENTS)
            log.extend(deferred[1])
            self.log = log
            return log

    def defer_replay(self, finish: Callable[[Table], None]) -> None:
        """Leave the snapshot's ``REPLAYED`` fields aside until one is first read: ``finish(self)`` then replays the
        moves logged since onto them. Every use of a table reads one of them first (a move, a view, a render, a
        timeout, a snapshot all read ``state`` or ``timeouts``; the dice draw only inside such a move)."""
        snapshot = tuple(getattr(self, field_name) for field_name in REPLAYED)
        for field_name in REPLAYED:
            delattr(self, field_name)
        self.replay_deferred = (snapshot, finish)

    def defer_log(self, text: str) -> None:
        """Keep the log (as ``Table.meta`` wrote it) as text until ``log`` is first read."""
        del self.log
        self.log_deferred = (text, [])

    def add_log(self, entries: list[tuple[str, dict[str, Any]]]) -> None:
        deferred = self.log_deferred
        if deferred is not None and len(deferred[1]) + len(entries) <= LOG_EVENTS:
            deferred[1].extend(entries)
        else:
            self.log.extend(entries)

    def meta(self, extra: Sequence[tuple[str, dict[str, Any]]] = (), acted: dict[int, int] | None = None) -> str:
        """The meta column as JSON text; ``extra`` log entries and ``acted`` moves are included as if already made.

        Built only for a snapshot of the games row (every few moves, see ``bot.tables.service``), so the log is
        encoded then, in one call, rather than kept encoded beside itself in every table's memory. ``acted`` (the
        double-click guard) is stored as [[user id, version], ...], and ``seen`` (the recent interaction ids, oldest
        first) too, so a restart needs no query for either: it adds the ids of the moves logged since.
        """
        log = list(self.log)
        if extra:
            log = (log + list(extra))[-LOG_EVENTS:]
        moves = {**self.acted, **acted} if acted else self.acted
        seen = f',"seen":{dumps(list(self.seen))}' if self.seen else ""
        # Fair dice: the stream's nonce at this snapshot, so a restart goes on from it plus the draws logged since.
        fair = self.fair
        draws = "" if fair is None else f',"draws":{fair.nonce}'
        chosen = ',"chosen":true' if self.locale_chosen else ""
        return (
            f'{{"timeouts":{dumps(self.timeouts)},"locale":{dumps(self.locale)},"log":{dumps(log)},'
            f'"acted":{dumps(list(moves.items()))}{seen}{draws}{chosen}}}'
        )

    def load_meta(self, meta: dict[str, Any], log_text: str | None = None) -> bool:
        """Returns whether the meta held ``acted`` (meta written before the action log did not). Its ``seen`` is
        read too; meta from before it has none (start-up then reads the table's ids from the log). ``log_text``:
        the log split off by ``split_meta``, kept as text until it is read."""
        self.timeouts = list(meta.get("timeouts", []))
        if log_text is not None:
            self.defer_log(log_text)
        else:
            self.log.extend([(kind, data) for kind, data in meta.get("log", [])])
        self.locale = meta.get("locale", "en")
        self.locale_chosen = bool(meta.get("chosen"))
        seen = meta.get("seen")
        if seen:
            self.seen.extend(seen)
        acted = meta.get("acted")
        if acted is not None:
            self.acted.update((user_id, version) for user_id, version in acted)
        return acted is not None
