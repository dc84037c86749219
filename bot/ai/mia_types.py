"""Who is this claimant? A posterior over a few kinds of announcer, from every claim they made this game.

Each kind says how likely each claim is after the standing claim ``p`` (the roll unseen) and how likely such a claim
is true, so all of a seat's claims weigh the kinds (Bayes), a revealed one also by whether it was true (a 62 shown
to be a lie is far likelier from a 62-bluffer than from the equilibrium), and the next claim's truth is the
posterior's average. The kinds:

* the equilibrium announcer (the solved round's own mix);
* ``jump to X`` for every value X: tells the truth when its roll beats X, and otherwise claims X while X is legal,
  the lowest legal value after that. X below every claim is the plain "truth, else the minimal lie" player; X = Mia
  claims Mia whenever it can;
* ``truth, else lie to X`` for every value X (issue 31): announces a roll that beats the standing claim truthfully
  and otherwise claims X (the lowest legal value when X is not above it); X = Mia is the player who announces Mia
  whenever it must lie, which beat hard heads-up while no kind described it.

Every kind also strays now and then (``NOISE``): mostly to the equilibrium's mix (so a 62-bluffer's rare true
double stays believable), a little to any legal claim (so no claim rules a kind out). The prior (:func:`log_prior`)
gives the equilibrium 0.57, the truthful player 0.1, the jump kinds 0.3, shared by how often the equilibrium
opens with X (so one claim of any X is the same small evidence) and by what that bluff earns against the
equilibrium (``SKILL``: 62 pays, a double does not), and the lie-to-X kinds 0.03, half of it on lie to Mia and
half shared equally (``LIE_MIA``; three Mias over a standing claim, with truthful openings, unmask the Mia liar;
more weight there cost ``hard`` against ``claim62``, 0.888 at 0.10 spread equally against 0.907 now). One opening 62
leaves the equilibrium's indifference nearly alone; two make a 62-bluffer about as likely as not; a player who
claims Mia every round is recognised as fast.

Receivers (:func:`challenge_rates`, ``hard`` only) are weighed the same way by the claims they answered: the
equilibrium receiver, or "challenge from T on" for every T. The thresholds' prior follows how much the
equilibrium's opening challenge rate rises at T, plus ``NAIVE`` on the textbook threshold 62 (a fresh roll beats it
less than half the time), so before any answer ``hard`` already bluffs to 62 and above a little less than the
equilibrium (which costs nothing against the equilibrium receiver, indifferent there).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.ai.mia_solver import PROB, N, Solution

Claim = tuple[int, int, bool | None]  # (p, c, shown true / shown false / not revealed)

NOISE = 0.05
UNIFORM = 0.2  # of the noise: any legal claim (the rest: the equilibrium's mix)
KINDS = 2 * N + 2  # 0: equilibrium; 1 + (X + 1) for X = -1 .. 20: jump to X; N + 2 + X: truth, else lie to X
#: prior weight of the equilibrium, the truthful player, all the "jump to X" kinds together (shared out by how
#: often the equilibrium opens with X, so that one claim of X says as little for every X), and all the "truth,
#: else lie to X" kinds together (:data:`LIE_MIA` of it on lie to Mia, the rest shared equally)
WEIGHTS = (0.57, 0.1, 0.3, 0.03)
LIE_MIA = 0.5  # of the lie-to-X kinds' prior: lie to Mia (the exploit that farmed hard); the rest shared equally
FLOOR = 0.01  # the share of a value the equilibrium never opens with
SKILL = 5.0  # per life: a bluffer's value X is likelier the more that bluff earns against the equilibrium
AT_LEAST = np.array([PROB[c:].sum() for c in range(N)])  # P(roll >= c)
AT_MOST = np.cumsum(PROB)  # P(roll <= c)


def _jump(p: int, x: int) -> tuple[np.ndarray, np.ndarray]:
    """(P(claim c), P(true | claim c)) of the "jump to X" announcer above ``p``."""
    dist, truth = np.zeros(N), np.ones(N)
    if p < x:
        dist[x + 1 :] = PROB[x + 1 :]
        dist[x] = AT_MOST[x]
        truth[x] = PROB[x] / AT_MOST[x]
    elif p < 0:
        dist[:] = PROB  # the truth: there is no claim to beat
    else:
        dist[p + 2 :] = PROB[p + 2 :]
        dist[p + 1] = PROB[p + 1] + AT_MOST[p]
        truth[p + 1] = PROB[p + 1] / dist[p + 1]
    return dist, truth


def _lie(p: int, x: int) -> tuple[np.ndarray, np.ndarray]:
    """(P(claim c), P(true | claim c)) of the "truth, else lie to X" announcer above ``p``: it announces a roll that
    beats ``p`` truthfully and otherwise claims X (the lowest legal value when X is not above ``p``); X = Mia is the
    player who announces Mia whenever it must lie."""
    dist, truth = np.zeros(N), np.ones(N)
    if p < 0:
        dist[:] = PROB
        return dist, truth
    target = max(x, p + 1)
    dist[p + 1 :] = PROB[p + 1 :]
    dist[target] += AT_MOST[p]
    truth[target] = PROB[target] / dist[target]
    return dist, truth


def kinds(sol: Solution, p: int) -> tuple[np.ndarray, np.ndarray]:
    """[kind, c]: P(claim c) and P(true | claim c) above ``p``, noise included (the solutions live as long as the
    process, in mia_model's cache; these are kept in the solution's memo)."""
    key = ("kinds", p)
    if key not in sol.memo:
        dists, truths = [(PROB[:, None] * sol.claim[p + 1]).sum(axis=0)], [sol.truth(p + 1)]
        for x in range(-1, N):
            d, t = _jump(p, x)
            dists.append(d)
            truths.append(t)
        for x in range(N):
            d, t = _lie(p, x)
            dists.append(d)
            truths.append(t)
        dist, truth = np.array(dists), np.array(truths)
        legal = np.arange(N) > p
        uniform = legal / legal.sum()
        # the noise is mostly the equilibrium's own mix (a kind's rare true high claim stays believable), a little
        # any legal claim (so no claim rules a kind out)
        noise, noise_true = NOISE * (1 - UNIFORM) * dists[0], NOISE * (1 - UNIFORM) * dists[0] * truths[0]
        noise, noise_true = noise + NOISE * UNIFORM * uniform, noise_true + NOISE * UNIFORM * uniform * AT_LEAST
        mixed = (1 - NOISE) * dist + noise
        true = ((1 - NOISE) * dist * truth + noise_true) / np.where(mixed > 0, mixed, 1.0)
        sol.memo[key] = (np.log(np.maximum(mixed, 1e-12)), np.clip(true, 1e-6, 1 - 1e-6))
    return sol.memo[key]


def _opening_values(sol: Solution) -> np.ndarray:
    """What each "jump to X" opening earns against the equilibrium receiver (lives, Mia counted as one life)."""
    rho = sol.challenge[0]
    believed = -np.append(sol.value[1:], -1.0)  # a believed claim hands the stage above it on; a believed Mia wins
    out = np.zeros(N)
    for x in range(N):
        dist, true = _jump(-1, x)
        out[x] = (dist * (rho * (2 * true - 1) + (1 - rho) * believed)).sum()
    return out


def log_prior(sol: Solution) -> np.ndarray:
    """The log prior over kinds (:data:`WEIGHTS`)."""
    key = "prior"
    if key not in sol.memo:
        eq, honest, jumps, lies = WEIGHTS
        share = np.maximum((PROB[:, None] * sol.claim[0]).sum(axis=0), FLOOR) * np.exp(SKILL * _opening_values(sol))
        lie = np.full(N, (1 - LIE_MIA) / N)
        lie[N - 1] += LIE_MIA
        prior = np.concatenate([[eq, honest], jumps * share / share.sum(), lies * lie])
        sol.memo[key] = np.log(prior + 1e-12)
    return sol.memo[key]


def truth(history: Sequence[Claim], c: int, p: int, sol: Solution) -> float:
    """P(claim c above p is true), from the posterior over kinds given the seat's earlier claims."""
    log_post = log_prior(sol)
    for hp, hc, shown in history:
        log_claim, true = kinds(sol, hp)
        log_post = log_post + log_claim[:, hc]
        if shown is not None:  # revealed: how likely each kind was to be telling the truth (or lying) there
            log_post = log_post + np.log(true[:, hc] if shown else 1 - true[:, hc])
    post = np.exp(log_post - log_post.max())
    post /= post.sum()
    return float((post * kinds(sol, p)[1][:, c]).sum())


