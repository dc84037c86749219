"""Pig and Big Pig (rules/pig.md).

Lean on purpose (issue 12): a move builds a new state by copying eleven references and replacing only what
changed; the lists in a state are never changed in place once it has been handed out, so states share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypedDict

from bot.games import _compiled
from bot.games.base import (
    JSON,
    Action,
    Engine,
    Event,
    IllegalMove,
    OptionsBase,
    Outcome,
    SlotsState,
    act,
    choice,
    whole,
)
from bot.games.dice import DiceSource
from bot.games.registry import GameSpec

ROLL = act("roll")
HOLD = act("hold")

_new = object.__new__
_tuple_new = tuple.__new__  # builds an Event in C: Event(...) runs the NamedTuple's Python __new__, twice the cost
_SEATS = tuple((seat,) for seat in range(8))  # to_act's answers
_TURN = tuple(_tuple_new(Event, ("turn", {"player": seat}, None)) for seat in range(8))  # event data is never mutated


class PigFields(TypedDict):
    """A Pig state as JSON (``Pig.to_json``)."""

    options: dict[str, Any]
    scores: list[int]
    active: list[bool]
    current: int
    starter: int
    turn_total: int
    rolls_this_turn: int
    must_roll: bool
    turns: list[int]
    last_roll: list[int]
    winner: int | None


class PigView(PigFields):
    """``Pig.view``: the whole state (Pig hides nothing) plus the viewer and their legal actions."""

    you: int | None
    legal: list[str]  # the viewer's legal actions, encoded; empty for the channel


@dataclass(frozen=True)
class PigOptions(OptionsBase):
    dice: int = choice(1, (1, 2))
    target: int = whole(100, 20, 500)
    double_ones: str = choice("plus25", ("plus25", "lose_score", "bust"))
    doubles_multiplier: int = choice(2, (1, 2))
    must_roll_after_doubles: bool = False
    auto_hold_at_target: bool = True
    equal_turns: bool = False

    def validate(self) -> None:
        self.check_declared()


class PigState(SlotsState):
    """One game. The lists (scores, active, turns, last_roll) may be shared with earlier states: replace, never
    change them in place (tests and tools may, on a state of their own)."""

    __slots__ = (
        "options",
        "scores",
        "active",
        "current",
        "starter",
        "turn_total",
        "rolls_this_turn",
        "must_roll",
        "turns",
        "last_roll",
        "winner",
    )

    def __init__(
        self,
        options: PigOptions,
        scores: list[int],
        active: list[bool],
        current: int,
        starter: int,
        turn_total: int = 0,
        rolls_this_turn: int = 0,
        must_roll: bool = False,
        turns: list[int] | None = None,
        last_roll: list[int] | None = None,
        winner: int | None = None,
    ) -> None:
        self.options = options
        self.scores = scores
        self.active = active
        self.current = current
        self.starter = starter
        self.turn_total = turn_total
        self.rolls_this_turn = rolls_this_turn
        self.must_roll = must_roll
        self.turns = [] if turns is None else turns
        self.last_roll = [] if last_roll is None else last_roll
        self.winner = winner


def _next_active(active: list[bool], p: int) -> int:
    """The next seat after ``p`` still in the game (the turn passes once per turn, not per roll)."""
    n = len(active)
    nxt = p + 1 if p + 1 < n else 0
    while not active[nxt]:
        nxt = nxt + 1 if nxt + 1 < n else 0
    return nxt


def _copy(s: PigState) -> PigState:
    """A new state sharing every part with ``s`` (the caller replaces what changes)."""
    n = _new(PigState)
    n.options = s.options
    n.scores = s.scores
    n.active = s.active
    n.current = s.current
    n.starter = s.starter
    n.turn_total = s.turn_total
    n.rolls_this_turn = s.rolls_this_turn
    n.must_roll = s.must_roll
    n.turns = s.turns
    n.last_roll = s.last_roll
    n.winner = s.winner
    return n


class Pig(Engine[PigState, PigOptions, PigView]):
    name = "pig"
    scores_are_points = True  # a player's total
    open_information = True
    Options = PigOptions
    min_players = 2
    max_players = 8

    def new_game(self, players: int, options: PigOptions, dice: DiceSource) -> tuple[PigState, list[Event]]:
        self.check_player_count(players, options)
        starter = dice.sample(range(players), 1)[0]  # P-5: the first player is random
        state = PigState(options, [0] * players, [True] * players, starter, starter, turns=[0] * players)
        return state, [Event("start", {"starter": starter}), Event("turn", {"player": starter})]

    def is_over(self, state: PigState) -> bool:
        return state.winner is not None

    def to_act(self, state: PigState) -> tuple[int, ...]:
        return () if state.winner is not None else _SEATS[state.current]

    def legal_actions(self, state: PigState, player: int) -> list[Action]:
        if state.winner is not None or player != state.current:
            return []
        if state.rolls_this_turn == 0 or state.must_roll:
            return [ROLL]
        return [ROLL, HOLD]

    def apply(self, state: PigState, player: int, action: Action, dice: DiceSource) -> tuple[PigState, list[Event]]:
        if state.winner is not None or player != state.current:
            self.check_turn(state, player)  # raises game_over / not_your_turn
        if action == ROLL:
            o = state.options
            faces = dice.roll(o.dice)
            if o.dice != 1 or o.equal_turns:
                return self._roll(state, faces)
            # One die, every round-free rule: the common moves, inline (a call or a copy is a tenth of a move).
            p = state.current
            scores = state.scores
            s = _new(PigState)
            s.options = o
            s.scores = scores
            s.active = active = state.active
            s.starter = state.starter
            s.last_roll = faces
            s.winner = None
            face = faces[0]
            if face == 1:  # P-2: the turn ends with nothing banked
                s.turn_total = s.rolls_this_turn = 0
                s.must_roll = False
                s.turns = turns = [*state.turns]
                turns[p] += 1
                s.current = nxt = _next_active(active, p)
                data = {"player": p, "faces": [*faces], "gain": 0, "bust": True, "wipe": False,
                        "turn_total": 0, "lost": state.turn_total, "score": scores[p]}  # fmt: skip
                return s, [_tuple_new(Event, ("roll", data, None)), _TURN[nxt]]
            s.current = p
            s.turn_total = total = state.turn_total + face
            s.rolls_this_turn = state.rolls_this_turn + 1
            s.must_roll = False
            s.turns = state.turns
            score = scores[p]
            # the keys and their order as ever: the table log stores this dict
            data = {"player": p, "faces": [*faces], "gain": face, "bust": False, "wipe": False,
                    "turn_total": total, "lost": 0, "score": score}  # fmt: skip
            event = _tuple_new(Event, ("roll", data, None))
            if score + total >= o.target and o.auto_hold_at_target:  # P-4 / D-P1: banking now wins
                return s, [event, *self._hold(s, auto=True)]
            return s, [event]
        if action == HOLD:
            if state.rolls_this_turn == 0:  # P-1 / D-P3
                raise IllegalMove("hold_before_roll")
            if state.must_roll:
                raise IllegalMove("must_roll_after_doubles")
            o = state.options
            if o.equal_turns:
                s = _copy(state)
                return s, self._hold(s)
            # Inline as the rolls above: bank, then win or pass the turn.
            p = state.current
            banked = state.turn_total
            scores = [*state.scores]
            scores[p] = score = scores[p] + banked
            hold = _tuple_new(Event, ("hold", {"player": p, "banked": banked, "score": score, "auto": False}, None))
            s = _new(PigState)
            s.options = o
            s.scores = scores
            s.active = active = state.active
            s.starter = state.starter
            s.turn_total = s.rolls_this_turn = 0
            s.must_roll = False
            s.last_roll = state.last_roll
            if score >= o.target:
                s.current = s.winner = p
                s.turns = state.turns
                return s, [hold, Event("win", {"player": p, "score": score})]
            s.winner = None
            s.turns = turns = [*state.turns]
            turns[p] += 1
            s.current = nxt = _next_active(active, p)
            return s, [hold, _TURN[nxt]]
        raise IllegalMove("illegal_action", action=str(action))

    def _roll(self, state: PigState, faces: list[int]) -> tuple[PigState, list[Event]]:
        """A roll of two dice, or a bust: the general case."""
        o = state.options
        s = _copy(state)
        s.last_roll = faces
        s.rolls_this_turn += 1
        p = s.current
        wipe = False
        if o.dice == 1:
            gain = faces[0]
            bust = gain == 1  # P-2
            if bust:
                gain = 0
            s.must_roll = False
        else:
            a, b = faces  # P-3
            bust = False
            gain = 0
            if a == b == 1:
                if o.double_ones == "plus25":
                    gain = 25
                elif o.double_ones == "lose_score":
                    wipe = True
                else:
                    bust = True
            elif a == 1 or b == 1:
                bust = True
            elif a == b:
                gain = (a + b) * o.doubles_multiplier
            else:
                gain = a + b
            s.must_roll = o.must_roll_after_doubles and a == b and not (bust or wipe)
        if bust or wipe:
            lost = s.turn_total
            s.turn_total = 0
            if wipe:
                s.scores = [*s.scores]
                s.scores[p] = 0
            # the keys and their order as ever: the table log stores this dict
            data = {"player": p, "faces": [*faces], "gain": gain, "bust": True, "wipe": wipe,
                    "turn_total": 0, "lost": lost, "score": s.scores[p]}  # fmt: skip
            return s, [_tuple_new(Event, ("roll", data, None)), self._next_turn(s)]
        s.turn_total = total = s.turn_total + gain
        score = s.scores[p]
        data = {"player": p, "faces": [*faces], "gain": gain, "bust": False, "wipe": False,
                "turn_total": total, "lost": 0, "score": score}  # fmt: skip
        event = _tuple_new(Event, ("roll", data, None))
        if o.auto_hold_at_target and score + total >= o.target and self._auto_hold_wins(s):  # P-4 / P-4a / D-P1
            s.must_roll = False
            return s, [event, *self._hold(s, auto=True)]
        return s, [event]

    def _auto_hold_wins(self, s: PigState) -> bool:
        """True when banking now wins: the target is reached and, under ``equal_turns`` (P-4a),
        this turn completes the round and the new score is strictly higher than everyone else's."""
        p = s.current
        total = s.scores[p] + s.turn_total
        if total < s.options.target:
            return False
        if not s.options.equal_turns:
            return True
        others = [i for i in range(len(s.scores)) if s.active[i] and i != p]
        last_in_round = all(s.turns[i] == s.turns[p] + 1 for i in others)
        return last_in_round and all(total > s.scores[i] for i in others)

    def _hold(self, s: PigState, auto: bool = False) -> list[Event]:
        """Bank the turn total on ``s`` (a fresh state of the caller's)."""
        p = s.current
        banked = s.turn_total
        s.scores = scores = [*s.scores]
        scores[p] = score = scores[p] + banked
        event = _tuple_new(Event, ("hold", {"player": p, "banked": banked, "score": score, "auto": auto}, None))
        s.turn_total = 0
        if score >= s.options.target and not s.options.equal_turns:
            return [event, self._win(s, p)]
        return [event, self._next_turn(s)]

    @staticmethod
    def _win(s: PigState, p: int) -> Event:
        s.winner = p
        s.turn_total = 0
        s.rolls_this_turn = 0
        return Event("win", {"player": p, "score": s.scores[p]})

    def _next_turn(self, s: PigState) -> Event:
        """End the turn on ``s`` (a fresh state of the caller's): the turn event, or the win under equal_turns."""
        p = s.current
        s.turns = turns = [*s.turns]
        turns[p] += 1
        s.turn_total = 0
        s.rolls_this_turn = 0
        s.must_roll = False
        active = s.active
        nxt = _next_active(active, p)
        if s.options.equal_turns and self._round_complete(s):
            # equal_turns: only at the end of a full round may someone win; ties keep playing.
            live = [i for i in range(len(active)) if active[i]]
            best = max(s.scores[i] for i in live)
            leaders = [i for i in live if s.scores[i] == best]
            if best >= s.options.target and len(leaders) == 1:
                return self._win(s, leaders[0])
        s.current = nxt
        return _TURN[nxt]

    @staticmethod
    def _round_complete(s: PigState) -> bool:
        live = [s.turns[i] for i in range(len(s.scores)) if s.active[i]]
        return len(set(live)) == 1

    def public_actions(self, state: PigState) -> dict[int, list[Action]]:
        """Pig hides nothing: the seat to act's roll / hold are public."""
        return {seat: self.legal_actions(state, seat) for seat in self.to_act(state)}

    def view(self, state: PigState, player: int | None) -> PigView:
        legal = [a.encode() for a in self.legal_actions(state, player)] if player is not None else []
        return PigView(**self._fields(state), you=player, legal=legal)  # Pig hides nothing

    def outcome(self, state: PigState) -> Outcome | None:
        if state.winner is None:
            return None

        def key(i: int) -> tuple[bool, int]:  # players still in rank above forfeits, then by score
            return (not state.active[i], -state.scores[i])

        others = sorted((i for i in range(len(state.scores)) if i != state.winner), key=key)
        ranking: list[tuple[int, ...]] = [(state.winner,)]
        for i in others:
            prev = ranking[-1][0]
            if prev != state.winner and key(i) == key(prev):
                ranking[-1] += (i,)
            else:
                ranking.append((i,))
        return Outcome(tuple(ranking), tuple(state.scores))

    def timeout(self, state: PigState, player: int, dice: DiceSource) -> tuple[PigState, list[Event]]:
        """Hold if the turn has a roll (or must roll again: then it ends with 0), else pass with 0."""
        self.check_turn(state, player)
        s = _copy(state)
        if s.rolls_this_turn and not s.must_roll:
            return s, [Event("timeout", {"player": player}), *self._hold(s)]
        return s, [Event("timeout", {"player": player, "lost": s.turn_total}), self._next_turn(s)]

    def forfeit(self, state: PigState, player: int, dice: DiceSource) -> tuple[PigState, list[Event]]:
        s = _copy(state)
        if not s.active[player] or s.winner is not None:
            return s, []
        s.active = [*s.active]
        s.active[player] = False
        events = [Event("forfeit", {"player": player})]
        live = [i for i in range(len(s.scores)) if s.active[i]]
        if len(live) == 1:
            return s, [*events, self._win(s, live[0])]
        if s.current == player:
            s.turn_total = 0
            events.append(self._next_turn(s))
        return s, events

    def scramble(self, state: PigState, player: int, dice: DiceSource) -> PigState:
        return _copy(state)  # nothing is hidden; the copy shares the lists, which no one changes in place

    def to_json(self, state: PigState) -> JSON:
        return dict(self._fields(state))

    @staticmethod
    def _fields(state: PigState) -> PigFields:
        return {
            "options": state.options.to_dict(),
            "scores": list(state.scores),
            "active": list(state.active),
            "current": state.current,
            "starter": state.starter,
            "turn_total": state.turn_total,
            "rolls_this_turn": state.rolls_this_turn,
            "must_roll": state.must_roll,
            "turns": list(state.turns),
            "last_roll": list(state.last_roll),
            "winner": state.winner,
        }

    def from_json(self, data: JSON) -> PigState:
        data = dict(data)
        data["options"] = PigOptions.from_dict(data["options"])
        return PigState(**data)


class CompiledPig(Pig):
    """Pig with the compiled fast path (bot/games/_fast.c) of ``to_act``, ``legal_actions`` and ``apply``: it
    plays the common moves (one die, no ``equal_turns``) in C and hands every other call to ``Pig``'s own."""

    reference: ClassVar[type[Pig]] = Pig  # the pure-Python engine it must equal (tests, benchmarks.engines)


if _compiled.fast is not None:
    _compiled.fast.setup_pig(PigState, ROLL, HOLD, _SEATS, _TURN, Pig.to_act, Pig.legal_actions, Pig.apply)
    CompiledPig.to_act = _compiled.fast.pig_to_act  # type: ignore[method-assign]
    CompiledPig.legal_actions = _compiled.fast.pig_legal_actions  # type: ignore[method-assign]
    CompiledPig.apply = _compiled.fast.pig_apply  # type: ignore[method-assign]

# The registry's engine: the compiled one when built (and not turned off, bot/games/_compiled.py). Both are Pigs:
# tests/games/conftest.py runs the engine tests on each by switching this object's class.
ENGINE: Pig = CompiledPig() if _compiled.wanted() else Pig()
SPEC = GameSpec(ENGINE, order=1, length_unit="turns", starts_unit=lambda e: e.kind == "turn")
