"""Random tournaments played to the end (issue 28): whatever the plan, the outcomes, the no-shows and the
withdrawals, the pairings and standings keep the rules of docs/TOURNAMENTS.md.

Everything checked against the engine is recomputed here from the rounds and outcomes alone: the players left in a
knockout, the points and Buchholz, and (by brute force on small fields) whether a repeat or a second bye could have
been avoided. Nothing below calls ``bot.tournaments.standings``' helpers.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    Entrant,
    Outcome,
    Pairing,
    Plan,
    Round,
    Standing,
    check_plan,
    is_over,
    pair_round,
    rounds_total,
    standings,
    winners,
)
from bot.tournaments.model import max_rounds

BRUTE_FORCE_UP_TO = 12  # active players: the exact minimum of repeats is a bitmask search over 2**12 sets at most


@dataclass
class Game:
    """A random tournament: its plan and entrants, and the dice for every outcome and withdrawal."""

    plan: Plan
    entrants: list[Entrant]
    rng: random.Random
    no_show: float  # the chance that one player does not show at a table
    nobody: float  # the chance that nobody at a table shows
    leave: float  # the chance, before each round, that one active player withdraws
    rounds: list[Round] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    withdrawn: set[int] = field(default_factory=set)
    # who had withdrawn when each round was paired (the engine is always given the set as it is then)
    gone_at: list[frozenset[int]] = field(default_factory=list)


def _seed_key(e: Entrant) -> tuple[float, float, int]:
    return (-e.rating, e.joined, e.player)


@st.composite
def games(
    draw: st.DrawFn,
    formats: Sequence[str] = ("swiss", "knockout", "round_robin"),
    most: int = 64,
    pairs: bool = False,
) -> Game:
    """A random plan of one of ``formats`` for 2..``most`` entrants (``pairs``: two seats, and as many rounds
    as a Swiss may have, so that repeats and second byes become hard to avoid)."""
    fmt = draw(st.sampled_from(formats))
    count = draw(st.integers(min_value=2, max_value=most))
    seats = 2 if fmt == "round_robin" or pairs else draw(st.integers(min_value=2, max_value=6))
    rounds: int | None = None
    if pairs and fmt == "swiss":
        rounds = max_rounds(Plan("swiss"), count)
    elif fmt == "swiss" and draw(st.booleans()):
        # long Swiss runs on small fields (where repeats become unavoidable); a few rounds on big ones
        top = max_rounds(Plan("swiss", seats), count) if count <= 12 else min(10, max_rounds(Plan("swiss"), count))
        rounds = draw(st.integers(min_value=1, max_value=top))
    plan = Plan(fmt, seats, rounds)
    check_plan(plan, count, max_seats=6)
    ids = draw(st.lists(st.integers(min_value=1, max_value=10**9), min_size=count, max_size=count, unique=True))
    # few distinct ratings, so seeding often falls through to joined and the id
    ratings = draw(st.lists(st.sampled_from([0.0, 1000.0, 1012.5, 1200.0, -3.25]), min_size=count, max_size=count))
    joined = draw(st.lists(st.integers(min_value=0, max_value=5), min_size=count, max_size=count))
    people = [Entrant(p, r, float(j)) for p, r, j in zip(ids, ratings, joined, strict=True)]
    return Game(
        plan,
        people,
        random.Random(draw(st.integers(min_value=0, max_value=2**32))),
        no_show=draw(st.sampled_from([0.0, 0.1, 0.3])),
        nobody=draw(st.sampled_from([0.0, 0.05, 0.2])),
        leave=draw(st.sampled_from([0.0, 0.0, 0.1, 0.3])),
    )


def random_outcome(game: Game, rnd: Round, table: Pairing) -> Outcome:
    rng = game.rng
    if rng.random() < game.nobody:
        return Outcome(rnd.number, table.number, {}, frozenset(table.players))
    absent = frozenset(p for p in table.players if rng.random() < game.no_show)
    present = [p for p in table.players if p not in absent]
    scores = {p: rng.randint(1, len(table.players)) for p in present}  # equal scores tie
    places = {p: 1 + sum(scores[o] < scores[p] for o in present) for p in present}
    return Outcome(rnd.number, table.number, places, absent)


def play(game: Game, check_round: bool = True) -> None:
    """Pair, check and decide rounds until the engine says the tournament is over."""
    plan, people = game.plan, game.entrants
    total = rounds_total(plan, len(people))
    while True:
        if game.rounds and game.rng.random() < game.leave:
            active = sorted(e.player for e in people if e.player not in game.withdrawn)
            game.withdrawn.add(game.rng.choice(active))
        gone = frozenset(game.withdrawn)
        over = is_over(plan, people, game.rounds, game.outcomes, gone)
        assert over == expected_over(game, gone)
        if over:
            break
        rnd = pair_round(plan, people, game.rounds, game.outcomes, gone)
        assert rnd == pair_round(plan, people, game.rounds, game.outcomes, gone)  # same inputs, same round
        assert rnd == pair_round(*reloaded(game, gone))  # ... and after a restart from the stored JSON
        if check_round:
            check_pairing(game, rnd, gone)
        game.rounds.append(rnd)
        game.gone_at.append(gone)
        game.outcomes.extend(random_outcome(game, rnd, t) for t in rnd.tables)
        assert len(game.rounds) <= total, "more rounds than rounds_total"


def reloaded(
    game: Game, gone: frozenset[int]
) -> tuple[Plan, list[Entrant], list[Round], list[Outcome], frozenset[int]]:
    """The tournament as a store would give it back: every value through JSON text."""

    def again(value: object) -> object:
        return json.loads(json.dumps(value.to_json()))  # type: ignore[attr-defined]

    return (
        Plan.from_json(again(game.plan)),  # type: ignore[arg-type]
        [Entrant.from_json(again(e)) for e in game.entrants],  # type: ignore[arg-type]
        [Round.from_json(again(r)) for r in game.rounds],  # type: ignore[arg-type]
        [Outcome.from_json(again(o)) for o in game.outcomes],  # type: ignore[arg-type]
        gone,
    )


# -- an independent knockout: who is still in --------------------------------------------------------------------


def table_winner(game: Game, table: Pairing, outcome: Outcome) -> int | None:
    """The best place among the players who showed; a tie goes to the better seed."""
    seed = {e.player: _seed_key(e) for e in game.entrants}
    shown = [p for p in table.players if p in outcome.places]
    return min(shown, key=lambda p: (outcome.places[p], seed[p])) if shown else None


def survivors(game: Game) -> set[int]:
    """A knockout's players not yet out after the stored rounds (withdrawn ones not taken off)."""
    if not game.rounds:
        return {e.player for e in game.entrants}
    last = game.rounds[-1]
    known = {(o.round, o.table): o for o in game.outcomes}
    left = set(last.byes)
    for table in last.tables:
        winner = table_winner(game, table, known[(last.number, table.number)])
        if winner is not None:
            left.add(winner)
    return left


