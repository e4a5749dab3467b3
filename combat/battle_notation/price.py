"""The price of a battle request: the solver's own estimate of its work, before any work.

A room battle is resolved on the server with its exact odds (``axis_allies.aa_odds``), and the
work grows with the armies: ``500 inf vs 500 inf`` took 4.6 s of CPU. A caller that must bound
that work (a room's journal, a mail of battle lines) prices the request first with
``battle_price`` and refuses or queues it by the price, as the calculators do with
``estimated_work`` (``combat.api.limits``).

The price follows the very path ``aa_odds`` will take (``_exact_is_affordable``, then the exact
solver's own limits, else the Monte Carlo estimate with its runs) and counts that path's work:
chain cells x hit points on the fast path, states x hit points on the general path, runs x
units for Monte Carlo, plus one run for the battle itself. Each count is turned into
*microseconds of solver work* with a rate measured on the reference machine (2 cores; the
figures are in the constants' comments) and rounded up, so the paths compare on one scale.
The price is a pure function of the request: the same request always has the same price,
whatever the server's load (a wall-clock limit would make a room's answer depend on it).
The CRT systems (World in Flames, France 1944) read one table: a flat price.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from combat.axis_allies import chains
from combat.axis_allies.odds import MAX_EXACT_STATES, _general_size
from combat.axis_allies.setup import BattleSetup, build_setup
from combat.battle_notation import axis_allies

#: Microseconds per chain cell x hit point on the fast path. Measured: 200 v 200 infantry
#: 16,000,000 -> 0.07 s, 350 v 350 86,000,000 -> 0.67 s, 400 v 400 128,000,000 -> 1.29 s (the
#: work grows a little faster than the count; the rate is the largest battle's, rounded up).
CHAIN_MICROS = 0.012
#: Microseconds per state x hit point on the general path with standard dice (the module's
#: measure: 28,200 -> 0.9 s).
DICE_MICROS = 32.0
#: The same for Low Luck and A&A Chess, whose hit distributions are a handful of values
#: (100 subs v 100 destroyers in Low Luck, 2,040,000 -> 0.001 s: priced far above that).
FIXED_HITS_MICROS = 0.1
#: Microseconds per simulated unit-run (runs x units). Measured: 500 v 500 infantry, 500 runs
#: x 1,000 units -> 3.45 s; 40 subs v 40 destroyers, 2,000 x 80 -> 0.72 s.
MONTE_CARLO_MICROS = 7.0
#: A CRT battle: one odds column and one roll (well under a millisecond).
TABLE_MICROS = 1_000


@dataclass(frozen=True)
class BattlePrice:
    """The work a battle will cost: ``micros`` of solver work on the path ``method`` (``exact``,
    ``monte-carlo`` or ``table``), with ``detail`` saying what was counted."""

    micros: int
    method: str
    detail: str

    @property
    def seconds(self) -> float:
        return self.micros / 1_000_000


def battle_price(system: str, arguments: Mapping[str, Any]) -> BattlePrice:
    """The price of resolving the canonical ``arguments`` of ``system`` (as ``resolve_battle``
    would); the arguments were checked when parsed, so this does no validation of its own."""
    if system != "axis_allies":
        return BattlePrice(TABLE_MICROS, "table", "one combat results table")
    kwargs = axis_allies.fight_arguments(arguments)
    attacker, defender = kwargs.pop("attacker"), kwargs.pop("defender")
    setup = build_setup(attacker=attacker, defender=defender, **kwargs)
    units = _units(setup)
    exact = _exact_price(setup) if axis_allies._exact_is_affordable(setup) else None
    if exact is not None:
        micros, detail = exact
        return BattlePrice(_whole(micros + units * MONTE_CARLO_MICROS), "exact", detail)
    runs = max(
        1, min(axis_allies.MONTE_CARLO_RUNS, axis_allies.MAX_MONTE_CARLO_WORK // max(units, 1))
    )
    micros = (runs + 1) * units * MONTE_CARLO_MICROS
    return BattlePrice(
        _whole(micros), "monte-carlo", f"Monte Carlo: {runs:,} runs x {units:,} units"
    )


def _exact_price(setup: BattleSetup) -> tuple[float, str] | None:
    """The exact solver's work as ``odds._exact`` does it, or None past its own limits (where
    ``aa_odds`` falls back to Monte Carlo). With submarines the fast path may hand over to the
    general one, so both are counted."""
    hit_points = setup.attacker.hit_points(setup.attacker.initial) + setup.defender.hit_points(
        setup.defender.initial
    )
    micros, parts = 0.0, []
    general_needed = True
    if setup.rounds is None and chains.applicable(setup):
        cells = chains.size(setup)
        if cells > chains.MAX_CHAIN_STATES:
            return None
        micros += cells * hit_points * CHAIN_MICROS
        parts.append(f"{cells:,} chain cells x {hit_points:,} hit points")
        general_needed = any(
            side.units[name].submarine
            for side in (setup.attacker, setup.defender)
            for name in side.order
        )
    if general_needed:
        states = _general_size(setup)
        if states > MAX_EXACT_STATES:
            return None
        rate = DICE_MICROS if setup.rules.per_die else FIXED_HITS_MICROS
        micros += states * hit_points * rate
        parts.append(f"{states:,} states x {hit_points:,} hit points")
    return micros, "exact: " + " + ".join(parts)


def _units(setup: BattleSetup) -> int:
    return max(
        1,
        sum(setup.attacker.initial)
        + sum(setup.defender.initial)
        + sum(n for _unit, n in setup.bombarders),
    )


def _whole(micros: float) -> int:
    return max(1, math.ceil(micros))
