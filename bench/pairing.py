"""Benchmark: the slowest round pairing per format and field size (each tournament format).

A tournament's round is paired while its row is locked, inside the request or result task that
completed the last round, so a round's pairing must stay short; ``MAX_FIELD`` in
``games.competition.formats`` is set from these figures. Each event plays ``ROUNDS`` rounds with
results drawn from ``random.Random(1)`` (win, draw or loss alike); printed: the slowest round's
pairing in seconds. Swiss is the Dutch system of caissify-pairings; tables are ``seat_tables``.

    .venv/bin/python bench/pairing.py [--big]   # --big adds a Swiss of 128 (about 20 s a round)
"""

from __future__ import annotations

import random
import sys
import time

from games.competition import knockout_bracket, seat_tables, swiss_pairings
from games.competition.formats import MAX_FIELD

ROUNDS = 6


def swiss(n: int) -> float:
    players, history, rng, worst = list(range(n)), [], random.Random(1), 0.0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        pairs = swiss_pairings(players, history, ROUNDS)
        worst = max(worst, time.perf_counter() - start)
        history.append([(a, b, rng.choice((0.0, 0.5, 1.0)) if b is not None else 1.0)
                        for a, b in pairs])  # fmt: skip
    return worst


def tables(n: int) -> float:
    history: list[list[int]] = []
    worst = 0.0
    for number in range(ROUNDS):
        start = time.perf_counter()
        history += seat_tables(list(range(n)), history, seed=number)
        worst = max(worst, time.perf_counter() - start)
    return worst


def knockout(n: int) -> float:
    start = time.perf_counter()
    knockout_bracket(list(range(n)))
    return time.perf_counter() - start


def main() -> None:
    swiss_sizes = [16, 32, 64] + ([128] if "--big" in sys.argv else [])
    print(f"slowest round's pairing, {ROUNDS} rounds (MAX_FIELD {MAX_FIELD})")
    for n in swiss_sizes:
        print(f"  swiss    {n:4d} players  {swiss(n):7.3f} s")
    for n in (30, 60, 120):
        print(f"  tables   {n:4d} players  {tables(n):7.3f} s")
    print(f"  knockout {256:4d} players  {knockout(256):7.3f} s")


if __name__ == "__main__":
    main()
