"""The table message and its controls, built in one place: the Components V2 layout (``table_message``: a container
per message, a text block per seat, the log, the controls as action rows), the restart-proof controls (their
custom_id names the table and the action, nothing lives in memory), and the same design for private replies, DMs
and the end of a game (``text_message``). Die faces on buttons and options are the bot's application emojis where
uploaded (``bot.render.faces``), else the label's Unicode face stays.

The controls are discord.py ``DynamicItem``s (their templates are the custom ids below), but nothing is answered
through them: a click is answered by the table surface's one entry point (``cogs/tables.py: Tables.on_interaction``),
which also sees the clicks discord.py's item dispatch drops (a control the message no longer has). So their
``callback`` is the base one, which does nothing, and ``from_custom_id`` builds a placeholder without parsing.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord

from bot.games.parsing import clip, parse_int
from bot.i18n import SURFACE, generation, has, t
from bot.render import Control, Menu, controls, faces, seat_names, table_text
from bot.tables import TableError
from cogs.utils import options_form
from cogs.utils.wire import Prebuilt

if TYPE_CHECKING:
    from bot.tables import Table

# The text of a game action or lobby verb in a custom_id or a select value: ASCII words joined by colons
# (``roll``, ``bid:3:4``, ``kick:-1``). Anything else (``bid:²:5``) was not drawn by us.
ACTION_TEXT = re.compile(r"[A-Za-z0-9_-]+(?::-?[A-Za-z0-9_]+)*")
MAX_ACTION = 100  # Discord's limit for a custom_id and a select option's value
MAX_CHOICES = 25  # Discord's limit for a select's options and for autocomplete answers
MAX_BUTTONS = 20  # of a message's 25 components: room left for the menus, 🎲 My dice and the host's tools
MAX_LABEL = 100  # Discord's limit for a select option's label

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
COLOURS = {"lobby": 0x5865F2, "running": 0x57F287, "finished": 0xFEE75C, "cancelled": 0x99AAB5}
V2_COMPONENTS, V2_TEXT = 40, 4000  # Discord's limits for a Components V2 message: components in all, text in all
log_cut = logging.getLogger(__name__)


def face_emoji(key: str | None) -> discord.PartialEmoji | None:
    """A die face's application emoji for a button or select option, or None where not uploaded."""
    found = faces.emoji(key) if key else None
    return discord.PartialEmoji(name=found[0], id=found[1]) if found else None


def button_label(item: discord.ui.Item[Any]) -> str:
    """A clicked button's label ("" for any other item: ``DynamicItem.from_custom_id`` is typed with any item)."""
    return (item.label or "") if isinstance(item, discord.ui.Button) else ""


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dt:[\s\S]*"):
    """``dt:<table id>:<version>:<action>``: a lobby verb, ``me``, or an encoded game action.

    The version is the table's when the button was drawn, so a double click applies once.
    """

    def __init__(
        self,
        table_id: int,
        version: int,
        action: str,
        label: str = "",
        style: str = "secondary",
        face: str | None = None,
    ) -> None:
        custom_id = f"dt:{table_id}:{version}:{action}"
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or action, style=STYLES[style], custom_id=custom_id, emoji=face_emoji(face)
        )
        super().__init__(button)
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(0, 0, "me", button_label(item))  # a placeholder: Tables.on_interaction parses and answers


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ds:[\s\S]*"):
    """``ds:<table id>:<version>:<name>``; each option's value is an encoded game action."""

    def __init__(
        self,
        table_id: int,
        version: int,
        name: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ds:{table_id}:{version}:{name}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableSelect:
        return cls(0, 0, "menu")  # a placeholder: Tables.on_interaction parses and answers


DM_RETRY = r"dm:(?P<table>[0-9]{1,20})"  # DmRetryButton's custom id


class DmRetryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DM_RETRY):
    """``dm:<table id>`` on the 🎲 My dice reply of a player marked "DMs closed": retry the DM now."""

    def __init__(self, table_id: int, label: str = "") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or "DM", style=discord.ButtonStyle.secondary, custom_id=f"dm:{table_id}"
        )
        super().__init__(button)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmRetryButton:
        return cls(int(match["table"]), button_label(item))  # a placeholder: Tables.on_interaction answers


