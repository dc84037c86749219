"""High Roll's table body and controls (the engine's public view in, catalog text out)."""

from __future__ import annotations

from bot.i18n import t
from bot.render import Control, dice_text

from .engine import HighRollView


def controls(view: HighRollView) -> list[Control]:
    return [Control("highroll.roll_button", "roll", "primary")] if view["current"] is not None else []


def body(view: HighRollView, names: list[str], locale: str) -> list[str]:
    lines = [t("highroll.round", locale, round=view["round"])]
    for seat, name in enumerate(names):
        face = view["rolls"][seat]
        if not view["active"][seat]:
            marker = "🚫"
        elif seat in view["winners"]:
            marker = "🏆"
        else:
            marker = "▶️" if seat == view["current"] else "▫️"
        shown = dice_text([face]) if face is not None else "—"
        lines.append(t("highroll.seat_line", locale, marker=marker, name=name, roll=shown))
    return lines
