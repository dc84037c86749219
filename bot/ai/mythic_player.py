"""Computer players for Mythical Dice (rules/mythical-dice.md): a seat's view in, an action out.

``choose(view, level, rng, legal=None)`` reads only ``view`` (``your_dice``: the seat's own hidden
dice, ``trick``: this trick's rolls, ``captured``: every die rolled earlier this hand, ``bids``
once revealed, ``tricks``, ``hand``, ``active``, ``options``, ``legal``) and returns one of the
legal actions (``bid:n`` or ``play:<die id>``).

The rules carry no strategy notes for Mythical Dice; the heuristics are ours. At their core is
P(win): the chance that a die wins a trick, computed exactly (rules MD-R1..R3) for each of its
faces against the faces already rolled in the trick and the other players still to roll, each
of whom is modelled as rolling a random die from the unseen dice (the bag less the seat's own
dice and less every die rolled this hand). For a die kept for later, the position in its trick
is unknown, so P(win) is averaged over every position.

* **Bidding** (``normal``): the tricks the hand will take are modelled as one independent
  Bernoulli per die (its P(win)); the bid is the one with the best expected score under that
  distribution (MD-P1..P3: +20 b, -10 |t - b|, a zero bid +-10 h). ``hard`` (Monte Carlo,
  bot/ai/mythic_mc.py) weighs the bids within ``BID_SPREAD`` of that one by playing the hand out
  on sampled deals of the unseen dice (the other seats bidding the same model from their sampled
  dice) and bids the best mean score, ties to the model's bid.
* **Playing** (``hard``): for each legal die type, the hand's trick count is the tricks taken so
  far + Bernoulli(P(this die takes this trick)) + the Bernoullis of the dice kept (P(win later));
  it plays the die with the best expected score for its bid, bonuses included (so it wins cheaply
  while it needs tricks, and dumps its most dangerous dice into tricks it cannot win once it has
  enough). P(this die takes this trick) is sampled: the unseen dice dealt to the seats still to
  roll (consistent with the suits they failed to follow), who play the rollout policy for their
  revealed bids (``mythic_mc.trick_chances``). ``MONTE_CARLO = False`` restores the earlier
  analytic hard (P(now) from the face mix, reading bids: a seat still needing tricks plays the
  strongest of its hidden dice, one with enough its weakest).
* ``normal`` (issue 31, ``NORMAL_PLAY = "mixed"``) plays, at three or more seats, a quarter of its
  plays (``NORMAL_MIX``, drawn from ``rng``) by the one-step Bernoulli model without rollouts and
  without reading bids (``_play_hard`` with ``read=False``: P(now) from the face mix, the dice kept as
  Bernoullis), and the rest greedily: while it needs tricks the die most likely to win now, else the
  least likely (keeping the dice that would win later if it still needs them); heads-up (an unofficial
  option) always greedily, as before. An always-analytic ``normal`` is stronger against the reference
  players but as strong as ``hard`` (one ``hard`` against two: 0.344 [0.287, 0.406], 240 games), and
  half-analytic left ``hard`` only level with it heads-up and at four seats, so the quarter keeps the
  levels ordered (docs/AI.md has the figures).
* ``easy`` bids its specials plus half its red dice, give or take one, and plays a random legal
  die half the time (the greedy play otherwise).

Options: ``three_way=sequential`` and ``same_special_tie=earlier`` are approximated by the
default resolution in P(win); ``all_flags`` is modelled. Randomness comes only from ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.ai import mythic_mc
from bot.ai.common import make_choose
from bot.games.base import Action
from bot.games.mythical_dice import FACES, FLAG, SPECIALS, MythicDie, MythicRoll, MythicView, bag_types

EASY_RANDOM_PLAY = 0.5
HARD_READ = True
MONTE_CARLO = True  # hard searches by rollouts (bot/ai/mythic_mc.py); False: the one-step Bernoulli model
PLAY_MODE = "trick"  # "trick": sampled P(take this trick) + the Bernoulli model after; "rollout": whole hand
MC_BID = True
MC_PLAY = True
BID_SPREAD = 2  # hard's rollouts weigh the bids within this of the Bernoulli model's best
BID_SCALE = 1.0  # scales each die's P(win) when bidding (tuned by simulation)
NORMAL_MIX = 0.25  # NORMAL_PLAY = "mixed": the share of plays (3+ seats) made by the analytic model (the rest greedy)
#: normal's play (issue 31): "mixed" (shipped): the analytic model on NORMAL_MIX of its plays, else greedy;
#: "plain" / "analytic": always the one-step Bernoulli play (without / reading bids); "greedy": before issue 31
NORMAL_PLAY = "mixed"
CATEGORIES = ("minotaur", "griffin", "mermaid", FLAG, "1", "2", "3", "4", "5", "6", "7")


# --- P(win) ----------------------------------------------------------------------------------


def face_mix(types: Sequence[str]) -> dict[str, float]:
    """The face distribution of a die drawn at random from ``types`` and rolled."""
    out = dict.fromkeys(CATEGORIES, 0.0)
    if not types:
        return out
    for kind in types:
        for face in FACES[kind]:
            out[face] += 1 / (6 * len(types))
    return out


def p_face_wins(
    face: str,
    known: Sequence[str],
    before: int,
    after: int,
    mix: Mapping[str, float],
    all_flags_nobody: bool = False,
) -> float:
    """P(``face`` wins the trick): ``known`` faces were rolled before it, ``before`` unknown players
    roll before it and ``after`` unknown players after it, each a random face from ``mix``.
    Default resolution: three specials -> mermaid, ties -> the later roller, all flags -> first."""
    dm, dg, dr = mix["minotaur"], mix["griffin"], mix["mermaid"]
    kset = set(known)
    if face == "minotaur":
        return 0.0 if "mermaid" in kset else (1 - dr) ** (before + after)
    if face == "griffin":
        return 0.0 if "minotaur" in kset else (1 - dm) ** before * (1 - dm - dg) ** after
    if face == "mermaid":
        if "minotaur" in kset:
            return (1 - dr) ** after
        no_m = (1 - dm) ** before * (1 - dr - dm) ** after
        no_mg = 0.0 if "griffin" in kset else (1 - dm - dg) ** before * (1 - dr - dm - dg) ** after
        return max(0.0, (1 - dr) ** after - (no_m - no_mg))
    if face == FLAG:
        if all_flags_nobody or known or before:
            return 0.0
        return mix[FLAG] ** after
    n = int(face)
    if kset & set(SPECIALS):
        return 0.0
    if any(f != FLAG and int(f) > n for f in known):
        return 0.0
    low = mix[FLAG] + sum(mix[str(v)] for v in range(1, n))  # faces a later roller may show
    return (low + mix[str(n)]) ** before * low**after


def p_face_wins_now(face: str, known: Sequence[str], afters: Sequence[Mapping[str, float]], nobody: bool) -> float:
    """P(``face`` wins), rolled after ``known``, with one face mix per player still to roll."""

    def prod(f: Any) -> float:
        out = 1.0
        for mix in afters:
            out *= max(0.0, f(mix))
        return out

    kset = set(known)
    if face == "minotaur":
        return 0.0 if "mermaid" in kset else prod(lambda d: 1 - d["mermaid"])
    if face == "griffin":
        return 0.0 if "minotaur" in kset else prod(lambda d: 1 - d["minotaur"] - d["griffin"])
    if face == "mermaid":
        free = prod(lambda d: 1 - d["mermaid"])
        if "minotaur" in kset:
            return free
        no_m = prod(lambda d: 1 - d["mermaid"] - d["minotaur"])
        no_mg = 0.0 if "griffin" in kset else prod(lambda d: 1 - d["mermaid"] - d["minotaur"] - d["griffin"])
        return max(0.0, free - (no_m - no_mg))
    if face == FLAG:
        return 0.0 if nobody or known else prod(lambda d: d[FLAG])
    n = int(face)
    if kset & set(SPECIALS) or any(f != FLAG and int(f) > n for f in known):
        return 0.0
    return prod(lambda d: d[FLAG] + sum(d[str(v)] for v in range(1, n)))


def chosen_mix(pool: Sequence[str], held: int, order: Sequence[str], best: bool) -> dict[str, float]:
    """The face mix of the strongest (``best``) or weakest die among ``held`` drawn from ``pool``;
    ``order`` lists the die types weakest first."""
    if not pool or held <= 0:
        return face_mix(pool)
    counts = {kind: 0 for kind in order}
    for kind in pool:
        counts[kind] = counts.get(kind, 0) + 1
    ranked = list(order) if best else list(reversed(order))
    out = dict.fromkeys(CATEGORIES, 0.0)
    below = 0.0
    for kind in ranked:
        share = counts.get(kind, 0) / len(pool)
        p = (below + share) ** held - below**held
        below += share
        for face in FACES[kind]:
            out[face] += p / 6
    return out


def p_die_wins(
    kind: str, known: Sequence[str], before: int, after: int, mix: Mapping[str, float], nobody: bool = False
) -> float:
    return sum(p_face_wins(face, known, before, after, mix, nobody) for face in FACES[kind]) / 6


def p_die_later(kind: str, players: int, mix: Mapping[str, float], nobody: bool = False) -> float:
    """P(win) for a die played in a later trick, at a random position."""
    return sum(p_die_wins(kind, (), b, players - 1 - b, mix, nobody) for b in range(players)) / players


# --- scores ------------------------------------------------------------------------------------


def trick_distribution(base: int, chances: Sequence[float]) -> list[float]:
    """P(tricks = t): ``base`` already taken plus one independent Bernoulli per chance."""
    dist = [0.0] * base + [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for t, w in enumerate(dist):
            nxt[t] += w * (1 - p)
            nxt[t + 1] += w * p
        dist = nxt
    return dist


def expected_score(bid: int, dist: Sequence[float], hand_no: int) -> float:
    """MD-P1..P3 (no bonuses) for ``bid`` when the tricks are distributed as ``dist``."""
    if bid == 0:
        return 10 * hand_no * (2 * dist[0] - 1)
    return sum(w * (20 * bid if t == bid else -10 * abs(t - bid)) for t, w in enumerate(dist))


@lru_cache(maxsize=1024)
def _best_bid(hand_no: int, chances: tuple[float, ...]) -> int:
    dist = trick_distribution(0, chances)
    return max(range(hand_no + 1), key=lambda b: (expected_score(b, dist, hand_no), -b))


# --- the table as one seat sees it ------------------------------------------------------------


class _Table:
    def __init__(self, view: MythicView) -> None:
        o = view.get("options") or {}
        self.view = view
        self.types = bag_types(o.get("dice_set", "standard"))
        self.nobody = o.get("all_flags") == "nobody"
        self.me = view["you"]
        self.hand_no = int(view.get("hand", 1))
        self.mine: list[MythicDie] = list(view.get("your_dice") or [])
        self.trick: list[MythicRoll] = list(view.get("trick") or [])
        active = view.get("active") or [True] * int(view.get("players", 0))
        self.players = sum(1 for a in active if a)
        rolled = {r["player"] for r in self.trick}
        n = len(active)
        start = self.me if self.me is not None else 0
        seats = [(start + k) % n for k in range(1, n)]
        self.to_roll = [p for p in seats if active[p] and p not in rolled]
        self.after = len(self.to_roll)
        self.sizes: list[int] = list(view.get("hand_sizes") or [0] * n)
        self.revealed = bool(view.get("bids_revealed"))
        seen = {d["id"] for d in self.mine} | {r["die"] for r in self.trick}
        for pile in view.get("captured") or []:
            seen |= {r["die"] for r in pile}
        last = view.get("last_trick")  # dice of a discarded trick (all_flags=nobody) are gone too
        if last:
            seen |= {r["die"] for r in last.get("rolls", [])}
        self.unseen = [t for i, t in enumerate(self.types) if i not in seen]
        self.mix = face_mix(self.unseen)
        bids = view.get("bids") or []
        self.bids: list[int | None] = list(bids)
        self.bid: int | None = bids[self.me] if self.me is not None and self.me < len(bids) else None
        tricks = view.get("tricks") or []
        self.tricks: list[int] = list(tricks)
        self.taken = tricks[self.me] if self.me is not None and self.me < len(tricks) else 0

    def kind(self, die: int) -> str:
        return self.types[die]

    def later(self, kind: str) -> float:
        return p_die_later(kind, max(1, self.players), self.mix, self.nobody)

    def now(self, kind: str) -> float:
        known = [r["face"] for r in self.trick]
        return p_die_wins(kind, known, 0, self.after, self.mix, self.nobody)

    def now_read(self, kind: str) -> float:
        """P(win now), with the players still to roll playing their strongest die while they
        need tricks for their bid, and their weakest once they have enough."""
        if not self.revealed:
            return self.now(kind)
        known = [r["face"] for r in self.trick]
        order = sorted(set(self.unseen), key=self.later)
        afters = []
        for p in self.to_roll:
            bid = self.bids[p]
            want = bid is not None and bid > self.tricks[p]
            afters.append(chosen_mix(self.unseen, self.sizes[p], order, want))
        return sum(p_face_wins_now(face, known, afters, self.nobody) for face in FACES[kind]) / 6


def _decide(view: MythicView, level: str, rng: Any, actions: list[Action]) -> Action:
    """The pick among two or more legal ``actions``; :func:`choose` (the shared prelude) calls this."""
    table = _Table(view)
    if all(a.name == "bid" for a in actions):
        return _bid(table, level, rng, actions)
    plays = [a for a in actions if a.name == "play"]
    if not plays:
        return actions[0]
    if level == "easy" and rng is not None and rng.random() < EASY_RANDOM_PLAY:
        return rng.choice(plays)
    if level == "hard":
        if not (MONTE_CARLO and MC_PLAY):
            return _play_hard(table, plays)
        deal = mythic_mc.Deal(view)
        if PLAY_MODE == "rollout":
            die = mythic_mc.best_play(deal, [int(a.args[0]) for a in plays], table.bid or 0, _rng(rng))
            return Action("play", (die,))
        return _play_hard_mc(table, deal, plays, _rng(rng))
    if level == "normal" and NORMAL_PLAY in ("analytic", "plain"):
        return _play_hard(table, plays, read=NORMAL_PLAY == "analytic")
    mixed = level == "normal" and NORMAL_PLAY == "mixed" and table.players >= 3  # heads-up (unofficial): greedy
    if mixed and (rng.random() if rng is not None else 0.0) < NORMAL_MIX:
        return _play_hard(table, plays, read=False)
    return _play_greedy(table, plays)


def _rng(rng: Any) -> random.Random:
    """The rollouts' generator: drawn from the rng passed in (a fixed one without), so games replay."""
    return random.Random(rng.getrandbits(64) if rng is not None else 0)


