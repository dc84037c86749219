"""What a table is: the lobby's seats and options, the running game's state, and its bookkeeping."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import Engine, get_engine
from bot.games.fair import FairDice
from bot.jsontext import dumps, loads
from bot.languages import SHIPPED

logger = logging.getLogger(__name__)

SEEN = 64  # interaction ids remembered per table for idempotency (also across a restart)
LOG_EVENTS = 24  # public events kept; the table message shows the last few that have text
# Tables whose log was decoded most recently keep it decoded; past this many later decodes, a table whose version
# has not moved since (idle: shown, nobody played) has its log put back to JSON text (``Table.compact``).
IDLE_AFTER = 256
LogEntry = tuple[str, dict[str, Any]]  # (event kind, data) of a public event
# An action log entry as the service writes it: (seat, action text, interaction id, dice JSON).
Entry = tuple[int | None, str, str | None, str | None]


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
    it: then the meta is decoded whole, log included). Start-up keeps the log as text (see ``Table.log_text``)."""
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


@dataclass(slots=True)
class Pending:
    """A restored running game not brought up to date yet: its snapshot's state as JSON text (None: the row had
    none) and its logged actions from the snapshot's own on (``bot.store.repo.action_tails`` rows), which
    ``bot.tables.restore.load`` replays."""

    state: str | None
    tail: list[Any]


def require_open(table: Table) -> None:
    """A table closed while this request waited for its lock (or a stale control) is closed, not "started"."""
    if table.status not in ("lobby", "running"):
        raise TableError("table_closed")


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
    # The public log (read it as ``log``). A restored table keeps it as the JSON text its meta held, with the entries
    # added since, until ``log`` is first read (a render, a snapshot): 24 decoded events weigh ~9 KB, their text
    # ~2 KB, and decoding them was 3/4 of a meta's read.
    _log: deque[LogEntry] | None = field(default=None, repr=False)
    log_text: tuple[str, list[LogEntry]] | None = field(default=None, repr=False, compare=False)
    # Not None: restored, and not brought up to date yet (``bot.tables.restore``). Then ``state`` is None and
    # ``timeouts``, ``acted``, ``seen``, ``draws``, the fair dice's nonce and the log are the snapshot's; the row's
    # fields (ids, status, seats, options, locale, version, deadline) are current. The service loads a table
    # before it hands it out (``TableService.table``, ``by_id``, ``by_channel``).
    pending: Pending | None = field(default=None, repr=False, compare=False)
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
    # The head of the action log's hash chain (bot.games.chain): the last action's link; None for a table without
    # fair dice, a lobby, or a game started before the chain.
    chain: str | None = None
    start: str | None = None  # the start value the fair stream mixes in (None: a game without one)
    owner_seated: bool = False  # the bot's application owner holds a seat (marked in the record and the export)
    # The game's engine, looked up once: every move, view and render asks for it.
    engine: Engine[Any, Any, Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.engine = get_engine(self.game)

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def log(self) -> deque[LogEntry]:
        """The last ``LOG_EVENTS`` public events, oldest first (decoded here from ``log_text`` at the first read)."""
        log = self._log
        if log is None:
            log = self._log = deque(maxlen=LOG_EVENTS)
            if self.log_text is not None:
                text, added = self.log_text
                self.log_text = None
                log.extend(map(tuple, loads(text)))
                log.extend(added)
            _note_decoded(self, log)
        return log

    @property
    def decoded_log(self) -> deque[LogEntry] | None:
        """The log if it is decoded now, else None (reading it does not decode it)."""
        return self._log

    def compact(self) -> bool:
        """Put an idle table's log back the way start-up leaves it, as JSON text (decoded again at its next read),
        and drop its render cache (which holds the log's entries and their lines: the next render draws them anew).
        False when there was nothing to do (the log not decoded).

        Nothing a reader sees changes: the log reads back as equal entries, as after a restart. ``_note_decoded``
        calls it for the table whose log was decoded longest ago, once that table is idle."""
        log = self._log
        if log is None:
            return False
        self.log_text = (dumps(list(log)), [])  # first: a log that does not encode stays as it is
        self._log = None
        self.render_cache = None
        return True

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.id == user_id:
                return index
        return None

    def add_log(self, entries: list[LogEntry]) -> None:
        text = self.log_text
        if text is not None and len(text[1]) + len(entries) <= LOG_EVENTS:
            text[1].extend(entries)
        else:
            self.log.extend(entries)

    def meta(self, extra: Sequence[LogEntry] = (), acted: dict[int, int] | None = None) -> str:
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

    def load_meta(self, meta: dict[str, Any], log_text: str | None = None) -> None:
        """The snapshot's bookkeeping: timeouts, locale, the double-click guard (``acted``), the recent interaction
        ids (``seen``; none kept when there were none). ``log_text``: the log split off by ``split_meta``, kept as
        text until it is read."""
        self.timeouts = list(meta.get("timeouts", []))
        if log_text is not None:
            self.log_text = (log_text, [])
        else:
            self.add_log([(kind, data) for kind, data in meta.get("log", [])])
        self.locale = meta.get("locale", "en")
        self.locale_chosen = bool(meta.get("chosen"))
        seen = meta.get("seen")
        if seen:
            self.seen.extend(seen)
        self.acted.update((user_id, version) for user_id, version in meta.get("acted", []))


# The tables whose log was decoded, oldest decode first, each with its log then and its version then (or at its last
# look here). One process serves many tables: the memory of a table that was shown and left (after a restart, every
# table is shown once) goes back to what start-up gave it without a timer per table. Each decode looks at the
# oldest entry once there are more than IDLE_AFTER (two at most): stale (the table's log is another since) or closed,
# it is dropped; idle (the same version, nobody holding its lock), the table is compacted; else it goes to the back
# with its version now. A table's log is decoded once per use after an idle spell, so this costs no move anything.
_decoded: deque[tuple[Table, deque[LogEntry], int]] = deque()


def _note_decoded(table: Table, log: deque[LogEntry]) -> None:
    decoded = _decoded
    decoded.append((table, log, table.version))
    for _ in range(2):  # a bounded look per decode: the queue shrinks when tables idle, holds the busy ones
        if len(decoded) <= IDLE_AFTER:
            return
        oldest, its_log, version = decoded.popleft()
        if oldest.decoded_log is not its_log or oldest.status not in ("lobby", "running"):
            continue  # compacted since (a newer entry is further back), or closed: nothing to keep small
        if oldest.version == version and not oldest.lock.locked():
            try:
                oldest.compact()
            except (TypeError, ValueError):  # not JSON (a snapshot would refuse it too): left decoded, not this read's
                logger.exception("table %s: its log does not encode; left decoded", oldest.id)
        else:
            decoded.append((oldest, its_log, oldest.version))
