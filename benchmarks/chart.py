"""The /stats rating chart (``bot.render.chart.rating_chart``): ms per PNG, cold and warm, wall and CPU.

* **cold**: a fresh process's first chart, matplotlib's import included (what the first /stats after a start
  pays; the bot imports matplotlib only then). Measured in a child process per size.
* **warm**: later charts in the same process, median and worst of ``REPEATS``.

Points are a random walk of ratings with the three computer levels as reference lines and the mu band on (/stats
now draws the shown scale without the band: a little less work than measured here). CPU is ``time.process_time``,
wall ``time.perf_counter``.

    python -m benchmarks.chart            # ~15 s
    python -m benchmarks.chart --quick    # a few seconds
    python -m benchmarks.chart --example docs/rating-chart.png   # only writes the chart docs/RATINGS.md shows
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks._common import header, parser, show, verdict

SIZES = [10, 100, 1_000, 5_000]
TARGET_MS = 50.0  # warm CPU per chart: "a few tens of ms"
LEVELS = {"Easy": 3.0, "Normal": 9.0, "Hard": 16.0}


def points(count: int, seed: int = 15) -> list[Any]:
    from bot.render.chart import ChartPoint

    rng, mu, out = random.Random(seed), 25.0, []
    for i in range(count):
        mu += rng.gauss(0, 0.6)
        sigma = max(0.9, 8.333 * 0.985**i)
        out.append(ChartPoint(mu, sigma, mu - 3 * sigma))
    return out


def text() -> Any:
    from bot.render.chart import ChartText

    return ChartText("Rating · Bartholomew · Liar's Dice", "Rated games", "Rating", "Rating (μ − 3σ)", "μ ± σ", "-")


def render(count: int) -> tuple[float, float, int]:
    """One chart of ``count`` points: (wall ms, CPU ms, PNG bytes)."""
    from bot.render.chart import rating_chart

    data, words = points(count), text()
    wall, cpu = time.perf_counter(), time.process_time()
    png = rating_chart(data, text=words, references=LEVELS)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000, len(png)


def cold(count: int) -> tuple[float, float]:
    """A child process's first chart, the import of bot.render.chart and matplotlib included."""
    code = (
        "import json, time, sys\n"
        "w, c = time.perf_counter(), time.process_time()\n"
        "from bot.render.chart import rating_chart, ChartPoint, ChartText\n"
        "from benchmarks.chart import points, text, LEVELS\n"
        f"data = points({count}); words = text()\n"
        "rating_chart(data, text=words, references=LEVELS)\n"
        "print(json.dumps([(time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    wall, cpu = json.loads(out)
    return wall, cpu


def example(path: str) -> None:
    """What /stats draws after 30 heads-up games won two in three (``cogs.stats.render_chart``), with a Hard line."""
    from bot.ratings import Finish, settle
    from cogs.stats import chart_text, render_chart

    book: dict[int, Any] = {}
    history = []
    for game in range(30):
        won = game % 3 != 2
        book.update(
            settle(book, [Finish(1, 1 if won else 2, "win" if won else "loss"), Finish(2, 2 if won else 1, "")])
        )
        history.append(
            (book[1].mu, book[1].sigma, book[1].ordinal, "win" if won else "loss", 1_764_547_200 + 86_400 * (game // 4))
        )
    png = render_chart(history, chart_text("alice", "Pig", "en"), "en", {"Hard computer": 3.5})
    with open(path, "wb") as out:
        out.write(png)
    print(f"wrote {path} ({len(png):,} bytes)")


def main() -> None:
    cli = parser(__doc__.split("\n")[0])
    cli.add_argument("--example", metavar="PNG", help="write the example chart of docs/RATINGS.md there and stop")
    args = cli.parse_args()
    if args.example:
        example(args.example)
        return
    repeats = 5 if args.quick else 20
    sizes = SIZES[::3] if args.quick else SIZES
    header(f"rating chart: 800x400 PNG, cold (fresh process, matplotlib import included) and warm ({repeats} runs)")
    print(
        "leaves out: Discord (the PNG's upload with the reply), /stats's database reads, the event loop the chart's "
        "worker thread shares the GIL with"
    )
    rows = []
    for count in sizes:
        cold_wall, cold_cpu = cold(count)
        render(count)  # this process's first chart is cold too
        runs = [render(count) for _ in range(repeats)]
        walls, cpus = sorted(r[0] for r in runs), sorted(r[1] for r in runs)
        warm_cpu = statistics.median(cpus)
        rows.append(
            [
                f"{count:,} points",
                cold_wall,
                cold_cpu,
                statistics.median(walls),
                warm_cpu,
                walls[-1],
                runs[-1][2] // 1024,
                verdict(warm_cpu <= TARGET_MS),
            ]
        )
    show(
        rows,
        ["chart", "cold wall ms", "cold CPU ms", "warm wall ms", "warm CPU ms", "worst wall", "PNG KiB", "target"],
    )
    print(f"target: warm CPU <= {TARGET_MS:.0f} ms a chart. Wall above CPU means other processes held the cores.")


if __name__ == "__main__":
    main()
