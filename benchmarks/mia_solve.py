"""Solve the heads-up Mia round (bot/ai/mia_solver.py) and write bot/ai/data/mia-headsup.npz.

    /work/venv/bin/python -m benchmarks.mia_solve [--iterations 3000]

One solution per ``mia_check_penalty`` (1-3) and ``mia_mode`` (challengeable / auto_reveal), named
``p<penalty>-<mode>-<array>``; prints each one's opening value and its largest stage exploitability.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from bot.ai.mia_solver import solve

OUT = Path(__file__).resolve().parent.parent / "bot" / "ai" / "data" / "mia-headsup.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000)
    args = parser.parse_args()
    arrays: dict[str, np.ndarray] = {}
    for mode in ("challengeable", "auto_reveal"):
        for penalty in (1, 2, 3):
            began = time.perf_counter()
            sol = solve(penalty, mode == "auto_reveal", args.iterations)
            for key, array in sol.items():
                arrays[f"p{penalty}-{mode}-{key}"] = array.astype(np.float32)
            print(
                f"penalty {penalty} {mode}: opening value {sol['value'][0]:+.4f} lives, "
                f"largest stage exploitability {sol['gap'].max():.4f}, {time.perf_counter() - began:.1f} s"
            )
    np.savez_compressed(OUT, **arrays)  # type: ignore[arg-type]  # numpy's stub mistypes **kwds
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
