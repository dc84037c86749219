"""The action log's hash chain: every logged action of a fair game, dice or not, linked to the one before it, so
that leaving out, adding, reordering or editing any action (the last one too) shows (docs/FAIRNESS.md).

- link 0 is the game's commitment (public from the lobby on);
- link n = SHA-256 of f"{link n-1}\\n{move}" in UTF-8, in lowercase hex, where ``move`` is the compact JSON array
  ``[seq, seat, action, dice]`` (``JSON.stringify`` of the same values in a browser gives the same text);
- the head, the last action's link, is revealed with the seed when the game is over (the end message shows it).

Pure: hashlib and json only.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

_sha256 = hashlib.sha256


def genesis(commitment: str) -> str:
    return commitment.lower()


def dice_text(calls: Any) -> str:
    """A move's dice calls as the chain reads them (None: ``null``)."""
    return json.dumps(calls, separators=(",", ":"), ensure_ascii=False)


def action_text(action: str) -> str:
    """An action as the chain reads it: its JSON string (``json.dumps(action, ensure_ascii=False)``). The actions
    engines write (``roll``, ``bid:3:5``) are printable ASCII without a quote or a backslash, whose JSON is the
    text in quotes: built so, without the encoder (half of a link's time); anything else goes through it."""
    if action.isascii() and action.isprintable() and '"' not in action and "\\" not in action:
        return f'"{action}"'
    return json.dumps(action, ensure_ascii=False)


def link(previous: str, seq: int, seat: int | None, action: str, dice: str | None) -> str:
    """The link of one action after ``previous``; ``dice``: its calls' compact JSON text (None when it drew
    nothing), as the action log stores it."""
    seat_text = "null" if seat is None else seat
    move = f"{previous}\n[{seq},{seat_text},{action_text(action)},{dice if dice is not None else 'null'}]"
    return _sha256(move.encode()).hexdigest()
