"""Computer players for every game (bot.ai): the registry, legality, secrecy and strength.

* Legality: many seeded games of every game, under varied options and player counts, with the
  three levels mixed at the table; every decision (``bot.ai.decide``, without the registry's
  safety net) must be one of the engine's legal actions.
* Secrecy: at every decision the seat's view is rebuilt from ``engine.scramble(state, seat, ...)``
  (everything hidden from the seat re-drawn) and the player must make the same decision with the
  same rng seed; the global ``random`` is reseeded in between, and the view must not be mutated.
* Strength: hard takes more than its fair share of the first seeded games of
  benchmarks/hard_beats_easy.py (one hard seat against easy seats, rotating between games); the
  statistical claim over hundreds of games (one-sided exact binomial test p < 0.01 against the
  share of wins a seat gets by symmetry) is that benchmark's.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

import pytest

import bot.ai as ai
from benchmarks.hard_beats_easy import STRENGTH, binomial_tail, hard_wins
from bot.ai import pig_player
from bot.games import get_engine
from bot.games.base import Action
from bot.games.dice import SeededDice

GAMES = ("pig", "mia", "mex", "liar", "mythic")


@pytest.fixture(autouse=True)
def private_pig_cache(tmp_path, monkeypatch):
    """Pig variants without a shipped table are solved inline and cached: keep that out of the repo."""
    monkeypatch.setenv(pig_player.CACHE_ENV, str(tmp_path / "cache"))
    pig_player.clear_memory_cache()
    yield
    pig_player.clear_memory_cache()


# ------------------------------------------------------------------------------------------
# The registry


def test_levels_and_aliases():
    assert ai.LEVELS == ("easy", "normal", "hard")
    assert ai.normalise_level("Medium") == "normal"
    assert ai.normalise_level("expert") == "hard"
    with pytest.raises(ValueError):
        ai.normalise_level("godlike")


def test_bot_names_are_friendly_and_distinct():
    for level in ai.LEVELS:
        names = [ai.bot_name(level, i) for i in range(20)]
        assert len(set(names)) == 20
        assert all(name and len(name) <= 32 for name in names)
        assert names[0] == ai.DEFAULT_NAMES[level][0]
    everyone = [name for level in ai.LEVELS for name in ai.DEFAULT_NAMES[level]]
    assert len(set(everyone)) == len(everyone)


def test_unknown_game_and_level_are_refused():
    engine = get_engine("mia")
    state, _ = engine.new_game(2, engine.options(), SeededDice(1))
    seat = engine.to_act(state)[0]
    view = engine.view(state, seat)
    with pytest.raises(KeyError):
        ai.choose("chess", view, "easy", random.Random(1))
    with pytest.raises(ValueError):
        ai.choose("mia", view, "impossible", random.Random(1))
    with pytest.raises(ValueError):  # not this seat's turn: nothing legal
        ai.choose("mia", engine.view(state, 1 - seat), "hard", random.Random(1))


@pytest.mark.parametrize("game", GAMES)
def test_legal_argument_overrides_the_view(game):
    """The service passes ``legal``; a player must pick from it even when the view's list is missing."""
    engine = get_engine(game)
    lo, _ = engine.player_range(engine.options())
    dice = SeededDice(11)
    state, _ = engine.new_game(lo, engine.options(), dice)
    for _ in range(30):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        bare = {k: v for k, v in view.items() if k != "legal"}
        for level in ai.LEVELS:
            expected = ai.decide(game, view, level, random.Random(3))
            assert ai.decide(game, bare, level, random.Random(3), legal) == expected
            assert ai.choose(game, view, level, random.Random(3), legal) == expected
        # a narrower list (here: one action) must be respected
        only = [legal[-1]]
        for level in ai.LEVELS:
            assert ai.choose(game, bare, level, random.Random(3), only) == legal[-1]
        state, _ = engine.apply(state, seat, ai.choose(game, view, "normal", random.Random(3)), dice)


# ------------------------------------------------------------------------------------------
# Legality and secrecy over many games

