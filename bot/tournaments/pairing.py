"""Pairing the next round of a tournament (issue 28): Swiss (Dutch), knockout brackets, round-robin (circle).

Pure and deterministic; docs/TOURNAMENTS.md gives the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from bot.tournaments.model import Entrant, Outcome, Pairing, Plan, Round
from bot.tournaments.standings import Tally, bracket, is_over, knockout_round, seed_order, tally, unfinished

SEARCH_BUDGET = 20_000  # search steps per attempt; beyond it the attempt counts as failed (see _swiss_pairs)


def pair_round(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> Round:
    """The next round, number len(rounds) + 1, for the players not in ``withdrawn``.

    Raises ValueError when a table of an earlier round has no outcome yet, or when the tournament is over
    (``standings.is_over``). Same inputs, same round. Tables are numbered 1.. from the top: in order of their
    best player (Swiss, round-robin) or top to bottom of the bracket (knockout)."""
    if unfinished(rounds, outcomes):
        raise ValueError("a table of an earlier round has no outcome yet")
    if is_over(plan, entrants, rounds, outcomes, withdrawn):
        raise ValueError("the tournament is over")
    number = len(rounds) + 1
    if plan.format == "knockout":
        state = bracket(plan, entrants, rounds, outcomes, withdrawn)
        assert state.next_slots is not None
        return knockout_round(number, state.next_slots, plan.seats)
    if plan.format == "round_robin":
        return _round_robin(number, seed_order(entrants), withdrawn)
    return _swiss(plan, number, entrants, rounds, outcomes, withdrawn)


def _round_robin(number: int, seeds: list[int], withdrawn: frozenset[int]) -> Round:
    """Circle method over every entrant (withdrawn ones too, so the schedule never shifts): the first seed stays,
    the others turn one place a round; the partner of the empty seat (odd count) or of a withdrawn player has a
    bye. Seat order alternates from round to round."""
    circle: list[int | None] = list(seeds) + ([None] if len(seeds) % 2 else [])
    turn = (number - 1) % (len(circle) - 1)
    rest = circle[1:]
    line = [circle[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    pairs: list[tuple[int, ...]] = []
    byes: list[int] = []
    for i in range(len(line) // 2):
        a, b = line[i], line[len(line) - 1 - i]
        if (i + number) % 2 == 0:
            a, b = b, a
        present = [p for p in (a, b) if p is not None and p not in withdrawn]
        if len(present) == 2:
            pairs.append(tuple(present))
        elif present:
            byes.append(present[0])
    return _numbered(number, pairs, byes, seeds)


def _numbered(number: int, tables: list[tuple[int, ...]], byes: list[int], order: list[int]) -> Round:
    rank = {p: i for i, p in enumerate(order)}
    tables = sorted(tables, key=lambda t: min(rank[p] for p in t))
    return Round(
        number,
        tuple(Pairing(i + 1, t) for i, t in enumerate(tables)),
        tuple(sorted(byes, key=rank.__getitem__)),
    )


def _met(rounds: Sequence[Round]) -> Counter[frozenset[int]]:
    """How often each pair of players has sat at one table."""
    met: Counter[frozenset[int]] = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            met.update(frozenset(pair) for pair in combinations(table.players, 2))
    return met


def _swiss(
    plan: Plan,
    number: int,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int],
) -> Round:
    records = tally(entrants, rounds, outcomes)
    seeds = seed_order(entrants)
    seed = {p: i for i, p in enumerate(seeds)}
    # the current standing for pairing: points, then seed (as the Dutch system uses score, then rating)
    order = sorted((p for p in seeds if p not in withdrawn), key=lambda p: (-records[p].points, seed[p]))
    met = _met(rounds)
    if plan.seats > 2:
        return _numbered(number, _swiss_tables(order, plan.seats, met, number), [], order)
    pairs, bye = _swiss_pairs(order, records, met)
    firsts = Counter(t.players[0] for r in rounds for t in r.tables)
    seated = [(a, b) if firsts[a] <= firsts[b] else (b, a) for a, b in pairs]
    return _numbered(number, list(seated), [] if bye is None else [bye], order)


def dutch_ideal(order: list[int], records: dict[int, Tally]) -> dict[int, int]:
    """The unconstrained Dutch pairing of an even ``order``: each score group (with the one floated down from the
    group above, if any) split in a top and a bottom half, the i-th of the top meeting the i-th of the bottom; an
    odd group's lowest player floats down."""
    ideal: dict[int, int] = {}
    groups: dict[float, list[int]] = {}
    for p in order:
        groups.setdefault(records[p].points, []).append(p)
    floating: list[int] = []
    for points in sorted(groups, reverse=True):
        members = floating + groups[points]
        floating = [members.pop()] if len(members) % 2 else []
        half = len(members) // 2
        for top, bottom in zip(members[:half], members[half:], strict=True):
            ideal[top], ideal[bottom] = bottom, top
    return ideal


