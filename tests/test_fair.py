"""Provably fair dice (issue 13): the stream reproduced from a fixed seed (``tests/data/fair_vectors.json``), its
uniformity and rejection sampling, and verification: games played with ``FairDice`` through every engine verify,
and a changed die, a wrong seed or an inconsistent move fails at the right place. ``docs/FAIRNESS.md``'s worked
example and reference verifier are checked against the same vectors.

``python -m tests.test_fair --write`` rewrites the vectors file (only when the stream is meant to change: old
games would then no longer verify)."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import bot.games.fair as fair_module
from bot.games import Action, IllegalMove, available_games, chain, get_engine
from bot.games.fair import (
    FairDice,
    block,
    client_seed_from,
    commitment_of,
    count_draws,
    draw_below,
    split_client_seed,
)
from bot.i18n import catalog
from bot.jsontext import dumps
from bot.verify import Mismatch, build_export, main, mismatch_text, verify_draws, verify_export

ROOT = Path(__file__).resolve().parent.parent
VECTORS_PATH = ROOT / "tests" / "data" / "fair_vectors.json"
DOC = ROOT / "docs" / "FAIRNESS.md"
SEED = bytes(range(32))  # the worked example's seed
CLIENT = client_seed_from(["alice", "bob"])
REJECTING = 2**31 + 1  # limit = 2**31 + 1: half of all words are rejected


class Recorder:
    """Records the dice calls of each action in the action log's format (samples through indices, as the service's
    recorder does)."""

    def __init__(self, inner: FairDice) -> None:
        self.inner = inner
        self.calls: list[list[Any]] = []

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        faces = self.inner.roll(count, sides)
        self.calls.append(["r", sides, faces])
        return faces

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        items = list(population)
        indices = self.inner.sample(range(len(items)), k)
        self.calls.append(["s", len(items), indices])
        return [items[i] for i in indices]

    def take(self) -> list[list[Any]] | None:
        calls, self.calls = self.calls, []
        return calls or None


START = "1445678901234567890"  # a start value, as Discord's interaction ids look


def play(
    game: str,
    rng_seed: int,
    seed: bytes = SEED,
    client: str = CLIENT,
    twists: bool = True,
    start: str | None = START,
) -> dict[str, Any]:
    """A random legal game with FairDice (with the start value ``start``), exported with its hash chain as the
    table service links it. ``twists``: now and then a timeout or a forfeit, as the table service applies them."""
    engine, rng = get_engine(game), random.Random(rng_seed)
    options = engine.options({})
    lo, hi = engine.player_range(options)
    players = rng.randint(lo, min(hi, 4))
    dice = Recorder(FairDice(seed, client, 0, start))
    state, _ = engine.new_game(players, options, dice)
    moves: list[tuple[int, int | None, str, Any, float]] = [(1, None, "start", dice.take(), 1764583200.0)]
    while not engine.is_over(state):
        assert len(moves) < 20_000
        seat, twist = rng.choice(engine.to_act(state)), rng.random()
        if twists and twist < 0.03:
            state, _ = engine.timeout(state, seat, dice)
            text = "timeout"
        elif twists and twist < 0.035:
            state, _ = engine.forfeit(state, seat, dice)
            text = "forfeit:left"
        else:
            action = rng.choice(engine.legal_actions(state, seat))
            state, _ = engine.apply(state, seat, action, dice)
            text = action.encode()
        moves.append((len(moves) + 1, seat, text, dice.take(), 1764583200.0 + 7 * len(moves)))
    names = [f"player {i}" for i in range(players)]
    fair = FairDice(seed, client)
    link, linked = chain.genesis(fair.commitment), []
    for seq, seat, text, calls, at in moves:  # as TableDice.links does, from the stored dice text
        link = chain.link(link, seq, seat, text, dumps(calls) if calls else None)
        linked.append((seq, seat, text, calls, at, link))
    outcome = engine.outcome(state)
    return build_export(game, {}, names, linked, fair.commitment, seed.hex(), client, outcome, start=start, chain=link)


@cache
def played(game: str, rng_seed: int) -> str:
    return json.dumps(play(game, rng_seed))


def game(name: str, rng_seed: int = 0) -> dict[str, Any]:
    """A fresh copy of a played game's export (each test may change its copy)."""
    return json.loads(played(name, rng_seed))


def draws_of(export: dict[str, Any]) -> list[tuple[int, int, int]]:
    """Where each draw of an export is: (move, call, position in the call's values), in nonce order."""
    return [
        (m, c, p)
        for m, move in enumerate(export["moves"])
        for c, call in enumerate(move["dice"] or ())
        for p in range(len(call[2]))
    ]


