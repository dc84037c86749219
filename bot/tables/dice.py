"""Tables' dice: where each table's come from, and every engine call's draws recorded for the action log.

By default each table gets its own provably fair dice (``FairDice.new`` as it opens: the commitment is public from
the lobby on, the seed revealed when the game is over). A factory gives each table what it returns (a FairDice is
fair and persisted, anything else is used as it is); a shared DiceSource (tests' SeededDice, ScriptedDice) serves
every table, and no seed is persisted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from bot.games import chain
from bot.games.dice import DiceSource, RecordingDice, SecureDice
from bot.games.fair import FairDice, client_seed_from
from bot.jsontext import dumps
from bot.store import repo
from bot.tables.model import Entry, Table

# Where each table's dice come from: called as a table opens (FairDice.new: a fresh secret seed per table).
DiceFactory = Callable[[], DiceSource]
R = TypeVar("R")


class TableDice:
    def __init__(self, dice: DiceSource | DiceFactory | None) -> None:
        """``dice``: None (fair dice per table), a factory, or one shared source (see the module's docstring)."""
        self.shared: DiceSource | None = None
        self.factory: DiceFactory | None = None
        if dice is None:
            self.factory = FairDice.new
        elif hasattr(dice, "roll"):  # a source: SeededDice, ScriptedDice, even one FairDice for every table
            self.shared = cast(DiceSource, dice)
        else:
            self.factory = dice
        self._recorder = RecordingDice(SecureDice())  # wraps the table's dice for each engine call (see draw)

    def new(self) -> tuple[DiceSource, FairDice | None]:
        """A new table's dice, and the same as its own fair dice if they are: the shared source (never fair), or a
        fresh one from the factory (a FairDice: a new secret seed, this table's alone)."""
        if self.shared is not None:
            return self.shared, None
        assert self.factory is not None
        dice = self.factory()
        return dice, dice if isinstance(dice, FairDice) else None

    def without_commitment(self) -> DiceSource:
        """Dice for a restored table that has no fair dice stored (a game started before fair dice, or a table of a
        shared source): the shared source, or the factory's if they are not fair, else secure dice. Nothing was
        committed for it, so no seed is made up: its draws cannot be verified."""
        dice, fair = self.new()
        return SecureDice() if fair is not None else dice

    @staticmethod
    def fair_json(fair: FairDice, started: bool = False, **fields: Any) -> str:
        """games.fair for a table's dice: the client seed and the start value only once the game started (they
        are fixed then); ``fields``: ``owner_seated``, and the chain's head at the end."""
        if not started:
            return repo.fair_json(fair.commitment, None, fair.reveal())
        return repo.fair_json(fair.commitment, fair.client_seed, fair.reveal(), start=fair.start, **fields)

    @classmethod
    def started_json(cls, table: Table, fair: FairDice, head: str | None = None) -> str:
        """games.fair of a started game: what the start fixed, and at the end (``head``) the chain's head."""
        ended = {} if head is None else {"chain": head}
        return cls.fair_json(fair, started=True, owner_seated=table.owner_seated, **ended)

    @staticmethod
    def fix_start(table: Table, start: str | None, owner_ids: frozenset[int]) -> None:
        """At the start: the client seed from everyone's entropy in seat order, then the start value, fixed into
        the table's fair dice; the chain begins at the commitment; whether an owner of the bot plays."""
        fair = table.fair
        if fair is not None:
            table.dice = table.fair = fair = fair.with_client_seed(
                client_seed_from([s.entry for s in table.seats]), start
            )
            table.chain, table.start = chain.genesis(fair.commitment), start
        table.owner_seated = any(not s.is_bot and s.id in owner_ids for s in table.seats)

    @staticmethod
    def links(table: Table, entries: list[Entry]) -> list[str | None]:
        """Each entry's link in the table's hash chain, after its head (all None for a table without a chain)."""
        head = table.chain
        if head is None:
            return [None] * len(entries)
        links: list[str | None] = []
        for seq, (seat, text, _, dice) in enumerate(entries, table.version + 1):
            head = chain.link(head, seq, seat, text, dice)
            links.append(head)
        return links

    def draw(self, table: Table, engine_call: Callable[..., R], *args: Any) -> tuple[R, str | None]:
        """``engine_call(*args, dice)`` with the table's dice recorded: (its result, the dice JSON or None).

        A call that raises (a refused move: engines check before they draw, but a refusal must never cost the
        stream a draw) rewinds fair dice to the draws committed, so the next move draws what verification expects.
        """
        recorder = self._recorder
        recorder.inner, recorder.calls = table.dice, []  # a refused call may have drawn: start clean
        try:
            result = engine_call(*args, recorder)
        except BaseException:
            self.rewind(table)
            raise
        calls = recorder.take()
        return result, dumps(calls) if calls else None

    @staticmethod
    def rewind(table: Table) -> None:
        """Fair dice back to the draws committed (the operation under way is not going to be)."""
        fair = table.fair
        if fair is not None:
            fair.nonce = table.draws