def with_dm_retry(view: discord.ui.View | None, table_id: int, locale: str) -> discord.ui.View:
    view = view or discord.ui.View(timeout=None)
    try:
        view.add_item(DmRetryButton(table_id, t("ui.dm_retry", locale)))
    except ValueError:
        pass  # the game's own controls fill the reply; 🎲 My dice still shows everything
    return view


def add_controls(view: discord.ui.View, table: Table, items: Sequence[Control | Menu], locale: str) -> discord.ui.View:
    """The one way a game's controls become Discord components: a button per Control (at most MAX_BUTTONS),
    a select per Menu with options (at most MAX_CHOICES); labels are catalog keys or text already rendered."""
    buttons = 0
    for control in items:
        if isinstance(control, Menu):
            options = list(
                _select_options(control.options, control.faces, locale, SURFACE.get(), generation(), faces.generation())
            )
            if options:
                placeholder = t(control.placeholder, locale)
                view.add_item(TableSelect(table.id, table.version, control.name, options, placeholder))
        elif buttons < MAX_BUTTONS:
            label = t(control.label, locale)
            view.add_item(TableButton(table.id, table.version, control.action, label, control.style, control.face))
            buttons += 1
    return view


@lru_cache(maxsize=256)  # a menu's 25 options weigh ~7 KiB
def _select_options(
    options: tuple[tuple[str, str], ...],
    keys: tuple[str | None, ...],
    locale: str,
    surface: str | None,
    texts: int,
    drawn: int,
) -> tuple[discord.SelectOption, ...]:
    """A menu's options as Discord's, made once per menu and locale. Shared between views: nothing changes a
    SelectOption once sent. ``keys``: each option's die face, if any. ``surface``, ``texts`` (``i18n.generation()``:
    it changes whenever the catalog's texts may have) and ``drawn`` (``faces.generation()``: the uploaded faces)
    are part of the key only."""
    return tuple(
        [
            select_option(label, action, keys[i] if i < len(keys) else None, locale, surface, texts, drawn)
            for i, (label, action) in enumerate(options[:MAX_CHOICES])
        ]
    )


@lru_cache(maxsize=4096)  # ~300 bytes each
def select_option(
    label: str, action: str, face: str | None, locale: str, surface: str | None, texts: int, drawn: int
) -> discord.SelectOption:
    """One option, made once: a Liar's Dice table's menus shift by a bid or two from move to move, so most of a new
    menu's options (~3 µs and two catalog lookups each) were in the last one. The label is a catalog key (the
    lobby's levels) or text the renderer already wrote (a bid). Keyed as ``_select_options``."""
    text = (t(label, locale) if has(label, locale) else label)[:MAX_LABEL]
    return discord.SelectOption(label=text, value=action, emoji=face_emoji(face))


def table_message(table: Table, locale: str, *, with_controls: bool = True, note: str | None = None) -> Prebuilt:
    """The whole table message, ready to send: its Components V2 layout, built as Discord's JSON
    (``table_components``; tests/test_wire_golden.py holds the two equal)."""
    return Prebuilt(table_components(table, locale, with_controls=with_controls, note=note))


