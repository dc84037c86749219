"""Mia's table layout, its controls, and the variants of its event lines.

Everything here works from ``engine.view(state, viewer)``: with ``viewer`` None (the channel) the view holds no
dice, so the public table message cannot show any. The holder's legal moves are public (they depend only on the
current claim, the announcement count and the loop guard), so the table message's controls are the engine's
public actions (``view["public"]``); the viewer's own legal moves (``view["legal"]``) drive the controls of the
private 🎲 My dice reply.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action
from bot.games.mia import (
    AWAIT_CLAIM,
    AWAIT_MIA_RESPONSE,
    GAME_OVER,
    LOG_BLIND,
    LOG_CLAIM,
    LOG_GIVE_UP,
    LOG_REVEAL,
    LOG_UNSEEN,
    MIA,
    PEEK,
    MiaView,
    value_of,
)
from bot.i18n import DEFAULT, t
from bot.render import Control, Layout, Menu, dice_text

LIFE, NO_LIFE = "♥", "♡"


def event_params(kind: str, data: dict[str, Any], names: list[str], locale: str) -> dict[str, str]:
    """Counts shown next to a noun take the catalog's plural forms ("1 life", "3 lives")."""
    if kind == "start" and isinstance(data.get("lives"), int):
        return {"lives": t("ui.n_lives", locale, count=data["lives"])}
    return {}


def event_key(kind: str, data: dict[str, Any]) -> str:
    """Template variants: a Mia announcement, a lie revealed, why a life was lost, a game without a first out."""
    if kind in ("claim", "blind_pass", "dice") and data.get("value") == MIA:
        return f"{kind}_mia"
    if kind == "reveal" and not data.get("truthful", True):
        return "reveal_lie"
    if kind == "life_lost" and data.get("reason"):
        return f"life_lost_{data['reason']}"
    if kind == "eliminated" and data.get("reason") == "forfeit":
        return "eliminated_forfeit"
    if kind == "game_over" and data.get("loser") is None:
        return "game_over_no_loser"
    return kind


def error_key(code: str, params: dict[str, Any]) -> str:
    """Refusal variants: why a blind pass is refused, a bad value with a likely meaning."""
    if code == "blind_pass_not_allowed" and params.get("reason"):
        return f"{code}_{params['reason']}"
    if code == "bad_value" and params.get("did_you_mean") is not None:
        return "bad_value_hint"
    return code


MIA_LABEL = "mia.mia_value"


def value_label(value: int, locale: str | None = DEFAULT) -> str:
    """How a value reads in a menu or a line: ``53``, or ``21 — Mia!``.

    With ``locale`` None it is the catalog key for Mia, which the table message translates for its channel."""
    if value != MIA:
        return str(value)
    return MIA_LABEL if locale is None else t(MIA_LABEL, locale)


# -- controls ------------------------------------------------------------------------------------


def _claim_menu(values: list[int], locale: str | None) -> Menu:
    return Menu("claim", "mia.claim_placeholder", tuple((value_label(v, locale), f"claim:{v}") for v in values))


def _blind_menu(values: list[int], locale: str | None) -> Menu:
    return Menu("blind", "mia.blind_placeholder", tuple((value_label(v, locale), f"blind_pass:{v}") for v in values))


RESPONSE_BUTTONS = (
    Control("mia.roll_button", "roll", "primary"),
    Control("mia.liar_button", "challenge", "danger"),
)
MIA_BUTTONS = (
    Control("mia.concede_button", "give_up", "secondary"),
    Control("mia.look_button", "challenge_mia", "danger"),
)
PEEK_BUTTON = Control("mia.peek_button", "peek", "secondary")


def _as_controls(encoded: list[str], locale: str | None) -> list[Control | Menu]:
    """Encoded legal actions as controls, in a fixed order: Peek, the buttons, the claim and blind menus."""
    legal = [Action.parse(a) for a in encoded]
    names = {a.name for a in legal}
    out: list[Control | Menu] = [PEEK_BUTTON] if "peek" in names else []
    out += [c for c in (*RESPONSE_BUTTONS, *MIA_BUTTONS) if c.action in names]
    claims = [int(a.args[0]) for a in legal if a.name == "claim"]
    if claims:
        out.append(_claim_menu(claims, locale))
    blind = [int(a.args[0]) for a in legal if a.name == "blind_pass"]
    if blind:
        out.append(_blind_menu(blind, locale))
    return out


def controls(view: MiaView) -> list[Control | Menu]:
    """The table message's controls: the holder's public actions (the engine applies the loop guard)."""
    return _as_controls(view["public"], None)


def player_controls(view: MiaView, locale: str = DEFAULT) -> list[Control | Menu]:
    """The viewer's own legal moves (``view["legal"]``) as controls, for the private 🎲 My dice reply.

    Each set holds one move of this player: controls carry the table version they were drawn at, and a second
    move from the same message would be refused as a repeat. So before the player has looked at fresh dice the
    reply offers only Peek (a blind announcement is on the table message); after that, the claim menu.
    """
    if any(Action.parse(a) == PEEK for a in view["legal"]):
        return [PEEK_BUTTON]
    return _as_controls(view["legal"], locale)