def expected_over(game: Game, gone: frozenset[int]) -> bool:
    if game.plan.format == "knockout":
        return len(survivors(game) - gone) < 2
    active = [e for e in game.entrants if e.player not in gone]
    return len(active) < 2 or len(game.rounds) >= rounds_total(game.plan, len(game.entrants))


# -- an independent Swiss check: the fewest repeats, by brute force -----------------------------------------------


def met_before(rounds: Sequence[Round]) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for rnd in rounds:
        for table in rnd.tables:
            for a, b in combinations(table.players, 2):
                met[frozenset((a, b))] += 1
    return met


def fewest_repeats(players: list[int], met: Counter[frozenset[int]]) -> dict[int | None, int]:
    """For each possible bye (None when the count is even): the fewest pairs that met before over every way of
    pairing the others. Exhaustive, over bitmasks of the players."""
    n = len(players)

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        found = n
        for j in range(i + 1, n):
            if rest >> j & 1:
                cost = (met[frozenset((players[i], players[j]))] > 0) + best(rest & ~(1 << j))
                found = min(found, cost)
        return found

    full = (1 << n) - 1
    if n % 2 == 0:
        return {None: best(full)}
    return {p: best(full & ~(1 << i)) for i, p in enumerate(players)}


# -- the per-round invariants -------------------------------------------------------------------------------------


