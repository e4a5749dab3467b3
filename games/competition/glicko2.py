"""Glicko-2 rating update, exactly as Glickman's "Example of the Glicko-2 system" (2013), steps 1-8.

Written here rather than taken from PyPI: ``glicko2`` 2.1.0 (MIT) installs a stray top-level
``tests`` package into site-packages, and ``glicko2-py`` 0.1.0 (MIT) is a single release of a new
project that installs a top-level module also named ``glicko2`` (it would shadow the former).
The algorithm is short and the paper's worked example pins it
(tests/games/test_competition_glicko2.py).

Ratings are on the Glicko scale (1500 / 350 for a new player); internally the Glicko-2 scale is
``(r - 1500) / 173.7178``. A rating period with no games only widens the deviation (step 6 with
no games): the caller applies one such update per idle period, as lichess does, so a returning
player's rating moves faster.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Glickman's conversion factor between the Glicko and Glicko-2 scales.
SCALE = 173.7178
#: The convergence tolerance of the volatility iteration (step 5).
EPSILON = 0.000001
BASE_RATING = 1500.0
#: Ratings further than this from 1500 are refused: far past any real rating, and beyond about
#: 10,000 points between players the volatility step overflows a float.
RATING_SPAN = 5000.0

Player = tuple[float, float, float]
Result = tuple[float, float, float]


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0, x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2_update(
    player: Player, results: Sequence[Result], tau: float = 0.5
) -> tuple[float, float, float]:
    """The player's ``(rating, rd, volatility)`` after one rating period.

    ``results`` lists ``(opponent_rating, opponent_rd, score)`` with score 1 (win), 0.5 (draw)
    or 0 (loss). Raises ``ValueError`` naming the field for a non-positive RD or volatility, a
    score outside 0..1 or a non-positive tau.
    """
    rating, rd, sigma = player
    if rd <= 0:
        raise ValueError(f"rd must be positive, got {rd}")
    if sigma <= 0:
        raise ValueError(f"volatility must be positive, got {sigma}")
    if tau <= 0:
        raise ValueError(f"tau must be positive, got {tau}")
    if abs(rating - BASE_RATING) > RATING_SPAN:
        raise ValueError(f"rating must be within {BASE_RATING} +- {RATING_SPAN}, got {rating}")
    for index, (opponent_rating, opponent_rd, score) in enumerate(results):
        if abs(opponent_rating - BASE_RATING) > RATING_SPAN:
            raise ValueError(
                f"results[{index}] opponent rating must be within {BASE_RATING} +- "
                f"{RATING_SPAN}, got {opponent_rating}"
            )
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"results[{index}] score must be between 0 and 1, got {score}")
        if opponent_rd <= 0:
            raise ValueError(f"results[{index}] opponent rd must be positive, got {opponent_rd}")
    # Step 2: to the Glicko-2 scale.
    mu = (rating - BASE_RATING) / SCALE
    phi = rd / SCALE
    if not results:
        # Step 6 alone: no games, only the deviation grows.
        return float(rating), math.sqrt(phi * phi + sigma * sigma) * SCALE, float(sigma)
    opponents = [((r - BASE_RATING) / SCALE, d / SCALE, s) for r, d, s in results]
    # Steps 3 and 4: estimated variance and improvement.
    v_inv = 0.0
    total = 0.0
    for mu_j, phi_j, score in opponents:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    # Step 5: new volatility.
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    # Steps 6 and 7: pre-period deviation, then the new deviation and rating.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    # Step 8: back to the Glicko scale.
    return new_mu * SCALE + BASE_RATING, new_phi * SCALE, new_sigma
