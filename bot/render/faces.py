"""Die faces: each face the tables draw has a key, a Unicode fallback, and (once ``dicetavern sync`` uploaded the
project's art as application emojis and the bot found them at start) a custom emoji.

Pure: no Discord here. The Discord side (``bot/emojis.py``) finds the uploaded emojis and calls ``load``; text
asks ``text(key)`` (the emoji's markdown on Discord, else the Unicode face), a button or select option asks
``emoji(key)`` (name and id for the component's emoji field, or None: then the label's Unicode face stays).
The terminal (``SURFACE`` "terminal") always gets the Unicode faces.

Keys:
- ``d1`` … ``d6``: a six-sided die's pip faces; ``w1``: Liar's Dice's wild one; ``hidden``: a die not shown.
- ``m_<type>``: a Mythical Dice die in a hand, by its type (``m_red``, ``m_minotaur``, …).
- ``m_<type>_<face>``: a rolled Mythical Dice die: ``m_red_7``, ``m_gray_flag``, ``m_griffin_face`` (its creature).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from bot.i18n import SURFACE

PIPS = "⚀⚁⚂⚃⚄⚅"
MYTHIC_TYPES = ("minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray")
MYTHIC_UNICODE = {
    "minotaur": "🐂",
    "griffin": "🦅",
    "mermaid": "🧜",
    "red": "🟥",
    "yellow": "🟨",
    "purple": "🟪",
    "gray": "⬜",
}
# The faces of each Mythical Dice type, as keys (the engine's FACES with each special's creature as "face").
MYTHIC_FACES = {
    "minotaur": ("face", "flag"),
    "griffin": ("face", "flag"),
    "mermaid": ("face", "flag"),
    "red": ("7", "6", "5"),
    "yellow": ("5", "4", "3"),
    "purple": ("3", "2", "1"),
    "gray": ("flag", "1", "7"),
}

KEYS: tuple[str, ...] = (
    *(f"d{n}" for n in range(1, 7)),
    "w1",
    "hidden",
    *(f"m_{kind}" for kind in MYTHIC_TYPES),
    *(f"m_{kind}_{face}" for kind in MYTHIC_TYPES for face in MYTHIC_FACES[kind]),
)

_loaded: dict[str, tuple[str, int]] = {}  # key -> (emoji name, emoji id)
_generation = 0
_PLAIN: ContextVar[bool] = ContextVar("plain_faces", default=False)


@contextmanager
def plain() -> Iterator[None]:
    """Within the block, text draws the Unicode faces (a replay's every hand at once: ~3 characters a die instead
    of ~35). ``generation()`` differs inside the block, so no memo mixes the two."""
    token = _PLAIN.set(True)
    try:
        yield
    finally:
        _PLAIN.reset(token)


def unicode(key: str) -> str:
    """The face without custom emojis: ``⚂`` for ``d3``, ``🟥`` for ``m_red`` and ``m_red_7``."""
    if len(key) == 2 and key[0] in "dw" and key[1] in "123456":
        return PIPS[int(key[1]) - 1]
    if key.startswith("m_"):
        kind = key[2:].split("_", 1)[0]
        return MYTHIC_UNICODE.get(kind, "🎲")
    return "🎲"


def loaded(key: str) -> bool:
    return key in _loaded and SURFACE.get() is None and not _PLAIN.get()


def text(key: str) -> str:
    """The face in message text: the custom emoji's markdown on Discord where uploaded, else ``unicode(key)``."""
    found = _loaded.get(key)
    if found is None or SURFACE.get() is not None or _PLAIN.get():
        return unicode(key)
    name, emoji_id = found
    return f"<:{name}:{emoji_id}>"


def emoji(key: str) -> tuple[str, int] | None:
    """(name, id) for a button's or select option's emoji field; None where not uploaded (or off Discord)."""
    return _loaded.get(key) if SURFACE.get() is None else None


def load(found: Mapping[str, tuple[str, int]]) -> None:
    """The uploaded faces, key -> (emoji name, id), replacing what was loaded; unknown keys are ignored."""
    global _generation
    _loaded.clear()
    _loaded.update({key: value for key, value in found.items() if key in KEYS})
    _generation += 1


def generation() -> int:
    """Changes whenever ``load`` ran, and inside ``plain``: part of the key of every memo of text drawn with faces."""
    return _generation * 2 + _PLAIN.get()
