"""History reads, replays and exports of games played through the table service on a real database."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bot.games import available_games, get_engine
from bot.games.dice import SeededDice
from bot.games.fair import FairDice
from bot.i18n import t
from bot.render.replay import replay_page
from bot.replay import export_of, replay
from bot.store import history, open_store
from bot.store.history import Move
from bot.tables import Seat, TableService
from bot.verify import verify_export

GUILD, OTHER = 1, 2
ALICE, BOB, CAROL = Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")


@pytest.fixture
async def store(database):
    store = await open_store(database)  # each backend
    yield store
    await store.close()


async def service_with(store, dice) -> TableService:
    service = TableService(store, dice, run_dispatcher=False)
    await service.start()
    return service


async def play_to_the_end(service, channel, game, players, options=None, guild=GUILD, seed=0):
    """A game of ``game`` between ``players``, each move a random legal one (seeded), until it is over."""
    await service.create(guild, channel, players[0], game, options or {})
    for seat in players[1:]:
        await service.join(channel, seat)
    table = await service.start_game(channel, players[0].id)
    rng = random.Random(seed)
    while table.running:
        seat = table.engine.to_act(table.state)[0]
        action = rng.choice(table.engine.legal_actions(table.state, seat))
        await service.act(channel, table.seats[seat].id, action)
    return table


async def test_a_fair_pig_game_replays_to_its_final_state_and_its_export_verifies(store):
    service = await service_with(store, FairDice.new)  # each table its own fair dice, persisted in games.fair
    table = await play_to_the_end(service, 1, "pig", [ALICE, BOB], {"target": 20})

    record = await history.game_record(store, table.id)
    assert record is not None and record.over and record.moves[0].action == "start"
    assert record.fair is not None and {"commitment", "client_seed", "seed"} <= set(record.fair)
    steps = replay(record.game, len(record.seats), record.options, record.moves)
    assert steps.failed is None and len(steps.steps) == len(record.moves)
    engine = get_engine("pig")
    assert engine.dumps(steps.steps[-1].state) == engine.dumps(table.state)  # the replay ends where the game did

    export = export_of(record)
    assert export["players"] == ["Alice", "Bob"] and export["result"] is not None
    assert json.loads(json.dumps(export)) == export  # plain JSON
    assert verify_export(export) is None
    changed = copy.deepcopy(export)
    move = next(m for m in changed["moves"] if m["dice"] and m["dice"][0][0] == "r")
    move["dice"][0][2][0] = move["dice"][0][2][0] % 6 + 1
    problem = verify_export(changed)  # the move's link no longer matches: the chain breaks at it
    assert problem is not None and problem.code == "chain" and problem.params["seq"] == move["seq"]
    assert export["chain"] == export["moves"][-1]["link"] == record.fair["chain"] is not None
    changed = copy.deepcopy(export)
    changed["moves"][-1]["at"] = None  # a time is outside the chain; the last move's seat is in it
    changed["moves"][-1]["seat"] = 1 - changed["moves"][-1]["seat"]
    problem = verify_export(changed)
    assert problem is not None and problem.code == "chain" and problem.params["seq"] == changed["moves"][-1]["seq"]


async def test_every_page_of_a_liars_dice_replay_shows_every_players_hidden_dice(store):
    service = await service_with(store, SeededDice(3))
    table = await play_to_the_end(service, 1, "liar", [ALICE, BOB, CAROL], {"mode": "single"}, seed=4)
    record = await history.game_record(store, table.id)
    steps = replay(record.game, len(record.seats), record.options, record.moves)
    assert steps.failed is None
    first = replay_page(record, steps, 0, "en")
    assert first.footer.startswith(t("history.replay_start"))
    for name in ("Alice", "Bob", "Carol"):
        assert t("history.replay_seat", name=name) in first.hidden
    hands = [line for line in first.hidden if "Your dice" in line]
    assert len(hands) == 3
    public = "\n".join(first.body)
    assert not any(hand in public for hand in hands)  # the public body alone keeps them hidden, as the table did
    last = replay_page(record, steps, len(steps.steps) - 1, "en")
    assert f"move {len(steps.steps) - 1} of {len(steps.steps) - 1}" in last.footer
    assert last.log  # what happened, as the table's log showed it
    assert replay_page(record, steps, 10_000, "en").footer == last.footer  # a step past the end is the last


async def test_a_compacted_game_reads_the_same_moves_and_replays_the_same(store):
    service = await service_with(store, SeededDice(5))
    table = await play_to_the_end(service, 1, "mia", [ALICE, BOB], seed=6)
    before = await history.game_record(store, table.id)
    await service.compact(now=10**12)
    after = await history.game_record(store, table.id)
    assert [m.at for m in after.moves] == [None] * len(before.moves)
    assert [(m.seq, m.seat, m.action, m.dice) for m in after.moves] == [
        (m.seq, m.seat, m.action, m.dice) for m in before.moves
    ]
    engine = get_engine("mia")
    ends = [replay("mia", 2, r.options, r.moves).steps[-1].state for r in (before, after)]
    assert engine.dumps(ends[0]) == engine.dumps(ends[1]) == engine.dumps(table.state)


async def test_a_game_without_a_fair_record_exports_without_seeds_and_says_it_cannot_be_verified(store):
    service = await service_with(store, SeededDice(1))
    table = await play_to_the_end(service, 1, "pig", [ALICE, BOB], {"target": 20})
    await store.write([("UPDATE games SET fair = NULL WHERE id = ?", (table.id,))])
    export = export_of(await history.game_record(store, table.id))
    assert (export["commitment"], export["server_seed"], export["client_seed"]) == (None, None, None)
    problem = verify_export(export)
    assert problem is not None and problem.code == "not_fair"


async def test_the_seed_of_a_game_that_is_not_over_never_leaves_the_store(store):
    service = await service_with(store, FairDice.new)
    table = await service.create(GUILD, 1, ALICE, "pig", {})
    await service.join(1, BOB)
    await service.start_game(1, ALICE.id)
    stored = json.loads((await store.fetch_one("SELECT fair FROM games WHERE id = ?", (table.id,)))["fair"])
    record = await history.game_record(store, table.id)
    assert record.fair == {
        "commitment": stored["commitment"],
        "client_seed": stored["client_seed"],
        "start": None,
        "owner_seated": False,
    }
    await service.cancel(1, ALICE.id)
    cancelled = await history.game_record(store, table.id)
    assert cancelled.fair["seed"] == stored["seed"]  # over: revealed
    export = export_of(cancelled)  # a game cancelled after its start: no result, and its dice still verify
    assert export["result"] is None and verify_export(export) is None


async def test_history_lists_finished_games_newest_first_filtered_and_paged(store):
    service = await service_with(store, SeededDice(7))
    games = []
    for n, (players, game) in enumerate(
        [([ALICE, BOB], "pig"), ([BOB, CAROL], "pig"), ([ALICE, CAROL], "mia"), ([ALICE, BOB], "mex")]
    ):
        games.append(await play_to_the_end(service, 10 + n, game, players, {"target": 20} if game == "pig" else {}))
    elsewhere = await play_to_the_end(service, 99, "pig", [ALICE, BOB], {"target": 20}, guild=OTHER)
    await service.create(GUILD, 50, ALICE, "pig", {})  # a lobby is not history
    for n, table in enumerate(games):  # distinct end times: the clock may not move between fast games
        await store.write([("UPDATE games SET updated_at = ? WHERE id = ?", (1000.0 + n, table.id))])

    listed = await history.finished_games(store, GUILD)
    assert [g.id for g in listed] == [g.id for g in reversed(games)]
    assert elsewhere.id not in [g.id for g in listed]
    assert await history.count_finished(store, GUILD) == 4
    assert [g.id for g in await history.finished_games(store, GUILD, member_id=CAROL.id)] == [games[2].id, games[1].id]
    assert [g.id for g in await history.finished_games(store, GUILD, game="pig")] == [games[1].id, games[0].id]
    assert await history.count_finished(store, GUILD, ALICE.id, "pig") == 1
    assert [g.id for g in await history.finished_games(store, GUILD, limit=2, offset=2)] == [games[1].id, games[0].id]
    first = listed[-1]
    assert first.players == ["Alice", "Bob"] and first.finished_at == 1000.0
    outcome = get_engine("pig").outcome(games[0].state)
    assert first.winners == [games[0].seats[s].name for s in outcome.ranking[0]]


def test_a_record_that_stops_replaying_keeps_the_steps_before_it():
    moves = [
        Move(1, None, "start", [["s", 2, [0]]], None),
        Move(2, 0, "roll", [["r", 6, [4]]], None),
        Move(3, 0, "roll", None, None),  # a roll without its die
        Move(4, 0, "hold", None, None),
    ]
    steps = replay("pig", 2, {}, moves)
    assert steps.failed == 3 and len(steps.steps) == 2
    assert replay("pig", 2, {}, [Move(1, 0, "roll", None, None)]).failed == 1  # a move before the start


@pytest.mark.parametrize("game", available_games())
async def test_every_game_replays_and_every_page_renders(store, game):
    service = await service_with(store, FairDice.new)
    engine = get_engine(game)
    fewest, _ = engine.player_range(engine.options({}))
    players = [ALICE, BOB, CAROL][: max(fewest, 3)]
    table = await play_to_the_end(service, 1, game, players, {"target": 20} if game == "pig" else {}, seed=8)
    record = await history.game_record(store, table.id)
    steps = replay(game, len(players), record.options, record.moves)
    assert steps.failed is None and engine.dumps(steps.steps[-1].state) == engine.dumps(table.state)
    pages = [replay_page(record, steps, i, "en") for i in range(len(steps.steps))]
    assert all(page.body and page.footer for page in pages)
    if not engine.open_information:  # a game with secrets shows them in its replay
        assert any(page.hidden for page in pages)
    assert verify_export(export_of(record)) is None
