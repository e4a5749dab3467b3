"""How many seeds the long property tests play: CI's share, or every one (``WARBOARD_DEEP=1``).

The seeded-game property tests (random games to their end, the notation's round trips, the
touched-set and spec sweeps) find nearly all they ever found in their first seeds, and their full
counts were a quarter of the suite's time on CI's 2 cores. ``make test`` and CI play the first
``ci`` seeds of each (plus, where a test says so, the seeds that once failed or that hold the
longest game); ``WARBOARD_DEEP=1 make test`` plays all ``deep`` of them, as before a release or
after a change to the rules engine.
"""

from __future__ import annotations

import os

DEEP = os.environ.get("WARBOARD_DEEP") == "1"


def seed_count(deep: int, ci: int) -> int:
    """``deep`` under WARBOARD_DEEP=1, else ``ci``."""
    return deep if DEEP else ci
