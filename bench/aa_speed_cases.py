"""Benchmark: the A&A calculator answers players bring, per edition, cold and warm.

Cases: 1942 2E and G40 2E sea battles with submarines, destroyers, aircraft and carriers (a
big one and a 10 v 8 one), a 40 v 30 land battle with AAA under each retreat policy and
strafing, 40 v 40 Low Luck battles, and ``cheapest_force`` against a Moscow-like capital.

Per case: one cold timing (the first call in this process, after the numba kernels are
loaded: the per-process tables of small integers are still empty) and the median of 3 warm
timings (the same call again, ``battle_odds``'s result cache cleared before each, so the
answer is recomputed; the small-integer tables stay), with the CPU time of those 3 (this
process's, less sensitive than the wall clock to other work on the machine). The goal is
50 ms for battles up to 40 units a side and the 0.8 s work limit for the rest. Asserts
nothing.

    .venv/bin/python bench/aa_speed_cases.py            # every case
    .venv/bin/python bench/aa_speed_cases.py sea        # the cases whose name holds "sea"
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's combat package

from combat.axis_allies import battle_odds, chain_sweep, general_sweep
from combat.axis_allies.odds import _exact
from combat.axis_allies.questions import (
    cheapest_force,
    grid_sweep,
    retreat_policy_odds,
    take_and_hold,
)

SEA_BIG_ATT = {
    "submarine": 6,
    "destroyer": 4,
    "cruiser": 2,
    "battleship": 1,
    "fighter": 3,
    "bomber": 2,
}
SEA_BIG_DEF = {
    "submarine": 4,
    "destroyer": 3,
    "carrier": 2,
    "fighter": 4,
    "battleship": 1,
    "transport": 2,
}
SEA_SMALL_ATT = {
    "submarine": 3,
    "destroyer": 2,
    "cruiser": 1,
    "battleship": 1,
    "fighter": 2,
    "bomber": 1,
}
SEA_SMALL_DEF = {"submarine": 2, "destroyer": 2, "carrier": 1, "fighter": 2, "transport": 1}

LAND_ATT = {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2}  # 40
LAND_DEF = {"infantry": 18, "artillery": 3, "armor": 4, "fighter": 3, "aaa": 2}  # 30
LAND_DEF_40 = {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5, "aaa": 1}  # 40

MOSCOW = {"infantry": 12, "artillery": 3, "armor": 2, "fighter": 2, "aaa": 1}  # 20
MOSCOW_POOL = {"infantry": 20, "artillery": 10, "armor": 10, "fighter": 6, "bomber": 4}

POLICIES: dict[str, dict[str, Any]] = {
    "after round 2": {"after_round": 2},
    "below 40% win": {"below_chance": 0.4},
    "below 40% take": {"below_chance": 0.4, "chance_of": "take"},
    "below 10 units": {"below_units": 10},
    "strafe": {"strafe": True},
}


def _cases() -> dict[str, Callable[[], object]]:
    cases: dict[str, Callable[[], object]] = {}
    for edition in ("1942-2e", "global-1940-2e"):
        for size, att, dfn in (
            ("big 18 v 16", SEA_BIG_ATT, SEA_BIG_DEF),
            ("10 v 8", SEA_SMALL_ATT, SEA_SMALL_DEF),
        ):
            cases[f"{edition} sea {size} odds"] = lambda a=att, d=dfn, e=edition: battle_odds(
                a, d, edition=e
            )
            cases[f"{edition} sea {size} take"] = lambda a=att, d=dfn, e=edition: take_and_hold(
                a, d, edition=e
            )
    cases["1942-2e sea big 18 v 16 never submerge"] = lambda: battle_odds(
        SEA_BIG_ATT,
        SEA_BIG_DEF,
        edition="1942-2e",
        options={"attacker_submerge": "never", "defender_submerge": "never"},
    )
    cases["1942-2e sea big 18 v 16 always submerge"] = lambda: battle_odds(
        SEA_BIG_ATT,
        SEA_BIG_DEF,
        edition="1942-2e",
        options={"attacker_submerge": "always", "defender_submerge": "always"},
    )
    for edition in ("1942-2e", "global-1940-2e"):
        cases[f"{edition} land 40 v 30 aaa odds"] = lambda e=edition: battle_odds(
            LAND_ATT, LAND_DEF, edition=e
        )
        for name, policy in POLICIES.items():
            cases[f"{edition} land 40 v 30 aaa {name}"] = lambda e=edition, p=policy: (
                retreat_policy_odds(LAND_ATT, LAND_DEF, policy=p, edition=e)
            )
    for edition in ("1942-2e", "global-1940-2e", "revised"):
        dfn = LAND_DEF_40 if edition != "revised" else {**LAND_DEF_40, "aaa": 0, "aa_gun": 1}
        dfn = {k: v for k, v in dfn.items() if v}
        cases[f"{edition} land 40 v 40 lowluck odds"] = lambda d=dfn, e=edition: battle_odds(
            LAND_ATT, d, edition=e, rules="lowluck"
        )
    cases["global-1940-2e sea big 18 v 16 lowluck odds"] = lambda: battle_odds(
        SEA_BIG_ATT, SEA_BIG_DEF, edition="global-1940-2e", rules="lowluck"
    )
    for edition in ("1942-2e", "global-1940-2e"):
        cases[f"{edition} cheapest_force Moscow-like 90% take"] = lambda e=edition: cheapest_force(
            MOSCOW, MOSCOW_POOL, 0.9, edition=e
        )
    return cases


def _clear() -> None:
    _exact.cache_clear()


def _time(action: Callable[[], object]) -> tuple[float, float, object]:
    """(wall seconds, this process's CPU seconds, the answer)."""
    _clear()
    start, cpu = time.perf_counter(), time.process_time()
    result = action()
    return time.perf_counter() - start, time.process_time() - cpu, result


def _summary(result: object) -> str:
    for name in ("take", "attacker_wins", "chance"):
        value = getattr(result, name, None)
        if isinstance(value, float):
            extra = ""
            force = getattr(result, "force", None)
            if force is not None:
                extra = f" {dict(force)} cost {getattr(result, 'cost', None)}"
            return f"{name}={value:.12f}{extra}"
    return type(result).__name__


def main() -> None:
    start = time.perf_counter()
    chain_sweep.warm_up()
    general_sweep.warm_up()
    grid_sweep.warm_up()
    print(f"numba kernels loaded (or compiled) in {time.perf_counter() - start:.2f} s")
    wanted = [a for a in sys.argv[1:] if not a.startswith("-")]
    header = f"{'case':<52}{'cold ms':>10}{'warm ms':>10}{'warm cpu ms':>13}   result"
    print(header)
    print("-" * len(header))
    for name, action in _cases().items():
        if wanted and not any(w in name for w in wanted):
            continue
        cold, _cpu, result = _time(action)
        runs = [_time(action) for _ in range(3)]
        warm = statistics.median(r[0] for r in runs)
        warm_cpu = statistics.median(r[1] for r in runs)
        flag = "  <-- over 50 ms" if warm > 0.050 else ""
        print(
            f"{name:<52}{cold * 1000:>10.1f}{warm * 1000:>10.1f}{warm_cpu * 1000:>13.1f}   "
            f"{_summary(result)}{flag}"
        )


if __name__ == "__main__":
    main()
