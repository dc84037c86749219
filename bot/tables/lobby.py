"""The lobby's rules: who may join, leave, be removed or made host, and what the lobby looks like after. Pure
checks and changes of a table's seats; the service (``bot.tables.service``) takes the lock, commits and publishes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import Engine, Event
from bot.tables.model import Seat, Table, TableError, require_open
from bot.tables.settings import validate_options

ENTROPY_MAX = 100  # characters of a player's ``seed:`` text


def new_row(table: Table, now: float, fair: str | None) -> dict[str, Any]:
    """The games row of a lobby opening (``bot.store.repo.insert_game``); ``fair``: its dice's games.fair, if fair."""
    # the log a lobby opens with (a rematch's invitation, ``create(logged=...)``) is stored with it: a restart keeps it
    meta: dict[str, Any] = {"timeouts": [], "log": [list(entry) for entry in table.log], "locale": table.locale}
    if table.locale_chosen:
        meta["chosen"] = True
    return {
        "guild_id": table.guild_id,
        "channel_id": table.channel_id,
        "game": table.game,
        "status": "lobby",
        "host_id": table.host_id,
        "options": table.options,
        "seats": [seat.to_json() for seat in table.seats],
        "meta": meta,
        "now": now,
        "fair": fair,
    }


def require_lobby(table: Table) -> None:
    require_open(table)
    if table.status != "lobby":
        raise TableError("not_in_lobby")


def with_entropy(seat: Seat) -> Seat:
    """The seat with its ``seed:`` text checked (stripped; blank is none); a refusal names the limit."""
    if seat.entropy is None:
        return seat
    entropy = seat.entropy.strip()
    if len(entropy) > ENTROPY_MAX:
        raise TableError("seed_too_long", max=ENTROPY_MAX)
    return Seat(seat.id, seat.name, seat.level, entropy or None)


def opening_seats(
    engine: Engine[Any, Any, Any], options: dict[str, Any], host: Seat, guests: Sequence[Seat]
) -> list[Seat]:
    """A new lobby's seats: the host, then ``guests`` (a rematch's computer players), as many as the game seats."""
    _, most = engine.player_range(engine.options(options))
    seats = [host, *(seat for seat in guests if seat.id != host.id)]
    if len(seats) > most:
        raise TableError("table_full", max=most)
    return seats


def options_over(table: Table, before: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``options`` (a form's text) over ``before``, parsed and checked as a create checks them: what a save of
    ``options`` stores."""
    return validate_options(table.engine, {**before, **options}).to_dict()


def changed_options(table: Table, user_id: int, options: dict[str, Any], is_admin: bool) -> dict[str, Any] | None:
    """The lobby's options with ``options`` over them, as a create checks them, or None when nothing changes; a
    refusal for anyone but the host (or a server manager), outside the lobby, or for options the seated players
    do not fit."""
    require_lobby(table)
    if user_id != table.host_id and not is_admin:
        raise TableError("only_host_options")
    engine = table.engine
    chosen = validate_options(engine, {**table.options, **options})
    _, most = engine.player_range(chosen)
    if len(table.seats) > most:
        raise TableError("table_full", max=most)
    new = chosen.to_dict()
    return None if new == table.options else new


def check_join(table: Table, seat: Seat) -> None:
    """``seat`` may take a place in the lobby now; else the refusal."""
    require_lobby(table)
    if table.seat_of(seat.id) is not None:
        raise TableError("already_joined")
    _, most = table.engine.player_range(table.engine.options(table.options))
    if len(table.seats) >= most:
        raise TableError("table_full", max=most)


def computer_seat(table: Table, user_id: int, level: str, name: str) -> Seat:
    """The next computer player's seat (the host adds them; their ids are -1, -2, ...)."""
    if user_id != table.host_id:
        raise TableError("only_host")
    return Seat(-(sum(s.is_bot for s in table.seats) + 1), name, level)


def host_tool_target(table: Table, user_id: int, target_id: int, is_admin: bool, refusal: str) -> int:
    """The seat of ``target_id`` if ``user_id`` may use the host's tools on it now; else a refusal."""
    require_lobby(table)
    if user_id != table.host_id and not is_admin:
        raise TableError(refusal)
    target = table.seat_of(target_id)
    if target is None:
        raise TableError("target_not_seated")
    return target


def new_host(table: Table, user_id: int, target_id: int, is_admin: bool) -> Seat:
    """The person the host role goes to (the host's tool); else a refusal."""
    target = table.seats[host_tool_target(table, user_id, target_id, is_admin, "only_host_transfer")]
    if target.is_bot:
        raise TableError("host_to_computer")
    if target.id == table.host_id:
        raise TableError("already_host", name=target.name)
    return target


def without_seat(table: Table, seat: int, event: Event) -> tuple[list[Seat], int | None, list[Event]]:
    """The lobby's seats without ``seat``, its host then and the events to log: a leaving host hands the role to the
    next person in seat order. Host None: no person is left, and the lobby closes."""
    gone = table.seats[seat]
    seats = table.seats[:seat] + table.seats[seat + 1 :]
    if not [s for s in seats if not s.is_bot]:
        return seats, None, []
    events = [event]
    host_id = table.host_id
    if gone.id == table.host_id:
        heir = next(s for s in table.seats[seat + 1 :] + table.seats[:seat] if not s.is_bot)
        host_id = heir.id
        events.append(Event("new_host", {"name": heir.name}))
    return seats, host_id, events
