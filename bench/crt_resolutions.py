"""Benchmark: resolutions per second of the CRT resolvers (World in Flames, France 1944).

Each line resolves 10,000 attacks with seeded dice and prints the rate. The attack and defence
factors run through 15,000 combinations, so no attack repeats and the per-battle caches do not
answer; a turn's situation (weather, morale) does repeat, as in play. The goal is 10,000 a
second or more.

    .venv/bin/python bench/crt_resolutions.py
"""

from __future__ import annotations

import time

from combat.crt.france_1944 import france_1944_resolve
from combat.crt.wif import wif_land_resolve
from combat.dice import RandomDice

N = 10_000


def rate(label: str, resolve) -> None:
    dice = RandomDice(1944)
    start = time.perf_counter()
    for i in range(N):
        resolve(i, dice)
    elapsed = time.perf_counter() - start
    print(f"{label:<34}{N / elapsed:>12,.0f} resolutions/s")


def main() -> None:
    rate(
        "World in Flames 2d10 land CRT",
        lambda i, dice: wif_land_resolve(
            1 + i % 300, 1 + i // 300, modifiers={"weather": "rain"}, dice=dice
        ),
    )
    rate(
        "France 1944 revised CRT",
        lambda i, dice: france_1944_resolve(
            40 + i % 300,
            1 + (i // 300) % 10,
            attacker_morale=1 + i % 5,
            defender_morale=2 + i % 4,
            attacking_units=1 + i % 8,
            dice=dice,
        ),
    )


if __name__ == "__main__":
    main()
