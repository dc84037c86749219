"""Dice statistics (issue 27, bot.store.dice_stats) on both backends: a known set of recorded games counted per face
and per seat, the χ² p-value, a member's luck, seasons, compacted and cancelled games, and counting in batches.

The games are played here by the engines with seeded dice and written as the table service writes them (a games
row, its actions with their dice JSON, its results); what each test expects is counted straight from the dice
calls recorded while playing, never through the code under test.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from bot.games import get_engine
from bot.games.dice import RecordingDice, SeededDice
from bot.jsontext import dumps
from bot.store import dice_stats, open_store, repo
from bot.store.ratings import Season

GUILD, OTHER = 7, 8
ALICE, BOB, CAROL = 100, 200, 300
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}


@dataclass
class Played:
    id: int
    game: str
    seats: list[int]
    moves: list[tuple[int | None, str, list[list[Any]]]]  # (seat, action, dice calls)

    def rolls(self, seat: int | None = None) -> list[list[int]]:
        """The faces of every six-sided roll, or of those ``seat`` made as its own move."""
        return [c[2] for s, _, calls in self.moves if seat is None or s == seat for c in calls if c[0] == "r"]


def play(game: str, players: int, seed: int, options: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
    """A whole game between random movers, its moves as the service logs them: (seat, action, dice calls)."""
    engine = get_engine(game)
    rng = random.Random(seed)
    dice = RecordingDice(SeededDice(seed))
    state, _ = engine.new_game(players, engine.options(options or {}), dice)
    moves: list[tuple[Any, ...]] = [(None, "start", dice.take())]
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        # Pig: roll until 8 are at stake, so games end; elsewhere any legal move
        action = legal[0] if game == "pig" and state.turn_total < 8 else rng.choice(legal)
        state, _ = engine.apply(state, seat, action, dice)
        moves.append((seat, action.encode(), dice.take()))
    return moves


async def record(
    store: Any,
    game: str,
    seats: list[int],
    seed: int,
    *,
    guild: int = GUILD,
    status: str = "finished",
    finished_at: float = 1_000.0,
    options: dict[str, Any] | None = None,
) -> Played:
    """Play and store one game as the table service leaves it (results for a finished one)."""
    moves = play(game, len(seats), seed, options)
    seat_rows = [{"id": user, "name": NAMES[user]} for user in seats]
    row = {
        "guild_id": guild,
        "channel_id": seed,
        "game": game,
        "status": status,
        "host_id": seats[0],
        "options": options or {},
        "seats": seat_rows,
        "now": finished_at,
    }
    (game_id,) = await store.write([repo.insert_game(row)])
    statements = [
        repo.insert_action(game_id, seq, seat, action, None, finished_at, dumps(calls) if calls else None)
        for seq, (seat, action, calls) in enumerate(moves, start=1)
    ]
    if status == "finished":
        statements += [
            repo.insert_result(
                game_id, guild, game, user, False, place, 0, "win" if place == 1 else "loss", finished_at
            )
            for place, user in enumerate(seats, start=1)
        ]
    await store.write(statements)
    return Played(game_id, game, seats, [(s, a, c) for s, a, c in moves])


def faces(rolls: list[list[int]]) -> list[int]:
    counted = Counter(face for roll in rolls for face in roll)
    return [counted[face] for face in range(1, 7)]


@pytest.fixture
async def store(database):
    store = await open_store(database)
    yield store
    await store.close()


@pytest.fixture
async def tavern(store):
    """Four Pig games (Alice and Bob, in both seat orders), a Liar's Dice round for three, a Mia game, a Mythical
    Dice game; one Pig game compacted by retention. A cancelled game and another server's game stay out."""
    played = [
        await record(store, "pig", [ALICE, BOB], 1),
        await record(store, "pig", [BOB, ALICE], 2),
        await record(store, "pig", [ALICE, BOB], 3),
        await record(store, "pig", [BOB, ALICE], 4),
        await record(store, "liar", [ALICE, BOB, CAROL], 5),
        await record(store, "mia", [CAROL, ALICE, BOB], 6),
        await record(store, "mythic", [ALICE, BOB, CAROL], 7),
    ]
    await store.write(repo.compact_game(played[3].id))
    await record(store, "pig", [ALICE, BOB], 8, status="cancelled")
    await record(store, "pig", [ALICE, BOB], 9, guild=OTHER)
    return played


