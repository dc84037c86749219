"""Mythical Dice: the table layout, the bid and die menus, and the wording of dice, rolls and log lines.

Everything is drawn from ``engine.view``: with ``viewer`` None (the channel) ``your_dice`` is empty
and unrevealed bids are None, so a hand or a bid only ever appears in its owner's view or DM.

Two spellings keep hidden and public dice apart: a die in a hand reads ``🟥 red`` (its type), a
rolled die reads ``🟥 **7**`` (its face), and a suit reads ``🟥 **red**``. Where the project's die faces are
uploaded as application emojis (``bot.render.faces``), text draws a die in a hand as its type's emoji and a rolled
die as its face's emoji instead; menu labels keep the Unicode spelling (a label cannot hold an emoji's markdown).
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action
from bot.games.mythical_dice import DIE_TYPES, FLAG, SPECIALS, MythicRoll, MythicView, bag_types
from bot.i18n import DEFAULT, t
from bot.render import Layout, Menu, faces, runs

DIE_EMOJI = faces.MYTHIC_UNICODE  # a die type's Unicode face, where no application emoji is uploaded
MEDALS = ("🥇", "🥈", "🥉")
MENU_SIZE = 25  # Discord's limit of options per select


# -- dice, rolls, hands ------------------------------------------------------------------------


def die_text(kind: str, locale: str = DEFAULT, count: int = 1, plain: bool = False) -> str:
    """A hidden die by its type: ``🟥 red``, or ``🟥 red ×2`` for several of one type; in text (not ``plain``, a
    label's) the type's emoji where uploaded, once per die."""
    key = f"m_{kind}"
    if not plain and faces.loaded(key):
        return " ".join(runs([faces.text(key)] * count))
    key = "mythic.hand_die" if count == 1 else "mythic.hand_dice"
    return t(key, locale, emoji=DIE_EMOJI.get(kind, "🎲"), name=t(f"mythic.die.{kind}", locale), count=count)


def _by_type(kinds: list[str]) -> list[tuple[str, int]]:
    """(type, count) in bag order: the specials, then the colours from strongest to weakest."""
    order = [k for k in DIE_TYPES if k in kinds] + sorted({k for k in kinds if k not in DIE_TYPES})
    return [(k, kinds.count(k)) for k in order]


def hand_text(kinds: list[str], locale: str = DEFAULT) -> str:
    """A hand of hidden dice: ``🐂 Minotaur · 🟥 red ×2 · ⬜ gray``."""
    if not kinds:
        return t("mythic.no_dice", locale)
    return " · ".join(die_text(kind, locale, count) for kind, count in _by_type(kinds))


def face_text(face: str, locale: str = DEFAULT) -> str:
    if face == FLAG:
        return t("mythic.face.flag", locale)
    if face in SPECIALS:
        return t(f"mythic.face.{face}", locale)
    return t("mythic.face.number", locale, value=face)


def _face_key(kind: str, face: str) -> str:
    return f"m_{kind}_{'face' if face in SPECIALS else face}"  # a special's creature side is its "face"


def roll_emoji(kind: str, face: str) -> str:
    """A rolled die's picture alone, for a log line that names the face in words: the face's emoji where
    uploaded, else the type's Unicode emoji (``🟥``)."""
    key = _face_key(kind, face)
    return faces.text(key) if faces.loaded(key) else DIE_EMOJI.get(kind, "🎲")


def roll_text(kind: str, face: str, locale: str = DEFAULT) -> str:
    """A rolled die by its face: ``🟥 **7**``, ``⬜ 🏳️``, ``🦅 **Griffin**``; the face's emoji where uploaded."""
    key = _face_key(kind, face)
    if faces.loaded(key):
        return faces.text(key)
    return f"{DIE_EMOJI.get(kind, '🎲')} {face_text(face, locale)}"


# The fields ``error_params`` adds to a refusal's own params (tests/test_catalog.py checks templates against them).
ERROR_PARAMS: frozenset[str] = frozenset()


def error_params(code: str, params: dict[str, Any], locale: str) -> dict[str, str]:
    """The suit a refusal asks for, in the reader's words (the engine names it by its id, ``red``)."""
    if code == "must_follow_colour" and isinstance(params.get("colour"), str):
        return {"colour": t(f"mythic.die.{params['colour']}", locale)}
    return {}


def suit_text(suit: str | None, locale: str = DEFAULT) -> str:
    if suit is None:
        return t("mythic.no_suit", locale)
    key = f"m_{suit}"
    emoji = faces.text(key) if faces.loaded(key) else DIE_EMOJI.get(suit, "🎲")
    return t("mythic.suit", locale, emoji=emoji, name=t(f"mythic.die.{suit}", locale))


def _rolls_text(rolls: list[MythicRoll], names: list[str], locale: str) -> str:
    return " · ".join(f"**{_name(names, r['player'])}** {roll_text(r['type'], r['face'], locale)}" for r in rolls)


def _name(names: list[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


# -- log lines -----------------------------------------------------------------------------------


def event_key(kind: str, data: dict[str, Any]) -> str:
    """Pick a template variant: the die and face of a roll, the winning face of a trick, …"""
    if kind == "played":
        die, face = data.get("type"), data.get("face")
        if die not in DIE_TYPES:
            return "played"
        return f"played_{die}_flag" if face == FLAG else f"played_{die}"
    if kind == "trick_won":
        die, face = data.get("type"), data.get("face")
        if face in SPECIALS:
            return f"trick_won_{face}"
        if face == FLAG:
            return "trick_won_flag"
        return f"trick_won_{die}" if die in DIE_TYPES else "trick_won"
    if kind == "bid_placed" and not data.get("waiting", True):
        return "bid_placed_last"  # the reveal of every bid follows at once
    if kind == "hand_started" and data.get("dice") == 1:
        return "hand_started_one"
    if kind == "game_over" and len(data.get("winners", [])) > 1:
        return "game_over_tie"
    return kind


def event_params(kind: str, data: dict[str, Any], names: list[str], locale: str) -> dict[str, str]:
    """What a template prints beyond the event's own fields: a rolled die's picture, a hand, and per-player bids
    and scores."""
    if kind.startswith(("played_", "trick_won_")) and isinstance(data.get("type"), str):
        return {"die": roll_emoji(data["type"], str(data.get("face")))}
    if kind == "deal":
        return {"hand_text": hand_text([d["type"] for d in data.get("dice", [])], locale)}
    if kind == "start" and isinstance(data.get("hands"), int):
        return {"hands_text": t("ui.n_hands", locale, count=data["hands"])}
    if kind == "bids_revealed":
        bids = [(p, b) for p, b in enumerate(data.get("bids", [])) if b is not None]
        return {"bids_text": " · ".join(t("mythic.bid_row", locale, name=_name(names, p), bid=b) for p, b in bids)}
    if kind == "hand_scored":
        rows = [
            t(
                "mythic.score_row_bonus" if r["bonus"] else "mythic.score_row",
                locale,
                mark="✅" if r["bid"] == r["tricks"] else "❌",
                name=_name(names, r["player"]),
                score=r["score"],
                bonus=r["bonus"],
            )
            for r in data.get("rows", [])
        ]
        return {"results": " · ".join(rows)}
    return {}


# -- controls --------------------------------------------------------------------------------------


def _bids(actions: list[str]) -> list[int]:
    """The bids among encoded ``actions``, in the engine's order."""
    return [int(a.args[0]) for a in map(Action.parse, actions) if a.name == "bid"]


def public_bids(view: MythicView) -> list[int]:
    """The bids open to the seats still to bid (the engine's public actions); none once bidding is over."""
    return _bids(view["public"])


def _max_bid(view: MythicView) -> int:
    """The highest bid open now; the hand number when none is open."""
    return max(public_bids(view), default=view["hand"])


def _bid_menu(bids: list[int]) -> Menu:
    options = tuple((str(b), f"bid:{b}") for b in bids[:MENU_SIZE])
    return Menu("bid", "mythic.bid_placeholder", options)


def controls(view: MythicView) -> list[Menu]:
    """The table message offers a menu of the engine's public bids while bidding (a bid is secret, the menu
    is not), and while playing a menu of every die type in the bag (the same for everyone, so it tells nothing
    of anyone's hand): the player to roll picks a type they hold and one of their dice of it is rolled (dice of
    one type are interchangeable; ``cogs.mythic.Mythic.resolve_action``), one click on the table. 🎲 My dice
    offers the player's own dice too (``private_menus``).
    """
    bids = public_bids(view)
    if bids:
        return [_bid_menu(bids)]
    if view["phase"] == "playing" and view["to_act"]:
        kinds = sorted(set(bag_types(view["options"].get("dice_set", "standard"))), key=DIE_TYPES.index)
        options = tuple((f"mythic.die.{kind}", f"play:{kind}") for kind in kinds)
        return [Menu("roll", "mythic.play_placeholder", options, tuple(f"m_{kind}" for kind in kinds))]
    return []


def die_choices(view: MythicView, locale: str = DEFAULT) -> list[tuple[str, int]]:
    """(label, die id) per die type the viewer may roll now, or holds if it is not their roll.

    Dice of one type are interchangeable, so each type is offered once (its lowest id). The labels are plain
    text (a menu option or a command's choice): ``🟥 red ×2``.
    """
    legal = {int(a.split(":")[1]) for a in view.get("legal", []) if a.startswith("play:")}
    dice = [d for d in view.get("your_dice", []) if not legal or d["id"] in legal]
    kinds = [d["type"] for d in dice]
    return [
        (die_text(kind, locale, count, plain=True), min(d["id"] for d in dice if d["type"] == kind))
        for kind, count in _by_type(kinds)
    ]


def private_menus(view: MythicView, locale: str = DEFAULT) -> list[Menu]:
    """The menus under a player's own view: a bid to place, or the legal dice to roll."""
    legal = view.get("legal", [])
    if view["phase"] == "bidding" and legal:
        return [_bid_menu(_bids(legal))]
    if view["phase"] == "playing" and legal:
        options = tuple((label, f"play:{die}") for label, die in die_choices(view, locale))
        kinds = {d["id"]: d["type"] for d in view.get("your_dice", [])}
        shown = tuple(f"m_{kinds[die]}" if die in kinds else None for _, die in die_choices(view, locale))
        return [Menu("play", "mythic.play_placeholder", options, shown)]
    return []


# -- the table layout ------------------------------------------------------------------------------


def _places(view: MythicView) -> dict[int, str]:
    """Seat -> its medal or place in the engine's outcome (best first, ties share a place)."""
    places: dict[int, str] = {}
    place = 1
    for group in view["ranking"] or []:
        for p in group:
            places[p] = MEDALS[place - 1] if place <= len(MEDALS) else f"{place}."
        place += len(group)
    return places


def _final(view: MythicView, names: list[str], locale: str) -> Layout:
    places = _places(view)
    seats = []
    for p, name in enumerate(names[: view["players"]]):
        place, score = places.get(p, "▫️"), view["scores"][p]
        if view["active"][p]:
            exact = t("ui.n_exact_bids", locale, count=view["exact_bids"][p])
            seats.append(t("mythic.rank_line", locale, place=place, name=name, score=score, exact=exact))
        else:
            seats.append(t("mythic.rank_left", locale, place=place, name=name, score=score))
    return Layout([t("mythic.over", locale, hands=view["hands"])], seats, [])


def _seat_entry(view: MythicView, seat: int, name: str, locale: str) -> str:
    """The seat's score, its bid once revealed, tricks won, dice left and its roll in this trick; under it the
    viewer's own hand (their view only)."""
    score = view["scores"][seat]
    if not view["active"][seat]:
        return t("mythic.player_left", locale, name=name, score=score)
    if view["phase"] == "bidding":
        marker = "✅" if view["has_bid"][seat] else "⏳"
        line = t("mythic.player_bidding", locale, marker=marker, name=name, score=score)
    else:
        marker = "▶️" if seat in view["to_act"] else "▫️"
        line = t(
            "mythic.player_playing",
            locale,
            marker=marker,
            name=name,
            score=score,
            bid=view["bids"][seat],
            tricks=view["tricks"][seat],
            left=view["hand_sizes"][seat],
            die=faces.unicode("hidden"),  # a count, no die drawn: the small Unicode icon (~40 characters less)
        )
        rolled = next((r for r in view["trick"] if r["player"] == seat), None)
        if rolled is not None:
            line += t("mythic.seat_roll", locale, roll=roll_text(rolled["type"], rolled["face"], locale))
    if seat == view["you"]:  # only in the seat's own view
        kinds = [d["type"] for d in view["your_dice"]]
        line += "\n" + t("mythic.your_dice", locale, dice=hand_text(kinds, locale))
    return line


def _your_lines(view: MythicView, names: list[str], locale: str) -> list[str]:
    """What the viewer must do (or wait for): their bid, their legal dice; their hand is under their seat."""
    seat = view["you"]
    if seat is None or not (0 <= seat < view["players"]) or not view["active"][seat]:
        return []
    if view["phase"] == "bidding":
        bid = view["bids"][seat]
        if bid is None:
            return [t("mythic.your_bid_prompt", locale, max=max(_bids(view["legal"]), default=view["hand"]))]
        return [t("mythic.your_bid", locale, bid=bid)]
    if view["legal"]:
        legal = hand_text([d["type"] for d in view["your_dice"] if f"play:{d['id']}" in view["legal"]], locale)
        return [t("mythic.your_roll", locale, dice=legal)]
    if view["to_act"]:
        return [t("mythic.your_wait", locale, name=_name(names, view["to_act"][0]))]
    return []


def layout(view: MythicView, names: list[str], locale: str) -> Layout:
    if view["phase"] == "over":
        return _final(view, names, locale)
    hand = view["hand"]
    head = [t("mythic.hand_header", locale, hand=hand, hands=view["hands"], leader=_name(names, view["leader"]))]
    foot = []
    if view["phase"] == "bidding":
        head.append(t("mythic.bidding", locale, max=_max_bid(view)))
    else:
        total = sum(b for b in view["bids"] if b is not None)
        head.append(t("mythic.bids_total", locale, total=total, tricks=t("ui.n_tricks", locale, count=hand)))
        trick = min(view["trick_no"] + 1, hand)
        head.append(t("mythic.trick_header", locale, trick=trick, tricks=hand, suit=suit_text(view["suit"], locale)))
        if view["to_act"]:
            foot.append(t("mythic.to_roll", locale, name=_name(names, view["to_act"][0])))
    seats = [_seat_entry(view, seat, name, locale) for seat, name in enumerate(names[: view["players"]])]
    last = view["last_trick"]
    if last:
        rolls = _rolls_text(last["rolls"], names, locale)
        if last["winner"] is None:
            foot.append(t("mythic.last_trick_discarded", locale, trick=last["trick"], rolls=rolls))
        else:
            winner = _name(names, last["winner"])
            foot.append(t("mythic.last_trick", locale, trick=last["trick"], rolls=rolls, winner=winner))
    foot += _your_lines(view, names, locale)
    return Layout(head, seats, foot)
