"""The /stats chart: a player's rating over their rated games, as a PNG.

matplotlib is imported inside ``rating_chart`` (its import costs ~0.3 s), so start-up and the click path never
pay for it. Only the object API is used (a ``Figure`` with its own Agg canvas, no pyplot and its global current
figure), so renders in ``asyncio.to_thread`` workers do not share state. Every word on the chart is passed in
by the caller, already taken from the catalog.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 800, 400  # pixels: Discord shows an attachment up to ~550 px wide, still sharp at this size
DPI = 100
MARKERS_UP_TO = 60  # points: above this a marker per game is clutter (and slower)

# An opaque card of its own colours, so it reads the same in Discord's dark and light themes.
BACKGROUND = "#2b2d31"
TEXT = "#dbdee1"
GRID = "#4e5058"
LINE = "#5865f2"
BAND = "#5865f2"
REFERENCE = ("#f0b232", "#23a55a", "#f23f43", "#eb459e", "#00a8fc")  # one per computer level, in order given


@dataclass(frozen=True)
class ChartPoint:
    """A rating after one game: openskill's mu and sigma, and the ordinal (mu - 3 sigma) the boards sort by."""

    mu: float
    sigma: float
    ordinal: float


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
) -> bytes:
    """A PNG of ``points`` (oldest first) over the game number 1..n.

    ``references``: label -> ordinal, a dashed horizontal line each (e.g. the computer levels' ratings).
    ``band``: shade mu +/- sigma around mu. ``locale`` formats the axis numbers (decimal separator).
    ``size``: (width, height) in pixels. Blocking (~tens of ms): call it through ``asyncio.to_thread``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    width, height = size
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(figure)  # binds itself to the figure
    axes = figure.add_subplot()
    _style(axes)
    figure.text(8 / width, 1 - 8 / height, text.title, color=TEXT, fontsize=13, ha="left", va="top")
    axes.set_xlabel(text.x_label, color=TEXT)
    axes.set_ylabel(text.y_label, color=TEXT)
    axes.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True, min_n_ticks=1))
    axes.yaxis.set_major_formatter(FuncFormatter(_number_format(locale)))
    axes.xaxis.set_major_formatter(FuncFormatter(_number_format(locale, whole=True)))

    count = len(points)
    games = list(range(1, count + 1))
    if count:
        ordinals = [p.ordinal for p in points]
        marker = "o" if count <= MARKERS_UP_TO else None
        if band:
            lows = [p.mu - p.sigma for p in points]
            highs = [p.mu + p.sigma for p in points]
            axes.fill_between(games, lows, highs, color=BAND, alpha=0.18, linewidth=0, label=text.band)
        axes.plot(games, ordinals, color=LINE, linewidth=2, marker=marker, markersize=4, label=text.rating)
        if count < 3:  # one or two games: room either side of the points
            axes.set_xlim(0.5, count + 0.5)
        else:
            axes.set_xlim(1, count)
    else:
        axes.set_xlim(0, 1)
        axes.set_ylim(-1, 1)
        axes.set_xticks([])
        axes.set_yticks([])
        axes.text(0.5, 0.5, text.empty, color=TEXT, ha="center", va="center", transform=axes.transAxes)
    for index, (label, value) in enumerate((references or {}).items()):
        colour = REFERENCE[index % len(REFERENCE)]
        axes.axhline(value, color=colour, linestyle="--", linewidth=1.2, label=label)
    # The legend sits in a row of its own under the title: loc="best" scanned every point (~0.1 s at 5,000).
    figure.subplots_adjust(left=70 / width, right=1 - 16 / width, top=1 - 62 / height, bottom=50 / height)
    if count or references:
        handles, labels = axes.get_legend_handles_labels()
        legend = figure.legend(
            handles,
            labels,
            loc="upper left",
            bbox_to_anchor=(62 / width, 1 - 30 / height),
            ncols=len(labels),
            fontsize=9,
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


def _style(axes: Any) -> None:
    axes.set_facecolor(BACKGROUND)
    axes.grid(True, color=GRID, linewidth=0.6, alpha=0.8)
    axes.set_axisbelow(True)
    axes.tick_params(colors=TEXT, labelsize=9)
    for spine in axes.spines.values():
        spine.set_color(GRID)


def _number_format(locale: str, *, whole: bool = False) -> Any:
    """A tick formatter with the locale's decimal sign (Babel), e.g. 12,5 in German."""
    from babel.numbers import format_decimal

    pattern = "#,##0" if whole else "#,##0.#"

    def tick(value: float, _position: Any) -> str:
        try:
            return str(format_decimal(value, format=pattern, locale=locale))
        except (ValueError, TypeError, LookupError):
            return f"{value:g}"

    return tick
