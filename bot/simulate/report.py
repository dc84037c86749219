"""The report of a simulation run, every word through the catalog."""

from __future__ import annotations

from typing import Any

from bot.i18n import DEFAULT, t
from bot.simulate.stats import SimResult

# The catalog key of each length unit a game spec may declare (``GameSpec.length_unit``).
UNIT_KEYS = {"turns": "simulate.unit_turns", "rounds": "simulate.unit_rounds", "hands": "simulate.unit_hands"}


def format_report(result: SimResult, locale: str = DEFAULT) -> str:
    def text(key: str, **params: Any) -> str:
        return t(key, locale, **params)

    opts = ", ".join(f"{k}={v}" for k, v in result.options.items()) or text("simulate.defaults")
    seat, level, wins, rate, interval = (
        text(key)
        for key in (
            "simulate.col_seat",
            "simulate.col_level",
            "simulate.col_wins",
            "simulate.col_rate",
            "simulate.col_interval",
        )
    )
    width = max(8, len(level), *(len(kind) for kind in result.levels))  # ref:always_mia is wider than hard
    lines = [
        text(
            "simulate.report_title",
            game=t(f"game.{result.game}", locale),
            games=result.games,
            seats=len(result.levels),
            options=opts,
            seed=result.seed,
        ),
        "",
        f"{seat:>4}  {level:<{width}} {wins:>8}  {rate:>8}  {interval}",
    ]
    for index, kind in enumerate(result.levels):
        lo, hi = result.interval(index)
        won = f"{result.wins[index]:.2f}".rstrip("0").rstrip(".")
        lines.append(f"{index + 1:>4}  {kind:<{width}} {won:>8}  {result.rate(index):>8.1%}  [{lo:5.1%}, {hi:5.1%}]")
    length = text("simulate.length", actions=result.mean_actions)
    if result.actions:
        length += text("simulate.length_range", min=min(result.actions), max=max(result.actions))
    if result.mean_units is not None:
        unit = text(UNIT_KEYS[result.unit]) if result.unit in UNIT_KEYS else result.unit
        length += text("simulate.length_units", mean=result.mean_units, unit=unit)
    lines += ["", length]
    if result.shared:
        key = "simulate.shared_one" if result.shared == 1 else "simulate.shared_other"
        lines.append(text(key, count=result.shared))
    else:
        lines.append(text("simulate.shared_none"))
    per_game = result.elapsed / result.games * 1000 if result.games else 0.0
    lines.append(text("simulate.time", seconds=result.elapsed, per_game=per_game))
    return "\n".join(lines)
