"""Scoring and standings of a tournament (issue 28): points per table, tie-breaks, ranks, the end and the winners.

Pure and deterministic; docs/TOURNAMENTS.md gives the rules. ``pairing`` builds on the tallies here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from bot.tournaments.model import Entrant, Outcome, Pairing, Plan, Round, Standing, levels, rounds_total

DIGITS = 6  # points and tie-breaks are shown rounded; they are summed exactly (``Tally.exact``) before that


def seed_order(entrants: Sequence[Entrant]) -> list[int]:
    """Player ids by seed, best first: rating (higher first), then joined (earlier), then player id."""
    return [e.player for e in sorted(entrants, key=lambda e: (-e.rating, e.joined, e.player))]


def pairwise(a: int, b: int, outcome: Outcome) -> float:
    """What ``a`` scored against ``b`` at their table: 1 beaten, 0.5 tied, 0 lost (a no-show loses to everyone
    who showed and scores 0 against another no-show)."""
    if a not in outcome.places:
        return 0.0
    if b not in outcome.places:
        return 1.0
    if outcome.places[a] < outcome.places[b]:
        return 1.0
    return 0.5 if outcome.places[a] == outcome.places[b] else 0.0


def table_points(table: Pairing, outcome: Outcome) -> dict[int, Fraction]:
    """Each player's points at a finished table, exactly: (beaten + half the tied) / (players - 1)."""
    others = len(table.players) - 1
    return {
        p: sum((Fraction(pairwise(p, o, outcome)) for o in table.players if o != p), Fraction(0)) / others
        for p in table.players
    }


def table_winner(table: Pairing, outcome: Outcome, seed: Mapping[int, int]) -> int | None:
    """Who advances from a knockout table: the best place among those who showed, a tie going to the better
    seed; None when nobody showed."""
    present = [p for p in table.players if p in outcome.places]
    if not present:
        return None
    return min(present, key=lambda p: (outcome.places[p], seed[p]))


@dataclass
class Tally:
    """One player's record over the finished tables."""

    points: float = 0.0  # ``exact`` rounded to DIGITS
    wins: int = 0
    played: int = 0
    byes: int = 0
    # per finished table: (opponent, what this player scored against them, the table's players - 1)
    games: list[tuple[int, float, int]] = field(default_factory=list)
    # the points as a fraction: thirds and fifths summed as floats drift (a Buchholz of 17.999999 for 18), so
    # the tie-breaks are computed from this and rounded only at the end
    exact: Fraction = Fraction(0)


def outcome_map(outcomes: Sequence[Outcome]) -> dict[tuple[int, int], Outcome]:
    """(round, table) -> outcome."""
    return {(o.round, o.table): o for o in outcomes}


def unfinished(rounds: Sequence[Round], outcomes: Sequence[Outcome]) -> list[tuple[int, int]]:
    """(round, table) of every table without an outcome."""
    known = outcome_map(outcomes)
    return [(r.number, t.number) for r in rounds for t in r.tables if (r.number, t.number) not in known]


def tally(entrants: Sequence[Entrant], rounds: Sequence[Round], outcomes: Sequence[Outcome]) -> dict[int, Tally]:
    """Every entrant's record: points (a bye scores 1), wins, tables played, byes and the games behind them."""
    known = outcome_map(outcomes)
    records = {e.player: Tally() for e in entrants}
    for rnd in rounds:
        for p in rnd.byes:
            records[p].byes += 1
            records[p].exact += 1
        for table in rnd.tables:
            outcome = known.get((rnd.number, table.number))
            if outcome is None:
                continue
            points = table_points(table, outcome)
            best = min(outcome.places.values(), default=0)
            sole = [p for p, place in outcome.places.items() if place == best]
            for p in table.players:
                record = records[p]
                record.exact += points[p]
                record.played += p in outcome.places
                record.wins += len(sole) == 1 and sole[0] == p
                others = len(table.players) - 1
                record.games.extend((o, pairwise(p, o, outcome), others) for o in table.players if o != p)
    for record in records.values():
        record.points = round(float(record.exact), DIGITS)
    return records


