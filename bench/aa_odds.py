"""Benchmark: the exact A&A solver per edition, cold and warm, against a simulation of each battle.

For every edition key in ``combat/axis_allies/data/`` it times, then checks by simulation:

* small 9 v 6 land; large 40 v 40 land behind one AA gun / AAA; huge 80 v 80 land behind
  AA guns / two AAA (the attacker's planes make the AA outcomes multiply the states);
* a sea battle of submarines, destroyers, cruisers, carriers, a battleship and aircraft (the
  units the edition has: Classic has no destroyers or cruisers, Revised no cruisers);
* the 40 v 40 land battle under Low Luck;
* the cheapest-force search on a Moscow-like capital: 20 defenders with an AA gun / AAA, a
  pool of 38 attackers, the cheapest force taking it with at least a 90% chance.

The forces are written once with the 1942 2E / G40 unit names and adapted to each edition:
a unit the edition lacks becomes the nearest it has (artillery -> infantry, tactical bomber ->
fighter, cruiser -> destroyer, then dropped), and where the AA gun fires once per battle and is
never a casualty (Revised, Classic, Anniversary) one gun stands in for the AAA and the other
AAA become infantry.

Times (wall clock, under ``nice``):

* cold: the battle's first solve in this process, with the result cache and the battle tables a
  new battle builds (volley and AA distributions, signature sides) cleared first; the per-process
  tables (binomial tables of small integers, the edition files, the numba sweeps) are loaded
  once before anything is timed, as the server has them after its first query;
* warm: the median of 3 further solves, the result cache cleared before each (the battle's
  tables now built);
* cached: a repeated query served from the result cache (battles only: the search keeps no
  result of its own, each call searches again).

Each exact result is then checked against a simulation of the same battle through the engine's
own round code (``battle_odds(method="monte-carlo")``, seeded): 20,000 runs, except the huge
80 v 80 battles, which get 2,000 (each of their runs costs ~80 units' dice for a dozen rounds).
The error is the largest gap between the exact and simulated chances of the battle's ends
(attacker wins, defender wins, draw, stalemate; for the search, the chance to take), in
standard errors of the simulation, sqrt(p (1 - p) / runs) at the exact p. Rows that play
the same battle (the same forces, battle rules and unit entries: Path to Victory's rows and
Global 1940 2E's, most of 1942 2E's) share one simulation.

Flags: an error above 3 SE; a battle players bring (at most 40 units a side) whose cold solve
exceeds 50 ms; the rest (the huge battles, the search) above 0.8 s. It asserts nothing.

The simulations run in ``--jobs`` processes (default 2) after all the timing is done, so they
never share the CPU with a timed solve. The figures depend on the machine's load: run it on an
idle machine for figures to compare.

    .venv/bin/python bench/aa_odds.py              # the table (a few minutes on 2 cores)
    .venv/bin/python bench/aa_odds.py --markdown   # the same, also as a Markdown table
    .venv/bin/python bench/aa_odds.py --editions 1942-2e,revised --runs 5000
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's combat package

from combat.axis_allies import battle_odds, chain_sweep, chains, general_sweep, odds
from combat.axis_allies.editions import Edition, available_editions, load_edition
from combat.axis_allies.questions import cheapest_force, grid_sweep

PLAYERS_UNITS = 40  # a "battle players bring": at most this many units a side
PLAYERS_LIMIT_S = 0.050
OTHER_LIMIT_S = 0.8
SE_LIMIT = 3.0

#: What a unit missing from an edition becomes (tried in order; None: dropped).
STAND_INS: dict[str, tuple[str, ...]] = {
    "artillery": ("infantry",),
    "mech_infantry": ("infantry",),
    "tactical_bomber": ("fighter",),
    "cruiser": ("destroyer",),
    "destroyer": (),
    "aaa": (),
}


@dataclass(frozen=True)
class Case:
    """One timed question: a battle (or the search) in one edition."""

    name: str
    attacker: Mapping[str, int]
    defender: Mapping[str, int]
    rules: str = "dice"
    huge: bool = False
    #: The cheapest-force search: ``attacker`` is the pool, the target chance to take.
    search_target: float | None = None
    kwargs: Mapping[str, Any] = field(default_factory=dict)


SMALL = ({"infantry": 4, "artillery": 2, "armor": 2, "fighter": 1}, {"infantry": 5, "armor": 1})
LARGE = (
    {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2},
    {"infantry": 23, "artillery": 4, "armor": 6, "fighter": 5, "bomber": 1, "aaa": 1},
)
HUGE = (
    {"infantry": 30, "artillery": 16, "armor": 20, "fighter": 10, "bomber": 4},
    {"infantry": 52, "artillery": 10, "armor": 10, "fighter": 6, "aaa": 2},
)
SEA = (
    {
        "submarine": 4,
        "destroyer": 3,
        "cruiser": 2,
        "carrier": 1,
        "fighter": 2,
        "tactical_bomber": 1,
        "bomber": 2,
    },
    {
        "submarine": 3,
        "destroyer": 3,
        "cruiser": 1,
        "battleship": 1,
        "carrier": 2,
        "fighter": 4,
        "transport": 2,
    },
)
CAPITAL = {"infantry": 12, "artillery": 2, "armor": 3, "fighter": 2, "aaa": 1}
POOL = {"infantry": 18, "artillery": 6, "armor": 8, "fighter": 4, "bomber": 2}

CASES = (
    Case("small 9 v 6", *SMALL),
    Case("large 40 v 40 + AA", *LARGE),
    Case("huge 80 v 80 + AA", *HUGE, huge=True),
    Case("sea: subs, DD, air", *SEA),
    Case("large 40 v 40 + AA", *LARGE, rules="lowluck"),
    Case("cheapest, Moscow-like", POOL, CAPITAL, search_target=0.9),
)


def adapt(units: Mapping[str, int], edition: Edition) -> dict[str, int]:
    """The force in ``edition``'s units (see the module docstring)."""
    out: dict[str, int] = {}
    one_gun = "aa_gun" in edition.units and edition.units["aa_gun"].aa_shots == 0
    for name, count in units.items():
        target: str | None = name
        if name == "aaa" and "aaa" not in edition.units and one_gun:
            out["aa_gun"] = 1
            if count > 1:
                out["infantry"] = out.get("infantry", 0) + count - 1
            continue
        while target is not None and target not in edition.units:
            target = next(iter(STAND_INS.get(target, ())), None)
        if target is not None:
            out[target] = out.get(target, 0) + count
    return out


