"""Mia property tests: random legal games under random options keep the rules' invariants."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import Action, IllegalMove, act
from bot.games.dice import SeededDice
from bot.games.mia import ENGINE as MIA_ENGINE
from bot.games.mia import GAME_OVER, VALUES, MiaOptions, MiaState
from bot.i18n import has
from bot.render import error_keys
from tests.games.playout import random_playout

OPTIONS = st.builds(
    MiaOptions,
    doubles_order=st.sampled_from(["ones_high", "sixes_high"]),
    lives=st.integers(1, 10),
    mia_check_penalty=st.integers(1, 3),
    mia_mode=st.sampled_from(["challengeable", "auto_reveal"]),
    blind_pass=st.sampled_from(["off", "first_receiver", "any"]),
    next_round_starter=st.sampled_from(["left_of_loser", "loser", "challenger"]),
    stop_at_first_elimination=st.booleans(),
)

# Everything a player could type: all values, some malformed ones, every action name.
CANDIDATES = [act(name, v) for name in ("claim", "blind_pass") for v in (*VALUES, 12, 35, 0, 77)] + [
    act(name) for name in ("roll", "peek", "challenge", "give_up", "challenge_mia", "claim", "blind_pass", "hold")
]
SENTINEL = [4242, 1717]  # impossible faces: if they (or their "value") show up in a view, hidden dice leaked


def check_no_leak(state: MiaState) -> None:
    """Only the roller who has looked may see the cup; nobody else, spectators included."""
    if state.cup_dice is None:
        return
    marked = copy.deepcopy(state)
    marked.cup_dice = list(SENTINEL)
    for seat in [None, *range(len(state.lives))]:
        text = json.dumps(MIA_ENGINE.view(marked, seat), separators=(",", ":"))
        knows = seat == state.roller and state.looked
        assert ("4242" in text) == knows and ("1717" in text) == knows, f"seat {seat} view: {text}"
        assert "44137" not in text


def check_illegal_refused(state: MiaState, rng: random.Random) -> None:
    """A few actions outside legal_actions, from the mover and a bystander, raise and change nothing."""
    before = MIA_ENGINE.dumps(state)
    seats = range(len(state.lives))
    for seat in rng.sample(list(seats), min(2, len(seats))):
        legal = MIA_ENGINE.legal_actions(state, seat)
        for action in rng.sample(CANDIDATES, 6):
            if action in legal:
                continue
            try:
                MIA_ENGINE.apply(state, seat, action, SeededDice(0))
            except IllegalMove as error:
                assert any(has(key) for key in error_keys(error.code, error.params, "mia")), error
            else:
                raise AssertionError(f"{action} from {seat} was accepted but is not legal")
    assert MIA_ENGINE.dumps(state) == before


def check_finished(state: MiaState, events: list, players: int, options: MiaOptions) -> None:
    outcome = MIA_ENGINE.outcome(state)
    assert outcome is not None and state.phase == GAME_OVER
    assert len(outcome.winners) == 1, "exactly one winner"
    assert sorted(p for place in outcome.ranking for p in place) == list(range(players))
    assert outcome.scores == tuple(state.lives)
    alive = [p for p in range(players) if state.alive[p]]
    if options.stop_at_first_elimination:
        assert len(state.out) == 1 and len(alive) >= 1
    else:
        assert alive == list(outcome.winners)
    assert state.loser is not None and state.loser in state.out[0]
    over = [e.data for e in events if e.kind == "game_over"]
    assert len(over) == 1 and over[0]["winner"] == outcome.winners[0] and over[0]["loser"] == state.loser
    firsts = [e.data["player"] for e in events if e.kind == "eliminated" and e.data["first"]]
    assert firsts == [state.loser]
    check_lives_match_events(state, events, options)
    assert MIA_ENGINE.loads(MIA_ENGINE.dumps(state)) == state


def check_lives_match_events(state: MiaState, events: list, options: MiaOptions) -> None:
    spent: Counter[int] = Counter()
    for e in events:
        assert e.to is None or e.kind == "dice", "only the roller's own dice are private"
        json.dumps(e.data)
        if e.kind in ("life_lost", "forfeit"):
            spent[e.data["player"]] += e.data["lost"]
        if e.kind == "life_lost":
            assert 0 <= e.data["lost"] <= e.data["penalty"] and e.data["lives"] >= 0
    assert state.lives == [options.lives - spent[p] for p in range(len(state.lives))]


def check_next_starter(state: MiaState, player: int, action: Action, new: MiaState, events: list) -> None:
    """M-7 / M-7a, recomputed: several losers -> left of the announcer under every option; otherwise by
    ``next_round_starter``, where only a player who answered the claim (challenge, Mia check or concession)
    is the challenger, and no answer falls back to left of the loser. Eliminated seats pass it on."""
    starts = [e.data["starter"] for e in events if e.kind == "round_start"]
    if not starts:
        return
    n = len(new.alive)

    def from_seat(p: int, include: bool) -> int:
        return next(q for q in ((p + i) % n for i in range(0 if include else 1, n + 1)) if new.alive[q])

    losers = [e.data["player"] for e in events if e.kind == "life_lost"]
    mode = state.options.next_round_starter
    answered = action.name in ("challenge", "challenge_mia", "give_up")
    if len(losers) > 1:
        expected = from_seat(player, include=False)  # the announcer of the auto-revealed Mia
    elif mode == "loser":
        expected = from_seat(losers[0], include=True)
    elif mode == "challenger" and answered:
        expected = from_seat(player, include=True)
    else:
        expected = from_seat(losers[0], include=False)
    assert starts == [expected], (mode, action, losers)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), options=OPTIONS)
def test_random_games_keep_the_rules(seed, players, options):
    rng = random.Random(seed)

    def check(state, player, action, new, events):
        assert all(x >= 0 for x in new.lives), "lives never go negative"
        assert all((x > 0) == alive for x, alive in zip(new.lives, new.alive, strict=True))
        if new.phase != GAME_OVER:
            assert new.alive[new.holder]
            check_no_leak(new)
        check_illegal_refused(state, rng)
        check_next_starter(state, player, action, new, events)

    deep = seed % 8 == 0  # the full per-step contract check on a slice of the games keeps the run short
    state, events, _ = random_playout(MIA_ENGINE, players, options, seed, check=check, deep=deep)
    check_finished(state, events, players, options)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 10), options=OPTIONS)
def test_random_games_with_timeouts_and_forfeits(seed, players, options):
    """Timeouts and forfeits at random moments, by the mover or anyone, never break the game."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state, events = MIA_ENGINE.new_game(players, options, dice)
    for _ in range(5000):
        if MIA_ENGINE.is_over(state):
            break
        mover = MIA_ENGINE.to_act(state)[0]
        roll = rng.random()
        before = MIA_ENGINE.dumps(state)
        if roll < 0.05:
            new, ev = MIA_ENGINE.forfeit(state, rng.randrange(players), dice)
        elif roll < 0.15:
            new, ev = MIA_ENGINE.timeout(state, mover, dice)
            assert ev and ev[0].kind == "timeout"
        else:
            action: Action = rng.choice(MIA_ENGINE.legal_actions(state, mover))
            new, ev = MIA_ENGINE.apply(state, mover, action, dice)
        assert MIA_ENGINE.dumps(state) == before
        state = new
        events += ev
        if not MIA_ENGINE.is_over(state):
            check_no_leak(state)
    check_finished(state, events, players, options)
