"""Mex / Mexx / Mexico, as in the app "Mex With Dices Same Room" (rules/mex.md).

Every throw is open (rules §10: "open throws, lowest loses"), so nothing is hidden from anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add
from typing import Any, TypedDict

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
    whole,
)
from bot.games.dice import DiceSource
from bot.games.registry import GameSpec

MEX = 1000  # MX-V1: the highest throw
MODES = ("mex", "pips")  # MX-T2: how an extra round is counted
PENALTIES = ("seed", "additive", "double_once", "doubling")  # MX-R2
HOLDABLE = (1, 2)  # hold_one_or_two: the faces that may be kept

# MX-P1 / MX-P2: the points scheme.
SURVIVE_POINTS = 1
MEX_POINTS = 2
LOSE_POINTS = -1
LAST_POINTS = 5

THROW = act("throw")
STAND = act("stand")
END_ROUND = act("end_round")
CANDIDATES = (
    THROW,
    STAND,
    END_ROUND,
    *(act("hold", face) for face in HOLDABLE),
    *(act("choose", mode) for mode in MODES),
)


def mex_value(faces: Sequence[int]) -> int:
    """MX-V1: {2,1} is Mex (1000), a double is 100 x the face, otherwise 10 x high + low."""
    hi, lo = max(faces), min(faces)
    if (hi, lo) == (2, 1):
        return MEX
    if hi == lo:
        return 100 * hi
    return 10 * hi + lo


_tuple_new = tuple.__new__  # builds an Event in C: Event(...) runs the NamedTuple's Python __new__, twice the cost

# mex_value of two faces, looked up as _VALUE[a][b] (a move's hot path; faces are 1..6).
_VALUE = [[mex_value((a, b)) if a and b else 0 for b in range(7)] for a in range(7)]


def pips_value(faces: Sequence[int]) -> int:
    """MX-V3: the plain sum, 2 to 12; no Mex, no doubles."""
    return sum(faces)


def penalty(mode: str, mexes: int) -> int:
    """MX-R2: lives lost by the round's loser when ``mexes`` Mexes were thrown in the normal round."""
    if mexes == 0:
        return 1
    if mode == "additive":
        return 1 + mexes
    if mode == "double_once":
        return 2
    if mode == "doubling":
        return 2**mexes
    return 2 * mexes  # seed


@dataclass(frozen=True)
class MexOptions(OptionsBase):
    starting_lives: int = whole(12, 1, 99)
    max_throws: int = whole(3, 1, 3)
    mex_penalty: str = choice("seed", PENALTIES)
    allow_end_round_early: bool = True
    tiebreak_mode_choice: str = choice("chooser", ("chooser", "always_mex", "always_pips"))
    first_starter: str = choice("random", ("random", "host", "seat1"))
    mex_ends_turn: bool = True
    points_enabled: bool = True
    mex_passes_lead: bool = False
    hold_one_or_two: bool = False

    def validate(self) -> None:
        self.check_declared()
        for name in (
            "allow_end_round_early",
            "mex_ends_turn",
            "points_enabled",
            "mex_passes_lead",
            "hold_one_or_two",
        ):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptions(name, "not_true_false", value=getattr(self, name))
        for name in ("hold_one_or_two", "mex_passes_lead"):
            if getattr(self, name) and self.max_throws < 2:
                raise InvalidOptions(name, "needs_two_throws")


class MexTiebreak(SlotsState):
    """MX-S3: one extra round. ``values`` line up with ``players`` (None: not thrown yet)."""

    __slots__ = ("players", "chooser", "mode", "values", "depth")

    def __init__(
        self,
        players: list[int],
        chooser: int,
        mode: str | None,  # None while the chooser has still to pick
        values: list[int | None],
        depth: int = 1,
    ) -> None:
        self.players = players
        self.chooser = chooser
        self.mode = mode
        self.values = values
        self.depth = depth

    def copy(self) -> MexTiebreak:
        """A full copy (extra rounds are rare; their lists are edited in place on the copy)."""
        return MexTiebreak(list(self.players), self.chooser, self.mode, list(self.values), self.depth)


