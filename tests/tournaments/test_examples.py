"""Named tournaments played by hand: the rounds, byes, no-shows and standings a player would see."""

from __future__ import annotations

import pytest

from bot.tournaments import (
    Entrant,
    Outcome,
    Pairing,
    Plan,
    Round,
    Standing,
    TournamentRefused,
    check_plan,
    is_over,
    pair_round,
    rounds_total,
    standings,
    tiebreak_names,
    winners,
)
from bot.tournaments.standings import bracket_positions
from tests.tournaments.helpers import entrants, play, seed_wins


def test_seeding_by_rating_then_joined_then_id() -> None:
    people = [Entrant(5, 10.0, 3.0), Entrant(4, 20.0, 9.0), Entrant(3, 10.0, 1.0), Entrant(2, 10.0, 1.0)]
    first = pair_round(Plan("knockout"), people, [], [])
    # seeds 4, 2, 3, 5: 1 v 4 and 2 v 3
    assert [t.players for t in first.tables] == [(4, 5), (2, 3)]


def test_five_player_swiss_with_a_bye() -> None:
    plan = Plan("swiss")
    people = entrants(5)
    assert rounds_total(plan, 5) == 3
    rounds, outcomes = play(plan, people)
    assert len(rounds) == 3
    first = rounds[0]
    assert first.byes == (5,)  # the lowest seed
    assert [t.players for t in first.tables] == [(1, 3), (2, 4)]  # top half v bottom half
    byes = [p for r in rounds for p in r.byes]
    assert len(byes) == len(set(byes)) == 3
    table = standings(plan, people, rounds, outcomes)
    assert table[0].player == 1 and table[0].points == 3.0 and table[0].rank == 1
    bye_holder = next(s for s in table if s.player == 5)
    assert bye_holder.byes == 1 and bye_holder.points >= 1.0
    assert winners(plan, people, rounds, outcomes) == (1,)
    assert tiebreak_names(plan) == ("buchholz", "sonneborn_berger")


def test_eight_player_knockout() -> None:
    plan = Plan("knockout")
    people = entrants(8)
    assert bracket_positions(8, 2) == [1, 8, 4, 5, 2, 7, 3, 6]
    rounds, outcomes = play(plan, people)
    assert [[t.players for t in r.tables] for r in rounds] == [
        [(1, 8), (4, 5), (2, 7), (3, 6)],
        [(1, 4), (2, 3)],
        [(1, 2)],
    ]
    assert winners(plan, people, rounds, outcomes) == (1,)
    ranks = {s.player: s.rank for s in standings(plan, people, rounds, outcomes)}
    assert ranks == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}


def test_six_player_knockout_gives_the_top_two_seeds_byes() -> None:
    plan = Plan("knockout")
    people = entrants(6)
    first = pair_round(plan, people, [], [])
    assert first.byes == (1, 2)
    assert [t.players for t in first.tables] == [(4, 5), (3, 6)]
    rounds, outcomes = play(plan, people)
    assert len(rounds) == rounds_total(plan, 6) == 3
    assert winners(plan, people, rounds, outcomes) == (1,)
    top = standings(plan, people, rounds, outcomes)[0]
    assert top.byes == 1 and top.points == 3.0 and not top.eliminated


def test_a_no_show_loses_and_scores_nothing() -> None:
    plan = Plan("knockout")
    people = entrants(4)
    first = pair_round(plan, people, [], [])
    assert [t.players for t in first.tables] == [(1, 4), (2, 3)]
    outcomes = [Outcome(1, 1, {4: 1}, frozenset({1})), seed_wins(first, first.tables[1])]
    second = pair_round(plan, people, [first], outcomes)
    assert [t.players for t in second.tables] == [(4, 2)]
    table = {s.player: s for s in standings(plan, people, [first], outcomes)}
    assert table[1].eliminated and table[1].points == 0.0 and table[1].played == 0
    assert table[4].points == 1.0 and table[4].wins == 1


