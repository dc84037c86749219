"""The /dicestats chart: how many dice showed each face, against what fair dice give, as a PNG.

One bar per face with its count above it, a dashed line at the count fair dice give on average (a sixth of the
dice), and the band fair dice stay within 95 % of the time, face by face (±1.96 binomial standard deviations).
Drawn like the rating chart (``bot.render.chart``): matplotlib imported inside the call, the object API on an Agg
canvas (no pyplot), an opaque card of its own colours so it reads the same in Discord's light and dark themes,
800 × 400 px with type large enough to read when Discord shows it 400 px wide. Every word is the caller's, from
the catalog. Blocking (~tens of ms): call it through ``asyncio.to_thread``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.render.chart import BACKGROUND, DPI, TEXT, number_format, style_axes

WIDTH, HEIGHT = 800, 400
BAR = "#5865f2"  # Discord's blurple, as the rating line
EXPECTED = "#f0b232"  # the fair line: yellow on the dark card, apart from the bars
BAND = "#f0b232"


@dataclass(frozen=True)
class DiceChartText:
    """The chart's words, from the catalog in the reader's language."""

    title: str
    x_label: str  # e.g. "Face"
    y_label: str  # e.g. "Dice"
    expected: str  # the legend of the fair line
    band: str  # the legend of the fair band
    empty: str  # shown in the middle when there are no dice


def dice_chart(
    counts: Sequence[int],
    *,
    text: DiceChartText,
    locale: str = "en",
    size: tuple[int, int] = (WIDTH, HEIGHT),
) -> bytes:
    """A PNG of ``counts`` (faces 1, 2, …) against fair dice; ``locale`` formats the numbers."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter, MaxNLocator, NullLocator

    width, height = size
    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    style_axes(axes)
    axes.grid(False, axis="x")
    # Room on the left for the widest count on the axis (1,600,000 takes more than 16,000) and the axis's name.
    widest = len(number_format(locale, whole=True)(max(counts, default=0) * 1.2, None))
    left = 52 + 11 * widest
    figure.subplots_adjust(left=left / width, right=1 - 16 / width, top=1 - 76 / height, bottom=62 / height)
    figure.text(10 / width, 1 - 10 / height, text.title, color=TEXT, fontsize=17, ha="left", va="top")
    axes.set_xlabel(text.x_label, color=TEXT, fontsize=14)
    axes.set_ylabel(text.y_label, color=TEXT, fontsize=14)
    axes.tick_params(labelsize=14)
    number = number_format(locale, whole=True)
    sides = len(counts)
    positions = list(range(1, sides + 1))
    axes.set_xticks(positions, [str(face) for face in positions])
    axes.set_xlim(0.4, sides + 0.6)
    total = sum(counts)
    if total:
        mean = total / sides
        spread = 1.96 * math.sqrt(total * (1 / sides) * (1 - 1 / sides))
        low, high = max(0.0, mean - spread), mean + spread
        axes.axhspan(low, high, color=BAND, alpha=0.16, linewidth=0, label=text.band, zorder=0)
        bars = axes.bar(positions, counts, width=0.66, color=BAR, zorder=2)
        axes.axhline(mean, color=EXPECTED, linestyle="--", linewidth=2, label=text.expected, zorder=3)
        top = max(max(counts), high)
        axes.set_ylim(0, top * 1.16 or 1)
        # Each count inside its bar, at the foot: the fair line and band run near the bars' tops, where a label
        # above the bar would sit under them. A bar too short to hold one has it just above.
        ceiling = top * 1.16 or 1
        for bar, count in zip(bars, counts, strict=True):
            inside = count >= ceiling * 0.14
            label = number(count, None)
            axes.text(
                bar.get_x() + bar.get_width() / 2,
                ceiling * 0.025 if inside else count + ceiling * 0.015,
                label,
                color="#ffffff" if inside else TEXT,
                ha="center",
                va="bottom",
                fontsize=15 if len(label) <= 6 else 12,  # a 7-figure count still fits its bar
                fontweight="bold" if inside else "normal",
                zorder=4,
            )
        axes.yaxis.set_major_locator(MaxNLocator(nbins=5, integer=True))
        axes.yaxis.set_major_formatter(FuncFormatter(number))
        legend = figure.legend(
            loc="upper left",
            bbox_to_anchor=((left - 10) / width, 1 - 38 / height),
            ncols=2,
            fontsize=13 if len(text.band + text.expected) <= 56 else 11,  # longer words: smaller, still one row
            frameon=False,
            handlelength=1.8,
            columnspacing=1.6,
        )
        for entry in legend.get_texts():
            entry.set_color(TEXT)
    else:
        axes.set_ylim(0, 1)
        axes.yaxis.set_major_locator(NullLocator())
        axes.text(0.5, 0.5, text.empty, color=TEXT, ha="center", va="center", fontsize=13, transform=axes.transAxes)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, facecolor=BACKGROUND, pil_kwargs={"compress_level": 1})
    return buffer.getvalue()
