"""Mia (rules/mia.md): two hidden dice, rising announcements, bluff and call.

One round: the starter's dice are rolled (and shown to them), they announce any value, and the cup goes left.
Each receiver challenges, believes (re-rolls, may peek, must announce higher) or, as a variant, passes blind.
A Mia announcement ends the bidding (M-5). Someone loses life(s), the next round starts at once (M-7), and
the game runs until one player is alive (M-8). The state only rests in the ``await_*`` phases or ``game_over``;
the rules' ROUND_OVER is passed through inside ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, TypedDict

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

MIA = 21
_tuple_new = tuple.__new__  # builds an Event in C: Event(...) runs the NamedTuple's Python __new__, twice the cost
# M-1: every value a roll (or a claim) can have, in plain numeric order; (2, 1) gives 21 = Mia.
VALUES: tuple[int, ...] = tuple(sorted(10 * hi + lo for hi in range(1, 7) for lo in range(1, hi + 1)))

AWAIT_CLAIM = "await_claim"
AWAIT_RESPONSE = "await_response"
AWAIT_MIA_RESPONSE = "await_mia_response"
GAME_OVER = "game_over"

ROLL = act("roll")
PEEK = act("peek")
CHALLENGE = act("challenge")
GIVE_UP = act("give_up")
CHALLENGE_MIA = act("challenge_mia")

# Which phase each action belongs to (for the "wrong_phase" message).
PHASE_OF = {
    "claim": AWAIT_CLAIM,
    "peek": AWAIT_CLAIM,
    "roll": AWAIT_RESPONSE,
    "challenge": AWAIT_RESPONSE,
    "blind_pass": AWAIT_RESPONSE,
    "give_up": AWAIT_MIA_RESPONSE,
    "challenge_mia": AWAIT_MIA_RESPONSE,
}


def value_of(dice: list[int] | tuple[int, ...]) -> int:
    """M-1: the higher die gives the tens; (1, 2) is written 21 (Mia)."""
    a, b = dice
    return 10 * a + b if a >= b else 10 * b + a


def rank(value: int, doubles_order: str = "ones_high") -> int:
    """M-2 compact key: Mia 200, doubles 101..106, non-doubles their own value (31..65)."""
    if value == MIA:
        return 200
    hi, lo = divmod(value, 10)
    if hi == lo:
        return 100 + (7 - hi if doubles_order == "ones_high" else hi)
    return value


def ranked_values(doubles_order: str = "ones_high") -> list[int]:
    """All 21 values, lowest rank first."""
    return sorted(VALUES, key=lambda v: rank(v, doubles_order))


def values_above(claim: int | None, doubles_order: str = "ones_high", *, equal: bool = False) -> list[int]:
    """The values that may follow ``claim`` (strictly higher, or also equal for a blind pass), lowest first."""
    if claim is None:
        return ranked_values(doubles_order)
    floor = rank(claim, doubles_order)
    return [v for v in ranked_values(doubles_order) if rank(v, doubles_order) > floor or (equal and v == claim)]


def _normalised(value: int) -> int | None:
    """The canonical spelling of a two-digit value written low die first (35 -> 53, 12 -> 21), if any."""
    a, b = divmod(value, 10)
    if 1 <= a <= 6 and 1 <= b <= 6 and value_of((a, b)) != value:
        return value_of((a, b))
    return None


@dataclass(frozen=True)
class MiaOptions(OptionsBase):
    doubles_order: str = choice("ones_high", ("ones_high", "sixes_high"))
    lives: int = whole(6, 1, 10)
    mia_check_penalty: int = whole(2, 1, 3)
    mia_mode: str = choice("challengeable", ("challengeable", "auto_reveal"))
    blind_pass: str = choice("off", ("off", "first_receiver", "any"))
    next_round_starter: str = choice("left_of_loser", ("left_of_loser", "loser", "challenger"))
    stop_at_first_elimination: bool = False

    def validate(self) -> None:
        self.check_declared()
        stop = self.stop_at_first_elimination
        if not isinstance(stop, bool):
            raise InvalidOptions("stop_at_first_elimination", "not_true_false", value=stop)


_FIELDS = (
    "options",
    "lives",
    "alive",
    "round_starter",
    "holder",
    "phase",
    "cup_dice",
    "roller",
    "looked",
    "claim",
    "claimant",
    "claims",
    "blind_streak",
    "round",
    "out",
    "loser",
    "winner",
    "log",
)  # also the order of the keys in ``to_json`` (stored states; ``log`` only once it has an entry)

#: ``log`` entry kinds (public: what every seat saw announced or revealed this game).
LOG_CLAIM, LOG_UNSEEN, LOG_BLIND = "claim", "unseen", "blind"  # value: the announcement (unseen: dice not looked at)
LOG_REVEAL, LOG_GIVE_UP, LOG_TIMEOUT = "reveal", "give_up", "timeout"  # reveal value: the dice shown
LogEntry = tuple[int, int, str, "int | None"]  # (round, seat, kind, value)


class MiaState(SlotsState):
    """One table's game. A ``__slots__`` class, copied shallowly per move: the lists (``lives``, ``alive``,
    ``out``, ``cup_dice``) are never changed in place once a state is handed out, only replaced, so a new state
    may share them with the old one."""

    __slots__ = _FIELDS

    def __init__(
        self,
        options: MiaOptions,
        lives: list[int],
        alive: list[bool],
        round_starter: int,
        holder: int,  # the seat that must act now
        phase: str = AWAIT_CLAIM,
        cup_dice: list[int] | None = None,  # hidden until a reveal
        roller: int | None = None,  # who rolled the dice under the cup (a blind pass keeps the roller)
        looked: bool = False,  # whether the roller has seen them (the starter always has)
        claim: int | None = None,
        claimant: int | None = None,
        claims: int = 0,  # announcements this round; 1 means the holder is the first receiver
        blind_streak: int = 0,  # consecutive equal-value blind passes (loop guard)
        round: int = 0,  # noqa: A002 - the stored key
        out: list[list[int]] | None = None,  # eliminated seats, in groups, in order
        loser: int | None = None,  # the first eliminated seat (the seed's "loser")
        winner: int | None = None,
        log: tuple[LogEntry, ...] = (),  # this game's announcements and reveals (public; a tuple, shared freely)
    ) -> None:
        self.options = options
        self.lives = lives
        self.alive = alive
        self.round_starter = round_starter
        self.holder = holder
        self.phase = phase
        self.cup_dice = cup_dice
        self.roller = roller
        self.looked = looked
        self.claim = claim
        self.claimant = claimant
        self.claims = claims
        self.blind_streak = blind_streak
        self.round = round
        self.out = [] if out is None else out
        self.loser = loser
        self.winner = winner
        self.log = log

    def copy(self) -> MiaState:
        """A shallow copy: what a move starts from (it replaces, never edits, the lists it changes).
        One plain assignment per slot: tuple assignments or the constructor cost half as much again."""
        new = object.__new__(MiaState)
        new.options = self.options
        new.lives = self.lives
        new.alive = self.alive
        new.round_starter = self.round_starter
        new.holder = self.holder
        new.phase = self.phase
        new.cup_dice = self.cup_dice
        new.roller = self.roller
        new.looked = self.looked
        new.claim = self.claim
        new.claimant = self.claimant
        new.claims = self.claims
        new.blind_streak = self.blind_streak
        new.round = self.round
        new.out = self.out
        new.loser = self.loser
        new.winner = self.winner
        new.log = self.log
        return new


class _Moves(NamedTuple):
    """Every legal-action list Mia can have under one ``doubles_order``, built once (module import)."""

    ranks: dict[int, int]  # value -> rank (M-2)
    claims: dict[int | None, tuple[Action, ...]]  # claim -> the claims above it (the roller has looked)
    peek_claims: dict[int | None, tuple[Action, ...]]  # the same after a blind re-roll: peek first
    respond_blind: dict[int | None, tuple[Action, ...]]  # claim -> challenge, roll, blind passes (equal too)
    respond_guarded: dict[int | None, tuple[Action, ...]]  # the same under the loop guard (no equal pass)


def _moves(order: str) -> _Moves:
    ranks = {v: rank(v, order) for v in VALUES}
    keys: list[int | None] = [None, *VALUES]
    above = {c: values_above(c, order) for c in keys}
    blind = {c: values_above(c, order, equal=True) for c in keys}
    claims = {c: tuple(act("claim", v) for v in above[c]) for c in keys}
    return _Moves(
        ranks,
        claims,
        {c: (PEEK, *claims[c]) for c in keys},
        {c: (CHALLENGE, ROLL, *(act("blind_pass", v) for v in blind[c])) for c in keys},
        {c: (CHALLENGE, ROLL, *(act("blind_pass", v) for v in blind[c] if v != c)) for c in keys},
    )


MOVES = {order: _moves(order) for order in ("ones_high", "sixes_high")}
RESPONSES = (CHALLENGE, ROLL)
MIA_RESPONSES = (GIVE_UP, CHALLENGE_MIA)


class MiaView(TypedDict):
    """``Mia.view``: the table as one seat (or the channel, ``you`` None) may see it."""

    game: str
    you: int | None
    options: dict[str, Any]
    phase: str
    round: int
    round_starter: int
    holder: int | None  # None once over
    claim: int | None
    claimant: int | None
    claims: int  # announcements this round (1: the holder is the first receiver)
    roller: int | None
    looked: bool  # public: everyone sees whether the roller lifted the cup
    blind_streak: int
    lives: list[int]
    alive: list[bool]
    loser: int | None
    winner: int | None
    dice: list[int] | None  # the cup's dice, only for the roller who has looked
    log: tuple[LogEntry, ...]  # this game's public announcements and reveals: (round, seat, kind, value)
    legal: list[str]  # the viewer's own legal actions, encoded; empty for the channel
    public: list[str]  # public_actions of the holder, encoded (the table message's controls)


Losses = list[tuple[int, int, str]]  # (seat, penalty, reason)


class Mia(Engine[MiaState, MiaOptions, MiaView]):
    name = "mia"
    Options = MiaOptions
    min_players = 2  # M-9 / D-M8
    max_players = 10

    # ----- setup and queries -------------------------------------------------------------------

    def new_game(self, players: int, options: MiaOptions, dice: DiceSource) -> tuple[MiaState, list[Event]]:
        self.check_player_count(players, options)
        starter = dice.sample(range(players), 1)[0]
        s = MiaState(options, [options.lives] * players, [True] * players, starter, starter)
        events = [Event("start", {"players": players, "starter": starter, "lives": options.lives})]
        return s, events + self._start_round(s, starter, dice)

    def to_act(self, state: MiaState) -> tuple[int, ...]:
        return () if state.phase == GAME_OVER else (state.holder,)

    def legal_actions(self, state: MiaState, player: int) -> list[Action]:
        if state.phase == GAME_OVER or player != state.holder:
            return []
        return list(self._legal(state))

    @staticmethod
    def _legal(s: MiaState) -> tuple[Action, ...]:
        """The holder's legal actions in an unfinished game: one of the prebuilt tuples in ``MOVES``."""
        phase = s.phase
        if phase == AWAIT_CLAIM:
            moves = MOVES[s.options.doubles_order]
            return (moves.claims if s.looked else moves.peek_claims)[s.claim]
        if phase == AWAIT_MIA_RESPONSE:
            return MIA_RESPONSES
        mode = s.options.blind_pass
        if mode == "off" or (mode == "first_receiver" and s.claims != 1):
            return RESPONSES
        moves = MOVES[s.options.doubles_order]
        guarded = s.blind_streak >= sum(s.alive) - 1  # _loop_guarded
        return (moves.respond_guarded if guarded else moves.respond_blind)[s.claim]

    def _blind_values(self, s: MiaState) -> list[int]:
        """Legal blind-pass announcements (D-M3): none if the variant is off or the holder may not use it."""
        mode = s.options.blind_pass
        if mode == "off" or s.phase != AWAIT_RESPONSE or (mode == "first_receiver" and s.claims != 1):
            return []
        values = values_above(s.claim, s.options.doubles_order, equal=True)
        if self._loop_guarded(s) and s.claim is not None:  # AWAIT_RESPONSE: there is a claim
            values.remove(s.claim)
        return values

    def _loop_guarded(self, s: MiaState) -> bool:
        return s.blind_streak >= sum(s.alive) - 1

    # ----- moves -------------------------------------------------------------------------------

    def apply(self, state: MiaState, player: int, action: Action, dice: DiceSource) -> tuple[MiaState, list[Event]]:
        # check_turn, inline (the game is over exactly in GAME_OVER; the holder is the one seat to act)
        if state.phase == GAME_OVER:
            raise IllegalMove("game_over")
        if player != state.holder:
            raise IllegalMove("not_your_turn")
        if action not in self._legal(state) or (action.args and type(action.args[0]) is not int):
            self._check(state, action)  # the most specific refusal (a legal move spelt oddly, e.g. 53.0, too)
        s = state.copy()
        name = action.name
        if name == "claim":
            return s, self._claim(s, player, int(action.args[0]), dice, blind=False)
        if name == "blind_pass":
            return s, self._claim(s, player, int(action.args[0]), dice, blind=True)
        if name == "peek":
            s.looked = True
            return s, [Event("peek", {"player": player}), self._dice_event(s, player)]
        if name == "roll":  # M-4 believe: fresh dice, hidden until a peek (D-M2)
            s.cup_dice = dice.roll(2, 6)
            s.roller = player
            s.looked = False
            s.phase = AWAIT_CLAIM
            s.blind_streak = 0
            return s, [_tuple_new(Event, ("roll", {"player": player}, None))]
        if name == "give_up":  # M-5: concede, the dice stay hidden
            events = [Event("give_up", {"player": player, "claimant": s.claimant})]
            s.log = (*s.log, (s.round, player, LOG_GIVE_UP, None))
            return s, events + self._resolve(s, [(player, 1, "gave_up")], dice, challenger=player)
        # challenge / challenge_mia: reveal (M-6 / M-5)
        assert s.claim is not None and s.claimant is not None and s.cup_dice is not None
        claim, claimant = s.claim, s.claimant
        challenge = _tuple_new(Event, (name, {"player": player, "claimant": claimant, "claim": claim}, None))
        events = [challenge, self._reveal_event(s)]
        actual = value_of(s.cup_dice)
        s.log = (*s.log, (s.round, player, LOG_REVEAL, actual))
        if name == "challenge_mia":
            loss = (player, s.options.mia_check_penalty, "real_mia") if actual == MIA else (claimant, 1, "mia_bluff")
        elif self._rank(s, actual) < self._rank(s, claim):
            loss = (claimant, 1, "caught_bluffing")
        else:
            loss = (player, 1, "wrong_challenge")  # D-M6: ties and understatements are truthful
        return s, events + self._resolve(s, [loss], dice, challenger=player)

    def _check(self, s: MiaState, action: Action) -> None:
        """Raise the most specific IllegalMove for ``action``; the state is never touched."""
        name, args = action.name, action.args
        if name not in PHASE_OF:
            raise IllegalMove("illegal_action", action=str(action))
        if name in ("claim", "blind_pass"):
            if len(args) != 1 or not isinstance(args[0], int):
                raise IllegalMove("illegal_action", action=str(action))
            value = args[0]
            if value not in VALUES:
                raise IllegalMove("bad_value", value=value, did_you_mean=_normalised(value))
        elif args:
            raise IllegalMove("illegal_action", action=str(action))
        if name == "blind_pass":
            if s.options.blind_pass == "off":
                raise IllegalMove("blind_pass_not_allowed", reason="off")
            if s.phase == AWAIT_MIA_RESPONSE:
                raise IllegalMove("blind_pass_not_allowed", reason="mia")
        if s.phase != PHASE_OF[name]:
            expected = sorted({a.name for a in self.legal_actions(s, s.holder)})
            raise IllegalMove(
                "wrong_phase",
                phase=s.phase,
                action=name,
                expected=expected,
            )
        if name == "peek" and s.looked:
            raise IllegalMove("already_looked")
        if name == "claim":
            self._check_raise(s, args[0], values_above(s.claim, s.options.doubles_order))
        if name == "blind_pass":
            if s.options.blind_pass == "first_receiver" and s.claims != 1:
                raise IllegalMove(
                    "blind_pass_not_allowed",
                    reason="first_receiver",
                )
            if args[0] == s.claim and self._loop_guarded(s):
                raise IllegalMove(
                    "loop_guard",
                    claim=s.claim,
                    streak=s.blind_streak,
                )
            self._check_raise(s, args[0], self._blind_values(s))
        if action not in self.legal_actions(s, s.holder):  # belt and braces: legal_actions is the authority
            raise IllegalMove("illegal_action", action=str(action))

    @staticmethod
    def _check_raise(s: MiaState, value: int | str, allowed: list[int]) -> None:
        if value not in allowed:
            lowest = allowed[0] if allowed else None
            raise IllegalMove(
                "claim_not_higher",
                claim=s.claim,
                min=lowest,
                value=value,
            )

    def _claim(self, s: MiaState, player: int, value: int, dice: DiceSource, *, blind: bool) -> list[Event]:
        """An announcement (M-3/M-4) or a blind pass (D-M3); either way ``player`` becomes responsible."""
        if blind:
            s.blind_streak = s.blind_streak + 1 if value == s.claim else 0
        else:
            s.blind_streak = 0
        kind = LOG_BLIND if blind else (LOG_CLAIM if s.looked else LOG_UNSEEN)
        s.log = (*s.log, (s.round, player, kind, value))
        s.claim = value
        s.claimant = player
        s.claims += 1
        events = [_tuple_new(Event, ("blind_pass" if blind else "claim", {"player": player, "value": value}, None))]
        if value == MIA and s.options.mia_mode == "auto_reveal":
            # Mäxchen server: revealed at once; real -> everyone else loses 1, else the announcer loses 1.
            assert s.cup_dice is not None
            s.log = (*s.log, (s.round, player, LOG_REVEAL, value_of(s.cup_dice)))
            events.append(self._reveal_event(s))
            if value_of(s.cup_dice) == MIA:
                losses = [(p, 1, "auto_mia") for p in self._seats_after(s, player) if p != player]
            else:
                losses = [(player, 1, "mia_bluff")]
            return events + self._resolve(s, losses, dice, challenger=None)
        s.holder = self._next_alive(s, player)
        s.phase = AWAIT_MIA_RESPONSE if value == MIA else AWAIT_RESPONSE
        return events

    # ----- round end ---------------------------------------------------------------------------

    def _resolve(self, s: MiaState, losses: Losses, dice: DiceSource, challenger: int | None) -> list[Event]:
        """Apply life losses (M-8: floored at 0), eliminations, then the game end or the next round (M-7)."""
        events: list[Event] = []
        lives = s.lives = list(s.lives)  # replaced, not edited: the previous state shares the old list
        for p, penalty, reason in losses:
            lost = min(penalty, lives[p])
            lives[p] -= lost
            data = {"player": p, "lost": lost, "penalty": penalty, "lives": lives[p], "reason": reason}
            events.append(_tuple_new(Event, ("life_lost", data, None)))
        fallen = [p for p, _, _ in losses if s.alive[p] and lives[p] == 0]
        events += self._eliminate(s, fallen)
        if self._finished(s, fallen):
            return events + self._game_over(s)
        announcer = s.claimant if s.claimant is not None else s.holder
        starter = self._next_starter(s, [p for p, _, _ in losses], challenger, announcer)
        events += self._start_round(s, starter, dice)
        return events

    def _eliminate(self, s: MiaState, fallen: list[int], reason: str = "lives") -> list[Event]:
        if not fallen:
            return []
        events = []
        s.alive = list(s.alive)  # replaced, not edited (see MiaState)
        for p in fallen:
            s.alive[p] = False
            first = s.loser is None
            if first:
                s.loser = p  # simultaneous eliminations: the first seat left of the announcer
            events.append(Event("eliminated", {"player": p, "first": first, "reason": reason}))
        s.out = [*s.out, sorted(fallen)]
        return events

    def _finished(self, s: MiaState, fallen: list[int]) -> bool:
        return sum(s.alive) <= 1 or (bool(fallen) and s.options.stop_at_first_elimination)

    def _next_starter(self, s: MiaState, losers: list[int], challenger: int | None, announcer: int) -> int:
        """M-7: left of the (single) loser, or the loser / challenger by option; several losers: left of announcer."""
        if len(losers) != 1:
            return self._next_alive(s, announcer)
        mode = s.options.next_round_starter
        if mode == "loser":
            return self._alive_from(s, losers[0])
        if mode == "challenger" and challenger is not None:
            return self._alive_from(s, challenger)
        return self._next_alive(s, losers[0])  # also "challenger" after a timeout or auto-reveal

    def _start_round(self, s: MiaState, starter: int, dice: DiceSource) -> list[Event]:
        """M-3: the bot rolls for the starter and shows them privately."""
        s.round += 1
        s.round_starter = s.holder = s.roller = starter
        s.phase, s.looked = AWAIT_CLAIM, True
        s.claim = s.claimant = None
        s.claims = s.blind_streak = 0
        s.cup_dice = dice.roll(2, 6)
        data = {"round": s.round, "starter": starter, "lives": list(s.lives)}
        return [_tuple_new(Event, ("round_start", data, None)), self._dice_event(s, starter)]

    def _game_over(self, s: MiaState) -> list[Event]:
        s.phase = GAME_OVER
        s.cup_dice = s.claim = s.claimant = s.roller = None
        s.looked = False
        s.claims = s.blind_streak = 0
        ranking = self._ranking(s)
        s.winner = ranking[0][0]
        return [
            Event(
                "game_over",
                {"winner": s.winner, "loser": s.loser, "ranking": [list(t) for t in ranking], "lives": list(s.lives)},
            )
        ]

    def _ranking(self, s: MiaState) -> tuple[tuple[int, ...], ...]:
        """Survivors by lives (ties: seat order after the loser, M-8), then the eliminated, last out first."""
        n = len(s.lives)
        ref = s.loser if s.loser is not None else 0
        survivors = sorted((p for p in range(n) if s.alive[p]), key=lambda p: (-s.lives[p], (p - ref) % n))
        return tuple((p,) for p in survivors) + tuple(tuple(group) for group in reversed(s.out))

    # ----- seats and dice helpers ----------------------------------------------------------------

    @staticmethod
    def _seats_after(s: MiaState, p: int) -> list[int]:
        """Alive seats clockwise starting left of ``p`` (``p`` last, if alive)."""
        n = len(s.alive)
        return [q for q in ((p + i) % n for i in range(1, n + 1)) if s.alive[q]]

    @staticmethod
    def _next_alive(s: MiaState, p: int) -> int:
        """The first of ``_seats_after(s, p)``, or ``p`` if nobody is alive."""
        alive = s.alive
        n = len(alive)
        for i in range(1, n + 1):
            q = (p + i) % n
            if alive[q]:
                return q
        return p

    def _alive_from(self, s: MiaState, p: int) -> int:
        return p if s.alive[p] else self._next_alive(s, p)

    @staticmethod
    def _rank(s: MiaState, value: int) -> int:
        return MOVES[s.options.doubles_order].ranks[value]

    @staticmethod
    def _dice_event(s: MiaState, player: int) -> Event:
        cup = s.cup_dice
        assert cup is not None
        return _tuple_new(Event, ("dice", {"player": player, "dice": list(cup), "value": value_of(cup)}, player))

    @staticmethod
    def _reveal_event(s: MiaState) -> Event:
        cup, claim = s.cup_dice, s.claim
        assert cup is not None and claim is not None
        actual = value_of(cup)
        ranks = MOVES[s.options.doubles_order].ranks
        truthful = ranks[actual] >= ranks[claim]
        data = {"dice": list(cup), "value": actual, "claim": claim, "claimant": s.claimant, "truthful": truthful}
        return _tuple_new(Event, ("reveal", data, None))

    @staticmethod
    def _sees_dice(s: MiaState, player: int | None) -> bool:
        return player is not None and player == s.roller and s.looked and s.cup_dice is not None

    # ----- the rest of the contract ----------------------------------------------------------------

    def public_actions(self, state: MiaState) -> dict[int, list[Action]]:
        """All of the holder's legal actions are public: the claims and blind passes follow from the announced
        claim, the public announcement count and blind streak (the loop guard); peek from whether the cup was
        lifted, which everyone sees. Only the dice are hidden, and no legal action depends on them."""
        return {seat: self.legal_actions(state, seat) for seat in self.to_act(state)}

    def view(self, state: MiaState, player: int | None) -> MiaView:
        s = state
        return {
            "game": self.name,
            "you": player,
            "options": s.options.to_dict(),
            "phase": s.phase,
            "round": s.round,
            "round_starter": s.round_starter,
            "holder": None if s.phase == GAME_OVER else s.holder,
            "claim": s.claim,
            "claimant": s.claimant,
            "claims": s.claims,  # public: announcements this round (1: the holder is the first receiver)
            "roller": s.roller,
            "looked": s.looked,
            "blind_streak": s.blind_streak,
            "lives": list(s.lives),
            "alive": list(s.alive),
            "loser": s.loser,
            "winner": s.winner,
            "dice": list(s.cup_dice) if s.cup_dice is not None and self._sees_dice(s, player) else None,
            "log": s.log,
            "legal": [a.encode() for a in self.legal_actions(s, player)] if player is not None else [],
            "public": [a.encode() for actions in self.public_actions(s).values() for a in actions],
        }

    def outcome(self, state: MiaState) -> Outcome | None:
        if state.phase != GAME_OVER:
            return None
        return Outcome(self._ranking(state), tuple(state.lives))

    def timeout(self, state: MiaState, player: int, dice: DiceSource) -> tuple[MiaState, list[Event]]:
        """D-M9: whoever is to act concedes 1 life without a reveal; the next round starts per M-7."""
        self.check_turn(state, player)
        s = state.copy()
        events = [Event("timeout", {"player": player, "phase": s.phase})]
        s.log = (*s.log, (s.round, player, LOG_TIMEOUT, None))
        return s, events + self._resolve(s, [(player, 1, "timeout")], dice, challenger=None)

    def forfeit(self, state: MiaState, player: int, dice: DiceSource) -> tuple[MiaState, list[Event]]:
        """Leaving eliminates at once. A round the leaver is part of (to act, or responsible) is void."""
        s = state.copy()
        if s.phase == GAME_OVER or not s.alive[player]:
            return s, []
        s.lives = list(s.lives)  # replaced, not edited (see MiaState)
        lost, s.lives[player] = s.lives[player], 0
        events = [Event("forfeit", {"player": player, "lost": lost})]
        events += self._eliminate(s, [player], reason="forfeit")
        if self._finished(s, [player]):
            return s, events + self._game_over(s)
        if player in (s.holder, s.claimant):
            events.append(Event("round_void", {"round": s.round, "player": player}))
            return s, events + self._start_round(s, self._next_alive(s, player), dice)
        return s, events

    def scramble(self, state: MiaState, player: int, dice: DiceSource) -> MiaState:
        s = state.copy()
        if s.cup_dice is not None and not self._sees_dice(s, player):
            s.cup_dice = dice.roll(2, 6)
        return s

    def to_json(self, state: MiaState) -> JSON:
        # The keys in _FIELDS order, as the dataclass this state was wrote them: stored states stay byte-identical.
        s = state
        data: JSON = {
            "options": s.options.to_dict(),
            "lives": list(s.lives),
            "alive": list(s.alive),
            "round_starter": s.round_starter,
            "holder": s.holder,
            "phase": s.phase,
            "cup_dice": None if s.cup_dice is None else list(s.cup_dice),
            "roller": s.roller,
            "looked": s.looked,
            "claim": s.claim,
            "claimant": s.claimant,
            "claims": s.claims,
            "blind_streak": s.blind_streak,
            "round": s.round,
            "out": [list(group) for group in s.out],
            "loser": s.loser,
            "winner": s.winner,
        }
        if s.log:  # absent until the first announcement, so states saved before the log write back the same
            data["log"] = [list(entry) for entry in s.log]
        return data

    def from_json(self, data: JSON) -> MiaState:
        data = dict(data)
        data["options"] = MiaOptions.from_dict(data["options"])
        data["log"] = tuple((int(r), int(p), str(k), v if v is None else int(v)) for r, p, k, v in data.get("log", ()))
        return MiaState(**data)


ENGINE = Mia()
SPEC = GameSpec(ENGINE, order=2, length_unit="rounds", starts_unit=lambda e: e.kind == "round_start")
