"""What the presenter shows besides the table message itself: the link to it, the end-of-game text, and the
records of a held table and a turn reminder (kept apart so ``presenter`` stays small)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.achievements import catalog_key
from bot.games import Outcome
from bot.i18n import t
from bot.render import over_lines, seat_names

if TYPE_CHECKING:
    from bot.tables import Table


def table_link(table: Table) -> str:
    """A link to the table message (or to its channel before the message exists), as Message.jump_url builds it."""
    link = f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"
    return f"{link}/{table.message_id}" if table.message_id else link


def final_text(table: Table, outcome: Outcome, locale: str, earned: Mapping[int, Sequence[str]] | None = None) -> str:
    """``🏁 Mia is over: 🏆 @bob won · @alice lost …`` best first; people as mentions, computer players by name.
    ``earned``: member -> the achievements this game earned them (``bot.store.achievements.of_game``), one line."""
    names = seat_names(table)
    results = []
    for group in outcome.ranking:
        for seat in group:
            who = names[seat] if table.seats[seat].is_bot else f"<@{table.seats[seat].id}>"
            results.append(t(f"table.final_{outcome.result(seat)}", locale, who=who))
    game = t(f"game.{table.game}", locale)
    text = t("table.final", locale, game=game, id=table.id, results=" · ".join(results), link=table_link(table))
    fair = table.fair
    if fair is not None and table.status == "finished":  # the seed, revealed in the channel with the result
        text += "\n" + t("fair.final", locale, seed=fair.reveal(), id=table.id)
        text += "".join("\n" + line for line in over_lines(table, locale))  # the chain's head; the owner's mark
    if line := achievements_line(table, earned or {}, locale):
        text += "\n" + line
    return text


def achievements_line(table: Table, earned: Mapping[int, Sequence[str]], locale: str) -> str:
    """``🏅 New achievements: @bob Big bank, First win · @alice …`` in seat order; "" when nobody earned one."""
    parts = [
        t(
            "achievements.end_player",
            locale,
            who=f"<@{seat.id}>",
            names=", ".join(t(catalog_key(a), locale) for a in ids),
        )
        for seat in table.seats
        if not seat.is_bot and (ids := earned.get(seat.id))
    ]
    return t("achievements.end_line", locale, list=" · ".join(parts)) if parts else ""


@dataclass
class Hold:
    """A table held by an interaction that shows it itself; ``shown`` is the look of what it showed, if it did
    (``bot.surface.Shown``)."""

    table: Table
    shown: tuple[object, ...] | None = None
    message_id: int | None = None  # the table message when the hold began: a repost meanwhile makes ``shown`` moot


@dataclass
class Reminder:
    """A table's turn reminder in its channel: who, for which table version (turn), until when."""

    channel_id: int
    version: int
    user_ids: tuple[int, ...] = ()
    due: float = 0.0
    locale: str = "en"
    game: str = ""
    message_id: int | None = None  # None until posted
