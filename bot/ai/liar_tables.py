"""Liar's Dice heads-up endgame tables: the bidding tree's numbering and the shipped strategy files (stdlib only).

One round between two seats, the opener holding ``a`` dice and the responder ``b``, under one raise
rule with or without wild ones, is a finite game: every history is a chain of legal raises, ended
by a challenge. :mod:`bot.ai.liar_solver` (numpy, offline) solves it with CFR+ and writes the
average strategy here; a computer player reads it with the standard library alone.

**Numbering.** A node is a bid history. Nodes are numbered in depth-first preorder, children in
the engine's order of legal bids (:func:`bot.games.liars_dice.legal_bids`), so a node's number is
computed from its bids alone: ``child = parent + 1 + sum(size of the earlier siblings)``, where
the size of a subtree depends only on its last bid (:class:`Tree`). A node's actions are its legal
raises in that order, then ``challenge`` (not at the root, where there is no bid to challenge).

**Hands** are sorted tuples of faces, numbered in ``itertools.combinations_with_replacement`` order.

**File format** (``bot/ai/data/liar-<rule>-<wild|plain>-<a>v<b>.bin``): ``MAGIC`` + one line of JSON
header (rule, wild ones, dice, node and record counts, the opener's value, the measured
exploitability) + zlib of three parts: ``records`` keys (uint32, ``node * 32 + hand``, sorted),
``records + 1`` offsets (uint32) into the payload, and the payload: per record, pairs of bytes
(action index, weight 1..255). Only the information sets the strategy itself can reach are stored
(a player who follows it never meets the others); weights are normalised on reading.
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from bot.games.liars_dice import legal_bids

MAGIC = b"DTLIAR1\n"
DATA_DIR = Path(__file__).resolve().parent / "data"
HAND_BITS = 5  # key = node * 32 + hand: up to 21 two-dice hands (and 56 three-dice ones would need 6 bits)


@lru_cache(maxsize=8)
def hands(k: int) -> tuple[tuple[int, ...], ...]:
    """Every hand of ``k`` dice, as sorted tuples."""
    return tuple(combinations_with_replacement(range(1, 7), k))


@lru_cache(maxsize=8)
def hand_index(k: int) -> dict[tuple[int, ...], int]:
    return {h: i for i, h in enumerate(hands(k))}


class Tree:
    """The bid histories of one round with ``total`` dice under ``rule`` / ``wild``, numbered in preorder."""

    def __init__(self, rule: str, wild: bool, total: int) -> None:
        self.rule, self.wild, self.total = rule, wild, total
        opening = [(int(a.args[0]), int(a.args[1])) for a in legal_bids(rule, wild, total)]
        self.bids: list[tuple[int, int]] = opening  # bid index -> (q, f), in the engine's opening order
        self.index = {b: i for i, b in enumerate(opening)}
        # raises[b]: the bid indices legal after bid b, in the engine's order; raises[-1] (= [B]): the opening
        self.raises: list[list[int]] = [
            [self.index[(int(a.args[0]), int(a.args[1]))] for a in legal_bids(rule, wild, total, q, f)]
            for q, f in opening
        ]
        self.raises.append(list(range(len(opening))))
        root = len(opening)
        size = [0] * (root + 1)
        done: dict[int, int] = {}  # subtree sizes (a raise strictly increases a measure: the recursion ends)

        def sz(b: int) -> int:
            if b not in done:
                done[b] = 1 + sum(sz(c) for c in self.raises[b])
            return done[b]

        for b in range(root + 1):
            size[b] = sz(b)
        self.size = size
        self.nodes = size[root]
        # offset[b][c]: 1 + the sizes of the siblings before child bid c, under a node whose last bid is b
        self.offset: list[dict[int, int]] = []
        for b in range(root + 1):
            acc, off = 1, {}
            for c in self.raises[b]:
                off[c] = acc
                acc += size[c]
            self.offset.append(off)

    @property
    def root_bid(self) -> int:
        return len(self.bids)

    def node(self, history: list[tuple[int, int]]) -> tuple[int, int] | None:
        """(node number, its last bid index) of a bid history, or None if it is not a chain of legal raises."""
        n, last = 0, self.root_bid
        for bid in history:
            c = self.index.get(bid)
            if c is None or c not in self.offset[last]:
                return None
            n += self.offset[last][c]
            last = c
        return n, last

    def actions(self, last: int) -> list[str]:
        """The encoded actions at a node whose last bid index is ``last``: its raises, then challenge."""
        out = [f"bid:{self.bids[c][0]}:{self.bids[c][1]}" for c in self.raises[last]]
        return out if last == self.root_bid else [*out, "challenge"]


@dataclass
class Strategy:
    """A shipped strategy: per (node, hand) of the player to act there, weights over the node's actions."""

    header: dict[str, Any]
    keys: array
    offsets: array
    payload: bytes

    @property
    def tree(self) -> Tree:
        h = self.header
        return _tree(h["rule"], bool(h["wild"]), int(h["dice"][0]) + int(h["dice"][1]))

    def weights(self, node: int, hand: int) -> list[tuple[int, int]] | None:
        """[(action index, weight)] at (node, hand), or None when the strategy never reaches it."""
        key = node * 32 + hand
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            return None
        raw = self.payload[self.offsets[i] : self.offsets[i + 1]]
        return [(raw[j], raw[j + 1]) for j in range(0, len(raw), 2)]

    def to_bytes(self) -> bytes:
        keys, offsets = array("I", self.keys), array("I", self.offsets)
        if sys.byteorder != "little":  # the file is little-endian
            keys.byteswap()
            offsets.byteswap()
        body = keys.tobytes() + offsets.tobytes() + self.payload
        header = {**self.header, "records": len(self.keys)}
        return MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + zlib.compress(body, 9)

    @classmethod
    def from_bytes(cls, data: bytes) -> Strategy:
        if not data.startswith(MAGIC):
            raise ValueError("not a Liar's Dice strategy file")
        end = data.index(b"\n", len(MAGIC))
        header = json.loads(data[len(MAGIC) : end])
        body = zlib.decompress(data[end + 1 :])
        n = int(header["records"])
        keys, offsets = array("I"), array("I")
        keys.frombytes(body[: 4 * n])
        offsets.frombytes(body[4 * n : 8 * n + 4])
        if sys.byteorder != "little":  # written little-endian
            keys.byteswap()
            offsets.byteswap()
        return cls(header, keys, offsets, body[8 * n + 4 :])

    @classmethod
    def build(cls, header: dict[str, Any], records: list[tuple[int, list[tuple[int, int]]]]) -> Strategy:
        """From (key, [(action, weight)]) records sorted by key (weights 1..255)."""
        keys, offsets, payload = array("I"), array("I", [0]), bytearray()
        for key, pairs in records:
            keys.append(key)
            for a, w in pairs:
                payload += bytes((a, w))
            offsets.append(len(payload))
        return cls({**header, "records": len(keys)}, keys, offsets, bytes(payload))


@lru_cache(maxsize=64)
def _tree(rule: str, wild: bool, total: int) -> Tree:
    return Tree(rule, wild, total)


def tree(rule: str, wild: bool, total: int) -> Tree:
    return _tree(rule, wild, total)


def file_name(rule: str, wild: bool, a: int, b: int) -> str:
    return f"liar-{rule}-{'wild' if wild else 'plain'}-{a}v{b}.bin"


@lru_cache(maxsize=64)
def load(rule: str, wild: bool, a: int, b: int) -> Strategy | None:
    """The shipped strategy for an opener with ``a`` dice against ``b``, or None when none ships."""
    path = DATA_DIR / file_name(rule, wild, a, b)
    try:
        return Strategy.from_bytes(path.read_bytes())
    except FileNotFoundError:
        return None
