"""Turning user text into numbers, and quoting user text in refusals: one strict helper for every caller.

``str.isdigit()`` is true for ``²`` and ``①`` (``int()`` then fails), ``int()`` itself accepts ``٣``, ``1_000`` and
surrounding blanks, and Python refuses to convert more than 4300 digits. Every place where a person's text
becomes a number goes through :func:`parse_int` instead, and every refusal that quotes their text goes through
:func:`quote`, so a 3,000-character paste cannot push a reply past Discord's 2,000 characters.
"""

from __future__ import annotations

MAX_DIGITS = 19  # a Discord id has up to 19 today; far below Python's 4300-digit int-conversion limit
MAX_INT = 2**63 - 1  # SQLite's INTEGER
QUOTE_LIMIT = 32  # characters of user text a refusal quotes


def parse_int(text: object, *, signed: bool = False) -> int | None:
    """The whole number ``text`` spells in ASCII digits (an optional ``-`` if ``signed``), else None.

    ``text`` may be an ``int`` already (a Discord integer option); bools are not numbers here.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return text if -MAX_INT <= text <= MAX_INT and (signed or text >= 0) else None
    if not isinstance(text, str):
        return None
    digits = text[1:] if signed and text.startswith("-") else text
    if not 0 < len(digits) <= MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    number = int(text)
    return number if -MAX_INT <= number <= MAX_INT else None


def clip(text: str, limit: int = QUOTE_LIMIT) -> str:
    """At most ``limit`` characters of ``text``, an ellipsis if it was longer."""
    return text if len(text) <= limit else text[:limit] + "…"


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as a refusal quotes it, like ``{value!r}`` but at most a short prefix of a long text."""
    if isinstance(value, str):
        shown = repr(clip(value, limit))  # escapes (``\x1f``) can make it longer than the prefix
        return shown if len(shown) <= limit + 3 else clip(shown, limit)
    try:
        return clip(repr(value), limit)
    except ValueError:  # an int beyond Python's conversion limit
        return "…"
