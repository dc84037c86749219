"""Draw the die faces of ``bot.render.faces.KEYS`` as 128x128 PNGs (transparent background) into bot/assets/dice/.

    .venv/bin/python scripts/draw_dice.py            # writes bot/assets/dice/<key>.png
    .venv/bin/python scripts/draw_dice.py --out DIR  # somewhere else (tests compare that with the committed art)

The art is the project's own (CC0-1.0, bot/assets/dice/LICENSE): shapes only, no font, so every machine draws the
same pixels, and the PNGs carry no metadata (no time, no text chunks), so a run writes the same bytes as the last.
``dicetavern sync`` uploads them as application emojis; a face whose bytes changed gets a new emoji name.

Made to be read at 22 px (Discord's inline emoji): big shapes, strong contrast, and a dark outline with a thin light
rim so a die stands out on both the light and the dark theme. Drawn 4x larger, then scaled down (smooth edges).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.render.faces import KEYS, MYTHIC_TYPES  # noqa: E402 - after the path insert, run from anywhere

OUT = ROOT / "bot" / "assets" / "dice"
SIZE = 128
SCALE = 4  # drawn at 512x512, then scaled down
S = SIZE * SCALE

Colour = tuple[int, int, int]
Point = tuple[float, float]

INK = (28, 24, 22)  # the outline and the pips: near black
RIM = (250, 248, 240)  # the thin light rim outside the outline (dark theme)
IVORY = (247, 240, 222)
GOLD = (245, 190, 40)
STAR_RED = (190, 20, 30)
SLATE = (52, 58, 70)  # the face-down die
WHITE = (255, 255, 255)

# Mythical Dice: one colour per type, and the colour its face value is drawn in.
BODY: dict[str, Colour] = {
    "red": (214, 40, 48),
    "yellow": (250, 204, 30),
    "purple": (124, 58, 170),
    "gray": (140, 146, 156),
    "minotaur": (130, 74, 38),  # bronze-brown: horns
    "griffin": (38, 120, 220),  # sky blue: wings
    "mermaid": (0, 160, 130),  # sea green: tail
}
MARK: dict[str, Colour] = {kind: WHITE for kind in BODY} | {"yellow": INK}

# The die's square, in 512 px units: a margin for the rim, rounded corners.
BOX = (22.0, 22.0, S - 22.0, S - 22.0)
RADIUS = 92
OUTLINE = 26
RIM_WIDTH = 12


# -- primitives -------------------------------------------------------------------------------------------------------


def canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def die(draw: ImageDraw.ImageDraw, body: Colour, outline: Colour = INK, box: Sequence[float] = BOX) -> None:
    """A rounded die: a light rim, a dark outline, the body."""
    x0, y0, x1, y1 = box
    r = RIM_WIDTH
    draw.rounded_rectangle((x0 - r, y0 - r, x1 + r, y1 + r), RADIUS + r, fill=RIM)
    draw.rounded_rectangle((x0, y0, x1, y1), RADIUS, fill=outline)
    o = OUTLINE
    draw.rounded_rectangle((x0 + o, y0 + o, x1 - o, y1 - o), RADIUS - o, fill=body)


def dot(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: Colour) -> None:
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def stroke(draw: ImageDraw.ImageDraw, points: Sequence[Point], width: float, fill: Colour) -> None:
    """A thick line through ``points``, round everywhere: a round brush stamped along the path (Pillow's wide
    lines leave seams where many short segments meet)."""
    r = width / 2
    dot(draw, *points[0], r, fill)
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        steps = max(1, math.ceil(math.hypot(x1 - x0, y1 - y0) / 3))
        for i in range(1, steps + 1):
            dot(draw, x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps, r, fill)


def bezier(*control: Point, steps: int = 48) -> list[Point]:
    """Points on the Bézier curve through ``control`` (its first and last points)."""
    n = len(control) - 1
    out = []
    for i in range(steps + 1):
        u = i / steps
        x = sum(math.comb(n, j) * (1 - u) ** (n - j) * u**j * px for j, (px, _) in enumerate(control))
        y = sum(math.comb(n, j) * (1 - u) ** (n - j) * u**j * py for j, (_, py) in enumerate(control))
        out.append((x, y))
    return out


def tapered(path: Sequence[Point], start: float, end: float) -> list[Point]:
    """The outline of a stroke along ``path`` whose width goes from ``start`` to ``end``: a horn, a tail."""
    left: list[Point] = []
    right: list[Point] = []
    last = len(path) - 1
    for i, (x, y) in enumerate(path):
        ax, ay = path[max(i - 1, 0)]
        bx, by = path[min(i + 1, last)]
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        half = (start + (end - start) * i / last) / 2
        left.append((x + nx * half, y + ny * half))
        right.append((x - nx * half, y - ny * half))
    return left + right[::-1]


def arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float, steps: int = 40) -> list[Point]:
    """Points on an ellipse from angle ``start`` to ``end`` (degrees; 0 = right, 90 = down, as on screen)."""
    return [
        (cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
        for a in (start + (end - start) * i / steps for i in range(steps + 1))
    ]


# -- six-sided faces --------------------------------------------------------------------------------------------------

PIP_AT = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def pips(n: int) -> Image.Image:
    image, draw = canvas()
    die(draw, IVORY)
    radius = 62 if n == 1 else 46
    for fx, fy in PIP_AT[n]:
        dot(draw, fx * S, fy * S, radius, INK)
    return image


def star(cx: float, cy: float, outer: float, inner: float, points: int = 5) -> list[Point]:
    return [
        (
            cx + (outer if i % 2 == 0 else inner) * math.cos(math.radians(-90 + 180 * i / points)),
            cy + (outer if i % 2 == 0 else inner) * math.sin(math.radians(-90 + 180 * i / points)),
        )
        for i in range(points * 2)
    ]


def wild() -> Image.Image:
    """Liar's Dice's wild one: a gold die, its one pip a big red star."""
    image, draw = canvas()
    die(draw, GOLD)
    draw.polygon(star(S / 2, S / 2 + 8, 190, 80), fill=INK)  # the star's dark edge
    draw.polygon(star(S / 2, S / 2 + 8, 150, 62), fill=STAR_RED)
    return image


def hidden() -> Image.Image:
    """A die not shown: a dark die with a light question mark (a light outline: it is dark itself)."""
    image, draw = canvas()
    die(draw, SLATE, outline=(200, 206, 216))
    glyph(draw, "?", IVORY)
    return image


# -- digits, the flag and the question mark, drawn as strokes ---------------------------------------------------------

# Each glyph: strokes in a unit box (x 0..1, y 0..1), placed in the middle of the die.
GLYPHS: dict[str, Callable[[], list[list[Point]]]] = {
    "1": lambda: [[(0.28, 0.2), (0.52, 0.0), (0.52, 1.0)], [(0.28, 1.0), (0.76, 1.0)]],
    "2": lambda: [arc(0.5, 0.28, 0.28, 0.28, 195, 375) + [(0.2, 1.0), (0.82, 1.0)]],
    "3": lambda: [arc(0.5, 0.25, 0.26, 0.25, 200, 450), arc(0.5, 0.73, 0.3, 0.27, 270, 520)],
    "4": lambda: [[(0.64, 1.0), (0.64, 0.0), (0.14, 0.68), (0.88, 0.68)]],
    "5": lambda: [[(0.8, 0.0), (0.3, 0.0), (0.26, 0.45)] + arc(0.5, 0.7, 0.3, 0.29, 230, 515)],
    "6": lambda: [[(0.7, 0.0), (0.26, 0.6)], arc(0.5, 0.72, 0.28, 0.28, 0, 360)],
    "7": lambda: [[(0.16, 0.0), (0.84, 0.0), (0.42, 1.0)]],
    "?": lambda: [arc(0.5, 0.28, 0.3, 0.28, 180, 420) + [(0.5, 0.66)]],
}
GLYPH_BOX = (S * 0.31, S * 0.23, S * 0.38, S * 0.54)  # x, y, width, height of the unit box
GLYPH_WIDTH = 50


def glyph(draw: ImageDraw.ImageDraw, char: str, fill: Colour, box: Sequence[float] = GLYPH_BOX) -> None:
    x, y, w, h = box
    for line in GLYPHS[char]():
        stroke(draw, [(x + px * w, y + py * h) for px, py in line], GLYPH_WIDTH * w / GLYPH_BOX[2], fill)
    if char == "?":
        dot(draw, x + 0.5 * w, y + 0.98 * h, GLYPH_WIDTH * 0.62, fill)


def flag(draw: ImageDraw.ImageDraw, fill: Colour) -> None:
    """A pennant on a pole."""
    pole = S * 0.36
    stroke(draw, [(pole, S * 0.22), (pole, S * 0.8)], 40, fill)
    draw.polygon([(pole, S * 0.2), (S * 0.78, S * 0.36), (pole, S * 0.54)], fill=fill)
    stroke(draw, [(S * 0.26, S * 0.8), (S * 0.5, S * 0.8)], 40, fill)


# -- Mythical Dice's creatures ----------------------------------------------------------------------------------------


def horns(draw: ImageDraw.ImageDraw, fill: Colour, eyes: Colour, k: float = 1.0) -> None:
    """The minotaur: a bull's head, two big horns curving out and up, ears, eyes and nostrils."""
    cx, cy = S / 2, S / 2 + 40 * k

    def at(points: Sequence[Point]) -> list[Point]:
        return [(cx + x * k, cy + y * k) for x, y in points]

    for side in (-1, 1):
        horn = tapered(bezier((side * 60, -70), (side * 235, -60), (side * 190, -230)), 80, 8)
        draw.polygon(at(horn), fill=fill)
        draw.polygon(at([(side * 90, -50), (side * 165, -10), (side * 100, 20)]), fill=fill)  # an ear
    head = [(-105, -80), (105, -80), (95, 30), (62, 125), (-62, 125), (-95, 30)]
    draw.polygon(at(head), fill=fill)
    x, y = at([(0, 118)])[0]
    draw.ellipse((x - 70 * k, y - 38 * k, x + 70 * k, y + 38 * k), fill=fill)  # the muzzle
    for side in (-1, 1):
        for (px, py), r in (((side * 48, -18), 20), ((side * 28, 118), 14)):
            x, y = at([(px, py)])[0]
            dot(draw, x, y, r * k, eyes)


