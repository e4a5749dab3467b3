"""Benchmark: exact A&A battle odds against a 2000-run Monte Carlo of the same battle.

For a small (6 v 4), a medium (20 v 15) and a large (40 v 40 mixed land + air) battle, plus the
large one with a defending AA gun (whose hits on single planes multiply the attacker's states),
under standard dice and Low Luck: the exact solver's time (best of 3, cache cleared), the
time of 2000 simulated battles through the same round code (TripleA's older default run
count), the simulation's error (largest gap in the attacker/defender/draw chances) and the
ratio, then the time of a repeated (cached) query. Prints figures; asserts nothing.

    .venv/bin/python bench/aa_odds.py
"""

from __future__ import annotations

import time

from combat.axis_allies import battle_odds
from combat.axis_allies.odds import _exact

BATTLES = {
    "small 6 v 4": ({"infantry": 4, "armor": 2}, {"infantry": 4}),
    "medium 20 v 15": (
        {"infantry": 10, "artillery": 4, "armor": 4, "fighter": 2},
        {"infantry": 12, "armor": 2, "fighter": 1},
    ),
    "large 40 v 40": (
        {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2},
        {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5, "bomber": 1},
    ),
    "large 40 v 40 + AA gun": (
        {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2},
        {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5, "bomber": 1, "aa_gun": 1},
    ),
}
RUNS = 2000


def best_of(repeats: int, action) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeats):
        _exact.cache_clear()
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    header = (
        f"{'battle':<24}{'rules':<9}{'exact s':>9}{'MC 2000 s':>11}{'MC error':>10}"
        f"{'MC/exact':>10}{'cached ms':>11}   P(attacker wins)"
    )
    print(header)
    print("-" * len(header))
    for name, (attacker, defender) in BATTLES.items():
        for rules in ("dice", "lowluck"):
            exact_s, exact = best_of(
                3, lambda a=attacker, d=defender, r=rules: battle_odds(a, d, rules=r)
            )
            start = time.perf_counter()
            mc = battle_odds(attacker, defender, rules=rules, method="monte-carlo", runs=RUNS)
            mc_s = time.perf_counter() - start
            start = time.perf_counter()
            battle_odds(attacker, defender, rules=rules)
            cached_ms = (time.perf_counter() - start) * 1000
            error = max(
                abs(getattr(mc, k) - getattr(exact, k))
                for k in ("attacker_wins", "defender_wins", "draw")
            )
            print(
                f"{name:<24}{rules:<9}{exact_s:>9.3f}{mc_s:>11.3f}{error:>10.4f}"
                f"{mc_s / exact_s:>9.1f}x{cached_ms:>11.3f}   {exact.attacker_wins:.6f}"
            )


if __name__ == "__main__":
    main()
