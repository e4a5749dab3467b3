"""Benchmark: exact A&A battle odds against a 2000-run Monte Carlo of the same battle.

For a small (6 v 4), a medium (20 v 15) and a large (40 v 40 mixed land + air) battle, the
large one with a defending AA gun (whose hits on single planes multiply the attacker's states),
a 60 v 60 amphibious assault with battleship (and combined destroyer) bombardment, and a
60 v 60 sea battle of submarines, destroyers, battleships, carriers and transports in which
the submarines strike first once the enemy's destroyers are gone, under
standard dice and Low Luck: the exact solver's time (best of 3, cache cleared; per-process
tables of small integers and the compiled chain sweeps, loaded once and timed first, stay),
the time of 2000 simulated battles through the same round code (TripleA's older default run
count), the simulation's error (largest gap in the attacker/defender/draw chances) and the
ratio, then the time of a repeated (cached) query.
Rows where the exact solver is under 100x faster than the simulation, or over 50 ms, are
flagged. Asserts nothing.

    .venv/bin/python bench/aa_odds.py             # the table
    .venv/bin/python bench/aa_odds.py --markdown  # the same, also as the README's table
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's combat package

from combat.axis_allies import battle_odds, chain_sweep
from combat.axis_allies.odds import _exact

BATTLES = {
    "small 6 v 4": ({"infantry": 4, "armor": 2}, {"infantry": 4}, {}),
    "medium 20 v 15": (
        {"infantry": 10, "artillery": 4, "armor": 4, "fighter": 2},
        {"infantry": 12, "armor": 2, "fighter": 1},
        {},
    ),
    "large 40 v 40": (
        {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2},
        {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5, "bomber": 1},
        {},
    ),
    "large 40 v 40 + AA gun": (
        {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2},
        {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5, "bomber": 1, "aa_gun": 1},
        {},
    ),
    # Ships bombard in round 1 and are never hit; 60 v 60 counts the units that fight.
    "60 v 60 amphibious": (
        {
            "infantry": 30,
            "artillery": 12,
            "armor": 10,
            "fighter": 5,
            "bomber": 3,
            "battleship": 4,
            "destroyer": 2,
        },
        {"infantry": 36, "artillery": 8, "armor": 10, "fighter": 6},
        {"amphibious": True, "techs": ["combined_bombardment"]},
    ),
    # Transports go first, then destroyers: once a side's destroyers are gone the other side's
    # submarines strike first (their victims do not fire back), so the first-strike stage is
    # played for most of the battle.
    "60 v 60 subs at sea": (
        {"submarine": 20, "destroyer": 16, "battleship": 6, "carrier": 4, "transport": 14},
        {"submarine": 16, "destroyer": 18, "battleship": 6, "carrier": 6, "transport": 14},
        {
            "attacker_order": ["transport", "destroyer", "submarine", "carrier", "battleship"],
            "defender_order": ["transport", "destroyer", "submarine", "carrier", "battleship"],
        },
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
    start = time.perf_counter()
    chain_sweep.warm_up()
    print(
        "chain sweeps compiled (or loaded from numba's cache) once: "
        f"{time.perf_counter() - start:.2f} s"
    )
    header = (
        f"{'battle':<24}{'rules':<9}{'exact ms':>9}{'MC 2000 s':>11}{'MC error':>10}"
        f"{'MC/exact':>10}{'cached ms':>11}   P(attacker wins)"
    )
    print(header)
    print("-" * len(header))
    slow = []
    table = []
    for name, (attacker, defender, extra) in BATTLES.items():
        for rules in ("dice", "lowluck"):
            kwargs = dict(extra, rules=rules)
            exact_s, exact = best_of(
                3, lambda a=attacker, d=defender, k=kwargs: battle_odds(a, d, **k)
            )
            start = time.perf_counter()
            mc = battle_odds(attacker, defender, method="monte-carlo", runs=RUNS, **kwargs)
            mc_s = time.perf_counter() - start
            start = time.perf_counter()
            battle_odds(attacker, defender, **kwargs)
            cached_ms = (time.perf_counter() - start) * 1000
            error = max(
                abs(getattr(mc, k) - getattr(exact, k))
                for k in ("attacker_wins", "defender_wins", "draw")
            )
            ratio = mc_s / exact_s
            flag = ""
            if ratio < 100 or exact_s > 0.050:
                flag = "  <-- under 100x" if ratio < 100 else "  <-- over 50 ms"
                slow.append((name, rules))
            print(
                f"{name:<24}{rules:<9}{exact_s * 1000:>9.2f}{mc_s:>11.3f}{error:>10.4f}"
                f"{ratio:>9.0f}x{cached_ms:>11.3f}   {exact.attacker_wins:.6f}{flag}"
            )
            table.append(
                f"| {name} | {rules} | {exact_s * 1000:.2f} ms | {mc_s:.2f} s | {error:.4f} "
                f"| {ratio:,.0f}x{flag.replace('  <-- ', ' (') + ')' if flag else ''} |"
            )
    print(f"rows under 100x or over 50 ms: {len(slow)}" + (f" {slow}" if slow else ""))
    if "--markdown" in sys.argv:
        print("\n| battle | rules | exact (cold) | 2000-run MC | MC error | MC / exact |")
        print("| --- | --- | --- | --- | --- | --- |")
        print("\n".join(table))


if __name__ == "__main__":
    main()