def _bid(table: _Table, level: str, rng: Any, actions: list[Action]) -> Action:
    bids = sorted(int(a.args[0]) for a in actions)
    if level == "easy":
        kinds = [d["type"] for d in table.mine]
        guess = sum(k in SPECIALS for k in kinds) + sum(k == "red" for k in kinds) // 2
        if rng is not None:
            guess += rng.choice((-1, 0, 0, 1))
        want = guess
    else:
        want = _bid_for(table, [d["type"] for d in table.mine])
        if level == "hard" and MONTE_CARLO and MC_BID:
            near = sorted((b for b in bids if abs(b - want) <= BID_SPREAD), key=lambda b: (abs(b - want), b))
            later = {kind: table.later(kind) for kind in set(table.types)}
            types = table.types

            def others_bid(dice: list[int]) -> int:
                return _best_bid(table.hand_no, tuple(sorted(round(later[types[d]], 4) for d in dice)))

            if near:
                want = mythic_mc.best_bid(mythic_mc.Deal(table.view), near, others_bid, _rng(rng))
    want = min(max(want, bids[0]), bids[-1])
    return Action("bid", (want,))


def _bid_for(table: _Table, kinds: list[str]) -> int:
    """The best-expected-score bid with one independent Bernoulli per die (its P(win) later)."""
    chances = tuple(sorted(round(min(1.0, BID_SCALE * table.later(kind)), 4) for kind in kinds))
    return _best_bid(table.hand_no, chances)