def _blind_open(view: MiaView) -> bool:
    return any(Action.parse(a).name == "blind_pass" for a in view["public"])


# -- the table message layout --------------------------------------------------------------------

# A seat's last public act this round (the engine's public log): what it announced, how, or what it showed.
SEAT_ACT = {
    LOG_CLAIM: "mia.seat_claim",
    LOG_UNSEEN: "mia.seat_unseen",
    LOG_BLIND: "mia.seat_blind",
    LOG_REVEAL: "mia.seat_reveal",
    LOG_GIVE_UP: "mia.seat_give_up",
}


def _hearts(lives: int, most: int) -> str:
    return LIFE * lives + NO_LIFE * max(0, most - lives)


def _last_acts(view: MiaView) -> dict[int, tuple[str, int | None]]:
    """Each seat's last public act in this round: (log kind, value)."""
    acts: dict[int, tuple[str, int | None]] = {}
    for round_no, seat, kind, value in view["log"]:
        if round_no == view["round"] and kind in SEAT_ACT:
            acts[seat] = (kind, value)
    return acts


def layout(view: MiaView, names: list[str], locale: str) -> Layout:
    o = view["options"]
    head = [t(f"mia.order_{o['doubles_order']}", locale)]
    if o["blind_pass"] != "off":
        head.append(t(f"mia.blind_{o['blind_pass']}", locale))
    if o["mia_mode"] == "auto_reveal":
        head.append(t("mia.auto_reveal_note", locale))
    over = view["phase"] == GAME_OVER
    if not over:
        head.append(t("mia.round", locale, round=view["round"]))
    acts = _last_acts(view)
    seats = []
    for seat, name in enumerate(names):
        if not view["alive"][seat]:
            seats.append(t("mia.out_line", locale, name=f"**{name}**"))
            continue
        marker = "▫️"
        if over and seat == view["winner"]:
            marker = "🏆"
        elif not over and seat == view["holder"]:
            marker = "▶️"
        hearts = _hearts(view["lives"][seat], o["lives"])
        line = t("mia.lives_line", locale, marker=marker, name=f"**{name}**", hearts=hearts)
        if seat in acts:
            kind, value = acts[seat]
            shown = value_label(value, locale) if value is not None else ""
            line += t(SEAT_ACT[kind], locale, claim=shown)
        if seat == view.get("you") and (dice := view.get("dice")):  # only the viewer's own, once looked at
            line += "\n" + t("mia.your_dice", locale, dice=dice_text(dice), value=value_label(value_of(dice), locale))
        seats.append(line)
    return Layout(head, seats, _situation(view, names, locale) + _not_looked(view, locale))


def _situation(view: MiaView, names: list[str], locale: str) -> list[str]:
    """Whose turn it is and what is being claimed (the round is above the seats)."""
    phase = view["phase"]

    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    if phase == GAME_OVER:
        lines = [t("mia.winner", locale, winner=name(view["winner"]))]
        if view["loser"] is not None:
            lines.append(t("mia.first_out", locale, loser=name(view["loser"])))
        return lines
    holder, claimant, claim = name(view["holder"]), name(view["claimant"]), view["claim"]
    lines = []
    if phase == AWAIT_CLAIM:
        if claim is None:
            lines.append(t("mia.first_claim", locale, holder=holder))
        else:
            key = "mia.believed" if view["looked"] else "mia.believed_unseen"
            lines.append(t(key, locale, holder=holder, claimant=claimant, claim=claim))
        return lines
    if phase == AWAIT_MIA_RESPONSE:
        lines.append(t("mia.announced_mia", locale, claimant=claimant))
    else:
        lines.append(t("mia.announced", locale, claimant=claimant, claim=claim))
    if view["roller"] is not None and view["roller"] != view["claimant"]:
        lines.append(t("mia.blind_roller", locale, roller=name(view["roller"])))
    if phase == AWAIT_MIA_RESPONSE:
        penalty = view["options"]["mia_check_penalty"]
        lines.append(t("mia.respond_mia", locale, holder=holder, penalty=penalty))
    elif _blind_open(view):
        lines.append(t("mia.respond_blind", locale, holder=holder))
    else:
        lines.append(t("mia.respond", locale, holder=holder))
    return lines


def _not_looked(view: MiaView, locale: str) -> list[str]:
    """Only in the holder's own view: a reminder that they have not looked at the dice they rolled."""
    you = view.get("you")
    if you is None or view.get("dice"):
        return []
    if view["phase"] == AWAIT_CLAIM and you == view["holder"] and not view["looked"]:
        return [t("mia.not_looked", locale)]
    return []