def check_pairing(game: Game, rnd: Round, gone: frozenset[int]) -> None:
    plan = game.plan
    assert rnd.number == len(game.rounds) + 1
    assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))
    seated = rnd.players()
    assert len(seated) == len(set(seated)), "a player twice in one round"
    assert all(2 <= len(t.players) <= plan.seats for t in rnd.tables)
    field_ = survivors(game) if plan.format == "knockout" else {e.player for e in game.entrants}
    expected = field_ - gone
    # every active player at exactly one table or with a bye, nobody else
    assert set(seated) == expected
    if plan.format == "swiss":
        check_swiss(game, rnd)
    elif plan.format == "knockout":
        check_knockout(game, rnd)
    else:
        # a bye for the odd one out and for each partner of a withdrawn player
        assert len(rnd.byes) % 2 == len(expected) % 2
        assert len(rnd.byes) <= len(game.entrants) % 2 + len(gone)


def check_swiss(game: Game, rnd: Round) -> None:
    active = sorted(rnd.players())
    if game.plan.seats > 2:
        sizes = [len(t.players) for t in rnd.tables]
        assert not rnd.byes and max(sizes) - min(sizes) <= 1
        assert len(rnd.tables) == -(-len(active) // game.plan.seats)
        return
    assert len(rnd.byes) == len(active) % 2  # one bye at most, only for an odd count
    if len(active) > BRUTE_FORCE_UP_TO:
        return
    met = met_before(game.rounds)
    repeats = sum(met[frozenset(t.players)] > 0 for t in rnd.tables)
    options = fewest_repeats(active, met)
    fewest = min(options.values())
    assert repeats == fewest, f"{repeats} repeated pairs where {fewest} would do"
    byes = Counter(p for r in game.rounds for p in r.byes)
    if rnd.byes and any(byes[p] == 0 and cost == fewest for p, cost in options.items()):
        assert byes[rnd.byes[0]] == 0, "a second bye that a first-time bye could have avoided"


def check_knockout(game: Game, rnd: Round) -> None:
    """The bracket has seats**L slots for L = rounds_total: round r has at most seats**(L - r + 1) players in at
    most seats**(L - r) tables, so the field shrinks by the factor ``seats`` each round (up to byes)."""
    plan, levels = game.plan, rounds_total(game.plan, len(game.entrants))
    assert rnd.number <= levels
    assert len(rnd.players()) <= plan.seats ** (levels - rnd.number + 1)
    assert len(rnd.tables) + len(rnd.byes) <= plan.seats ** (levels - rnd.number)


# -- the end: the whole-tournament invariants ---------------------------------------------------------------------


def recomputed_points(game: Game) -> tuple[dict[int, float], dict[int, float]]:
    """Points (a bye 1; at a table of k, each opponent beaten 1/(k-1), tied half that; a no-show 0 and beaten
    by all who showed) and Buchholz (the opponents' points, 1/(k-1) each; a bye adds the player's own)."""
    points = {e.player: 0.0 for e in game.entrants}
    opponents: dict[int, list[tuple[int, int]]] = {p: [] for p in points}
    byes = Counter(p for r in game.rounds for p in r.byes)
    known = {(o.round, o.table): o for o in game.outcomes}
    for p, count in byes.items():
        points[p] += count
    for rnd in game.rounds:
        for table in rnd.tables:
            outcome = known[(rnd.number, table.number)]
            k = len(table.players)
            for p in table.players:
                won = 0.0
                for o in table.players:
                    if o == p:
                        continue
                    opponents[p].append((o, k - 1))
                    if p not in outcome.places:
                        continue
                    if o not in outcome.places or outcome.places[p] < outcome.places[o]:
                        won += 1
                    elif outcome.places[p] == outcome.places[o]:
                        won += 0.5
                points[p] += won / (k - 1)
    buchholz = {p: sum(points[o] / d for o, d in opponents[p]) + byes[p] * points[p] for p in points}
    return points, buchholz


def check_end(game: Game) -> list[Standing]:
    plan, people, gone = game.plan, game.entrants, frozenset(game.withdrawn)
    table = standings(plan, people, game.rounds, game.outcomes, gone)
    assert sorted(s.player for s in table) == sorted(e.player for e in people)  # a permutation of the entrants
    assert len(game.rounds) <= rounds_total(plan, len(people))
    points, buchholz = recomputed_points(game)
    for s in table:
        assert s.points == pytest.approx(points[s.player], abs=1e-6)
        assert s.withdrawn == (s.player in gone)
        assert s.byes == sum(s.player in r.byes for r in game.rounds)
        if plan.format == "swiss":
            assert s.tiebreaks[0] == pytest.approx(buchholz[s.player], abs=1e-6)
    if plan.format == "knockout":
        keys = [(s.tiebreaks[0], not s.eliminated) for s in table]
    else:
        keys = [(s.points, *s.tiebreaks) for s in table]
    assert keys == sorted(keys, reverse=True), "not sorted by points, then the tie-breaks"
    for s, key in zip(table, keys, strict=True):
        assert s.rank == 1 + sum(other > key for other in keys)  # equal on everything: one shared rank
    won = winners(plan, people, game.rounds, game.outcomes, gone)
    if plan.format == "knockout":
        check_knockout_end(game, table, won)
    else:
        assert won == tuple(s.player for s in table if s.rank == 1)
    if plan.format == "round_robin":
        check_round_robin_end(game)
    for value in [plan, *people, *game.rounds, *game.outcomes, *table]:
        text = json.dumps(value.to_json())  # type: ignore[attr-defined]
        assert type(value).from_json(json.loads(text)) == value  # type: ignore[attr-defined]
    return table


def check_knockout_end(game: Game, table: list[Standing], won: tuple[int, ...]) -> None:
    gone = frozenset(game.withdrawn)
    assert set(won) == survivors(game) - gone and len(won) <= 1
    if not won:
        return
    champion = won[0]
    assert table[0].player == champion and table[0].rank == 1 and not table[0].eliminated
    assert sum(not s.eliminated for s in table) == 1
    known = {(o.round, o.table): o for o in game.outcomes}
    for rnd in game.rounds:
        assert champion in rnd.players(), "the winner missed a round"
        for t in rnd.tables:
            if champion in t.players:  # the winner never lost: they showed and took the table
                assert table_winner(game, t, known[(rnd.number, t.number)]) == champion


def check_round_robin_end(game: Game) -> None:
    met = met_before(game.rounds)
    assert all(count == 1 for count in met.values()), "a pair met twice"
    stayed = sorted(e.player for e in game.entrants if e.player not in game.withdrawn)
    assert all(met[frozenset(pair)] == 1 for pair in combinations(stayed, 2)), "a pair never met"


# -- the properties -------------------------------------------------------------------------------------------------

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(games(formats=("swiss",)))
def test_random_swiss_tournaments_keep_the_rules(game: Game) -> None:
    play(game)
    check_end(game)


@SETTINGS
@given(games(formats=("swiss",), most=BRUTE_FORCE_UP_TO, pairs=True))
def test_small_swiss_never_repeats_or_gives_a_second_bye_when_avoidable(game: Game) -> None:
    play(game)
    check_end(game)


@SETTINGS
@given(games(formats=("knockout",)))
def test_random_knockouts_keep_the_rules(game: Game) -> None:
    play(game)
    check_end(game)


@SETTINGS
@given(games(formats=("round_robin",), most=24))
def test_random_round_robins_keep_the_rules(game: Game) -> None:
    play(game)
    check_end(game)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.integers(min_value=2, max_value=6))
