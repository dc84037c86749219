"""Tournament data: the plan, entrants, rounds, tables and outcomes, as frozen JSON-able values (issue 28).

Pure: no discord, asyncio, I/O or random. Everything a tournament is can be rebuilt from a ``Plan``, its
``Entrant`` list, the ``Round`` list and the ``Outcome`` list (plus the withdrawn set), so the store keeps only those
and every pairing and standing is recomputed, the same inputs giving the same answers.

The engine is ``bot.tournaments.pairing.pair_round`` and ``bot.tournaments.standings`` (``standings``, ``is_over``,
``winners``); ``bot.tournaments`` re-exports all of it. docs/TOURNAMENTS.md explains the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

FORMATS = ("swiss", "knockout", "round_robin")


class TournamentRefused(Exception):
    """An impossible plan. ``code`` names the catalog key ``tournament.refused_<code>``; ``params`` fill it.

    Codes: ``format`` (params: format), ``seats`` (seats, min, max), ``round_robin_seats`` (seats),
    ``entrants`` (entrants, min), ``rounds`` (rounds, min, max).
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = dict(params)


@dataclass(frozen=True)
class Plan:
    """How the tournament is played: ``format`` one of FORMATS, ``seats`` players per table (>= 2; round-robin
    only 2), ``rounds`` the number asked (None = the format's natural number, see ``rounds_total``)."""

    format: str
    seats: int = 2
    rounds: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format, "seats": self.seats, "rounds": self.rounds}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Plan:
        rounds = data.get("rounds")
        return cls(str(data["format"]), int(data["seats"]), None if rounds is None else int(rounds))


@dataclass(frozen=True)
class Entrant:
    """A signed-up player. Seeding: higher ``rating`` first, then earlier ``joined`` (any increasing number, e.g.
    a timestamp), then the lower player id."""

    player: int
    rating: float
    joined: float

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "rating": self.rating, "joined": self.joined}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(int(data["player"]), float(data["rating"]), float(data["joined"]))


@dataclass(frozen=True)
class Pairing:
    """One table of a round: ``number`` 1.. within the round, ``players`` in seat order."""

    number: int
    players: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "players": list(self.players)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pairing:
        return cls(int(data["number"]), tuple(int(p) for p in data["players"]))


@dataclass(frozen=True)
class Round:
    """Round ``number`` (1..): its tables and the players with a bye (a bye scores as a win).

    A knockout round may have no tables at all (every survivor has a bye); it is finished as soon as it exists."""

    number: int
    tables: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "tables": [t.to_json() for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        return cls(
            int(data["number"]),
            tuple(Pairing.from_json(t) for t in data["tables"]),
            tuple(int(p) for p in data.get("byes", ())),
        )

    def players(self) -> tuple[int, ...]:
        """Everyone in this round: the tables' players in table order, then the byes."""
        return tuple(p for t in self.tables for p in t.players) + self.byes


@dataclass(frozen=True)
class Outcome:
    """The result of table ``table`` of round ``round``.

    ``places``: player -> place (1 best; tied players share a place, e.g. {a: 1, b: 1, c: 3}) for the players who
    played; a player who did not show is absent from ``places`` and in ``no_shows`` (scores 0, counts as last).
    Every player of the table is in exactly one of the two. All players no-shows: everyone scores 0 and in a
    knockout nobody advances."""

    round: int
    table: int
    places: Mapping[int, int]
    no_shows: frozenset[int] = field(default_factory=frozenset)

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "places": [[p, self.places[p]] for p in sorted(self.places)],
            "no_shows": sorted(self.no_shows),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            int(data["round"]),
            int(data["table"]),
            {int(p): int(place) for p, place in data["places"]},
            frozenset(int(p) for p in data.get("no_shows", ())),
        )


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``rank`` 1.. (players equal on points and every tie-break share a rank; the list
    is still ordered, by seed, inside a shared rank). ``tiebreaks`` line up with ``tiebreak_names(plan)``.
    ``wins``: tables won outright (sole place 1, byes not counted); ``played``: tables where the player showed;
    ``byes``: byes received; ``eliminated``: out of a knockout (lost, no-show or withdrawn); ``withdrawn``: removed
    by the host or left (keeps the points earned)."""

    player: int
    rank: int
    points: float
    tiebreaks: tuple[float, ...]
    wins: int
    played: int
    byes: int
    eliminated: bool
    withdrawn: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.points,
            "tiebreaks": list(self.tiebreaks),
            "wins": self.wins,
            "played": self.played,
            "byes": self.byes,
            "eliminated": self.eliminated,
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        return cls(
            int(data["player"]),
            int(data["rank"]),
            float(data["points"]),
            tuple(float(t) for t in data["tiebreaks"]),
            int(data["wins"]),
            int(data["played"]),
            int(data["byes"]),
            bool(data["eliminated"]),
            bool(data["withdrawn"]),
        )


def levels(entrants: int, seats: int) -> int:
    """The smallest L >= 1 with seats**L >= entrants: a knockout's rounds, Swiss's natural rounds."""
    count, size = 1, seats
    while size < entrants:
        count += 1
        size *= seats
    return count


def round_robin_rounds(entrants: int) -> int:
    """The circle method's rounds: n - 1 for even n, n for odd n (a bye each round)."""
    return entrants - 1 if entrants % 2 == 0 else entrants


