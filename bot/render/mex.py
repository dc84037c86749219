"""Mex's table layout, its buttons and the variants of its log lines.

Every Mex throw is open (the engine hides nothing), so the public view is the whole state: the
buttons are the active player's legal actions, the engine's ``public_actions`` (``view["public"]``).
"""

from __future__ import annotations

from typing import Any

from bot.games.mex import MEX, MexRoundView, MexTiebreakView, MexView, mex_value, penalty
from bot.i18n import t
from bot.render import Control, Layout, dice_text

# encoded action -> (label catalog key, style); the order is the order of the buttons.
FACES = {"hold:1": "d1", "hold:2": "d2"}  # the buttons that keep a die show its face
BUTTONS = {
    "throw": ("mex.throw_button", "primary"),
    "stand": ("mex.stand_button", "success"),
    "end_round": ("mex.end_round_button", "danger"),
    "hold:1": ("mex.hold_1_button", "secondary"),
    "hold:2": ("mex.hold_2_button", "secondary"),
    "choose:pips": ("mex.choose_pips_button", "primary"),
    "choose:mex": ("mex.choose_mex_button", "primary"),
}


def event_params(kind: str, data: dict[str, Any], names: list[str], locale: str) -> dict[str, str]:
    """Counts shown next to a noun take the catalog's plural forms ("1 life", "3 lives")."""
    if kind == "start" and isinstance(data.get("lives"), int):
        return {"lives": t("ui.n_lives", locale, count=data["lives"])}
    return {}


def event_key(kind: str, data: dict[str, Any]) -> str:
    """Pick a template variant, so that no template has to print a Mex as 1000."""
    if kind == "throw":
        if data.get("extra"):
            if data.get("mode") == "pips":
                return "throw_pips"
            return "throw_extra_mex" if data.get("mex") else "throw_extra"
        if data.get("mex"):
            return "throw_mex"
        return "throw_held" if data.get("held") is not None else "throw"
    if kind == "stand":
        if data.get("reason") == "mex":
            return "stand_mex"  # the throw's own line already says MEX
        if data.get("value") == MEX:
            return "stand_on_mex"
        return "stand_limit" if data.get("reason") == "limit" else "stand"
    if kind == "end_round" and data.get("counted") != data.get("value"):
        return "end_round_tied"
    if kind == "round_over" and data.get("ended_early_by") is not None:
        return "round_over_early"
    if kind == "choose" and data.get("mode") in ("pips", "mex"):
        return f"choose_{data['mode']}"
    if kind == "tiebreak" and data.get("mode") in ("pips", "mex"):
        return f"tiebreak_{data['mode']}"
    return kind


def controls(view: MexView) -> list[Control]:
    """The active player's legal moves as buttons (nothing is secret in Mex: the engine's public actions)."""
    legal = set(view["public"])
    buttons = [(action, label, style) for action, (label, style) in BUTTONS.items() if action in legal]
    return [Control(label, action, style, face=FACES.get(action)) for action, label, style in buttons]


def value_text(value: int | None, locale: str) -> str:
    if value is None:
        return t("mex.no_value", locale)
    return t("mex.value_mex", locale) if value == MEX else t("mex.value", locale, value=value)


def _throws_text(r: MexRoundView, seat: int, locale: str) -> str:
    throws = r["throws"][seat]
    if seat not in r["order"]:
        return ""
    if not throws:
        return t("mex.not_thrown", locale)
    shown = [value_text(mex_value(faces), locale) for faces in throws]
    if r["final"][seat] is not None:
        shown[-1] = t("mex.final", locale, value=shown[-1])
    return " → ".join(shown)


def layout(view: MexView, names: list[str], locale: str) -> Layout:
    o, r = view["options"], view["round"]
    tb = r["tiebreak"]
    winner = view["winner"]
    actor = view["to_act"][0] if view["to_act"] else None
    head = []
    if winner is None:
        head.append(t("mex.round", locale, round=r["number"], starter=names[r["starter"]]))
        if r["throw_limit"] is None:
            head.append(t("mex.limit_open", locale, max=o["max_throws"]))
        else:
            head.append(t("mex.limit", locale, limit=r["throw_limit"]))
        at_stake = penalty(o["mex_penalty"], r["mex_count"])
        head.append(t("mex.stake", locale, penalty=at_stake, mexes=r["mex_count"]))
    extra = _extra_values(tb, locale) if tb is not None and winner is None else {}
    seats = []
    for seat, name in enumerate(names):
        if seat == winner:
            marker = "🏆"
        elif seat in view["out"]:
            marker = "💀"
        elif seat == actor:
            marker = "▶️"
        else:
            marker = "▫️"
        points = t("mex.player_points", locale, points=view["points"][seat]) if o["points_enabled"] else ""
        throws = _throws_text(r, seat, locale) if winner is None else ""
        throws = t("mex.player_throws", locale, throws=throws) if throws else ""
        line = t("mex.player_line", locale, marker=marker, name=f"**{name}**", lives=view["lives"][seat])
        tied = t("mex.seat_extra", locale, value=extra[seat]) if seat in extra else ""
        seats.append(line + points + throws + tied)
    foot = []
    if tb is not None and winner is None:
        foot += _tiebreak(tb, names, locale)
    if winner is not None:
        foot.append(t("mex.winner", locale, name=names[winner]))
    elif actor is not None:
        foot.append(_turn(view, names, locale))
    if view.get("you") is not None and winner is None:
        foot.append(_your_moves(view, locale))
    return Layout(head, seats, foot)


def _tiebreak(tb: MexTiebreakView, names: list[str], locale: str) -> list[str]:
    """The extra round: who is in it and how it is counted (each one's throw is on their seat)."""
    players = ", ".join(names[p] for p in tb["players"])
    lines = [t("mex.extra_round", locale, depth=tb["depth"], players=players)]
    if tb["mode"] is None:
        lines.append(t("mex.extra_choosing", locale, chooser=names[tb["chooser"]]))
    else:
        lines.append(t(f"mex.extra_mode_{tb['mode']}", locale))
    return lines


def _extra_values(tb: MexTiebreakView, locale: str) -> dict[int, str]:
    """Seat -> its throw in the extra round, once the counting is chosen."""
    if tb["mode"] is None:
        return {}
    values = {}
    for p, value in zip(tb["players"], tb["values"], strict=True):
        if value is None:
            values[p] = t("mex.no_value", locale)
        elif tb["mode"] == "pips":
            values[p] = t("mex.value_pips", locale, value=value)
        else:
            values[p] = value_text(value, locale)
    return values


def _turn(view: MexView, names: list[str], locale: str) -> str:
    r = view["round"]
    tb = r["tiebreak"]
    actor = view["to_act"][0]
    name = names[actor]
    if tb is not None:
        if tb["mode"] is None:
            return t("mex.turn_choose", locale, name=name)
        return t("mex.turn_extra", locale, name=name)
    limit = r["throw_limit"] if r["throw_limit"] is not None else view["options"]["max_throws"]
    line = t("mex.turn", locale, name=name, thrown=len(r["throws"][actor]), limit=limit, count=limit)
    if r["held"] is not None:
        line += t("mex.turn_held", locale, die=dice_text([r["held"]]))
    return line


def _your_moves(view: MexView, locale: str) -> str:
    moves = [t(BUTTONS[a][0], locale) for a in BUTTONS if a in view.get("legal", [])]
    if not moves:
        return t("mex.your_wait", locale)
    return t("mex.your_moves", locale, moves=" · ".join(moves))
