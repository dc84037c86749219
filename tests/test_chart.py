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
