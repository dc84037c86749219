"""Monte Carlo search for Mythical Dice ``hard`` (issue 17): determinise, roll out, score.

A determinisation deals the dice this seat cannot see (the bag less its own dice and every die
rolled this hand) to the other seats, as many as each holds and never a colour a seat has shown
it lacks (it played another colour to a suit it was bound to follow, MD-L3), and pre-rolls a face
for every die. On such deals:

* ``trick_chances`` (hard's play): the seats still to roll in this trick play the rollout policy;
  it returns, per candidate die, P(it takes the trick) and that trick's mean bonus;
* ``best_bid`` (hard's bid) plays the whole hand out for each candidate bid, the other seats
  bidding ``guess`` from their sampled dice, and scores this seat's hand exactly (MD-P1..P4,
  bonuses included); ``best_play`` does the same per die (not used by default: see docs/AI.md).

The rollout policy (``_policy``): short of its bid, a seat plays a die that can still win the
trick (leading: its strongest; following: its cheapest), else its weakest; with its bid made, its
strongest die that cannot win, else its weakest. Every candidate is scored on the same deals and
faces (common random numbers).

The work is budgeted by a count, never by the clock, so a game replays: ``BUDGET`` /
``TRICK_BUDGET`` simulated die rolls per decision, shared among the candidates (at least
``MIN_SAMPLES`` deals each). Randomness comes only from the rng passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.mythical_dice import FACES, FLAG, SPECIALS, bag_types

BUDGET = 2400  # simulated die rolls per decision (~20 ms in CPython at six players; see docs/AI.md)
MIN_SAMPLES = 8
TRICK_BUDGET = 3000  # simulated rolls for the current trick alone (hard's play)
MAX_SAMPLES = 400
BID_FIT = 0.0  # trick_chances: weight a deal by exp(-BID_FIT x the seats' |bid - expected tricks|); 0: off
CHEAP_FOLLOW = True  # the rollout policy, short of its bid and following, plays its cheapest winner

# Face codes: 0 flag, 1..7 numbers, then the specials.
MER, GRI, MIN = 8, 9, 10
_CODE = {FLAG: 0, "mermaid": MER, "griffin": GRI, "minotaur": MIN, **{str(v): v for v in range(1, 8)}}
_BEATS = {MIN: GRI, GRI: MER, MER: MIN}
#: the policy's strength order of the die types, weakest first (as the reference player's)
STRENGTH = ("purple", "gray", "yellow", "red", "mermaid", "griffin", "minotaur")
_RANK = {kind: i for i, kind in enumerate(STRENGTH)}
_BEST = {"minotaur": MIN, "griffin": GRI, "mermaid": MER, "red": 7, "yellow": 5, "purple": 3, "gray": 7}


class Rules:
    """The options a rollout needs, read once from the view."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.types = bag_types(options.get("dice_set", "standard"))
        self.kind_rank = [_RANK[t] for t in self.types]
        self.colour = [t not in SPECIALS for t in self.types]
        self.faces = [[_CODE[f] for f in FACES[t]] for t in self.types]
        self.best = [_BEST[t] for t in self.types]
        self.no_suit_after_special = bool(options.get("special_lead_sets_no_suit", False))
        self.sequential = options.get("three_way") == "sequential"
        self.later = options.get("same_special_tie", "later") == "later"
        self.nobody = options.get("all_flags") == "nobody"
        self.bonuses = bool(options.get("bonuses_enabled", True))
        self.flag_scope = options.get("bonus_flag_scope", "trick")
        self.per_griffin = options.get("griffin_bonus", "per_griffin") == "per_griffin"

    def suit(self, dice: Sequence[int]) -> int | None:
        """MD-L1: the type index of the first number die rolled, as a die id's type."""
        if not dice:
            return None
        types = self.types
        if self.no_suit_after_special and not self.colour[dice[0]]:
            return None
        for d in dice:
            if self.colour[d]:
                return _type_id(types[d])
        return None

    def winner(self, codes: Sequence[int]) -> int | None:
        """MD-R1..R3 on face codes: the index of the winning roll (None: ``all_flags=nobody``)."""
        if max(codes) < MER:
            best_i, best = -1, 0
            for i, c in enumerate(codes):
                if c and c >= best:
                    best_i, best = i, c
            if best_i >= 0:
                return best_i
            return None if self.nobody else 0
        specials = [(i, c) for i, c in enumerate(codes) if c >= MER]
        if self.sequential:
            best_i, best = specials[0]
            for i, c in specials[1:]:
                if (c == best and self.later) or _BEATS[c] == best:
                    best_i, best = i, c
            return best_i
        present = {c for _, c in specials}
        if len(present) == 1:
            kind = specials[0][1]
        elif len(present) == 2:
            a, b = present
            kind = a if _BEATS[a] == b else b
        else:
            kind = MER
        same = [i for i, c in specials if c == kind]
        return same[-1] if self.later else same[0]

    def bonus(self, codes: Sequence[int], win: int) -> int:
        """MD-P4 for one won trick (the ``hand`` flag scope is checked by the caller)."""
        if not self.bonuses or (self.flag_scope == "trick" and 0 in codes):
            return 0
        w = codes[win]
        if w == MER and MIN in codes:
            return 50
        if w == MIN:
            g = codes.count(GRI)
            return 30 * (g if self.per_griffin else min(g, 1))
        return 0

    def score(self, bid: int, taken: int, hand_no: int, bonus: int, flagged: bool) -> int:
        if bid == 0:
            return 10 * hand_no if taken == 0 else -10 * hand_no
        if taken != bid:
            return -10 * abs(taken - bid)
        if self.flag_scope == "hand" and flagged:
            bonus = 0
        return 20 * bid + bonus


