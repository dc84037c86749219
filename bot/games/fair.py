"""Provably fair dice: every draw of a game from one stream that anyone can recompute once the seed is revealed.

The stream (``docs/FAIRNESS.md`` is the reference; keep the two in step):

- block(nonce, counter) = HMAC-SHA256(key=server_seed, msg=f"{client_seed}:{start}:{nonce}:{counter}" in UTF-8),
  nonce and counter in decimal without padding. ``start`` is the start value: the id Discord gave the interaction
  that started the game, known to nobody (the operator included) before that click, after every player's
  entry is fixed. A game from before start values (or a terminal game) has none: msg is
  f"{client_seed}:{nonce}:{counter}". ``nonce`` numbers the game's draws from 0: each face of a roll and each
  item of a sample is one draw. ``counter`` starts at 0 and moves on only when a block yields no usable word.
- A draw of a number below ``n`` reads the block's eight 4-byte big-endian unsigned words in order and takes the
  first ``r < limit``, ``limit = 2**32 - 2**32 % n``, as ``r % n`` (rejection sampling: no modulo bias).
- ``roll(count, sides)``: ``count`` draws below ``sides``, each plus one.
- ``sample(population, k)``: ``remaining = list(range(len(population)))``; ``k`` times draw ``j`` below
  ``len(remaining)`` and take ``remaining.pop(j)``; the items at the taken indices, in draw order.

The server seed is the secret: it is shown by no ``repr``/``str`` and only ``reveal()`` gives it out (to persist
it, and to publish it when the game is over). ``commitment`` (its SHA-256) is public from the start.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

SEED_BYTES = 32
_WORDS = 2**32  # a draw reads 32-bit words
_words = struct.Struct(">8I").unpack  # a block's eight big-endian unsigned 32-bit words, in order
_INNER_PAD = bytes(b ^ 0x36 for b in range(256))  # HMAC's ipad and opad XORed into a key byte, by byte value
_OUTER_PAD = bytes(b ^ 0x5C for b in range(256))
_SEPARATOR = "|"
_ESCAPE = "\\"


def commitment_of(server_seed: bytes) -> str:
    """The public commitment to a server seed: its SHA-256 in lowercase hex."""
    return hashlib.sha256(server_seed).hexdigest()


def stream_prefix(client_seed: str, start: str | None = None) -> str:
    """What every block's message begins with: the client seed, then the start value if the game has one."""
    return f"{client_seed}:" if start is None else f"{client_seed}:{start}:"


def block(server_seed: bytes, client_seed: str, nonce: int, counter: int, start: str | None = None) -> bytes:
    """One 32-byte block of the stream."""
    return hmac.digest(server_seed, f"{stream_prefix(client_seed, start)}{nonce}:{counter}".encode(), "sha256")


def draw_below(server_seed: bytes, client_seed: str, nonce: int, n: int, start: str | None = None) -> int:
    """Draw number ``nonce`` of the stream as a number in ``0..n-1`` (uniform, by rejection sampling)."""
    if not 1 <= n <= _WORDS:
        raise ValueError(f"cannot draw below {n}: n must be 1..2**32")
    limit = _WORDS - _WORDS % n
    counter = 0
    while True:
        for r in _words(block(server_seed, client_seed, nonce, counter, start)):
            if r < limit:
                return r % n
        counter += 1  # all eight words rejected (only likely when n is near 2**32): the next block


def count_draws(calls: Sequence[Any] | None) -> int:
    """How many draws (nonces) one action's recorded dice calls used: ``["r", sides, faces]`` uses one per face,
    ``["s", n, indices]`` one per index. With the draws recorded before it, where a restored game's stream goes on."""
    return sum(len(call[2]) for call in calls or ())


def client_seed_from(entries: Sequence[str]) -> str:
    """The client seed from the players' entropy entries, in seat order: each entry with ``\\`` and ``|`` escaped
    by a backslash, joined by ``|``. The escape keeps it one-to-one (each player's text can be read back out)."""
    return _SEPARATOR.join(e.replace(_ESCAPE, _ESCAPE * 2).replace(_SEPARATOR, _ESCAPE + _SEPARATOR) for e in entries)


