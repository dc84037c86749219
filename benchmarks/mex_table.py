"""Write bot/ai/data/mex-headsup.json: heads-up Mex win probabilities W(a, b) for the default options.

    /work/venv/bin/python -m benchmarks.mex_table

``win[a - 1][b - 1]`` is the chance that the player starting a round with ``a`` lives wins the game against one
with ``b`` (bot/ai/mex_solver.py), for a, b up to ``MAX_LIVES``; rounded to 6 decimals.
"""

from __future__ import annotations

import json
import time

from bot.ai.mex_solver import DEFAULT, MAX_LIVES, TABLE, Rules


def main() -> None:
    began = time.perf_counter()
    solver = Rules(*DEFAULT)
    win = [[round(solver.win(a, b), 6) for b in range(1, MAX_LIVES + 1)] for a in range(1, MAX_LIVES + 1)]
    TABLE.write_text(json.dumps({"options": list(DEFAULT), "win": win}, separators=(",", ":")) + "\n")
    took = time.perf_counter() - began
    print(f"W(12, 12) = {win[11][11]:.4f}; wrote {TABLE} ({TABLE.stat().st_size:,} bytes) in {took:.1f} s")


if __name__ == "__main__":
    main()
