"""A rematch: a new lobby from a finished game, opened by one of its players in one click (🔁 on the end message).

The finished game is read from the store by its id (``bot.store.repo.played_game``), so a rematch needs nothing in
memory and works after a restart. The new lobby has the finished game's options as stored, its language (and whether
its host chose it), its computer players re-seated (same names and levels, ids -1, -2, … as the lobby gives them);
the player who clicked hosts it, and the other people of that game are invited: the lobby's log opens with the
rematch and one line per invited person (a mention), and they join with the table's Join button as usual (their
click is their part of the fair dice). The table opens through ``TableService.create``, which draws a fresh fair-dice
commitment and refuses a channel that already has an open table (``table_exists``: a second click, or two at once,
applies once).

"Too old": a game that finished more than ``REMATCH_HOURS`` ago is refused. The other rule one could use (a newer
game was opened in the channel since) is not applied: a rematch lobby that expired unstarted, or was cancelled,
would then leave nobody a way to try again, and a newer table still open is refused by ``table_exists`` anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bot.games import Event
from bot.store import Store, repo
from bot.store.repo import PlayedGame
from bot.tables.model import Seat, Table, TableError

REMATCH_HOURS = 24  # a finished game may be played again for this long
INVITED = "rematch_invited"  # the log event of each invited person: {"id": user id, "name": their mention}


def check_rematch(game: PlayedGame | None, game_id: int, user_id: int, now: float, channel_id: int | None) -> None:
    """``user_id`` may open a rematch of ``game`` (the row of ``game_id``) at ``now``, from ``channel_id`` (None:
    not checked); else the refusal. A stranger learns nothing more about the game than that it is not theirs."""
    if game is None:
        raise TableError("rematch_unknown", id=game_id)
    if channel_id is not None and channel_id != game.channel_id:
        raise TableError("stale_button")  # a custom id Discord did not send from that game's end message
    if not any(seat["id"] == user_id and seat.get("level") is None for seat in game.seats):
        raise TableError("rematch_stranger", id=game.id)
    if game.status != "finished":  # cancelled (no end message), or still open
        raise TableError("rematch_not_finished", id=game.id)
    if now - game.finished_at > REMATCH_HOURS * 3600:
        raise TableError("rematch_too_old", id=game.id, count=REMATCH_HOURS, game=game.game)


def rematch_seats(game: PlayedGame, host: Seat) -> tuple[list[Seat], list[int]]:
    """The new lobby's guests (the computer players, as ``lobby.computer_seat`` numbers them) and the people to
    invite: everyone else who sat at the game, in seat order (an anonymised seat, a deleted member's, is nobody)."""
    computers = [seat for seat in game.seats if seat.get("level") is not None]
    guests = [Seat(-(n + 1), seat["name"], seat["level"]) for n, seat in enumerate(computers)]
    people = [seat["id"] for seat in game.seats if seat.get("level") is None and seat["id"] > 0]
    return guests, [user_id for user_id in dict.fromkeys(people) if user_id != host.id]


def rematch_events(game: PlayedGame, invited: Sequence[int]) -> list[Event]:
    """What the new lobby's log opens with: the rematch, then each invited person. Ids are kept as numbers beside
    the mention, so a member's data deletion (``bot.store.privacy``) finds and replaces both."""
    return [
        Event("rematch", {"of": game.id}),
        *(Event("rematch_invited", {"id": user_id, "name": f"<@{user_id}>"}) for user_id in invited),
    ]


def invited(table: Table) -> list[int]:
    """The people a rematch lobby's log invites (the ones its message may ping); none for any other table."""
    return [data["id"] for kind, data in table.log if kind == INVITED and isinstance(data.get("id"), int)]


class RematchCommands:
    """The rematch half of the table service's API (``TableService`` is one)."""

    store: Store
    clock: Callable[[], float]

    if TYPE_CHECKING:  # TableService's (its signature is checked against this one)

        async def create(
            self,
            guild_id: int,
            channel_id: int,
            host: Seat,
            game: str,
            options: dict[str, Any] | None = None,
            locale: str = "en",
            locale_chosen: bool = False,
            guests: Sequence[Seat] = (),
            logged: Sequence[Event] = (),
        ) -> Table: ...

    async def rematch(self, game_id: int, user: Seat, channel_id: int | None = None) -> Table:
        """A new lobby like the finished game ``game_id``, hosted by ``user`` (one of its players; ``user.entropy``
        their part of the client seed, as for a create), in that game's channel (``channel_id``: where the click
        came from, checked against it). Refusals: ``rematch_unknown``, ``stale_button``, ``rematch_stranger``,
        ``rematch_not_finished``, ``rematch_too_old``, and create's (``table_exists`` …), with nothing changed."""
        game = await repo.played_game(self.store, game_id)
        check_rematch(game, game_id, user.id, self.clock(), channel_id)
        assert game is not None  # check_rematch refuses an unknown game
        guests, people = rematch_seats(game, user)
        return await self.create(
            game.guild_id,
            game.channel_id,
            user,
            game.game,
            game.options,
            locale=game.locale,
            locale_chosen=game.locale_chosen,
            guests=guests,
            logged=rematch_events(game, people),
        )