@cache
def vectors() -> dict[str, Any]:
    return json.loads(VECTORS_PATH.read_text(encoding="utf-8"))


# -- the stream -------------------------------------------------------------------------------------------


def stream_vectors() -> dict[str, Any]:
    """The stream part of the vectors file, from the code (the test compares; ``--write`` stores)."""
    seq = FairDice(SEED, CLIENT)
    sequence = [["r", 6, seq.roll(5, 6)], ["s", 5, seq.sample_indices(5, 3)], ["r", 6, seq.roll(2, 6)]]
    sequence.append(["s", 3, seq.sample_indices(3, 3)])
    odd_client = client_seed_from(["Zoë 🎲", "a|b\\c", ""])
    blocks = [(n, 0) for n in range(8)] + [(287, 0), (287, 1)]
    return {
        "server_seed": SEED.hex(),
        "client_seed": CLIENT,
        "commitment": commitment_of(SEED),
        "blocks": [{"nonce": n, "counter": c, "hmac": block(SEED, CLIENT, n, c).hex()} for n, c in blocks],
        "rolls": {str(s): FairDice(SEED, CLIENT).roll(count, s) for s, count in ROLLS},
        "samples": [{"n": n, "k": k, "indices": FairDice(SEED, CLIENT).sample_indices(n, k)} for n, k in SAMPLES],
        "sequence": sequence,
        "rejection": {"sides": REJECTING, "nonce": 287, "face": FairDice(SEED, CLIENT, 287).roll(1, REJECTING)[0]},
        "other_client_seeds": {c: FairDice(SEED, c).roll(12, 6) for c in ("", odd_client)},
    }


ROLLS = [(2, 40), (6, 60), (20, 40), (REJECTING, 40), (2**32, 10), (1, 3)]
SAMPLES = [(10, 10), (52, 5), (1, 1), (6, 0)]
VECTOR_GAMES = [("pig", 1), ("mia", 2), ("mex", 3), ("liar", 4), ("mythic", 5)]


def test_the_stream_reproduces_the_vectors() -> None:
    assert stream_vectors() == {k: v for k, v in vectors().items() if k != "games"}


def test_blocks_are_the_hmac_of_the_documented_message() -> None:
    import hmac

    for entry in vectors()["blocks"]:
        message = f"alice|bob:{entry['nonce']}:{entry['counter']}".encode()
        assert hmac.new(SEED, message, hashlib.sha256).hexdigest() == entry["hmac"]


def test_one_stream_across_calls_and_after_a_restart() -> None:
    """Each face and each sampled item is one draw: splitting rolls changes nothing, and dice restored at the
    nonce where the game stood go on with the same faces."""
    whole = FairDice(SEED, CLIENT).roll(30, 6)
    split = FairDice(SEED, CLIENT)
    assert split.roll(4, 6) + split.roll(26, 6) == whole
    restored = FairDice(SEED, CLIENT, nonce=count_draws([["r", 6, whole[:11]]]))
    assert restored.roll(19, 6) == whole[11:]
    mixed = FairDice(SEED, CLIENT)
    mixed.roll(3, 6)
    mixed.sample(["a", "b", "c"], 2)
    assert mixed.nonce == 5


def test_sample_takes_successive_uniform_indices_from_what_is_left() -> None:
    items = ["gold", "silver", "bronze", "iron", "tin"]
    indices = FairDice(SEED, CLIENT, nonce=5).sample_indices(5, 3)
    assert indices == [1, 2, 0]  # docs/FAIRNESS.md's worked example: nonces 5, 6, 7
    by_hand, left = [], list(range(5))
    for nonce in (5, 6, 7):
        by_hand.append(left.pop(draw_below(SEED, CLIENT, nonce, len(left))))
    assert by_hand == indices
    assert FairDice(SEED, CLIENT, nonce=5).sample(items, 3) == [items[i] for i in indices]
    assert sorted(FairDice(SEED, CLIENT).sample(range(9), 9)) == list(range(9))