def fit(
    contents: list[str],
    seat_blocks: tuple[int, int] | None,
    controls: int,
    log: list[str],
    small: str,
    note: str | None,
    log_title: str,
) -> tuple[tuple[int, int] | None, list[str], str]:
    """Discord's limits for a V2 layout of blocks whose texts are ``contents`` (both builders, ``Blocks`` and
    ``PlainBlocks``, lay out by it): the seat blocks to join into one text block when the components would pass
    V2_COMPONENTS (else None), the log lines that fit V2_TEXT (the oldest left out), and the log's title line."""
    # the container, the log and its separator, the small line, a note above, the controls
    fixed = 1 + (2 if log else 0) + (1 if small else 0) + (1 if note else 0) + controls
    joined = seat_blocks if fixed + len(contents) > V2_COMPONENTS else None
    if joined is not None:
        first, end = joined
        contents = [*contents[:first], "\n".join(contents[first:end]), *contents[end:]]
    size = sum(len(content) for content in contents) + len(note or "")
    size += len(small) + 3 * (small.count("\n") + 1)
    title = f"-# {log_title}\n" if log_title else ""
    log = list(log)
    while log and size + len(title) + len("\n".join(log)) > V2_TEXT:
        log.pop(0)
        log_cut.warning("a V2 message ran past %s characters: its oldest log line was left out", V2_TEXT)
    return joined, log, title


class Blocks:
    """A V2 message being laid out: text blocks and separators in order, then ``layout`` puts them, the log, the
    small line and the action rows into one container within Discord's limits (40 components, 4,000 characters
    of text). tests/test_message_limits.py checks that the longest realistic states fit as drawn; were one not to,
    the seats share one block before anything is cut, and only then the oldest log lines go (logged)."""

    def __init__(self) -> None:
        self.items: list[discord.ui.Item[Any]] = []
        self.seat_blocks: tuple[int, int] | None = None  # where the seats' blocks are among the items

    def text(self, content: str) -> None:
        if content:
            self.items.append(discord.ui.TextDisplay(content))

    def separator(self) -> None:
        self.items.append(discord.ui.Separator())

    def seats(self, seats: Sequence[str]) -> None:
        first = len(self.items)
        for seat in seats:
            self.text(seat)
        self.seat_blocks = (first, len(self.items))

    def layout(
        self,
        accent: int,
        *,
        log: list[str] | None = None,
        small: str = "",
        rows: Sequence[discord.ui.ActionRow[Any]] = (),
        log_title: str = "",
        note: str | None = None,
    ) -> discord.ui.LayoutView:
        items = list(self.items)
        contents = [str(getattr(item, "content", "")) for item in items]
        controls = sum(1 + len(row.children) for row in rows)
        joined, log, title = fit(contents, self.seat_blocks, controls, log or [], small, note, log_title)
        if joined is not None:
            first, end = joined
            items[first:end] = [discord.ui.TextDisplay("\n".join(contents[first:end]))]
        container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=accent)
        for item in items:
            container.add_item(item)
        if log:
            container.add_item(discord.ui.Separator(visible=False))
            container.add_item(discord.ui.TextDisplay(title + "\n".join(log)))
        if small:  # Discord's small print ("-# ") holds for one line: each line gets it
            container.add_item(discord.ui.TextDisplay("\n".join(f"-# {line}" for line in small.split("\n") if line)))
        for row in rows:
            container.add_item(row)
        view = discord.ui.LayoutView(timeout=None)
        if note:
            view.add_item(discord.ui.TextDisplay(note))
        view.add_item(container)
        return view


def text_message(
    lines: Sequence[str], accent: int | None = None, controls: discord.ui.View | None = None
) -> discord.ui.LayoutView:
    """A private reply, a DM, the end of a game: the same container design with the text and any controls."""
    blocks = Blocks()
    blocks.text(clip("\n".join(lines).strip("\n"), V2_TEXT - 1))  # tests/test_message_limits.py: never cut in practice
    return blocks.layout(COLOURS["running"] if accent is None else accent, rows=rows_of(controls))


def rows_of(view: discord.ui.View | None) -> list[discord.ui.ActionRow[Any]]:
    """A classic view's items (a game's private controls) as V2 action rows: each select on its own row, buttons
    five to a row, in their order."""
    rows: list[discord.ui.ActionRow[Any]] = []
    buttons: discord.ui.ActionRow[Any] | None = None
    for item in list(view.children) if view is not None else []:
        if item.width >= 5:
            row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            row.add_item(item)
            rows.append(row)
            buttons = None
            continue
        if buttons is None or len(buttons.children) >= 5:
            buttons = discord.ui.ActionRow()
            rows.append(buttons)
        buttons.add_item(item)
    return rows