def size(force: Mapping[str, int]) -> int:
    return sum(force.values())


def clear_battle_tables() -> None:
    """Forget results and the tables a new battle builds (never the per-process tables)."""
    odds._exact.cache_clear()
    for name in ("_volley_pmf", "_fire_pmf", "aa_table", "_signature_side"):
        table = getattr(chains, name, None)
        if table is not None and hasattr(table, "cache_clear"):
            table.cache_clear()


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return time.perf_counter() - start, result


def take_chance(result: Any, edition: Edition) -> float:
    """The chance the attacker wins with a land unit left (the search's measure)."""
    land = {n for n, u in edition.units.items() if u.kind == "land"}
    return sum(
        o.probability
        for o in result.outcomes
        if o.result == "attacker" and any(n in land for n in o.attacker_left)
    )


@dataclass
class Row:
    edition: str
    case: Case
    attacker: dict[str, int]
    defender: dict[str, int]
    cold: float
    warm: float
    cached: float
    exact: dict[str, float]  # the chances compared with the simulation
    shown: float  # P(attacker wins), or the search's chance to take
    note: str = ""
    runs: int = 0
    simulated: dict[str, float] = field(default_factory=dict)
    worst_se: float = 0.0
    flags: list[str] = field(default_factory=list)


def solve(row_edition: str, case: Case, repeats: int) -> Row:
    """Time one case (cold, warm, cached) and keep the exact chances to check."""
    edition = load_edition(row_edition)
    attacker, defender = adapt(case.attacker, edition), adapt(case.defender, edition)
    kwargs = dict(case.kwargs, rules=case.rules, edition=row_edition)
    target = case.search_target
    if target is not None:

        def action() -> Any:
            return cheapest_force(defender, attacker, target, **kwargs)

    else:

        def action() -> Any:
            return battle_odds(attacker, defender, **kwargs)

    clear_battle_tables()
    cold, result = timed(action)
    warm_times = []
    for _ in range(repeats):
        odds._exact.cache_clear()
        warm_times.append(timed(action)[0])
    # The search keeps no result of its own (each call searches again): no cached time.
    cached = math.nan if case.search_target is not None else timed(action)[0]
    if case.search_target is not None:
        if not result.found:
            raise SystemExit(f"{row_edition}: the pool cannot reach the target; widen POOL")
        force = dict(result.force)
        note = "force " + ", ".join(f"{n} {c}" for n, c in sorted(force.items()))
        note += f" ({result.cost} IPC, {result.battles_solved} battles solved)"
        return Row(
            row_edition,
            case,
            force,
            defender,
            cold,
            statistics.median(warm_times),
            cached,
            {"take": result.chance},
            result.chance,
            note,
        )
    exact = {
        "attacker": result.attacker_wins,
        "defender": result.defender_wins,
        "draw": result.draw,
        "stalemate": result.stalemate,
    }
    return Row(
        row_edition,
        case,
        attacker,
        defender,
        cold,
        statistics.median(warm_times),
        cached,
        exact,
        result.attacker_wins,
    )


