"""Which library draws the /stats rating chart: matplotlib against the alternatives pip can install, measured.

One PNG line chart, as /stats draws it: 800x400 px, an opaque dark card (bot/render/chart.py's colours), a title
with a player's name in Cyrillic, axis labels, the ordinal line over 300 rated games, the mu +/- sigma band, the
three computer levels as dashed lines, a legend with "μ − 3σ" and "μ ± σ". Candidates (``--only`` picks some):

* **matplotlib**: bot/render/chart.py itself (loaded from this checkout by path), what the bot ships today;
* **pillow**: Pillow alone, the chart drawn by hand with ImageDraw at 2x and scaled down (antialiasing), with
  DejaVu Sans (the font matplotlib ships; the project would have to ship it, ~0.76 MB, counted as added size);
* **pygal**: pygal's SVG rendered to PNG by cairosvg (which needs the system's libcairo and fonts);
* **plotly**: plotly 6 with kaleido 0.2.1, which carries its own headless Chromium (plotly 7 takes only
  kaleido >= 1, which needs a Chrome installed apart from pip);
* **vega-lite**: a Vega-Lite spec rendered by vl-convert-python (Deno and resvg in one wheel, no altair).

Each candidate gets a fresh venv in a temporary folder (never the project's .venv) with babel first (the bot has
it anyway: every candidate formats the axis numbers with it), then the candidate's packages (``-c
constraints.txt``: matplotlib and Pillow at the project's pins). Per candidate:

* **MB added**: site-packages' apparent size less that of the base venv (pip, setuptools, babel), plus any file
  the project would ship for it (the font);
* **import**: a fresh process's import of the library (wall and CPU); babel is imported before the clock starts;
* **1st chart**: the first render in that process (matplotlib builds its font list on the very first run of a
  venv: the table shows the median over ``--runs`` processes, run 1 apart); **warm**: the median of 5 more;
* **process**: the whole child's wall and CPU (``getrusage(RUSAGE_CHILDREN)``: interpreter start, any helper
  process it waited for, e.g. kaleido's Chromium), and its peak RSS.

The PNGs are written to ``--out`` (default a new temporary folder), with ``preview-<name>.png``: the chart
scaled to 400 px wide, as Discord shows it, on Discord's dark and light backgrounds. Needs pip's package index
(or the machine's wheel folders); ``--help`` needs neither.

    python -m benchmarks.chartlib                  # ~4 min: five installs
    python -m benchmarks.chartlib --quick          # 1 process per candidate
    python -m benchmarks.chartlib --only matplotlib pillow --out /tmp/charts
"""

from __future__ import annotations

import inspect
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show
from benchmarks.install_size import MB, ROOT, make_venv, pip_install, survey

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # Debian's fonts-dejavu-core; matplotlib ships it
COUNT = 300
WIDTH, HEIGHT = 800, 400
# bot/render/chart.py's colours: an opaque card that reads the same in Discord's dark and light themes.
BACKGROUND, TEXT, GRID, LINE = "#2b2d31", "#dbdee1", "#4e5058", "#5865f2"
REFERENCE = ("#f0b232", "#23a55a", "#f23f43")
DISCORD = {"dark": "#313338", "light": "#ffffff"}  # the chat's background behind an attachment


@dataclass(frozen=True)
class Candidate:
    name: str
    packages: list[str]
    imports: str  # timed as the import, in the fresh process
    render: Callable[..., bytes]
    versions: list[str]  # distributions whose versions the table names
    ships: list[Path] = field(default_factory=list)  # files the project would have to ship too
    close: str = "pass"  # run after the clock: stops a helper process, so its CPU is counted (waited for)
    note: str = ""


# ---- the renderers: each runs in its candidate's venv, in a fresh process, from its source text ----------------
# Each is called as render(data, words, levels, context) and returns PNG bytes; ``data`` is a list of
# (game, mu, sigma, ordinal), ``words`` a dict of the chart's texts, ``levels`` label -> ordinal, and ``context`` a
# dict (the checkout's path, the font's path, the colours) kept between calls.