def test_knockout_byes_go_to_the_top_seeds_and_the_favourites_meet_last(count: int, seats: int) -> None:
    """Seeded by rating with the better seed always winning: round 1's byes are the top seeds (in pairs, exactly
    the 2**L - n of them), and the final is the top ``seats`` seeds, so the favourites never meet before it."""
    plan = Plan("knockout", seats)
    people = [Entrant(p, 1000.0 - p, float(p)) for p in range(1, count + 1)]  # seed order = id order
    first = pair_round(plan, people, [], [])
    byes = sorted(first.byes)
    assert byes == list(range(1, len(byes) + 1))
    if seats == 2:
        assert len(byes) == 2 ** rounds_total(plan, count) - count
    rounds, outcomes = [first], [Outcome(1, t.number, {p: p for p in t.players}) for t in first.tables]
    while not is_over(plan, people, rounds, outcomes):
        rnd = pair_round(plan, people, rounds, outcomes)
        rounds.append(rnd)
        outcomes += [Outcome(rnd.number, t.number, {p: p for p in t.players}) for t in rnd.tables]
    final = rounds[-1]
    assert [sorted(t.players) for t in final.tables] == [list(range(1, min(seats, count) + 1))]
    assert winners(plan, people, rounds, outcomes) == (1,)


# -- regressions found by the properties ----------------------------------------------------------------------------


