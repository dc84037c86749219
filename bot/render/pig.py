"""Pig's table layout and buttons."""

from __future__ import annotations

from typing import Any

from bot.games.pig import PigView
from bot.i18n import t
from bot.render import Control, Layout, dice_text


def event_key(kind: str, data: dict[str, Any]) -> str:
    if kind == "roll" and data.get("wipe"):
        return "roll_wipe"
    if kind == "roll" and data.get("bust"):
        return "roll_bust"
    return kind


def controls(view: PigView) -> list[Control]:
    return [Control("pig.roll_button", "roll", "primary", face="d6"), Control("pig.hold_button", "hold", "success")]


def layout(view: PigView, names: list[str], locale: str) -> Layout:
    o = view["options"]
    head = [t("pig.goal", locale, target=o["target"], dice=t("ui.n_dice", locale, count=o["dice"]))]
    playing = view["winner"] is None
    seats = []
    for seat, name in enumerate(names):
        marker = "▶️" if seat == view["current"] and playing else "▫️"
        if not view["active"][seat]:
            marker = "🚫"
        if seat == view["winner"]:
            marker = "🏆"
        line = t("pig.score_line", locale, marker=marker, name=f"**{name}**", score=view["scores"][seat])
        if playing and seat == view["current"] and view["rolls_this_turn"]:
            line += t("pig.seat_turn", locale, turn_total=view["turn_total"])
        seats.append(line)
    foot = []
    if playing:
        line = t(
            "pig.turn",
            locale,
            name=names[view["current"]],
            turn_total=view["turn_total"],
            rolls=t("ui.n_rolls", locale, count=view["rolls_this_turn"]),
        )
        if view["rolls_this_turn"] and view["last_roll"]:
            line += " · " + t("pig.last_roll", locale, dice=dice_text(view["last_roll"]))
        foot.append(line)
    return Layout(head, seats, foot)
