"""Benchmark: repeat meetings of ``seat_tables`` against random seating (its goal: a third).

For each event size (players x rounds, tables of 3-6), every round is seated from the earlier
tables by ``games.competition.seat_tables`` (default seed) and, as the baseline, by random
seating with the same table sizes averaged over ``SEEDS`` seeds. A repeat meeting is a pair at
one table who already met in an earlier round. The goal is at most a third of the random
repeats at 30 players x 6 rounds: the ratio random / seat_tables must be 3 or more. Also printed:
the counting lower bound (meetings seated minus distinct pairs: no seating can do better),
seat_tables with its other seeds 1-19 (its search is seeded: min / mean / max repeats and the
worst ratio), the most repeats over ``ORDERS`` shuffled orders of the players (default seed:
the bound must not depend on how the entry list happens to be sorted) and the slowest round's
time.

    .venv/bin/python bench/seating.py
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from games.competition import seat_tables, table_sizes
from games.competition.seating import play_event, random_event, repeat_meetings

EVENTS = [(30, 6), (30, 8), (24, 5), (18, 5), (12, 4), (7, 3)]
SEEDS = 20
OTHER_SEEDS = range(1, 20)
ORDERS = 5


def timed_seating(times: list[float], seed: int = 0):
    def seat(players: Sequence[int], history: list[list[int]]) -> list[list[int]]:
        start = time.perf_counter()
        tables = seat_tables(players, history, seed=seed)
        times.append(time.perf_counter() - start)
        return tables

    return seat


def main() -> None:
    print(
        f"{'event':>14} {'bound':>6} {'random (avg)':>13} {'seat_tables':>12} {'ratio':>7} "
        f"{'seeds 1-19 min/mean/max':>24} {'worst ratio':>11} {'orders max':>10} "
        f"{'slowest round':>14}"
    )
    for players_count, rounds in EVENTS:
        players = list(range(players_count))
        baseline = [repeat_meetings(random_event(players, rounds, s)) for s in range(SEEDS)]
        average = sum(baseline) / len(baseline)
        times: list[float] = []
        ours = repeat_meetings(play_event(players, rounds, timed_seating(times)))
        others = [
            repeat_meetings(play_event(players, rounds, timed_seating(times, seed)))
            for seed in OTHER_SEEDS
        ]
        orders = []
        for shuffle in range(ORDERS):
            shuffled = list(players)
            random.Random(1000 + shuffle).shuffle(shuffled)
            orders.append(repeat_meetings(play_event(shuffled, rounds, timed_seating(times))))
        per_round = sum(size * (size - 1) // 2 for size in table_sizes(players_count))
        bound = max(0, rounds * per_round - players_count * (players_count - 1) // 2)
        ratio = f"{average / ours:.2f}" if ours else "inf"
        print(
            f"{players_count:>6} x {rounds:>2} rds {bound:>6} {average:>13.1f} "
            f"{ours:>12} {ratio:>7} "
            f"{min(others):>8} {sum(others) / len(others):>7.1f} {max(others):>7} "
            f"{average / max(others) if max(others) else float('inf'):>11.2f} "
            f"{max(orders):>10} "
            f"{max(times) * 1000:>11.1f} ms"
        )


if __name__ == "__main__":
    main()
