"""Pig's table body."""

from __future__ import annotations

from typing import Any

from bot.games.pig import PigView
from bot.i18n import t
from bot.render import Control, dice_text


def event_key(kind: str, data: dict[str, Any]) -> str:
    if kind == "roll" and data.get("wipe"):
        return "roll_wipe"
    if kind == "roll" and data.get("bust"):
        return "roll_bust"
    return kind


def controls(view: PigView) -> list[Control]:
    return [Control("pig.roll_button", "roll", "primary"), Control("pig.hold_button", "hold", "success")]


def body(view: PigView, names: list[str], locale: str) -> list[str]:
    o = view["options"]
    lines = [t("pig.goal", locale, target=o["target"], dice=t("ui.n_dice", locale, count=o["dice"]))]
    for seat, name in enumerate(names):
        marker = "▶️" if seat == view["current"] and view["winner"] is None else "▫️"
        if not view["active"][seat]:
            marker = "🚫"
        if seat == view["winner"]:
            marker = "🏆"
        lines.append(t("pig.score_line", locale, marker=marker, name=name, score=view["scores"][seat]))
    if view["winner"] is None:
        line = t(
            "pig.turn",
            locale,
            name=names[view["current"]],
            turn_total=view["turn_total"],
            rolls=t("ui.n_rolls", locale, count=view["rolls_this_turn"]),
        )
        if view["rolls_this_turn"] and view["last_roll"]:
            line += " · " + t("pig.last_roll", locale, dice=dice_text(view["last_roll"]))
        lines.append(line)
    return lines
