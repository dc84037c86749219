"""Random legal games (moves, time-outs and leavings, as the table service logs them) never crash the rules; an
achievement is only ever earned by a person seated in the game; the same record always earns the same."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.achievements import ACHIEVEMENTS, GameRecord, earned
from bot.achievements.model import replay
from bot.games import get_engine
from bot.games.dice import SeededDice
from tests.achievements.table import Table

# A few options per game that reach the rules' branches (two dice, modes of rounds, short games).
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "pig": [{"target": 20}, {"target": 30, "dice": 2}, {"target": 25, "dice": 2, "double_ones": "bust"}],
    "mia": [{"lives": 1}, {"lives": 2}, {"lives": 3}],
    "mex": [{"starting_lives": 1}, {"starting_lives": 3, "max_throws": 1}, {"starting_lives": 2}],
    "liar": [
        {"dice_per_player": 1},
        {"dice_per_player": 2, "mode": "lose_die"},
        {"dice_per_player": 2, "mode": "loot"},
        {"dice_per_player": 3, "mode": "lose_die", "max_rounds": 3},
    ],
    "mythic": [
        {"allow_two_players": True, "hands_by_players": "2:3,3:3,4:3,5:3,6:3"},
        {"hands_by_players": "2:8,3:4,4:3,5:3,6:3"},
    ],
}
GAMES = sorted(OPTIONS)


def random_game(game: str, players: int, options: dict[str, Any], seed: int, computers: set[int]) -> Table:
    """Random legal moves with seeded dice; now and then a seat's time-out, or a seat leaving."""
    rng = random.Random(seed)
    table = Table(game, players, options, computers=computers, dice=SeededDice(seed))
    while not table.over:
        seat = rng.choice(table.engine.to_act(table.state))
        roll = rng.random()
        if roll < 0.03:
            table.log(seat, "forfeit:leave")
        elif roll < 0.1:
            table.log(seat, "timeout")
        else:
            table.log(seat, rng.choice(table.engine.legal_actions(table.state, seat)).encode())
    return table


def copy_of(record: GameRecord) -> GameRecord:
    """The same record rebuilt field by field, as a second read of the store would."""
    return GameRecord(
        record.game_id, record.game, dict(record.options), tuple(record.seats), tuple(record.moves), record.results
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), data=st.data())
def test_random_games_earn_only_for_seated_people_and_always_the_same(game, seed, data):
    options = data.draw(st.sampled_from(OPTIONS[game]))
    engine = get_engine(game)
    lo, hi = engine.player_range(engine.options(options))
    players = data.draw(st.integers(lo, min(hi, 6)))
    computers = set(data.draw(st.lists(st.integers(0, players - 1), max_size=players - 1)))
    table = random_game(game, players, options, seed, computers)
    record = table.record(game_id=seed)
    assert replay(record) is not None, "a logged game must replay to its end"
    found = earned(record)
    people = {seat.member_id for seat in record.seats if not seat.computer}
    assert set(found) <= people
    ids = {a.id for a in ACHIEVEMENTS if a.game == game}
    for achievements in found.values():
        assert achievements and set(achievements) <= ids
        assert len(set(achievements)) == len(achievements)
    assert earned(copy_of(record)) == found
    assert earned(record) == found


def test_a_table_of_computers_earns_nothing():
    table = random_game("pig", 2, {"target": 20}, 7, {0, 1})
    assert earned(table.record()) == {}


def test_a_record_that_does_not_replay_earns_nothing():
    table = random_game("pig", 2, {"target": 20}, 11, set())
    record = table.record()
    broken = GameRecord(record.game_id, record.game, record.options, record.seats, record.moves[:-1], record.results)
    assert replay(broken) is None
    assert earned(broken) == {}
