"""Tournament pictures (issue 28): the standings table of a Swiss or round-robin, the bracket of a knockout, as PNGs.

Drawn like the /stats chart (``bot.render.chart``): the same opaque card and colours (read the same in Discord's
dark and light themes), the same font sizes (half of each is what a player reads when Discord shows the 800 px
image at 400 px), matplotlib's object API only (a fresh ``Figure`` with its own Agg canvas per picture, so workers
in ``asyncio.to_thread`` share nothing), imported inside the functions. Every word is the caller's, already taken
from the catalog (``TournamentText``); names that do not fit are shortened with an ellipsis, never cut by the frame.

Input is the engine's plain data (``bot.tournaments``): no store, no Discord.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.render.chart import BACKGROUND, DPI, FONT, GRID, TEXT, TITLE
from bot.tournaments import Entrant, Outcome, Plan, Round, Standing, rounds_total, standings, winners
from bot.tournaments.standings import bracket, first_line, seed_order, table_winner

WIDTH = 800  # pixels: the picture's width (a deep bracket grows wider, see COLUMN)
MARGIN = 16  # pixels of card around everything drawn
HEAD = 104  # pixels above the first row: the title, the status line
ROW = 40  # pixels per standings row
HEADER_ROW = 36  # pixels of the column headings
SMALL = 15  # points: column headings, tags (no-show, bye)
SLOT = 34  # pixels per name in a bracket box
GAP = 14  # pixels between two first-round boxes
GUTTER = 24  # pixels between two bracket columns (the connectors run there)
COLUMN = 170  # pixels: the narrowest bracket column (about 12 letters); below it the picture grows wider
ELLIPSIS = "…"
NAME_ROOM = 110  # pixels a tagged name keeps (about 8 letters) ...
TAGGED = 300  # pixels: ... widening its column up to this
_MEASURE = threading.local()

DIM = "#949ba4"  # losers, byes, withdrawn players: still readable on the card, clearly behind the rest
STRIPE = "#313338"  # every other row
BOX = "#383a40"  # a bracket box
WIN = "#23a55a"  # who advanced
MEDALS = ("#f0b232", "#c9ccd1", "#d6894a")  # ranks 1, 2, 3


@dataclass(frozen=True)
class TournamentText:
    """The picture's words, from the catalog in the reader's language."""

    title: str  # e.g. "Swiss · Liar's Dice"
    status: str  # e.g. "After round 2 of 3", "Final standings"
    rank: str  # column headings of the standings: "#"
    player: str  # "Player"
    points: str  # "Points"
    tiebreaks: tuple[str, ...]  # short headings, one per ``tiebreak_names(plan)``: ("Buchholz", "SB")
    rounds: tuple[str, ...] = ()  # a knockout's column headings, one per round: ("Round 1", "Semi-final", "Final")
    winner: str = ""  # the heading of the knockout's last column (the champion)
    bye: str = ""  # a tag: a bye
    no_show: str = ""  # a tag: did not show
    withdrawn: str = ""  # a tag: withdrawn or removed


@dataclass(frozen=True)
class Columns:
    """Where a standings table's columns are, in pixels from the left: (left, right) each."""

    rank: tuple[int, int]
    name: tuple[int, int]
    points: tuple[int, int]
    tiebreaks: tuple[tuple[int, int], ...]


def standings_columns(width: int, tiebreaks: int) -> Columns:
    """The standings table's columns for a picture ``width`` wide with ``tiebreaks`` tie-break columns: the
    numbers on the right at fixed widths, the name taking what is left."""
    right = width - MARGIN
    breaks: list[tuple[int, int]] = []
    for _ in range(tiebreaks):
        breaks.insert(0, (right - 120, right))
        right -= 120
    points = (right - 90, right)
    rank = (MARGIN, MARGIN + 56)
    return Columns(rank, (rank[1] + 12, points[0] - 12), points, tuple(breaks))


