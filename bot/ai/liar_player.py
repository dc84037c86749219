"""Computer players for Liar's Dice (rules/liars-dice.md, "Strategy notes"): a seat's view in, an action out.

``choose(view, level, rng, legal=None)`` reads only ``view`` (``hand``: the seat's own dice,
``counts``/``total``: dice per seat, ``bid``/``bidder``/``bids``: this round's bidding,
``options``, ``legal``) and returns one of the legal actions (``bid:q:f`` or ``challenge``).

A bid (q, f) is true when at least q dice show f (plus every 1 with ``wild_ones``). From a
seat's own view: with m of its own dice matching and U dice unknown, P(true) =
P(Binomial(U, p) >= q - m), p = 1/6, or 1/3 with wild ones.

* ``normal`` (the rules' medium bot, after Neller's SimpleDudoPlayer, with reads): challenge when
  the standing bid is less likely than 1/2, otherwise bid the legal raise most likely to be true
  (ties: the smallest raise). The chance is judged with :class:`bot.ai.liar_reader.Reader`'s
  posterior over each opponent's hand given its bids this round (a bidder probably holds some of
  the face it bids); from its own dice alone when an opponent holds more than six dice.
* ``hard``:

  - heads-up, when a table ships for the dice split (one or two dice each, every raise rule, wild
    ones on and off, except two each under poker or simple without wild ones: 16.8 million nodes;
    :mod:`bot.ai.liar_endgame`): the **equilibrium strategy** solved offline by
    CFR+ (:mod:`bot.ai.liar_solver`), exploitability at most 0.02;
  - otherwise, with every opponent's hand enumerable (at most six dice): the reader's posterior and
    a two-ply look-ahead (:mod:`bot.ai.liar_reader`): a raise is worth P(true) if the next seat
    would call it, else what our reply to its likeliest raise is worth; it challenges when
    P(standing bid false) beats every raise (by ``READ_MARGIN_MULTI`` with three or more seats, where
    a round that passes it by is not lost); 10% of the time it bluffs on a face it lacks when that
    costs at most 0.05;
  - otherwise (loot games with big hands) the older reading of :class:`_Table`: an opponent who has bid face f
    is believed to hold k of them with weight Binomial(k) x (1 + ``READ_WEIGHT`` k); without wild
    ones one bid of look-ahead (the next player modelled as the medium bot), with wild ones the
    strongest of the likeliest raises; 15% bluffs.
* ``easy``: a noisy challenge threshold (0.2 to 0.7) and, half the time, one of the three
  smallest raises at random instead of the likeliest.

Randomness comes only from ``rng``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.ai import liar_endgame
from bot.ai.common import make_choose
from bot.ai.liar_reader import MAX_DICE, Reader, binomial, convolve, tail
from bot.games.base import Action
from bot.games.liars_dice import CHALLENGE, LiarView, bid_rank

# Tuned by simulation (see the module docstring).
READ_WEIGHT = 2.0  # hard: how strongly a bid on f suggests the bidder holds f's
HARD_GO_ON = 0.5  # hard: its chance when the next player raises instead of challenging
HARD_MARGIN = 0.1  # hard: challenge when P(bid false) > the best raise's value + margin
HARD_SLACK = 0.1  # hard, wild ones: stronger raises within this much of the likeliest
HARD_PRESS_MARGIN = 0.1  # hard, wild ones: the challenge margin (over the likeliest + slack)
HARD_BLUFF = 0.15  # hard: chance to bluff on a face it does not hold
HARD_BLUFF_COST = 0.15  # hard: a bluff may be this much worse than the best raise
NORMAL_READS = True  # normal: judge bids by the reader's posterior (else from its own dice alone)
HARD_BETA = 8.0  # hard: the reader's sharpness (liar_reader.BETA)
READ_MARGIN_MULTI = 0.1  # hard, three or more seats: challenge only when that beats every raise by this much
READ_CANDIDATES = 8  # hard: raises (the likeliest) given the look-ahead
READ_BLUFF = 0.1  # hard: chance to bid a face it holds none of, when that costs little
READ_BLUFF_COST = 0.05  # hard: how much a bluff may lose against the best raise
EASY_RANDOM = 0.5  # easy: chance of a random small raise
EASY_THRESHOLD = (0.2, 0.7)  # easy: the range of its challenge threshold


class _Table:
    """What one seat knows: its own dice, everyone's dice counts, this round's bids."""

    def __init__(self, view: LiarView) -> None:
        o = view.get("options") or {}
        self.me = view.get("you")
        self.hand: list[int] = list(view.get("hand") or [])
        self.counts: list[int] = list(view.get("counts") or [])
        self.total = int(view.get("total") or sum(self.counts))
        self.unknown = max(0, self.total - len(self.hand))
        self.wild = bool(o.get("wild_ones", False))
        self.rule = o.get("raise_rule", "poker")
        self.bids: list[list[int]] = [list(b) for b in view.get("bids") or []]
        bid = view.get("bid")
        self.bid: tuple[int, int] | None = (int(bid["quantity"]), int(bid["face"])) if bid else None
        self._dist: dict[int, list[float]] = {}

    def p(self, face: int) -> float:
        return 1 / 3 if self.wild and face != 1 else 1 / 6

    def mine(self, face: int) -> int:
        return sum(1 for d in self.hand if d == face or (self.wild and d == 1 and face != 1))

    def naive(self, q: int, f: int) -> float:
        """P(bid true) from own dice alone."""
        return tail(self.unknown, self.p(f), q - self.mine(f))

    def seat_dist(self, seat: int, f: int) -> Sequence[float]:
        """P(``seat`` holds k dice counting as f), reading its bids on f as evidence it holds f's."""
        prior = binomial(self.counts[seat], self.p(f))
        if any(s == seat and face == f for s, _, face in self.bids):
            weights = [w * (1 + READ_WEIGHT * k) for k, w in enumerate(prior)]
            norm = sum(weights)
            prior = tuple(w / norm for w in weights)
        return prior

    def read_dist(self, f: int) -> list[float]:
        """P(total count of f = k), reading opponents' bids on f as evidence they hold f's."""
        if f in self._dist:
            return self._dist[f]
        dist = [0.0] * self.mine(f) + [1.0]
        for seat, n in enumerate(self.counts):
            if seat != self.me and n > 0:
                dist = convolve(dist, self.seat_dist(seat, f))
        self._dist[f] = dist
        return dist

    def next_seat(self) -> int | None:
        if self.me is None:  # the channel's view: no seat of its own to count from
            return None
        n = len(self.counts)
        for k in range(1, n + 1):
            seat = (self.me + k) % n
            if self.counts[seat] > 0 and seat != self.me:
                return seat
        return None

    def called(self, q: int, f: int) -> float:
        """P(the next player challenges (q, f)), modelling them as the rules' medium bot."""
        seat = self.next_seat()
        if seat is None:
            return 1.0
        unseen = self.total - self.counts[seat]
        return sum(w for k, w in enumerate(self.seat_dist(seat, f)) if tail(unseen, self.p(f), q - k) < 0.5)

    def read(self, q: int, f: int) -> float:
        """P(bid true) with reads."""
        dist = self.read_dist(f)
        return sum(dist[q:]) if q < len(dist) else 0.0