def test_a_double_no_show_sends_nobody_on_and_the_opponent_has_a_bye() -> None:
    plan = Plan("knockout")
    people = entrants(8)
    first = pair_round(plan, people, [], [])
    assert first.tables[1].players == (4, 5)
    outcomes = [seed_wins(first, t) for t in first.tables]
    outcomes[1] = Outcome(1, 2, {}, frozenset({4, 5}))
    second = pair_round(plan, people, [first], outcomes)
    assert [t.players for t in second.tables] == [(2, 3)] and second.byes == (1,)
    table = {s.player: s for s in standings(plan, people, [first], outcomes)}
    assert table[4].points == table[5].points == 0.0 and table[4].eliminated and table[5].eliminated
    assert table[4].rank == table[5].rank == 4  # behind 1, 2 and 3, who are still in


def test_a_double_no_show_leaving_one_player_ends_the_knockout() -> None:
    plan = Plan("knockout")
    people = entrants(4)
    first = pair_round(plan, people, [], [])
    outcomes = [Outcome(1, 1, {}, frozenset({1, 4})), seed_wins(first, first.tables[1])]
    assert is_over(plan, people, [first], outcomes)
    assert winners(plan, people, [first], outcomes) == (2,)
    assert standings(plan, people, [first], outcomes)[0].player == 2


def test_a_double_no_show_in_the_final_has_no_winner() -> None:
    plan = Plan("knockout")
    people = entrants(2)
    first = pair_round(plan, people, [], [])
    outcomes = [Outcome(1, 1, {}, frozenset({1, 2}))]
    assert is_over(plan, people, [first], outcomes)
    assert winners(plan, people, [first], outcomes) == ()


def test_a_withdrawn_swiss_player_is_not_paired_and_keeps_points() -> None:
    plan = Plan("swiss", rounds=3)
    people = entrants(6)
    first = pair_round(plan, people, [], [])
    outcomes = [seed_wins(first, t) for t in first.tables]
    gone = frozenset({1})
    second = pair_round(plan, people, [first], outcomes, gone)
    assert 1 not in second.players() and len(second.byes) == 1
    assert sorted(second.players()) == [2, 3, 4, 5, 6]
    row = next(s for s in standings(plan, people, [first], outcomes, gone) if s.player == 1)
    assert row.withdrawn and row.points == 1.0


def test_a_withdrawn_knockout_player_gives_the_opponent_a_bye() -> None:
    plan = Plan("knockout")
    people = entrants(8)
    first = pair_round(plan, people, [], [])
    outcomes = [seed_wins(first, t) for t in first.tables]
    second = pair_round(plan, people, [first], outcomes, frozenset({4}))
    assert [t.players for t in second.tables] == [(2, 3)] and second.byes == (1,)
    row = next(s for s in standings(plan, people, [first], outcomes, frozenset({4})) if s.player == 4)
    assert row.withdrawn and row.eliminated and row.points == 1.0


def test_a_withdrawal_leaving_one_player_ends_the_knockout() -> None:
    plan = Plan("knockout")
    people = entrants(4)
    first = pair_round(plan, people, [], [])
    outcomes = [seed_wins(first, t) for t in first.tables]
    assert is_over(plan, people, [first], outcomes, frozenset({2}))
    assert winners(plan, people, [first], outcomes, frozenset({2})) == (1,)


def test_round_robin_five_players() -> None:
    plan = Plan("round_robin")
    people = entrants(5)
    rounds, outcomes = play(plan, people)
    assert len(rounds) == 5
    assert sorted(p for r in rounds for p in r.byes) == [1, 2, 3, 4, 5]
    table = standings(plan, people, rounds, outcomes)
    assert [s.points for s in table] == [5.0, 4.0, 3.0, 2.0, 1.0]  # 4 wins or fewer, plus the bye
    assert tiebreak_names(plan) == ("sonneborn_berger", "head_to_head")


