"""The /dicestats chart: a PNG of the size asked, not blank, that follows the counts, with or without dice."""

from __future__ import annotations

import io

from PIL import Image

from bot.render.chart import BACKGROUND
from bot.render.dice_chart import BAR, EXPECTED, DiceChartText, dice_chart

TEXT = DiceChartText("Dice faces — Pig", "Face", "Dice", "Fair dice (average)", "95% of fair dice", "No dice yet")


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def pixels(image: Image.Image) -> list[tuple[int, ...]]:
    data = image.tobytes()
    return [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]


def share(image: Image.Image, colour: str) -> float:
    """The share of the picture's pixels within a few levels of ``colour``."""
    target = rgb(colour)
    found = pixels(image)
    close = sum(1 for p in found if all(abs(a - b) <= 6 for a, b in zip(p, target, strict=True)))
    return close / len(found)


def test_a_png_of_the_size_asked_with_bars_the_fair_line_and_a_card_of_its_own() -> None:
    image = decode(dice_chart([160, 170, 150, 180, 175, 165], text=TEXT))
    assert image.size == (800, 400)
    assert share(image, BACKGROUND) > 0.3  # an opaque card: the same in Discord's light and dark themes
    assert share(image, BAR) > 0.1  # six bars
    assert share(image, EXPECTED) > 0.0005  # the dashed fair line (2 px high across the plot)
    assert len(set(pixels(image))) > 50  # text, bars, band: not a blank picture
    assert decode(dice_chart([1, 2, 3, 4, 5, 6], text=TEXT, size=(600, 300))).size == (600, 300)


def test_the_picture_follows_the_counts_and_draws_the_same_twice() -> None:
    even = dice_chart([100] * 6, text=TEXT)
    loaded = dice_chart([100, 100, 100, 100, 100, 160], text=TEXT)
    assert even != loaded and even == dice_chart([100] * 6, text=TEXT)
    # the sixth bar of the loaded dice reaches higher: more bar colour in the right-hand sixth of the picture
    right = (800 * 5 // 6, 0, 800, 400)
    assert share(decode(loaded).crop(right), BAR) > share(decode(even).crop(right), BAR)


def test_no_dice_is_a_picture_that_says_so() -> None:
    image = decode(dice_chart([0] * 6, text=TEXT))
    assert image.size == (800, 400)
    assert share(image, BAR) == 0 and share(image, BACKGROUND) > 0.5
    assert len(set(pixels(image))) > 10  # the title, the axes and the words