def wings(draw: ImageDraw.ImageDraw, fill: Colour, body: Colour, k: float = 1.0) -> None:
    """The griffin: two raised wings of feathers, and an eagle's head with a hooked beak."""
    cx, cy = S / 2, S / 2 + 20 * k

    def at(points: Sequence[Point]) -> list[Point]:
        return [(cx + x * k, cy + y * k) for x, y in points]

    for side in (-1, 1):
        wing = [
            (25, 40), (35, -60), (110, -150), (215, -195), (200, -130), (225, -120), (190, -60), (210, -50),
            (160, 0), (172, 12), (110, 50),
        ]  # fmt: skip
        draw.polygon(at([(side * x, y) for x, y in wing]), fill=fill)
    draw.polygon(at(tapered(bezier((0, -60), (0, 60), (0, 170)), 130, 50)), fill=fill)  # the body
    draw.polygon(at([(0, 120), (-70, 200), (70, 200)]), fill=fill)  # its tail
    head = arc(-10, -120, 62, 62, 0, 360)
    beak = [(30, -160), (125, -128), (108, -70), (78, -92), (40, -80)]
    # The head stands out from the wings behind it: a ring of the die's colour around it first.
    mask = Image.new("L", (S, S), 0)
    for shape in (head, beak):
        ImageDraw.Draw(mask).polygon(at(shape), fill=255)
    draw.bitmap((0, 0), mask.filter(ImageFilter.MaxFilter(2 * round(14 * k) + 1)), fill=body)
    draw.bitmap((0, 0), mask, fill=fill)
    x, y = at([(10, -130)])[0]
    dot(draw, x, y, 15 * k, body)


