"""Checking a game's dice: the recorded draws against the revealed seed, and the moves replayed through the engine.

The pure core is ``verify_export`` (``verify_chain``, ``verify_draws`` and ``verify_replay`` are its parts): no
I/O, it answers None when everything matches, else the first ``Mismatch``. ``main`` is ``dicetavern verify FILE``.
The export format (version 2; version 1 files still verify) and the stream are documented in ``docs/FAIRNESS.md``;
``build_export`` writes it.

A recorded action's dice are the calls it made, in order: ``["r", sides, [face, ...]]`` for a roll,
``["s", n, [index, ...]]`` for a sample of ``n`` items (the indices taken, in draw order); None when it drew nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import IllegalMove, InvalidOptions, chain, get_engine
from bot.games.base import Outcome
from bot.games.fair import FairDice, commitment_of, draw_below
from bot.games.logged import START, LogOrderError, apply_logged
from bot.i18n import t

FORMAT = "dicetavern-game"
VERSION = 2  # what build_export writes: version 1 plus the start value, the chain and the owner mark
VERSIONS = (1, 2)  # what verify_export reads
UNFAIR = ("commitment", "server_seed", "client_seed")  # all null in the export of a game played before fair dice

Calls = list[list[Any]]
# A logged action: (seq, seat, action text, dice calls or None, time or None[, chain link or None])
Move = (
    tuple[int, int | None, str, Calls | None, float | None]
    | tuple[int, int | None, str, Calls | None, float | None, str | None]
)


@dataclass(frozen=True)
class Mismatch:
    """The first thing that does not check out. ``code`` keys the catalog (``verify.<code>``); ``params`` fill it
    (``seq``: the action, ``call``: the dice call within it, from 0, ``draw``: the stream's nonce)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code} ({', '.join(f'{k}={v!r}' for k, v in self.params.items())})"


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    """An outcome as the export's ``result`` holds it."""
    if outcome is None:
        return None
    return {
        "ranking": [list(group) for group in outcome.ranking],
        "scores": list(outcome.scores),
        "neutral": list(outcome.neutral),
    }


def build_export(
    game: str,
    options: dict[str, Any],
    players: Sequence[str],
    moves: Sequence[Move],
    commitment: str | None,
    server_seed: str | None,
    client_seed: str | None,
    outcome: Outcome | None,
    game_id: int | None = None,
    *,
    start: str | None = None,
    chain: str | None = None,
    owner_seated: bool = False,
) -> dict[str, Any]:
    """A game that is over as an export (version 2). ``moves``: (seq, seat, action text, dice calls or None, time
    or None, chain link or None), e.g. the game's ``actions`` rows, or ``games.record`` of a compacted game (no
    times, no links). The commitment and seeds are None only for a game played before fair dice (``UNFAIR``): it
    replays, but cannot be verified. ``start``: the start value; ``chain``: the log's head (None: a game from
    before either); ``owner_seated``: the bot's application owner held a seat."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "id": game_id,
        "game": game,
        "options": dict(options),
        "players": list(players),
        "moves": [
            {"seq": m[0], "seat": m[1], "action": m[2], "dice": m[3], "at": m[4], "link": m[5] if len(m) > 5 else None}
            for m in moves
        ],
        "commitment": commitment,
        "server_seed": server_seed,
        "client_seed": client_seed,
        "start": start,
        "chain": chain,
        "owner_seated": owner_seated,
        "result": outcome_json(outcome),
    }


# -- the dice alone ---------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return type(value) is int


def well_formed(call: Any) -> bool:
    """Is a recorded dice call ``[kind, n, values]``: kind r or s, n a whole number from 1 to 2**32, values a list of
    whole numbers (for a sample, no more than n)?"""
    if not (isinstance(call, list) and len(call) == 3 and call[0] in ("r", "s")):
        return False
    kind, n, values = call
    if not _is_int(n) or not 1 <= n <= 2**32:
        return False
    if not isinstance(values, list) or not all(_is_int(v) for v in values):
        return False
    return kind == "r" or len(values) <= n


def expected_values(seed: bytes, client_seed: str, nonce: int, call: list[Any], start: str | None = None) -> list[int]:
    """What the stream gives for a call of the recorded shape, from draw ``nonce`` on."""
    kind, n, values = call
    if kind == "r":
        return [draw_below(seed, client_seed, nonce + i, n, start) + 1 for i in range(len(values))]
    remaining = list(range(n))
    return [remaining.pop(draw_below(seed, client_seed, nonce + i, len(remaining), start)) for i in range(len(values))]


def _seed_bytes(server_seed: str, commitment: str) -> bytes | Mismatch:
    try:
        seed = bytes.fromhex(server_seed)
    except (TypeError, ValueError):
        return Mismatch("bad_seed")
    if not seed:
        return Mismatch("bad_seed")
    if commitment_of(seed) != str(commitment).lower():
        return Mismatch("commitment", {"commitment": commitment, "hashed": commitment_of(seed)})
    return seed


def verify_chain(commitment: str, head: str, moves: Sequence[dict[str, Any]]) -> Mismatch | None:
    """Every move linked to the one before it, from the commitment to ``head`` (bot.games.chain): a move left out,
    added, moved or changed breaks the chain at the first move whose recorded link differs (``chain``), or, for the
    last move (or a file without links: a compacted game), at the end (``chain_end``, naming the last move)."""
    link = chain.genesis(commitment)
    for move in moves:
        dice = None if move["dice"] is None else chain.dice_text(move["dice"])
        link = chain.link(link, move["seq"], move["seat"], move["action"], dice)
        if move.get("link") is not None and move["link"] != link:
            return Mismatch("chain", {"seq": move["seq"], "action": move["action"]})
    if link != str(head).lower():
        last = moves[-1] if moves else {"seq": 0, "action": ""}
        return Mismatch("chain_end", {"seq": last["seq"], "action": last["action"]})
    return None


def verify_draws(
    server_seed: str,
    client_seed: str,
    commitment: str,
    actions: Sequence[tuple[int, Calls | None]],
    start: str | None = None,
) -> Mismatch | None:
    """Check SHA-256(seed) against the commitment, then every recorded draw against the stream.

    ``actions``: (seq, dice calls or None) in order. A changed value is reported at its draw: the action's seq,
    the call's place in it, the draw's nonce, and the expected and recorded call values.
    """
    seed = _seed_bytes(server_seed, commitment)
    if isinstance(seed, Mismatch):
        return seed
    nonce = 0
    for seq, calls in actions:
        for number, call in enumerate(calls or ()):
            if not well_formed(call):
                return Mismatch("malformed", {"seq": seq, "call": number, "recorded": call})
            want = expected_values(seed, client_seed, nonce, call, start)
            if want != call[2]:
                first = next(i for i, (w, g) in enumerate(zip(want, call[2], strict=True)) if w != g)
                return Mismatch(
                    "draw",
                    {"seq": seq, "call": number, "draw": nonce + first, "expected": want, "recorded": call[2]},
                )
            nonce += len(want)
    return None


# -- the moves through the engine -------------------------------------------------------------------------


class _Replay(Exception):
    """The engine asked for dice the record does not hold (raised through the engine, caught by the replay)."""

    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(str(mismatch))
        self.mismatch = mismatch


class CheckedDice:
    """A DiceSource for one action's replay: serves the fair stream, and holds every call the engine makes to the
    recorded call at its place (same kind, same n, same count, same values)."""

    def __init__(self, fair: FairDice, seq: int, calls: Calls | None) -> None:
        self.fair, self.seq, self.calls, self.used = fair, seq, calls or [], 0

    def _expect(self, kind: str, n: int, count: int) -> list[Any]:
        asked = [kind, n, count]
        if self.used >= len(self.calls):
            raise _Replay(Mismatch("unrecorded_call", {"seq": self.seq, "call": self.used, "asked": asked}))
        call = self.calls[self.used]
        if not well_formed(call):
            raise _Replay(Mismatch("malformed", {"seq": self.seq, "call": self.used, "recorded": call}))
        if [call[0], call[1], len(call[2])] != asked:
            recorded = [call[0], call[1], len(call[2])]
            raise _Replay(Mismatch("shape", {"seq": self.seq, "call": self.used, "asked": asked, "recorded": recorded}))
        return call

    def _check(self, call: list[Any], nonce: int, got: list[int]) -> None:
        if got != call[2]:
            first = next(i for i, (w, g) in enumerate(zip(got, call[2], strict=True)) if w != g)
            params = {"seq": self.seq, "call": self.used, "draw": nonce + first, "expected": got, "recorded": call[2]}
            raise _Replay(Mismatch("draw", params))
        self.used += 1

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        call, nonce = self._expect("r", sides, count), self.fair.nonce
        faces = self.fair.roll(count, sides)
        self._check(call, nonce, faces)
        return faces

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        items = list(population)
        call, nonce = self._expect("s", len(items), k), self.fair.nonce
        indices = self.fair.sample_indices(len(items), k)
        self._check(call, nonce, indices)
        return [items[i] for i in indices]


def verify_replay(export: dict[str, Any]) -> Mismatch | None:
    """Replay the moves through the game's engine with the fair stream: each action must be legal, make exactly
    the dice calls recorded for it, and the game must end with the recorded result. Assumes ``check_schema``."""
    try:
        engine = get_engine(export["game"])
    except KeyError:
        return Mismatch("unknown_game", {"game": export["game"]})
    fair = FairDice.from_hex(export["server_seed"], export["client_seed"], 0, export.get("start"))
    state: Any = None
    for move in export["moves"]:
        seq, seat, text = move["seq"], move["seat"], move["action"]
        dice = CheckedDice(fair, seq, move["dice"])
        if text != START and state is not None and (not _is_int(seat) or not 0 <= seat < len(export["players"])):
            return Mismatch("no_seat", {"seq": seq, "action": text, "seat": seat})
        try:
            state, _ = apply_logged(engine, state, seat, text, dice, len(export["players"]), export["options"])
        except LogOrderError as error:
            return Mismatch(error.code, {"seq": seq} if error.code == "second_start" else {"seq": seq, "action": text})
        except _Replay as replay:
            return replay.mismatch
        except IllegalMove as refusal:
            return Mismatch("illegal", {"seq": seq, "action": text, "refusal": str(refusal)})
        except InvalidOptions as error:
            return Mismatch("options", {"problem": str(error)})
        except Exception as error:  # a hostile file must not crash the verifier: any failure is a mismatch
            return Mismatch("failed_move", {"seq": seq, "action": text, "error": f"{type(error).__name__}: {error}"})
        if dice.used < len(dice.calls):
            return Mismatch("unused_call", {"seq": seq, "call": dice.used, "recorded": dice.calls[dice.used]})
    outcome = None if state is None else engine.outcome(state)
    if outcome_json(outcome) != export["result"]:
        return Mismatch("result", {"expected": outcome_json(outcome), "recorded": export["result"]})
    return None


# -- the export -------------------------------------------------------------------------------------------

_FIELDS: dict[str, tuple[type, ...]] = {
    "game": (str,),
    "options": (dict,),
    "players": (list,),
    "moves": (list,),
    "commitment": (str,),
    "server_seed": (str,),
    "client_seed": (str,),
    "result": (dict, type(None)),
}
_V2_FIELDS: dict[str, tuple[type, ...]] = {
    "start": (str, type(None)),
    "chain": (str, type(None)),
    "owner_seated": (bool,),
}
_MOVE_FIELDS: dict[str, tuple[type, ...]] = {
    "seq": (int,),
    "seat": (int, type(None)),
    "action": (str,),
    "dice": (list, type(None)),
    "at": (int, float, type(None)),  # None: the game was compacted (games.record keeps no times)
}


def check_schema(export: Any) -> Mismatch | None:
    """Is this a version 1 or 2 export with every field of the right type, and the moves in seq order (in version 2
    with no seq left out)? A problem names the first field that is missing or wrong (``moves[3].seq``)."""
    if not isinstance(export, dict) or export.get("format", FORMAT) != FORMAT:
        return Mismatch("not_export")
    version = export.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        return Mismatch("version", {"version": version, "supported": VERSION})
    if all(export.get(name) is None for name in UNFAIR):  # a game from before fair dice: nothing to check against
        return Mismatch("not_fair")
    fields = {**_FIELDS, **_V2_FIELDS} if version == 2 else _FIELDS
    for name, kinds in fields.items():
        if name not in export or not isinstance(export[name], kinds):
            return Mismatch("schema", {"field": name})
    for number, player in enumerate(export["players"]):
        if not isinstance(player, str):
            return Mismatch("schema", {"field": f"players[{number}]"})
    last = None
    for number, move in enumerate(export["moves"]):
        if not isinstance(move, dict):
            return Mismatch("schema", {"field": f"moves[{number}]"})
        move_fields = {**_MOVE_FIELDS, "link": (str, type(None))} if version == 2 else _MOVE_FIELDS
        for name, kinds in move_fields.items():
            value = move.get(name)
            if name not in move or not isinstance(value, kinds) or isinstance(value, bool):
                return Mismatch("schema", {"field": f"moves[{number}].{name}"})
        if last is not None and move["seq"] <= last:  # seqs only grow: an action left out keeps its gap
            return Mismatch("schema", {"field": f"moves[{number}].seq"})
        if version == 2 and last is not None and move["seq"] != last + 1:  # and, since the chain, none is left out
            return Mismatch("gap", {"seq": last + 1, "after": last})
        last = move["seq"]
    return None


def verify_export(export: Any) -> Mismatch | None:
    """Everything: the schema, the chain, the commitment and every draw, then the replay. None when the game
    checks out."""
    problem = check_schema(export)
    if problem is None:
        seed = _seed_bytes(export["server_seed"], export["commitment"])
        problem = seed if isinstance(seed, Mismatch) else None
    if problem is None and export.get("chain") is not None:  # any edit, cut or move is named at its action
        problem = verify_chain(export["commitment"], export["chain"], export["moves"])
    if problem is None:  # a forger who rebuilt the chain is caught at the first draw the seed does not give
        actions = [(m["seq"], m["dice"]) for m in export["moves"]]
        fair = (export["server_seed"], export["client_seed"], export["commitment"])
        problem = verify_draws(*fair, actions, export.get("start"))
    return problem if problem is not None else verify_replay(export)


def mismatch_text(mismatch: Mismatch, locale: str = "en") -> str:
    return t(f"verify.{mismatch.code}", locale, **mismatch.params)


def main(argv: Sequence[str]) -> int:
    """``dicetavern verify FILE``: ✓ and exit 0 when the exported game checks out, else its first mismatch and 1."""
    if len(argv) != 1:
        print(t("verify.usage"), file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as file:
            export = json.load(file)
    except (OSError, ValueError) as error:
        print(t("verify.unreadable", path=argv[0], error=error), file=sys.stderr)
        return 1
    problem = verify_export(export)
    if problem is not None:
        print(t("verify.failed", problem=mismatch_text(problem)), file=sys.stderr)
        return 1
    draws = sum(len(call[2]) for move in export["moves"] for call in move["dice"] or ())
    print(t("verify.ok", game=export["game"], moves=len(export["moves"]), draws=draws, commitment=export["commitment"]))
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The ``verify`` subcommand's arguments, as ``bot.cli`` adds them (like ``play`` and ``simulate``)."""
    parser.add_argument("file", help="a game exported with /game export (JSON)")
    parser.set_defaults(handler=lambda args: main([args.file]))
    return parser
