"""High Roll's table layout and controls (the engine's public view in, catalog text out)."""

from __future__ import annotations

from bot.i18n import t
from bot.render import Control, Layout, dice_text

from .engine import HighRollView


def controls(view: HighRollView) -> list[Control]:
    # face: the button shows a die where the faces are uploaded as application emojis (bot.render.faces)
    return [Control("highroll.roll_button", "roll", "primary", face="d6")] if view["current"] is not None else []


def layout(view: HighRollView, names: list[str], locale: str) -> Layout:
    """The round above the seats, one entry per seat (its marker, its name in bold, its roll), nothing below:
    the ▶️ marker says whose turn it is."""
    seats = []
    for seat, name in enumerate(names):
        face = view["rolls"][seat]
        if not view["active"][seat]:
            marker = "🚫"
        elif seat in view["winners"]:
            marker = "🏆"
        else:
            marker = "▶️" if seat == view["current"] else "▫️"
        shown = dice_text([face]) if face is not None else "—"  # through the faces: an emoji where uploaded
        seats.append(t("highroll.seat_line", locale, marker=marker, name=f"**{name}**", roll=shown))
    return Layout([t("highroll.round", locale, round=view["round"])], seats, [])
