"""Mythical Dice / Mino Dice, the Skull King dice game (rules/mythical-dice.md).

Die ids: every die in the bag has a stable id, its index in the bag (table A.1 order:
minotaur, griffins, mermaids, red, yellow, purple, gray). Actions: ``bid:<n>`` and
``play:<die id>``.

Decisions not fixed by the rules text (also in the rules help):

* ``first_start_player=host`` means seat 0 starts.
* Timeout: bid 0 while bidding, else play the first legal die (lowest id).
* Forfeit: the player leaves at once and for good. Their hidden dice go back to the
  bag unseen; a pending (unrevealed) bid is discarded unseen; a die they already rolled
  in the unfinished trick is withdrawn from it (the suit is recomputed from the rolls
  that remain), so that trick is won by a remaining player. Tricks they won earlier in the
  hand stay theirs, so each hand still awards exactly ``h`` tricks (minus tricks discarded
  under ``all_flags=nobody``); the leaver is not scored for the hand and keeps the total
  they had. Play goes on while two or more players remain (the number of hands stays the
  one fixed at the start); with one left the game ends at once (the unfinished hand is not
  scored) and that player wins. Leavers rank below everyone who stayed, later leavers
  above earlier ones.
* A two-player game (``allow_two_players``) plays 8 hands unless ``hands_by_players`` says
  otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any, TypedDict, cast

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
)
from bot.games.dice import DiceSource
from bot.games.parsing import parse_int, quote
from bot.games.registry import GameSpec

# --- the dice (table A.1) ---------------------------------------------------------------

SPECIALS = ("minotaur", "griffin", "mermaid")
COLOURS = ("red", "yellow", "purple", "gray")
DIE_TYPES = SPECIALS + COLOURS
FLAG = "flag"

#: the six faces of each die type, indexed by ``roll - 1``; numbers are strings "1".."7".
FACES: dict[str, tuple[str, ...]] = {
    "minotaur": ("minotaur",) * 4 + (FLAG,) * 2,
    "griffin": ("griffin",) * 4 + (FLAG,) * 2,
    "mermaid": ("mermaid",) * 4 + (FLAG,) * 2,
    "red": ("7", "7", "6", "6", "5", "5"),
    "yellow": ("5", "5", "4", "4", "3", "3"),
    "purple": ("3", "3", "2", "2", "1", "1"),
    "gray": (FLAG, FLAG, FLAG, "1", "1", "7"),
}
STANDARD_COUNTS = (1, 3, 2, 7, 7, 8, 8)
DEFAULT_HANDS = {2: 8, 3: 8, 4: 8, 5: 7, 6: 6}  # 2 is unofficial (allow_two_players)
BEATS = {"minotaur": "griffin", "griffin": "mermaid", "mermaid": "minotaur"}  # MD-R1 cycle


def face_value(face: str) -> int | None:
    """0 for a flag, the number for a number face, None for a special face."""
    if face == FLAG:
        return 0
    return int(face) if face.isdigit() else None


def parse_counts(dice_set: str) -> tuple[int, ...]:
    if dice_set == "standard":
        return STANDARD_COUNTS
    return tuple(_count(x) for x in dice_set.split(","))


def _count(text: str) -> int:
    """A count in an option's text: ASCII digits only (``²`` and ``٣`` are not counts), else ValueError."""
    number = parse_int(text)
    if number is None:
        raise ValueError(f"not a count: {quote(text)}")
    return number


@lru_cache(maxsize=32)
def bag_types(dice_set: str = "standard") -> tuple[str, ...]:
    """The die type of every die id in the bag."""
    out: list[str] = []
    for kind, count in zip(DIE_TYPES, parse_counts(dice_set), strict=True):
        out += [kind] * count
    return tuple(out)


def parse_hands(text: str) -> dict[int, int]:
    hands = dict(DEFAULT_HANDS)
    for part in text.replace(" ", "").split(","):
        if part:
            k, v = part.split(":")
            hands[_count(k)] = _count(v)
    return hands


# --- the view -------------------------------------------------------------------------------


class MythicDie(TypedDict):
    """A hidden die in the viewer's own hand: its id and type, never a face."""

    id: int
    type: str


class MythicRoll(TypedDict):
    """A die rolled to a trick (public)."""

    player: int
    die: int
    type: str
    face: str