_TYPE_IDS: dict[str, int] = {}


def _type_id(kind: str) -> int:
    return _TYPE_IDS.setdefault(kind, len(_TYPE_IDS))


def can_win(rules: Rules, die: int, codes: Sequence[int]) -> bool:
    """Can ``die`` (at its best face) still take a trick that shows ``codes``?"""
    best = rules.best[die]
    specials = {c for c in codes if c >= MER}
    if best >= MER:
        beaten_by = {MIN: MER, GRI: MIN, MER: GRI}[best]
        return beaten_by not in specials or (best == MER and MIN in specials)
    if specials:
        return False
    return best >= max(codes, default=0)


def legal(rules: Rules, hand: Sequence[int], trick: Sequence[int]) -> list[int]:
    """MD-L2/L3 over die ids."""
    suit = rules.suit(trick)
    if suit is None:
        return list(hand)
    types = rules.types
    follow = [d for d in hand if rules.colour[d] and _type_id(types[d]) == suit]
    if not follow:
        return list(hand)
    return follow + [d for d in hand if not rules.colour[d]]


def _policy(rules: Rules, options: list[int], codes: Sequence[int], short: bool) -> int:
    """The rollout policy (see the module doc)."""
    rank = rules.kind_rank
    ranked = sorted(options, key=rank.__getitem__)
    winners = [d for d in ranked if can_win(rules, d, codes)]
    if short:
        if not winners:
            return ranked[0]
        return winners[0] if codes and CHEAP_FOLLOW else winners[-1]  # following: the cheapest that beats it
    losers = [d for d in ranked if d not in winners]
    return losers[-1] if losers else ranked[0]