def standings_picture(
    plan: Plan,
    rows: Sequence[Standing],
    names: Mapping[int, str],
    *,
    text: TournamentText,
    locale: str = "en",
    width: int = WIDTH,
) -> bytes:
    """A PNG of ``rows`` (``bot.tournaments.standings``, best first): rank, name, points and the tie-breaks of
    ``plan`` (``text.tiebreaks``), a row each; withdrawn players dimmed and tagged. ``names``: player id -> display
    name (the id where missing). ``width`` in pixels; the height follows the rows. Blocking: call it through
    ``asyncio.to_thread``."""
    height = HEAD + HEADER_ROW + ROW * max(1, len(rows)) + MARGIN
    page = _Page(width, height)
    columns = standings_columns(width, len(rows[0].tiebreaks) if rows else len(text.tiebreaks))
    page.heading(text.title, text.status)
    number = decimals(locale)
    top = HEAD
    page.text(columns.rank[1], top + HEADER_ROW / 2, text.rank, SMALL, DIM, ha="right", fit=columns.rank)
    page.text(columns.name[0], top + HEADER_ROW / 2, text.player, SMALL, DIM, fit=columns.name)
    page.text(columns.points[1], top + HEADER_ROW / 2, text.points, SMALL, DIM, ha="right", fit=columns.points)
    for span, label in zip(columns.tiebreaks, text.tiebreaks, strict=False):
        page.text(span[1], top + HEADER_ROW / 2, label, SMALL, DIM, ha="right", fit=span)
    page.line(MARGIN, top + HEADER_ROW, width - MARGIN, top + HEADER_ROW, GRID)
    started = any(row.played or row.byes for row in rows)  # before round 1 everyone shares rank 1: no medals yet
    for index, row in enumerate(rows):
        y = top + HEADER_ROW + ROW * index
        if index % 2:
            page.box(MARGIN, y, width - 2 * MARGIN, ROW, STRIPE)
        middle = y + ROW / 2
        out = row.withdrawn
        colour = DIM if out else TEXT
        podium = started and row.rank <= len(MEDALS) and not out
        medal = MEDALS[row.rank - 1] if podium else colour
        page.text(columns.rank[1], middle, str(row.rank), FONT, medal, ha="right", bold=podium, fit=columns.rank)
        left, right = columns.name
        if out and text.withdrawn:
            tag = page.fitted(text.withdrawn, SMALL, right - left - 40)
            tag_width = page.width_of(tag, SMALL)
            page.text(right, middle, tag, SMALL, DIM, ha="right")
            right -= int(tag_width) + 12
        page.text(left, middle, names.get(row.player, str(row.player)), FONT, colour, fit=(left, right))
        page.text(columns.points[1], middle, number(row.points), FONT, colour, ha="right", bold=not out)
        for span, value in zip(columns.tiebreaks, row.tiebreaks, strict=False):
            page.text(span[1], middle, number(value), FONT, colour, ha="right", fit=span)
    return page.png()


@dataclass(frozen=True)
class _Slot:
    """One line of a bracket box: a name (or a tag alone), how it is drawn, and the tag after it."""

    name: str
    colour: str
    bold: bool = False
    tag: str = ""


