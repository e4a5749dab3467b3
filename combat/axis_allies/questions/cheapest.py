"""The cheapest attacking force that reaches a target chance, exactly.

Search. Adding a unit never lowers the attacker's chance (more dice and more hit points,
under every rule: dice, Low Luck and the A&A Chess totals all give stochastically more hits for
more firepower), and the search leans on that monotonicity throughout:

1. A first answer: from everything available, remove as many of each kind as the target
   allows (bisection, dearest kind first), until no kind can spare a unit.
2. One kind (the one with the most available) is the "last" dimension; every combination of
   the others is a "base". For a base, the chance grows with the count of the last kind, so
   the least count reaching the target is found by bisection, capped by what the best answer
   so far leaves to spend (ties allowed: fewer units win them).
3. Bases are visited most expensive first. A base needs at least as many of the last kind as
   any base with one more unit (known before it), so most cheap bases are dismissed by that
   bound and the cost cap without solving a battle; a base whose capped count falls short
   passes "more than the cap" down to its smaller bases.

Every chance is an exact ``take_and_hold`` / win probability, so the force returned reaches the
target exactly; it is the cheapest (then the fewest units, then the highest chance) under the
monotonicity above, which ``test_aa_questions`` checks against brute force.

``by="units"`` asks for the smallest force instead (then the cheapest): the same search with
each unit priced at a constant larger than the whole pool's IPC plus its own cost, so one unit
more always outweighs any saving in IPC. The answer's ``cost`` is still the force's IPC.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from combat.axis_allies import chains
from combat.axis_allies.editions import load_edition
from combat.axis_allies.errors import MAX_UNITS, CombatInputError
from combat.axis_allies.odds import battle_odds
from combat.axis_allies.questions.chain import Battle, land_battle
from combat.axis_allies.questions.orders import OrderLike, parse_order
from combat.axis_allies.questions.policies import RetreatPolicy, battle_table
from combat.axis_allies.setup import BattleOptions, build_setup
from combat.budget import charge

MEASURES = ("take", "win")
#: What "cheapest" minimises first: the force's IPC, or its number of units.
BY = ("ipc", "units")
#: The most bases (combinations of the kinds other than the last) one search may visit.
MAX_BASES = 10_000


@dataclass(frozen=True)
class CheapestForce:
    """The answer: ``force`` (None when even every unit available falls short: then
    ``best_chance`` is the chance of everything), its IPC ``cost``, ``units`` and ``chance``,
    and how many battles the search solved."""

    target: float
    measure: str
    found: bool
    force: Mapping[str, int] | None
    cost: int | None
    units: int | None
    chance: float | None
    best_chance: float
    battles_solved: int
    by: str = "ipc"

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "measure": self.measure,
            "found": self.found,
            "force": dict(self.force) if self.force is not None else None,
            "cost": self.cost,
            "units": self.units,
            "chance": self.chance,
            "best_chance": self.best_chance,
            "battles_solved": self.battles_solved,
            "by": self.by,
        }


def cheapest_force(
    defender: Mapping[str, int],
    available: Mapping[str, int],
    target: float = 0.9,
    *,
    measure: str = "take",
    by: str = "ipc",
    rules: str = "dice",
    edition: str = "revised",
    attacker_order: OrderLike = None,
    defender_order: OrderLike = None,
    amphibious: bool = False,
    techs: Any = (),
    options: Mapping[str, Any] | BattleOptions | None = None,
) -> CheapestForce:
    """The cheapest force drawn from ``available`` whose chance to ``measure`` ("take" the
    territory or "win") is at least ``target``; ``by="units"``: the smallest such force (see the
    module docstring)."""
    if isinstance(target, bool) or not isinstance(target, int | float) or not 0 < target <= 1:
        raise CombatInputError("target", "must be a number above 0 and at most 1")
    if measure not in MEASURES:
        raise CombatInputError("measure", f"unknown measure {measure!r}", MEASURES)
    if by not in BY:
        raise CombatInputError("by", f"unknown choice {by!r}", BY)
    ed = load_edition(edition)
    pool = _parse_available(available, ed)
    ipc = {n: ed.units[n].cost for n in pool}
    costs = dict(ipc)
    if by == "units":
        per_unit = 1 + sum(ipc[n] * c for n, c in pool.items())
        costs = {n: per_unit + ipc[n] for n in pool}
    kinds = sorted(pool, key=lambda n: (-pool[n], costs[n], n))
    last, others = kinds[0], kinds[1:]
    count = 1
    for n in others:
        count *= pool[n] + 1
    if count > MAX_BASES:
        raise CombatInputError(
            "available", f"too many combinations to search ({count} > {MAX_BASES})"
        )
    cache: dict[tuple[tuple[str, int], ...], float] = {}
    att_order = parse_order(attacker_order, "attacker_order")
    def_order = parse_order(defender_order, "defender_order")
    # Without keep options an order is a plain list: ``battle_odds`` answers directly (its
    # fast exact path; the same numbers as ``battle_table``, half the Python around them).
    direct = not any((o.keep_one_land or o.keep_capital_ship) for o in (att_order, def_order))
    land_units = frozenset(n for n in pool if ed.units[n].kind == "land")

    def chance(force: Mapping[str, int]) -> float:
        key = tuple(sorted((n, c) for n, c in force.items() if c))
        if key in cache:
            return cache[key]
        if not key or (take_needs_land and not any(n in land_units for n, _c in key)):
            cache[key] = 0.0
            return 0.0
        charge(1)
        if direct:  # plain orders: the chain arrays or battle_odds, without an EndTable
            fast = _fast_chances(dict(key))
            if fast is not None:
                wins, land_wins = fast
                value = wins if measure == "win" or not take_needs_land else land_wins
                cache[key] = value
                return value
            try:
                odds = battle_odds(
                    dict(key),
                    defender,
                    rules=rules,
                    edition=edition,
                    attacker_order=att_order.units or None,
                    defender_order=def_order.units or None,
                    amphibious=amphibious,
                    techs=techs,
                    options=options,
                )
            except CombatInputError as error:  # as battle_table reports it
                if error.field != "method":
                    raise
                raise CombatInputError("available", error.message.split(";")[0]) from None
            if measure == "win" or not take_needs_land:
                value = odds.attacker_wins
            else:
                value = sum(
                    o.probability
                    for o in odds.outcomes
                    if o.result == "attacker" and any(n in land_units for n in o.attacker_left)
                )
            cache[key] = value
            return value
        battle = Battle.of(
            dict(key),
            defender,
            rules=rules,
            edition=edition,
            attacker_order=attacker_order,
            defender_order=defender_order,
            amphibious=amphibious,
            techs=techs,
            options=options,
        )
        _setup, table = battle_table(battle, RetreatPolicy(), field="available")
        value = table.take() if measure == "take" else table.total("attacker")
        cache[key] = value
        return value

    same_defender: dict = {}  # the defender's chain tables, built by the first battle

    def _fast_chances(force: dict[str, int]) -> tuple[float, float] | None:
        """(win, win with a land unit left) from ``chains.win_chances`` when the battle takes
        the chain path within its size limit (``odds._exact``'s test); else None."""
        try:
            setup = build_setup(
                force,
                defender,
                rules=rules,
                edition=edition,
                rounds=None,
                attacker_order=att_order.units or None,
                defender_order=def_order.units or None,
                amphibious=amphibious,
                techs=techs if techs is not None else (),
                options=options,
            )
        except CombatInputError:
            return None  # battle_odds reports it, as before
        if not chains.applicable(setup) or chains.size(setup) > chains.MAX_CHAIN_STATES:
            return None
        return chains.win_chances(setup, land_units, same_defender)

    take_needs_land = False
    full = _renamed(lambda: _full_check(defender, pool, rules, edition, amphibious, techs))
    take_needs_land = measure == "take" and full
    everything = _renamed(lambda: chance(pool))
    if everything < target:
        return CheapestForce(
            target, measure, False, None, None, None, None, everything, len(cache), by
        )

    def key(force: Mapping[str, int]) -> tuple[int, int, float]:
        return (
            sum(costs[n] * c for n, c in force.items()),
            sum(force.values()),
            -chance(force),
        )

    best_force = _descend(dict(pool), kinds, costs, lambda f: chance(f) >= target)
    best = key(best_force)
    c_last = costs[last]
    # lower[b]: a lower bound on the least count of ``last`` that base b needs (exact once b is
    # solved). Bases are visited most expensive first, so each base's one-unit-larger bases
    # (which need no more of ``last``) are known before it.
    lower: dict[tuple[int, ...], int] = {}
    bases = sorted(
        itertools.product(*(range(pool[n] + 1) for n in others)),
        key=lambda b: (sum(k * costs[n] for k, n in zip(b, others, strict=True)), sum(b)),
        reverse=True,
    )
    for base in bases:
        base_cost = sum(k * costs[n] for k, n in zip(base, others, strict=True))
        lo = 0
        for k in range(len(base)):
            if base[k] < pool[others[k]]:
                lo = max(lo, lower.get((*base[:k], base[k] + 1, *base[k + 1 :]), 0))
        hi = pool[last]
        if c_last:
            hi = min(hi, (best[0] - base_cost) // c_last)
        if base_cost > best[0] or lo > hi:
            lower[base] = lo
            continue
        force = dict(zip(others, base, strict=True))
        if chance({**force, last: hi}) < target:
            lower[base] = hi + 1
            continue
        while lo < hi:
            mid = (lo + hi) // 2
            if chance({**force, last: mid}) >= target:
                hi = mid
            else:
                lo = mid + 1
        lower[base] = lo
        found = {**force, last: lo}
        if key(found) < best:
            best, best_force = key(found), found
    _price, units, negative = best
    kept = {n: c for n, c in best_force.items() if c}
    return CheapestForce(
        target,
        measure,
        True,
        MappingProxyType(kept),
        sum(ipc[n] * c for n, c in kept.items()),
        units,
        -negative,
        everything,
        len(cache),
        by,
    )


def _descend(force: dict[str, int], kinds: list[str], costs: Mapping[str, int], reaches) -> dict:
    """A good first answer: from a force that ``reaches`` the target, remove as many of each
    kind as it can spare (bisection, dearest kind first), until no kind can spare one."""
    changed = True
    while changed:
        changed = False
        for name in sorted(kinds, key=lambda n: -costs[n]):
            lo, hi = 0, force[name]
            while lo < hi:
                mid = (lo + hi) // 2
                if reaches({**force, name: mid}):
                    hi = mid
                else:
                    lo = mid + 1
            if lo < force[name]:
                force[name] = lo
                changed = True
    return force


def _parse_available(available: Mapping[str, int], ed) -> dict[str, int]:
    if not isinstance(available, Mapping):
        raise CombatInputError("available", 'must be an object of unit counts, e.g. {"armor": 4}')
    pool = {}
    for name, count in available.items():
        if name not in ed.units:
            raise CombatInputError(
                f"available.{name}", f"not a unit of the {ed.key} edition", ed.units
            )
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise CombatInputError(
                f"available.{name}", f"must be a whole number >= 0, got {count!r}"
            )
        if count:
            pool[name] = count
    if not pool:
        raise CombatInputError("available", "has no units")
    if sum(pool.values()) > MAX_UNITS:
        raise CombatInputError("available", f"at most {MAX_UNITS} units")
    return pool


def _full_check(defender, pool, rules, edition, amphibious, techs) -> bool:
    """Validate the largest force against the defender; True for a battle for a territory."""
    setup = Battle.of(
        pool, defender, rules=rules, edition=edition, amphibious=amphibious, techs=techs
    ).setup()
    return land_battle(setup)


def _renamed(call):
    """Run ``call``, reporting the attacker's fields as the ``available`` ones."""
    try:
        return call()
    except CombatInputError as error:
        if error.field == "attacker" or error.field.startswith("attacker."):
            raise CombatInputError(
                "available" + error.field[len("attacker") :], error.message
            ) from None
        raise