def _bids(actions: list[Action]) -> list[tuple[int, int]]:
    return [(int(a.args[0]), int(a.args[1])) for a in actions if a.name == "bid" and len(a.args) == 2]


def _decide(view: LiarView, level: str, rng: Any, actions: list[Action]) -> Action:
    """The pick among two or more legal ``actions``; :func:`choose` (the shared prelude) calls this."""
    table = _Table(view)
    raises = _bids(actions)
    can_challenge = CHALLENGE in actions
    if not raises:
        return CHALLENGE
    if level == "hard":
        exact = liar_endgame.action(view, rng, actions)
        if exact is not None:
            return exact
        if all(c <= MAX_DICE for s, c in enumerate(table.counts) if s != table.me):
            return _read(Reader(view, HARD_BETA), raises, can_challenge, rng)
        return _hard(table, raises, can_challenge, rng)
    if level == "easy":
        return _easy(table, raises, can_challenge, rng)
    if NORMAL_READS and all(c <= MAX_DICE for s, c in enumerate(table.counts) if s != table.me):
        r = Reader(view)
        chance = r.p_true
    else:
        chance = table.naive
    if can_challenge and table.bid is not None and chance(*table.bid) < 0.5:
        return CHALLENGE
    best = max(raises, key=lambda b: chance(*b))  # max keeps the first (smallest raise) on ties
    return Action("bid", best)