def test_rejection_takes_the_first_word_below_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A crafted stream: counter 0's eight words are all >= the d6's limit (2**32 - 4), counter 1's first is the
    limit itself (rejected), its second the largest accepted word. Both ways of drawing (``draw_below`` with
    ``block``, FairDice with its keyed states) follow it."""
    asked: list[tuple[int, int]] = []

    def crafted(nonce: int, counter: int) -> bytes:
        asked.append((nonce, counter))
        words = [0xFFFFFFFF] * 8 if counter == 0 else [2**32 - 4, 2**32 - 5, 0, 0, 0, 0, 0, 0]
        return b"".join(w.to_bytes(4, "big") for w in words)

    monkeypatch.setattr(fair_module, "block", lambda seed, client, nonce, counter, start=None: crafted(nonce, counter))
    assert draw_below(SEED, CLIENT, 9, 6) == (2**32 - 5) % 6
    monkeypatch.setattr(FairDice, "_block", lambda self, nonce, counter: crafted(nonce, counter))
    assert FairDice(SEED, CLIENT, nonce=9).roll(1, 6) == [(2**32 - 5) % 6 + 1]
    assert asked == [(9, 0), (9, 1)] * 2


@pytest.mark.parametrize("seed", [b"x", bytes(64), bytes(range(65)), bytes(200)])
def test_the_keyed_states_give_the_hmac_for_any_seed_length(seed: bytes) -> None:
    """HMAC hashes a key longer than SHA-256's 64-byte block first; FairDice precomputes the same."""
    assert FairDice(seed, "c", 3).roll(20, 6) == [draw_below(seed, "c", nonce, 6) + 1 for nonce in range(3, 23)]


def test_rejection_happens_in_the_real_stream_and_moves_to_the_next_block() -> None:
    limit = 2**32 - 2**32 % REJECTING

    def words(nonce: int, counter: int) -> list[int]:
        return [int.from_bytes(block(SEED, CLIENT, nonce, counter)[i : i + 4], "big") for i in range(0, 32, 4)]

    assert words(4, 0)[:6] == [w for w in words(4, 0)[:6] if w >= limit]  # six rejected, then taken
    assert FairDice(SEED, CLIENT, 4).roll(1, REJECTING) == [words(4, 0)[6] % REJECTING + 1]
    assert all(w >= limit for w in words(287, 0))  # a whole block rejected
    assert vectors()["rejection"]["face"] == words(287, 1)[0] % REJECTING + 1
    exhausted = [n for n in range(1000) if all(w >= limit for w in words(n, 0))]
    assert exhausted[:2] == [287, 408]


def test_no_modulo_bias() -> None:
    """n = 3 * 2**30: every word below n is taken as it is, the top quarter is rejected. With a plain ``r % n``,
    0 <= x < 2**30 would be twice as likely as each other third (1/2 instead of 1/3)."""
    n = 3 * 2**30
    draws = FairDice(SEED, CLIENT).roll(6000, n)
    low = sum(face <= 2**30 for face in draws) / len(draws)
    assert abs(low - 1 / 3) < 0.03


def chi_square(counts: Counter[int], cells: int, total: int) -> float:
    expected = total / cells
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in range(cells))


@pytest.mark.parametrize(("sides", "total", "critical"), [(6, 60_000, 20.52), (20, 40_000, 43.82), (2, 20_000, 10.83)])
def test_faces_are_uniform(sides: int, total: int, critical: float) -> None:
    """Chi-square of a fixed stream's faces against uniform, under the 0.1% critical value (deterministic)."""
    faces = Counter(face - 1 for face in FairDice(SEED, "uniformity").roll(total, sides))
    assert set(faces) == set(range(sides))
    assert chi_square(faces, sides, total) < critical


def test_samples_are_uniform() -> None:
    """Each of the 120 orders of a 5-item bag, over 12,000 samples: chi-square under the 0.1% critical value
    (164.2 for 119 degrees of freedom)."""
    dice = FairDice(SEED, "orders")
    orders = [tuple(dice.sample_indices(5, 5)) for _ in range(12_000)]
    index = {order: i for i, order in enumerate(sorted(set(orders)))}
    assert len(index) == 120
    assert chi_square(Counter(index[o] for o in orders), 120, len(orders)) < 164.2


def test_bad_calls_are_refused() -> None:
    dice = FairDice(SEED, CLIENT)
    for bad in (lambda: dice.roll(1, 0), lambda: dice.roll(-1), lambda: dice.sample_indices(3, 4)):
        with pytest.raises(ValueError):
            bad()
    assert dice.nonce == 0
    with pytest.raises(ValueError):
        FairDice(b"", CLIENT)


# -- seeds ------------------------------------------------------------------------------------------------