def close_reason(table: Table) -> str:
    for kind, data in reversed(table.log):
        if kind == "closed":
            return str(data.get("reason", "cancelled"))
    return "cancelled"


def controls_view(table: Table, items: Sequence[Control | Menu], locale: str) -> discord.ui.View | None:
    """A private reply's controls (🎲 My dice), or None when there are none."""
    view = add_controls(discord.ui.View(timeout=None), table, items, locale)
    return view if view.children else None


def table_rows(table: Table, locale: str) -> list[discord.ui.ActionRow[Any]]:
    """The table message's controls as action rows: none once the table is over."""
    if table.status not in ("lobby", "running"):
        return []
    view = add_controls(discord.ui.View(timeout=None), table, controls(table), locale)
    if table.status == "lobby":
        view.add_item(options_control(table, locale))  # beside the lobby's buttons (a button) or below (a select)
    if table.status == "lobby" and (tools := host_tools(table, locale)) is not None:
        view.add_item(tools)
    if table.status == "running":
        view.add_item(TableButton(table.id, table.version, "me", t("ui.my_dice", locale), face="hidden"))
    return rows_of(view)


def options_control(table: Table, locale: str) -> TableButton | TableSelect:
    """The lobby's ⚙ Options (anyone may click it; only the host or a server manager gets the form): a button that
    opens the form's one page, or a select of its pages (``options:<page>``), each opening that page's modal."""
    pages = options_form.pages(table)
    if len(pages) == 1:
        return TableButton(table.id, table.version, f"{options_form.ACTION}:1", t("form.button", locale))
    action = options_form.ACTION
    choices = [
        discord.SelectOption(label=options_form.page_label(table, page, locale), value=f"{action}:{page.number}")
        for page in pages[:MAX_CHOICES]
    ]
    return TableSelect(table.id, table.version, options_form.ACTION, choices, t("form.menu", locale))


def host_tools(table: Table, locale: str) -> TableSelect | None:
    """The lobby's select for the host (anyone may open it; the service refuses others): remove a player or
    computer player, or hand the host role to another person. At most 10 seats: well under MAX_CHOICES."""
    others = [(s, name) for s, name in zip(table.seats, seat_names(table), strict=True) if s.id != table.host_id]
    options = [
        discord.SelectOption(label=t("ui.host_remove", locale, name=name)[:MAX_LABEL], value=f"kick:{s.id}")
        for s, name in others
    ]
    options += [
        discord.SelectOption(label=t("ui.host_make", locale, name=name)[:MAX_LABEL], value=f"host:{s.id}")
        for s, name in others
        if not s.is_bot
    ]
    if not options:
        return None
    return TableSelect(table.id, table.version, "host", options[:MAX_CHOICES], t("ui.host_tools", locale))


def parse_table_control(custom_id: str, values: list[str] | None) -> tuple[int, int, str] | None:
    """(table id, version, action) of one of our controls: ``dt:<table>:<version>:<action>`` or
    ``ds:<table>:<version>:<name>`` with exactly one chosen value. None for anyone else's custom_id;
    TableError("bad_control") for one of ours that we did not draw (non-ASCII digits, no value, …)."""
    kind, sep, rest = custom_id.partition(":")
    if kind not in ("dt", "ds") or not sep:
        return None
    table, _, rest = rest.partition(":")
    version, _, tail = rest.partition(":")
    table_id, drawn = parse_int(table), parse_int(version)
    if table_id is None or drawn is None:
        raise TableError("bad_control")
    if kind == "ds":
        if not (tail.isascii() and tail.isidentifier()) or not values or len(values) != 1:
            raise TableError("bad_control")
        tail = values[0]
    if not isinstance(tail, str) or len(tail) > MAX_ACTION or not ACTION_TEXT.fullmatch(tail):
        raise TableError("bad_control")
    return table_id, drawn, tail


