"""The /stats chart: a player's rating over their rated games, as a PNG.

matplotlib is imported inside ``rating_chart`` (its import costs ~0.3 s), so start-up and the click path never
pay for it. Only the object API is used (a ``Figure`` with its own Agg canvas, no pyplot and its global current
figure), and each thread keeps its own figure, so renders in ``asyncio.to_thread`` workers share no state.
Every word on the chart is passed in by the caller, already taken from the catalog.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

WIDTH, HEIGHT = 800, 400  # pixels: Discord shows an attachment up to ~550 px wide, still sharp at this size
DPI = 100
# Discord shows the 800 px image at about 400 px: half of each size below is what a player reads (about 14 px).
FONT, TITLE = 20, 24  # points at 100 dpi: pixels on the image
BOTTOM = 124  # pixels under the frame: a tick's game number, its day, and the axis title
RIGHT = 44  # room for half of the last tick's day
LEFT = 96  # pixels of room for the y-axis numbers (four digits at FONT)
MARKERS_UP_TO = 60  # points: above this a marker per game is clutter (and slower)

# An opaque card of its own colours, so it reads the same in Discord's dark and light themes.
BACKGROUND = "#2b2d31"
TEXT = "#dbdee1"
GRID = "#4e5058"
LINE = "#5865f2"
BAND = "#5865f2"
RESULT_MARKS = {"win": ("^", "#23a55a"), "loss": ("v", "#f23f43"), "neutral": ("o", "#949ba4")}  # shape, colour
REFERENCE = ("#f0b232", "#23a55a", "#f23f43", "#eb459e", "#00a8fc")  # one per computer level, in order given


@dataclass(frozen=True)
class ChartPoint:
    """A rating after one game: openskill's mu and sigma, and the ordinal (mu - 3 sigma) the boards sort by."""

    mu: float
    sigma: float
    ordinal: float
    result: str | None = None  # the game's result for the player (win, loss, neutral): its point's mark
    at: float | None = None  # when the game finished (Unix time): the axis names the day under the game's number


@dataclass(frozen=True)
class ChartText:
    """The chart's words, from the catalog in the reader's language."""

    title: str
    x_label: str  # e.g. "Rated games"
    y_label: str  # e.g. "Rating"
    rating: str  # the legend of the ordinal line
    band: str  # the legend of the mu +/- sigma band
    empty: str  # shown in the middle when there are no points yet