async def test_every_finished_games_dice_are_counted_per_face_with_the_chi_square_p_value(store, tavern):
    assert await dice_stats.uncounted(store, GUILD) == len(tavern)
    assert await dice_stats.catch_up(store, GUILD) == 0
    assert await dice_stats.uncounted(store, GUILD) == 0

    stats = await dice_stats.totals(store, GUILD)
    assert stats.games == len(tavern)
    assert stats.faces == faces([r for p in tavern for r in p.rolls()])  # the compacted game's dice too
    # This set of games, fixed by its seeds: the counts, and the p-value SciPy 1.17.1's chisquare gives for them.
    assert stats.faces == [72, 68, 74, 76, 69, 60]
    test = dice_stats.chi_square(stats.faces)
    assert test is not None and test.dof == 5
    assert test.statistic == pytest.approx(2.3031026252983295, rel=1e-12)
    assert test.p == pytest.approx(0.8058110706726788, rel=1e-9)

    by_game = {g.game: g for g in stats.by_game}
    assert set(by_game) == {"pig", "liar", "mia", "mythic"}
    assert by_game["pig"].games == 4
    assert by_game["pig"].tally.faces == faces([r for p in tavern if p.game == "pig" for r in p.rolls()])
    pig = await dice_stats.totals(store, GUILD, game="pig")
    assert [g.game for g in pig.by_game] == ["pig"] and pig.faces == by_game["pig"].tally.faces
    assert (await dice_stats.totals(store, OTHER)).games == 0  # not counted until that server asks


async def test_a_members_dice_and_luck_are_their_seats_own(store, tavern):
    await dice_stats.catch_up(store, GUILD)
    alice = await dice_stats.totals(store, GUILD, member_id=ALICE)
    by_game = {g.game: g for g in alice.by_game}

    # Pig: every roll is the roller's own move; luck = rolls with a 1 (a bust) against 1/6 of the rolls.
    pigs = [p for p in tavern if p.game == "pig"]
    rolls = [r for p in pigs for r in p.rolls(p.seats.index(ALICE))]
    pig = by_game["pig"].tally
    assert by_game["pig"].games == 4 and pig.faces == faces(rolls)
    assert (pig.trials, pig.hits) == (len(rolls), sum(1 in r for r in rolls))
    assert pig.expected == pytest.approx(len(rolls) / 6)

    # Liar's Dice, one round: the deal rolls each seat's hand in seat order, all in the start move.
    (liar_game,) = [p for p in tavern if p.game == "liar"]
    hand = liar_game.rolls()[liar_game.seats.index(ALICE)]
    liar = by_game["liar"].tally
    assert liar.faces == faces([hand])
    assert (liar.trials, liar.hits) == (1, int(len(set(hand)) < len(hand)))
    assert liar.expected == pytest.approx(1 - math.perm(6, 5) / 6**5)

    # Everyone's dice add up to the server's, less the dice that were no one seat's (none in these games).
    everyone = [await dice_stats.totals(store, GUILD, member_id=m) for m in (ALICE, BOB, CAROL)]
    assert [sum(x) for x in zip(*(s.faces for s in everyone), strict=True)] == (
        await dice_stats.totals(store, GUILD)
    ).faces
    assert (await dice_stats.totals(store, GUILD, member_id=999)).games == 0


async def test_mia_round_starts_are_the_starters_dice_and_mex_counts_only_two_dice_throws():
    # Mia: the bot rolls for each round's starter; the move that ended the round was someone else's.
    moves = play("mia", 3, 6)
    tallies = dice_stats.tally_game("mia", 3, {}, moves)
    assert sum(t.dice for t in tallies.values()) == sum(
        len(c[2]) for _, _, calls in moves for c in calls if c[0] == "r"
    )
    assert tallies[dice_stats.NO_SEAT].dice == 0  # every roll had its seat
    assert sum(t.trials for t in tallies.values()) == sum(1 for _, _, calls in moves for c in calls if c[0] == "r")
    # Mex: a throw beside a held die is one die and no Mex chance of its own.
    mex = dice_stats.tally_game("mex", 3, {}, play("mex", 3, 11))
    two_dice = sum(1 for _, _, calls in play("mex", 3, 11) for c in calls if c[0] == "r" and len(c[2]) == 2)
    assert sum(t.trials for t in mex.values()) == two_dice