def bracket_picture(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    names: Mapping[int, str],
    *,
    text: TournamentText,
    withdrawn: frozenset[int] = frozenset(),
) -> bytes:
    """A PNG of a knockout's bracket: a column per round (``text.rounds`` over them) and one for the winner, a box
    per table of ``plan.seats`` names; who advanced bright with a green connector, who lost dimmed, byes, no-shows
    and withdrawals tagged; rounds not yet played as empty boxes. Blocking: call it through ``asyncio.to_thread``."""
    levels = rounds_total(plan, len(entrants))
    seats = plan.seats
    seed = {p: i for i, p in enumerate(seed_order(entrants))}
    state = bracket(plan, entrants, rounds, outcomes, withdrawn)
    lines: list[tuple[int | None, ...]] = list(state.lines)
    if not rounds:
        lines = [tuple(first_line(plan, entrants))]
    elif state.next_slots is not None and len(lines) < levels:
        lines.append(state.next_slots)
    champion = winners(plan, entrants, rounds, outcomes, withdrawn)
    known = {(o.round, o.table): o for o in outcomes}

    def name(p: int) -> str:
        return names.get(p, str(p))

    # what each box of each column shows, and whether someone went on from it (to colour the connector)
    columns: list[list[list[_Slot]]] = []
    went_on: list[list[bool]] = []
    feed: list[int | None] = []  # who went on from each box of the column before (a later withdrawal included)
    for r in range(levels):
        size = seats ** (levels - r)
        line = list(lines[r]) if r < len(lines) else [None] * size
        # a slot the engine emptied for a withdrawal still shows its player, tagged
        line = [
            p if p is not None or j >= len(feed) or feed[j] not in withdrawn else feed[j] for j, p in enumerate(line)
        ]
        rnd = rounds[r] if r < len(rounds) else None
        playing = set(rnd.players()) if rnd is not None else None
        boxes: list[list[_Slot]] = []
        feed = []
        for start in range(0, size, seats):
            block = line[start : start + seats]
            # who plays this box: in a stored round its players, else everyone not withdrawn
            seated = [
                p for p in block if p is not None and (p in playing if playing is not None else p not in withdrawn)
            ]
            table = None if rnd is None else next((t for t in rnd.tables if seated and seated[0] in t.players), None)
            outcome = None if rnd is None or table is None else known.get((rnd.number, table.number))
            winner = None if table is None or outcome is None else table_winner(table, outcome, seed)
            if rnd is not None and table is None and len(seated) == 1:
                winner = seated[0]  # a bye
            elif rnd is None and champion and seated == [champion[0]]:
                winner = champion[0]  # over before this round: the others withdrew or did not show
            slots: list[_Slot] = []
            for p in block:
                if p is None:
                    alone = len(seated) == 1 and r < len(lines)  # the round is paired or its line known
                    slots.append(_Slot("", DIM, tag=text.bye if alone else ""))
                elif p not in seated:
                    slots.append(_Slot(name(p), DIM, tag=text.withdrawn))
                elif p == winner:
                    slots.append(_Slot(name(p), TEXT, bold=True))
                elif outcome is not None:
                    slots.append(_Slot(name(p), DIM, tag="" if p in outcome.places else text.no_show))
                else:
                    slots.append(_Slot(name(p), TEXT))
            boxes.append(slots)
            feed.append(winner)
        columns.append(boxes)
        went_on.append([p is not None for p in feed])
    final = [_Slot(name(p), MEDALS[0], True) for p in champion] or [_Slot("", DIM)]
    columns.append([final])

    count = len(columns)
    base = max(COLUMN, (WIDTH - 2 * MARGIN - (count - 1) * GUTTER) / count)
    widths = [_column_width(boxes, base) for boxes in columns]
    width = int(2 * MARGIN + sum(widths) + (count - 1) * GUTTER)
    first_boxes = len(columns[0])
    body = first_boxes * (seats * SLOT + GAP)
    height = int(HEAD + HEADER_ROW + body + MARGIN)
    page = _Page(width, height)
    page.heading(text.title, text.status)
    top = HEAD + HEADER_ROW
    # centres of the boxes, column by column: a box sits in the middle of the boxes feeding it
    pitch = seats * SLOT + GAP
    centres = [[top + i * pitch + seats * SLOT / 2 for i in range(first_boxes)]]
    for boxes in columns[1:]:
        before = centres[-1]
        centres.append(
            [
                sum(before[j * seats : (j + 1) * seats]) / len(before[j * seats : (j + 1) * seats])
                for j in range(len(boxes))
            ]
        )
    headings = [*text.rounds[:levels], text.winner]
    for r, boxes in enumerate(columns):
        left = MARGIN + sum(widths[:r]) + r * GUTTER
        col_width = widths[r]
        right = left + col_width
        last = r == count - 1
        if r < len(headings):
            page.text(left + 4, HEAD + HEADER_ROW / 2, headings[r], SMALL, DIM, fit=(int(left + 4), int(right)))
        for i, slots in enumerate(boxes):
            centre = centres[r][i]
            box_top = centre - len(slots) * SLOT / 2
            page.box(left, box_top, col_width, len(slots) * SLOT, BOX, edge=MEDALS[0] if last else GRID)
            for k, slot in enumerate(slots):
                if k:
                    page.line(left + 6, box_top + k * SLOT, right - 6, box_top + k * SLOT, BACKGROUND)
                page.slot(slot, int(left + 10), int(right - 8), box_top + (k + 0.5) * SLOT)
            if last:
                continue
            # the connector into slot i % seats of box i // seats in the next column; green if someone went on
            fed = columns[r + 1][i // seats]
            target = centres[r + 1][i // seats] - len(fed) * SLOT / 2 + (i % seats + 0.5) * SLOT
            on = went_on[r][i]
            mid = right + GUTTER / 2
            route = [(right, centre), (mid, centre), (mid, target), (right + GUTTER, target)]
            page.path(route, WIN if on else GRID, 3 if on else 1.5)
    return page.png()


def _column_width(boxes: Sequence[Sequence[_Slot]], base: float) -> float:
    """``base``, or wider (up to TAGGED) where a tagged name (no-show, withdrawn) would leave the name fewer
    than NAME_ROOM pixels: a tag is never shortened, and a name keeps enough to be told apart."""
    tags = {slot.tag for slot_list in boxes for slot in slot_list if slot.tag and slot.name}
    if not tags:
        return base
    page = _measure()
    need = max(page.width_of(tag, SMALL) for tag in tags) + 8 + NAME_ROOM + 18
    return max(base, min(TAGGED, need))


def _measure() -> _Page:
    """A small page, only to measure text on (kept per thread, like the chart's figures)."""
    page: _Page | None = getattr(_MEASURE, "page", None)
    if page is None:
        page = _MEASURE.page = _Page(10, 10)
    return page


def tournament_picture(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    names: Mapping[int, str],
    *,
    text: TournamentText,
    withdrawn: frozenset[int] = frozenset(),
    locale: str = "en",
) -> bytes:
    """The picture a tournament's standings button shows: the bracket of a knockout, else the standings table
    (``bot.tournaments.standings`` of the data given). Blocking: call it through ``asyncio.to_thread``."""
    if plan.format == "knockout":
        return bracket_picture(plan, entrants, rounds, outcomes, names, text=text, withdrawn=withdrawn)
    rows = standings(plan, entrants, rounds, outcomes, withdrawn)
    return standings_picture(plan, rows, names, text=text, locale=locale)


class _Page:
    """A card ``width`` x ``height`` pixels to draw on in pixel coordinates (y down), and its PNG."""

    def __init__(self, width: int, height: int) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        self.size = (width, height)
        self.figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=BACKGROUND)
        self.canvas = FigureCanvasAgg(self.figure)
        self.axes = self.figure.add_axes((0, 0, 1, 1))
        self.axes.set_xlim(0, width)
        self.axes.set_ylim(height, 0)
        self.axes.set_axis_off()
        self.renderer = self.canvas.get_renderer()
        self._fonts: dict[tuple[float, bool], Any] = {}

    def _font(self, size: float, bold: bool) -> Any:
        from matplotlib.font_manager import FontProperties

        key = (size, bold)
        if key not in self._fonts:
            self._fonts[key] = FontProperties(size=size, weight="bold" if bold else "normal")
        return self._fonts[key]

    def width_of(self, words: str, size: float, bold: bool = False) -> float:
        """The pixels ``words`` take at ``size`` points."""
        width, _, _ = self.renderer.get_text_width_height_descent(words, self._font(size, bold), ismath=False)
        return float(width)

    def fitted(self, words: str, size: float, room: float, bold: bool = False) -> str:
        """``words``, or its longest start that fits ``room`` pixels with an ellipsis after it."""
        return fit(words, room, lambda s: self.width_of(s, size, bold))

    def text(
        self,
        x: float,
        y: float,
        words: str,
        size: float,
        colour: str,
        *,
        ha: str = "left",
        bold: bool = False,
        fit: tuple[int, int] | None = None,
    ) -> None:
        if fit is not None:
            words = self.fitted(words, size, fit[1] - fit[0], bold)
        if not words:
            return
        self.axes.text(
            x,
            y,
            words,
            fontsize=size,
            color=colour,
            ha=ha,
            va="center_baseline",
            fontweight="bold" if bold else "normal",
            parse_math=False,  # a name like "$$ winner $$" is a name, not TeX
            clip_on=False,
        )

    def heading(self, title: str, status: str) -> None:
        width = self.size[0]
        self.text(MARGIN, MARGIN + 18, title, TITLE, TEXT, bold=True, fit=(MARGIN, width - MARGIN))
        self.text(MARGIN, MARGIN + 58, status, FONT, DIM, fit=(MARGIN, width - MARGIN))

    def slot(self, slot: _Slot, left: int, right: int, y: float) -> None:
        """A bracket line: the name from ``left``, its tag (bye, no-show, withdrawn) right-aligned at ``right``.
        The tag is kept whole while the name keeps at least 45 % of the room; the name is shortened first."""
        room = right
        if slot.tag:
            tag = slot.tag if slot.name else self.fitted(slot.tag, SMALL, right - left)
            if slot.name and self.width_of(tag, SMALL) > 0.55 * (right - left):
                tag = self.fitted(tag, SMALL, 0.55 * (right - left))
            self.text(right if slot.name else left, y, tag, SMALL, DIM, ha="right" if slot.name else "left")
            room = right - int(self.width_of(tag, SMALL)) - 8
        if slot.name:
            self.text(left, y, slot.name, FONT - 2, slot.colour, bold=slot.bold, fit=(left, room))

    def box(self, x: float, y: float, w: float, h: float, colour: str, edge: str | None = None) -> None:
        from matplotlib.patches import Rectangle

        self.axes.add_patch(
            Rectangle((x, y), w, h, facecolor=colour, edgecolor=edge or colour, linewidth=1.2 if edge else 0)
        )

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: str, width: float = 1.2) -> None:
        self.axes.plot([x0, x1], [y0, y1], color=colour, linewidth=width, solid_capstyle="butt")

    def path(self, points: Sequence[tuple[float, float]], colour: str, width: float) -> None:
        self.axes.plot([p[0] for p in points], [p[1] for p in points], color=colour, linewidth=width)

    def png(self) -> bytes:
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=DPI, facecolor=BACKGROUND, pil_kwargs={"compress_level": 1})
        return buffer.getvalue()


def decimals(locale: str) -> Callable[[float], str]:
    """Points and tie-breaks as the locale writes them, to two decimals at most (thirds of 3- and 4-seat tables:
    1,67 in German), so two values that differ never print alike at one decimal."""
    from babel.core import UnknownLocaleError
    from babel.numbers import format_decimal

    def number(value: float) -> str:
        try:
            return str(format_decimal(round(value, 2), format="#,##0.##", locale=locale))
        except (ValueError, TypeError, LookupError, UnknownLocaleError):
            return f"{round(value, 2):g}"

    return number


def fit(words: str, room: float, width_of: Callable[[str], float]) -> str:
    """``words`` if ``width_of`` it is at most ``room``, else its longest start (trailing spaces dropped) that fits
    with ``ELLIPSIS`` after it ("" when not even one letter does)."""
    if width_of(words) <= room:
        return words
    low, high = 0, len(words)  # the longest fitting prefix length lies in [low, high)
    while low + 1 < high:
        middle = (low + high) // 2
        if width_of(words[:middle].rstrip() + ELLIPSIS) <= room:
            low = middle
        else:
            high = middle
    if low == 0:
        return ELLIPSIS if width_of(ELLIPSIS) <= room else ""
    return words[:low].rstrip() + ELLIPSIS
