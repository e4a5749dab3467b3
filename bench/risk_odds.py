"""Benchmark: exact Fast Risk battle odds against a 10,000-run Monte Carlo of the same battle.

For every battle: the exact solver's time cold (the battle-result cache cleared; the one-roll
tables, loaded once per process from ``combat/data/risk_rolls.npz``, and the compiled flanking
walk stay loaded: their one-time load is timed and printed first), the time of the API's
whole answer (``as_dict`` with the 500 likeliest end states; for flanking a second walk that
tells the end states apart by captures, cold too), the time of 10,000 battles fought with seeded
dice through the same ``resolve_battle``/``step`` code the game uses, the simulation's error on
P(attacker wins), the ratio MC / exact (rows under 100x, or over 50 ms either way, are
flagged), and a repeated (cached) query.

    .venv/bin/python bench/risk_odds.py            # 10,000 runs a battle
    .venv/bin/python bench/risk_odds.py --markdown # the same, also as the README's table
"""

from __future__ import annotations

import sys
import time

from combat import risk_dice, risk_flanking
from combat.dice import RandomDice

BATTLES = [
    ("normal 10 v 10", 10, 10, {}),
    ("normal 100 v 100", 100, 100, {}),
    ("normal 200 v 200", 200, 200, {}),
    ("committed 30 v 20", 30, 20, {"mode": "committed"}),
    ("committed 60 v 40", 60, 40, {"mode": "committed"}),
    ("flanking [15, 15] v 20", None, 20, {"mode": "flanking", "flanks": [15, 15]}),
    ("flanking [20, 20, 20] v 40", None, 40, {"mode": "flanking", "flanks": [20, 20, 20]}),
    ("naval normal 6 v 6", 6, 6, {"naval": True}),
    ("naval committed 12 v 10", 12, 10, {"mode": "committed", "naval": True}),
]
RUNS = 10_000
TARGET = 100  # MC / exact
COLD_LIMIT_MS = 50
API_OUTCOMES = 500  # the end states POST /api/combat/risk/odds lists unless asked
REPEATS = 3  # the exact query is timed cold this many times; the best is kept


def main() -> None:
    start = time.perf_counter()
    risk_dice._tables()
    print(
        f"one-roll tables loaded and validated once: {(time.perf_counter() - start) * 1e3:.1f} ms"
    )
    start = time.perf_counter()
    risk_flanking.warm_up()
    print(
        "flanking walk compiled (or loaded from numba's cache) once: "
        f"{time.perf_counter() - start:.2f} s"
    )
    header = (
        f"{'battle':<28}{'exact ms':>10}{'+list ms':>10}{'MC 10k s':>10}{'MC error':>10}"
        f"{'MC/exact':>10}"
        f"{'cached ms':>11}   P(attacker wins)"
    )
    print(header)
    print("-" * len(header))
    rows = []
    for name, attackers, defenders, kwargs in BATTLES:
        exact_s = float("inf")
        for _ in range(REPEATS):
            risk_dice._battle_odds.cache_clear()
            start = time.perf_counter()
            exact = risk_dice.battle_odds(attackers, defenders, **kwargs)
            exact_s = min(exact_s, time.perf_counter() - start)
        dice = RandomDice(2024)
        start = time.perf_counter()
        wins = sum(
            risk_dice.resolve_battle(attackers, defenders, dice=dice, **kwargs).winner == "attacker"
            for _ in range(RUNS)
        )
        mc_s = time.perf_counter() - start
        start = time.perf_counter()
        risk_dice.battle_odds(attackers, defenders, **kwargs)
        cached_ms = (time.perf_counter() - start) * 1000
        full_s = float("inf")
        for _ in range(REPEATS):
            risk_dice._battle_odds.cache_clear()
            start = time.perf_counter()
            risk_dice.battle_odds(attackers, defenders, **kwargs).as_dict(API_OUTCOMES)
            full_s = min(full_s, time.perf_counter() - start)
        error = abs(wins / RUNS - exact.attacker_wins)
        ratio = mc_s / exact_s
        flags = []
        if ratio < TARGET:
            flags.append(f"UNDER {TARGET}x")
        if max(exact_s, full_s) * 1000 > COLD_LIMIT_MS:
            flags.append(f"OVER {COLD_LIMIT_MS} ms")
        rows.append((name, exact_s, full_s, mc_s, error, ratio, flags))
        print(
            f"{name:<28}{exact_s * 1000:>10.2f}{full_s * 1000:>10.2f}{mc_s:>10.2f}{error:>10.4f}"
            f"{ratio:>9.0f}x{cached_ms:>11.3f}   {exact.attacker_wins:.6f}  {' '.join(flags)}"
        )
    if "--markdown" in sys.argv:
        print(
            "\n| battle | exact odds (cold) | with the outcome list | 10,000-run MC | MC error "
            "| MC / exact |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        for name, exact_s, full_s, mc_s, error, ratio, flags in rows:
            note = f" ({', '.join(flags).lower()})" if flags else ""
            print(
                f"| {name} | {exact_s * 1000:.2f} ms | {full_s * 1000:.2f} ms | {mc_s:.2f} s "
                f"| {error:.4f} | {ratio:,.0f}x{note} |"
            )


if __name__ == "__main__":
    main()
