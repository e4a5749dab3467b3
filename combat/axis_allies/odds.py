"""``battle_odds``: the exact distribution of a battle's end, as a Markov chain over units left.

The order of loss is fixed, so a battle's state is the units each side has left (plus, under
COF, each side's carried fraction). ``engine.play_round`` with ``ExactChance`` gives every
successor of a state with its probability. Each round either changes the state or leaves it as
it was (nobody hit anything); the chance of staying is divided out (the battle leaves a state
with probability 1 unless nobody can ever score, which is a stalemate). States are processed
most-hit-points-first, so every state's probability is complete before it is expanded: each is
expanded once, and the answer is exact up to floating-point rounding — nothing is sampled.

``method="monte-carlo"`` plays the same battle ``runs`` times with seeded dice through the same
round code, for comparison (bench/aa_odds.py) and for battles past ``MAX_EXACT_STATES``.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import compress
from types import MappingProxyType
from typing import Any

import numpy as np

from combat.axis_allies import chains, general_sweep
from combat.axis_allies.battle import play_battle_state
from combat.axis_allies.engine import (
    Branches,
    State,
    battle_result,
    general_hits,
    initial_state,
    is_over,
    merge,
    play_round,
    surfaced,
)
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.reports import BattleOdds, Outcome
from combat.axis_allies.rules import EXACT
from combat.axis_allies.setup import BattleOptions, BattleSetup, build_setup
from combat.budget import charge
from combat.dice import RandomDice

#: Above this many (attacker hit points + 1) x (defender hit points + 1) the exact solver
#: refuses and names method="monte-carlo"; 150 v 150 hit points is still exact.
MAX_EXACT_STATES = 25_000
METHODS = ("exact", "monte-carlo")
MAX_RUNS = 100_000


def battle_odds(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    rules: str = "dice",
    edition: str = "revised",
    rounds: int | None = None,
    attacker_order: Sequence[str] | None = None,
    defender_order: Sequence[str] | None = None,
    amphibious: bool = False,
    techs: Iterable[str] | Mapping[str, Iterable[str]] = (),
    options: Mapping[str, Any] | BattleOptions | None = None,
    method: str = "exact",
    runs: int = 2000,
    seed: int = 0,
) -> BattleOdds:
    """Exact odds of a battle (see the module docstring). Repeated queries hit a cache."""
    if method not in METHODS:
        raise CombatInputError("method", f"unknown method {method!r}", METHODS)
    key = _freeze(
        {
            "attacker": attacker,
            "defender": defender,
            "rules": rules,
            "edition": edition,
            "rounds": rounds,
            "attacker_order": attacker_order,
            "defender_order": defender_order,
            "amphibious": amphibious,
            "techs": techs if techs is not None else (),
            "options": options,
        }
    )
    if method == "monte-carlo":
        if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= MAX_RUNS:
            raise CombatInputError("runs", f"must be a whole number from 1 to {MAX_RUNS}")
        return _monte_carlo(key, runs, seed)
    return _exact(key)


def _freeze(value: Any) -> tuple:
    """A hashable form of the request, for the cache; invalid input is left for build_setup."""
    if isinstance(value, Mapping):
        return ("map", tuple(sorted((str(k), _freeze(v)) for k, v in value.items())))
    if isinstance(value, list | tuple | set | frozenset):
        return ("seq", tuple(_freeze(v) for v in value))
    if isinstance(value, BattleOptions):
        return ("options", _freeze(value.__dict__))
    # Keep the type: True == 1 and 1.0 == 1 hash alike, but only 1 is a valid count.
    return ("value", type(value).__name__, value)


def _thaw(value: tuple) -> Any:
    kind = value[0]
    if kind == "map":
        return {k: _thaw(v) for k, v in value[1]}
    if kind == "seq":
        return [_thaw(v) for v in value[1]]
    if kind == "options":
        return BattleOptions(**_thaw(value[1]))
    return value[2]


def _setup_from_key(key: tuple) -> BattleSetup:
    return build_setup(**_thaw(key))


@lru_cache(maxsize=512)
def _exact(key: tuple) -> BattleOdds:
    setup = _setup_from_key(key)
    ends = None
    if setup.rounds is None and chains.applicable(setup):
        size = chains.size(setup)
        if size > chains.MAX_CHAIN_STATES:
            _refuse(size, chains.MAX_CHAIN_STATES)
        ends = chains.solve(setup)
    if ends is None:
        size = _general_size(setup)
        if size > MAX_EXACT_STATES:
            _refuse(size, MAX_EXACT_STATES)
        ends = _solve_rounds(setup) if setup.rounds is not None else _solve_to_the_end(setup)
    return _summarise(setup, ends, "exact")


def _refuse(size: int, limit: int) -> None:
    raise CombatInputError(
        "method",
        f"battle too large for the exact solver ({size} states > "
        f'{limit}); ask for method "monte-carlo"',
        METHODS,
    )


def _general_size(setup: BattleSetup) -> int:
    """States of the general path: hit points left on each side, times the AA gun's outcomes
    (each distinct plane loss starts its own set of attacker states)."""
    starts = 1
    if setup.aa_gun:
        starts = chains.aa_outcome_count(
            setup.rules, chains.attacker_planes(setup), setup.aa_shots or None
        )
    return (
        starts
        * (setup.attacker.hit_points(setup.attacker.initial) + 1)
        * (setup.defender.hit_points(setup.defender.initial) + 1)
    )


def estimated_work(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    method: str = "exact",
    runs: int = 2000,
    seed: int = 0,
    **kwargs: Any,
) -> int:
    """The work ``battle_odds`` with the same arguments would do, before doing it.

    Exact: the states the solver will hold (the fast path's chain cells, or the general
    path's states, both counting the AA gun's starting forces). Monte Carlo: runs x units in
    the battle. Invalid input raises ``CombatInputError`` naming the field, as battle_odds does.
    """
    if method not in METHODS:
        raise CombatInputError("method", f"unknown method {method!r}", METHODS)
    params: dict[str, Any] = {
        "rules": "dice",
        "edition": "revised",
        "rounds": None,
        "attacker_order": None,
        "defender_order": None,
        "amphibious": False,
        "techs": (),
        "options": None,
    }
    for name, value in kwargs.items():
        if name not in params:
            raise TypeError(f"estimated_work() got an unexpected keyword argument {name!r}")
        params[name] = value
    if params["techs"] is None:
        params["techs"] = ()
    setup = build_setup(attacker, defender, **params)
    if method == "monte-carlo":
        return runs * _units(setup)
    if setup.rounds is None and chains.takes_fast_path(setup):
        return chains.size(setup)
    return _general_work(setup)


#: Work units charged per successor ``play_round`` returns on the general path: one unit is
#: about a microsecond, as a fast-path cell is (measured: ~20 us a successor on the 2-core
#: machine, G40 sea battles with submarines and aircraft). Standard dice take the compiled
#: ``general_sweep`` instead, at ``general_sweep.WORK_PER_SUCCESSOR``.
WORK_PER_SUCCESSOR = 20


def _general_work(setup: BattleSetup) -> int:
    """The general path's work, before solving: its states times the successors of each,
    in ``WORK_PER_SUCCESSOR`` units (``_solve_general`` charges the same as it goes).

    States: the hit points left on each side (``_general_size``), times one for every rule
    that makes states with the same hit points differ: submarine hits that skip aircraft,
    aircraft hits that skip submarines, submerged submarines. Successors of a state: about
    (hits it can take + 1) on each side, at half the opening volley (the battle's average).
    Checked against the solver's own count (G40 sea battles 8 v 8 to 15 v 11: 1.5 to 3 times
    the successors it made): an estimate on the safe side, not a bound.
    """
    att, dfn = setup.attacker, setup.defender
    states = _general_size(setup)
    if _separable(setup):
        return states * _average_outcomes(setup)  # integer tables, no play_round per state
    has = {
        role: (
            any(side.units[n].submarine for n in side.order),
            any(side.units[n].is_air for n in side.order),
        )
        for role, side in (("attacker", att), ("defender", dfn))
    }
    mixes = (
        1
        + (has["attacker"][0] and has["defender"][1])
        + (has["defender"][0] and has["attacker"][1])
        + setup.may_submerge
    )
    per_successor = (
        general_sweep.WORK_PER_SUCCESSOR
        if general_sweep.applicable(setup)
        else WORK_PER_SUCCESSOR  # compiled, or play_round in Python
    )
    return states * mixes * _average_outcomes(setup) * per_successor


def _average_outcomes(setup: BattleSetup) -> int:
    """(hits one side's half-volley can deal + 1) x (the other's), each capped by what the
    enemy can take: the successors of an average state."""
    att, dfn = setup.attacker, setup.defender
    dice_a = sum(n * u.attack_dice for n, u in _counts(att)) + sum(
        n * u.attack_dice for u, n in setup.bombarders
    )
    dice_d = sum(n * u.defense_dice for n, u in _counts(dfn))
    out_a = min(dice_a, dfn.hit_points(dfn.initial)) // 2 + 1
    out_d = min(dice_d, att.hit_points(att.initial)) // 2 + 1
    return out_a * out_d


def _counts(side) -> list[tuple[int, Any]]:
    return [(n, side.units[name]) for name, n in side.alive(side.initial).items()]


def _units(setup: BattleSetup) -> int:
    return max(
        1,
        sum(setup.attacker.initial)
        + sum(setup.defender.initial)
        + sum(n for _unit, n in setup.bombarders),
    )


def _solve_rounds(setup: BattleSetup) -> list[tuple[float, State, bool]]:
    """Exactly ``setup.rounds`` rounds, then the attacker withdraws."""
    rounds = setup.rounds
    assert rounds is not None  # _exact calls this only when rounds is set
    dist = [(1.0, initial_state(setup))]
    ended: list[tuple[float, State, bool]] = []
    for number in range(1, rounds + 1):
        charge(len(dist))
        nxt: list[tuple[float, State]] = []
        for p, state in dist:
            if is_over(setup, state) and not state.first_round:
                ended.append((p, state, False))
                continue
            last = number == rounds
            successors = play_round(setup, state, EXACT, last_round=last)
            charge(len(successors) * WORK_PER_SUCCESSOR)
            nxt.extend((p * q, s) for q, s in successors)
        dist = merge(nxt)
    for p, state in dist:
        ended.append((p, state, not is_over(setup, state) and _stuck(setup, state)))
    return ended


def _stuck(setup: BattleSetup, state: State) -> bool:
    outcomes = play_round(setup, state, EXACT)
    return len(outcomes) == 1 and outcomes[0][1] == state


def _separable(setup: BattleSetup) -> bool:
    """After round 1, does each side's fire depend only on its own units?

    True without submarines (whose first strike depends on the enemy's destroyers), without
    carried fractions (COF) and without defenceless units. Then ``_solve_separable`` applies;
    otherwise the general path.
    """
    no_subs = not any(
        side.units[name].submarine
        for side in (setup.attacker, setup.defender)
        for name in side.order
    )
    # Defenceless units (transports, AAA) left alone are destroyed by ``engine.settle``, which
    # looks at both sides at once: the general path.
    return (
        no_subs
        and not setup.rules.carry
        and not setup.rules.final_roll
        and not setup.has_defenceless
    )


def _solve_to_the_end(setup: BattleSetup) -> list[tuple[float, State, bool]]:
    first = play_round(setup, initial_state(setup), EXACT)
    if _separable(setup):
        return _solve_separable(setup, first)
    if general_sweep.applicable(setup):
        return general_sweep.solve(setup, first)  # the same rounds, compiled
    return _solve_general(setup, first)


def _solve_separable(setup: BattleSetup, first: Branches) -> list[tuple[float, State, bool]]:
    """The general path's algorithm on integer-numbered side states with per-side tables.

    Each side state is numbered once, with the hits it deals (``engine.general_hits``: the
    same volley code ``play_round`` runs) and its hit points; the successors of a pair of side
    states are the product of where each side's fire sends the other. States are bucketed by
    total hit points, which every transition that changes the state lowers.
    """
    sides = (setup.attacker, setup.defender)
    ids: tuple[dict, dict] = ({}, {})
    states: tuple[list, list] = ([], [])
    fire: tuple[list, list] = ([], [])
    hp: tuple[list, list] = ([], [])
    alive: tuple[list, list] = ([], [])
    # mass[i][j]: probability of reaching attacker state i with defender state j, in dense rows
    # (list indexing is about twice as fast as hashing a pair); every row spans every defender
    # state numbered so far. by_hp[h] lists the pairs reached whose hit points total h, so
    # pairs are expanded highest first and each once.
    mass: list[list[float]] = []
    by_hp: list[list[tuple[int, int]]] = [
        []
        for _ in range(
            sides[0].hit_points(sides[0].initial) + sides[1].hit_points(sides[1].initial) + 1
        )
    ]

    def number(k: int, side_state: tuple[int, ...]) -> int:
        found = ids[k].get(side_state)
        if found is None:
            found = ids[k][side_state] = len(states[k])
            states[k].append(side_state)
            hp[k].append(sides[k].hit_points(side_state))
            alive[k].append(any(side_state))
            fire[k].append(
                general_hits(setup, sides[k].role, side_state)
                if any(side_state)
                else [(1.0, (0, 0))]
            )
            after[k].append([])
            if k == 0:
                mass.append([0.0] * len(states[1]))
            else:
                for r in mass:
                    r.append(0.0)
        return found

    # after[k][x][h]: the id side k's state x becomes after h hits (no submarines here, so no
    # hit is ever restricted), filled as far as needed.
    after: tuple[list[list[int]], list[list[int]]] = ([], [])

    def successors(k: int, x: int, hits: list[tuple[float, tuple[int, int]]]):
        table = after[k][x]
        merged: dict[int, float] = {}
        for q, pools in hits:
            h = sum(pools)  # no submarine anywhere: every pool's hits land on any unit
            while len(table) <= h:
                table.append(number(k, sides[k].apply_hits(states[k][x], len(table), 0)))
            y = table[h]
            merged[y] = merged.get(y, 0.0) + q
        return list(merged.items())

    ends: list[tuple[float, int, int, bool]] = []
    hp_att, hp_def, alive_att, alive_def = hp[0], hp[1], alive[0], alive[1]
    for p, state in first:
        i, j = number(0, state.att), number(1, state.dfn)
        if mass[i][j] == 0.0:
            by_hp[hp_att[i] + hp_def[j]].append((i, j))
        mass[i][j] += p
    for level in range(len(by_hp) - 1, -1, -1):
        charge(len(by_hp[level]))
        for i, j in by_hp[level]:
            p = mass[i][j]
            if p == 0.0:
                continue  # listed twice (an addition underflowed to 0.0): already expanded
            mass[i][j] = 0.0
            if not (alive_att[i] and alive_def[j]):
                ends.append((p, i, j, False))
                continue
            to_def = successors(1, j, fire[0][i])
            to_att = successors(0, i, fire[1][j])
            stay = sum(q for i2, q in to_att if i2 == i) * sum(q for j2, q in to_def if j2 == j)
            if stay >= 1.0 - 1e-12:
                ends.append((p, i, j, True))  # nobody can ever score: stalemate
                continue
            scale = p / (1.0 - stay)
            defenders = [(j2, q, hp_def[j2]) for j2, q in to_def]
            others = [entry for entry in defenders if entry[0] != j]
            for i2, pa in to_att:
                weight, hi, target = scale * pa, hp_att[i2], mass[i2]
                for j2, pd, hd in others if i2 == i else defenders:
                    v = target[j2]
                    if v == 0.0:
                        by_hp[hi + hd].append((i2, j2))
                    target[j2] = v + weight * pd
    return [(p, State(states[0][i], states[1][j], False), is_stuck) for p, i, j, is_stuck in ends]


def _solve_general(setup: BattleSetup, first: Branches) -> list[tuple[float, State, bool]]:
    ended: list[tuple[float, State, bool]] = []
    mass: dict[State, float] = {}
    heap: list[tuple[tuple[int, int], int, State]] = []
    tie = itertools.count()

    def add(p: float, state: State) -> None:
        if is_over(setup, state):
            ended.append((p, state, False))
            return
        if state not in mass:
            priority = (
                -(setup.attacker.hit_points(state.att) + setup.defender.hit_points(state.dfn)),
                state.carry_att + state.carry_def,
            )
            heapq.heappush(heap, (priority, next(tie), state))
            mass[state] = 0.0
        mass[state] += p

    for p, state in first:
        add(p, state)
    while heap:
        _priority, _tie, state = heapq.heappop(heap)
        p = mass.pop(state)
        successors = play_round(setup, state, EXACT)
        charge(len(successors) * WORK_PER_SUCCESSOR)  # the work done: estimated_work's units
        stay = sum(q for q, s in successors if s == state)
        if stay >= 1.0 - 1e-12:
            ended.append((p, state, True))  # nobody can ever score: stalemate
            continue
        scale = p / (1.0 - stay)
        for q, s in successors:
            if s != state:
                add(scale * q, s)
    return ended


def _summarise(
    setup: BattleSetup, ends: list[tuple[float, State, bool]], method: str
) -> BattleOdds:
    """Totals, expected survivors, the IPC swing and every outcome, from the battle's ends.

    Each distinct side state is numbered and described once; the ends are then merged by
    (attacker state, defender state, stalemate) and summed with numpy, so thousands of ends
    (an AA gun's fifteen starting forces) cost a few hundred microseconds. The outcome list
    is built when first asked for.
    """
    # Submerged submarines left the battle alive: the result is read from the units still in
    # it, the survivors include them (engine.battle_result, engine.surfaced).
    codes_of_dived: list[int] | None = None
    if any(s.dived_att or s.dived_def for _p, s, _x in ends):
        codes_of_dived = [RESULTS_ORDER.index(battle_result(setup, s, x)) for _p, s, x in ends]
        ends = [(p, surfaced(setup, s), x) for p, s, x in ends]
    att_index: dict[tuple[int, ...], int] = {}
    dfn_index: dict[tuple[int, ...], int] = {}
    count = len(ends)
    ia = np.fromiter(
        (att_index.setdefault(s.att, len(att_index)) for _p, s, _x in ends), np.int64, count
    )
    idf = np.fromiter(
        (dfn_index.setdefault(s.dfn, len(dfn_index)) for _p, s, _x in ends), np.int64, count
    )
    weight = np.fromiter((p for p, _s, _x in ends), np.float64, count)
    if codes_of_dived is None:
        stuck = np.fromiter((x for _p, _s, x in ends), np.bool_, count)
        a_alive = np.fromiter((any(k) for k in att_index), np.bool_, len(att_index))[ia]
        d_alive = np.fromiter((any(k) for k in dfn_index), np.bool_, len(dfn_index))[idf]
        per_end = np.where(
            a_alive & ~d_alive,
            0,
            np.where(
                d_alive & ~a_alive, 1, np.where(~(a_alive | d_alive), 2, np.where(stuck, 3, 1))
            ),
        )
    else:
        per_end = np.array(codes_of_dived, dtype=np.int64)
    # Merge equal ends, keeping the order in which each first appears.
    code = (ia * max(1, len(dfn_index)) + idf) * 4 + per_end
    _codes, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    mass = np.bincount(inverse.reshape(-1), weights=weight, minlength=len(first))
    order = np.argsort(first, kind="stable")
    rows, mass = first[order], mass[order]
    ia, idf, result = ia[rows], idf[rows], per_end[rows]

    att_keys, att_counts, att_names, att_lost = _describe(setup.attacker, list(att_index))
    def_keys, def_counts, def_names, def_lost = _describe(setup.defender, list(dfn_index))
    totals = np.bincount(result, weights=mass, minlength=4)
    att_mass = np.bincount(ia, weights=mass, minlength=len(att_keys))
    def_mass = np.bincount(idf, weights=mass, minlength=len(def_keys))
    swing = float(def_mass @ def_lost - att_mass @ att_lost)

    def expected(side, names: list[str], counts: np.ndarray, side_mass: np.ndarray) -> dict:
        out = dict.fromkeys(side.order, 0.0)
        out.update(zip(names, (side_mass @ counts).tolist(), strict=True))
        return out

    rows_for_outcomes = (ia.tolist(), idf.tolist(), result.tolist(), mass.tolist())

    def outcome_list() -> tuple[Outcome, ...]:
        grouped: dict[tuple, list] = {}
        for a, d, r, p in zip(*rows_for_outcomes, strict=True):
            grouped.setdefault((att_keys[a], def_keys[d], RESULTS_ORDER[r]), [0.0])[0] += p
        ranked = sorted(grouped.items(), key=lambda item: -item[1][0])
        proxies: dict[tuple, MappingProxyType] = {}
        return tuple(
            Outcome(_proxy(proxies, a), _proxy(proxies, d), r, p) for (a, d, r), (p,) in ranked
        )

    return BattleOdds(
        rules=setup.rules.key,
        edition=setup.edition.key,
        attacker_wins=float(totals[0]),
        defender_wins=float(totals[1]),
        draw=float(totals[2]),
        stalemate=float(totals[3]),
        expected_attacker_survivors=MappingProxyType(
            expected(setup.attacker, att_names, att_counts, att_mass)
        ),
        expected_defender_survivors=MappingProxyType(
            expected(setup.defender, def_names, def_counts, def_mass)
        ),
        expected_ipc_swing=swing,
        outcome_list=outcome_list,
        method=method,
    )


RESULTS_ORDER = ("attacker", "defender", "draw", "stalemate")  # the codes of ``_summarise``


def _proxy(proxies: dict, key: tuple) -> MappingProxyType:
    """One read-only mapping per distinct survivor key (outcomes share them)."""
    found = proxies.get(key)
    if found is None:
        found = proxies[key] = MappingProxyType(dict(key))
    return found


def _describe(side, states: list) -> tuple[list[tuple], np.ndarray, list[str], np.ndarray]:
    """For each side state (in order): its survivors as a sorted ((unit, count), ...) key, its
    counts per unit type (columns ``names``, the types it started with, sorted) and the IPC
    value it has lost."""
    start = side.alive(side.initial)
    names = sorted(start)
    slot_of = {name: k for k, name in enumerate(names)}
    columns = [slot_of[name] for name, _hp in side.slots]
    costs = np.array([side.units[name].cost for name in names], dtype=np.int64)
    full = int(sum(side.units[name].cost * start[name] for name in names))
    onehot = np.zeros((len(side.slots), len(names)), dtype=np.int64)
    onehot[np.arange(len(side.slots)), columns] = 1
    counts = np.array(states, dtype=np.int64).reshape(len(states), len(side.slots)) @ onehot
    keys = [tuple(compress(zip(names, row, strict=True), row)) for row in counts.tolist()]
    return keys, counts.astype(np.float64), names, (full - counts @ costs).astype(np.float64)


def _minus(start: Mapping[str, int], left: Mapping[str, int]) -> dict[str, int]:
    return {n: c - left.get(n, 0) for n, c in start.items()}


def _monte_carlo(key: tuple, runs: int, seed: int) -> BattleOdds:
    setup = _setup_from_key(key)
    dice = RandomDice(seed)
    weight = 1.0 / runs
    units = _units(setup)
    ends = []
    for _ in range(runs):
        charge(units)  # one run's work: every unit in the battle
        report, last = play_battle_state(setup, dice)
        state = _state_of(setup, report)
        if last.dived_att or last.dived_def:  # the result is read from the units still in it
            state = last._replace(first_round=False)
        ends.append((weight, state, report.winner == "stalemate"))
    return _summarise(setup, ends, "monte-carlo")


def _state_of(setup: BattleSetup, report) -> State:
    att = setup.attacker.remove(
        setup.attacker.initial,
        _minus(setup.attacker.alive(setup.attacker.initial), report.attacker_survivors),
    )
    dfn = setup.defender.remove(
        setup.defender.initial,
        _minus(setup.defender.alive(setup.defender.initial), report.defender_survivors),
    )
    return State(att, dfn, first_round=False)
