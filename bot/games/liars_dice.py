"""Liar's Dice (rules/liars-dice.md).

Seats bid on the dice of *all* players (``bid:<quantity>:<face>``) or challenge the
immediately preceding bid (``challenge``). Five raise rules (L-3), optional wild ones
(L-1/L-4), and three game lengths (L-5): one challenge decides (``single``), the loser
passes a die to the winner (``loot``), or the loser discards a die (``lose_die``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, TypedDict

from bot.games import _compiled
from bot.games.base import (
    JSON,
    Action,
    Engine,
    Event,
    IllegalMove,
    InvalidOptions,
    OptionsBase,
    Outcome,
    SlotsState,
    act,
    choice,
    clone,
    whole,
)
from bot.games.dice import DiceSource
from bot.games.registry import GameSpec

RAISE_RULES = ("sum", "simple", "poker", "pirates", "lefthand")
MODES = ("single", "loot", "lose_die")
STARTERS = ("loser", "winner")
MAX_ROUNDS_LIMIT = 10_000

CHALLENGE = act("challenge")


class LiarBid(TypedDict):
    quantity: int
    face: int


class LiarView(TypedDict):
    """``LiarsDice.view``: what one seat (``you``) or the channel (``you`` None) may know."""

    game: str
    you: int | None
    options: dict[str, Any]
    round: int
    counts: list[int]
    total: int
    out: list[bool]
    forfeited: list[bool]
    hand: list[int] | None  # the seat's own dice; None for the channel
    current: int | None  # None once over
    starter: int
    bid: LiarBid | None
    bidder: int | None
    bids: list[list[int]]  # [seat, quantity, face] in bidding order
    last_reveal: dict[str, Any] | None
    over: bool
    end_reason: str | None
    legal: list[str]  # the seat's own legal actions, encoded; empty for the channel
    public: list[str]  # public_actions of the seat to act, encoded (the channel's controls)


def is_raise(rule: str, q: int, f: int, q2: int, f2: int) -> bool:
    """Rule L-3: does the bid (q2, f2) raise the previous bid (q, f)?"""
    if rule == "poker":
        return q2 > q or (q2 == q and f2 > f)
    if rule == "simple":
        return f2 > f or (f2 == f and q2 > q)
    if rule == "sum":
        return q2 * f2 > q * f
    if rule == "pirates":
        return max(q2, f2) > max(q, f)
    if rule == "lefthand":
        return (f2 == f and q2 > q) or (q2 == q and f2 > f)
    raise ValueError(f"unknown raise rule {rule!r}")


def bid_rank(rule: str, q: int, f: int) -> tuple[int, ...]:
    """The order legal bids are listed in: the measure each rule strictly increases (L-3), then q, then f.

    For the total orders (poker, simple) the first is the unique minimum raise; for the partial
    orders it is the canonical "smallest" raise quoted in error messages.
    """
    if rule == "poker":
        return (q, f)
    if rule == "simple":
        return (f, q)
    if rule == "sum":
        return (q * f, q, f)
    if rule == "pirates":
        return (max(q, f), q, f)
    return (q + f, q, f)  # lefthand


_BIDS = {(q, f): act("bid", q, f) for q in range(1, 37) for f in range(1, 7)}


@lru_cache(maxsize=4096)
def legal_bids(rule: str, wild_ones: bool, total: int, q: int = 0, f: int = 0) -> tuple[Action, ...]:
    """Every legal bid (L-1 domain, L-3 raise) over the bid (q, f) (q == 0: the opening), smallest first."""
    faces = range(2, 7) if wild_ones else range(1, 7)
    bids = [(q2, f2) for q2 in range(1, total + 1) for f2 in faces if q == 0 or is_raise(rule, q, f, q2, f2)]
    bids.sort(key=lambda b: bid_rank(rule, *b))
    return tuple(_BIDS[b] for b in bids)


@dataclass(frozen=True)
class LiarsOptions(OptionsBase):
    dice_per_player: int = whole(5, 1, 6)
    raise_rule: str = choice("poker", RAISE_RULES)  # D-L3
    wild_ones: bool = False
    mode: str = choice("single", MODES)  # D-L1
    starter: str = choice("loser", STARTERS)  # L-6, multi-round modes only
    max_rounds: int = whole(0, 0, MAX_ROUNDS_LIMIT)  # 0 = no limit (D-L8), multi-round modes only

    def validate(self) -> None:
        self.check_declared()
        if not isinstance(self.wild_ones, bool):
            raise InvalidOptions("wild_ones", "not_true_false", value=self.wild_ones)
        if self.mode == "single":
            if self.max_rounds:
                raise InvalidOptions("max_rounds", "multi_round_only")
            if self.starter != "loser":
                raise InvalidOptions("starter", "multi_round_only")

    @classmethod
    def from_dict(cls, data: JSON) -> Any:
        if str(data.get("max_rounds", "0")).strip().lower() in ("none", "null", "off", ""):
            data = {**data, "max_rounds": 0}
        return super().from_dict(data)


class LiarsState(SlotsState):
    """One game. Lists and the reveal may be shared with earlier states: a move replaces them, never changes them in
    place (tests and tools may, on a state of their own)."""

    __slots__ = (
        "options",
        "counts",  # dice per seat; 0 = out (eliminated or forfeited)
        "hands",  # this round's faces per seat, sorted; hidden from the others until the reveal
        "current",
        "round_no",
        "round_starter",
        "bid",  # [quantity, face] of the standing bid
        "bidder",
        "bids",  # this round's bids: [seat, quantity, face]
        "forfeited",
        "out_order",  # seats in the order they left play
        "last_reveal",  # the last challenge's public reveal (hands of that round)
        "finished",
        "end_reason",  # challenge | last_standing | max_rounds | forfeit
        "winner",  # single mode: the deciding challenge's winner
        "loser",  # single mode: the deciding challenge's loser
    )

    def __init__(
        self,
        options: LiarsOptions,
        counts: list[int],
        hands: list[list[int]],
        current: int,
        round_no: int = 1,
        round_starter: int = 0,
        bid: list[int] | None = None,
        bidder: int | None = None,
        bids: list[list[int]] | None = None,
        forfeited: list[bool] | None = None,
        out_order: list[int] | None = None,
        last_reveal: JSON | None = None,
        finished: bool = False,
        end_reason: str | None = None,
        winner: int | None = None,
        loser: int | None = None,
    ) -> None:
        self.options = options
        self.counts = counts
        self.hands = hands
        self.current = current
        self.round_no = round_no
        self.round_starter = round_starter
        self.bid = bid
        self.bidder = bidder
        self.bids = [] if bids is None else bids
        self.forfeited = [] if forfeited is None else forfeited
        self.out_order = [] if out_order is None else out_order
        self.last_reveal = last_reveal
        self.finished = finished
        self.end_reason = end_reason
        self.winner = winner
        self.loser = loser

    @property
    def total(self) -> int:
        return sum(self.counts)


def _copy(s: LiarsState) -> LiarsState:
    """A new state sharing every part with ``s`` (the caller replaces what changes)."""
    n = _new(LiarsState)
    n.options = s.options
    n.counts = s.counts
    n.hands = s.hands
    n.current = s.current
    n.round_no = s.round_no
    n.round_starter = s.round_starter
    n.bid = s.bid
    n.bidder = s.bidder
    n.bids = s.bids
    n.forfeited = s.forfeited
    n.out_order = s.out_order
    n.last_reveal = s.last_reveal
    n.finished = s.finished
    n.end_reason = s.end_reason
    n.winner = s.winner
    n.loser = s.loser
    return n


def _moves(
    rule: str, wild_ones: bool, total: int, q: int, f: int
) -> tuple[tuple[Action, ...], dict[Action, tuple[int, int]]]:
    """The legal actions over the bid (q, f) (q == 0: the opening), and each legal bid's (quantity, face) by
    the bid (the fast legality test). Cached under one int per raise rule and wild ones: a tuple key's hash
    cost more than the rest of the lookup."""
    table = _MOVES[rule][wild_ones]
    key = (total << 9) | (q << 3) | f  # q <= 36 < 64, f <= 6 < 8
    found = table.get(key)
    if found is None:
        bids = legal_bids(rule, wild_ones, total, q, f)
        found = table[key] = ((*bids, CHALLENGE) if q else bids, {b: (int(b.args[0]), int(b.args[1])) for b in bids})
    return found


_MOVES: dict[str, tuple[dict[int, Any], dict[int, Any]]] = {rule: ({}, {}) for rule in RAISE_RULES}
_new = object.__new__
_tuple_new = tuple.__new__  # builds an Event in C: Event(...) runs the NamedTuple's Python __new__, twice the cost
_SEATS = tuple((seat,) for seat in range(6))  # to_act's answers
_TURN = tuple(_tuple_new(Event, ("turn", {"player": seat}, None)) for seat in range(6))  # event data is never mutated


class LiarsDice(Engine[LiarsState, LiarsOptions, LiarView]):
    name = "liar"
    neutral_results = True  # D-L7: single round, the uninvolved seats
    Options = LiarsOptions
    min_players = 2
    max_players = 6

    # -- setup -----------------------------------------------------------------------------------

    def new_game(self, players: int, options: LiarsOptions, dice: DiceSource) -> tuple[LiarsState, list[Event]]:
        if not self.min_players <= players <= self.max_players:
            self.check_player_count(players, options)
        starter = dice.sample(range(players), 1)[0]  # L-6: round 1 starts with a random player
        s = _new(LiarsState)  # every field set here or in _deal: a game starts a few moves apart
        s.options = options
        s.counts = [options.dice_per_player] * players
        s.round_no = 1
        s.forfeited = [False] * players
        s.out_order = []
        s.last_reveal = None
        s.finished = False
        s.end_reason = s.winner = s.loser = None
        events = [_tuple_new(Event, ("start", {"players": players, "starter": starter}, None))]
        events += self._deal(s, dice, starter)
        return s, events

    def _deal(self, s: LiarsState, dice: DiceSource, starter: int, redeal: bool = False) -> list[Event]:
        """Everyone with dice rolls; ``starter`` opens the bidding (on ``s``, a fresh state of the caller's)."""
        s.bid, s.bidder, s.bids = None, None, []
        s.round_starter = s.current = starter
        counts = s.counts
        round_no = s.round_no
        data = {"round": round_no, "starter": starter, "counts": [*counts], "total": sum(counts), "redeal": redeal}
        events = [_tuple_new(Event, ("round", data, None))]
        s.hands = hands = []
        for seat, count in enumerate(counts):  # seat by seat, the dealing and the private dice events in one pass
            if count:
                hand = sorted(dice.roll(count))  # a new list: the dice source may keep the one it returned
                events.append(_tuple_new(Event, ("dice", {"round": round_no, "dice": [*hand]}, seat)))
            else:
                hand = []
            hands.append(hand)
        events.append(_TURN[starter])
        return events

    # -- queries ---------------------------------------------------------------------------------

    def is_over(self, state: LiarsState) -> bool:
        return state.finished

    def to_act(self, state: LiarsState) -> tuple[int, ...]:
        return () if state.finished else _SEATS[state.current]

    def legal_actions(self, state: LiarsState, player: int) -> list[Action]:
        """Legal bids from the smallest raise up (in the raise rule's order), then ``challenge``."""
        if state.finished or player != state.current:
            return []
        o = state.options
        q, f = state.bid or (0, 0)
        total = sum(state.counts)
        found = _MOVES[o.raise_rule][o.wild_ones].get((total << 9) | (q << 3) | f)  # _moves' lookup, inline
        return [*(found or _moves(o.raise_rule, o.wild_ones, total, q, f))[0]]

    def min_raise(self, state: LiarsState) -> tuple[int, int] | None:
        """The smallest legal bid now (the opening minimum before any bid), or None: must challenge."""
        o = state.options
        bids = legal_bids(o.raise_rule, o.wild_ones, state.total, *(state.bid or (0, 0)))
        return (int(bids[0].args[0]), int(bids[0].args[1])) if bids else None

    # -- moves -----------------------------------------------------------------------------------

    def apply(self, state: LiarsState, player: int, action: Action, dice: DiceSource) -> tuple[LiarsState, list[Event]]:
        if state.finished or player != state.current:
            self.check_turn(state, player)  # raises game_over / not_your_turn
        if action.name == "bid":
            o = state.options
            q, f = state.bid or (0, 0)
            total = sum(state.counts)
            found = _MOVES[o.raise_rule][o.wild_ones].get((total << 9) | (q << 3) | f)  # _moves' lookup, inline
            legal = (found or _moves(o.raise_rule, o.wild_ones, total, q, f))[1].get(action)
            # a legal bid of plain ints (a bool or float argument equals an int: the full check decides)
            if legal is not None and type(action.args[0]) is type(action.args[1]) is int:
                q, f = legal
            else:
                q, f = self._check_bid(state, action)
            s = _new(LiarsState)  # a copy of the state, inline: a bid is most moves
            s.options = o
            s.counts = counts = state.counts
            s.hands = state.hands
            s.round_no = state.round_no
            s.round_starter = state.round_starter
            s.bid = [q, f]
            s.bidder = player
            s.bids = [*state.bids, [player, q, f]]
            s.forfeited = state.forfeited
            s.out_order = state.out_order
            s.last_reveal = state.last_reveal
            s.finished = False
            s.end_reason = state.end_reason
            s.winner = state.winner
            s.loser = state.loser
            n = len(counts)
            nxt = player + 1 if player + 1 < n else 0
            while not counts[nxt]:
                nxt = nxt + 1 if nxt + 1 < n else 0
            s.current = nxt
            return s, [_tuple_new(Event, ("bid", {"player": player, "quantity": q, "face": f}, None)), _TURN[nxt]]
        if action == CHALLENGE:
            if state.bid is None:  # L-2
                raise IllegalMove("no_bid_to_challenge")
            s = _copy(state)
            return s, self._challenge(s, player, dice)
        raise IllegalMove("illegal_action", action=str(action))

    def _check_bid(self, state: LiarsState, action: Action) -> tuple[int, int]:
        o = state.options
        args = action.args
        if len(args) != 2 or not all(isinstance(a, int) for a in args):
            raise IllegalMove("bad_bid", action=str(action))
        q, f = int(args[0]), int(args[1])
        if not 1 <= f <= 6:
            raise IllegalMove("bad_face", face=f)
        if o.wild_ones and f == 1:  # L-1 / seed 5.1
            raise IllegalMove("ones_not_biddable", face=f)
        if q < 1:
            raise IllegalMove("bad_quantity", quantity=q)
        total = state.total
        if q > total:  # L-1 / D-L5
            raise IllegalMove(
                "quantity_over_cap",
                quantity=q,
                cap=total,
            )
        if state.bid is not None and not is_raise(o.raise_rule, state.bid[0], state.bid[1], q, f):
            pq, pf = state.bid
            smallest = self.min_raise(state)
            params = {"rule": o.raise_rule, "quantity": q, "face": f, "bid_quantity": pq, "bid_face": pf}
            if smallest is None:  # the catalog's text explains the rule (L-3)
                raise IllegalMove("must_challenge", **params, min_quantity=None, min_face=None, cap=total)
            raise IllegalMove(
                "bid_not_higher",
                **params,
                min_quantity=smallest[0],
                min_face=smallest[1],
            )
        return q, f

    def _challenge(self, s: LiarsState, challenger: int, dice: DiceSource) -> list[Event]:
        """Resolve the challenge on ``s`` (a fresh state of the caller's)."""
        o = s.options
        assert s.bid is not None  # a challenge is legal only against a standing bid
        q, f = s.bid
        bidder = s.bidder
        assert bidder is not None
        hands = s.hands
        count = 0
        for hand in hands:
            count += hand.count(f) + hand.count(1) if o.wild_ones else hand.count(f)  # L-4
        true = count >= q
        loser, winner = (challenger, bidder) if true else (bidder, challenger)
        s.last_reveal = reveal = {
            "round": s.round_no,
            "hands": [*hands],  # the hand lists are shared: nothing changes them in place
            "quantity": q,
            "face": f,
            "count": count,
            "wild_ones": o.wild_ones,
            "bidder": bidder,
            "challenger": challenger,
            "bid_true": true,
            "winner": winner,
            "loser": loser,
        }
        events = [
            _tuple_new(Event, ("challenge", {"player": challenger, "bidder": bidder, "quantity": q, "face": f}, None)),
            _tuple_new(Event, ("reveal", {**reveal, "hands": list(map(list, hands))}, None)),
        ]
        if o.mode == "single":  # L-5: the one challenge decides the game
            s.winner, s.loser = winner, loser
            return [*events, self._finish(s, "challenge")]
        s.counts = counts = [*s.counts]
        counts[loser] -= 1
        if o.mode == "loot":
            counts[winner] += 1
            events.append(Event("die_passed", {"from": loser, "to": winner, "counts": [*counts]}))
        else:
            events.append(Event("die_lost", {"player": loser, "counts": [*counts]}))
        if counts[loser] == 0:
            s.out_order = [*s.out_order, loser]
            events.append(Event("eliminated", {"player": loser}))
        if sum(1 for c in counts if c) == 1:
            return [*events, self._finish(s, "last_standing")]
        if o.max_rounds and s.round_no >= o.max_rounds:
            return [*events, self._finish(s, "max_rounds")]
        # L-6: the loser starts (or the next seat with dice to their left), or the winner with starter=winner.
        if o.starter == "winner":
            starter = winner
        elif counts[loser]:
            starter = loser
        else:
            starter = self._next_seat(s, loser)
        s.round_no += 1
        return events + self._deal(s, dice, starter)

    def _finish(self, s: LiarsState, reason: str) -> Event:
        s.finished = True
        s.end_reason = reason
        won, lost = s.winner, s.loser
        if won is not None and lost is not None and len(s.counts) == 2 and not s.out_order:
            # outcome's two-seat single game (see there), without building the Outcome
            scores = [1, -1] if won == 0 else [-1, 1]
            data = {"reason": reason, "winners": [won], "ranking": [[won], [lost]], "scores": scores}
            return _tuple_new(Event, ("game_over", data, None))
        out = self.outcome(s)
        assert out is not None
        data = {"reason": reason, "winners": [*out.winners], "ranking": list(map(list, out.ranking))}
        data["scores"] = [*out.scores]
        return _tuple_new(Event, ("game_over", data, None))

    @staticmethod
    def _next_seat(s: LiarsState, seat: int) -> int:
        """The next seat to the left (higher index, wrapping) that still has dice."""
        n = len(s.counts)
        nxt = (seat + 1) % n
        while not s.counts[nxt]:
            nxt = (nxt + 1) % n
        return nxt

    # -- time-outs and leaving ------------------------------------------------------------------

    def timeout_action(self, state: LiarsState, player: int) -> Action | None:
        """Challenge the standing bid; at the opening, the minimum bid (1 one, or 1 two with wild ones)."""
        if state.finished or player != state.current:
            return None
        if state.bid is None:
            smallest = self.min_raise(state)
            assert smallest is not None
            return act("bid", *smallest)
        return CHALLENGE

    def timeout(self, state: LiarsState, player: int, dice: DiceSource) -> tuple[LiarsState, list[Event]]:
        self.check_turn(state, player)
        action = self.timeout_action(state, player)
        assert action is not None
        s, events = self.apply(state, player, action, dice)
        return s, [Event("timeout", {"player": player, "action": action.encode()}), *events]

    def forfeit(self, state: LiarsState, player: int, dice: DiceSource) -> tuple[LiarsState, list[Event]]:
        """``player`` leaves: their dice leave play. The round in progress is void (its bids counted
        dice that are gone): the others re-roll and the round's starter (or the next seat) opens again."""
        s = _copy(state)
        if s.finished or not s.counts[player]:
            return s, []
        s.counts = [*s.counts]
        s.counts[player] = 0
        s.hands = [*s.hands]
        s.hands[player] = []
        s.forfeited = [*s.forfeited]
        s.forfeited[player] = True
        s.out_order = [*s.out_order, player]
        events = [Event("forfeit", {"player": player, "counts": list(s.counts)})]
        if sum(1 for c in s.counts if c) == 1:
            return s, [*events, self._finish(s, "forfeit")]
        starter = s.round_starter if s.counts[s.round_starter] else self._next_seat(s, s.round_starter)
        return s, events + self._deal(s, dice, starter, redeal=True)

    # -- secrecy ---------------------------------------------------------------------------------

    def public_actions(self, state: LiarsState) -> dict[int, list[Action]]:
        """The seat to act's bids and challenge depend only on the options, the bid and the dice count."""
        return {seat: self.legal_actions(state, seat) for seat in self.to_act(state)}

    def view(self, state: LiarsState, player: int | None) -> LiarView:
        o = state.options
        seat = player if player is not None and 0 <= player < len(state.hands) else None  # the viewer's own
        view: LiarView = {
            "game": self.name,
            "you": player,
            "options": o.to_dict(),
            "round": state.round_no,
            "counts": list(state.counts),
            "total": state.total,
            "out": [c == 0 for c in state.counts],
            "forfeited": list(state.forfeited),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "current": None if state.finished else state.current,
            "starter": state.round_starter,
            "bid": None if state.bid is None else {"quantity": state.bid[0], "face": state.bid[1]},
            "bidder": state.bidder,
            "bids": [list(b) for b in state.bids],
            "last_reveal": clone(state.last_reveal),
            "over": state.finished,
            "end_reason": state.end_reason,
            "legal": [a.encode() for a in self.legal_actions(state, seat)] if seat is not None else [],
            # anyone's: the seat to act's bids and challenge, so no renderer re-derives the raise rules
            "public": [a.encode() for actions in self.public_actions(state).values() for a in actions],
        }
        return view

    def scramble(self, state: LiarsState, player: int, dice: DiceSource) -> LiarsState:
        """Re-roll every die ``player`` cannot see (revealed hands live on in ``last_reveal``)."""
        s = _copy(state)
        s.hands = [h if seat == player or not h else sorted(dice.roll(len(h))) for seat, h in enumerate(s.hands)]
        return s

    # -- result ----------------------------------------------------------------------------------

    def outcome(self, state: LiarsState) -> Outcome | None:
        """Single: winner, the uninvolved (neutral, D-L7), loser (+1 / 0 / -1). Loot and lose_die:
        seats with dice by dice held (ties share), then the eliminated, latest first (score: dice held).
        Seats that forfeited come last, latest first (score -1 in single, 0 dice otherwise)."""
        if not state.finished:
            return None
        n = len(state.counts)
        won, lost = state.winner, state.loser
        if n == 2 and won is not None and lost is not None and not state.out_order and state.options.mode == "single":
            # two seats, one challenge: the common game, ranked without the general pass
            return Outcome(((won,), (lost,)), (1, -1) if won == 0 else (-1, 1))
        present = [i for i in range(n) if state.counts[i]]
        ranking: list[tuple[int, ...]] = []
        neutral: tuple[int, ...] = ()
        if state.options.mode == "single":
            scores = [-1 if state.forfeited[i] else 0 for i in range(n)]
            if state.loser is None:  # everyone else forfeited
                ranking.append(tuple(present))
                for i in present:
                    scores[i] = 1
            else:
                assert state.winner is not None
                scores[state.winner], scores[state.loser] = 1, -1
                neutral = tuple(i for i in present if i not in (state.winner, state.loser))
                ranking += [(state.winner,), *([neutral] if neutral else []), (state.loser,)]
        else:
            scores = list(state.counts)
            for c in sorted({state.counts[i] for i in present}, reverse=True):
                ranking.append(tuple(i for i in present if state.counts[i] == c))
        gone = list(reversed(state.out_order))
        ranking += [(i,) for i in gone if not state.forfeited[i]]
        ranking += [(i,) for i in gone if state.forfeited[i]]
        return Outcome(tuple(ranking), tuple(scores), neutral)

    # -- persistence -----------------------------------------------------------------------------

    def to_json(self, state: LiarsState) -> JSON:
        data = {name: clone(getattr(state, name)) for name in LiarsState.__slots__}
        data["options"] = state.options.to_dict()
        return data

    def from_json(self, data: JSON) -> LiarsState:
        fields = {name: clone(value) for name, value in data.items()}
        fields["options"] = LiarsOptions.from_dict(data["options"])
        return LiarsState(**fields)


class CompiledLiarsDice(LiarsDice):
    """Liar's Dice with the compiled fast path (bot/games/_fast.c) of ``new_game``, ``to_act``, ``legal_actions``
    and ``apply``: the deal, a bid and a single-round challenge in C, every other call to ``LiarsDice``'s own."""

    reference: ClassVar[type[LiarsDice]] = LiarsDice  # the pure-Python engine it must equal


if _compiled.fast is not None:
    _compiled.fast.setup_liar(
        LiarsState,
        CHALLENGE,
        _SEATS,
        _TURN,
        _MOVES,
        _moves,
        LiarsDice.new_game,
        LiarsDice.to_act,
        LiarsDice.legal_actions,
        LiarsDice.apply,
    )
    CompiledLiarsDice.new_game = _compiled.fast.liar_new_game  # type: ignore[method-assign]
    CompiledLiarsDice.to_act = _compiled.fast.liar_to_act  # type: ignore[method-assign]
    CompiledLiarsDice.legal_actions = _compiled.fast.liar_legal_actions  # type: ignore[method-assign]
    CompiledLiarsDice.apply = _compiled.fast.liar_apply  # type: ignore[method-assign]

# The registry's engine: the compiled one when built (and not turned off, bot/games/_compiled.py); see pig.py.
ENGINE: LiarsDice = CompiledLiarsDice() if _compiled.wanted() else LiarsDice()
# A re-deal is not a new round.
SPEC = GameSpec(
    ENGINE, order=4, length_unit="rounds", starts_unit=lambda e: e.kind == "round" and not e.data.get("redeal")
)
