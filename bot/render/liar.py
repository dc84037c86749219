"""Liar's Dice: the table layout, the raise controls, and the bid wording.

Everything is drawn from ``engine.view``: with ``viewer`` None (the channel) ``hand`` is None, so a
player's dice only ever appear in their own view, their DM, or a public reveal.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import bot.i18n as i18n
from bot.games.liars_dice import LiarView
from bot.i18n import DEFAULT, SURFACE, t
from bot.render import DIE_FACES, Control, Layout, Menu, dice_text, faces

MENU_SIZE = 25  # Discord's limit of options per select
LOW_FACES = (1, 2, 3)

# Every raise in play is drawn as text twice per move (the smallest in the body, up to 50 in the menus) from a
# few hundred possible bids: memos keyed by what the text is made of, the surface and the catalog's generation
# included (``i18n.generation``). A bid list and its menus weigh a few KB: those keep the most recent MEMO_LISTS.
MEMO = 4096
MEMO_LISTS = 256


def bid_text(quantity: int, face: int, locale: str = DEFAULT, key: str = "liar.bid") -> str:
    """``**3 × ⚃** (fours)``; ``key="liar.bid_label"`` gives the plain form for select options (a label never
    holds an emoji's markdown: its face stays the Unicode one)."""
    return _bid_text(quantity, face, locale, key, SURFACE.get(), i18n.generation(), faces.generation())


@lru_cache(maxsize=MEMO)
def _bid_text(quantity: int, face: int, locale: str, key: str, surface: str | None, generation: int, drawn: int) -> str:
    name = t(f"liar.face_{'one' if quantity == 1 else 'many'}.{face}", locale)
    return t(key, locale, quantity=quantity, die=_face(face, plain=key == "liar.bid_label"), name=name)


def _face(face: int, plain: bool = False) -> str:
    """A bid's face: its application emoji in text where uploaded, else (and in a label) the Unicode face."""
    key = f"d{face}"
    return faces.text(key) if not plain and faces.loaded(key) else DIE_FACES[face - 1]


def hand_text(hand: list[int], wild: bool) -> str:
    """A hand of dice; with wild ones, a one is drawn as the wild face."""
    return dice_text(hand, wild)


# The fields ``error_params`` adds to a refusal's own params (tests/test_catalog.py checks templates against them).
ERROR_PARAMS = frozenset({"bid", "standing", "rule_name", "why", "smallest", "dice"})


def error_params(code: str, params: dict[str, Any], locale: str) -> dict[str, str]:
    """A refused raise names both bids, the rule and what it asks for (L-3), and the smallest legal raise."""
    if code not in ("bid_not_higher", "must_challenge"):
        return {}
    pq, pf, rule = params["bid_quantity"], params["bid_face"], params["rule"]
    extra = {
        "bid": bid_text(params["quantity"], params["face"], locale),
        "standing": bid_text(pq, pf, locale),
        "rule_name": t(f"liar.rule.{rule}", locale),
        "why": t(f"liar.rule_why.{rule}", locale, product=pq * pf, top=max(pq, pf)),
    }
    if params.get("min_quantity") is not None:
        extra["smallest"] = bid_text(params["min_quantity"], params["min_face"], locale)
    if params.get("cap") is not None:
        extra["dice"] = t("ui.n_dice", locale, count=params["cap"])
    return extra


def event_params(kind: str, data: dict[str, Any], names: list[str], locale: str) -> dict[str, str]:
    """A bid's face in its log line, through the faces (the template has the face's words)."""
    if kind.startswith("bid_") and data.get("face") in range(1, 7):
        return {"die": _face(data["face"])}
    return {}


def event_key(kind: str, data: dict[str, Any]) -> str:
    if kind == "bid" and data.get("face") in range(1, 7):
        return f"bid_{data['face']}" + ("_one" if data.get("quantity") == 1 else "")
    if kind == "reveal" and "bid_true" in data:
        return "reveal_true" if data["bid_true"] else "reveal_false"
    if kind == "round" and data.get("redeal"):
        return "round_redeal"
    if kind == "timeout":
        return "timeout_challenge" if data.get("action") == "challenge" else "timeout_bid"
    if kind == "game_over" and data.get("reason"):
        return f"game_over_{data['reason']}"
    return kind


def _raises(view: LiarView) -> list[tuple[int, int]]:
    """Every legal bid now, smallest first: the engine's public actions in the channel's view."""
    if view.get("over") or view.get("current") is None:
        return []
    return list(_parsed(tuple(view["public"])))


@lru_cache(maxsize=MEMO_LISTS)
def _parsed(public: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    """The bids among the view's encoded actions, ``bid:<quantity>:<face>`` as the controls write them. The engine
    wrote these texts, so a split is enough: Action.parse's checks are for what a player sends."""
    bids = []
    for text in public:
        name, _, rest = text.partition(":")
        if name == "bid":
            quantity, _, face = rest.partition(":")
            bids.append((int(quantity), int(face)))
    return tuple(bids)


def _menu(name: str, placeholder: str, bids: list[tuple[int, int]], rank: list[tuple[int, int]]) -> Menu | None:
    """Up to 25 bids on the faces of one group: the smallest few quantities of every face, taken in turn."""
    by_face: dict[int, list[tuple[int, int]]] = {}
    for q, f in bids:
        by_face.setdefault(f, []).append((q, f))
    queues = [sorted(v) for _, v in sorted(by_face.items())]
    chosen: list[tuple[int, int]] = []
    while len(chosen) < MENU_SIZE and any(queues):
        for queue in queues:
            if queue and len(chosen) < MENU_SIZE:
                chosen.append(queue.pop(0))
    if not chosen:
        return None
    order = {b: i for i, b in enumerate(rank)}
    chosen.sort(key=order.__getitem__)
    options = tuple((bid_text(q, f, key="liar.bid_label"), f"bid:{q}:{f}") for q, f in chosen)
    return Menu(name, placeholder, options, tuple(f"d{f}" for _, f in chosen))


def controls(view: LiarView) -> list[Control | Menu]:
    """Min raise (the rule's smallest legal bid), Liar!, and two menus of legal raises (low and high faces)."""
    if view.get("over") or view.get("current") is None:
        return []
    public = tuple(view["public"])
    wild_ones = bool(view["options"]["wild_ones"])
    return list(_controls(public, bool(view["bid"]), wild_ones, SURFACE.get(), i18n.generation()))


@lru_cache(maxsize=MEMO_LISTS)
def _controls(
    public: tuple[str, ...], has_bid: bool, wild_ones: bool, surface: str | None, generation: int
) -> tuple[Control | Menu, ...]:
    bids = list(_parsed(public))
    out: list[Control | Menu] = []
    if bids:
        q, f = bids[0]
        label = "liar.min_raise_button" if has_bid else "liar.open_button"
        out.append(Control(label, f"bid:{q}:{f}", "primary", face=f"d{f}"))
    if has_bid:
        out.append(Control("liar.liar_button", "challenge", "danger"))
    low = [b for b in bids if b[1] in LOW_FACES]
    high = [b for b in bids if b[1] not in LOW_FACES]
    low_key = "liar.menu_low_wild" if wild_ones else "liar.menu_low"
    for menu in (_menu("bid_low", low_key, low, bids), _menu("bid_high", "liar.menu_high", high, bids)):
        if menu is not None:
            out.append(menu)
    return tuple(out)


def _seat_entry(view: LiarView, seat: int, name: str, locale: str) -> str:
    """``▶️ **Ann** · 🎲 **4 dice** · 📣 3 × ⚃``: the seat's dice left and its last bid this round; under it the
    viewer's own dice (their view only) and the seat's hand at the last reveal."""
    bold = f"**{name}**"
    if view["forfeited"][seat]:
        line = t("liar.seat_forfeited", locale, name=bold)
    elif view["out"][seat]:
        line = t("liar.seat_out", locale, name=bold)
    else:
        marker = "▶️" if seat == view["current"] else "▫️"
        dice = t("ui.n_dice", locale, count=view["counts"][seat])
        # the count is no die drawn: its icon stays the small Unicode one (an emoji would cost ~40 characters a seat)
        line = t("liar.seat_line", locale, marker=marker, name=bold, die=faces.unicode("hidden"), dice=dice)
        bid = next((b for b in reversed(view["bids"]) if b[0] == seat), None)
        if bid is not None:
            line += t("liar.seat_bid", locale, quantity=bid[1], die=_face(bid[2]))
    under = []
    if seat == view["you"] and (hand := view.get("hand")):  # only in the seat's own view
        under.append(t("liar.your_dice", locale, dice=hand_text(hand, bool(view["options"]["wild_ones"]))))
    reveal = _fresh_reveal(view)
    if reveal and seat < len(reveal["hands"]) and (shown := reveal["hands"][seat]):
        under.append(t("liar.seat_revealed", locale, dice=hand_text(shown, bool(reveal.get("wild_ones")))))
    return "\n".join([line, " · ".join(under)]) if under else line


def _fresh_reveal(view: LiarView) -> dict[str, Any] | None:
    """The last challenge while it is news: until the next round's first bid (and once the game is over). Then the
    log keeps its count, and the hands (up to six of six dice, some 1,300 characters as emojis) leave the table."""
    reveal = view.get("last_reveal")
    return reveal if reveal and (view["over"] or not view["bids"]) else None


def _reveal_lines(reveal: dict[str, Any], names: list[str], locale: str) -> list[str]:
    """The last challenge: the bid, who called it, the count and who lost (each hand is under its seat)."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    title = t(
        "liar.reveal_title",
        locale,
        round=reveal["round"],
        bid=bid_text(reveal["quantity"], reveal["face"], locale),
        bidder=name(reveal["bidder"]),
        challenger=name(reveal["challenger"]),
        count=reveal["count"],
        wild=t("liar.reveal_wild", locale) if reveal.get("wild_ones") else "",
    )
    key = "liar.reveal_result_true" if reveal["bid_true"] else "liar.reveal_result_false"
    return [title, t(key, locale, loser=name(reveal["loser"]))]


def _result_lines(view: LiarView, names: list[str], locale: str) -> list[str]:
    lines = [t("liar.over", locale)]
    reveal = view.get("last_reveal")
    if view["options"]["mode"] == "single" and view.get("end_reason") == "challenge" and reveal:
        lines.append(t("liar.over_single", locale, winner=names[reveal["winner"]], loser=names[reveal["loser"]]))
        return lines
    counts = view["counts"]
    best = max(counts) if counts else 0
    winners = [f"**{names[s]}**" for s, c in enumerate(counts) if c and c == best]
    if winners:
        key = "liar.over_winner" if len(winners) == 1 else "liar.over_winners"
        lines.append(t(key, locale, winners=", ".join(winners)))
    return lines


def layout(view: LiarView, names: list[str], locale: str) -> Layout:
    o = view["options"]
    header = "liar.header_wild" if o["wild_ones"] else "liar.header"
    head = [
        t(
            header,
            locale,
            round=view["round"],
            total=view["total"],
            rule=t(f"liar.rule.{o['raise_rule']}", locale),
            mode=t(f"liar.mode.{o['mode']}", locale),
        )
    ]
    if o["mode"] != "single" and o["max_rounds"]:
        head.append(t("liar.max_rounds", locale, max_rounds=o["max_rounds"]))
    seats = [_seat_entry(view, seat, name, locale) for seat, name in enumerate(names)]
    foot: list[str] = []
    seat = view["current"]  # None exactly when over
    if view["over"] or seat is None:
        foot += _result_lines(view, names, locale)
    else:
        current = names[seat]
        bids = _raises(view)
        smallest = bid_text(*bids[0], locale) if bids else ""
        bid = view["bid"]
        if bid is None:
            foot.append(t("liar.no_bid", locale, name=current, min=smallest))
        else:
            bidder = names[view["bidder"]] if view["bidder"] is not None else "?"
            foot.append(t("liar.standing_bid", locale, bid=bid_text(bid["quantity"], bid["face"], locale), name=bidder))
            key = "liar.to_act" if bids else "liar.must_challenge"
            foot.append(t(key, locale, name=current, min=smallest))
    if reveal := _fresh_reveal(view):
        foot += _reveal_lines(reveal, names, locale)
    return Layout(head, seats, foot)