# -- the same messages as Discord's JSON (issue 30) -----------------------------------------------------------------
# A click's answer was built as discord.py ``ui`` objects (a LayoutView, its Container, TextDisplays, Buttons,
# Selects, each SelectOption), then serialised with ``to_components``: 0.3–1 ms of a click's CPU. The functions below
# build the very same component payload as plain dicts (tests/test_wire_golden.py holds them equal to
# ``table_message(...).to_components()`` / ``text_message(...)`` for every game in several states and languages), with
# the same limits (a classic view's 5 rows and 25 items, a V2 message's 40 components) raising the same ValueError.
# ``cogs.utils.wire`` sends them through discord.py's own HTTP and webhook adapters. Nothing here may be changed
# once returned: a menu's options are shared between messages (cached, as ``_select_options`` are).

JSON = dict[str, Any]
STYLE_VALUES = {name: style.value for name, style in STYLES.items()}
TEXT, SEPARATOR, CONTAINER, ROW, BUTTON, SELECT = 10, 14, 17, 1, 2, 3
VIEW_ITEMS = 5 * 5  # a classic view (a private reply's controls): 5 rows of 5
PLACEHOLDER_OPTION: JSON = {"label": "-", "value": "-", "default": False}  # TableSelect's stand-in for no options


def emoji_json(key: str | None) -> JSON | None:
    """``face_emoji(key).to_dict()``: a die face's application emoji, or None where not uploaded."""
    found = faces.emoji(key) if key else None
    return {"id": found[1], "name": found[0]} if found else None


def button_json(
    table_id: int, version: int, action: str, label: str = "", style: str = "secondary", face: str | None = None
) -> JSON:
    """``TableButton(...)``'s component, as discord.py serialises it."""
    payload: JSON = {"type": BUTTON, "style": STYLE_VALUES[style], "disabled": False}
    if text := label or action:
        payload["label"] = text
    payload["custom_id"] = f"dt:{table_id}:{version}:{action}"
    if (emoji := emoji_json(face)) is not None:
        payload["emoji"] = emoji
    return payload


def select_json(
    table_id: int, version: int, name: str, options: Sequence[JSON] | None = None, placeholder: str | None = None
) -> JSON:
    """``TableSelect(...)``'s component, as discord.py serialises it (``options``: ``option_json``'s)."""
    payload: JSON = {
        "type": SELECT,
        "custom_id": f"ds:{table_id}:{version}:{name}",
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
    }
    if placeholder:
        payload["placeholder"] = placeholder
    payload["options"] = list(options) if options else [PLACEHOLDER_OPTION]
    return payload


def option_json(label: str, value: str, emoji: JSON | None = None) -> JSON:
    """``discord.SelectOption(label=…, value=…, emoji=…).to_dict()``."""
    payload: JSON = {"label": label, "value": value, "default": False}
    if emoji is not None:
        payload["emoji"] = emoji
    return payload


class Controls:
    """A classic view's items as JSON, placed as ``discord.ui.View.add_item`` places them: at most 25 items in 5 rows
    of width 5 (a button 1, a select 5); an item that does not fit raises ValueError as discord.py does."""

    def __init__(self) -> None:
        self.items: list[JSON] = []
        self.weights = [0, 0, 0, 0, 0]

    def add(self, item: JSON) -> None:
        if len(self.items) >= VIEW_ITEMS:
            raise ValueError("maximum number of children exceeded")
        width = 5 if item["type"] == SELECT else 1
        for index, weight in enumerate(self.weights):
            if weight + width <= 5:
                self.weights[index] += width
                break
        else:
            raise ValueError("could not find open space for item")
        self.items.append(item)

    def rows(self) -> list[JSON]:
        """``rows_of``: each select on its own row, buttons five to a row, in their order."""
        rows: list[JSON] = []
        buttons: list[JSON] | None = None
        for item in self.items:
            if item["type"] == SELECT:
                rows.append({"type": ROW, "components": [item]})
                buttons = None
                continue
            if buttons is None or len(buttons) >= 5:
                buttons = []
                rows.append({"type": ROW, "components": buttons})
            buttons.append(item)
        return rows


