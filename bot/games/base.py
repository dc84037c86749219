"""The engine contract shared by every game.

Engines are pure: no discord, no asyncio, no I/O and no global ``random``.
Players are seat indices ``0..n-1``; the table service maps seats to people.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from bot.games.dice import DiceSource
from bot.games.parsing import parse_int, quote
from bot.jsontext import dumps as json_text
from bot.jsontext import loads as json_loads

JSON = dict[str, Any]


class IllegalMove(Exception):
    """Any illegal action. ``code`` keys the message catalog (``<game>.error.<code>`` or ``error.<code>``, read by
    ``bot.render.error_text``); ``params`` fill it. No user text here: ``str()`` is for logs and tests."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return _developer_text(self.code, self.params)

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.params!r})"


def _developer_text(code: str, params: dict[str, Any]) -> str:
    """``bid_not_higher (quantity=2, face=3)``: a refusal as logs and test failures show it."""
    return f"{code} ({', '.join(f'{k}={quote(v)}' for k, v in params.items())})" if params else code


class InvalidOptions(ValueError):
    """An option value or combination is invalid. ``option`` names it, ``code`` keys the catalog
    (``error.option.<code>``, read by ``bot.render.option_error_text``); ``params`` fill it. No user text here."""

    def __init__(self, option: str, code: str, **params: Any) -> None:
        super().__init__(f"{option}: {_developer_text(code, params)}")
        self.option = option
        self.code = code
        self.params = params


class Action(NamedTuple):
    """A move: a name plus small int/str arguments, e.g. ``Action("claim", (53,))``.

    ``encode`` gives a short text form (``claim:53``) used in logs and custom_ids. A tuple, so comparing
    and hashing moves (every ``apply`` does) runs in C.
    """

    name: str
    args: tuple[int | str, ...] = ()

    def encode(self) -> str:
        return ":".join([self.name, *map(str, self.args)]) if self.args else self.name

    @classmethod
    def parse(cls, text: str) -> Action:
        name, *rest = text.split(":")
        return cls(name, tuple(a if (n := parse_int(a, signed=True)) is None else n for a in rest))

    def __str__(self) -> str:
        return self.encode()

    def __repr__(self) -> str:
        return f"Action({self.name!r}, {self.args!r})"


def act(name: str, *args: int | str) -> Action:
    return Action(name, tuple(args))


_NO_DATA: JSON = {}  # shared by events without data; event data is never mutated (copies are made with {**data})


