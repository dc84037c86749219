"""The terminal prompt's menu: the moves listed at one prompt, and what a typed answer names.

A menu (:class:`Moves`) lists moves by the catalog's words (:class:`Entry`) and may take other moves typed
(:class:`Typed`: a parser with a hint line); :meth:`Moves.match` turns an answer into an action: a listed move by
its number or its words (``roll``, ``end round``, an unambiguous start such as ``gri``), a typed move through
its parser, or a :class:`Refusal` with the catalog's reason. How each game's moves read is in
:mod:`bot.terminal.moves`.

A move the game knows but that is not legal now (``hold`` before the first roll) still matches (``known``),
so the person reads the engine's reason, not a bare "not a move".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.games import Action
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.terminal.console import display_width, wrap

MENU_COLUMNS_GAP = 3


def words_of(text: str) -> str:
    """What a label reads as typed: ``'👀 Peek'`` -> ``'peek'``, ``'Keep ⚀ 1'`` -> ``'keep 1'``."""
    return " ".join(re.findall(r"\w+", text.lower()))


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