def tail(draw: ImageDraw.ImageDraw, fill: Colour, k: float = 1.0) -> None:
    """The mermaid: a fish tail swinging down from the waist to a wide forked fluke."""
    cx, cy = S / 2, S / 2 - 10 * k

    def at(points: Sequence[Point]) -> list[Point]:
        return [(cx + x * k, cy + y * k) for x, y in points]

    draw.polygon(at(tapered(bezier((-10, -175), (90, -80), (-70, 20), (0, 95)), 150, 62)), fill=fill)
    x, y = at([(-10, -175)])[0]
    dot(draw, x, y, 75 * k, fill)  # the waist
    fluke = (
        bezier((-30, 75), (-70, 100), (-140, 105), (-205, 135))
        + bezier((-205, 135), (-185, 215), (-70, 225), (0, 170))
        + bezier((0, 170), (70, 225), (185, 215), (205, 135))
        + bezier((205, 135), (140, 105), (70, 100), (30, 75))
    )
    draw.polygon(at(fluke), fill=fill)


def creature(draw: ImageDraw.ImageDraw, kind: str, fill: Colour, body: Colour, k: float = 1.0) -> None:
    if kind == "minotaur":
        horns(draw, fill, body, k)
    elif kind == "griffin":
        wings(draw, fill, body, k)
    else:
        tail(draw, fill, k)


SPECIALS = ("minotaur", "griffin", "mermaid")


def inside(image: Image.Image, layer: Image.Image, mask_box: Sequence[float]) -> None:
    """Put ``layer`` on ``image``, keeping only what falls inside the rounded ``mask_box`` (the die's face): a horn
    or a wing never covers the outline."""
    mask = Image.new("L", (S, S), 0)
    ImageDraw.Draw(mask).rounded_rectangle(tuple(mask_box), RADIUS - OUTLINE, fill=255)
    alpha = Image.composite(layer.getchannel("A"), mask, mask)
    clipped = layer.copy()
    clipped.putalpha(alpha)
    image.alpha_composite(clipped)


def creature_layer(kind: str, k: float, shift: tuple[int, int] = (0, 0)) -> Image.Image:
    """The creature of ``kind`` alone on a transparent layer, scaled by ``k``, moved by ``shift``."""
    layer, draw = canvas()
    creature(draw, kind, MARK[kind], BODY[kind], k)
    if shift == (0, 0):
        return layer
    return layer.transform(layer.size, Image.Transform.AFFINE, (1, 0, -shift[0], 0, 1, -shift[1]))