class Deal:
    """The hand as one seat sees it: who holds how many unseen dice, bids, the trick so far."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.rules = rules = Rules(view.get("options") or {})
        self.me: int = int(view["you"])
        self.hand_no = int(view.get("hand", 1))
        n = int(view.get("players", 0))
        self.active = list(view.get("active") or [True] * n)
        self.n = n
        self.live = [p for p in range(n) if self.active[p]]
        self.mine = [int(d["id"]) for d in view.get("your_dice") or []]
        self.trick = [(int(r["player"]), int(r["die"]), _CODE[r["face"]]) for r in view.get("trick") or []]
        self.sizes = list(view.get("hand_sizes") or [0] * n)
        self.tricks = list(view.get("tricks") or [0] * n)
        self.bids: list[int | None] = list(view.get("bids") or [None] * n)
        self.leader = int(view.get("leader", 0))
        captured = view.get("captured") or []
        seen = set(self.mine) | {d for _, d, _ in self.trick}
        for pile in captured:
            seen |= {int(r["die"]) for r in pile}
        last = view.get("last_trick")
        if last:
            seen |= {int(r["die"]) for r in last.get("rolls", [])}
        self.unseen = [d for d in range(len(rules.types)) if d not in seen]
        self.voids = self._voids(captured, view.get("trick") or [])
        # the dice each seat has rolled this hand (every pile and the trick, by roller): with its sampled hidden dice,
        # the hand it bid on
        self.rolled: dict[int, list[int]] = {}
        for rolls in [*captured, view.get("trick") or []]:
            for r in rolls:
                self.rolled.setdefault(int(r["player"]), []).append(int(r["die"]))
        # my tricks so far: their bonus, and whether one held a flag (bonus_flag_scope=hand)
        self.my_bonus, self.my_flagged = self._my_tricks(captured)

    def _chunks(self, captured: Sequence[Sequence[Mapping[str, Any]]]) -> list[list[Mapping[str, Any]]]:
        size = max(1, len(self.live))
        out = []
        for pile in captured:
            out += [list(pile[i : i + size]) for i in range(0, len(pile), size)]
        return out

    def _voids(
        self, captured: Sequence[Sequence[Mapping[str, Any]]], trick: Sequence[Mapping[str, Any]]
    ) -> dict[int, set[int]]:
        """Seat -> suit type ids it has shown it lacks (it played another colour to that suit)."""
        voids: dict[int, set[int]] = {}
        rules = self.rules
        for rolls in [*self._chunks(captured), list(trick)]:
            dice = [int(r["die"]) for r in rolls]
            for k, r in enumerate(rolls):
                suit = rules.suit(dice[:k])
                d = dice[k]
                if suit is not None and rules.colour[d] and _type_id(rules.types[d]) != suit:
                    voids.setdefault(int(r["player"]), set()).add(suit)
        return voids

    def _my_tricks(self, captured: Sequence[Sequence[Mapping[str, Any]]]) -> tuple[int, bool]:
        if self.me >= len(captured):
            return 0, False
        bonus, flagged = 0, False
        for rolls in self._chunks([captured[self.me]]):
            codes = [_CODE[r["face"]] for r in rolls]
            win = self.rules.winner(codes)
            flagged |= 0 in codes
            if win is not None:
                bonus += self.rules.bonus(codes, win)
        return bonus, flagged

    def order_from(self, seat: int) -> list[int]:
        """The live seats in play order starting at ``seat``."""
        k = self.live.index(seat) if seat in self.live else 0
        return self.live[k:] + self.live[:k]

    def sample(self, rng: random.Random) -> list[list[int]]:
        """One determinisation: every seat's hidden dice (this seat's are its own)."""
        rules = self.rules
        pool = self.unseen[:]
        rng.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(self.n)]
        hands[self.me] = self.mine[:]
        others = [p for p in self.live if p != self.me]
        others.sort(key=lambda p: -len(self.voids.get(p, ())))  # the most constrained first
        for p in others:
            need = self.sizes[p]
            void = self.voids.get(p)
            if void:
                ok = [d for d in pool if not (rules.colour[d] and _type_id(rules.types[d]) in void)]
                take = ok[:need] if len(ok) >= need else ok + [d for d in pool if d not in ok][: need - len(ok)]
            else:
                take = pool[:need]
            hands[p] = take
            chosen = set(take)
            pool = [d for d in pool if d not in chosen]
        return hands


def rollout(
    deal: Deal,
    hands: list[list[int]],
    faces: Sequence[int],
    bids: Sequence[int],
    first: int | None,
) -> int:
    """Play the hand out from the view's position (this seat rolls ``first`` when it is to act
    now, None when bidding); returns this seat's hand score. ``hands`` is consumed."""
    rules, me = deal.rules, deal.me
    taken = deal.tricks[:]
    bonus, flagged = deal.my_bonus, deal.my_flagged
    trick = [(p, d) for p, d, _ in deal.trick]
    codes = [c for _, _, c in deal.trick]
    leader = deal.leader
    if trick:
        order = deal.order_from(leader)
        to_roll = [p for p in order if p not in {q for q, _ in trick}]
    else:
        to_roll = deal.order_from(leader)
    while True:
        for p in to_roll:
            hand = hands[p]
            if not hand:
                continue
            dice = [d for _, d in trick]
            if p == me and first is not None:
                d = first
                first = None
            else:
                opts = legal(rules, hand, dice)
                d = opts[0] if len(opts) == 1 else _policy(rules, opts, codes, taken[p] < bids[p])
            hand.remove(d)
            trick.append((p, d))
            codes.append(faces[d])
        if not trick:
            break
        win = rules.winner(codes)
        if win is not None:
            w = trick[win][0]
            taken[w] += 1
            leader = w
            if w == me:
                bonus += rules.bonus(codes, win)
                flagged |= 0 in codes
        if not any(hands[p] for p in deal.live):
            break
        trick, codes = [], []
        to_roll = deal.order_from(leader)
    return rules.score(bids[me], taken[me], deal.hand_no, bonus, flagged)


def roll_faces(rules: Rules, rng: random.Random) -> list[int]:
    """One pre-rolled face code per die of the bag."""
    return [f[int(rng.random() * 6)] for f in rules.faces]


