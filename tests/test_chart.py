"""The /stats rating chart: a PNG of the size asked, for no, one and many games, that shows the data."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.chart import ChartPoint, ChartText, rating_chart

TEXT = ChartText("Rating · alice", "Rated games", "Rating", "Rating (μ − 3σ)", "μ ± σ", "No rated games yet")
LEVELS = {"Easy": 2.0, "Normal": 8.0, "Hard": 15.0}


def points(count: int, drift: float = 0.01) -> list[ChartPoint]:
    out = []
    for i in range(count):
        mu, sigma = 25 + drift * i, max(1.0, 8.33 * 0.99**i)
        out.append(ChartPoint(mu, sigma, mu - 3 * sigma))
    return out


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("count", [0, 1, 2, 5000])
def test_a_png_of_the_size_asked(count: int) -> None:
    image = decode(rating_chart(points(count), text=TEXT, references=LEVELS))
    assert image.format == "PNG"
    assert image.size == (800, 400)


def test_other_sizes() -> None:
    assert decode(rating_chart(points(10), text=TEXT, size=(600, 300))).size == (600, 300)


def test_the_picture_follows_the_data() -> None:
    rising = decode(rating_chart(points(30, drift=0.5), text=TEXT)).tobytes()
    falling = decode(rating_chart(points(30, drift=-0.5), text=TEXT)).tobytes()
    again = decode(rating_chart(points(30, drift=0.5), text=TEXT)).tobytes()
    assert rising != falling
    assert rising == again  # same data, same picture: nothing carried over from an earlier render


def test_a_kept_figure_carries_nothing_over() -> None:
    """Each thread keeps a figure per size: a chart drawn after others (empty, other size, references, no band)
    is the chart drawn first on a fresh thread."""
    import threading

    def fresh() -> bytes:
        out: list[bytes] = []
        worker = threading.Thread(target=lambda: out.append(rating_chart(points(40), text=TEXT)))
        worker.start()
        worker.join()
        return out[0]

    rating_chart(points(0), text=TEXT, references=LEVELS)
    rating_chart(points(5000, drift=-0.2), text=TEXT, band=False, locale="de")
    rating_chart(points(3), text=TEXT, size=(600, 300))
    assert decode(rating_chart(points(40), text=TEXT)).tobytes() == decode(fresh()).tobytes()


def test_reference_lines_and_band_are_drawn() -> None:
    plain = decode(rating_chart(points(30), text=TEXT, band=False)).tobytes()
    assert decode(rating_chart(points(30), text=TEXT, band=False, references=LEVELS)).tobytes() != plain
    assert decode(rating_chart(points(30), text=TEXT, band=True)).tobytes() != plain


def test_the_words_are_the_callers() -> None:
    other = ChartText("Wertung · alice", "Gewertete Spiele", "Wertung", "Wertung (μ − 3σ)", "μ ± σ", "Noch keine")
    assert rating_chart(points(5), text=TEXT) != rating_chart(points(5), text=other, locale="de")


def test_matplotlib_is_not_imported_with_the_module() -> None:
    import subprocess
    import sys

    code = "import sys, bot.render.chart; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def _line_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The bounding box of the rating line's pixels (its colour, give or take antialiasing), below the legend's row
    (its sample of the line sits just above the frame, whose top is 84 px down)."""
    from bot.render.chart import LINE

    want = tuple(int(LINE[i : i + 2], 16) for i in (1, 3, 5))
    rgb = image.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    found = [
        (x, y)
        for y in range(80, height)
        for x in range(width)
        if sum(abs(a - b) for a, b in zip(pixels[x, y], want, strict=True)) < 40
    ]
    if not found:
        return None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return min(xs), min(ys), max(xs), max(ys)


def _history(count: int) -> list[tuple[float, float, float, str, int]]:
    """A member's (mu, sigma, ordinal) after each of ``count`` heads-up games, winning two in three."""
    from bot.ratings import Finish, settle

    book: dict = {}
    out = []
    for game in range(count):
        won = game % 3 != 2
        book.update(
            settle(book, [Finish(1, 1 if won else 2, "win" if won else "loss"), Finish(2, 2 if won else 1, "")])
        )
        out.append(
            (book[1].mu, book[1].sigma, book[1].ordinal, "win" if won else "loss", 1_764_547_200 + 86_400 * (game // 4))
        )
    return out


@pytest.mark.parametrize("count", [0, 1, 3, 300])
def test_the_stats_chart_shows_the_shown_rating_inside_its_frame(count: int) -> None:
    """What /stats draws (cogs.stats.render_chart: the shown scale from a newcomer's 1000): an 800 x 400 PNG, not
    blank, whose line lies inside the plot frame and, from 3 games on, runs across almost all of it."""
    from bot.render.chart import BOTTOM, HEIGHT, LEFT, RIGHT, WIDTH
    from cogs.stats import chart_text, render_chart

    image = decode(render_chart(_history(count), chart_text("alice", "Pig", "en"), "en", {}))
    assert image.size == (WIDTH, HEIGHT)
    assert len(set(image.convert("L").tobytes())) > 8  # not a blank card
    box = _line_box(image)
    assert box is not None
    left, top, right, bottom = box
    frame = (LEFT - 6, 84 - 6, WIDTH - RIGHT + 6, HEIGHT - BOTTOM + 6)  # the axes as chart.py places them, +slack
    assert frame[0] <= left and right <= frame[2] and frame[1] <= top and bottom <= frame[3], (box, frame)
    if count >= 3:
        assert right - left > 0.9 * (WIDTH - RIGHT - LEFT)
        assert bottom - top > 40  # it moves: a rating, not a flat line
