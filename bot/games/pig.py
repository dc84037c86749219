"""Pig and Big Pig (rules/pig.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict, cast

from bot.games.base import (
    JSON,
    Action,
    Engine,
    Event,
    IllegalMove,
    OptionsBase,
    Outcome,
    act,
    choice,
    clone,
    whole,
)
from bot.games.dice import DiceSource
from bot.games.registry import GameSpec

ROLL = act("roll")
HOLD = act("hold")


class PigView(TypedDict):
    """``Pig.view``: the whole state (Pig hides nothing) plus the viewer and their legal actions."""

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


@dataclass
class PigState:
    options: PigOptions
    scores: list[int]
    active: list[bool]
    current: int
    starter: int
    turn_total: int = 0
    rolls_this_turn: int = 0
    must_roll: bool = False
    turns: list[int] = field(default_factory=list)
    last_roll: list[int] = field(default_factory=list)
    winner: int | None = None


class Pig(Engine[PigState, PigOptions]):
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

    def to_act(self, state: PigState) -> tuple[int, ...]:
        return () if state.winner is not None else (state.current,)

    def legal_actions(self, state: PigState, player: int) -> list[Action]:
        if state.winner is not None or player != state.current:
            return []
        if state.rolls_this_turn == 0 or state.must_roll:
            return [ROLL]
        return [ROLL, HOLD]

    def apply(self, state: PigState, player: int, action: Action, dice: DiceSource) -> tuple[PigState, list[Event]]:
        self.check_turn(state, player)
        if action == HOLD:
            if state.rolls_this_turn == 0:  # P-1 / D-P3
                raise IllegalMove("hold_before_roll")
            if state.must_roll:
                raise IllegalMove("must_roll_after_doubles")
            s = clone(state)
            return s, self._hold(s)
        if action != ROLL:
            raise IllegalMove("illegal_action", action=str(action))
        s = clone(state)
        return s, self._roll(s, dice)

    def _roll(self, s: PigState, dice: DiceSource) -> list[Event]:
        o = s.options
        faces = dice.roll(o.dice)
        s.last_roll = faces
        s.rolls_this_turn += 1
        p = s.current
        bust = wipe = False
        gain = 0
        if o.dice == 1:
            bust = faces[0] == 1  # P-2
            gain = 0 if bust else faces[0]
        else:
            a, b = faces  # P-3
            if a == b == 1:
                if o.double_ones == "plus25":
                    gain = 25
                elif o.double_ones == "lose_score":
                    wipe = True
                else:
                    bust = True
            elif 1 in faces:
                bust = True
            elif a == b:
                gain = (a + b) * o.doubles_multiplier
            else:
                gain = a + b
        s.must_roll = o.dice == 2 and o.must_roll_after_doubles and faces[0] == faces[1] and not (bust or wipe)
        data = {"player": p, "faces": faces, "gain": gain, "bust": bust or wipe, "wipe": wipe}
        if bust or wipe:
            lost = s.turn_total
            s.turn_total = 0
            if wipe:
                s.scores[p] = 0
            events = [Event("roll", {**data, "turn_total": 0, "lost": lost, "score": s.scores[p]})]
            return events + self._next_turn(s)
        s.turn_total += gain
        events = [Event("roll", {**data, "turn_total": s.turn_total, "lost": 0, "score": s.scores[p]})]
        if o.auto_hold_at_target and self._auto_hold_wins(s):  # P-4 / P-4a / D-P1
            s.must_roll = False
            events += self._hold(s, auto=True)
        return events

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
        p = s.current
        s.scores[p] += s.turn_total
        events = [Event("hold", {"player": p, "banked": s.turn_total, "score": s.scores[p], "auto": auto})]
        s.turn_total = 0
        if not s.options.equal_turns and s.scores[p] >= s.options.target:
            return events + self._win(s, p)
        return events + self._next_turn(s)

    def _win(self, s: PigState, p: int) -> list[Event]:
        s.winner = p
        s.turn_total = 0
        s.rolls_this_turn = 0
        return [Event("win", {"player": p, "score": s.scores[p]})]

    def _next_turn(self, s: PigState) -> list[Event]:
        s.turns[s.current] += 1
        s.turn_total = 0
        s.rolls_this_turn = 0
        s.must_roll = False
        n = len(s.scores)
        nxt = (s.current + 1) % n
        while not s.active[nxt]:
            nxt = (nxt + 1) % n
        if s.options.equal_turns and self._round_complete(s):
            # equal_turns: only at the end of a full round may someone win; ties keep playing.
            live = [i for i in range(n) if s.active[i]]
            best = max(s.scores[i] for i in live)
            leaders = [i for i in live if s.scores[i] == best]
            if best >= s.options.target and len(leaders) == 1:
                return self._win(s, leaders[0])
        s.current = nxt
        return [Event("turn", {"player": nxt})]

    @staticmethod
    def _round_complete(s: PigState) -> bool:
        live = [s.turns[i] for i in range(len(s.scores)) if s.active[i]]
        return len(set(live)) == 1

    def public_actions(self, state: PigState) -> dict[int, list[Action]]:
        """Pig hides nothing: the seat to act's roll / hold are public."""
        return {seat: self.legal_actions(state, seat) for seat in self.to_act(state)}

    # A TypedDict is no dict[str, Any] (Engine.view's JSON) to mypy, though the dict is the same.
    def view(self, state: PigState, player: int | None) -> PigView:  # type: ignore[override]
        view = self.to_json(state)  # Pig hides nothing.
        view["you"] = player
        view["legal"] = [a.encode() for a in self.legal_actions(state, player)] if player is not None else []
        return cast(PigView, view)

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
        s = clone(state)
        if s.rolls_this_turn and not s.must_roll:
            return s, [Event("timeout", {"player": player})] + self._hold(s)
        return s, [Event("timeout", {"player": player, "lost": s.turn_total})] + self._next_turn(s)

    def forfeit(self, state: PigState, player: int, dice: DiceSource) -> tuple[PigState, list[Event]]:
        s = clone(state)
        if not s.active[player] or s.winner is not None:
            return s, []
        s.active[player] = False
        events = [Event("forfeit", {"player": player})]
        live = [i for i in range(len(s.scores)) if s.active[i]]
        if len(live) == 1:
            return s, events + self._win(s, live[0])
        if s.current == player:
            s.turn_total = 0
            events += self._next_turn(s)
        return s, events

    def scramble(self, state: PigState, player: int, dice: DiceSource) -> PigState:
        return clone(state)

    def to_json(self, state: PigState) -> JSON:
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


ENGINE = Pig()
SPEC = GameSpec(ENGINE, order=1, length_unit="turns", starts_unit=lambda e: e.kind == "turn")
