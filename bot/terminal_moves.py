"""The terminal prompt's moves: how each game's legal moves read and how they are typed.

The menu shows the catalog's words, the same labels as the Discord buttons and menus (``Believe & roll``,
``🦅 Griffin``, ``Min raise: 2 × ⚀ (ones)``), never an encoded action. Listed moves are picked by their
number or their words (``roll``, ``end round``, an unambiguous start such as ``gri``); moves too many to
list are typed: a Liar's Dice bid (``3x5``, ``3 5``, ``3×5``), a Mia announcement (``53``, ``mia``), a
blind pass (``blind 53``), a Mythical Dice bid (``2``). Every text comes from the message catalog.

A move the game knows but that is not legal now (``hold`` before the first roll) still goes to the engine,
so the person reads the engine's reason, not a bare "not a move".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import Action
from bot.games.parsing import parse_int, quote
from bot.i18n import has, t
from bot.render import DIE_FACES, Control, Menu, game_module

MENU_COLUMNS_GAP = 3


def words_of(text: str) -> str:
    """What a label reads as typed: ``'👀 Peek'`` -> ``'peek'``, ``'Keep ⚀ 1'`` -> ``'keep 1'``."""
    return " ".join(re.findall(r"\w+", text.lower()))


def display_width(text: str) -> int:
    """Terminal columns of ``text``: wide characters (most emoji) take two, combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char) or char in "\ufe0f\u200d":
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns (emoji count two), later lines under ``indent``."""
    body = text.lstrip(" ")
    lines: list[str] = []
    line = text[: len(text) - len(body)]  # the first line keeps its own indent
    for word in body.split(" "):
        candidate = f"{line} {word}" if line.strip() else line + word
        if line.strip() and display_width(candidate) > width:
            lines.append(line.rstrip())
            line = indent + word
        else:
            line = candidate
    lines.append(line.rstrip())
    return lines


@dataclass(frozen=True)
class Refusal:
    """Typed text that is a move of the right kind but not a good one: the catalog's reason."""

    reason: str


@dataclass(frozen=True)
class Entry:
    """A listed move: its label (catalog words) and the action it stands for."""

    label: str
    action: Action

    @property
    def words(self) -> str:
        return words_of(self.label)


Parser = Callable[[str], "Action | Refusal | None"]


@dataclass(frozen=True)
class Typed:
    """Moves typed rather than listed: a menu line, a parser (None: not this kind of move) and words to complete.

    ``numbers``: a bare number is this kind of move (a Mia value, a trick count), so listed moves are not
    numbered at the same prompt. Without a ``hint`` the kind only explains refusals (no bid raises: Liar!).
    """

    hint: str
    parse: Parser
    completions: tuple[str, ...] = ()
    numbers: bool = False
    example: str = ""


@dataclass
class Moves:
    """The person's moves at one prompt."""

    entries: list[Entry]
    typed: list[Typed] = field(default_factory=list)
    known: list[Entry] = field(default_factory=list)  # moves of the game that are not legal now

    @property
    def numbered(self) -> bool:
        return bool(self.entries) and not any(kind.numbers for kind in self.typed)

    @property
    def offered(self) -> list[Typed]:
        """The typed kinds the menu offers (with a hint line)."""
        return [kind for kind in self.typed if kind.hint]

    def numbers(self, locale: str) -> str:
        """The numbers of the listed moves: ``1`` or ``1-3``."""
        if len(self.entries) == 1:
            return t("terminal.choices_one", locale)
        return t("terminal.choices_range", locale, last=len(self.entries))

    def choices(self, locale: str) -> str | None:
        """The numbers for the prompt; None when the moves are not numbered or some are typed."""
        return self.numbers(locale) if self.numbered and not self.offered else None

    def example(self) -> str:
        if self.entries:
            return self.entries[0].words
        return next((kind.example for kind in self.typed if kind.example), "")

    def completions(self) -> list[str]:
        words: list[str] = []
        for entry in self.entries:
            words += entry.words.split()
        for kind in self.typed:
            words += kind.completions
        return list(dict.fromkeys(w for w in words if parse_int(w) is None))

    # -- reading the menu ----------------------------------------------------------------------

    def lines(self, width: int, locale: str) -> list[str]:
        if self.offered:
            lines = [t("terminal.menu_typed", locale)]
        else:
            lines = [t("terminal.menu", locale, count=len(self.entries))]
        if self.numbered:
            lines += columns([f"{i}) {e.label}" for i, e in enumerate(self.entries, 1)], width)
        else:
            lines += columns([t("terminal.menu_item", locale, label=e.label) for e in self.entries], width)
        for kind in self.offered:
            lines += wrap("  " + kind.hint, width, indent="    ")
        return lines

    def summary(self) -> str:
        """The listed moves by their labels, for a short reminder after a wrong answer."""
        return ", ".join(e.label for e in self.entries)

    # -- matching what was typed -----------------------------------------------------------------

    def match(self, text: str) -> Action | Refusal | None:
        """The action ``text`` names, a refusal with the reason, or None (not a move here)."""
        text = text.strip()
        index = parse_int(text)
        if self.numbered and index is not None:
            return self.entries[index - 1].action if 1 <= index <= len(self.entries) else None
        for kind in self.typed:
            result = kind.parse(text)
            if result is not None:
                return result
        for group in (self.entries, self.known):
            found = _by_words(text, group)
            if found is not None:
                return found
        if ":" in text:  # an encoded action (``claim:53``): the engine judges it
            try:
                return Action.parse(text)
            except ValueError:
                return None
        return None

    def ambiguous(self, text: str) -> list[Entry]:
        """The listed moves whose words start with ``text`` when there are several."""
        hits = _starting(words_of(text), self.entries)
        return hits if len(hits) > 1 else []


def _starting(wanted: str, entries: list[Entry]) -> list[Entry]:
    if not wanted:
        return []
    pattern = re.compile(r"(?:^| )" + re.escape(wanted))
    return [e for e in entries if pattern.search(e.words)]


def _by_words(text: str, entries: list[Entry]) -> Action | None:
    wanted = words_of(text)
    lowered = text.lower()
    for entry in entries:
        if (wanted and entry.words == wanted) or entry.action.encode().lower() == lowered:
            return entry.action
    hits = _starting(wanted, entries)
    actions = list(dict.fromkeys(e.action for e in hits))
    return actions[0] if len(actions) == 1 else None


def columns(items: list[str], width: int) -> list[str]:
    """``items`` in columns under a two-space indent, as many per line as ``width`` allows."""
    if not items:
        return []
    cell = max(display_width(s) for s in items) + MENU_COLUMNS_GAP
    per_line = max(1, (width - 2) // cell)
    lines = []
    for start in range(0, len(items), per_line):
        row = items[start : start + per_line]
        padded = [s + " " * (cell - display_width(s)) for s in row[:-1]] + [row[-1]]
        lines.append("  " + "".join(padded))
    return lines


# --------------------------------------------------------------------------------------------
# The games


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


def _mythic(view: dict[str, Any], legal: list[Action], locale: str) -> Moves:
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


BUILDERS: dict[str, Callable[[dict[str, Any], list[Action], str], Moves]] = {
    "mia": _mia,
    "mex": _mex,
    "liar": _liar,
    "mythic": _mythic,
}