# --- receivers ----------------------------------------------------------------------------------------------------

Answer = tuple[int, int, bool]  # (p, c, challenged): a claim c, made above p, that the seat answered
RECEIVER_EQUILIBRIUM = 0.5  # prior of the equilibrium receiver; the "challenge from T on" receivers share the rest...
NAIVE = 0.3  # ...this much of it on the textbook threshold (62: a fresh roll beats it less than half the time)
NAIVE_T = int(np.argmax(AT_LEAST < 0.5))


def _receivers(sol: Solution, p: int) -> np.ndarray:
    """[kind, c]: P(challenge c) above ``p`` (0: the equilibrium; 1 + T: from T on, T = N: never). Where the
    equilibrium does not mix (it believes every low claim, and after a believed 62 challenges everything) every kind
    does as it does; elsewhere each strays ``NOISE``."""
    key = ("receivers", p)
    if key not in sol.memo:
        eq = sol.challenge[p + 1]
        thresholds = (np.arange(N)[None, :] >= np.arange(N + 1)[:, None]).astype(float)
        rates = (1 - NOISE) * np.vstack([eq, thresholds]) + NOISE * 0.5
        sol.memo[key] = np.where((eq < 0.01) | (eq > 0.99), eq, rates)
    return sol.memo[key]


def _receiver_prior(sol: Solution) -> np.ndarray:
    """The thresholds share by how much the equilibrium's opening challenge rate rises at T (so together they
    challenge as it does), plus ``NAIVE`` on the textbook threshold."""
    key = "receiver_prior"
    if key not in sol.memo:
        rise = np.diff(sol.challenge[0], prepend=0.0).clip(0.0, None)
        thresholds = (1 - NAIVE) * np.append(rise, max(0.0, 1.0 - rise.sum()))
        thresholds[NAIVE_T] += NAIVE
        weights = np.concatenate([[RECEIVER_EQUILIBRIUM], (1 - RECEIVER_EQUILIBRIUM) * thresholds])
        sol.memo[key] = np.log(weights + 1e-12)
    return sol.memo[key]


def challenge_rates(answers: Sequence[Answer], p: int, sol: Solution) -> np.ndarray:
    """P(the seat challenges each claim made above ``p``), from the posterior over kinds of receiver given the
    claims it answered this game."""
    log_post = _receiver_prior(sol)
    for hp, hc, challenged in answers:
        rate = np.clip(_receivers(sol, hp)[:, hc], 0.01, 0.99)  # a pure kind seen straying is not ruled out
        log_post = log_post + np.log(rate if challenged else 1 - rate)
    post = np.exp(log_post - log_post.max())
    post /= post.sum()
    rates: np.ndarray = post @ _receivers(sol, p)
    return rates