class MexRound(SlotsState):
    """MX-S2: one normal round (plus its extra round, if any)."""

    __slots__ = (
        "number",
        "starter",
        "order",
        "throws",
        "final",
        "pos",
        "throw_limit",
        "mex_count",
        "ended_early_by",
        "held",
        "must_throw",
        "tiebreak",
    )

    def __init__(
        self,
        number: int,
        starter: int,
        order: list[int],  # the players still in the round, in throwing order
        throws: list[list[list[int]]],  # per seat: the faces of every normal-round throw, in order
        final: list[int | None],  # per seat: the value that counts (None: no final value, or did not throw)
        pos: int = 0,  # index into ``order`` of the active thrower
        throw_limit: int | None = None,  # MX-3: unset until the limit-setter's turn ends
        mex_count: int = 0,
        ended_early_by: int | None = None,
        held: int | None = None,  # hold_one_or_two: the face kept for the rest of the turn
        must_throw: bool = False,  # hold_one_or_two: just held, must throw the other die
        tiebreak: MexTiebreak | None = None,
    ) -> None:
        self.number = number
        self.starter = starter
        self.order = order
        self.throws = throws
        self.final = final
        self.pos = pos
        self.throw_limit = throw_limit
        self.mex_count = mex_count
        self.ended_early_by = ended_early_by
        self.held = held
        self.must_throw = must_throw
        self.tiebreak = tiebreak

    @staticmethod
    def fresh(number: int, order: list[int], players: int) -> MexRound:
        """A new round in ``order`` (its first seat starts): the constructor's defaults, set without its call."""
        new = object.__new__(MexRound)
        new.number = number
        new.starter = order[0]
        new.order = order
        new.throws = [[] for _ in range(players)]
        new.final = [None] * players
        new.pos = 0
        new.throw_limit = None
        new.mex_count = 0
        new.ended_early_by = None
        new.held = None
        new.must_throw = False
        new.tiebreak = None
        return new


class MexTiebreakView(TypedDict):
    players: list[int]
    chooser: int
    mode: str | None
    values: list[int | None]
    depth: int


class MexRoundView(TypedDict):
    number: int
    starter: int
    order: list[int]
    throws: list[list[list[int]]]
    final: list[int | None]
    pos: int
    throw_limit: int | None
    mex_count: int
    ended_early_by: int | None
    held: int | None
    must_throw: bool
    tiebreak: MexTiebreakView | None


class MexView(TypedDict):
    """``Mex.view``: the whole state (throws are open) plus whose turn it is and the moves."""

    options: dict[str, Any]
    lives: list[int]
    points: list[int]
    out: list[int]
    round: MexRoundView
    winner: int | None
    you: int | None  # the viewing seat; None for the channel
    to_act: list[int]
    legal: list[str]  # the viewer's own legal actions, encoded; empty for the channel
    public: list[str]  # public_actions of the seat to act, encoded (the channel's buttons)


class MexState(SlotsState):
    __slots__ = ("options", "lives", "points", "out", "round", "winner")

    def __init__(
        self,
        options: MexOptions,
        lives: list[int],
        points: list[int],
        out: list[int],  # eliminated or forfeited seats, in the order they went out
        round: MexRound,  # noqa: A002 - the stored key
        winner: int | None = None,
    ) -> None:
        self.options = options
        self.lives = lives
        self.points = points
        self.out = out
        self.round = round
        self.winner = winner

    def copy(self) -> MexState:
        """What a move starts from: the round copied (every move changes it), the lists shared until replaced."""
        new = object.__new__(MexState)
        new.options = self.options
        new.lives = self.lives
        new.points = self.points
        new.out = self.out
        new.winner = self.winner
        # The round, shallowly: order, throws (and each seat's list in it) and final are shared until replaced.
        # One plain assignment per slot: tuple assignments or a constructor call cost half as much again.
        r = self.round
        c = new.round = object.__new__(MexRound)
        c.number = r.number
        c.starter = r.starter
        c.order = r.order
        c.throws = r.throws
        c.final = r.final
        c.pos = r.pos
        c.throw_limit = r.throw_limit
        c.mex_count = r.mex_count
        c.ended_early_by = r.ended_early_by
        c.held = r.held
        c.must_throw = r.must_throw
        tb = r.tiebreak
        c.tiebreak = None if tb is None else tb.copy()
        return new


