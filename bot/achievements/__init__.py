"""Achievements: clear rules over recorded finished games, computed from the action log and results only, so
that they can be backfilled over games played before they existed (docs/ACHIEVEMENTS.md).

Pure: no discord, asyncio, I/O or random. ``earned`` names what one finished game earned each person seated in it
(computer players never earn); ``earned_overall`` / ``first_reached`` what a member's history earned across games.
The same record always gives the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.achievements import games as g
from bot.achievements import overall as o
from bot.achievements.model import GameRecord, LoggedMove, PlayerGame, Result, Seat, replay

__all__ = [
    "ACHIEVEMENTS",
    "Achievement",
    "GameRecord",
    "LoggedMove",
    "PlayerGame",
    "Result",
    "Seat",
    "by_id",
    "catalog_key",
    "earned",
    "earned_overall",
    "first_reached",
    "rule_key",
]


@dataclass(frozen=True)
class Achievement:
    """One achievement: a stable id (stored: never rename one), its game (None: across games), and its rule."""

    id: str
    game: str | None
    rule: g.Rule | None = None  # a per-game rule over one game and one seat
    overall: o.OverallRule | None = None  # an across-games rule over a member's history

    @property
    def key(self) -> str:
        """Its name's catalog key (bot/locales/<lang>/achievements.json)."""
        return catalog_key(self.id)

    @property
    def rule_key(self) -> str:
        """Its one-line rule's catalog key."""
        return rule_key(self.id)


def catalog_key(achievement_id: str) -> str:
    return f"achievements.name_{achievement_id}"


def rule_key(achievement_id: str) -> str:
    return f"achievements.rule_{achievement_id}"


def _game(game: str, *rules: g.Rule) -> tuple[Achievement, ...]:
    return tuple(Achievement(rule.__name__, game, rule=rule) for rule in rules)


ACHIEVEMENTS: tuple[Achievement, ...] = (
    *_game("pig", g.pig_bank_30, g.pig_one_turn_win, g.pig_no_bust, g.pig_ten_rolls, g.pig_double_ones),
    *_game("mia", g.mia_flawless, g.mia_last_life, g.mia_real_mia, g.mia_bluff_hunter, g.mia_full_table),
    *_game("mex", g.mex_three_mexes, g.mex_first_throw, g.mex_flawless, g.mex_last_life, g.mex_full_table),
    *_game("liar", g.liar_last_die_challenge, g.liar_exact_bid, g.liar_sharp_eye, g.liar_flawless, g.liar_comeback),
    *_game("mythic", g.mythic_all_exact, g.mythic_big_bid, g.mythic_sweep, g.mythic_zero, g.mythic_winner_exact),
    *(
        Achievement(rule.__name__, None, overall=rule)
        for rule in (o.first_win, o.ten_wins, o.every_game_win, o.regular)
    ),
)

_BY_ID = {a.id: a for a in ACHIEVEMENTS}
# game -> its per-game achievements' (id, rule), in ``ACHIEVEMENTS`` order (what ``earned`` runs, found once)
_RULES: dict[str, tuple[tuple[str, g.Rule], ...]] = {}
for _a in ACHIEVEMENTS:
    if _a.game is not None and _a.rule is not None:
        _RULES[_a.game] = (*_RULES.get(_a.game, ()), (_a.id, _a.rule))


def by_id(achievement_id: str) -> Achievement | None:
    return _BY_ID.get(achievement_id)


def earned(record: GameRecord) -> dict[int, tuple[str, ...]]:
    """Member id -> the ids of this game's achievements they earned, in ``ACHIEVEMENTS`` order. Only people
    seated earn (never a computer player); a record that does not replay to its end earns nothing."""
    if all(sitter.computer for sitter in record.seats):  # nobody can earn: no replay
        return {}
    played = replay(record)
    if played is None:
        return {}
    rules = _RULES.get(record.game, ())
    found: dict[int, tuple[str, ...]] = {}
    for seat, sitter in enumerate(record.seats):
        if sitter.computer:
            continue
        ids = tuple(achievement for achievement, rule in rules if rule(played, seat))
        if ids:
            found[sitter.member_id] = tuple(dict.fromkeys(found.get(sitter.member_id, ()) + ids))
    return found


def first_reached(history: Sequence[PlayerGame]) -> dict[str, int]:
    """Each across-games achievement the history earned -> the game id with which it was first reached (the
    history is read oldest first: by ``finished_at``, then ``game_id``)."""
    ordered = sorted(history, key=lambda game: (game.finished_at, game.game_id))
    reached: dict[str, int] = {}
    for a in ACHIEVEMENTS:
        rule = a.overall
        if rule is None:
            continue
        direct = o.REACHED.get(rule)
        if direct is not None:  # the shortest earning prefix in one pass (what the bisection below finds)
            length = direct(ordered)
            if length is not None:
                reached[a.id] = ordered[length - 1].game_id
            continue
        if not rule(ordered):
            continue
        # these rules only ever become true as games are added: the shortest earning prefix, by bisection
        lo, hi = 1, len(ordered)
        while lo < hi:
            mid = (lo + hi) // 2
            if rule(ordered[:mid]):
                hi = mid
            else:
                lo = mid + 1
        reached[a.id] = ordered[lo - 1].game_id
    return reached


def earned_overall(history: Sequence[PlayerGame]) -> tuple[str, ...]:
    """The across-games achievements a member's history earned, in ``ACHIEVEMENTS`` order."""
    ordered = sorted(history, key=lambda game: (game.finished_at, game.game_id))
    return tuple(a.id for a in ACHIEVEMENTS if a.overall is not None and a.overall(ordered))