def simulate(
    task: tuple[str, Case, dict[str, int], dict[str, int], int],
) -> tuple[dict[str, float], float]:
    """A seeded simulation of one row's battle (runs in a worker process), and its CPU time."""
    edition_key, case, attacker, defender, runs = task
    cpu = time.process_time()
    chances = _simulate(edition_key, case, attacker, defender, runs)
    return chances, time.process_time() - cpu


def _simulate(
    edition_key: str, case: Case, attacker: dict[str, int], defender: dict[str, int], runs: int
) -> dict[str, float]:
    result = battle_odds(
        attacker,
        defender,
        rules=case.rules,
        edition=edition_key,
        method="monte-carlo",
        runs=runs,
        seed=1,
        **case.kwargs,
    )
    if case.search_target is not None:
        return {"take": take_chance(result, load_edition(edition_key))}
    return {
        "attacker": result.attacker_wins,
        "defender": result.defender_wins,
        "draw": result.draw,
        "stalemate": result.stalemate,
    }


def errors_in_se(exact: Mapping[str, float], simulated: Mapping[str, float], runs: int) -> float:
    """The largest |simulated - exact| over the ends, in standard errors at the exact chance."""
    worst = 0.0
    for key, p in exact.items():
        gap = abs(simulated[key] - p)
        se = math.sqrt(max(p * (1.0 - p), 0.0) / runs)
        # An end of exact chance 0 or 1 has no spread: any simulated difference is infinite.
        error = (0.0 if gap < 1e-9 else math.inf) if se < 1e-12 else gap / se
        worst = max(worst, error)
    return worst


def cached_us(row: Row) -> str:
    return "-" if math.isnan(row.cached) else f"{row.cached * 1e6:.0f} us"


#: Edition fields that never change how one battle is fought (names, what happens after it).
_NOT_IN_A_BATTLE = {
    "key",
    "name",
    "extends",
    "units",
    "techs",
    "sbr_damage_capped",
    "two_hit_repair",
}


