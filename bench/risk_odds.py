"""Benchmark: exact Fast Risk battle odds against a 10,000-run Monte Carlo of the same battle.

Normal 10 v 10, 100 v 100 and 200 v 200, committed 30 v 20 and flanking [15, 15] v 20: the exact
solver's time (roll tables and battle cache cleared first), the time of 10,000 battles fought with
seeded dice through the same step function, the simulation's error on P(attacker wins), and a
repeated (cached) query. Prints figures; asserts nothing.

    .venv/bin/python bench/risk_odds.py
"""

from __future__ import annotations

import time

from combat import risk_dice
from combat.dice import RandomDice

BATTLES = [
    ("normal 10 v 10", 10, 10, {}),
    ("normal 100 v 100", 100, 100, {}),
    ("normal 200 v 200", 200, 200, {}),
    ("committed 30 v 20", 30, 20, {"mode": "committed"}),
    ("flanking [15, 15] v 20", None, 20, {"mode": "flanking", "flanks": [15, 15]}),
]
RUNS = 10_000


def main() -> None:
    header = (
        f"{'battle':<24}{'exact s':>9}{'MC 10k s':>10}{'MC error':>10}{'MC/exact':>10}"
        f"{'cached ms':>11}   P(attacker wins)"
    )
    print(header)
    print("-" * len(header))
    for name, attackers, defenders, kwargs in BATTLES:
        risk_dice._battle_odds.cache_clear()
        risk_dice._roll_distribution.cache_clear()
        risk_dice._roll_counts.cache_clear()
        start = time.perf_counter()
        exact = risk_dice.battle_odds(attackers, defenders, **kwargs)
        exact_s = time.perf_counter() - start
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
        error = abs(wins / RUNS - exact.attacker_wins)
        print(
            f"{name:<24}{exact_s:>9.3f}{mc_s:>10.2f}{error:>10.4f}{mc_s / exact_s:>9.1f}x"
            f"{cached_ms:>11.3f}   {exact.attacker_wins:.6f}"
        )


if __name__ == "__main__":
    main()
