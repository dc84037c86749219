"""The host's tools in the lobby: start the game, take a player out, hand the host role over, change the options.
Each takes the
table's lock, checks with the lobby's rules (``bot.tables.lobby``), commits through the service's ``_save_lobby``
(the start: ``_commit``) and publishes; a refusal changes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games import Event
from bot.tables import lobby
from bot.tables.model import Entry, Seat, Table, TableError

if TYPE_CHECKING:
    from bot.tables.dice import TableDice
    from bot.tables.port import Presenter


class HostCommands:
    """The host's half of the lobby API (``TableService`` is one)."""

    if TYPE_CHECKING:  # TableService's

        @property
        def presenter(self) -> Presenter: ...

        def table(self, channel_id: int) -> Table: ...

        async def _remove_seat(self, table: Table, seat: int, event: Event) -> None: ...

        dice: TableDice

        async def _commit(
            self, table: Table, state: Any, events: list[Event], entries: list[Entry], status: str = "running"
        ) -> None: ...

        async def _save_lobby(
            self,
            table: Table,
            seats: list[Seat],
            host_id: int | None = None,
            logged: list[Event] | None = None,
            options: dict[str, Any] | None = None,
        ) -> None: ...

    async def start_game(
        self, channel_id: int, user_id: int, start: str | None = None, owner_ids: frozenset[int] = frozenset()
    ) -> Table:
        """The host starts the game. ``start``: the start value the fair stream mixes in (the id Discord gave the
        start's interaction: nobody knew it before); ``owner_ids``: the bot's application owners, so that a game
        one of them plays is marked."""
        table = self.table(channel_id)
        async with table.lock:
            lobby.require_lobby(table)
            if user_id != table.host_id:
                raise TableError("only_host")
            engine = table.engine
            options = engine.options(table.options)
            fewest, _ = engine.player_range(options)
            if len(table.seats) < fewest:
                raise TableError("not_enough_players", min=fewest)
            self.dice.fix_start(table, start, owner_ids)
            (state, events), dice = self.dice.draw(table, engine.new_game, len(table.seats), options)
            table.timeouts = [0] * len(table.seats)
            await self._commit(table, state, events, [(None, "start", None, dice)], status="running")
        return table

    async def remove_player(self, channel_id: int, user_id: int, target_id: int, is_admin: bool = False) -> Seat:
        """The host (or a server manager) takes a person or computer player out of the lobby."""
        table = self.table(channel_id)
        async with table.lock:
            target = lobby.host_tool_target(table, user_id, target_id, is_admin, "only_host_remove")
            if target_id == user_id:
                raise TableError("remove_self")
            removed = table.seats[target]
            await self._remove_seat(table, target, Event("removed", {"name": removed.name}))
        return removed

    async def transfer_host(self, channel_id: int, user_id: int, target_id: int, is_admin: bool = False) -> Seat:
        """The host (or a server manager) hands the host role to another person in the lobby."""
        table = self.table(channel_id)
        async with table.lock:
            target = lobby.new_host(table, user_id, target_id, is_admin)
            event = Event("new_host", {"name": target.name})
            await self._save_lobby(table, table.seats, target.id, [event])
            self.presenter.publish(table, [event])
        return target

    async def set_options(
        self, channel_id: int, user_id: int, options: dict[str, Any], is_admin: bool = False
    ) -> Table:
        """The host (or a server manager) changes the lobby's options: ``options`` over the table's, validated as
        a create validates them (the same refusals, nothing changed on one). Unchanged options write nothing."""
        table = self.table(channel_id)
        async with table.lock:
            chosen = lobby.changed_options(table, user_id, options, is_admin)
            if chosen is not None:
                event = Event("options_changed", {"options": table.engine.options(chosen).changed()})
                await self._save_lobby(table, table.seats, logged=[event], options=chosen)
                self.presenter.publish(table, [event])
        return table