FACE_BOX = (BOX[0] + OUTLINE, BOX[1] + OUTLINE, BOX[2] - OUTLINE, BOX[3] - OUTLINE)


def mythic_face(kind: str, face: str) -> Image.Image:
    """A rolled Mythical Dice die: its colour, and its value, flag or creature in white (dark on yellow)."""
    image, draw = canvas()
    die(draw, BODY[kind])
    if face == "flag":
        flag(draw, MARK[kind])
    elif face == "face":
        inside(image, creature_layer(kind, 0.92), FACE_BOX)
    else:
        glyph(draw, face, MARK[kind])
    return image


def shade(colour: Colour, by: float) -> Colour:
    """Lighter (by > 0) or darker (by < 0)."""
    if by >= 0:
        return (
            round(colour[0] + (255 - colour[0]) * by),
            round(colour[1] + (255 - colour[1]) * by),
            round(colour[2] + (255 - colour[2]) * by),
        )
    return (round(colour[0] * (1 + by)), round(colour[1] * (1 + by)), round(colour[2] * (1 + by)))


def mythic_die(kind: str) -> Image.Image:
    """A Mythical Dice die in a hand, not rolled: a cube of its colour (top lit, side in shade), no value;
    a special die carries its creature on the front."""
    image, draw = canvas()
    d = 92  # how far the top and the side reach back
    x0, y0, x1, y1 = 36.0, 36.0 + d, S - 36.0 - d, S - 36.0
    top = [(x0, y0), (x0 + d, y0 - d), (x1 + d, y0 - d), (x1, y0)]
    side = [(x1, y0), (x1 + d, y0 - d), (x1 + d, y1 - d), (x1, y1)]
    cube = [(x0, y0), (x0 + d, y0 - d), (x1 + d, y0 - d), (x1 + d, y1 - d), (x1, y1), (x0, y1)]
    draw.polygon(cube, fill=RIM, outline=RIM, width=RIM_WIDTH * 2)
    draw.polygon(cube, fill=INK, outline=INK, width=OUTLINE)
    body = BODY[kind]
    inset = OUTLINE / 2
    draw.polygon(
        [(x0 + inset, y0 + inset), (x1 - inset, y0 + inset), (x1 - inset, y1 - inset), (x0 + inset, y1 - inset)],
        fill=body,
    )
    draw.polygon(_inset(top, inset), fill=shade(body, 0.35))
    draw.polygon(_inset(side, inset), fill=shade(body, -0.3))
    if kind in SPECIALS:
        shift = (round((x0 + x1 - S) / 2), round((y0 + y1 - S) / 2))  # to the front's centre
        inside(image, creature_layer(kind, 0.7, shift), (x0 + inset, y0 + inset, x1 - inset, y1 - inset))
    return image


def _inset(polygon: Sequence[Point], by: float) -> list[Point]:
    """``polygon`` pulled towards its centre by ``by`` px (enough for the convex faces of the cube)."""
    cx = sum(x for x, _ in polygon) / len(polygon)
    cy = sum(y for _, y in polygon) / len(polygon)
    out: list[Point] = []
    for x, y in polygon:
        dx, dy = cx - x, cy - y
        length = math.hypot(dx, dy) or 1.0
        out.append((x + dx / length * by * 1.4, y + dy / length * by * 1.4))
    return out


# -- every key --------------------------------------------------------------------------------------------------------


def draw(key: str) -> Image.Image:
    """The face ``key`` at 512 px."""
    if key in ("d1", "d2", "d3", "d4", "d5", "d6"):
        return pips(int(key[1]))
    if key == "w1":
        return wild()
    if key == "hidden":
        return hidden()
    kind, _, face = key[2:].partition("_")
    if kind not in MYTHIC_TYPES:
        raise ValueError(f"no art for the face key {key!r}")
    return mythic_face(kind, face) if face else mythic_die(kind)


def render(key: str) -> Image.Image:
    """The face ``key`` at 128x128 RGBA: scaled down with premultiplied alpha (no dark fringe at the edges)."""
    return draw(key).convert("RGBa").resize((SIZE, SIZE), Image.Resampling.LANCZOS).convert("RGBA")


def png(image: Image.Image) -> bytes:
    """PNG bytes with nothing but the pixels: no time, no text chunks, fixed compression."""
    from io import BytesIO

    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=9)
    return buffer.getvalue()


def write(out: Path = OUT) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for key in KEYS:
        path = out / f"{key}.png"
        path.write_bytes(png(render(key)))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=OUT, help=f"the folder to write to (default {OUT})")
    args = parser.parse_args(argv)
    written = write(args.out)
    print(f"{len(written)} faces in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
