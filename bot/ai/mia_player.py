"""Computer players for Mia (rules/mia.md, "Strategy notes"): a seat's view in, an action out.

``choose(view, level, rng, legal=None)`` reads only ``view`` (the engine's ``view(state, seat)``
for the computer's own seat: ``phase``, ``claim``, ``dice`` once peeked, ``lives``, ``options``,
``blind_streak``, ``legal``) and returns one of ``view["legal"]`` (or of ``legal`` when given).

``normal`` and ``hard`` (issue 17) play the solved heads-up round (:mod:`bot.ai.mia_solved`; ``hard`` also models
each opponent from the view's public ``log``); the heuristics below are ``easy`` and their fallback when the solved
play has nothing to say (no dice seen).

Probabilities are by rank, so both ``doubles_order`` settings share one table (rules, Part B).
``t`` is the estimated chance that the claim under the cup is true, ``r`` the chance that a
fresh roll beats it (a truthful raise), ``q`` the chance that a forced lie gets called.

* **Receiving a claim** (not Mia): challenge when ``t < (1 - r) * q`` (the rules' heuristic);
  t is the naive prior P(fresh roll >= claim) at every level. ``normal`` takes q = 1/2, which
  gives "challenge 64 and above". ``hard`` takes q from a table of how often a claim one value
  higher gets called (``HARD_CALLED``, measured in simulated games against easy and normal
  players), which makes rolling cheap under 62 and dear from 64 up: it challenges 63 and above.
  (A calibrated t, the measured share of true claims by value, did worse in simulation.)
  With ``blind_pass`` on, ``normal`` and ``hard`` also weigh passing blind at the same value
  (cost ``(1 - t) * q``). Under ``mia_mode=auto_reveal`` a forced Mia lie always costs the life.
* **Facing Mia**: conceding costs 1 life, checking costs ``penalty * P(real Mia)``. ``normal``
  uses the naive 1/18 and so always checks (the rules' advice). ``hard`` believes a Mia claim
  is real with P = 0.6 (``HARD_MIA_REAL``): in simulation computer players, who never bluff
  Mia unless forced and are rarely forced, had a real Mia nearly every time they claimed one.
  So it concedes at the default penalty 2, checks at penalty 1, and still checks 15% of the
  time so that bluffing it with Mia does not pay (``HARD_MIA_CHECK``).
* **Announcing**: always peek first. A roll that beats the claim (or any opening roll) is
  announced truthfully; otherwise lie minimally (the lowest legal value), ``hard`` one step
  higher 10% of the time so that its lies are less predictable. Lies avoid Mia under
  ``mia_mode=auto_reveal`` (revealed at once) unless nothing else is legal.
* ``easy``: the naive rule with its roll cost scaled by a random 0.4-1.6 at each decision,
  understates a good roll 20% of the time, lies 0-2 steps above the minimum, concedes a Mia a
  third of the time.

Randomness comes only from ``rng``.
"""

from __future__ import annotations

from typing import Any

from bot.ai import mia_solved
from bot.ai.common import make_choose
from bot.games.base import Action
from bot.games.mia import (
    AWAIT_CLAIM,
    AWAIT_MIA_RESPONSE,
    AWAIT_RESPONSE,
    CHALLENGE,
    CHALLENGE_MIA,
    GIVE_UP,
    MIA,
    PEEK,
    ROLL,
    MiaView,
    rank,
    ranked_values,
    value_of,
)