def test_new_dice_have_a_fresh_secret_seed_and_only_its_commitment_shows() -> None:
    first, second = FairDice.new(), FairDice.new()
    assert first.reveal() != second.reveal() and len(bytes.fromhex(first.reveal())) == 32
    assert first.commitment == hashlib.sha256(bytes.fromhex(first.reveal())).hexdigest()
    first.roll(3)
    for text in (repr(first), str(first), f"{first}", f"{first!r}"):
        assert first.reveal() not in text and first.reveal()[:16] not in text
        assert first.commitment[:16] in text
    assert not hasattr(first, "__dict__")  # no stray attribute to leak it through vars()
    assert FairDice.from_hex(first.reveal(), "x").commitment == first.commitment
    fixed = FairDice.new().with_client_seed("alice|bob")
    assert fixed.client_seed == "alice|bob" and fixed.nonce == 0


@given(st.lists(st.text(max_size=12), min_size=1, max_size=6))
def test_the_client_seed_keeps_every_entry(entries: list[str]) -> None:
    joined = client_seed_from(entries)
    assert split_client_seed(joined) == entries
    assert client_seed_from(["alice", "bob"]) == "alice|bob"


# -- verification -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(available_games()))
@pytest.mark.parametrize("rng_seed", range(3))
def test_a_game_played_with_fair_dice_verifies(name: str, rng_seed: int) -> None:
    export = game(name, rng_seed)
    assert verify_export(export) is None
    nonce = sum(count_draws(move["dice"]) for move in export["moves"])
    assert nonce == len(draws_of(export)) > 0


def test_every_game_makes_samples_and_rolls_and_the_twists_are_played() -> None:
    moves = [m for name in available_games() for r in range(3) for m in game(name, r)["moves"]]
    assert {call[0] for m in moves for call in m["dice"] or ()} == {"r", "s"}
    actions = {m["action"] for m in moves}
    assert {"timeout", "forfeit:left"} <= actions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(available_games())), rng_seed=st.integers(0, 2), data=st.data())
def test_any_changed_die_is_reported_at_that_draw(name: str, rng_seed: int, data: st.DataObject) -> None:
    export = game(name, rng_seed)
    where = draws_of(export)
    nonce = data.draw(st.integers(0, len(where) - 1), label="draw")
    m, c, p = where[nonce]
    call = export["moves"][m]["dice"][c]
    kind, n, values = call
    assume(n > 1)  # a d1 or a one-item population has no other value to change to
    shift = data.draw(st.integers(1, n - 1), label="shift")
    values[p] = (values[p] - 1 + shift) % n + 1 if kind == "r" else (values[p] + shift) % n
    problem = verify_export(export)  # the chain breaks at the move; rebuilt, the draw gives it away
    assert problem == Mismatch("chain", {"seq": export["moves"][m]["seq"], "action": export["moves"][m]["action"]})
    problem = verify_export(relinked(export))
    assert problem is not None and problem.code == "draw", problem
    assert problem.params["seq"] == export["moves"][m]["seq"]
    assert problem.params["call"] == c and problem.params["draw"] == nonce
    assert problem.params["recorded"] == values
    assert "{" not in mismatch_text(problem)


def test_a_wrong_seed_fails() -> None:
    export = game("pig")
    export["server_seed"] = bytes(range(1, 33)).hex()
    assert verify_export(export) == Mismatch(
        "commitment", {"commitment": export["commitment"], "hashed": commitment_of(bytes(range(1, 33)))}
    )
    export["commitment"] = commitment_of(bytes(range(1, 33)))  # a seed that matches its commitment, not the dice
    problem = verify_export(export)  # the chain starts at the commitment: it breaks at once
    assert problem is not None and (problem.code, problem.params["seq"]) == ("chain", 1)
    problem = verify_export(relinked(export))
    assert problem is not None and problem.code == "draw"
    export = game("pig")
    export["client_seed"] = "alice|eve"
    problem = verify_export(export)
    assert problem is not None and problem.code == "draw"
    export["server_seed"] = "not hex"
    assert verify_export(export) == Mismatch("bad_seed")


def pig_move(export: dict[str, Any], action: str, follows: str) -> dict[str, Any]:
    """A Pig move ``action`` right after a move ``follows`` of the same seat."""
    moves = export["moves"]
    pairs = zip(moves, moves[1:], strict=False)
    return next(b for a, b in pairs if (a["action"], b["action"]) == (follows, action) and a["seat"] == b["seat"])


def relinked(export: dict[str, Any]) -> dict[str, Any]:
    """``export`` with its chain rebuilt over its moves as they are now (a forger who redid the links and the head):
    what the replay must still catch."""
    link = chain.genesis(export["commitment"])
    for m in export["moves"]:
        dice = None if m["dice"] is None else chain.dice_text(m["dice"])
        m["link"] = link = chain.link(link, m["seq"], m["seat"], m["action"], dice)
    export["chain"] = link
    return export