def _play_greedy(table: _Table, plays: list[Action]) -> Action:
    need = (table.bid or 0) - table.taken
    scored = [(table.now(table.kind(int(a.args[0]))), table.later(table.kind(int(a.args[0]))), a) for a in plays]
    if need > 0:
        return max(scored, key=lambda s: (s[0], -s[1]))[2]  # likeliest to win now, keep the better dice
    return min(scored, key=lambda s: (s[0], -s[1]))[2]  # least likely to win, dump the dangerous


def _play_hard(table: _Table, plays: list[Action], read: bool = HARD_READ) -> Action:
    bid = table.bid if table.bid is not None else 0
    later = {d["id"]: table.later(d["type"]) for d in table.mine}
    best: tuple[float, float, Action] | None = None
    for a in plays:
        die = int(a.args[0])
        now = table.now_read(table.kind(die)) if read else table.now(table.kind(die))
        rest = [p for d, p in later.items() if d != die]
        dist = trick_distribution(table.taken, [now, *rest])
        score = expected_score(bid, dist, table.hand_no)
        key = (round(score, 9), -later.get(die, 0.0), a)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[2]


def _play_hard_mc(table: _Table, deal: mythic_mc.Deal, plays: list[Action], rng: random.Random) -> Action:
    """The die with the best expected score: P(it takes this trick) and that trick's bonus sampled
    (bot/ai/mythic_mc.trick_chances), the dice kept as independent Bernoullis (P(win later))."""
    bid = table.bid if table.bid is not None else 0
    by_type: dict[str, int] = {}
    for a in plays:
        by_type.setdefault(table.kind(int(a.args[0])), int(a.args[0]))
    dice = list(by_type.values())
    bids = [b if b is not None else 0 for b in deal.bids]
    bids[deal.me] = bid
    worth = [table.later(kind) for kind in table.types] if mythic_mc.BID_FIT > 0 else None
    chances = mythic_mc.trick_chances(deal, dice, bids, rng, worth)
    later = {d["id"]: table.later(d["type"]) for d in table.mine}
    best: tuple[float, float, int] | None = None
    for die, (p, bonus) in zip(dice, chances, strict=True):
        rest = [q for d, q in later.items() if d != die]
        win = trick_distribution(table.taken + 1, rest)
        lose = trick_distribution(table.taken, rest)
        made_win = win[bid] if bid > 0 and bid < len(win) else 0.0
        made_lose = lose[bid] if bid > 0 and bid < len(lose) else 0.0
        score = p * (expected_score(bid, win, table.hand_no) + (bonus + deal.my_bonus) * made_win)
        score += (1 - p) * (expected_score(bid, lose, table.hand_no) + deal.my_bonus * made_lose)
        key = (round(score, 9), -later.get(die, 0.0), die)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return Action("play", (best[2],))


choose = make_choose(_decide, "Mythical Dice")