#: P(a fresh roll = v) for each of the 21 values (1/18 for Mia and non-doubles, 1/36 for doubles).
PROB = {v: (1 if v // 10 == v % 10 else 2) / 36 for v in ranked_values()}

# Tuned by simulation (see the module docstring).
NORMAL_Q = 0.5
#: hard: P(a claim gets challenged) by rank position, as measured against easy and normal players
HARD_CALLED = (
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.1,
    0.3, 0.65, 0.85, 0.95, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
)  # fmt: skip
HARD_MIA_REAL = 0.6  # hard: P(real Mia | Mia claimed); > 1/2, so it concedes at the default penalty 2
HARD_MIA_CHECK = 0.15  # hard still checks this often, so that bluffing it with Mia does not pay
HARD_LIE_STEP = 0.1  # chance that hard lies one value above the minimum (not to be predictable)
EASY_MIA_GIVE_UP = 1 / 3


def _order(view: MiaView) -> str:
    return (view.get("options") or {}).get("doubles_order", "ones_high")


def _position(value: int, order: str) -> int:
    """0 for the lowest value (31) up to 20 for Mia."""
    return ranked_values(order).index(value)


def p_at_least(value: int, order: str) -> float:
    """P(a fresh roll ranks >= ``value``)."""
    key = rank(value, order)
    return sum(p for v, p in PROB.items() if rank(v, order) >= key)


def p_above(value: int, order: str) -> float:
    """P(a fresh roll ranks > ``value``): the chance to raise truthfully."""
    key = rank(value, order)
    return sum(p for v, p in PROB.items() if rank(v, order) > key)


def truth_estimate(claim: int, level: str, order: str) -> float:
    """P(the claim under the cup is true), as the given level believes it."""
    if level == "hard" and claim == MIA:
        return HARD_MIA_REAL
    return p_at_least(claim, order)


def _decide(view: MiaView, level: str, rng: Any, actions: list[Action]) -> Action:
    """The pick among two or more legal ``actions``; :func:`choose` (the shared prelude) calls this."""
    if PEEK in actions:
        return PEEK  # bots always look at their dice
    phase = view.get("phase")
    responding = phase in (AWAIT_MIA_RESPONSE, AWAIT_RESPONSE) or CHALLENGE_MIA in actions or CHALLENGE in actions
    if level != "easy":
        solved = mia_solved.respond if responding else mia_solved.announce
        action = solved(view, level, rng, actions)
        if action is not None:
            return action
    if phase == AWAIT_MIA_RESPONSE or CHALLENGE_MIA in actions:
        return _mia_response(view, level, rng, actions)
    if phase == AWAIT_RESPONSE or CHALLENGE in actions:
        return _response(view, level, rng, actions)
    if phase == AWAIT_CLAIM or any(a.name == "claim" for a in actions):
        return _announce(view, level, rng, actions)
    return actions[0]


def _random(rng: Any) -> float:
    return rng.random() if rng is not None else 0.5


def _mia_response(view: MiaView, level: str, rng: Any, actions: list[Action]) -> Action:
    options = view.get("options") or {}
    penalty = int(options.get("mia_check_penalty", 2))
    if level == "easy":
        give_up = _random(rng) < EASY_MIA_GIVE_UP
    elif level == "hard" and penalty > 1 and _random(rng) < HARD_MIA_CHECK:
        give_up = False
    else:
        real = truth_estimate(MIA, level, _order(view))
        give_up = penalty * real > 1
    want = GIVE_UP if give_up else CHALLENGE_MIA
    return want if want in actions else actions[0]


def _response(view: MiaView, level: str, rng: Any, actions: list[Action]) -> Action:
    order = _order(view)
    claim = view.get("claim")
    if claim is None:
        return ROLL if ROLL in actions else actions[0]
    options = view.get("options") or {}
    t = truth_estimate(claim, level, order)
    r = p_above(claim, order)
    if options.get("mia_mode") == "auto_reveal" and _next_is_mia(claim, order):
        q = 1.0  # the only raise is Mia, revealed at once: a lie always costs the life
    elif level == "hard":
        q = HARD_CALLED[min(_position(claim, order) + 1, 20)]
    else:
        q = NORMAL_Q
    roll_cost = (1 - r) * q
    if level == "easy":
        # a noisy threshold: sometimes gullible, sometimes suspicious
        roll_cost *= 0.4 + 1.2 * _random(rng)
    costs: list[tuple[float, int, Action]] = []
    if CHALLENGE in actions:
        costs.append((t, 0, CHALLENGE))
    if ROLL in actions:
        costs.append((roll_cost, 1, ROLL))
    blind = Action("blind_pass", (claim,))
    if level != "easy" and blind in actions:
        # same dice, same claim: lose only if it is false and the next player calls it
        costs.append(((1 - t) * q, 2, blind))
    if not costs:
        return actions[0]
    return min(costs, key=lambda c: (c[0], c[1]))[2]


def _next_is_mia(claim: int, order: str) -> bool:
    values = ranked_values(order)
    i = values.index(claim)
    return i + 1 < len(values) and values[i + 1] == MIA


def _announce(view: MiaView, level: str, rng: Any, actions: list[Action]) -> Action:
    order = _order(view)
    claims = sorted(
        (int(a.args[0]) for a in actions if a.name == "claim" and a.args),
        key=lambda v: rank(v, order),
    )
    if not claims:
        return actions[0]
    dice = view.get("dice")
    mine = value_of(dice) if dice else None
    options = view.get("options") or {}
    if mine is not None and mine in claims:
        if level == "easy" and mine != MIA and _random(rng) < 0.2:
            return Action("claim", (claims[0],))  # an understatement: legal, safe, weak
        return Action("claim", (mine,))
    # a lie: the minimum legal value, sometimes a step or two higher
    lies = claims
    if options.get("mia_mode") == "auto_reveal" and len(lies) > 1:
        lies = [v for v in lies if v != MIA]
    step = 0
    if level == "hard" and _random(rng) < HARD_LIE_STEP:
        step = 1
    elif level == "easy":
        step = int(_random(rng) * 3)
    return Action("claim", (lies[min(step, len(lies) - 1)],))


choose = make_choose(_decide, "Mia")
