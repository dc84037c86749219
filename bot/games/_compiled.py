"""The engines' compiled fast path (bot/games/_fast.c): ``fast`` is the module, or None where it was not built.

Pig and Liar's Dice are pure Python (the reference); ``_fast`` takes their common moves in C and hands the rest
back to them. It is built by ``pip install`` when a C compiler is there (setup.py, an optional extension);
without one, or with ``DICETAVERN_PURE_ENGINES=1`` set, every engine is the pure-Python one. Read once, at import:
the registry's engines are built then.
"""

from __future__ import annotations

import os

from bot.games.base import Action, Event

PURE_ENV = "DICETAVERN_PURE_ENGINES"

try:
    import bot.games._fast as fast
except ImportError:  # not built: no compiler at install time
    fast = None  # type: ignore[assignment]

if fast is not None:
    fast.setup_base(Event, Action)


def built() -> bool:
    """The extension was built and imports."""
    return fast is not None


def wanted() -> bool:
    """The engines the registry serves are the compiled ones: built, and not turned off by ``PURE_ENV``."""
    return built() and os.environ.get(PURE_ENV, "").strip() in ("", "0")