def test_a_record_that_stops_replaying_still_counts_its_dice_as_no_seats():
    moves = play("pig", 2, 3)
    broken = [moves[0], (0, "nonsense", [["r", 6, [4]]]), *moves[1:]]
    tallies = dice_stats.tally_game("pig", 2, {}, broken)
    assert sum(t.dice for t in tallies.values()) == 1 + sum(
        len(c[2]) for _, _, calls in moves for c in calls if c[0] == "r"
    )
    assert tallies[dice_stats.NO_SEAT].faces[3] >= 1 and tallies[dice_stats.NO_SEAT].trials == 0


async def test_a_season_holds_the_games_finished_in_it(store):
    early = await record(store, "pig", [ALICE, BOB], 1, finished_at=100.0)
    late = await record(store, "pig", [ALICE, BOB], 2, finished_at=500.0)
    await dice_stats.catch_up(store, GUILD)
    first, spring = Season(0, None, 50.0, 300.0), Season(1, "Spring", 300.0, None)
    assert (await dice_stats.totals(store, GUILD, season=first)).faces == faces(early.rolls())
    assert (await dice_stats.totals(store, GUILD, season=spring)).faces == faces(late.rolls())
    assert (await dice_stats.totals(store, GUILD, member_id=BOB, season=spring)).faces == faces(late.rolls(1))


async def test_counting_stops_at_its_budget_and_goes_on_later_each_game_once(store):
    played = [await record(store, "pig", [ALICE, BOB], seed) for seed in range(1, 6)]
    ticks = iter(range(100))
    left = await dice_stats.catch_up(store, GUILD, budget=0.5, clock=lambda: float(next(ticks)), batch=2)
    assert left == 3  # one batch of two, then the budget was spent
    assert (await dice_stats.totals(store, GUILD)).games == 2
    assert await dice_stats.catch_up(store, GUILD, batch=2) == 0
    assert await dice_stats.catch_up(store, GUILD, batch=2) == 0  # nothing twice
    stats = await dice_stats.totals(store, GUILD)
    assert stats.games == 5 and stats.faces == faces([r for p in played for r in p.rolls()])
    rows = (await store.fetch_one("SELECT COUNT(*) FROM dice_tallies WHERE seat = -1"))[0]
    assert rows == 5


def test_the_chi_square_p_value_equals_scipys():
    # Reference values from scipy.stats.chisquare (SciPy 1.17.1), which the bot does not install.
    for observed, statistic, p in [
        ([10, 12, 8, 9, 11, 10], 1.0, 0.9625657732472964),
        ([100, 120, 80, 90, 110, 100], 10.0, 0.07523524614651217),
        ([5, 5, 5, 5, 5, 35], 75.0, 9.3029518094026e-15),
        ([170, 160, 180, 150, 190, 150], 8.0, 0.1562356275777222),
    ]:
        test = dice_stats.chi_square(observed)
        assert test is not None and test.statistic == pytest.approx(statistic) and test.dof == 5
        assert test.p == pytest.approx(p, rel=1e-9)
    assert dice_stats.chi_square([4, 5, 6, 5, 5, 4]) is None  # under 5 expected a face: no test


async def test_the_step_for_a_games_finish_counts_it_as_a_look_would(store):
    played = await record(store, "liar", [ALICE, BOB, CAROL], 5, options={"mode": "lose_die"})
    cancelled = await record(store, "pig", [ALICE, BOB], 8, status="cancelled")
    await store.write([dice_stats.count_step(played.id), dice_stats.count_step(cancelled.id)])
    query = "SELECT * FROM dice_tallies ORDER BY game_id, seat"
    at_the_end = [tuple(r) for r in await store.fetch_all(query)]
    assert {r[0] for r in at_the_end} == {played.id} and len(at_the_end) == 4  # no seat's row and three seats
    assert await dice_stats.catch_up(store, GUILD) == 0 and await dice_stats.uncounted(store, GUILD) == 0
    await store.write([("DELETE FROM dice_tallies", ())])
    await dice_stats.catch_up(store, GUILD)
    assert [tuple(r) for r in await store.fetch_all(query)] == at_the_end
    # Several rounds: each deal's hands are their seats' (the three add up to every die rolled).
    seats = (await dice_stats.totals(store, GUILD, member_id=m) for m in (ALICE, BOB, CAROL))
    assert sum([s.dice async for s in seats]) == sum(len(r) for r in played.rolls())