def max_rounds(plan: Plan, entrants: int) -> int:
    """The most rounds a Swiss may ask: as many as a round-robin has (beyond that pairs must repeat)."""
    return max(1, round_robin_rounds(entrants))


def check_plan(plan: Plan, entrants: int, max_seats: int, min_seats: int = 2) -> None:
    """Raise ``TournamentRefused`` unless ``plan`` can be played by ``entrants`` players at tables of
    ``min_seats``..``max_seats`` (the game's own limits; min_seats is raised to at least 2).

    Refused: an unknown format (``format``); seats outside the limits (``seats``); round-robin with seats != 2
    (``round_robin_seats``); fewer than 2 entrants (``entrants``); rounds asked outside 1..max (``rounds``, where a
    knockout and a round-robin accept only their natural number, so min = max = that number)."""
    if plan.format not in FORMATS:
        raise TournamentRefused("format", format=plan.format)
    low = max(2, min_seats)
    if not low <= plan.seats <= max_seats:
        raise TournamentRefused("seats", seats=plan.seats, min=low, max=max_seats)
    if plan.format == "round_robin" and plan.seats != 2:
        raise TournamentRefused("round_robin_seats", seats=plan.seats)
    if entrants < 2:
        raise TournamentRefused("entrants", entrants=entrants, min=2)
    if plan.rounds is None:
        return
    if plan.format == "swiss":
        low_rounds, high_rounds = 1, max_rounds(plan, entrants)
    else:
        low_rounds = high_rounds = rounds_total(Plan(plan.format, plan.seats), entrants)
    if not low_rounds <= plan.rounds <= high_rounds:
        raise TournamentRefused("rounds", rounds=plan.rounds, min=low_rounds, max=high_rounds)


def rounds_total(plan: Plan, entrants: int) -> int:
    """How many rounds the tournament has for ``entrants`` players (the count at the start).

    Swiss: the rounds asked, else ceil(log2 n) (tables of k seats: ceil(log_k n)); knockout: the bracket's levels
    (ceil(log_k n)); round-robin: n - 1 (n even) or n (n odd). A tournament may end earlier (``is_over``)."""
    if plan.format == "round_robin":
        return round_robin_rounds(entrants)
    if plan.format == "knockout":
        return levels(entrants, plan.seats)
    return plan.rounds if plan.rounds is not None else levels(entrants, plan.seats)


def tiebreak_names(plan: Plan) -> tuple[str, ...]:
    """The names of ``Standing.tiebreaks`` in order, catalog suffixes (``tournament.tiebreak_<name>``).

    Swiss: ("buchholz", "sonneborn_berger"); round-robin: ("sonneborn_berger", "head_to_head");
    knockout: ("round_reached",). The seeding rank breaks what is left and is not shown."""
    if plan.format == "swiss":
        return ("buchholz", "sonneborn_berger")
    if plan.format == "round_robin":
        return ("sonneborn_berger", "head_to_head")
    return ("round_reached",)