def buchholz(player: int, records: Mapping[int, Tally]) -> float:
    """The opponents' points summed (at a table of k players each opponent counts 1/(k-1)); a bye adds the
    player's own points (the bye's opponent scores as the player did)."""
    own = records[player]
    total = sum((records[o].exact / others for o, _, others in own.games), Fraction(0)) + own.byes * own.exact
    return round(float(total), DIGITS)


def sonneborn_berger(player: int, records: Mapping[int, Tally]) -> float:
    """Each opponent's points times what the player scored against them (1, 0.5, 0; /(k-1) at a table of k);
    byes add nothing."""
    own = records[player]
    total = sum((records[o].exact * Fraction(scored) / others for o, scored, others in own.games), Fraction(0))
    return round(float(total), DIGITS)


def head_to_head(player: int, group: set[int], records: Mapping[int, Tally]) -> float:
    """What the player scored in games against the others of ``group`` (the players tied with them)."""
    return round(float(sum(scored for o, scored, _ in records[player].games if o in group and o != player)), DIGITS)


@dataclass(frozen=True)
class Bracket:
    """A knockout's state: ``lines[r]`` the bracket line (a slot per position, None empty) at the start of round
    r + 1 for every stored round, and ``next_slots`` the line of the round after the last stored one (withdrawn
    players emptied), or None while a table of that last round has no outcome."""

    lines: tuple[tuple[int | None, ...], ...]
    next_slots: tuple[int | None, ...] | None


def bracket_positions(size: int, seats: int) -> list[int]:
    """Seeds 1..size in bracket order so the best seeds meet last: for seats 2 and size 8, 1 8 4 5 2 7 3 6."""
    order = [1]
    while len(order) < size:
        m = len(order)
        grown: list[int] = []
        for s in order:
            for j in range(seats):
                grown.append(j * m + s if j % 2 == 0 else (j + 1) * m + 1 - s)
        order = grown
    return order


def knockout_round(number: int, slots: Sequence[int | None], seats: int) -> Round:
    """The tables (each block of ``seats`` slots with two or more players) and byes (a block with one)."""
    tables: list[Pairing] = []
    byes: list[int] = []
    for start in range(0, len(slots), seats):
        present = [p for p in slots[start : start + seats] if p is not None]
        if len(present) >= 2:
            tables.append(Pairing(len(tables) + 1, tuple(present)))
        elif present:
            byes.append(present[0])
    return Round(number, tuple(tables), tuple(byes))


def first_line(plan: Plan, entrants: Sequence[Entrant]) -> list[int | None]:
    """Round 1's bracket line: seeds at their standard positions, empty slots (byes) facing the top seeds."""
    seeds = seed_order(entrants)
    size = plan.seats ** levels(len(seeds), plan.seats)
    return [seeds[s - 1] if s <= len(seeds) else None for s in bracket_positions(size, plan.seats)]