def _match(
    order: list[int], records: dict[int, Tally], met: Counter[frozenset[int]], allowed: int
) -> list[tuple[int, int]] | None:
    """A pairing of the even ``order`` with at most ``allowed`` repeated pairs, trying partners in Dutch
    preference (the ideal partner first, then the nearest in score, then in standing): a depth-first search that
    gives up after SEARCH_BUDGET steps. None if none was found."""
    if not order:
        return []
    ideal = dutch_ideal(order, records)
    position = {p: i for i, p in enumerate(order)}

    def preference(p: int) -> list[int]:
        target = ideal[p]
        goal = records[target].points
        return sorted(
            (o for o in order if o != p),
            key=lambda o: (abs(records[o].points - goal), abs(position[o] - position[target]), position[o]),
        )

    prefer = {p: preference(p) for p in order}
    free = set(order)
    chosen: list[tuple[int, int]] = []
    steps = 0

    def search(repeats: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > SEARCH_BUDGET:
            return False
        if not free:
            return True
        p = next(q for q in order if q in free)
        free.discard(p)
        for o in prefer[p]:
            if o not in free:
                continue
            cost = repeats + (met[frozenset((p, o))] > 0)
            if cost > allowed:
                continue
            free.discard(o)
            chosen.append((p, o))
            if search(cost):
                return True
            chosen.pop()
            free.add(o)
        free.add(p)
        return False

    return chosen if search(0) else None


def _swiss_pairs(
    order: list[int], records: dict[int, Tally], met: Counter[frozenset[int]]
) -> tuple[list[tuple[int, int]], int | None]:
    """Pairs of the Swiss round and its bye. First every choice with no repeated pair: the bye to the lowest
    player without one (going up the standing until the rest can be paired), then a second bye if only that
    avoids a repeat; then with one repeated pair allowed, and so on."""
    candidates: list[int | None] = [None]
    if len(order) % 2:
        bottom_up = order[::-1]
        candidates = [p for p in bottom_up if records[p].byes == 0]
        candidates += [p for p in bottom_up if records[p].byes > 0]
    for allowed in range(len(order) // 2 + 1):
        for bye in candidates:
            rest = [p for p in order if p != bye]
            pairs = _match(rest, records, met, allowed)
            if pairs is not None:
                return pairs, bye
    raise AssertionError("a pairing with every pair allowed to repeat always exists")


def _swiss_tables(order: list[int], seats: int, met: Counter[frozenset[int]], number: int) -> list[tuple[int, ...]]:
    """Tables of up to ``seats`` for a Swiss of more than two seats: as many tables as needed, sizes differing by
    at most one; filled from the top of the standing, each seat going to the highest player who adds the fewest
    repeated meetings, then improved by swapping players between tables while that lowers the repeats. Seat
    order turns by one place each round."""
    count = -(-len(order) // seats)
    sizes = [len(order) // count + (i < len(order) % count) for i in range(count)]
    free = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(free, key=lambda o: (sum(met[frozenset((o, p))] for p in table), free.index(o)))
            free.remove(best)
            table.append(best)
        tables.append(table)

    def repeats(table: list[int]) -> int:
        return sum(met[frozenset(pair)] for pair in combinations(table, 2))

    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    before = repeats(tables[a]) + repeats(tables[b])
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    if repeats(tables[a]) + repeats(tables[b]) < before:
                        improved = True
                    else:
                        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    rank = {p: k for k, p in enumerate(order)}
    seated: list[tuple[int, ...]] = []
    for table in tables:
        table.sort(key=rank.__getitem__)
        turn = (number - 1) % len(table)
        seated.append(tuple(table[turn:] + table[:turn]))
    return seated
