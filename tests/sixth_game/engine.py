"""High Roll's rules: the seats still in roll one die each, in seat order; the highest roll wins. A tie for the top
rolls again among the tied seats (``ties="reroll"``) or shares the win (``ties="share"``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from bot.games.base import JSON, Action, Engine, Event, OptionsBase, Outcome, choice, clone
from bot.games.dice import DiceSource
from bot.games.registry import GameSpec

ROLL = Action("roll")


@dataclass(frozen=True)
class HighRollOptions(OptionsBase):
    ties: str = choice("reroll", ("reroll", "share"))

    def validate(self) -> None:
        self.check_declared()


@dataclass
class HighRollState:
    options: HighRollOptions
    active: list[bool]  # False: left the game
    contenders: list[int]  # the seats rolling this round (all at first, then the tied ones)
    rolls: list[int | None]  # this round's roll per seat (None: not rolled, or not rolling)
    last: list[int] = field(default_factory=list)  # each seat's latest roll (0: none yet)
    round: int = 1
    winners: list[int] = field(default_factory=list)  # set once the game is over


class HighRollFields(TypedDict):
    """A High Roll state as JSON (``HighRoll.to_json``)."""

    options: dict[str, Any]
    active: list[bool]
    contenders: list[int]
    rolls: list[int | None]
    last: list[int]
    round: int
    winners: list[int]


class HighRollView(HighRollFields):
    """What anyone may know: everything (nothing is hidden), plus the viewer and their legal actions."""

    current: int | None
    you: int | None
    legal: list[str]


class HighRoll(Engine[HighRollState, HighRollOptions, HighRollView]):
    name = "highroll"
    Options = HighRollOptions
    min_players = 2
    max_players = 6
    open_information = True

    def new_game(self, players: int, options: HighRollOptions, dice: DiceSource) -> tuple[HighRollState, list[Event]]:
        self.check_player_count(players, options)
        seats = list(range(players))
        state = HighRollState(options, [True] * players, seats, [None] * players, [0] * players)
        return state, [Event("start", {"starter": 0})]

    @staticmethod
    def current(state: HighRollState) -> int | None:
        """The contender to roll next, None once over."""
        if state.winners:
            return None
        return next((seat for seat in state.contenders if state.rolls[seat] is None), None)

    def to_act(self, state: HighRollState) -> tuple[int, ...]:
        seat = self.current(state)
        return () if seat is None else (seat,)

    def legal_actions(self, state: HighRollState, player: int) -> list[Action]:
        return [ROLL] if player == self.current(state) else []

    def public_actions(self, state: HighRollState) -> dict[int, list[Action]]:
        return {seat: [ROLL] for seat in self.to_act(state)}  # nothing is hidden

    def apply(
        self, state: HighRollState, player: int, action: Action, dice: DiceSource
    ) -> tuple[HighRollState, list[Event]]:
        self.check_legal(state, player, action)
        s = clone(state)
        (face,) = dice.roll(1)
        s.rolls[player] = s.last[player] = face
        return s, [Event("roll", {"player": player, "faces": [face]}), *self._settle(s)]

    def timeout_action(self, state: HighRollState, player: int) -> Action | None:
        return ROLL  # the die is rolled for them

    def forfeit(self, state: HighRollState, player: int, dice: DiceSource) -> tuple[HighRollState, list[Event]]:
        s = clone(state)
        if s.winners or not s.active[player]:
            return s, []
        s.active[player] = False
        s.contenders = [seat for seat in s.contenders if seat != player]
        s.rolls[player] = None
        return s, [Event("forfeit", {"player": player}), *self._settle(s)]

    def _settle(self, s: HighRollState) -> list[Event]:
        """End the round once every contender has rolled (or one is left): a winner, a shared win, or a re-roll."""
        if len(s.contenders) == 1:
            s.winners = list(s.contenders)
            return [Event("win", {"winners": s.winners, "face": s.last[s.winners[0]]})]
        if any(s.rolls[seat] is None for seat in s.contenders):
            return []
        top = max(s.rolls[seat] or 0 for seat in s.contenders)
        tied = [seat for seat in s.contenders if s.rolls[seat] == top]
        if len(tied) == 1 or s.options.ties == "share":
            s.winners = tied
            return [Event("win", {"winners": tied, "face": top})]
        s.contenders, s.round = tied, s.round + 1
        s.rolls = [None] * len(s.rolls)
        return [Event("reroll", {"players": tied, "face": top})]

    def view(self, state: HighRollState, player: int | None) -> HighRollView:
        current = self.current(state)
        legal = ["roll"] if player is not None and player == current else []
        return HighRollView(**self._fields(state), current=current, you=player, legal=legal)

    def outcome(self, state: HighRollState) -> Outcome | None:
        if not state.winners:
            return None

        def key(seat: int) -> tuple[bool, int]:  # seats still in above those who left, then by their latest roll
            return (not state.active[seat], -state.last[seat])

        ranking = [tuple(state.winners)]
        for seat in sorted((s for s in range(len(state.active)) if s not in state.winners), key=key):
            if len(ranking) > 1 and key(ranking[-1][0]) == key(seat):
                ranking[-1] += (seat,)
            else:
                ranking.append((seat,))
        return Outcome(tuple(ranking), tuple(state.last))

    def scramble(self, state: HighRollState, player: int, dice: DiceSource) -> HighRollState:
        return clone(state)  # nothing is hidden

    def to_json(self, state: HighRollState) -> JSON:
        return dict(self._fields(state))

    @staticmethod
    def _fields(state: HighRollState) -> HighRollFields:
        return {
            "options": state.options.to_dict(),
            "active": list(state.active),
            "contenders": list(state.contenders),
            "rolls": list(state.rolls),
            "last": list(state.last),
            "round": state.round,
            "winners": list(state.winners),
        }

    def from_json(self, data: JSON) -> HighRollState:
        fields = {**data, "options": HighRollOptions.from_dict(data["options"])}
        fields = {k: v if not isinstance(v, list) else list(v) for k, v in fields.items()}
        return HighRollState(**fields)


ENGINE = HighRoll()
PACKAGE = __name__.rpartition(".")[0]
SPEC = GameSpec(
    ENGINE,
    order=6,
    length_unit="rounds",
    starts_unit=lambda e: e.kind in ("start", "reroll"),
    renderer=f"{PACKAGE}.render",
    player=f"{PACKAGE}.player",
    reference=f"{PACKAGE}.reference",
    cog=f"{PACKAGE}.cog",
    locales=PACKAGE,
)