def _easy(table: _Table, raises: list[tuple[int, int]], can_challenge: bool, rng: Any) -> Action:
    lo, hi = EASY_THRESHOLD
    u = rng.random() if rng is not None else 0.5
    if can_challenge and table.bid is not None and table.naive(*table.bid) < lo + (hi - lo) * u:
        return CHALLENGE
    if rng is not None and rng.random() < EASY_RANDOM:
        return Action("bid", rng.choice(raises[:3]))
    best = max(raises, key=lambda b: table.naive(*b))
    return Action("bid", best)


def _read(r: Reader, raises: list[tuple[int, int]], can_challenge: bool, rng: Any) -> Action:
    """Hard with every opponent's hand enumerable: the Bayesian reading and look-ahead of :mod:`bot.ai.liar_reader`."""
    chance = {b: r.p_true(*b) for b in raises}
    ranked = sorted(raises, key=lambda b: -chance[b])[:READ_CANDIDATES]
    value = {b: r.raise_value(*b) for b in ranked}
    best = max(value.values())
    if can_challenge and r.bids:
        _, q, f = r.bids[-1]
        if 1.0 - r.p_true(q, f) > best + (0.0 if len(r.opps) == 1 else READ_MARGIN_MULTI):
            return CHALLENGE
    pick = max(ranked, key=lambda b: (round(value[b], 9), chance[b]))
    if rng is not None and rng.random() < READ_BLUFF:
        bluffs = [b for b in ranked if r.mine[b[1]] == 0 and value[b] >= best - READ_BLUFF_COST]
        if bluffs:
            pick = max(bluffs, key=lambda b: value[b])
    return Action("bid", pick)


def _hard(table: _Table, raises: list[tuple[int, int]], can_challenge: bool, rng: Any) -> Action:
    """Score every raise, challenge if that beats the best raise, else bid the best (or bluff)."""
    if table.wild:
        # press: the likeliest raises, the strongest of those (tuned: better with wild ones)
        chance = {b: table.read(*b) for b in raises}
        top = max(chance.values())
        value = {b: top + HARD_SLACK if chance[b] >= top - HARD_SLACK else chance[b] for b in raises}
        margin = HARD_PRESS_MARGIN
    else:
        # look ahead one bid: is the next player (modelled as the medium bot) going to call it?
        value = {}
        for b in raises:
            c = table.called(*b)
            value[b] = c * table.read(*b) + (1 - c) * HARD_GO_ON
        margin = HARD_MARGIN
    best = max(value.values())
    if can_challenge and table.bid is not None and 1 - table.read(*table.bid) > best + margin:
        return CHALLENGE
    pick = max(raises, key=lambda b: (round(value[b], 9), bid_rank(table.rule, *b)))
    if rng is not None and rng.random() < HARD_BLUFF:
        bluffs = [b for b in raises if table.mine(b[1]) == 0 and value[b] >= best - HARD_BLUFF_COST]
        if bluffs:
            pick = max(bluffs, key=lambda b: (round(value[b], 9), bid_rank(table.rule, *b)))
    return Action("bid", pick)


choose = make_choose(_decide, "Liar's Dice")