def test_round_robin_head_to_head_breaks_a_tie() -> None:
    plan = Plan("round_robin")
    people = entrants(3)
    rounds = [pair_round(plan, people, [], [])]
    # a cycle: everyone ends with one win and one bye; the shares come from who beat whom
    beats = {(1, 2): 1, (2, 3): 2, (1, 3): 3}
    outcomes: list[Outcome] = []
    while True:
        rnd = rounds[-1]
        for t in rnd.tables:
            a, b = sorted(t.players)
            w = beats[(a, b)]
            outcomes.append(Outcome(rnd.number, t.number, {w: 1, (b if w == a else a): 2}))
        if is_over(plan, people, rounds, outcomes):
            break
        rounds.append(pair_round(plan, people, rounds, outcomes))
    table = standings(plan, people, rounds, outcomes)
    assert {s.points for s in table} == {2.0}
    assert [s.rank for s in table] == [1, 1, 1]  # equal on everything: shared, listed by seed
    assert [s.player for s in table] == [1, 2, 3]


def test_multi_seat_points_sum_like_pairwise_games() -> None:
    plan = Plan("swiss", seats=4)
    people = entrants(4)
    first = pair_round(plan, people, [], [])
    assert len(first.tables) == 1 and len(first.tables[0].players) == 4
    outcome = Outcome(1, 1, {1: 1, 2: 2, 3: 2}, frozenset({4}))
    points = {s.player: s.points for s in standings(plan, people, [first], [outcome])}
    assert points[1] == 1.0 and points[2] == points[3] == 0.5 and points[4] == 0.0
    assert sum(points.values()) == 2.0  # 6 pairs, 4 decided and ... the no-show scores nothing


def test_pairing_refuses_while_a_table_is_open_or_when_over() -> None:
    plan = Plan("knockout")
    people = entrants(2)
    first = pair_round(plan, people, [], [])
    with pytest.raises(ValueError):
        pair_round(plan, people, [first], [])
    outcomes = [seed_wins(first, first.tables[0])]
    with pytest.raises(ValueError):
        pair_round(plan, people, [first], outcomes)


@pytest.mark.parametrize(
    ("plan", "count", "code"),
    [
        (Plan("ladder"), 4, "format"),
        (Plan("swiss", seats=1), 4, "seats"),
        (Plan("swiss", seats=7), 4, "seats"),
        (Plan("round_robin", seats=3), 4, "round_robin_seats"),
        (Plan("swiss"), 1, "entrants"),
        (Plan("swiss", rounds=0), 4, "rounds"),
        (Plan("swiss", rounds=4), 4, "rounds"),
        (Plan("knockout", rounds=2), 5, "rounds"),
        (Plan("round_robin", rounds=3), 5, "rounds"),
    ],
)
def test_impossible_plans_are_refused(plan: Plan, count: int, code: str) -> None:
    with pytest.raises(TournamentRefused) as caught:
        check_plan(plan, count, max_seats=6)
    assert caught.value.code == code


def test_possible_plans_pass() -> None:
    check_plan(Plan("swiss", rounds=3), 4, max_seats=2)
    check_plan(Plan("knockout", seats=4, rounds=2), 9, max_seats=6)
    check_plan(Plan("round_robin"), 7, max_seats=6)
    assert rounds_total(Plan("swiss", seats=3), 10) == 3
    assert rounds_total(Plan("round_robin"), 6) == 5


def test_json_round_trips_of_each_kind() -> None:
    values = [
        Plan("swiss", 3, None),
        Entrant(7, 1500.5, 12.25),
        Pairing(2, (3, 1, 2)),
        Round(4, (Pairing(1, (1, 2)),), (5,)),
        Outcome(2, 1, {1: 1, 2: 1}, frozenset({3})),
        Standing(1, 2, 2.5, (4.0, 3.25), 2, 3, 1, False, True),
    ]
    for value in values:
        assert type(value).from_json(value.to_json()) == value  # type: ignore[attr-defined]
