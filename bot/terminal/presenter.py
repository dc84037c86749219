"""The table service's Presenter for one person at a terminal: event lines and the table, for their seat only.

What the person sees is exactly what a Discord player sees: the public event lines, their own private events
(marked 🔒), and the table body rendered for their seat. Other seats' private events are never printed. The
table is redrawn before each of the person's prompts whenever it changed (a run of computer moves is coalesced
into one redraw, like the Discord presenter's coalesced edits) and once more at the end. A game whose render
module is missing or broken still shows: compact ``key=value`` lines of the viewer's own view.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Sequence
from typing import Any

from bot.games import Event
from bot.i18n import has, t
from bot.render import event_text, fill, game_module, private_text, seat_names, table_text
from bot.tables import Table
from bot.terminal.console import OutputFn, display_width, markdown, wrap


def compact(data: dict[str, Any], skip: Sequence[str] = ()) -> str:
    """``key=value`` pairs on one line, for views and events no render module describes yet."""
    parts = []
    for key, value in data.items():
        if key in skip:
            continue
        text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)
        parts.append(f"{key}={text}")
    return " ".join(parts)


def _render_missing(error: ImportError, game: str) -> bool:
    return isinstance(error, ModuleNotFoundError) and (error.name or "").startswith(f"bot.render.{game}")


class TerminalPresenter:
    """The Presenter protocol for one person at a terminal (``viewer`` is their seat).

    ``publish`` prints each public event line at once, and the viewer's own private events with a
    🔒; private events of other seats are dropped. The table body is marked dirty and drawn by
    :meth:`flush` (the game loop calls it before each prompt and at the end).
    """

    def __init__(self, write: OutputFn, viewer: int = 0, *, color: bool = False, width: int | None = None) -> None:
        self.write = write
        self.viewer = viewer
        self.color = color
        self.width = width or min(shutil.get_terminal_size((100, 24)).columns, 120)
        self.dirty = False
        self._table: Table | None = None
        self._warned: set[str] = set()

    # -- the Presenter protocol -----------------------------------------------------------

    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None:
        self._table = table
        for event in events:
            if event.to is None:
                line = self.event_line(table, event)
                if line:
                    self.say(line)
            elif event.to == self.viewer:
                line = self.event_line(table, event, private=True)
                if line:
                    self.say(t("terminal.private", table.locale, line=line))
            # anything else is another seat's secret: never shown
        if refresh and table.state is not None:
            self.dirty = True

    # -- drawing ----------------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        """One line of output; a line wider than the terminal is wrapped (plain, under a hanging indent)."""
        plain = markdown(text, False)
        if display_width(plain) <= self.width:
            self.write(markdown(text, self.color))
            return
        for line in wrap(plain, self.width):
            self.write(line)

    def event_line(self, table: Table, event: Event, private: bool = False) -> str | None:
        """The catalog's line for ``event``; a compact ``kind: key=value`` line if the catalog has none."""
        names = seat_names(table)
        try:
            if private:
                text = private_text(table, event, table.locale)
            else:
                text = event_text(table.game, event.kind, event.data, names, table.locale)
        except ImportError as error:
            if not _render_missing(error, table.game):
                raise
            text = self._catalog_line(table, event, names)
        if text:
            return text
        if self._has_template(table, event):
            return None  # an empty template: the log deliberately skips this event
        return f"{event.kind}: {compact(fill(event.data, names))}".rstrip(": ")

    @staticmethod
    def _keys(table: Table, event: Event) -> list[str]:
        kinds = [event.kind]
        try:
            module = game_module(table.game)
            if hasattr(module, "event_key"):
                kinds.insert(0, module.event_key(event.kind, event.data))
        except ImportError:
            pass
        return [key for kind in kinds for key in (f"{table.game}.event.{kind}", f"event.{kind}")]

    def _has_template(self, table: Table, event: Event) -> bool:
        return any(has(key, table.locale) for key in self._keys(table, event))

    def _catalog_line(self, table: Table, event: Event, names: list[str]) -> str | None:
        for key in self._keys(table, event):
            if has(key, table.locale):
                return t(key, table.locale, **fill(event.data, names)) or None
        return None

    def flush(self, table: Table | None = None, force: bool = False) -> None:
        """Draw the table for the viewer if it changed since the last drawing (or ``force``)."""
        table = table or self._table
        if table is None or table.state is None or not (self.dirty or force):
            return
        self.dirty = False
        for line in self.table_lines(table):
            self.say(line)

    def table_lines(self, table: Table) -> list[str]:
        locale = table.locale
        try:
            text = table_text(table, locale, viewer=self.viewer)
            title, body = text.title, text.body
        except Exception as error:  # noqa: BLE001 - a render module in progress must not end the game
            title = t(
                "table.title", locale, game=t(f"game.{table.game}", locale), status=t(f"status.{table.status}", locale)
            )
            if not (isinstance(error, ImportError) and _render_missing(error, table.game)):
                note = t(
                    "terminal.render_failed",
                    locale,
                    game=table.game,
                    error_type=type(error).__name__,
                    error=error,
                )
                if note not in self._warned:
                    self._warned.add(note)
                    title += "\n" + note
            body = self.raw_view(table)
        rule = "─" * max(0, min(self.width, 60) - len(title) - 4)
        return ["", f"── {title} {rule}", *body, ""]

    def raw_view(self, table: Table) -> list[str]:
        """The viewer's own view, compactly (never anyone else's: the engine strips their secrets)."""
        view = table.engine.view(table.state, self.viewer)
        names = seat_names(table)
        seats = ", ".join(t("terminal.seat", table.locale, number=i + 1, name=n) for i, n in enumerate(names))
        lines = [t("terminal.raw_players", table.locale, players=seats)]
        text = compact(view, skip=("options", "legal", "game", "you"))
        lines += textwrap.wrap(text, self.width, break_on_hyphens=False) or [""]
        return lines