def battle_signature(row: Row) -> tuple:
    """What decides how a row's battle is fought: the rules, the forces, the edition's battle
    flags and the table entries of the units present (their support limited to units present;
    costs kept, as they break ties in the default order of loss). Rows with equal signatures
    play the same battle, so they share one simulation."""
    edition = load_edition(row.edition)
    present = set(row.attacker) | set(row.defender)
    units = tuple(
        replace(
            edition.units[n],
            supports=MappingProxyType(
                {t: b for t, b in edition.units[n].supports.items() if t in present}
            ),
        )
        for n in sorted(present)
    )
    flags = tuple(
        (f.name, getattr(edition, f.name))
        for f in fields(edition)
        if f.name not in _NOT_IN_A_BATTLE
    )
    return (
        row.case.rules,
        row.case.search_target is not None,
        tuple(sorted(row.case.kwargs.items())),
        tuple(sorted(row.attacker.items())),
        tuple(sorted(row.defender.items())),
        units,
        flags,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    parser.add_argument("--runs", type=int, default=20_000, help="simulated runs a battle")
    parser.add_argument("--huge-runs", type=int, default=2_000, help="runs for the 80 v 80")
    parser.add_argument("--repeats", type=int, default=3, help="warm solves (median)")
    parser.add_argument("--jobs", type=int, default=2, help="processes for the simulations")
    parser.add_argument("--editions", default="", help="comma-separated keys (default: all)")
    args = parser.parse_args()
    editions = [e for e in args.editions.split(",") if e] or list(available_editions())
    started = time.perf_counter()

    start = time.perf_counter()
    chain_sweep.warm_up()
    general_sweep.warm_up()  # the sea battles' compiled rounds (a server loads it at start-up)
    grid_sweep.warm_up()
    for key in editions:  # edition files, and the small-integer tables of both rules
        for rules in ("dice", "lowluck"):
            battle_odds({"infantry": 1}, {"infantry": 1}, edition=key, rules=rules)
    print(
        "per-process tables (numba sweeps, edition files, small-integer tables) loaded once: "
        f"{time.perf_counter() - start:.2f} s"
    )
    print(
        f"simulations: {args.runs:,} runs a battle, {args.huge_runs:,} for the huge 80 v 80 "
        f"ones; warm = median of {args.repeats}; flags: > {SE_LIMIT:g} SE, cold > "
        f"{PLAYERS_LIMIT_S * 1000:g} ms for <= {PLAYERS_UNITS} units a side, > "
        f"{OTHER_LIMIT_S:g} s for the rest"
    )

    rows: list[Row] = []
    for key in editions:
        for case in CASES:
            rows.append(solve(key, case, args.repeats))

    # Simulations, after every timing: one per distinct battle (see battle_signature), shared
    # by the rows that play the same battle.
    signatures: list[tuple[tuple, int]] = []
    tasks: list[tuple] = []
    task_of: list[int] = []
    for row in rows:
        runs = args.huge_runs if row.case.huge else args.runs
        row.runs = runs
        signature = battle_signature(row)
        found = next((i for sig, i in signatures if sig == signature), None)
        if found is None:
            found = len(tasks)
            signatures.append((signature, found))
            tasks.append((row.edition, row.case, row.attacker, row.defender, runs))
        elif tasks[found][0] != row.edition:
            row.note = (row.note + "; " if row.note else "") + (
                f"same battle as {tasks[found][0]}: simulation shared"
            )
        task_of.append(found)
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs)) as pool:
        results = pool.map(simulate, tasks)
    simulation_s = time.perf_counter() - start
    simulation_cpu = sum(cpu for _chances, cpu in results)

    for row, task in zip(rows, task_of, strict=True):
        row.simulated = results[task][0]
        row.worst_se = errors_in_se(row.exact, row.simulated, row.runs)
        players = max(size(row.attacker), size(row.defender)) <= PLAYERS_UNITS
        players = players and row.case.search_target is None and not row.case.huge
        if row.worst_se > SE_LIMIT:
            row.flags.append(f"error {row.worst_se:.1f} SE")
        if players and row.cold > PLAYERS_LIMIT_S:
            row.flags.append(f"over {PLAYERS_LIMIT_S * 1000:g} ms")
        if not players and row.cold > OTHER_LIMIT_S:
            row.flags.append(f"over {OTHER_LIMIT_S:g} s")

    header = (
        f"{'edition':<34}{'battle':<23}{'rules':<8}{'a v d':>8}{'cold ms':>10}{'warm ms':>10}"
        f"{'cached us':>10}{'P exact':>10}{'P sim':>9}{'runs':>7}{'err SE':>7}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        shown_sim = row.simulated["take" if "take" in row.simulated else "attacker"]
        flag = "  <-- " + ", ".join(row.flags) if row.flags else ""
        print(
            f"{row.edition:<34}{row.case.name:<23}{row.case.rules:<8}"
            f"{f'{size(row.attacker)} v {size(row.defender)}':>8}"
            f"{row.cold * 1000:>10.1f}{row.warm * 1000:>10.1f}{cached_us(row):>10}"
            f"{row.shown:>10.4f}{shown_sim:>9.4f}{row.runs:>7}{row.worst_se:>7.2f}{flag}"
        )
        if row.note:
            print(f"{'':<34}  {row.note}")
    flagged = [r for r in rows if r.flags]
    print(
        f"rows flagged: {len(flagged)} of {len(rows)}"
        + "".join(
            f"\n  {r.edition} / {r.case.name} ({r.case.rules}): {', '.join(r.flags)}"
            for r in flagged
        )
    )
    print(
        f"simulations: {len(tasks)} distinct battles in {simulation_s:.0f} s on {args.jobs} "
        f"processes ({simulation_cpu:.0f} s of CPU); whole run "
        f"{time.perf_counter() - started:.0f} s"
    )
    if args.markdown:
        print(
            "\n| edition | battle | rules | a v d | cold | warm | cached | P exact | P sim "
            "(runs) | error | flag |"
        )
        print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
        for row in rows:
            shown_sim = row.simulated["take" if "take" in row.simulated else "attacker"]
            print(
                f"| {row.edition} | {row.case.name} | {row.case.rules} | "
                f"{size(row.attacker)} v {size(row.defender)} | {row.cold * 1000:.1f} ms | "
                f"{row.warm * 1000:.1f} ms | {cached_us(row)} | {row.shown:.4f} | "
                f"{shown_sim:.4f} ({row.runs:,}) | {row.worst_se:.2f} SE | "
                f"{', '.join(row.flags)} |"
            )


if __name__ == "__main__":
    main()