def test_a_changed_move_fails() -> None:
    export = game("pig")
    move = pig_move(export, "roll", "roll")
    move["action"] = "hold"  # a hold makes no dice call, the record holds one
    assert verify_export(export) == Mismatch("chain", {"seq": move["seq"], "action": "hold"})
    assert verify_export(relinked(export)).code == "unused_call"  # type: ignore[union-attr]

    export = game("pig")
    pig_move(export, "hold", "roll")["action"] = "roll"  # a roll where none is recorded
    assert verify_export(relinked(export)).code == "unrecorded_call"  # type: ignore[union-attr]

    export = game("pig")
    move = pig_move(export, "roll", "roll")
    move["seat"] = 1 - move["seat"] if len(export["players"]) == 2 else (move["seat"] + 1) % len(export["players"])
    problem = verify_export(relinked(export))
    assert problem is not None and problem.code == "illegal" and problem.params["seq"] == move["seq"]

    export = game("mia")
    del export["moves"][-1]  # the game no longer ends as recorded
    problem = verify_export(relinked(export))
    assert problem is not None and problem.code in ("result", "draw", "unused_call"), problem

    export = game("mex")
    export["result"]["scores"][0] += 1
    assert verify_export(export).code == "result"  # type: ignore[union-attr]


def test_a_changed_dice_shape_fails() -> None:
    export = game("pig")
    move = pig_move(export, "roll", "roll")
    move["dice"][0][1] = 8  # a d8 where the game rolls a d6: reported as a draw (the d8's stream differs) ...
    assert verify_export(relinked(export)).code in ("draw", "shape")  # type: ignore[union-attr]
    export = game("pig")
    move = pig_move(export, "roll", "roll")
    move["dice"][0] = ["x", 6, [1]]
    malformed = Mismatch("malformed", {"seq": move["seq"], "call": 0, "recorded": ["x", 6, [1]]})
    assert verify_export(relinked(export)) == malformed


def test_verify_draws_alone_names_the_first_mismatch() -> None:
    calls = vectors()["sequence"]
    actions = [(1, calls[:2]), (2, None), (5, calls[2:])]
    assert verify_draws(SEED.hex(), CLIENT, commitment_of(SEED), actions) is None
    changed = copy.deepcopy(actions)
    changed[2][1][1][2][1] = 2 if changed[2][1][1][2][1] != 2 else 1  # the sample at seq 5, its second index
    problem = verify_draws(SEED.hex(), CLIENT, commitment_of(SEED), changed)
    assert problem is not None and (problem.code, problem.params["seq"], problem.params["call"]) == ("draw", 5, 1)
    assert problem.params["draw"] == 5 + 3 + 2 + 1


def test_the_schema_is_checked() -> None:
    export = game("pig")
    assert verify_export({**export, "version": 3}) == Mismatch("version", {"version": 3, "supported": 2})
    assert verify_export({**export, "format": "chess"}) == Mismatch("not_export")
    assert verify_export([]) == Mismatch("not_export")
    without = {k: v for k, v in export.items() if k != "client_seed"}
    assert verify_export(without) == Mismatch("schema", {"field": "client_seed"})
    export["moves"][2]["seat"] = True
    assert verify_export(export) == Mismatch("schema", {"field": "moves[2].seat"})
    assert verify_export({**game("pig"), "game": "chess"}) == Mismatch("unknown_game", {"game": "chess"})
    bad_options = verify_export({**game("pig"), "options": {"target": 7}})
    assert bad_options is not None and bad_options.code == "options"


