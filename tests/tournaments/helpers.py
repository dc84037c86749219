"""Playing whole tournaments in tests: entrants, and a loop that pairs rounds and records outcomes."""

from __future__ import annotations

from collections.abc import Callable

from bot.tournaments import Entrant, Outcome, Pairing, Plan, Round, is_over, pair_round

Decide = Callable[[Round, Pairing], Outcome]


def entrants(count: int) -> list[Entrant]:
    """Players 1..count, seeded in that order (player 1 the highest rating)."""
    return [Entrant(p, 1000.0 - p, float(p)) for p in range(1, count + 1)]


def seed_wins(rnd: Round, table: Pairing) -> Outcome:
    """The better seed (lower id) takes the better place."""
    return Outcome(rnd.number, table.number, {p: i + 1 for i, p in enumerate(sorted(table.players))})


def play(
    plan: Plan, people: list[Entrant], decide: Decide = seed_wins, withdrawn: frozenset[int] = frozenset()
) -> tuple[list[Round], list[Outcome]]:
    rounds: list[Round] = []
    outcomes: list[Outcome] = []
    while not is_over(plan, people, rounds, outcomes, withdrawn):
        rnd = pair_round(plan, people, rounds, outcomes, withdrawn)
        assert rnd.number == len(rounds) + 1
        rounds.append(rnd)
        outcomes.extend(decide(rnd, table) for table in rnd.tables)
        assert len(rounds) <= 64, "the tournament never ends"
    return rounds, outcomes