def test_buchholz_sums_thirds_exactly() -> None:
    """Four-seat tables score in thirds. Buchholz once summed the points already rounded to six digits, so a
    player whose opponents had 4 points between them showed 3.999999 (and could rank below an equal player)."""
    plan = Plan("swiss", seats=4, rounds=3)
    people = [Entrant(p, 1000.0 - p, float(p)) for p in range(1, 9)]
    rounds: list[Round] = []
    outcomes: list[Outcome] = []
    for _ in range(3):
        rnd = pair_round(plan, people, rounds, outcomes)
        rounds.append(rnd)
        # places in seat order: the first seat first
        outcomes += [Outcome(rnd.number, t.number, {p: i + 1 for i, p in enumerate(t.players)}) for t in rnd.tables]
    game = Game(plan, people, random.Random(0), 0.0, 0.0, 0.0, rounds, outcomes)
    _, expected = recomputed_points(game)
    row = {s.player: s for s in standings(plan, people, rounds, outcomes)}
    assert expected[1] == pytest.approx(4.0) and row[1].tiebreaks[0] == 4.0
    assert all(row[p].tiebreaks[0] == round(expected[p], 6) for p in row)


def test_the_brute_force_catches_an_avoidable_repeat_and_second_bye() -> None:
    """The Swiss check is not blind: a round repeating a pair, or giving a second bye, where neither was needed."""
    people = [Entrant(p, 1000.0 - p, float(p)) for p in range(1, 6)]
    first = Round(1, (Pairing(1, (1, 3)), Pairing(2, (2, 4))), (5,))
    game = Game(Plan("swiss", rounds=3), people, random.Random(0), 0.0, 0.0, 0.0, [first])
    with pytest.raises(AssertionError, match="repeated"):
        check_swiss(game, Round(2, (Pairing(1, (1, 3)), Pairing(2, (2, 5))), (4,)))
    with pytest.raises(AssertionError, match="second bye"):
        check_swiss(game, Round(2, (Pairing(1, (1, 2)), Pairing(2, (3, 4))), (5,)))
    check_swiss(game, Round(2, (Pairing(1, (1, 2)), Pairing(2, (3, 5))), (4,)))  # what the engine would do