THROW_ONLY: tuple[Action, ...] = (THROW,)
CHOOSE_MODE: tuple[Action, ...] = tuple(act("choose", mode) for mode in MODES)
# A thrower's legal actions once they have thrown, by (may throw, may end the round, may hold 1, may hold 2):
# every combination built once, in CANDIDATES order (as legal_actions always listed them). Stand is always open.
TURN_MOVES: dict[tuple[bool, bool, bool, bool], tuple[Action, ...]] = {
    (throw, end, one, two): tuple(
        a for a, ok in zip(CANDIDATES, (throw, True, end, one, two, False, False), strict=True) if ok
    )
    for throw in (False, True)
    for end in (False, True)
    for one in (False, True)
    for two in (False, True)
}
PLAIN_TURN_MOVES = [[TURN_MOVES[throw, end, False, False] for end in (False, True)] for throw in (False, True)]


class Mex(Engine[MexState, MexOptions, MexView]):
    name = "mex"
    open_information = True  # every throw is on the table
    scores_are_points = True  # MX-E2 points (or lives left without them): more is better
    Options = MexOptions
    min_players = 2
    max_players = 10

    # --- setup -------------------------------------------------------------------------------

    def new_game(self, players: int, options: MexOptions, dice: DiceSource) -> tuple[MexState, list[Event]]:
        self.check_player_count(players, options)
        # MX-1: random by default; "host" and "seat1" are both seat 0 (the table seats the host first).
        starter = dice.sample(range(players), 1)[0] if options.first_starter == "random" else 0
        lives = options.starting_lives
        state = MexState(options, [lives] * players, [0] * players, [], self._round(players, 1, starter, []))
        start = Event("start", {"players": players, "starter": starter, "lives": lives})
        return state, [start, *self._round_events(state)]

    @staticmethod
    def _round(players: int, number: int, starter: int, out: list[int]) -> MexRound:
        order = [seat for k in range(players) if (seat := (starter + k) % players) not in out]
        return MexRound(number, starter, order, [[] for _ in range(players)], [None] * players)

    def _round_events(self, s: MexState) -> list[Event]:
        r = s.round
        data = {"round": r.number, "starter": r.starter, "order": list(r.order), "lives": list(s.lives)}
        events = self._turn(s)
        events.insert(0, _tuple_new(Event, ("round_start", data, None)))
        return events

    # --- whose turn, what is legal --------------------------------------------------------------

    def to_act(self, state: MexState) -> tuple[int, ...]:
        if state.winner is not None:
            return ()
        r = state.round
        return (r.order[r.pos],) if r.tiebreak is None else (self._actor(state),)

    @staticmethod
    def _actor(s: MexState) -> int:
        r = s.round
        tb = r.tiebreak
        if tb is None:
            return r.order[r.pos]
        if tb.mode is None:
            return tb.chooser
        return tb.players[tb.values.index(None)]

    def _limit(self, s: MexState) -> int:
        """MX-3 / MX-3a: the limit-setter may throw up to max_throws; the rest up to the limit."""
        r = s.round
        return s.options.max_throws if r.throw_limit is None else r.throw_limit

    def legal_actions(self, state: MexState, player: int) -> list[Action]:
        if state.winner is not None:
            return []
        r = state.round
        if player != (r.order[r.pos] if r.tiebreak is None else self._actor(state)):
            return []
        return list(self._legal(state))

    @staticmethod
    def _legal(s: MexState) -> tuple[Action, ...]:
        """The actor's legal actions in an unfinished game, as one of the prebuilt tuples: exactly the
        CANDIDATES that ``_refusal`` lets through (a test holds the two together), without building refusals."""
        r = s.round
        tb = r.tiebreak
        if tb is not None:
            return CHOOSE_MODE if tb.mode is None else THROW_ONLY  # MX-T2 / MX-T3
        throws = r.throws[r.order[r.pos]]
        o = s.options
        more = len(throws) < (o.max_throws if r.throw_limit is None else r.throw_limit)  # MX-3
        if not throws or r.must_throw:  # MX-2, and the die after a hold
            return THROW_ONLY if more else ()
        end = o.allow_end_round_early and not r.mex_count and r.pos != len(r.order) - 1  # MX-5
        if o.hold_one_or_two and r.held is None and more:
            last = throws[-1]
            return TURN_MOVES[more, end, 1 in last, 2 in last]
        return PLAIN_TURN_MOVES[more][end]

    def _refusal(self, s: MexState, player: int, action: Action) -> IllegalMove | None:
        """Why ``action`` is illegal for the player to act, or None. One place for legality and codes."""
        r = s.round
        o = s.options
        tb = r.tiebreak
        if action.name == "choose":
            if tb is None or tb.mode is not None:
                return IllegalMove("not_choosing")
            if len(action.args) != 1 or action.args[0] not in MODES:
                return IllegalMove("bad_mode", choice=":".join(map(str, action.args)))
            return None
        if action not in CANDIDATES and action.name != "hold":
            return IllegalMove("illegal_action", action=str(action))
        if tb is not None:
            if tb.mode is None:
                return IllegalMove("must_choose_mode")
            if action != THROW:  # MX-T3
                return IllegalMove("extra_round_throw_only")
            return None
        throws = r.throws[player]
        if action == THROW:
            limit = self._limit(s)
            if len(throws) >= limit:
                return IllegalMove("throw_limit_reached", limit=limit)
            return None
        if action == END_ROUND and not o.allow_end_round_early:
            return IllegalMove("end_round_disabled")
        if action.name == "hold" and not o.hold_one_or_two:
            return IllegalMove("hold_disabled")
        if not throws:  # MX-2
            return IllegalMove("must_throw_first")
        if r.must_throw:
            return IllegalMove("must_throw_after_hold")
        if action == END_ROUND:  # MX-5
            if r.mex_count:
                return IllegalMove("mex_thrown")
            if r.pos == len(r.order) - 1:
                return IllegalMove("nobody_left_to_throw")
        if action.name == "hold":
            if r.held is not None:
                return IllegalMove("hold_used")
            if len(throws) >= self._limit(s):
                return IllegalMove("hold_no_throws_left")
            if len(action.args) != 1 or action.args[0] not in HOLDABLE or action.args[0] not in throws[-1]:
                return IllegalMove("hold_no_such_die")
        return None

    # --- moves ---------------------------------------------------------------------------------

    def apply(self, state: MexState, player: int, action: Action, dice: DiceSource) -> tuple[MexState, list[Event]]:
        r = state.round
        if (
            state.winner is not None
            or player != (r.order[r.pos] if r.tiebreak is None else self._actor(state))
            or action not in self._legal(state)
        ):
            self._check(state, player, action)  # raises the specific refusal
        s = state.copy()
        if action.name == "choose":
            return s, self._choose(s, str(action.args[0]))
        if s.round.tiebreak is not None:
            return s, self._extra_throw(s, dice)
        if action == THROW:
            return s, self._throw(s, dice)
        if action == STAND:
            return s, self._end_turn(s, "stand")
        if action == END_ROUND:
            return s, self._end_round(s)
        return s, self._hold(s, int(action.args[0]))

    def _check(self, state: MexState, player: int, action: Action) -> None:
        """Raise the most specific IllegalMove for a move that is not plainly legal; the state is never touched."""
        tb = state.round.tiebreak
        choosing = state.winner is None and tb is not None and tb.mode is None
        asked = action.name == "choose" and 0 <= player < len(state.lives)
        if choosing and tb is not None and asked and player != tb.chooser:
            # MX-T2: another player asks to pick the counting; name who picks rather than just "not your turn".
            raise IllegalMove("not_chooser", chooser=tb.chooser)
        self.check_turn(state, player)
        refusal = self._refusal(state, player, action)
        if refusal is not None:
            raise refusal

    def _throw(self, s: MexState, dice: DiceSource) -> list[Event]:
        r = s.round
        o = s.options
        p = r.order[r.pos]
        held = r.held
        faces = [held, *dice.roll(1)] if held is not None else dice.roll(2)
        value = _VALUE[faces[0]][faces[1]]
        mex = value == MEX
        throws = r.throws = list(r.throws)  # replaced, not edited (see _Slots)
        count = len(mine := [*throws[p], faces])
        throws[p] = mine
        r.must_throw = False
        if mex:
            r.mex_count += 1  # MX-4
        limit = o.max_throws if r.throw_limit is None else r.throw_limit
        # The event gets its own faces: a reader editing event data must not reach the states (they share throws).
        data = {"player": p, "faces": list(faces), "value": value, "mex": mex, "throw": count, "max_throws": limit,
                "held": held, "extra": 0, "mode": "mex"}  # fmt: skip
        events = [_tuple_new(Event, ("throw", data, None))]
        if mex and o.mex_ends_turn:  # MX-4
            events += self._end_turn(s, "mex")
        elif count >= limit and not (o.allow_end_round_early and not r.mex_count and r.pos != len(r.order) - 1):
            events += self._end_turn(s, "limit")  # MX-3 / MX-3a: end_round (MX-5) is not open either
        return events  # else at the limit with end_round open, the player still picks stand or end_round (MX-5)

    def _hold(self, s: MexState, face: int) -> list[Event]:
        r = s.round
        r.held = face
        r.must_throw = True
        return [Event("hold", {"player": r.order[r.pos], "face": face})]

    def _end_turn(self, s: MexState, reason: str) -> list[Event]:
        """The active player's last throw becomes final (MX-2b); the first to finish sets the limit."""
        r = s.round
        p = r.order[r.pos]
        mine = r.throws[p]
        final = r.final = list(r.final)  # replaced, not edited
        faces = mine[-1]
        value = final[p] = _VALUE[faces[0]][faces[1]]
        data = {"player": p, "value": value, "throws": len(mine), "reason": reason}
        events = [_tuple_new(Event, ("stand", data, None))]
        if r.throw_limit is None:
            if s.options.mex_passes_lead and value == MEX and r.pos + 1 < len(r.order):
                events.append(Event("lead_passed", {"player": p, "to": r.order[r.pos + 1]}))
            else:
                r.throw_limit = len(mine)  # MX-3
                events.append(_tuple_new(Event, ("limit_set", {"player": p, "limit": r.throw_limit}, None)))
        r.held = None
        r.must_throw = False
        r.pos += 1
        events += self._resolve(s) if r.pos == len(r.order) else self._turn(s)  # MX-6
        return events

    def _end_round(self, s: MexState) -> list[Event]:
        """MX-5: the ender's last throw is final; nobody after them throws; an equal lowest counts one less."""
        r = s.round
        p = r.order[r.pos]
        value = mex_value(r.throws[p][-1])
        earlier = [f for q in r.order[: r.pos] if (f := r.final[q]) is not None]  # all set: they have thrown
        counted = value - 1 if earlier and value == min(earlier) else value
        r.final = list(r.final)  # replaced, not edited
        r.final[p] = counted
        r.ended_early_by = p
        data = {"player": p, "value": value, "counted": counted, "skipped": r.order[r.pos + 1 :]}
        return [Event("end_round", data), *self._resolve(s)]

    def _choose(self, s: MexState, mode: str) -> list[Event]:
        tb = s.round.tiebreak
        assert tb is not None
        tb.mode = mode
        return [Event("choose", {"player": tb.chooser, "mode": mode}), *self._turn(s)]

    def _extra_throw(self, s: MexState, dice: DiceSource) -> list[Event]:
        """MX-T3: one throw each, counted as the chooser picked."""
        tb = s.round.tiebreak
        assert tb is not None
        i = tb.values.index(None)
        faces = dice.roll(2)
        value = tb.values[i] = mex_value(faces) if tb.mode == "mex" else pips_value(faces)
        data = {"player": tb.players[i], "faces": faces, "value": value, "mex": value == MEX, "throw": 1}
        events = [Event("throw", {**data, "max_throws": 1, "held": None, "extra": tb.depth, "mode": tb.mode})]
        if None in tb.values:
            return events + self._turn(s)
        return events + self._resolve_extra(s)

    def _turn(self, s: MexState) -> list[Event]:
        r = s.round
        tb = r.tiebreak
        if tb is None:
            limit = s.options.max_throws if r.throw_limit is None else r.throw_limit
            data = {"player": r.order[r.pos], "phase": "throw", "max_throws": limit}
            return [_tuple_new(Event, ("turn", data, None))]
        if tb.mode is None:
            return [Event("turn", {"player": tb.chooser, "phase": "choose", "max_throws": 0})]
        return [Event("turn", {"player": self._actor(s), "phase": "extra", "max_throws": 1})]

    # --- resolution ----------------------------------------------------------------------------

    def _resolve(self, s: MexState) -> list[Event]:
        """MX-R1: a single lowest thrower loses; tied lowest players go to an extra round."""
        final = s.round.final
        low = MEX + 1  # above every value
        lowest: list[int] = []
        for q in s.round.order:  # one pass, no comprehension frames: the lowest final values, in throwing order
            v = final[q]
            if v is None or v > low:
                continue
            if v < low:
                low = v
                lowest = [q]
            else:
                lowest.append(q)
        return self._lowest(s, lowest, low, 1)

    def _resolve_extra(self, s: MexState) -> list[Event]:
        """MX-T4: the lowest extra-round value loses; a tie goes to another extra round."""
        tb = s.round.tiebreak
        assert tb is not None
        low = min(v for v in tb.values if v is not None)
        return self._lowest(s, [p for p, v in zip(tb.players, tb.values, strict=True) if v == low], low, tb.depth + 1)

    def _lowest(self, s: MexState, lowest: list[int], value: int, depth: int) -> list[Event]:
        if len(lowest) == 1:
            return self._finish(s, lowest[0])
        fixed = {"always_mex": "mex", "always_pips": "pips"}.get(s.options.tiebreak_mode_choice)
        # MX-T1 / MX-T2: throw order kept; the last of the tied players chooses.
        tb = MexTiebreak(list(lowest), lowest[-1], fixed, [None] * len(lowest), depth)
        s.round.tiebreak = tb
        data = {"players": list(lowest), "chooser": tb.chooser, "mode": fixed, "depth": depth, "value": value}
        return [Event("tiebreak", data), *self._turn(s)]

    def _finish(self, s: MexState, loser: int) -> list[Event]:
        """MX-R2 / MX-R3 / MX-P1 / MX-T6: the round's loser pays; points; elimination; next round."""
        r = s.round
        o = s.options
        mexes = r.mex_count
        lost = penalty(o.mex_penalty, mexes) if mexes else 1  # MX-R2: 1 without a Mex
        lives = s.lives = list(s.lives)  # replaced, not edited
        left = lives[loser] = max(0, lives[loser] - lost)
        data = {"round": r.number, "loser": loser, "penalty": lost, "mex_count": mexes, "values": list(r.final)}
        data["ended_early_by"] = r.ended_early_by
        events = [
            _tuple_new(Event, ("round_over", data, None)),
            _tuple_new(Event, ("life_lost", {"player": loser, "lost": lost, "lives": left}, None)),
        ]
        n = len(lives)
        if o.points_enabled:
            deltas = [0] * n
            throws = r.throws
            for q in r.order:
                # A Mex is the faces [2, 1] or [1, 2]; none was thrown when the round counted none (MX-4).
                mexed = mexes and ([2, 1] in throws[q] or [1, 2] in throws[q])
                deltas[q] = LOSE_POINTS if q == loser else SURVIVE_POINTS + MEX_POINTS if mexed else SURVIVE_POINTS
            events.append(self._score(s, deltas, "round"))
        if not left:
            events.append(Event("eliminated", {"player": loser, "place": self._go_out(s, loser)}))
        # MX-1a: the loser starts, or the next alive player clockwise after them; the order runs on from there.
        out = s.out
        order = [*range(loser, n), *range(loser)]
        if out:
            order = [q for q in order if q not in out]
        if len(order) == 1:
            events += self._game_over(s, order[0])
        else:
            s.round = MexRound.fresh(r.number + 1, order, n)
            # _round_events, written out: a new round's first turn is its starter's, with the options' throws
            data = {"round": r.number + 1, "starter": order[0], "order": list(order), "lives": list(lives)}
            events.append(_tuple_new(Event, ("round_start", data, None)))
            data = {"player": order[0], "phase": "throw", "max_throws": o.max_throws}
            events.append(_tuple_new(Event, ("turn", data, None)))
        return events

    def _score(self, s: MexState, deltas: list[int], reason: str) -> Event:
        points = s.points = list(map(add, s.points, deltas))  # one entry per seat in both
        return _tuple_new(Event, ("points", {"deltas": deltas, "points": list(points), "reason": reason}, None))

    def _game_over(self, s: MexState, winner: int) -> list[Event]:
        """MX-E1 / MX-P2: the last player left wins (+5 points)."""
        s.winner = winner
        events = []
        if s.options.points_enabled:
            deltas = [0] * len(s.lives)
            deltas[winner] = LAST_POINTS
            events.append(self._score(s, deltas, "last_standing"))
        ranking = [list(place) for place in self._ranking(s)]
        data = {"winner": winner, "ranking": ranking, "points": list(s.points), "lives": list(s.lives)}
        return [*events, Event("game_over", data)]

    @staticmethod
    def _go_out(s: MexState, player: int) -> int:
        """Record ``player`` as out; returns their final place (MX-E2)."""
        s.out = [*s.out, player]  # replaced, not edited
        return len(s.lives) - len(s.out) + 1

    @staticmethod
    def _alive(s: MexState) -> list[int]:
        return [p for p in range(len(s.lives)) if p not in s.out]

    @staticmethod
    def _ranking(s: MexState) -> tuple[tuple[int, ...], ...]:
        """MX-E2: the winner, then the others in reverse order of going out."""
        assert s.winner is not None
        return ((s.winner,), *((p,) for p in reversed(s.out)))

    def outcome(self, state: MexState) -> Outcome | None:
        if state.winner is None:
            return None
        scores = state.points if state.options.points_enabled else state.lives
        return Outcome(self._ranking(state), tuple(scores))

    # --- timeout, forfeit ----------------------------------------------------------------------

    def timeout(self, state: MexState, player: int, dice: DiceSource) -> tuple[MexState, list[Event]]:
        """Throw once if not thrown yet this turn, then stand. A chooser gets ``mex`` (MX-T2);
        an extra-round thrower throws."""
        self.check_turn(state, player)
        s = state.copy()
        events = [Event("timeout", {"player": player})]
        tb = s.round.tiebreak
        if tb is not None:
            return s, events + (self._choose(s, "mex") if tb.mode is None else self._extra_throw(s, dice))
        number = s.round.number
        if not s.round.throws[player]:
            events += self._throw(s, dice)
        if s.winner is None and s.round.number == number and s.round.tiebreak is None and self._actor(s) == player:
            events += self._end_turn(s, "timeout")
        return s, events

    def forfeit(self, state: MexState, player: int, dice: DiceSource) -> tuple[MexState, list[Event]]:
        """The player leaves at once. The round goes on without them: their throws stop counting
        (a Mex they threw still counts for the penalty) and they take no points for it."""
        s = state.copy()
        if state.winner is not None or not 0 <= player < len(s.lives) or player in s.out:
            return s, []
        actor = self._actor(state)
        place = self._go_out(s, player)
        events = [Event("forfeit", {"player": player, "lives": s.lives[player], "place": place})]
        alive = self._alive(s)
        if len(alive) == 1:
            return s, events + self._game_over(s, alive[0])
        r = s.round  # a copy, its tiebreak too (MexState.copy); its lists are replaced, not edited
        i = r.order.index(player)
        r.order = r.order[:i] + r.order[i + 1 :]
        r.final = list(r.final)
        r.final[player] = None
        tb = r.tiebreak
        if tb is None:
            if i < r.pos:
                r.pos -= 1
            elif i == r.pos:
                r.held = None
                r.must_throw = False
            if r.pos == len(r.order):
                return s, events + self._resolve(s)
        elif player in tb.players:
            j = tb.players.index(player)
            tb.players.pop(j)
            tb.values.pop(j)
            if len(tb.players) == 1:  # the only one left of the tied lowest
                return s, events + self._finish(s, tb.players[0])
            if tb.chooser == player:
                tb.chooser = tb.players[-1]
            if None not in tb.values:
                return s, events + self._resolve_extra(s)
        if self._actor(s) != actor:
            events += self._turn(s)
        return s, events

    # --- views, persistence --------------------------------------------------------------------

    def public_actions(self, state: MexState) -> dict[int, list[Action]]:
        """Every Mex throw is open, so the active player's legal actions are everyone's to see."""
        return {seat: self.legal_actions(state, seat) for seat in self.to_act(state)}

    def view(self, state: MexState, player: int | None) -> MexView:
        data = self.to_json(state)  # Mex throws are open: nothing is hidden.
        return {
            "options": data["options"],
            "lives": data["lives"],
            "points": data["points"],
            "out": data["out"],
            "round": data["round"],
            "winner": data["winner"],
            "you": player,
            "to_act": list(self.to_act(state)),
            "legal": [a.encode() for a in self.legal_actions(state, player)] if player is not None else [],
            "public": [a.encode() for actions in self.public_actions(state).values() for a in actions],
        }

    def scramble(self, state: MexState, player: int, dice: DiceSource) -> MexState:
        return self.from_json(self.to_json(state))  # nothing hidden: a plain copy

    def to_json(self, state: MexState) -> JSON:
        # Written out rather than dataclasses.asdict, which is many times slower on the nested lists.
        r = state.round
        tb = r.tiebreak
        tiebreak = None
        if tb is not None:
            tiebreak = {
                "players": list(tb.players),
                "chooser": tb.chooser,
                "mode": tb.mode,
                "values": list(tb.values),
                "depth": tb.depth,
            }
        return {
            "options": state.options.to_dict(),
            "lives": list(state.lives),
            "points": list(state.points),
            "out": list(state.out),
            "round": {
                "number": r.number,
                "starter": r.starter,
                "order": list(r.order),
                "throws": [[list(faces) for faces in seat] for seat in r.throws],
                "final": list(r.final),
                "pos": r.pos,
                "throw_limit": r.throw_limit,
                "mex_count": r.mex_count,
                "ended_early_by": r.ended_early_by,
                "held": r.held,
                "must_throw": r.must_throw,
                "tiebreak": tiebreak,
            },
            "winner": state.winner,
        }

    def from_json(self, data: JSON) -> MexState:
        data = dict(data)
        rnd = dict(data["round"])
        if rnd["tiebreak"] is not None:
            rnd["tiebreak"] = MexTiebreak(**rnd["tiebreak"])
        data["round"] = MexRound(**rnd)
        data["options"] = MexOptions.from_dict(data["options"])
        return MexState(**data)


ENGINE = Mex()
SPEC = GameSpec(ENGINE, order=3, length_unit="rounds", starts_unit=lambda e: e.kind == "round_start")