def add_controls_json(into: Controls, table: Table, items: Sequence[Control | Menu], locale: str) -> Controls:
    """``add_controls`` as JSON."""
    buttons = 0
    for control in items:
        if isinstance(control, Menu):
            options = _select_options_json(
                control.options, control.faces, locale, SURFACE.get(), generation(), faces.generation()
            )
            if options:
                placeholder = t(control.placeholder, locale)
                into.add(select_json(table.id, table.version, control.name, options, placeholder))
        elif buttons < MAX_BUTTONS:
            label = t(control.label, locale)
            into.add(button_json(table.id, table.version, control.action, label, control.style, control.face))
            buttons += 1
    return into


@lru_cache(maxsize=256)
def _select_options_json(
    options: tuple[tuple[str, str], ...],
    keys: tuple[str | None, ...],
    locale: str,
    surface: str | None,
    texts: int,
    drawn: int,
) -> tuple[JSON, ...]:
    """``_select_options`` as JSON, keyed alike (shared between messages: never changed once made)."""
    return tuple(
        [
            _option_json(label, action, keys[i] if i < len(keys) else None, locale, surface, texts, drawn)
            for i, (label, action) in enumerate(options[:MAX_CHOICES])
        ]
    )


@lru_cache(maxsize=4096)
def _option_json(
    label: str, action: str, face: str | None, locale: str, surface: str | None, texts: int, drawn: int
) -> JSON:
    text = (t(label, locale) if has(label, locale) else label)[:MAX_LABEL]
    return option_json(text, action, emoji_json(face))


def table_components(table: Table, locale: str, *, with_controls: bool = True, note: str | None = None) -> list[JSON]:
    """``table_message(...).to_components()``, built as JSON."""
    text = table_text(table, locale)
    blocks = PlainBlocks()
    blocks.text("\n".join([f"## {text.title}", *text.head]))
    blocks.separator()
    blocks.seats(text.seats)
    if any(text.foot):
        blocks.text("\n".join(text.foot).strip("\n"))
    if table.status == "cancelled":
        blocks.text(t(f"table.closed_{close_reason(table)}", locale))
    small = " · ".join([*text.fair, text.footer])
    rows = table_rows_json(table, locale) if with_controls else []
    title = t("table.log", locale)
    return blocks.layout(COLOURS.get(table.status, 0), log=text.log, small=small, rows=rows, log_title=title, note=note)


def table_rows_json(table: Table, locale: str) -> list[JSON]:
    """``table_rows`` as JSON."""
    if table.status not in ("lobby", "running"):
        return []
    into = add_controls_json(Controls(), table, controls(table), locale)
    if table.status == "lobby":
        into.add(options_control_json(table, locale))
    if table.status == "lobby" and (tools := host_tools_json(table, locale)) is not None:
        into.add(tools)
    if table.status == "running":
        into.add(button_json(table.id, table.version, "me", t("ui.my_dice", locale), face="hidden"))
    return into.rows()


def options_control_json(table: Table, locale: str) -> JSON:
    """``options_control`` as JSON."""
    pages = options_form.pages(table)
    if len(pages) == 1:
        return button_json(table.id, table.version, f"{options_form.ACTION}:1", t("form.button", locale))
    action = options_form.ACTION
    choices = [
        option_json(options_form.page_label(table, page, locale), f"{action}:{page.number}")
        for page in pages[:MAX_CHOICES]
    ]
    return select_json(table.id, table.version, options_form.ACTION, choices, t("form.menu", locale))