def rating_chart(
    points: Sequence[ChartPoint],
    *,
    text: ChartText,
    locale: str = "en",
    references: Mapping[str, float] | None = None,
    band: bool = True,
    size: tuple[int, int] = (WIDTH, HEIGHT),
    first: int = 1,
) -> bytes:
    """A PNG of ``points`` (oldest first) over the game number 1..n.

    ``references``: label -> ordinal, a dashed horizontal line each (e.g. the computer levels' ratings).
    ``band``: shade mu +/- sigma around mu. ``locale`` formats the axis numbers (decimal separator).
    ``size``: (width, height) in pixels. ``first``: the x of the first point (0 when it is the start before game 1).
    Blocking (~tens of ms): call it through ``asyncio.to_thread``."""
    from matplotlib.ticker import AutoLocator, FuncFormatter, MaxNLocator, NullLocator

    canvas = _canvas(size)
    figure, axes = canvas.figure, canvas.axes
    width, height = size
    canvas.clear()
    canvas.title.set_text(text.title)
    axes.set_xlabel(text.x_label, color=TEXT, fontsize=FONT)
    # No y-axis title: the legend names the line, and its width went to the numbers a player reads.
    axes.yaxis.set_major_formatter(FuncFormatter(number_format(locale)))

    count = len(points)
    lines = list((references or {}).items())
    # Limits are set here, never autoscaled: nothing from an earlier chart on this figure can widen them.
    values = [value for _, value in lines]
    if count:
        # No more points than pixel columns: a 5,000-game line looks the same, and draws in the time of 1,000.
        step = -(-count // width)
        kept = [*range(0, count - 1, step), count - 1]
        games = [i + first for i in kept]
        points = [points[i] for i in kept]
        ordinals = [p.ordinal for p in points]
        marker = "o" if count <= MARKERS_UP_TO else None
        values += ordinals
        if band:
            lows = [p.mu - p.sigma for p in points]
            highs = [p.mu + p.sigma for p in points]
            values += lows + highs
            axes.fill_between(games, lows, highs, color=BAND, alpha=0.18, linewidth=0, label=text.band)
        marked = marker is not None and any(p.result in RESULT_MARKS for p in points)
        axes.plot(
            games, ordinals, color=LINE, linewidth=3, marker=None if marked else marker, markersize=7, label=text.rating
        )
        if marked:  # each game's point marked by its result: up green for a win, down red for a loss
            for result, (shape, colour) in RESULT_MARKS.items():
                xs = [g for g, p in zip(games, points, strict=True) if p.result == result]
                ys = [p.ordinal for p in points if p.result == result]
                if xs:
                    axes.scatter(
                        xs,
                        ys,
                        marker=shape,
                        color=colour,
                        s=90,
                        zorder=3,
                        edgecolors=BACKGROUND,
                        linewidths=1,
                    )
        if count < 3:  # one or two games: room either side of the points
            axes.set_xlim(first - 0.5, first + count - 0.5)
        else:
            axes.set_xlim(first, first + count - 1)
        axes.xaxis.set_major_locator(MaxNLocator(nbins=6, integer=True, min_n_ticks=1))
        days = {g: p.at for g, p in zip(games, points, strict=True) if p.at is not None}
        axes.xaxis.set_major_formatter(FuncFormatter(game_format(locale, days)))
        axes.yaxis.set_major_locator(AutoLocator())
    else:
        axes.set_xlim(0, 1)
        axes.xaxis.set_major_locator(NullLocator())
        axes.yaxis.set_major_locator(AutoLocator() if lines else NullLocator())
        axes.text(0.5, 0.5, text.empty, color=TEXT, ha="center", va="center", transform=axes.transAxes)
    low, high = (min(values), max(values)) if values else (-1.0, 1.0)
    margin = (high - low) * 0.06 or 1.0
    axes.set_ylim(low - margin, high + margin)
    for index, (label, value) in enumerate(lines):
        colour = REFERENCE[index % len(REFERENCE)]
        axes.axhline(value, color=colour, linestyle="--", linewidth=1.2, label=label)
    if count or lines:
        # In a row of its own under the title: loc="best" scanned every point (~0.1 s at 5,000).
        handles, labels = axes.get_legend_handles_labels()
        legend = figure.legend(
            handles,
            labels,
            loc="upper left",
            bbox_to_anchor=(LEFT / width, 1 - 44 / height),
            ncols=len(labels),
            fontsize=FONT,
            frameon=False,
            handlelength=1.6,
            columnspacing=1.2,
        )
        for entry in legend.get_texts():
            entry.set_color(TEXT)
    buffer = io.BytesIO()
    # Fast zlib: level 6 took ~30 ms of the render for a file only ~20 % smaller.
    figure.savefig(buffer, format="png", dpi=DPI, facecolor=BACKGROUND, pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


class _Canvas:
    """A figure kept for the next chart of its size on the same thread: a new Figure, its axes and their ticks
    cost about a third of a render. Everything a chart draws is removed by ``clear``; the styling stays."""

    def __init__(self, size: tuple[int, int]) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        width, height = size
        self.figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=BACKGROUND)
        FigureCanvasAgg(self.figure)  # binds itself to the figure
        self.axes = self.figure.add_subplot()
        style_axes(self.axes)
        self.figure.subplots_adjust(
            left=LEFT / width, right=1 - RIGHT / width, top=1 - 84 / height, bottom=BOTTOM / height
        )
        self.title = self.figure.text(8 / width, 1 - 8 / height, "", color=TEXT, fontsize=TITLE, ha="left", va="top")

    def clear(self) -> None:
        axes = self.axes
        for artist in [*axes.lines, *axes.collections, *axes.texts, *self.figure.legends]:
            artist.remove()


_CANVASES = threading.local()  # a figure is not thread-safe: each worker thread draws on its own


def _canvas(size: tuple[int, int]) -> _Canvas:
    kept: dict[tuple[int, int], _Canvas] | None = getattr(_CANVASES, "by_size", None)
    if kept is None:
        kept = _CANVASES.by_size = {}
    if size not in kept:
        if len(kept) >= 4:  # a few sizes at most are ever asked for; never grow without bound
            kept.clear()
        kept[size] = _Canvas(size)
    return kept[size]


def style_axes(axes: Any) -> None:
    axes.set_facecolor(BACKGROUND)
    axes.grid(True, color=GRID, linewidth=0.6, alpha=0.8)
    axes.set_axisbelow(True)
    axes.tick_params(colors=TEXT, labelsize=FONT)
    for spine in axes.spines.values():
        spine.set_color(GRID)


def game_format(locale: str, days: Mapping[int, float]) -> Any:
    """The x ticks: a game's number, and under it the day it was played where the chart knows it (the nearest
    drawn game at or before the tick), as the locale writes a short date (3 Dec, 3. Dez.)."""
    from babel.dates import format_date

    whole = number_format(locale, whole=True)
    known = sorted(days)

    def tick(value: float, position: Any) -> str:
        text = whole(value, position)
        before = [g for g in known if g <= value]
        if not before:
            return text
        day = datetime.fromtimestamp(days[before[-1]], tz=UTC).date()
        try:
            return f"{text}\n{format_date(day, format='d MMM', locale=locale)}"
        except (ValueError, LookupError):
            return f"{text}\n{day.isoformat()}"

    return tick


def number_format(locale: str, *, whole: bool = False) -> Any:
    """A tick formatter with the locale's decimal sign (Babel), e.g. 12,5 in German."""
    from babel.numbers import format_decimal

    pattern = "#,##0" if whole else "#,##0.#"

    def tick(value: float, _position: Any) -> str:
        try:
            return str(format_decimal(value, format=pattern, locale=locale))
        except (ValueError, TypeError, LookupError):
            return f"{value:g}"

    return tick