def bracket(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> Bracket:
    """Replay the knockout from the seeds over the stored rounds: each block of ``seats`` slots sends on its
    table's winner or its bye (nobody when its players were all gone). A player withdrawn later than a stored
    round still counts in it; from the next round on their slot is empty, so an opponent has a bye."""
    seed = {p: i for i, p in enumerate(seed_order(entrants))}
    slots: list[int | None] = [None if p in withdrawn and not rounds else p for p in first_line(plan, entrants)]
    known = outcome_map(outcomes)
    lines: list[tuple[int | None, ...]] = []
    for rnd in rounds:
        lines.append(tuple(slots))
        table_of = {p: t for t in rnd.tables for p in t.players}
        following: list[int | None] = []
        for start in range(0, len(slots), plan.seats):
            block = [p for p in slots[start : start + plan.seats] if p is not None]
            tables = [table_of[p] for p in block if p in table_of]
            if tables:
                outcome = known.get((rnd.number, tables[0].number))
                if outcome is None:
                    return Bracket(tuple(lines), None)
                following.append(table_winner(tables[0], outcome, seed))
            else:
                following.append(next((p for p in block if p in rnd.byes), None))
        slots = following
    return Bracket(tuple(lines), tuple(None if p in withdrawn else p for p in slots))


def _active(entrants: Sequence[Entrant], withdrawn: frozenset[int]) -> list[int]:
    return [p for p in seed_order(entrants) if p not in withdrawn]


def is_over(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> bool:
    """True when no further round will be paired: all ``rounds_total`` rounds played to the end, or fewer than two
    players are left to pair (a knockout with one survivor, or none after a double no-show in the final)."""
    if unfinished(rounds, outcomes):
        return False
    if plan.format == "knockout":
        if not rounds:
            return len(_active(entrants, withdrawn)) < 2
        state = bracket(plan, entrants, rounds, outcomes, withdrawn)
        assert state.next_slots is not None
        return sum(p is not None for p in state.next_slots) < 2
    if len(_active(entrants, withdrawn)) < 2:
        return True
    return len(rounds) >= rounds_total(plan, len(entrants))


def standings(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> list[Standing]:
    """Every entrant's standing, best first (tables without an outcome yet count for nothing).

    Swiss: points, then Buchholz, then Sonneborn-Berger, then seed. Round-robin: points, Sonneborn-Berger,
    head-to-head, seed. Knockout: the round reached (the winner one beyond the last), then seed. Players equal
    on everything but the seed share a rank."""
    seeds = seed_order(entrants)
    seed = {p: i for i, p in enumerate(seeds)}
    records = tally(entrants, rounds, outcomes)
    eliminated: set[int] = set()
    breaks: dict[int, tuple[float, ...]] = {}
    if plan.format == "knockout":
        known = outcome_map(outcomes)
        reached = {p: 0 for p in seeds}
        for rnd in rounds:
            for p in rnd.players():
                reached[p] = rnd.number
            for table in rnd.tables:
                outcome = known.get((rnd.number, table.number))
                if outcome is not None:
                    winner = table_winner(table, outcome, seed)
                    eliminated.update(p for p in table.players if p != winner)
        eliminated.update(withdrawn)
        if rounds and is_over(plan, entrants, rounds, outcomes, withdrawn):
            for p in seeds:
                if p not in eliminated:
                    reached[p] = len(rounds) + 1
        breaks = {p: (float(reached[p]),) for p in seeds}
        # still in beats out at the same round (before the next round is paired)
        keys = {p: (*breaks[p], float(p not in eliminated)) for p in seeds}
    else:
        firsts: dict[int, tuple[float, ...]] = {}
        for p in seeds:
            if plan.format == "swiss":
                firsts[p] = (buchholz(p, records), sonneborn_berger(p, records))
            else:
                firsts[p] = (sonneborn_berger(p, records),)
        if plan.format == "round_robin":
            groups: dict[tuple[float, ...], set[int]] = {}
            for p in seeds:
                groups.setdefault((records[p].points, *firsts[p]), set()).add(p)
            for p in seeds:
                group = groups[(records[p].points, *firsts[p])]
                firsts[p] = (*firsts[p], head_to_head(p, group, records))
        breaks = firsts
        keys = {p: (records[p].points, *breaks[p]) for p in seeds}
    order = sorted(seeds, key=lambda p: (tuple(-k for k in keys[p]), seed[p]))
    result: list[Standing] = []
    for i, p in enumerate(order):
        rank = result[-1].rank if i and keys[order[i - 1]] == keys[p] else i + 1
        record = records[p]
        result.append(
            Standing(
                player=p,
                rank=rank,
                points=record.points,
                tiebreaks=breaks[p],
                wins=record.wins,
                played=record.played,
                byes=record.byes,
                eliminated=p in eliminated,
                withdrawn=p in withdrawn,
            )
        )
    return result


def winners(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """The players ranked 1 once ``is_over`` (usually one; a Swiss/round-robin tie on every tie-break shares it;
    a knockout whose final was a double no-show has none); () until then."""
    if not rounds or not is_over(plan, entrants, rounds, outcomes, withdrawn):
        return ()
    if plan.format == "knockout":
        state = bracket(plan, entrants, rounds, outcomes, withdrawn)
        assert state.next_slots is not None
        return tuple(p for p in state.next_slots if p is not None)
    return tuple(s.player for s in standings(plan, entrants, rounds, outcomes, withdrawn) if s.rank == 1)