def host_tools_json(table: Table, locale: str) -> JSON | None:
    """``host_tools`` as JSON."""
    others = [(s, name) for s, name in zip(table.seats, seat_names(table), strict=True) if s.id != table.host_id]
    options = [option_json(t("ui.host_remove", locale, name=name)[:MAX_LABEL], f"kick:{s.id}") for s, name in others]
    options += [
        option_json(t("ui.host_make", locale, name=name)[:MAX_LABEL], f"host:{s.id}")
        for s, name in others
        if not s.is_bot
    ]
    if not options:
        return None
    return select_json(table.id, table.version, "host", options[:MAX_CHOICES], t("ui.host_tools", locale))


class PlainBlocks:
    """``Blocks`` as JSON: the same layout, the same limits, the same cuts (logged alike)."""

    def __init__(self) -> None:
        self.items: list[JSON] = []
        self.seat_blocks: tuple[int, int] | None = None

    def text(self, content: str) -> None:
        if content:
            self.items.append({"type": TEXT, "content": content})

    def separator(self) -> None:
        self.items.append({"type": SEPARATOR, "divider": True, "spacing": 1})

    def seats(self, seats: Sequence[str]) -> None:
        first = len(self.items)
        for seat in seats:
            self.text(seat)
        self.seat_blocks = (first, len(self.items))

    def layout(
        self,
        accent: int,
        *,
        log: list[str] | None = None,
        small: str = "",
        rows: Sequence[JSON] = (),
        log_title: str = "",
        note: str | None = None,
    ) -> list[JSON]:
        items = list(self.items)
        contents = [str(item.get("content", "")) for item in items]
        controls = sum(1 + len(row["components"]) for row in rows)
        joined, log, title = fit(contents, self.seat_blocks, controls, log or [], small, note, log_title)
        if joined is not None:
            first, end = joined
            items[first:end] = [{"type": TEXT, "content": "\n".join(contents[first:end])}]
        inner = items
        if log:
            inner.append({"type": SEPARATOR, "divider": False, "spacing": 1})
            inner.append({"type": TEXT, "content": title + "\n".join(log)})
        if small:
            inner.append({"type": TEXT, "content": "\n".join(f"-# {line}" for line in small.split("\n") if line)})
        inner.extend(rows)
        total = 1 + len(inner) + sum(len(row["components"]) for row in rows) + (1 if note else 0)
        if total > V2_COMPONENTS:
            raise ValueError("maximum number of children exceeded (40)")
        container: JSON = {"type": CONTAINER, "accent_color": accent or None, "spoiler": False, "components": inner}
        return [{"type": TEXT, "content": note}, container] if note else [container]


def text_view(lines: Sequence[str], accent: int | None = None, rows: Sequence[JSON] = ()) -> Prebuilt:
    """``text_message`` ready to send, built as JSON (a DM, a private reply; ``rows``: its controls)."""
    return Prebuilt(text_components(lines, accent, rows))


def text_components(lines: Sequence[str], accent: int | None = None, rows: Sequence[JSON] = ()) -> list[JSON]:
    """``text_message(lines, accent, controls).to_components()`` as JSON (``rows``: the controls' rows)."""
    blocks = PlainBlocks()
    blocks.text(clip("\n".join(lines).strip("\n"), V2_TEXT - 1))
    return blocks.layout(COLOURS["running"] if accent is None else accent, rows=rows)


def controls_rows(table: Table, items: Sequence[Control | Menu], locale: str) -> list[JSON]:
    """``rows_of(controls_view(...))`` as JSON: a private reply's controls (empty when there are none)."""
    return add_controls_json(Controls(), table, items, locale).rows()


def with_dm_retry_json(into: Controls, table_id: int, locale: str) -> Controls:
    """``with_dm_retry`` as JSON."""
    label = t("ui.dm_retry", locale) or "DM"
    with contextlib.suppress(ValueError):  # the game's own controls fill the reply; 🎲 My dice still shows everything
        into.add(
            {
                "type": BUTTON,
                "style": STYLE_VALUES["secondary"],
                "disabled": False,
                "label": label,
                "custom_id": f"dm:{table_id}",
            }
        )
    return into