def render_matplotlib(
    data: list[Any], words: dict[str, str], levels: dict[str, float], context: dict[str, Any]
) -> bytes:
    import importlib.util
    import sys

    module = context.get("module")
    if module is None:  # bot/render/chart.py by path: no need for the bot package's other imports
        spec = importlib.util.spec_from_file_location("chart", context["root"] + "/bot/render/chart.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["chart"] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        context["module"] = module
    points = [module.ChartPoint(mu, sigma, ordinal) for _, mu, sigma, ordinal in data]
    text = module.ChartText(words["title"], words["x"], words["y"], words["rating"], words["band"], words["empty"])
    return module.rating_chart(points, text=text, references=levels)


def render_pillow(data: list[Any], words: dict[str, str], levels: dict[str, float], context: dict[str, Any]) -> bytes:
    import io
    import math

    from babel.numbers import format_decimal
    from PIL import Image, ImageDraw, ImageFont

    k = 2  # drawn at twice the size, then scaled down: Pillow draws lines without antialiasing
    width, height = context["size"]
    colours = context["colours"]
    fonts = context.setdefault("fonts", {})
    if not fonts:
        fonts["title"] = ImageFont.truetype(context["font"], 13 * k * 4 // 3)
        fonts["small"] = ImageFont.truetype(context["font"], 9 * k * 4 // 3)
        fonts["label"] = ImageFont.truetype(context["font"], 10 * k * 4 // 3)

    def ticks(low: float, high: float, most: int) -> list[float]:
        raw = (high - low) / max(1, most)
        step = 10 ** math.floor(math.log10(raw))
        step *= next(m for m in (1, 2, 2.5, 5, 10) if step * m >= raw)
        first = math.ceil(low / step) * step
        return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]

    def number(value: float, pattern: str = "#,##0.#") -> str:
        return str(format_decimal(value, format=pattern, locale="en"))

    image = Image.new("RGB", (width * k, height * k), colours["background"])
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 70 * k, (width - 16) * k, 62 * k, (height - 50) * k
    count = len(data)
    lows = [mu - sigma for _, mu, sigma, _ in data]
    highs = [mu + sigma for _, mu, sigma, _ in data]
    values = [*lows, *highs, *(o for *_, o in data), *levels.values()]
    low, high = min(values), max(values)
    margin = (high - low) * 0.06 or 1.0
    low, high = low - margin, high + margin

    def x(game: float) -> float:
        return left + (game - 1) / max(1, count - 1) * (right - left)

    def y(value: float) -> float:
        return bottom - (value - low) / (high - low) * (bottom - top)

    for value in ticks(low, high, 6):  # y grid and labels
        draw.line([(left, y(value)), (right, y(value))], fill=colours["grid"], width=k)
        label = number(value)
        draw.text((left - 6 * k, y(value)), label, font=fonts["small"], fill=colours["text"], anchor="rm")
    for game in ticks(1, count, 8):  # x grid and labels
        if game < 1:
            continue
        draw.line([(x(game), top), (x(game), bottom)], fill=colours["grid"], width=k)
        label = number(game, "#,##0")
        draw.text((x(game), bottom + 6 * k), label, font=fonts["small"], fill=colours["text"], anchor="mt")
    draw.rectangle([left, top, right, bottom], outline=colours["grid"], width=k)
    band = Image.new("RGBA", image.size, (0, 0, 0, 0))  # the mu +/- sigma band, translucent
    ImageDraw.Draw(band).polygon(
        [(x(g), y(v)) for (g, *_), v in zip(data, highs, strict=True)]
        + [(x(g), y(v)) for (g, *_), v in reversed(list(zip(data, lows, strict=True)))],
        fill=(*bytes.fromhex(colours["line"][1:]), 46),
    )
    image.paste(band, (0, 0), band)
    for index, value in enumerate(levels.values()):  # dashed reference lines
        colour, position, dash = colours["reference"][index % len(colours["reference"])], left, 7 * k
        while position < right:
            end = min(right, position + dash)
            draw.line([(position, y(value)), (end, y(value))], fill=colour, width=int(1.2 * k))
            position += dash * 1.6
    draw.line([(x(g), y(o)) for g, _, _, o in data], fill=colours["line"], width=2 * k, joint="curve")
    draw.text((8 * k, 8 * k), words["title"], font=fonts["title"], fill=colours["text"])
    legend = [(words["rating"], colours["line"], "line"), (words["band"], colours["line"], "band")]
    legend += [(label, colours["reference"][i % 3], "dash") for i, label in enumerate(levels)]
    position = 62 * k
    for label, colour, kind in legend:  # one row under the title
        middle = 42 * k
        if kind == "band":
            draw.rectangle([position, middle - 4 * k, position + 16 * k, middle + 4 * k], fill="#343a6b")
        else:
            draw.line([(position, middle), (position + 16 * k, middle)], fill=colour, width=2 * k)
        draw.text((position + 22 * k, middle), label, font=fonts["small"], fill=colours["text"], anchor="lm")
        position += 22 * k + draw.textlength(label, font=fonts["small"]) + 14 * k
    draw.text(
        ((left + right) / 2, height * k - 8 * k), words["x"], font=fonts["label"], fill=colours["text"], anchor="md"
    )
    side = Image.new("RGB", (int(draw.textlength(words["y"], font=fonts["label"])) + 4, 16 * k), colours["background"])
    ImageDraw.Draw(side).text((2, 0), words["y"], font=fonts["label"], fill=colours["text"])
    side = side.rotate(90, expand=True)
    image.paste(side, (6 * k, (top + bottom) // 2 - side.height // 2))
    image = image.resize((width, height), Image.LANCZOS)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def render_pygal(data: list[Any], words: dict[str, str], levels: dict[str, float], context: dict[str, Any]) -> bytes:
    import pygal
    from pygal.style import Style

    colours = context["colours"]
    width, height = context["size"]
    style = Style(
        background=colours["background"],
        plot_background=colours["background"],
        foreground=colours["text"],
        foreground_strong=colours["text"],
        foreground_subtle=colours["grid"],
        colors=(colours["line"], "#8790f5", "#8790f5", *colours["reference"]),
        font_family="DejaVu Sans",
        title_font_size=16,
        label_font_size=11,
        legend_font_size=11,
        major_label_font_size=11,
    )
    chart = pygal.XY(
        width=width,
        height=height,
        style=style,
        title=words["title"],
        x_title=words["x"],
        y_title=words["y"],
        show_dots=False,
        legend_at_bottom=True,
        legend_at_bottom_columns=6,
        show_x_guides=True,
        x_labels_major_count=8,
        show_minor_x_labels=False,
        truncate_legend=-1,
    )
    first, last = data[0][0], data[-1][0]
    chart.add(words["rating"], [(g, o) for g, _, _, o in data], stroke_style={"width": 2})
    chart.add(words["band"], [(g, mu + sigma) for g, mu, sigma, _ in data], stroke_style={"width": 1})
    chart.add(None, [(g, mu - sigma) for g, mu, sigma, _ in data], stroke_style={"width": 1}, show_in_legend=False)
    for label, value in levels.items():
        chart.add(label, [(first, value), (last, value)], stroke_style={"width": 1.2, "dasharray": "6, 4"})
    return chart.render_to_png()


def render_plotly(data: list[Any], words: dict[str, str], levels: dict[str, float], context: dict[str, Any]) -> bytes:
    import plotly.graph_objects as go

    colours = context["colours"]
    width, height = context["size"]
    games = [g for g, *_ in data]
    figure = go.Figure()
    figure.add_trace(
        go.Scatter(
            x=games + games[::-1],
            y=[mu + sigma for _, mu, sigma, _ in data] + [mu - sigma for _, mu, sigma, _ in data][::-1],
            fill="toself",
            fillcolor="rgba(88,101,242,0.18)",
            line={"width": 0},
            name=words["band"],
            hoverinfo="skip",
        )
    )
    figure.add_trace(
        go.Scatter(x=games, y=[o for *_, o in data], line={"color": colours["line"], "width": 2}, name=words["rating"])
    )
    for index, (label, value) in enumerate(levels.items()):
        colour = colours["reference"][index % 3]
        figure.add_trace(
            go.Scatter(
                x=[games[0], games[-1]],
                y=[value, value],
                mode="lines",
                name=label,
                line={"color": colour, "width": 1.2, "dash": "dash"},
            )
        )
    figure.update_layout(
        width=width,
        height=height,
        title={"text": words["title"], "x": 0.01, "font": {"size": 16}},
        paper_bgcolor=colours["background"],
        plot_bgcolor=colours["background"],
        font={"color": colours["text"], "family": "DejaVu Sans, sans-serif", "size": 11},
        legend={"orientation": "h", "x": 0.06, "y": 1.13},
        margin={"l": 60, "r": 16, "t": 62, "b": 46},
        xaxis={"title": words["x"], "gridcolor": colours["grid"], "zeroline": False},
        yaxis={"title": words["y"], "gridcolor": colours["grid"], "zeroline": False},
    )
    return figure.to_image(format="png", width=width, height=height, scale=1)


def render_vegalite(data: list[Any], words: dict[str, str], levels: dict[str, float], context: dict[str, Any]) -> bytes:
    import vl_convert

    colours = context["colours"]
    width, height = context["size"]
    rows = [{"game": g, "ordinal": o, "low": mu - sigma, "high": mu + sigma} for g, mu, sigma, o in data]
    domain = [words["rating"], words["band"], *levels]
    scale = {"domain": domain, "range": [colours["line"], "#3d4590", *colours["reference"]]}
    x = {"field": "game", "type": "quantitative", "title": words["x"], "scale": {"nice": False}}
    spec = {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "width": width,
        "height": height,
        "autosize": {"type": "fit", "contains": "padding"},
        "background": colours["background"],
        "title": {"text": words["title"], "anchor": "start", "color": colours["text"], "fontSize": 16},
        "config": {
            "view": {"stroke": colours["grid"]},
            "axis": {
                "gridColor": colours["grid"],
                "domainColor": colours["grid"],
                "tickColor": colours["grid"],
                "labelColor": colours["text"],
                "titleColor": colours["text"],
                "labelFontSize": 11,
                "titleFontSize": 12,
                "titleFontWeight": "normal",
            },
            "legend": {
                "orient": "top",
                "direction": "horizontal",
                "labelColor": colours["text"],
                "title": None,
                "labelFontSize": 11,
                "symbolType": "stroke",
            },
            "font": "DejaVu Sans",
        },
        "layer": [
            {
                "data": {"values": rows},
                "mark": {"type": "area", "opacity": 0.5},
                "encoding": {
                    "x": x,
                    "y": {"field": "low", "type": "quantitative", "title": words["y"]},
                    "y2": {"field": "high"},
                    "color": {"datum": words["band"], "scale": scale},
                },
            },
            {
                "data": {"values": rows},
                "mark": {"type": "line", "strokeWidth": 2},
                "encoding": {
                    "x": x,
                    "y": {"field": "ordinal", "type": "quantitative"},
                    "color": {"datum": words["rating"], "scale": scale},
                },
            },
            {
                "data": {"values": [{"label": k, "value": v} for k, v in levels.items()]},
                "mark": {"type": "rule", "strokeDash": [6, 4], "strokeWidth": 1.2},
                "encoding": {
                    "y": {"field": "value", "type": "quantitative"},
                    "color": {"field": "label", "type": "nominal", "scale": scale},
                },
            },
        ],
    }
    return vl_convert.vegalite_to_png(spec, scale=1)


CANDIDATES = [
    Candidate(
        "matplotlib",
        ["matplotlib"],
        "import matplotlib.figure, matplotlib.backends.backend_agg, matplotlib.ticker",
        render_matplotlib,
        ["matplotlib", "numpy", "pillow"],
        note="bot/render/chart.py as shipped",
    ),
    Candidate(
        "pillow",
        ["pillow"],
        "from PIL import Image, ImageDraw, ImageFont",
        render_pillow,
        ["pillow"],
        ships=[FONT],
        note="drawn by hand (~90 lines); DejaVu Sans shipped",
    ),
    Candidate(
        "pygal",
        ["pygal", "cairosvg"],
        "import pygal, pygal.style, cairosvg",
        render_pygal,
        ["pygal", "cairosvg"],
        note="needs libcairo2 and a font from the OS",
    ),
    Candidate(
        "plotly",
        ["plotly<7", "kaleido==0.2.1"],
        "import plotly.graph_objects, plotly.io, kaleido",
        render_plotly,
        ["plotly", "kaleido"],
        note="kaleido 0.2.1 (its own Chromium) is deprecated",
        close="plotly.io._kaleido.scope._shutdown_kaleido()",
    ),
    Candidate(
        "vega-lite",
        ["vl-convert-python"],
        "import vl_convert",
        render_vegalite,
        ["vl-convert-python"],
        note="no altair: the spec is a dict",
    ),
]

# The fresh process: the data, the renderer's source, then the clock around import, 1st and warm renders.
HARNESS = r"""
import json, random, resource, statistics, sys, time
import babel.numbers  # the bot has it imported already; not the candidate's cost
babel.numbers.format_decimal(1.5, locale="en")
rng, mu, data = random.Random(15), 25.0, []
for i in range(COUNT):
    mu += rng.gauss(0, 0.6)
    sigma = max(0.9, 8.333 * 0.985**i)
    data.append((i + 1, mu, sigma, mu - 3 * sigma))
w0, c0 = time.perf_counter(), time.process_time()
IMPORTS
w1, c1 = time.perf_counter(), time.process_time()
png = render(data, WORDS, LEVELS, CONTEXT)
w2, c2 = time.perf_counter(), time.process_time()
warm = []
for _ in range(WARM):
    a, b = time.perf_counter(), time.process_time()
    render(data, WORDS, LEVELS, CONTEXT)
    warm.append(((time.perf_counter() - a) * 1000, (time.process_time() - b) * 1000))
open(OUT, "wb").write(png)
CLOSE
helpers = resource.getrusage(resource.RUSAGE_CHILDREN)
ms = lambda a, b: round((b - a) * 1000, 1)
print(json.dumps({"import": [ms(w0, w1), ms(c0, c1)], "first": [ms(w1, w2), ms(c1, c2)],
                  "warm": [statistics.median(w for w, _ in warm), statistics.median(c for _, c in warm)],
                  "png": len(png), "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "helpers": round((helpers.ru_utime + helpers.ru_stime) * 1000, 1)}))
"""

WORDS = {
    "title": "Варфоломей — Liar's Dice",  # a player's name from Discord: Cyrillic, as Russian members' are
    "x": "Rated games",
    "y": "Rating",
    "rating": "Rating (μ − 3σ)",
    "band": "μ ± σ",
    "empty": "No rated games yet",
}
LEVELS = {"Easy": 3.0, "Normal": 9.0, "Hard": 16.0}


def child_script(candidate: Candidate, out: Path, warm: int) -> str:
    context = {
        "root": str(ROOT),
        "font": str(FONT),
        "size": (WIDTH, HEIGHT),
        "colours": {"background": BACKGROUND, "text": TEXT, "grid": GRID, "line": LINE, "reference": REFERENCE},
    }
    source = textwrap.dedent(inspect.getsource(candidate.render)).replace(
        f"def {candidate.render.__name__}(", "def render("
    )
    harness = (
        HARNESS.replace("COUNT", str(COUNT))
        .replace("IMPORTS", candidate.imports)
        .replace("WORDS", repr(WORDS))
        .replace("LEVELS", repr(LEVELS))
        .replace("CONTEXT", repr(context))
        .replace("WARM", str(warm))
        .replace("OUT", repr(str(out)))
        .replace("CLOSE", candidate.close)
    )
    return "from __future__ import annotations\nfrom typing import Any\n" + source + harness


def run_child(python: Path, script: Path, scratch: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MPL"))}
    env["MPLCONFIGDIR"] = str(scratch / "mplconfig")  # empty at the first run of each venv
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run([str(python), str(script)], capture_output=True, text=True, cwd=scratch, env=env)
    wall = (time.perf_counter() - began) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{script} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["process"] = [wall, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000]
    result["warnings"] = [line for line in done.stderr.splitlines() if "Warning" in line]
    return result


def preview(png: Path, into: Path) -> None:
    """The chart at 400 px wide (Discord's size on a narrow window) on Discord's dark and light backgrounds."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - the project's venv has Pillow (matplotlib's dependency)
        return
    chart = Image.open(png).convert("RGB")
    small = chart.resize((400, round(chart.height * 400 / chart.width)), Image.LANCZOS)
    pad = 16
    band = small.height + 2 * pad
    sheet = Image.new("RGB", (400 + 2 * pad, 2 * band))  # dark above, light below
    for index, colour in enumerate(DISCORD.values()):
        sheet.paste(Image.new("RGB", (sheet.width, band), colour), (0, index * band))
        sheet.paste(small, (pad, index * band + pad))
    sheet.save(into)


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=[c.name for c in CANDIDATES], help="measure only these")
    p.add_argument("--runs", type=int, help="fresh processes per candidate (default 4, --quick 1)")
    p.add_argument("--out", type=Path, help="folder for the PNGs (default: a new temporary folder, kept)")
    p.add_argument("--keep", action="store_true", help="keep the temporary venvs and pip's logs")
    args = p.parse_args()
    runs = args.runs or (1 if args.quick else 4)
    chosen = [c for c in CANDIDATES if not args.only or c.name in args.only]
    header(f"chart libraries: one {WIDTH}x{HEIGHT} PNG of {COUNT} rated games, each in a fresh venv")
    print(f"command: {Path(sys.executable).name} -m benchmarks.chartlib {' '.join(sys.argv[1:])}  (cwd {os.getcwd()})")
    out = args.out or Path(tempfile.mkdtemp(prefix="dicetavern-charts-"))
    out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="dicetavern-chartlib-"))
    constraints = ROOT / "constraints.txt"
    rows, extra = [], []
    try:
        base_python = make_venv(scratch / "venv-base")
        pip_install(base_python, ["babel"], constraints, scratch / "pip-base.log")
        found = survey(base_python)
        base, base_count = found["apparent"], len(found["dists"])
        shutil.rmtree(scratch / "venv-base", ignore_errors=True)
        for candidate in chosen:
            folder = scratch / f"venv-{candidate.name}"
            python = make_venv(folder)
            pip_install(python, ["babel"], constraints, scratch / f"pip-{candidate.name}.log")
            seconds = pip_install(python, candidate.packages, constraints, scratch / f"pip-{candidate.name}.log")
            found = survey(python)
            dists = {d["name"]: d for d in found["dists"]}
            shipped = sum(path.stat().st_size for path in candidate.ships)
            added = found["apparent"] - base + shipped
            versions = ", ".join(f"{n} {dists[n]['version']}" for n in candidate.versions if n in dists)
            png = out / f"{candidate.name}.png"
            script = scratch / f"chart_{candidate.name.replace('-', '_')}.py"
            script.write_text(child_script(candidate, png, warm=5))
            results = [run_child(python, script, scratch) for _ in range(runs)]
            preview(png, out / f"preview-{candidate.name}.png")
            picked = results[1:] or results

            def med(key: str, i: int, picked: Sequence[dict[str, Any]] = picked) -> float:
                return statistics.median(r[key][i] for r in picked)

            rows.append(
                [
                    candidate.name,
                    round(added / MB, 1),
                    len(dists) - base_count,
                    med("import", 0),
                    med("import", 1),
                    med("first", 0),
                    med("first", 1),
                    med("warm", 0),
                    med("warm", 1),
                    med("process", 0),
                    med("process", 1),
                    round(statistics.median(r["rss"] for r in picked)),
                    results[-1]["png"] // 1024,
                ]
            )
            first = results[0]
            helpers = statistics.median(r["helpers"] for r in picked)
            extra.append(
                f"  {candidate.name}: {versions}; pip {seconds:.0f} s; {candidate.note}"
                + (f"; run 1 (fresh venv): 1st chart {first['first'][0]:.0f} ms wall" if runs > 1 else "")
                + (f"; helper processes' CPU {helpers:.0f} ms (in process CPU)" if helpers else "")
                + (f"; warns: {first['warnings'][0].strip()[:100]}" if first["warnings"] else "")
            )
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        if args.keep:
            print(f"kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    show(
        rows,
        [
            "library",
            "MB added",
            "packages",
            "import wall ms",
            "import CPU ms",
            "1st chart wall",
            "1st chart CPU",
            "warm wall",
            "warm CPU",
            "process wall",
            "process CPU",
            "peak RSS MiB",
            "PNG KiB",
        ],
    )
    print("\n".join(extra))
    print(
        f"Medians over {max(1, runs - 1)} fresh process(es){' after the first' if runs > 1 else ''}; MB added: "
        "site-packages over a venv with pip, setuptools and babel, plus shipped files. PNGs and previews: "
        f"{out}"
    )


if __name__ == "__main__":
    main()