class Event(NamedTuple):
    """Something that happened. ``to`` is None for everyone, else the one seat allowed to see it.

    A small tuple: engines make several per move, and a frozen dataclass cost three times as much to build.
    """

    kind: str
    data: JSON = _NO_DATA
    to: int | None = None

    @property
    def public(self) -> bool:
        return self.to is None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: seats ranked best first (ties share a place), and a per-seat score.

    ``neutral``: seats that neither won nor lost (e.g. Liar's Dice single round, D-L7); every seat that is
    neither a winner nor neutral lost.
    """

    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    neutral: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def result(self, seat: int) -> str:
        """``win``, ``neutral`` or ``loss``: how ``seat`` ended, as results and leaderboards record it."""
        if seat in self.winners:
            return "win"
        return "neutral" if seat in self.neutral else "loss"


_OPTIONS_MEMO: dict[tuple[Any, ...], Any] = {}
_OPTIONS_MEMO_SIZE = 512


class OptionsBase:
    """Mixin for frozen option dataclasses: dict round trip with validation."""

    # Every subclass is a dataclass; declared so that dataclasses.fields(cls) type-checks here.
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def validate(self) -> None:  # pragma: no cover - overridden
        pass

    def __post_init__(self) -> None:
        self.validate()

    @classmethod
    def from_dict(cls, data: JSON) -> Any:
        # Options are frozen, so equal dicts may share one instance: every restored state builds its options, and
        # a server's tables mostly share a few (a small memo, reset when full; only accepted options are kept).
        try:
            key = (cls, *[(name, type(value), value) for name, value in data.items()])  # 1, 1.0 and True differ
            found = _OPTIONS_MEMO.get(key)
        except TypeError:  # an unhashable value: refused below, or built each time
            key, found = None, None
        if found is not None:
            return found
        options = cls._from_dict(data)
        if key is not None:
            if len(_OPTIONS_MEMO) >= _OPTIONS_MEMO_SIZE:
                _OPTIONS_MEMO.clear()
            _OPTIONS_MEMO[key] = options
        return options

    @classmethod
    def _from_dict(cls, data: JSON) -> Any:
        names = {f.name: f for f in dataclasses.fields(cls)}
        for key in data:
            if key not in names:
                raise InvalidOptions(key, "unknown_option")
        kwargs = {}
        for key, value in data.items():
            default = names[key].default
            if isinstance(default, bool) and not isinstance(value, bool):
                if str(value).lower() in ("true", "1", "yes", "on"):
                    value = True
                elif str(value).lower() in ("false", "0", "no", "off"):
                    value = False
                else:
                    raise InvalidOptions(key, "not_true_false", value=value)
            elif isinstance(default, int) and not isinstance(default, bool):
                number = parse_int(value.strip() if isinstance(value, str) else value, signed=True)
                if number is None:
                    digits = value.strip().removeprefix("-") if isinstance(value, str) else ""
                    too_big = digits.isascii() and digits.isdigit()
                    raise InvalidOptions(key, "too_big" if too_big else "not_whole", value=value)
                value = number
            kwargs[key] = value
        return cls(**kwargs)

    @classmethod
    def declared(cls) -> dict[str, tuple[str, Any]]:
        """Field name -> ("choices", allowed) or ("range", (lo, hi)): the domains declared with ``choice``/``whole``,
        in field order."""
        found = cls.__dict__.get("_declared")
        if found is None:
            fields = dataclasses.fields(cls)
            found = {f.name: next(iter(f.metadata.items())) for f in fields if f.metadata}
            type.__setattr__(cls, "_declared", found)
        return found

    def check_declared(self) -> None:
        """Every declared choice and range, in field order (an engine's ``validate`` calls it, then checks the rest).
        Cheap on the way through (every restored state builds its options): the refusals are built only on a miss."""
        checks = type(self).__dict__.get("_checks")
        if checks is None:
            checks = tuple((name, kind == "choices", domain) for name, (kind, domain) in self.declared().items())
            type.__setattr__(type(self), "_checks", checks)
        for name, is_choice, domain in checks:
            value = getattr(self, name)
            if is_choice:
                if value not in domain:
                    check_choice(name, value, domain)
            elif type(value) is not int or not domain[0] <= value <= domain[1]:
                check_range(name, value, *domain)

    def to_dict(self) -> JSON:
        # Shallow on purpose: options are flat, and asdict's deep copy shows up in every state dump.
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed(self) -> JSON:
        """The options that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


def choice(default: Any, allowed: tuple[Any, ...]) -> Any:
    """An option field that takes one of ``allowed``: declared once, checked by ``check_declared``, read by the
    test that holds each game's ``/… new`` command to its ``Options``."""
    return field(default=default, metadata={"choices": tuple(allowed)})


def whole(default: int, lo: int, hi: int) -> Any:
    """An option field that takes a whole number from ``lo`` to ``hi`` (see ``choice``)."""
    return field(default=default, metadata={"range": (lo, hi)})


def check_choice(option: str, value: Any, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        raise InvalidOptions(option, "not_a_choice", value=value, allowed=tuple(allowed))


def check_range(option: str, value: int, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InvalidOptions(option, "out_of_range", value=value, lo=lo, hi=hi)


class SlotsState:
    """Equality and repr over ``__slots__``, for the lean engines' state classes (they were dataclasses).

    States are ``__slots__`` classes copied shallowly per move: a list in a state handed out is never changed in
    place, only replaced, so a new state may share lists with the one it came from (each engine's own copy)."""

    __slots__: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclasses they replaced

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


S = TypeVar("S")
OptT = TypeVar("OptT", bound=OptionsBase)
#: A game's view type: a ``TypedDict`` naming what one seat (or the channel) may know.
V = TypeVar("V", bound=Mapping[str, Any])


class Engine(ABC, Generic[S, OptT, V]):
    """One game's rules. Stateless: every method takes the state and never mutates it.

    Generic in the game's state ``S``, its ``Options`` ``OptT`` and its view ``V`` (what ``view`` returns),
    so code that holds one game's engine reads its view's fields typed; code that serves every game holds a
    bare ``Engine`` and treats a view as a mapping."""

    name: ClassVar[str]
    Options: ClassVar[type[OptionsBase]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # What a result means beyond win or loss, for leaderboards and stats (see ``result_figures``):
    # an outcome's scores are points where more is better (so a best score means something) ...
    scores_are_points: ClassVar[bool] = False
    # ... and an outcome may leave a seat neither winning nor losing (``Outcome.neutral``).
    neutral_results: ClassVar[bool] = False
    # Nothing is hidden from anyone: a player's view is the channel's (plus their legal moves).
    open_information: ClassVar[bool] = False

    @classmethod
    def result_figures(cls) -> tuple[str, ...]:
        """The figures a player's record in this game shows: wins and losses, then neutral and best score
        where they mean something."""
        neutral = ("neutral",) if cls.neutral_results else ()
        return ("wins", "losses", *neutral, *(("best",) if cls.scores_are_points else ()))

    def options(self, data: JSON | None = None) -> OptT:
        return self.Options.from_dict(data or {})

    def player_range(self, options: OptT) -> tuple[int, int]:
        return self.min_players, self.max_players

    def check_player_count(self, players: int, options: OptT) -> None:
        lo, hi = self.player_range(options)
        if not lo <= players <= hi:
            raise IllegalMove("player_count", lo=lo, hi=hi)

    @abstractmethod
    def new_game(self, players: int, options: OptT, dice: DiceSource) -> tuple[S, list[Event]]:
        """Start a game for ``players`` seats; returns the state and the opening events."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """The seats that may act now (several during simultaneous bids); empty when over."""

    @abstractmethod
    def legal_actions(self, state: S, player: int) -> list[Action]:
        """Every legal action for ``player`` now; empty if it is not their turn."""

    def public_actions(self, state: S) -> dict[int, list[Action]]:
        """The legal actions of the seats to act that anyone may see (the channel's controls): they depend on
        public information only, so a renderer offers them without re-deriving a rule. Default: none."""
        return {}

    @abstractmethod
    def apply(self, state: S, player: int, action: Action, dice: DiceSource) -> tuple[S, list[Event]]:
        """Apply ``action``; raise ``IllegalMove`` (and change nothing) if it is illegal."""

    @abstractmethod
    def view(self, state: S, player: int | None) -> V:
        """Exactly what ``player`` may know (``None``: a spectator / the channel)."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    def timeout_action(self, state: S, player: int) -> Action | None:
        """The default action when ``player`` runs out of time, if it is an ordinary action."""
        return None

    def timeout(self, state: S, player: int, dice: DiceSource) -> tuple[S, list[Event]]:
        """Apply the default action for ``player``'s expired turn (the rules help documents it)."""
        action = self.timeout_action(state, player)
        if action is None:
            raise NotImplementedError(f"{self.name} must define timeout or timeout_action")
        return self.apply(state, player, action, dice)

    @abstractmethod
    def forfeit(self, state: S, player: int, dice: DiceSource) -> tuple[S, list[Event]]:
        """``player`` leaves the game for good; the game goes on (or ends) without them."""

    @abstractmethod
    def scramble(self, state: S, player: int, dice: DiceSource) -> S:
        """A state ``player`` cannot tell apart from ``state``: everything hidden from them re-drawn.

        Used to prove secrecy: ``view(scramble(s, p), p) == view(s, p)``.
        """

    @abstractmethod
    def to_json(self, state: S) -> JSON: ...

    @abstractmethod
    def from_json(self, data: JSON) -> S: ...

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None

    def dumps(self, state: S) -> str:
        return json_text(self.to_json(state))

    def loads(self, text: str) -> S:
        try:
            data = json_loads(text)  # orjson: 3-4x the standard library's speed on a state
        except ValueError:  # what only the standard library reads (an integer beyond 64 bits)
            data = json.loads(text)
        return self.from_json(data)

    def check_turn(self, state: S, player: int) -> None:
        if self.is_over(state):
            raise IllegalMove("game_over")
        if player not in self.to_act(state):
            raise IllegalMove("not_your_turn")

    def check_legal(self, state: S, player: int, action: Action) -> None:
        """Generic guard: turn, then membership in ``legal_actions`` (engines may be more specific first)."""
        self.check_turn(state, player)
        if action not in self.legal_actions(state, player):
            raise IllegalMove("illegal_action", action=str(action))


_IMMUTABLE = frozenset((int, str, bool, float, type(None)))  # one hash lookup, not five compares


def clone(value: Any) -> Any:
    """A deep copy of engine state: JSON-like lists/dicts, (frozen or not) dataclasses and ``__slots__`` classes.

    ``copy.deepcopy`` was most of an ``apply``'s time; state holds no cycles or shared parts, so a
    plain recursive copy that leaves immutables (scalars, tuples, frozen options) alone is enough.
    """
    kind = type(value)
    if kind in _IMMUTABLE or kind is tuple:
        return value
    if kind is list:
        return [v if type(v) in _IMMUTABLE else clone(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _IMMUTABLE else clone(v) for k, v in value.items()}
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None:
        if params.frozen:
            return value
        copied = object.__new__(kind)
        copied.__dict__.update({k: v if type(v) in _IMMUTABLE else clone(v) for k, v in value.__dict__.items()})
        return copied
    if type(getattr(kind, "__slots__", None)) is tuple and not hasattr(value, "__dict__"):  # a lean engine state
        copied = object.__new__(kind)
        for cls in kind.__mro__:  # a base class's slots too
            names = cls.__dict__.get("__slots__", ())
            for name in (names,) if type(names) is str else names:
                setattr(copied, name, clone(getattr(value, name)))
        return copied
    raise TypeError(f"clone does not know how to copy {kind.__name__}")