def samples_for(deal: Deal, candidates: int) -> int:
    """Deals per candidate within ``BUDGET`` simulated rolls."""
    rolls = sum(deal.sizes[p] for p in deal.live) or 1
    return max(MIN_SAMPLES, min(MAX_SAMPLES, BUDGET // (rolls * max(1, candidates))))


def best_play(deal: Deal, dice: Sequence[int], bid: int, rng: random.Random) -> int:
    """The die (one per type among ``dice``) with the best mean score over the rollouts."""
    by_type: dict[str, int] = {}
    for d in dice:
        by_type.setdefault(deal.rules.types[d], d)
    cands = list(by_type.values())
    if len(cands) == 1:
        return cands[0]
    bids = [b if b is not None else 0 for b in deal.bids]
    bids[deal.me] = bid
    n = samples_for(deal, len(cands))
    totals = [0] * len(cands)
    for _ in range(n):
        hands = deal.sample(rng)
        faces = roll_faces(deal.rules, rng)
        for i, d in enumerate(cands):
            totals[i] += rollout(deal, [h[:] for h in hands], faces, bids, d)
    best = max(range(len(cands)), key=lambda i: (totals[i], -deal.rules.kind_rank[cands[i]]))
    return cands[best]


def best_bid(deal: Deal, bids: Sequence[int], guess: Any, rng: random.Random) -> int:
    """The bid among ``bids`` (most preferred first) with the best mean score; ``guess(dice)`` bids for the other seats
    (their bids are hidden until all are in), from their sampled dice."""
    cands = list(bids)
    n = samples_for(deal, len(cands))
    totals = [0] * len(cands)
    for _ in range(n):
        hands = deal.sample(rng)
        faces = roll_faces(deal.rules, rng)
        seat_bids = [guess(hands[p]) if p != deal.me else 0 for p in range(deal.n)]
        for i, b in enumerate(cands):
            seat_bids[deal.me] = b
            totals[i] += rollout(deal, [h[:] for h in hands], faces, seat_bids, None)
    return cands[max(range(len(cands)), key=lambda i: (totals[i], -i))]  # ties: the earlier (preferred) bid


def bid_weight(deal: Deal, hands: Sequence[Sequence[int]], worth: Sequence[float] | None) -> float:
    """How well a deal fits the revealed bids: exp(-``BID_FIT`` x |bid - expected tricks|) per other seat, the
    expected tricks being the sum of ``worth`` (a die id's P(win)) over the hand it bid on (its rolled and its
    sampled dice). 1 without ``worth`` or before the bids are known."""
    if worth is None or BID_FIT <= 0:
        return 1.0
    miss = 0.0
    for p in deal.live:
        bid = deal.bids[p]
        if p == deal.me or bid is None:
            continue
        expected = sum(worth[d] for d in hands[p]) + sum(worth[d] for d in deal.rolled.get(p, ()))
        miss += abs(bid - expected)
    return math.exp(-BID_FIT * miss)


def trick_chances(
    deal: Deal,
    dice: Sequence[int],
    bids: Sequence[int],
    rng: random.Random,
    worth: Sequence[float] | None = None,
) -> list[tuple[float, float]]:
    """For each die in ``dice`` (this seat to roll now): P(it takes the current trick) and the mean
    bonus of that trick when it does, over deals of the unseen dice, the seats still to roll
    playing the rollout policy (common deals and faces for every die). With ``worth`` (issue 31) each deal
    is weighted by how well it fits the other seats' revealed bids (:func:`bid_weight`): a seat that bid
    high more likely holds the specials."""
    rules, me = deal.rules, deal.me
    rolled = {p for p, _, _ in deal.trick}
    after = [p for p in deal.order_from(deal.leader) if p not in rolled and p != me]
    n = max(MIN_SAMPLES, min(MAX_SAMPLES * 2, TRICK_BUDGET // max(1, len(dice) * (len(after) + 1))))
    wins = [0.0] * len(dice)
    bonus = [0.0] * len(dice)
    total = 0.0
    base_dice = [d for _, d, _ in deal.trick]
    base_codes = [c for _, _, c in deal.trick]
    for _ in range(n):
        hands = deal.sample(rng)
        faces = roll_faces(rules, rng)
        w = bid_weight(deal, hands, worth)
        total += w
        for i, mine in enumerate(dice):
            trick, codes = [*base_dice, mine], [*base_codes, faces[mine]]
            for p in after:
                hand = hands[p]
                if not hand:
                    continue
                opts = legal(rules, hand, trick)
                d = opts[0] if len(opts) == 1 else _policy(rules, opts, codes, deal.tricks[p] < bids[p])
                trick.append(d)
                codes.append(faces[d])
            win = rules.winner(codes)
            if win == len(base_dice):
                wins[i] += w
                bonus[i] += w * rules.bonus(codes, win)
    total = total or 1.0
    return [(wins[i] / total, bonus[i] / wins[i] if wins[i] else 0.0) for i in range(len(dice))]
