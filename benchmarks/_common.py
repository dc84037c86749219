"""Shared helpers: argument parsing, a plain-text table printer, percentiles, machine description."""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Whether the script's parser (below) read --quick: verdict() then says its figures are at --quick sizes.
_quick = False


class _Parser(argparse.ArgumentParser):
    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        global _quick  # noqa: PLW0603 - one script, one parse
        namespace, extra = super().parse_known_args(args, namespace)
        _quick = bool(getattr(namespace, "quick", False))
        return namespace, extra


def parser(description: str) -> argparse.ArgumentParser:
    p = _Parser(description=description)
    p.add_argument(
        "--quick",
        action="store_true",
        help="small sizes and short runs: a smoke test (1-40 s a script on 2 cores), its verdicts not the targets'",
    )
    return p


def machine() -> str:
    cpus = os.cpu_count() or 0
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        pass
    try:
        load = f" load {os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover
        load = ""
    return f"Python {platform.python_version()} on {platform.machine()} {platform.system()}, {cpus} CPU(s),{load}"


def revision() -> str:
    """The commit measured (read-only git), with a mark when the working tree has local changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown revision"
    return f"commit {head}{' + local changes' if dirty else ''}"


def header(title: str) -> None:
    print(f"\n== {title} ==  ({machine()}; {revision()})")
    sys.stdout.flush()


def table(rows: Sequence[Sequence[Any]], headings: Sequence[str]) -> str:
    """Right-aligned columns except the first; numbers formatted with thousands separators."""

    def fmt(value: Any) -> str:
        if isinstance(value, bool) or value is None:
            return "-" if value is None else str(value)
        if isinstance(value, int):
            return f"{value:,}"
        if isinstance(value, float):
            if value == 0:
                return "0"
            if abs(value) >= 100:
                return f"{value:,.0f}"
            if abs(value) >= 1:
                return f"{value:,.2f}"
            return f"{value:.3g}"
        return str(value)

    cells = [[fmt(v) for v in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headings)]
    lines = [
        "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(headings, widths, strict=True)))
    ]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        lines.append(
            "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        )
    return "\n".join(lines)


def show(rows: Sequence[Sequence[Any]], headings: Sequence[str]) -> None:
    print(table(rows, headings))
    sys.stdout.flush()


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted sequence (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(0, min(len(sorted_values) - 1, int(round(q / 100 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[rank]


def run_for(seconds: float, once: Callable[[], int], minimum: int = 1) -> tuple[int, int, float]:
    """Call ``once`` (returns a step count) until ``seconds`` have passed; returns (calls, steps, elapsed)."""
    calls = steps = 0
    start = time.perf_counter()
    while True:
        steps += once()
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and calls >= minimum:
            return calls, steps, elapsed


def verdict(ok: bool | None) -> str:
    """A figure against its issue's target: "ok" or "MISSED" (with --quick: at --quick sizes, not the target's)."""
    if ok is None:
        return "-"
    return ("ok" if ok else "MISSED") + (" at --quick sizes" if _quick else "")