# (players, options) per game: defaults plus option sets that change what is legal or hidden.
# Lives, targets and hands are kept small so that many games fit in the time budget.
CONFIGS: dict[str, list[tuple[int, dict]]] = {
    "pig": [
        (2, {}),
        (3, {"dice": 2}),
        (4, {"target": 30, "equal_turns": True}),
        (2, {"dice": 2, "double_ones": "lose_score", "must_roll_after_doubles": True, "target": 30}),
        (3, {"dice": 2, "double_ones": "bust", "doubles_multiplier": 1, "target": 30}),
        (2, {"target": 25, "auto_hold_at_target": False}),
    ],
    "mia": [
        (3, {"lives": 3}),
        (2, {"doubles_order": "sixes_high", "blind_pass": "any", "lives": 2}),
        (4, {"blind_pass": "first_receiver", "mia_mode": "auto_reveal", "mia_check_penalty": 3, "lives": 2}),
        (5, {"blind_pass": "any", "next_round_starter": "challenger", "mia_check_penalty": 1, "lives": 2}),
        (3, {"next_round_starter": "loser", "stop_at_first_elimination": True, "doubles_order": "sixes_high"}),
    ],
    "mex": [
        (3, {"starting_lives": 3}),
        (4, {"hold_one_or_two": True, "mex_passes_lead": True, "starting_lives": 2}),
        (2, {"max_throws": 1, "allow_end_round_early": False, "starting_lives": 3}),
        (
            5,
            {
                "mex_ends_turn": False,
                "mex_penalty": "doubling",
                "max_throws": 2,
                "hold_one_or_two": True,
                "starting_lives": 2,
            },
        ),
        (3, {"tiebreak_mode_choice": "always_pips", "mex_penalty": "additive", "points_enabled": False}),
        (4, {"tiebreak_mode_choice": "always_mex", "mex_penalty": "double_once", "first_starter": "seat1"}),
    ],
    "liar": [
        (2, {}),
        (3, {"raise_rule": "simple", "wild_ones": True}),
        (4, {"raise_rule": "sum", "dice_per_player": 3}),
        (2, {"raise_rule": "pirates", "wild_ones": True, "dice_per_player": 2}),
        (5, {"raise_rule": "lefthand", "dice_per_player": 2}),
        (3, {"mode": "loot", "dice_per_player": 2, "max_rounds": 12}),
        (4, {"mode": "lose_die", "dice_per_player": 2, "starter": "winner", "wild_ones": True}),
        (6, {"mode": "lose_die", "dice_per_player": 1, "raise_rule": "pirates"}),
    ],
    "mythic": [
        (3, {"hands_by_players": "3:4"}),
        (4, {"hands_by_players": "4:4", "three_way": "sequential", "same_special_tie": "earlier"}),
        (
            5,
            {
                "hands_by_players": "5:3",
                "all_flags": "nobody",
                "hand_leader": "last_trick_winner",
                "special_lead_sets_no_suit": True,
            },
        ),
        (2, {"allow_two_players": True, "hands_by_players": "2:5", "bonus_flag_scope": "hand"}),
        (6, {"hands_by_players": "6:3", "griffin_bonus": "per_trick", "bonuses_enabled": False}),
        (3, {"hands_by_players": "3:5,4:4,5:3,6:3", "dice_set": "1,3,2,4,4,4,4", "tie_break": "exact_bids"}),
    ],
}
GAMES_PER_CONFIG = {"pig": 6, "mia": 15, "mex": 8, "liar": 40, "mythic": 6}


def play_checked(
    game: str, players: int, options: dict, seed: int, kinds: Sequence[str] = ai.LEVELS, tag: str = ""
) -> int:
    """One game with mixed levels (drawn from ``kinds``, one ``hard`` seat); checks legality, secrecy and purity at
    every decision. ``tag`` starts the seeds (the reference players' games are other games)."""
    engine = get_engine(game)
    table_rng = random.Random(f"{tag}{game}:{seed}")
    levels = [table_rng.choice(kinds) for _ in range(players)]
    levels[table_rng.randrange(players)] = "hard"  # every level shows up across the games
    dice = SeededDice(f"{tag}{game}:{seed}")
    state, _ = engine.new_game(players, engine.options(options), dice)
    decisions = 0
    while not engine.is_over(state):
        assert decisions < 20_000, "the game did not end"
        for seat in engine.to_act(state):
            if seat not in engine.to_act(state):
                continue
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            snapshot = copy.deepcopy(view)
            key = table_rng.randrange(2**32)
            random.seed(key)  # the global random must not matter
            action = ai.decide(game, view, levels[seat], random.Random(key))
            assert isinstance(action, Action)
            assert action in legal, f"{game} {levels[seat]} chose {action}; legal: {legal} ({options})"
            assert view == snapshot, "the player mutated its view"
            scrambled = engine.scramble(state, seat, SeededDice(key + 1))
            hidden = engine.view(scrambled, seat)
            assert hidden == view
            random.seed(key + 2)
            again = ai.decide(game, hidden, levels[seat], random.Random(key))
            assert again == action, f"{game} {levels[seat]}: a different decision from the same view"
            bare = {k: v for k, v in view.items() if k != "legal"}  # the legal actions passed instead
            assert ai.decide(game, bare, levels[seat], random.Random(key), legal) == action
            state, _ = engine.apply(state, seat, action, dice)
            decisions += 1
            if engine.is_over(state):
                break
    return decisions


@pytest.mark.parametrize(("game", "config"), [(game, n) for game in GAMES for n in range(len(CONFIGS[game]))])
def test_computer_players_only_make_legal_moves(game, config):
    """One option set of one game per test (they run in parallel): every one of its seeded games checked."""
    players, options = CONFIGS[game][config]
    decisions = sum(play_checked(game, players, options, seed) for seed in range(GAMES_PER_CONFIG[game]))
    assert decisions > 200 / len(CONFIGS[game])  # (the game's option sets together: over 200 decisions)


# ------------------------------------------------------------------------------------------
# Strength: hard beats easy

# The first games of benchmarks/hard_beats_easy.py's seeded series, one hard seat against easy seats: hard takes
# more than its fair share of them. The statistical claim (hundreds of games, a 95% interval, p < 0.01) is that
# benchmark's: ``python -m benchmarks.hard_beats_easy`` (docs/AI.md).
SANITY_GAMES = {"pig": 24, "mia": 48, "mex": 48, "liar": 24, "mythic": 6}


@pytest.mark.parametrize("game", GAMES)
def test_hard_beats_easy_in_the_first_seeded_games(game):
    others, options, _ = STRENGTH[game]
    games = SANITY_GAMES[game]
    wins = hard_wins(game, others, options, games)
    fair = games / (len(others) + 1)
    assert wins > fair, f"{game}: hard won {wins:g} of the first {games} games (fair share {fair:g})"


def test_binomial_tail():
    assert binomial_tail(0, 10, 0.5) == 1.0
    assert binomial_tail(10, 10, 0.5) == pytest.approx(1 / 1024)
    assert binomial_tail(6, 10, 0.5) == pytest.approx(386 / 1024)
