"""The /stats rating chart (``bot.render.chart.rating_chart``): ms per PNG, cold and warm, wall and CPU.

* **cold**: a fresh process's first chart, matplotlib's import included (what the first /stats after a start
  pays; the bot imports matplotlib only then). Measured in a child process per size.
* **warm**: later charts in the same process, median and worst of ``REPEATS``.

Points are a random walk of ratings with the three computer levels as reference lines and the mu band on, as
/stats draws them. CPU is ``time.process_time``, wall ``time.perf_counter``.

    python -m benchmarks.chart            # ~15 s
    python -m benchmarks.chart --quick    # a few seconds
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


def main() -> None:
    args = parser(__doc__.split("\n")[0]).parse_args()
    repeats = 5 if args.quick else 20
    sizes = SIZES[::3] if args.quick else SIZES
    header(f"rating chart: 800x400 PNG, cold (fresh process, matplotlib import included) and warm ({repeats} runs)")
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
