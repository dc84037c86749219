"""Each game's moves at the terminal prompt: how its legal moves read and how they are typed.

The menu shows the catalog's words, the same labels as the Discord buttons and menus (``Believe & roll``,
``🦅 Griffin``, ``Min raise: 2 × ⚀ (ones)``), never an encoded action. Moves too many to list are typed: a
Liar's Dice bid (``3x5``, ``3 5``, ``3×5``), a Mia announcement (``53``, ``mia``), a blind pass (``blind 53``),
a Mythical Dice bid (``2``). Every text comes from the message catalog. The menu itself (listing, matching an
answer) is :mod:`bot.terminal.menus`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.games import Action
from bot.games.parsing import parse_int, quote
from bot.i18n import has, t
from bot.render import DIE_FACES, Control, Menu, game_module
from bot.terminal.menus import Entry, Moves, Refusal, Typed, words_of

if TYPE_CHECKING:
    from bot.games.mythical_dice import MythicView


def build(game: str, view: dict[str, Any], legal: list[Action], locale: str) -> Moves:
    """The person's moves for ``view`` (their own seat's view) and their ``legal`` actions."""
    builder = BUILDERS.get(game)
    try:
        return builder(view, legal, locale) if builder else _from_controls(game, view, legal, locale)
    except ImportError:  # a render module in progress: the moves still get words, if plain ones
        return Moves([Entry(_fallback_label(a, locale), a) for a in legal])


def _control_labels(view: dict[str, Any], locale: str, game: str) -> dict[Action, str]:
    """Every label the Discord surface would show for an action: buttons, menus, private controls."""
    module = game_module(game)
    items: list[Control | Menu] = list(module.controls(view))
    for name in ("player_controls", "private_menus"):
        if hasattr(module, name):
            items += getattr(module, name)(view, locale)
    labels: dict[Action, str] = {}
    for item in items:
        if isinstance(item, Control):
            labels.setdefault(Action.parse(item.action), t(item.label, locale))
        else:
            for label, action in item.options:
                labels.setdefault(Action.parse(action), t(label, locale) if has(label, locale) else label)
    return labels


def _from_controls(game: str, view: dict[str, Any], legal: list[Action], locale: str) -> Moves:
    """Pig, and any game without its own builder: the labels of its Discord controls."""
    labels = _control_labels(view, locale, game)
    entries = [Entry(labels.get(a) or _fallback_label(a, locale), a) for a in legal]
    known = [Entry(label, a) for a, label in labels.items() if a not in legal]
    return Moves(entries, known=known)


def _fallback_label(action: Action, locale: str) -> str:
    """A move no catalog labels: its name in words (a new engine's move, until the catalog has it)."""
    return t("terminal.unlabelled_move", locale, name=action.name.replace("_", " ").capitalize())


def _mex(view: dict[str, Any], legal: list[Action], locale: str) -> Moves:
    from bot.render.mex import BUTTONS

    entries = [Entry(t(key, locale), Action.parse(code)) for code, (key, _) in BUTTONS.items()]
    listed = [e for e in entries if e.action in legal]
    listed += [Entry(_fallback_label(a, locale), a) for a in legal if a not in {e.action for e in listed}]
    return Moves(listed, known=[e for e in entries if e.action not in legal])


# -- Mia -----------------------------------------------------------------------------------------


def _mia(view: dict[str, Any], legal: list[Action], locale: str) -> Moves:
    from bot.games.mia import MIA, VALUES
    from bot.render.mia import MIA_BUTTONS, PEEK_BUTTON, RESPONSE_BUTTONS, value_label

    controls = (PEEK_BUTTON, *RESPONSE_BUTTONS, *MIA_BUTTONS)
    buttons = [Entry(t(c.label, locale), Action.parse(c.action)) for c in controls]
    entries = [e for e in buttons if e.action in legal]
    claims = [int(a.args[0]) for a in legal if a.name == "claim"]
    blind = [int(a.args[0]) for a in legal if a.name == "blind_pass"]
    mia_words = words_of(value_label(21, locale)).split()
    typed: list[Typed] = []

    def value(text: str) -> int | Refusal | None:
        words = words_of(text)
        number = parse_int(words)
        if number is not None:
            return number if number in VALUES else Refusal(t("terminal.not_a_value", locale, value=quote(words)))
        return MIA if words and words in mia_words and parse_int(words) is None else None

    if claims:

        def parse_claim(text: str) -> Action | Refusal | None:
            found = value(text)
            return Action("claim", (found,)) if isinstance(found, int) else found

        shown = " ".join(value_label(v, locale) for v in claims)
        typed.append(
            Typed(
                t("terminal.claim_hint", locale, values=shown),
                parse_claim,
                tuple(mia_words[-1:]),
                numbers=True,
                example=str(claims[0]),
            )
        )
    if blind:
        word = t("terminal.blind_word", locale)

        def parse_blind(text: str) -> Action | Refusal | None:
            head, _, rest = text.strip().partition(" ")
            if words_of(head) != words_of(word):
                return None
            found = value(rest)
            if found is None:
                return Refusal(t("terminal.blind_needs_value", locale, word=word, example=blind[0]))
            return Action("blind_pass", (found,)) if isinstance(found, int) else found

        shown = " ".join(value_label(v, locale) for v in blind)
        typed.append(
            Typed(
                t("terminal.blind_hint", locale, word=word, example=blind[0], values=shown),
                parse_blind,
                (word,),
                example=f"{word} {blind[0]}",
            )
        )
    return Moves(entries, typed, known=[e for e in buttons if e.action not in legal])


# -- Liar's Dice -----------------------------------------------------------------------------------

BID = re.compile(r"^([0-9]+)\s*(?:[x×*]\s*|\s+)([0-9]+|[⚀-⚅])s?$", re.IGNORECASE)


def _liar(view: dict[str, Any], legal: list[Action], locale: str) -> Moves:
    from bot.render.liar import bid_text

    bids = [(int(a.args[0]), int(a.args[1])) for a in legal if a.name == "bid"]
    entries = []
    if bids:
        button = t("liar.min_raise_button" if view.get("bid") else "liar.open_button", locale)
        label = t("terminal.min_bid_entry", locale, button=button, bid=bid_text(*bids[0], locale, key="liar.bid_label"))
        entries.append(Entry(label, Action("bid", bids[0])))
    liar = Entry(t("liar.liar_button", locale), Action("challenge"))
    if liar.action in legal:
        entries.append(liar)
    hint = example = ""  # no raise left: the parser only says so when a bid is typed
    if bids:
        q, f = bids[0]
        example = f"{q}x{f}"
        hint = t(
            "terminal.bid_hint",
            locale,
            example=example,
            example_spaced=f"{q} {f}",
            min=bid_text(q, f, locale, key="liar.bid_label"),
        )
    typed = Typed(hint, lambda text: _parse_bid(text, view, bids, locale), example=example)
    known = [] if liar.action in legal else [liar]
    return Moves(entries, [typed], known=known)


def _parse_bid(text: str, view: dict[str, Any], bids: list[tuple[int, int]], locale: str) -> Action | Refusal | None:
    """``3x5`` / ``3 5`` / ``3×5`` / ``3 ⚄`` -> a legal bid, or the catalog's reason it is not one."""
    from bot.render.liar import bid_text

    text = text.strip()
    if not text[:1].isascii() or not text[:1].isdigit() or parse_int(text) is not None:
        return None  # a word or a menu number
    standing = view["bid"]
    if not bids:
        if standing is None:
            return None
        bid = bid_text(standing["quantity"], standing["face"], locale)
        return Refusal(t("terminal.bid_none", locale, bid=bid, dice=t("ui.n_dice", locale, count=view["total"])))
    lowest = t("terminal.bid_lowest", locale, bid=bid_text(*bids[0], locale))
    match = BID.match(text)
    if match is None:
        return Refusal(t("terminal.bid_malformed", locale, text=quote(text)) + " " + lowest)
    quantity = parse_int(match[1])
    face = DIE_FACES.index(match[2]) + 1 if match[2] in DIE_FACES else parse_int(match[2])
    if quantity is None or face is None:  # more digits than any bid has
        return Refusal(t("terminal.bid_malformed", locale, text=quote(text)) + " " + lowest)
    options = view["options"]
    if not 1 <= face <= 6:
        reason = t("liar.error.bad_face", locale, face=face)
    elif options.get("wild_ones") and face == 1:
        reason = t("liar.error.ones_not_biddable", locale)
    elif quantity < 1:
        reason = t("liar.error.bad_quantity", locale, quantity=quantity)
    elif quantity > view["total"]:
        reason = t("liar.error.quantity_over_cap", locale, cap=view["total"], quantity=quantity)
    elif (quantity, face) in bids:
        return Action("bid", (quantity, face))
    else:
        reason = t(
            "terminal.bid_not_higher",
            locale,
            bid=bid_text(quantity, face, locale),
            standing=bid_text(standing["quantity"], standing["face"], locale) if standing else "",
            rule=t(f"liar.rule.{options['raise_rule']}", locale),
        )
    return Refusal(f"{reason} {lowest}")


# -- Mythical Dice ---------------------------------------------------------------------------------


def _mythic(view: MythicView, legal: list[Action], locale: str) -> Moves:
    from bot.render.mythic import die_choices, die_text

    bids = [int(a.args[0]) for a in legal if a.name == "bid"]
    if bids:

        def parse(text: str) -> Action | Refusal | None:
            words = words_of(text)
            number = parse_int(words)
            return Action("bid", (number,)) if number is not None else None

        hint = t("terminal.tricks_hint", locale, low=min(bids), high=max(bids))
        return Moves([], [Typed(hint, parse, numbers=True, example=str(min(bids)))])
    entries = [Entry(label, Action("play", (die,))) for label, die in die_choices(view, locale)]
    playable = {int(a.args[0]) for a in legal if a.name == "play"}
    held: dict[str, int] = {}
    for d in view.get("your_dice", []):
        if d["id"] not in playable:
            held.setdefault(d["type"], d["id"])
    known = [Entry(die_text(kind, locale), Action("play", (die,))) for kind, die in held.items()]
    return Moves(entries, known=known)


# Each builder reads its own game's view (``build`` dispatches on the game's id), hence ``Any`` here.
BUILDERS: dict[str, Callable[[Any, list[Action], str], Moves]] = {
    "mia": _mia,
    "mex": _mex,
    "liar": _liar,
    "mythic": _mythic,
}