def test_a_cancelled_game_verifies_up_to_where_it_stopped() -> None:
    export = game("mythic")
    export["moves"] = export["moves"][: len(export["moves"]) // 2]
    export["result"] = None
    assert verify_export(export).code == "chain_end"  # type: ignore[union-attr]
    export["chain"] = export["moves"][-1]["link"]  # a cancel reveals the head where the log stopped
    assert verify_export(export) is None


def test_the_stored_games_still_verify() -> None:
    """Games exported by an earlier version: a rules change that alters what a move draws breaks them."""
    for export in vectors()["games"]:
        assert verify_export(export) is None, export["game"]


def test_every_mismatch_has_its_text() -> None:
    codes = set(re.findall(r'Mismatch\(\s*"(\w+)"', (ROOT / "bot" / "verify.py").read_text(encoding="utf-8")))
    english = catalog("en")
    assert codes and all(f"verify.{code}" in english for code in codes), codes - {
        k.split(".", 1)[1] for k in english if k.startswith("verify.")
    }


# -- dicetavern verify FILE -------------------------------------------------------------------------------


def test_main_prints_a_tick_or_the_first_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    export = game("mythic")
    path.write_text(json.dumps(export), encoding="utf-8")
    assert main([str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("✓ mythic game verified") and export["commitment"] in out
    export["moves"][0]["dice"][-1][2][0] ^= 1
    path.write_text(json.dumps(export), encoding="utf-8")
    assert main([str(path)]) == 1
    assert capsys.readouterr().err.startswith("✗ the action log's chain breaks at move 1 (start)")
    path.write_text(json.dumps(relinked(export)), encoding="utf-8")
    assert main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("✗ action 1, dice call") and "the seed gives" in err
    assert main([str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert main([]) == 2


# -- docs/FAIRNESS.md -------------------------------------------------------------------------------------


def reference_verifier() -> dict[str, Any]:
    text = DOC.read_text(encoding="utf-8")
    code = text.split("<!-- reference verifier -->", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    assert len([line for line in code.splitlines() if line.strip()]) <= 26  # as docs/FAIRNESS.md says
    assert set(re.findall(r"^import (.+)$", code, re.M)) == {"hashlib, hmac, json, sys"}
    scope: dict[str, Any] = {"__name__": "reference"}
    exec(compile(code, str(DOC), "exec"), scope)
    return scope


def test_the_reference_verifier_accepts_every_game_and_catches_a_changed_die() -> None:
    check = reference_verifier()["check"]
    for export in [*vectors()["games"], *(game(name, 1) for name in available_games())]:
        check(export)
        where = draws_of(export)
        m, c, p = where[len(where) // 2]
        changed = copy.deepcopy(export)
        kind, n, values = changed["moves"][m]["dice"][c]
        values[p] = values[p] % n + 1 if kind == "r" else (values[p] + 1) % n
        with pytest.raises(AssertionError, match=f"action {export['moves'][m]['seq']}:"):
            check(changed)
    with pytest.raises(AssertionError, match="commitment"):
        check({**vectors()["games"][0], "commitment": "0" * 64})


def test_the_reference_verifier_draws_the_vectors() -> None:
    draw = reference_verifier()["draw"]
    for sides, faces in vectors()["rolls"].items():
        assert [draw(SEED, CLIENT + ":", nonce, int(sides)) + 1 for nonce in range(len(faces))] == faces
    assert draw(SEED, CLIENT + ":", 287, REJECTING) + 1 == vectors()["rejection"]["face"]


def test_the_worked_example_has_the_streams_numbers() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert SEED.hex() in text and f"commitment = {commitment_of(SEED)}" in text
    rows = re.findall(r"nonce (\d+) counter (\d+) ([0-9a-f]{64})(.*)", text)
    assert len(rows) == 10
    faces = vectors()["rolls"]["6"]
    for nonce, counter, hexed, rest in rows:
        assert block(SEED, CLIENT, int(nonce), int(counter)).hex() == hexed
        if word := re.search(r"r0 = 0x([0-9a-f]{8}) = (\d+)", rest):
            assert word.group(1) == hexed[:8] and int(word.group(2)) == int(hexed[:8], 16)
        if face := re.search(r"d6 = (\d+) mod 6 \+ 1 = (\d)", rest):
            assert int(face.group(1)) % 6 + 1 == int(face.group(2)) == faces[int(nonce)]
    assert '["r", 6, [3, 3, 6, 6, 6]]' in text and '["s", 5, [1, 2, 0]]' in text
    assert vectors()["sequence"][:2] == [["r", 6, [3, 3, 6, 6, 6]], ["s", 5, [1, 2, 0]]]
    pig = vectors()["games"][0]
    assert pig["game"] == "pig" and pig["options"] == {"target": 20}
    assert pig["moves"][0]["dice"] == [["s", 2, [0]]] and pig["moves"][1]["dice"] == [["r", 6, [3]]]


# -- writing the vectors ----------------------------------------------------------------------------------


def pig_example() -> dict[str, Any]:
    """The worked example's whole game: Pig to 20, each seat holding once its turn reaches 8."""
    from bot.games import act

    engine, options = get_engine("pig"), {"target": 20}
    fair = FairDice(SEED, CLIENT)
    dice = Recorder(fair)
    state, _ = engine.new_game(2, engine.options(options), dice)
    moves: list[tuple[int, int | None, str, Any, float]] = [(1, None, "start", dice.take(), 1764583200.0)]
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        hold = act("hold") in engine.legal_actions(state, seat) and engine.view(state, None)["turn_total"] >= 8
        state, _ = engine.apply(state, seat, act("hold" if hold else "roll"), dice)
        moves.append((len(moves) + 1, seat, "hold" if hold else "roll", dice.take(), 1764583200.0 + 5 * len(moves)))
    outcome = engine.outcome(state)
    return build_export("pig", options, ["Alice", "Bob"], moves, fair.commitment, SEED.hex(), CLIENT, outcome, 42)


def write_vectors() -> None:
    games = [pig_example(), *(play(name, rng_seed) for name, rng_seed in VECTOR_GAMES[1:])]
    data = {**stream_vectors(), "games": games}
    VECTORS_PATH.parent.mkdir(exist_ok=True)
    VECTORS_PATH.write_text(compact(data) + "\n", encoding="utf-8")


def compact(value: Any, indent: str = "") -> str:
    """JSON with anything that fits in 116 characters on one line (a move, a roll), the rest spread out."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + len(indent) <= 116 or not isinstance(value, dict | list):
        return flat
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {compact(v, inner).lstrip()}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if all(not isinstance(v, dict | list) for v in value):  # a long list of numbers: packed lines
        lines, line = [], inner
        for v in value:
            item = json.dumps(v, ensure_ascii=False) + ","
            if len(line) + len(item) > 116 and line.strip():
                lines.append(line.rstrip())
                line = inner
            line += item + " "
        lines.append(line.rstrip().removesuffix(","))
        return "[\n" + "\n".join(lines) + "\n" + indent + "]"
    return "[\n" + ",\n".join(inner + compact(v, inner) for v in value) + "\n" + indent + "]"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    write_vectors()


def test_the_services_recorder_records_fair_dice_as_the_verifier_reads_them() -> None:
    from bot.games.dice import RecordingDice

    for name, rng_seed in VECTOR_GAMES:
        export = game(name, rng_seed)
        engine, fair = get_engine(name), FairDice(SEED, CLIENT, 0, export["start"])
        recorder = RecordingDice(fair)
        state, _ = engine.new_game(len(export["players"]), engine.options(export["options"]), recorder)
        recorded = [recorder.take() or None]
        for move in export["moves"][1:]:
            seat, text = move["seat"], move["action"]
            if text == "timeout":
                state, _ = engine.timeout(state, seat, recorder)
            elif text.startswith("forfeit:"):
                state, _ = engine.forfeit(state, seat, recorder)
            else:
                state, _ = engine.apply(state, seat, Action.parse(text), recorder)
            recorded.append(recorder.take() or None)
        assert recorded == [move["dice"] for move in export["moves"]]


@pytest.mark.parametrize("name", sorted(available_games()))
def test_a_refused_move_draws_nothing(name: str) -> None:
    """The stream's nonce counts the recorded draws: a move the engine refuses must not draw (or the service must
    put the nonce back), else every later draw of the game is off by one."""
    engine, rng = get_engine(name), random.Random(7)
    dice = FairDice(SEED, CLIENT)
    players = range(min(engine.player_range(engine.options())[1], 3))
    state, _ = engine.new_game(len(players), engine.options(), dice)
    seen: set[Action] = set()
    for _ in range(200):
        if engine.is_over(state):
            break
        for seat in players:
            legal = engine.legal_actions(state, seat)
            seen.update(legal)
            for action in sorted(seen - set(legal), key=str)[:40]:
                before = dice.nonce
                with pytest.raises(IllegalMove):
                    engine.apply(state, seat, action, dice)
                assert dice.nonce == before, (seat, action)
        seat = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)), dice)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_javascript_verifier_agrees(tmp_path: Path) -> None:
    """docs/FAIRNESS.md's JavaScript verifier: the stream as another language reads the page."""
    text = DOC.read_text(encoding="utf-8")
    script = tmp_path / "verify.js"
    script.write_text(text.split("<!-- javascript verifier -->", 1)[1].split("```javascript\n", 1)[1].split("```")[0])
    for number, export in enumerate([*vectors()["games"], game("mythic", 2)]):
        path = tmp_path / f"game{number}.json"
        path.write_text(json.dumps(export), encoding="utf-8")
        done = subprocess.run(["node", str(script), str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.strip() == "every draw matches", done.stderr
        m, c, p = draws_of(export)[-1]
        kind, n, values = export["moves"][m]["dice"][c]
        values[p] = values[p] % n + 1 if kind == "r" else (values[p] + 1) % n
        path.write_text(json.dumps(export), encoding="utf-8")
        done = subprocess.run(["node", str(script), str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and f"action {export['moves'][m]['seq']}:" in done.stderr


def test_the_verify_subcommand_parses_its_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from bot.verify import add_arguments

    parser = argparse.ArgumentParser(prog="dicetavern")
    add_arguments(parser.add_subparsers(dest="command").add_parser("verify"))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game("liar")), encoding="utf-8")
    args = parser.parse_args(["verify", str(path)])
    assert args.handler(args) == 0 and capsys.readouterr().out.startswith("✓ liar game verified")


# -- the hash chain: nothing can be cut, added, moved or changed --------------------------------------------------


def refused_at(export: dict[str, Any]) -> Mismatch:
    """verify_export's refusal, which must name the action it fails at."""
    problem = verify_export(export)
    assert problem is not None, "a tampered log verified"
    assert "seq" in problem.params or problem.code == "schema", problem
    return problem


@pytest.mark.parametrize("name", available_games())
def test_every_deletion_swap_and_truncation_of_a_chained_log_is_refused_at_an_action(name: str) -> None:
    for rng_seed in range(3):
        export = game(name, rng_seed)
        assert verify_export(export) is None
        moves = export["moves"]
        seqs = [m["seq"] for m in moves]
        for i in range(len(moves)):  # each single deletion
            cut = copy.deepcopy(export)
            del cut["moves"][i]
            problem = refused_at(cut)
            # named: the move after the gap (its link or its seq), or for the last move the end of the chain
            assert problem.params.get("seq") in (seqs[i], seqs[i - 1] if i else None, *seqs[i : i + 2]), problem
        for i in range(len(moves) - 1):  # each adjacent swap
            swapped = copy.deepcopy(export)
            swapped["moves"][i], swapped["moves"][i + 1] = swapped["moves"][i + 1], swapped["moves"][i]
            refused_at(swapped)
        for end in range(1, len(moves)):  # a log cut after every move, its result dropped (a cancelled game)
            short = copy.deepcopy(export)
            short["moves"], short["result"] = short["moves"][:end], None
            assert refused_at(short).code == "chain_end"


def test_a_move_without_dice_cannot_be_left_out_nor_the_last_dice_move() -> None:
    # The two cuts the verifier accepted before the chain: a Mia peek (no dice) and a Mex game's last dice move.
    for name in ("mia", "mex"):
        export = game(name, 1)
        for index in (
            next(i for i, m in enumerate(export["moves"]) if m["dice"] is None),
            max(i for i, m in enumerate(export["moves"]) if m["dice"]),
        ):
            cut = copy.deepcopy(export)
            removed = cut["moves"].pop(index)
            problem = refused_at(cut)
            assert problem.code in ("chain", "chain_end", "gap"), (name, removed, problem)


def test_an_edited_action_or_head_is_refused_at_that_action() -> None:
    export = game("liar", 2)
    edited = copy.deepcopy(export)
    middle = edited["moves"][len(edited["moves"]) // 2]
    middle["at"] = 0.0  # a time is not in the chain: harmless
    assert verify_export(edited) is None
    middle["seat"] = (middle["seat"] or 0) + 1
    assert refused_at(edited) == Mismatch("chain", {"seq": middle["seq"], "action": middle["action"]})
    head = copy.deepcopy(export)
    head["chain"] = "0" * 64
    assert refused_at(head).code == "chain_end"


def test_the_start_value_is_part_of_the_stream() -> None:
    export = game("pig")
    assert export["start"] == START and verify_export(export) is None
    other = copy.deepcopy(export)
    other["start"] = "1445678901234567891"  # another click: other dice
    assert refused_at(other).code == "draw"
    assert FairDice(SEED, CLIENT, 0, START).roll(8) != FairDice(SEED, CLIENT).roll(8)
    assert block(SEED, CLIENT, 3, 0, START) == hmac.digest(SEED, f"{CLIENT}:{START}:3:0".encode(), "sha256")


def test_a_version_1_export_verifies_as_before() -> None:
    old = play("mex", 4, start=None)
    old["version"] = 1
    for key in ("start", "chain", "owner_seated"):
        del old[key]
    for move in old["moves"]:
        del move["link"]
    assert verify_export(old) is None
    del old["moves"][-1]  # without a chain, the last move's cut is not seen: why version 2 has one
    old["result"] = None
    assert verify_export(old) is None
