"""Rating deviation growing over inactivity, as lichess does, and the provisional mark.

lichess applies Glicko-2's step 6 (``phi* = sqrt(phi^2 + sigma^2)``) once per rating period
elapsed since a player's last rated game, with fractional periods: lila's ``Glicko.scala``
sets ``ratingPeriodsPerDay = 0.21436`` ("chosen so a typical player's RD goes from 60 -> 110
in 1 year") and ``provisionalDeviation = 110``. We take both numbers; the cap is our initial
RD, 350 (Glickman's), where lichess caps at its own initial 500.

Pure: no Django; days are a float the caller computes from two timestamps, so replaying the
same results (``manage.py rerate``) gives the same numbers.
"""

from __future__ import annotations

import math

from games.competition.glicko2 import SCALE

#: lichess's rating periods per day (lila, modules/rating Glicko.scala).
RATING_PERIODS_PER_DAY = 0.21436
#: A new player's deviation, and the most inactivity can grow one to.
MAX_DEVIATION = 350.0
#: lichess's threshold: a rating with a larger deviation is shown as provisional ("?").
PROVISIONAL_DEVIATION = 110.0


def inactive_deviation(rd: float, volatility: float, days: float) -> float:
    """The Glicko RD after ``days`` without a rated game: step 6 over ``days`` x 0.21436
    periods (each period adds ``volatility^2`` to ``phi^2``), capped at 350. Raises
    ``ValueError`` naming the field for a negative ``days`` or a non-positive ``rd``."""
    if rd <= 0:
        raise ValueError(f"rd must be positive, got {rd}")
    if volatility < 0:
        raise ValueError(f"volatility must not be negative, got {volatility}")
    if days < 0:
        raise ValueError(f"days must not be negative, got {days}")
    periods = days * RATING_PERIODS_PER_DAY
    phi = rd / SCALE
    grown = math.sqrt(phi * phi + periods * volatility * volatility) * SCALE
    return min(grown, MAX_DEVIATION)


def is_provisional(rd: float) -> bool:
    """Whether a Glicko rating is still provisional (its RD above lichess's 110)."""
    return rd > PROVISIONAL_DEVIATION