class MythicView(TypedDict):
    """``MythicalDice.view``: what one seat (``you``) or the channel (``you`` None) may know."""

    game: str
    you: int | None
    players: int
    options: dict[str, Any]
    phase: str  # bidding | playing | over
    hand: int
    hands: int
    start_player: int
    leader: int
    to_act: list[int]
    active: list[bool]
    forfeited: list[int]
    scores: list[int]
    exact_bids: list[int]
    hand_sizes: list[int]
    has_bid: list[bool]
    bids: list[int | None]  # unrevealed bids are None except the viewer's own
    bids_revealed: bool
    tricks: list[int]
    trick_no: int
    discarded: int
    trick: list[MythicRoll]
    suit: str | None
    captured: list[list[MythicRoll]]
    last_trick: dict[str, Any] | None  # {"trick", "rolls": [MythicRoll], "winner": seat or None}
    your_dice: list[MythicDie]  # empty for the channel
    legal: list[str]  # the seat's own legal actions, encoded; empty for the channel
    public: list[str]  # public_actions of the seats to act, encoded, each once (the channel's controls)
    ranking: list[list[int]] | None  # the outcome's places, best first, once over


# --- options ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MythicOptions(OptionsBase):
    """Every option of the rules' table (§8) plus the tie-break of MD-E2. Defaults in bold there.

    ``hands_by_players`` is text ``"3:8,4:8,5:7,6:6"`` (a dict is accepted and normalised);
    missing counts keep their default. ``dice_set`` is ``standard`` (table A.1) or seven
    comma-separated counts in the order minotaur,griffin,mermaid,red,yellow,purple,gray
    (faces always as in A.1).
    """

    allow_two_players: bool = False
    hands_by_players: str = "3:8,4:8,5:7,6:6"
    dice_set: str = "standard"
    first_start_player: str = choice("random", ("random", "host"))
    hand_leader: str = choice("rotate", ("rotate", "last_trick_winner"))
    special_lead_sets_no_suit: bool = False
    three_way: str = choice("mermaid_wins", ("mermaid_wins", "sequential"))
    same_special_tie: str = choice("later", ("later", "earlier"))
    all_flags: str = choice("first_roller", ("first_roller", "nobody"))
    griffin_bonus: str = choice("per_griffin", ("per_griffin", "per_trick"))
    bonus_flag_scope: str = choice("trick", ("trick", "hand", "face_only"))
    bonuses_enabled: bool = True
    tie_break: str = choice("share", ("share", "exact_bids"))

    def __post_init__(self) -> None:
        hands = self.hands_by_players
        if isinstance(hands, dict):
            hands = ",".join(f"{int(k)}:{int(v)}" for k, v in sorted(hands.items(), key=lambda kv: int(kv[0])))
        if isinstance(hands, str):
            hands = hands.replace(" ", "")
        object.__setattr__(self, "hands_by_players", hands)
        dice_set = self.dice_set
        if isinstance(dice_set, list | tuple):
            dice_set = ",".join(map(str, dice_set))
        if isinstance(dice_set, str):
            dice_set = dice_set.replace(" ", "").lower()
            if dice_set and dice_set != "standard" and dice_set == ",".join(map(str, STANDARD_COUNTS)):
                dice_set = "standard"
        object.__setattr__(self, "dice_set", dice_set)
        self.validate()

    def validate(self) -> None:
        for name in ("allow_two_players", "special_lead_sets_no_suit", "bonuses_enabled"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptions(name, "not_true_false", value=getattr(self, name))
        self.check_declared()
        if not isinstance(self.dice_set, str):
            raise InvalidOptions("dice_set", "dice_set_form", value=self.dice_set)
        try:
            counts = parse_counts(self.dice_set)
        except ValueError:
            raise InvalidOptions("dice_set", "dice_set_form", value=self.dice_set) from None
        if len(counts) != 7 or any(not 0 <= c <= 12 for c in counts):
            raise InvalidOptions("dice_set", "dice_set_counts")
        if not isinstance(self.hands_by_players, str):
            raise InvalidOptions("hands_by_players", "hands_form", value=self.hands_by_players)
        try:
            hands = parse_hands(self.hands_by_players)
        except ValueError:
            raise InvalidOptions("hands_by_players", "hands_form", value=self.hands_by_players) from None
        bag = sum(counts)
        for players, count in hands.items():
            if players not in DEFAULT_HANDS:
                raise InvalidOptions("hands_by_players", "hands_players", players=players)
            if not 1 <= count <= 12:
                raise InvalidOptions("hands_by_players", "hands_count", count=count, players=players)
        for players in range(self.min_players, 7):
            if hands[players] * players > bag:
                name = "hands_by_players" if self.hands_by_players != "3:8,4:8,5:7,6:6" else "dice_set"
                raise InvalidOptions(name, "bag_too_small", players=players, hands=hands[players], bag=bag)

    @cached_property
    def die_types(self) -> tuple[str, ...]:
        """``bag_types(dice_set)``, kept on the options: every move reads it."""
        return bag_types(self.dice_set)

    @property
    def min_players(self) -> int:
        return 2 if self.allow_two_players else 3

    def hands_for(self, players: int) -> int:
        return parse_hands(self.hands_by_players)[players]


# --- state --------------------------------------------------------------------------------

# The persisted keys, in to_json's order (the order of the dataclass this class replaced).
_FIELDS = (
    "options",
    "players",
    "hands_total",
    "start_player",
    "scores",
    "active",
    "hand_no",
    "phase",
    "hands",
    "bids",
    "revealed",
    "tricks",
    "won",
    "trick",
    "leader",
    "current",
    "trick_no",
    "discarded",
    "last_trick",
    "exact_bids",
    "forfeited",
)
_FIELD_NAMES = _FIELDS[1:]  # all but the options, which to_json writes as a dict
_new_state = object.__new__


class MythicState(SlotsState):
    """One game, updated by replacement: a move starts from ``copy()`` (shallow) and gives the copy new lists
    only where it changes them, so a state shares its unchanged lists with the state it came from. Nothing
    changes a list in place once a state is handed out. ``__slots__``: a move reads a dozen fields."""

    __slots__ = _FIELDS

    options: MythicOptions
    players: int
    hands_total: int
    start_player: int
    scores: list[int]
    active: list[bool]
    hand_no: int
    phase: str  # bidding | playing | over
    hands: list[list[int]]  # hidden dice (die ids, sorted)
    bids: list[int | None]
    revealed: bool
    tricks: list[int]
    won: list[list[JSON]]  # per seat: {"rolls": [...], "win": index}
    trick: list[JSON]  # rolls: {"player", "die", "type", "face"}
    leader: int
    current: int | None
    trick_no: int  # tricks finished this hand (including discarded ones)
    discarded: int
    last_trick: JSON | None
    exact_bids: list[int]
    forfeited: list[int]

    def __init__(
        self,
        options: MythicOptions,
        players: int,
        hands_total: int,
        start_player: int,
        scores: list[int],
        active: list[bool],
        hand_no: int = 1,
        phase: str = "bidding",
        hands: list[list[int]] | None = None,
        bids: list[int | None] | None = None,
        revealed: bool = False,
        tricks: list[int] | None = None,
        won: list[list[JSON]] | None = None,
        trick: list[JSON] | None = None,
        leader: int = 0,
        current: int | None = None,
        trick_no: int = 0,
        discarded: int = 0,
        last_trick: JSON | None = None,
        exact_bids: list[int] | None = None,
        forfeited: list[int] | None = None,
    ) -> None:
        self.options, self.players, self.hands_total, self.start_player = options, players, hands_total, start_player
        self.scores, self.active, self.hand_no, self.phase = scores, active, hand_no, phase
        self.hands = [] if hands is None else hands
        self.bids = [] if bids is None else bids
        self.revealed = revealed
        self.tricks = [] if tricks is None else tricks
        self.won = [] if won is None else won
        self.trick = [] if trick is None else trick
        self.leader, self.current, self.trick_no, self.discarded = leader, current, trick_no, discarded
        self.last_trick = last_trick
        self.exact_bids = [] if exact_bids is None else exact_bids
        self.forfeited = [] if forfeited is None else forfeited

    def copy(self) -> MythicState:
        """A shallow copy: what a move starts from (a deep copy was two thirds of an ``apply``)."""
        s = _new_state(MythicState)
        s.options, s.players, s.hands_total = self.options, self.players, self.hands_total
        s.start_player, s.scores, s.active = self.start_player, self.scores, self.active
        s.hand_no, s.phase = self.hand_no, self.phase
        s.hands, s.bids, s.revealed, s.tricks = self.hands, self.bids, self.revealed, self.tricks
        s.won, s.trick, s.leader, s.current = self.won, self.trick, self.leader, self.current
        s.trick_no, s.discarded, s.last_trick = self.trick_no, self.discarded, self.last_trick
        s.exact_bids, s.forfeited = self.exact_bids, self.forfeited
        return s


def _fields(state: MythicState) -> JSON:
    return {name: getattr(state, name) for name in _FIELD_NAMES}


# --- pure rules -----------------------------------------------------------------------------

_SPECIAL_SET = frozenset(SPECIALS)
_COLOUR_SET = frozenset(COLOURS)
_VALUE = {face: face_value(face) for faces in FACES.values() for face in faces}
# Every move as one constant: a legal-move list is then a list of references, not of new tuples.
_BIDS = tuple(tuple(Action("bid", (b,)) for b in range(h + 1)) for h in range(13))  # hands are 1..12
_PLAYS = tuple(Action("play", (d,)) for d in range(7 * 12))  # a bag holds at most 7 types x 12 dice


def trick_suit(rolls: list[JSON], options: MythicOptions) -> str | None:
    """MD-L1: the colour of the first number die rolled (die type, not face)."""
    if not rolls:
        return None
    if options.special_lead_sets_no_suit and rolls[0]["type"] in _SPECIAL_SET:
        return None
    for r in rolls:
        if r["type"] in _COLOUR_SET:
            return r["type"]
    return None


def legal_dice(hand: list[int], rolls: list[JSON], options: MythicOptions) -> list[int]:
    """MD-L2/L3: the die ids of ``hand`` that may be played to a trick with ``rolls``."""
    suit = trick_suit(rolls, options)
    if suit is None:
        return list(hand)
    types = bag_types(options.dice_set)
    kinds = [types[d] for d in hand]
    if suit not in kinds:
        return list(hand)
    return [d for d, kind in zip(hand, kinds, strict=True) if kind == suit or kind in _SPECIAL_SET]


def trick_winner(rolls: list[JSON], options: MythicOptions) -> int | None:
    """MD-R1..R3: the index (into ``rolls``) of the winning roll, or None (``all_flags=nobody``)."""
    faces = [r["face"] for r in rolls]
    if _SPECIAL_SET.isdisjoint(faces):  # the usual trick: numbers and flags only
        best_i, best_value = None, 0
        for i, face in enumerate(faces):
            value = _VALUE[face]
            if value and value >= best_value:  # ties: the later roller
                best_i, best_value = i, value
        if best_i is not None:
            return best_i
        return None if options.all_flags == "nobody" else 0  # MD-R3: all flags, the first roller wins
    later = options.same_special_tie == "later"
    specials = [(i, face) for i, face in enumerate(faces) if face in _SPECIAL_SET]
    if options.three_way == "sequential":
        best_i, best = specials[0]
        for i, face in specials[1:]:
            if (face == best and later) or BEATS[face] == best:
                best_i, best = i, face
        return best_i
    present = {face for _, face in specials}
    if len(present) == 1:
        kind = next(iter(present))
    elif len(present) == 2:
        a, b = sorted(present)
        kind = a if BEATS[a] == b else b
    else:
        kind = "mermaid"
    same = [i for i, face in specials if face == kind]
    return same[-1] if later else same[0]


def trick_bonus(trick: JSON, options: MythicOptions) -> int:
    """MD-P4 for one won trick, ignoring the hand-wide flag scope."""
    faces = [r["face"] for r in trick["rolls"]]
    if options.bonus_flag_scope == "trick" and FLAG in faces:
        return 0
    win = faces[trick["win"]]
    if win == "mermaid" and "minotaur" in faces:
        return 50
    if win == "minotaur":
        griffins = faces.count("griffin")
        return 30 * griffins if options.griffin_bonus == "per_griffin" else 30 * min(griffins, 1)
    return 0


def hand_score(bid: int, won: list[JSON], hand_no: int, options: MythicOptions) -> tuple[int, int]:
    """MD-P1..P4: ``(base, bonus)`` for a player who bid ``bid`` and won the tricks ``won``."""
    taken = len(won)
    if bid == 0:
        return (10 * hand_no if taken == 0 else -10 * hand_no), 0
    if taken != bid:
        return -10 * abs(taken - bid), 0
    bonus = 0
    if options.bonuses_enabled and not (
        options.bonus_flag_scope == "hand" and any(r["face"] == FLAG for t in won for r in t["rolls"])
    ):
        bonus = sum(trick_bonus(t, options) for t in won)
    return 20 * bid, bonus


def _copies(rolls: list[JSON]) -> list[JSON]:
    """Rolls for an event or a view: their own dicts, so no reader can reach the state's."""
    return [r.copy() for r in rolls]


# --- the engine -----------------------------------------------------------------------------


class MythicalDice(Engine[MythicState, MythicOptions, MythicView]):
    name = "mythic"
    scores_are_points = True  # the running total after the last hand
    Options = MythicOptions
    min_players = 3
    max_players = 6

    def player_range(self, options: MythicOptions) -> tuple[int, int]:
        return options.min_players, self.max_players

    # -- setup --

    def new_game(self, players: int, options: MythicOptions, dice: DiceSource) -> tuple[MythicState, list[Event]]:
        self.check_player_count(players, options)
        start = 0 if options.first_start_player == "host" else dice.sample(range(players), 1)[0]
        state = MythicState(
            options=options,
            players=players,
            hands_total=options.hands_for(players),
            start_player=start,
            scores=[0] * players,
            active=[True] * players,
            exact_bids=[0] * players,
            leader=start,
        )
        events = [Event("start", {"players": players, "hands": state.hands_total, "start_player": start})]
        return state, events + self.start_hand(state, dice)

    def start_hand(self, s: MythicState, dice: DiceSource) -> list[Event]:
        """Deal hand ``s.hand_no`` (MD-2) in place and open the bidding. Tests use it to jump to a hand."""
        n, h = s.players, s.hand_no
        seats = self._live(s)
        types = bag_types(s.options.dice_set)
        # one draw without replacement, split in seat order
        drawn = dice.sample(list(range(len(types))), h * len(seats))
        hands: list[list[int]] = [[] for _ in range(n)]
        for k, seat in enumerate(seats):
            hands[seat] = sorted(drawn[k * h : (k + 1) * h])
        s.hands = hands
        s.phase = "bidding"
        s.bids = [None] * n
        s.revealed = False
        s.tricks = [0] * n
        s.won = [[] for _ in range(n)]
        s.trick = []
        s.trick_no = 0
        s.discarded = 0
        s.current = None
        s.last_trick = None
        if s.options.hand_leader == "rotate" or h == 1:
            s.leader = self._next_live(s, (s.start_player + h - 1) % n, include=True)
        else:
            s.leader = self._next_live(s, s.leader, include=True)  # the last trick's winner
        events = [Event("hand_started", {"hand": h, "hands": s.hands_total, "dice": h, "leader": s.leader})]
        for seat in seats:
            dealt = [{"id": d, "type": types[d]} for d in hands[seat]]
            events.append(Event("deal", {"hand": h, "dice": dealt}, to=seat))
        return events

    # -- queries --

    @staticmethod
    def _live(s: MythicState) -> list[int]:
        return [p for p in range(s.players) if s.active[p]]

    @staticmethod
    def _next_live(s: MythicState, seat: int, include: bool = False) -> int:
        for k in range(0 if include else 1, s.players + 1):
            p = (seat + k) % s.players
            if s.active[p]:
                return p
        return seat

    @staticmethod
    def _waiting(s: MythicState) -> list[int]:
        """The live seats still to bid, in seat order."""
        active, bids = s.active, s.bids
        return [p for p in range(s.players) if active[p] and bids[p] is None]

    def to_act(self, state: MythicState) -> tuple[int, ...]:
        phase = state.phase
        if phase == "playing":
            return () if state.current is None else (state.current,)
        if phase == "bidding":
            return tuple(self._waiting(state))
        return ()

    def legal_actions(self, state: MythicState, player: int) -> list[Action]:
        phase = state.phase
        if phase == "playing":
            if state.current is None or player != state.current:
                return []
            hand = state.hands[player]
            suit = trick_suit(state.trick, state.options)
            if suit is not None:  # legal_dice, without building the die list first
                types = state.options.die_types
                if suit in map(types.__getitem__, hand):
                    return [_PLAYS[d] for d in hand if types[d] == suit or types[d] in _SPECIAL_SET]
            return list(map(_PLAYS.__getitem__, hand))
        if phase != "bidding":
            return []
        if type(player) is int:  # to_act's test, without building it
            if not (0 <= player < state.players and state.active[player] and state.bids[player] is None):
                return []
        elif player not in self.to_act(state):
            return []
        h = state.hand_no
        return list(_BIDS[h]) if h < len(_BIDS) else [Action("bid", (b,)) for b in range(h + 1)]

    # -- moves --

    def apply(
        self, state: MythicState, player: int, action: Action, dice: DiceSource
    ) -> tuple[MythicState, list[Event]]:
        # The checks, in order, of every refusal; nothing is copied or changed before they pass.
        phase = state.phase
        if phase == "over":
            raise IllegalMove("game_over")
        name, args = action.name, action.args
        if name != "bid" and name != "play":
            raise IllegalMove("illegal_action", action=str(action))
        if not (isinstance(player, int) and 0 <= player < state.players and state.active[player]):
            raise IllegalMove("not_your_turn")
        if len(args) != 1 or not isinstance(args[0], int):
            raise IllegalMove("bad_action", action=str(action))
        if name == "bid":
            bid = args[0]
            if phase != "bidding":
                raise IllegalMove("bidding_closed")
            if state.bids[player] is not None:
                raise IllegalMove("already_bid")
            if not 0 <= bid <= state.hand_no:
                raise IllegalMove("bid_out_of_range", bid=bid, lo=0, hi=state.hand_no)
            s = state.copy()
            return s, self._bid(s, player, bid)
        die = args[0]
        if phase == "bidding":
            raise IllegalMove("still_bidding")
        if player != state.current:
            raise IllegalMove("not_your_turn")
        hand = state.hands[player]
        if die not in hand:
            raise IllegalMove("die_not_in_hand", die=die)
        options = state.options
        types = options.die_types
        kind = types[die]
        trick = state.trick
        suit = trick_suit(trick, options)
        if suit is not None and kind != suit and kind not in _SPECIAL_SET and any(types[d] == suit for d in hand):
            raise IllegalMove("must_follow_colour", colour=suit, die=die)
        roll = dice.roll(1, 6)[0]  # MD-L4: rolled only now
        face = FACES[kind][roll - 1]
        s = state.copy()
        s.hands = hands = s.hands.copy()
        hands[player] = hand = hand.copy()
        hand.remove(die)
        s.trick = trick = [*trick, {"player": player, "die": die, "type": kind, "face": face}]
        if suit is None and kind in _COLOUR_SET:
            suit = trick_suit(trick, options)  # this die may set it (unless a special lead means no suit)
        data = {
            "player": player,
            "die": die,
            "type": kind,
            "roll": roll,
            "face": face,
            "value": _VALUE[face],
            "suit": suit,
            "trick": s.trick_no + 1,
        }
        events = [Event("played", data)]
        active = s.active
        # Each live seat rolls once and a leaver's roll is withdrawn, so the rollers are distinct live seats:
        # the trick is complete exactly when it holds a roll per live seat (_advance, without its set).
        if len(trick) < active.count(True):
            p, n = player, s.players
            while True:
                p = (p + 1) % n
                if active[p]:
                    for r in trick:
                        if r["player"] == p:
                            break
                    else:
                        s.current = p
                        return s, events
        events += self._resolve(s, dice)
        return s, events

    def _bid(self, s: MythicState, player: int, bid: int) -> list[Event]:
        s.bids = bids = s.bids.copy()
        bids[player] = bid
        waiting = self._waiting(s)
        events = [Event("bid_placed", {"player": player, "waiting": waiting})]
        if not waiting:
            events += self._reveal(s)
        return events

    def _reveal(self, s: MythicState) -> list[Event]:
        s.revealed = True
        s.phase = "playing"
        s.current = s.leader
        return [Event("bids_revealed", {"hand": s.hand_no, "bids": list(s.bids), "leader": s.leader})]

    def _advance(self, s: MythicState, dice: DiceSource) -> list[Event]:
        """After a roll or a withdrawal: next roller, or resolve the trick (and maybe the hand)."""
        trick = s.trick
        if not trick:
            s.current = s.leader
            return []
        active = s.active
        if len(trick) < active.count(True):  # see apply
            rolled = {r["player"] for r in trick}
            p = trick[-1]["player"]
            while True:
                p = (p + 1) % s.players
                if active[p] and p not in rolled:
                    s.current = p
                    return []
        return self._resolve(s, dice)

    def _resolve(self, s: MythicState, dice: DiceSource) -> list[Event]:
        rolls = s.trick  # this list is new to ``s`` (made by _play or forfeit), so the won pile may keep it
        s.trick = []
        s.trick_no += 1
        idx = trick_winner(rolls, s.options)
        if idx is None:  # all_flags=nobody: discarded, the same leader leads again
            s.discarded += 1
            s.last_trick = {"trick": s.trick_no, "rolls": rolls, "winner": None}
            events = [Event("trick_discarded", {"trick": s.trick_no, "leader": s.leader, "rolls": _copies(rolls)})]
        else:
            win = rolls[idx]
            winner = win["player"]
            s.tricks = tricks = s.tricks.copy()
            tricks[winner] += 1
            s.won = won = s.won.copy()
            won[winner] = [*won[winner], {"rolls": rolls, "win": idx}]
            s.leader = winner
            s.last_trick = {"trick": s.trick_no, "rolls": rolls, "winner": winner}
            data = {
                "player": winner,
                "trick": s.trick_no,
                "die": win["die"],
                "type": win["type"],
                "face": win["face"],
                "rolls": _copies(rolls),
                "tricks": list(tricks),
            }
            events = [Event("trick_won", data)]
        if any(s.hands):  # a leaver's hand is empty, so this asks whether a live seat has dice left
            s.current = s.leader
            return events
        return events + self._score_hand(s, dice)

    def _score_hand(self, s: MythicState, dice: DiceSource) -> list[Event]:
        rows = []
        s.scores = scores = s.scores.copy()
        s.exact_bids = exact_bids = s.exact_bids.copy()
        for p in self._live(s):
            bid = s.bids[p]
            assert bid is not None
            base, bonus = hand_score(bid, s.won[p], s.hand_no, s.options)
            scores[p] += base + bonus
            exact_bids[p] += int(bid == s.tricks[p])
            rows.append(
                {
                    "player": p,
                    "bid": bid,
                    "tricks": s.tricks[p],
                    "base": base,
                    "bonus": bonus,
                    "score": base + bonus,
                    "total": scores[p],
                }
            )
        events = [
            Event(
                "hand_scored",
                {"hand": s.hand_no, "rows": rows, "totals": list(scores), "discarded": s.discarded},
            )
        ]
        s.current = None
        if s.hand_no >= s.hands_total:
            return events + self._finish(s)
        s.hand_no += 1
        return events + self.start_hand(s, dice)

    def _finish(self, s: MythicState) -> list[Event]:
        s.phase = "over"
        s.current = None
        outcome = self.outcome(s)
        assert outcome is not None
        return [
            Event(
                "game_over",
                {
                    "ranking": [list(place) for place in outcome.ranking],
                    "scores": list(outcome.scores),
                    "winners": list(outcome.winners),
                },
            )
        ]

    # -- timeout and forfeit --

    def timeout_action(self, state: MythicState, player: int) -> Action | None:
        legal = self.legal_actions(state, player)
        if not legal:
            return None
        return act("bid", 0) if state.phase == "bidding" else legal[0]

    def timeout(self, state: MythicState, player: int, dice: DiceSource) -> tuple[MythicState, list[Event]]:
        """Bid 0 while bidding, else roll the first legal die (lowest id)."""
        self.check_turn(state, player)
        action = self.timeout_action(state, player)
        assert action is not None
        s, events = self.apply(state, player, action, dice)
        return s, [Event("timeout", {"player": player})] + events

    def forfeit(self, state: MythicState, player: int, dice: DiceSource) -> tuple[MythicState, list[Event]]:
        s = clone(state)  # rare: a deep copy, changed in place below
        if s.phase == "over" or not 0 <= player < s.players or not s.active[player]:
            return s, []
        s.active[player] = False
        s.forfeited.append(player)
        s.hands[player] = []  # back to the bag, never shown
        if s.phase == "bidding":
            s.bids[player] = None  # a pending bid is discarded unseen
        events = [Event("forfeit", {"player": player})]
        live = self._live(s)
        if len(live) <= 1:
            return s, events + self._finish(s)
        if s.phase == "bidding":
            if s.leader == player:
                s.leader = self._next_live(s, player)
            if not self.to_act(s):
                events += self._reveal(s)
            return s, events
        # playing: withdraw their roll from the unfinished trick, fix the leader, carry on
        s.trick = [r for r in s.trick if r["player"] != player]
        if s.leader == player:
            s.leader = s.trick[0]["player"] if s.trick else self._next_live(s, player)
        return s, events + self._advance(s, dice)

    # -- views, secrecy, outcome --

    def public_actions(self, state: MythicState) -> dict[int, list[Action]]:
        """While bidding, every seat still to bid may bid 0..h (public); which die a player may roll depends
        on their hidden dice, so nothing is public then."""
        if state.phase != "bidding":
            return {}
        return {seat: self.legal_actions(state, seat) for seat in self.to_act(state)}

    def _public(self, state: MythicState) -> list[str]:
        """The public actions of every seat to act, encoded, each once in the engine's order."""
        return list(dict.fromkeys(a.encode() for actions in self.public_actions(state).values() for a in actions))

    def view(self, state: MythicState, player: int | None) -> MythicView:
        types = bag_types(state.options.dice_set)
        mine = state.hands[player] if player is not None and 0 <= player < state.players else []
        outcome = self.outcome(state)
        last = state.last_trick
        view: MythicView = {
            "game": self.name,
            "you": player,
            "players": state.players,
            "options": state.options.to_dict(),
            "phase": state.phase,
            "hand": state.hand_no,
            "hands": state.hands_total,
            "start_player": state.start_player,
            "leader": state.leader,
            "to_act": list(self.to_act(state)),
            "active": list(state.active),
            "forfeited": list(state.forfeited),
            "scores": list(state.scores),
            "exact_bids": list(state.exact_bids),
            "hand_sizes": [len(h) for h in state.hands],
            "has_bid": [b is not None for b in state.bids],
            "bids": [b if state.revealed or p == player else None for p, b in enumerate(state.bids)],
            "bids_revealed": state.revealed,
            "tricks": list(state.tricks),
            "trick_no": state.trick_no,
            "discarded": state.discarded,
            "trick": cast(list[MythicRoll], _copies(state.trick)),
            "suit": trick_suit(state.trick, state.options),
            "captured": [[cast(MythicRoll, dict(r)) for t in won for r in t["rolls"]] for won in state.won],
            "last_trick": None if last is None else {**last, "rolls": _copies(last["rolls"])},
            "your_dice": [{"id": d, "type": types[d]} for d in mine],
            "legal": [a.encode() for a in self.legal_actions(state, player)] if player is not None else [],
            # anyone's: the bids open to the seats still to bid, so no renderer re-derives the bid range
            "public": self._public(state),
            "ranking": [list(place) for place in outcome.ranking] if outcome else None,
        }
        return view

    def scramble(self, state: MythicState, player: int | None, dice: DiceSource) -> MythicState:
        """Re-deal every other player's hidden dice from the dice ``player`` cannot see (same counts)
        and re-draw every other pending bid."""
        s = clone(state)
        seen = {r["die"] for r in s.trick}
        seen |= {r["die"] for won in s.won for t in won for r in t["rolls"]}
        if player is not None:
            seen |= set(s.hands[player])
        pool = [d for d in range(len(bag_types(s.options.dice_set))) if d not in seen]
        others = [q for q in range(s.players) if q != player]
        need = sum(len(s.hands[q]) for q in others)
        drawn = dice.sample(pool, need)
        for q in others:
            k = len(s.hands[q])
            s.hands[q], drawn = sorted(drawn[:k]), drawn[k:]
            if not s.revealed and s.bids[q] is not None:
                s.bids[q] = dice.sample(range(s.hand_no + 1), 1)[0]
        return s

    def outcome(self, state: MythicState) -> Outcome | None:
        if state.phase != "over":
            return None
        live = self._live(state)

        def key(p: int) -> tuple[int, ...]:
            if state.options.tie_break == "exact_bids":
                return (-state.scores[p], -state.exact_bids[p])
            return (-state.scores[p],)

        ranking: list[tuple[int, ...]] = []
        for p in sorted(live, key=key):
            if ranking and key(ranking[-1][0]) == key(p):
                ranking[-1] = ranking[-1] + (p,)
            else:
                ranking.append((p,))
        ranking += [(p,) for p in reversed(state.forfeited)]
        return Outcome(tuple(ranking), tuple(state.scores))

    # -- persistence --

    def to_json(self, state: MythicState) -> JSON:
        # A deep copy: states share lists with each other, a caller's JSON shares nothing with any state.
        return {"options": state.options.to_dict(), **clone(_fields(state))}

    def from_json(self, data: JSON) -> MythicState:
        fields: dict[str, Any] = clone(dict(data))
        fields["options"] = MythicOptions.from_dict(fields["options"])
        return MythicState(**fields)


ENGINE = MythicalDice()
SPEC = GameSpec(ENGINE, order=5, length_unit="hands", starts_unit=lambda e: e.kind == "hand_started")