def split_client_seed(client_seed: str) -> list[str]:
    """The entries ``client_seed_from`` joined (an empty seed is one empty entry, as ``client_seed_from([""])``)."""
    entries, current, escaped = [], [], False
    for char in client_seed:
        if escaped:
            current.append(char)
            escaped = False
        elif char == _ESCAPE:
            escaped = True
        elif char == _SEPARATOR:
            entries.append("".join(current))
            current = []
        else:
            current.append(char)
    entries.append("".join(current))
    return entries


class FairDice:
    """A DiceSource drawing from the stream of ``server_seed`` and ``client_seed``, from draw ``nonce`` on.

    One per game: ``nonce`` is the number of draws the game has made (``count_draws`` over its recorded dice
    gives it after a restart).
    """

    __slots__ = ("_seed", "_inner", "_outer", "_prefix", "client_seed", "commitment", "nonce", "start")

    def __init__(self, server_seed: bytes, client_seed: str, nonce: int = 0, start: str | None = None) -> None:
        if not server_seed:
            raise ValueError("the server seed is empty")
        self._seed = bytes(server_seed)
        self.client_seed = client_seed
        self.start = start
        self.commitment = commitment_of(self._seed)
        self.nonce = nonce
        # HMAC's two keyed SHA-256 states, computed once: a block is then two copies and updates, less than half
        # of hmac.digest's time (which re-keys on every call). ``block`` is the plain definition; the vectors
        # hold the two to the same bytes. The pads are XORed in by table, as the hmac module does.
        key = self._seed if len(self._seed) <= 64 else hashlib.sha256(self._seed).digest()
        key = key.ljust(64, b"\0")
        self._inner = hashlib.sha256(key.translate(_INNER_PAD))
        self._outer = hashlib.sha256(key.translate(_OUTER_PAD))
        self._prefix = stream_prefix(client_seed, start).encode()

    @classmethod
    def new(cls, client_seed: str = "") -> FairDice:
        """Fresh dice with a new secret 32-byte seed from ``secrets``."""
        return cls(secrets.token_bytes(SEED_BYTES), client_seed)

    @classmethod
    def from_hex(cls, server_seed: str, client_seed: str, nonce: int = 0, start: str | None = None) -> FairDice:
        return cls(bytes.fromhex(server_seed), client_seed, nonce, start)

    def reveal(self) -> str:
        """The server seed in hex: to persist, and to publish once the game is over. Nowhere else."""
        return self._seed.hex()

    def with_client_seed(self, client_seed: str, start: str | None = None) -> FairDice:
        """The same seed with the client seed and the start value fixed at the start (the commitment was
        published before either)."""
        fixed = FairDice.__new__(FairDice)  # the seed's commitment and keyed states are the same: taken, not redone
        fixed._seed, fixed.commitment = self._seed, self.commitment
        fixed._inner, fixed._outer = self._inner, self._outer
        fixed.client_seed, fixed.start, fixed.nonce = client_seed, start, self.nonce
        fixed._prefix = stream_prefix(client_seed, start).encode()
        return fixed

    def _block(self, nonce: int, counter: int) -> bytes:
        inner = self._inner.copy()
        inner.update(self._prefix + b"%d:%d" % (nonce, counter))
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def _next(self, n: int) -> int:
        """The next draw below ``n``: ``draw_below``'s steps, with the keyed states."""
        limit = _WORDS - _WORDS % n
        counter = 0
        while True:
            for r in _words(self._block(self.nonce, counter)):
                if r < limit:
                    self.nonce += 1
                    return r % n
            counter += 1

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        if not 1 <= sides <= _WORDS:
            raise ValueError(f"cannot roll a d{sides}")
        return [self._next(sides) + 1 for _ in range(count)]

    def sample_indices(self, n: int, k: int) -> list[int]:
        """``k`` distinct indices into ``range(n)``, in draw order (what ``sample`` takes)."""
        if not 0 <= k <= n:
            raise ValueError(f"cannot sample {k} of {n}")
        remaining = list(range(n))
        return [remaining.pop(self._next(len(remaining))) for _ in range(k)]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        items = list(population)
        return [items[i] for i in self.sample_indices(len(items), k)]

    def __repr__(self) -> str:
        return (
            f"FairDice(commitment={self.commitment[:16]}…, client_seed={self.client_seed!r}, start={self.start!r},"
            f" nonce={self.nonce})"
        )

    __str__ = __repr__
