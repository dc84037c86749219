"""Whole tournaments played through the table service (issue 28), on both databases: a 5-player Swiss (a bye each
round) and a 6-player knockout (byes for the top seeds), every table a real Pig game. The final standings the
service announces equal an independent recomputation (``bot.tournaments.standings``) from the stored rows alone
(entrants, rounds, tables, and the games' ``results``); no Swiss pairing repeats; every game is rated as usual."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.store import tournaments as store_t
from bot.tables import Seat
from bot.tournaments import Entrant, Outcome, Pairing, Plan, Round, standings, winners
from tests.service.test_tournaments import CHANNEL, GUILD, Venue, close, play_table, services

PEOPLE = [Seat(100 * (i + 1), name) for i, name in enumerate(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])]


async def recomputed(store, tournament_id: int) -> tuple[Plan, list[Entrant], list[Round], list[Outcome], set[int]]:
    """The tournament as the stored rows say, read without the service: the plan, entrants (seeds), rounds (tables
    and byes) and each table's outcome from its game's ``results`` (place by member)."""
    (plan_text,) = await store.fetch_one("SELECT plan FROM tournaments WHERE id = ?", (tournament_id,))
    plan = Plan.from_json(json.loads(plan_text))
    entrants = [
        Entrant(int(r[0]), float(r[1]), float(r[2]))
        for r in await store.fetch_all(
            "SELECT user_id, rating, joined FROM tournament_entrants WHERE tournament_id = ?", (tournament_id,)
        )
    ]
    withdrawn = {
        int(r[0])
        for r in await store.fetch_all(
            "SELECT user_id FROM tournament_entrants WHERE tournament_id = ? AND withdrawn = 1", (tournament_id,)
        )
    }
    rounds, outcomes = [], []
    for number, byes in await store.fetch_all(
        "SELECT round, byes FROM tournament_rounds WHERE tournament_id = ? ORDER BY round", (tournament_id,)
    ):
        pairings = []
        for table, players, game_id in await store.fetch_all(
            "SELECT number, players, game_id FROM tournament_tables WHERE tournament_id = ? AND round = ?"
            " ORDER BY number",
            (tournament_id, number),
        ):
            seated = tuple(int(p) for p in json.loads(players))
            pairings.append(Pairing(int(table), seated))
            places = {
                int(u): int(p)
                for u, p in await store.fetch_all("SELECT user_id, place FROM results WHERE game_id = ?", (game_id,))
            }
            assert set(places) == set(seated), "every table was played to its end"
            outcomes.append(Outcome(int(number), int(table), places))
        rounds.append(Round(int(number), tuple(pairings), tuple(int(p) for p in json.loads(byes))))
    return plan, entrants, rounds, outcomes, withdrawn


async def play_whole(database, plan: Plan, people: list[Seat], threads: bool, seed: int) -> dict[str, Any]:
    """Sign ``people`` up (Ann hosts and plays), start, and play every table the service opens until it is over."""
    venue = Venue(threads=threads)
    tables, service = await services(database, venue)
    rng = random.Random(seed)
    try:
        await service.create(GUILD, CHANNEL, people[0], "pig", plan, options={"target": 20})
        for seat in people:
            await service.join(CHANNEL, seat)
        t = await service.start(CHANNEL, people[0].id)
        for _ in range(64):
            t = await store_t.load(tables.store, t.id)
            assert t is not None
            if t.status != "running":
                break
            playing = [x for x in t.tables if x.game_id is not None and tables.table_by_id(x.game_id) is not None]
            assert playing, "a running tournament always has a table in play"
            await play_table(tables, playing[0].game_id, rng)  # type: ignore[arg-type]
        assert t.status == "finished"
        plan_, entrants, rounds, outcomes, withdrawn = await recomputed(tables.store, t.id)
        over = [data for kind, data in venue.said if kind == "over"]
        assert len(over) == 1
        assert over[0]["standings"] == standings(plan_, entrants, rounds, outcomes, frozenset(withdrawn))
        assert tuple(over[0]["winners"]) == winners(plan_, entrants, rounds, outcomes, frozenset(withdrawn))
        assert [d["round"] for kind, d in venue.said if kind == "round"] == [r.number for r in rounds]
        played = await tables.store.fetch_all(
            "SELECT user_id, games FROM ratings WHERE guild_id = ? AND game = 'pig' ORDER BY user_id", (GUILD,)
        )
        seated: dict[int, int] = {}
        for r in rounds:
            for x in r.tables:
                for p in x.players:
                    seated[p] = seated.get(p, 0) + 1
        assert {int(u): int(g) for u, g in played} == seated  # each table an ordinary rated game
        games = await tables.store.fetch_all("SELECT COUNT(*) FROM games")
        assert games[0][0] == sum(len(r.tables) for r in rounds)  # none opened twice
        return {"rounds": rounds, "outcomes": outcomes, "winners": over[0]["winners"], "row": t}
    finally:
        await close(tables)


@pytest.mark.parametrize("seed", [1, 2])
async def test_a_whole_five_player_swiss_with_byes(database, seed):
    done = await play_whole(database, Plan("swiss", 2), PEOPLE[:5], threads=True, seed=seed)
    rounds: list[Round] = done["rounds"]
    assert len(rounds) == 3 and all(len(r.tables) == 2 and len(r.byes) == 1 for r in rounds)
    pairs = [frozenset(x.players) for r in rounds for x in r.tables]
    assert len(pairs) == len(set(pairs)), "a Swiss pairing repeated"
    byes = [r.byes[0] for r in rounds]
    assert len(set(byes)) == 3, "a bye went twice to one player"
    assert done["row"].tables[0].channel_id == 9001  # threads


@pytest.mark.parametrize("threads", [True, False])
async def test_a_whole_six_player_knockout(database, threads):
    done = await play_whole(database, Plan("knockout", 2), PEOPLE, threads=threads, seed=3)
    rounds: list[Round] = done["rounds"]
    outcomes: list[Outcome] = done["outcomes"]
    assert [len(r.tables) for r in rounds] == [2, 2, 1]
    assert len(rounds[0].byes) == 2  # the top two seeds wait for round 2
    (final,) = [o for o in outcomes if o.round == 3]
    champion = next(p for p, place in final.places.items() if place == 1)
    assert done["winners"] == [champion]
    if not threads:  # one table at a time in the tournament's channel
        assert {x.channel_id for x in done["row"].tables} == {CHANNEL}
