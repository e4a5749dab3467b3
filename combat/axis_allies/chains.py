"""The exact solver's fast path: each side walks its loss sequence, solved with numpy arrays.

When every hit a side takes moves it one step along a fixed loss sequence (no carried
fractions, no first strike after the opening, submarine hits never meeting aircraft they cannot
take, no unit of more than two hits), a side's state in a later round is an index into that
sequence, and a round's transition from (attacker at i, defender at j) is the product of two
independent hit distributions: the attacker's from i, the defender's from j. The opening round
is different only in where it starts: the AA gun's plane losses give one loss sequence per
distinct surviving force (weighted by its chance), bombardment gives the defender's starting
distribution, and the round-1 volley may include bombarding ships (Low Luck) or a carried
fraction (A&A Chess).

The chain is solved per anti-diagonal (total hits taken): every transition lowers the hit
points left, so the cells of one diagonal depend only on earlier diagonals. The later rounds
are pushed forward cell by cell in compiled code (``chain_sweep``, numba), over every AA-gun
starting force. The chance of a round changing nothing is divided out as on the general path.

Tables that depend only on small integers (binomial hit distributions, a volley's hit
distribution, AA loss distributions) are built once per process (``lru_cache``).
"""

from __future__ import annotations

from functools import lru_cache
from types import MappingProxyType

import numpy as np

from combat.axis_allies import chain_sweep
from combat.axis_allies.anti_aircraft import aa_loss_outcomes
from combat.axis_allies.editions import UnitType
from combat.axis_allies.engine import ANY, NO_AIR, State, Volley, _bombard_volley, volley
from combat.axis_allies.rules import (
    ATTACKER,
    DEFENDER,
    EXACT,
    RuleSet,
    binomial_term,
    get_rules,
    total_hits,
)
from combat.axis_allies.setup import BattleSetup, SideSetup
from combat.budget import charge

#: Above this many (chains x attacker positions x defender positions) the fast path refuses
#: (about 8 MB per array); the arrays are sized before they are allocated.
MAX_CHAIN_STATES = 1_000_000


# --- per-process tables of small integers -----------------------------------------------------


@lru_cache(maxsize=4096)
def binomial_pmf(count: int, needed: int) -> np.ndarray:
    """Hits among ``count`` d6 hitting on <= ``needed`` (read-only array, index = hits)."""
    p = min(max(needed, 0), 6) / 6
    if p <= 0 or count == 0:
        out = np.zeros(1)
        out[0] = 1.0
    elif p >= 1:
        out = np.zeros(count + 1)
        out[count] = 1.0
    else:
        k = np.arange(count + 1)
        # The same terms as rules._binomial: comb(n, k) p^k (1-p)^(n-k).
        out = np.array([binomial_term(count, int(i), p) for i in k])
    out.setflags(write=False)
    return out


def volley_pmf(rules: RuleSet, role: str, dice: tuple, bonus: int) -> np.ndarray:
    """Distribution of a volley's hits (general + restricted together), index = hits."""
    return _volley_pmf(rules.key, role, dice, bonus)


@lru_cache(maxsize=65536)
def _volley_pmf(rules_key: str, role: str, dice: tuple, bonus: int) -> np.ndarray:
    rules = get_rules(rules_key)
    if rules.per_die:
        return _dice_pmf(dice)
    total = sum(needed * n for needed, n, _r in dice) + bonus
    hits = total_hits(total, rules.threshold(role), rules, EXACT, role, "general")
    out = np.zeros(max(h for _p, h in hits) + 1)
    for p, h in hits:
        out[h] += p
    out.setflags(write=False)
    return out


@lru_cache(maxsize=65536)
def _dice_pmf(dice: tuple) -> np.ndarray:
    """Hits of standard dice: the binomials of ``dice`` convolved in order. Each prefix is
    kept (the same products as one loop over the groups), so counts that differ only in
    their last groups share the work (a ``cheapest_force`` search meets 12,000 volleys)."""
    if not dice:
        out = np.ones(1)
    else:
        needed, n, _restricted = dice[-1]
        out = np.convolve(_dice_pmf(dice[:-1]), binomial_pmf(n, needed))
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4096)
def aa_table(rules: RuleSet, planes: tuple, order: tuple, shots: int | None = None) -> tuple:
    """The AA gun's (probability, planes lost) outcomes for ``planes`` ((type, count), ...)."""
    outcomes = aa_loss_outcomes(rules, dict(planes), 1, list(order), EXACT, shots=shots)
    return tuple((p, tuple(sorted(lost.items()))) for p, lost in outcomes)


def aa_outcome_count(rules: RuleSet, planes: dict[str, int], shots: int | None = None) -> int:
    """How many distinct plane losses the AA gun can cause (without enumerating them)."""
    if not planes:
        return 1
    if shots is not None and rules.per_die:
        return min(shots, sum(planes.values())) + 1
    if rules.per_die:
        count = 1
        for n in planes.values():
            count *= n + 1
        return count
    return 2  # Low Luck / A&A Chess: sure hits plus at most one rolled extra


# --- applicability and chains ----------------------------------------------------------------


def _has_subs(side: SideSetup) -> bool:
    return any(side.units[n].submarine for n in side.order)


def _has_air(side: SideSetup) -> bool:
    return any(side.units[n].is_air for n in side.order)


def _may_strike_first(setup: BattleSetup, role: str) -> bool:
    side = setup.side(role)
    if not _has_subs(side):
        return False
    if role == DEFENDER and setup.edition.sub_first_strike == "attacker":
        return False
    return setup.rules.key != "lowluck" or bool(setup.options.first_strike_subs(role))


def applicable(setup: BattleSetup) -> bool:
    """Static checks; ``solve`` also checks the destroyer cover along the chains."""
    rules = setup.rules
    if setup.rounds is not None or rules.carry or rules.final_roll:
        return False
    if (
        setup.bombarders
        and setup.edition.bombard_casualties_fire_back
        and rules.key == "lowluck"
        and setup.options.bombard_separately
    ):
        return False  # a separate Low Luck group firing with the round: the general path
    for side in (setup.attacker, setup.defender):
        if any(side.units[n].hits > 2 for n in side.order):
            return False
    # Submarines submerging "always" leave the battle when the enemy has no destroyer: the
    # general path ("when_cannot_hit" needs enemy aircraft, refused just below).
    if setup.may_submerge and any(
        _has_subs(side) and setup.options.submerge_policy(side.role) == "always"
        for side in (setup.attacker, setup.defender)
    ):
        return False
    # Submarine hits cannot fall on aircraft: only harmless when the enemy has none.
    if _has_subs(setup.attacker) and _has_air(setup.defender):
        return False
    return not (_has_subs(setup.defender) and _has_air(setup.attacker))


def chain(side: SideSetup, start: tuple[int, ...]) -> list[tuple[int, ...]]:
    """``start`` after 0, 1, 2, ... hits, to empty (engine's ``apply_hits`` one hit at a time:
    undamaged multi-hit units absorb first, then units are lost in slot order)."""
    counts = list(start)
    states = [start]
    slots = side.slots
    for i, (name, hp) in enumerate(slots):
        if hp > 1:
            target = side.slot_index[(name, hp - 1)]
            for _ in range(counts[i]):
                counts[i] -= 1
                counts[target] += 1
                states.append(tuple(counts))
    for i, (_name, hp) in enumerate(slots):
        if hp == 1:
            for _ in range(counts[i]):
                counts[i] -= 1
                states.append(tuple(counts))
    return states


def _has_anti_sub(side: SideSetup, state: tuple[int, ...]) -> bool:
    return any(
        n and side.units[name].anti_sub for (name, _hp), n in zip(side.slots, state, strict=True)
    )


class _FireTable:
    """Hit distribution of each side state's later-round volley.

    A volley depends only on the unit types and how many of each are alive, so the
    distribution is looked up in a per-process table keyed by (rules, role, unit stats,
    counts); per query only the state -> counts step runs.
    """

    def __init__(self, setup: BattleSetup, role: str, subs: str = "with") -> None:
        side = setup.side(role)
        self.rules_key = setup.rules.key
        self.role = role
        self.subs = subs  # engine.volley's: "with", "without" or "only" submarines
        self.names = side.order
        position = {name: k for k, name in enumerate(side.order)}
        self.slot_names = [position[name] for name, _hp in side.slots]
        signature = tuple(
            (
                name,
                u.attack,
                u.defense,
                u.attack_dice,
                u.defense_dice,
                u.submarine,
                tuple(sorted(u.supports.items())),
            )
            for name in side.order
            for u in (side.units[name],)
        )
        number = _SIGNATURES.get(signature)
        if number is None:
            number = _SIGNATURES[signature] = len(_SIGNATURE_LIST)
            _SIGNATURE_LIST.append(signature)
        self.signature_id = number
        self.memo: dict[tuple[int, ...], np.ndarray] = {}
        self.onehot = np.zeros((len(side.slots), len(self.names)), dtype=np.int64)
        self.onehot[np.arange(len(side.slots)), self.slot_names] = 1

    def many(self, states: list[tuple[int, ...]]) -> list[np.ndarray]:
        """The distributions of ``states`` (counts per unit type computed in one product)."""
        counts = (np.array(states, dtype=np.int64) @ self.onehot).tolist()
        memo, rules_key, role, sig_id = self.memo, self.rules_key, self.role, self.signature_id
        subs = self.subs
        out = []
        for state, row in zip(states, counts, strict=True):
            found = memo.get(state)
            if found is None:
                found = memo[state] = (
                    _fire_pmf(rules_key, role, sig_id, tuple(row), subs) if any(row) else _NO_FIRE
                )
            out.append(found)
        return out

    def __call__(self, state: tuple[int, ...]) -> np.ndarray:
        found = self.memo.get(state)
        if found is None:
            counts = [0] * len(self.names)
            for k, n in zip(self.slot_names, state, strict=True):
                counts[k] += n
            found = self.memo[state] = _fire_pmf(
                self.rules_key, self.role, self.signature_id, tuple(counts), self.subs
            )
        return found


#: Unit stats seen so far, numbered, so the table below hashes a small int, not the stats.
_SIGNATURES: dict[tuple, int] = {}
_SIGNATURE_LIST: list[tuple] = []


@lru_cache(maxsize=65536)
def _fire_pmf(
    rules_key: str, role: str, signature_id: int, counts: tuple, subs: str = "with"
) -> np.ndarray:
    """``engine.volley`` for these counts (``subs``: submarines "with" the rest, "without"
    them, or "only" them), as a hit distribution."""
    return _volley_pmf(rules_key, role, _signature_dice(signature_id, role, counts, subs), 0)


def _signature_dice(signature_id: int, role: str, counts: tuple, subs: str) -> tuple:
    """``engine.volley(_signature_side(...), counts, subs=subs).dice`` without building the
    side's dictionaries (a thousand battles of a ``cheapest_force`` search meet twenty
    thousand distinct counts): the same pairing, bonuses and filters, step for step, on a
    side of one-hit units whose state is its counts per type (no destroyer rule: the chain
    path never has submarines against aircraft)."""
    table = _signature_table(signature_id, role)
    attack = role == ATTACKER
    boosted = [0] * len(counts)
    if attack:
        for t, n in enumerate(counts):
            left = n
            if not left:
                continue
            for target, _bonus in table[t][3]:
                if not left:
                    break
                if target < 0:
                    continue  # a type this side does not have: never free (take 0)
                take = min(left, max(counts[target] - boosted[target], 0))
                if take:
                    boosted[target] += take
                    left -= take
    bonus_of: dict[int, int] = {}
    for t, n in enumerate(counts):
        if n:
            for target, bonus in table[t][3]:
                bonus_of[target] = bonus
    dice = []
    for t, n in enumerate(counts):
        if not n:
            continue
        value, per_unit, submarine, _supports = table[t]
        if submarine:
            if subs == "without":
                continue
        elif subs == "only":
            continue
        target_class = NO_AIR if submarine else ANY
        raised = min(n, boosted[t]) if attack else 0
        if raised:
            dice.append((value + bonus_of[t], raised * per_unit, target_class))
        if n - raised:
            dice.append((value, (n - raised) * per_unit, target_class))
    return tuple(d for d in dice if d[1] > 0 and d[0] > 0)


@lru_cache(maxsize=4096)
def _signature_table(signature_id: int, role: str) -> tuple:
    """Per unit type of the signature: (value, dice per unit, submarine, supports as
    (type index or -1 when absent, bonus) in the unit's order)."""
    signature = _SIGNATURE_LIST[signature_id]
    index = {s[0]: t for t, s in enumerate(signature)}
    attack = role == ATTACKER
    return tuple(
        (
            a if attack else d,
            adice if attack else ddice,
            sub,
            tuple((index.get(target, -1), bonus) for target, bonus in supports),
        )
        for _name, a, d, adice, ddice, sub, supports in signature
    )


@lru_cache(maxsize=4096)
def _signature_side(signature_id: int, role: str) -> SideSetup:
    """A side of one-hit units with the signature's stats: its states are counts per unit type
    (built once per signature: ``SideSetup`` and ``UnitType`` are not cheap to make)."""
    signature = _SIGNATURE_LIST[signature_id]
    units = {
        name: UnitType(
            name,
            "land",
            attack,
            defense,
            0,
            attack_dice=adice,
            defense_dice=ddice,
            submarine=sub,
            supports=MappingProxyType(dict(supports)),
        )
        for name, attack, defense, adice, ddice, sub, supports in signature
    }
    names = [s[0] for s in signature]
    return SideSetup(role, units, {}, names)


# --- the solver -------------------------------------------------------------------------------


def size(setup: BattleSetup) -> int:
    """Cells of the chain arrays: AA starting forces x attacker positions x defender positions."""
    att, dfn = setup.attacker, setup.defender
    planes = attacker_planes(setup)
    starts = aa_outcome_count(setup.rules, planes, setup.aa_shots or None) if setup.aa_gun else 1
    return starts * (att.hit_points(att.initial) + 1) * (dfn.hit_points(dfn.initial) + 1)


def attacker_planes(setup: BattleSetup) -> dict[str, int]:
    side = setup.attacker
    return {n: c for n, c in side.alive(side.initial).items() if side.units[n].is_air}


def solve(setup: BattleSetup) -> list[tuple[float, State, bool]] | None:
    """The battle's ends as (probability, state, stalemate), or None if the path does not apply."""
    solved = _solve(setup)
    return None if solved is None else _ends(*solved)


def win_chances(
    setup: BattleSetup, land: frozenset[str], same_defender: dict | None = None
) -> tuple[float, float] | None:
    """(the attacker's chance to win, its chance to win with a unit of ``land`` left), read
    from the chain arrays without listing the ends (``cheapest_force`` asks this of a
    thousand battles), or None if the path does not apply. The same cells as ``solve``'s
    ends, summed in another order (equal to ``battle_odds``'s within 1e-15).

    ``same_defender``: a dict kept across calls whose setups differ only in the attacker
    (the same defending force, rules, edition and options): the defender's loss sequence,
    its fire and its defenceless check are computed once and kept there."""
    solved = _solve(setup, same_defender)
    if solved is None:
        return None
    M, _held, chains_a, _chain_d, offsets = solved
    A, D = M.shape[1] - 1, M.shape[2] - 1
    att = setup.attacker
    land_slots = np.array([name in land for name, _hp in att.slots], dtype=np.int64)
    wins = 0.0
    takes = 0.0
    for c, states in enumerate(chains_a):
        o = offsets[c]
        won = M[c, o:A, D]  # attacker alive (position A: nobody left), defender gone
        if not len(won):
            continue
        has_land = np.array(states[: A - o], dtype=np.int64).reshape(A - o, -1) @ land_slots > 0
        wins += float(won.sum())
        takes += float(won[has_land].sum())
    return wins, takes


def _solve(setup: BattleSetup, same_defender: dict | None = None) -> tuple | None:
    """``solve``'s arrays: (M, stalemate mass, attacker chains, defender chain, offsets);
    ``same_defender`` as in ``win_chances``."""
    known = same_defender if same_defender is not None else {}
    if not applicable(setup):
        return None
    att, dfn = setup.attacker, setup.defender
    rules = setup.rules

    # Round 1, AA gun: one starting force per distinct loss, with its chance.
    starts: dict[tuple[int, ...], float] = {}
    planes = attacker_planes(setup)
    if setup.aa_gun and planes:
        key = tuple(sorted(planes.items()))
        for p, lost in aa_table(rules, key, tuple(att.order), setup.aa_shots or None):
            s = att.remove(att.initial, dict(lost))
            starts[s] = starts.get(s, 0.0) + p
    else:
        starts[att.initial] = 1.0
    chains_a = [chain(att, s) for s in starts]
    if "chain" not in known:
        known["chain"] = chain(dfn, dfn.initial)
        known["alone"] = _any_defenceless(dfn) and any(
            _alone_defenceless(dfn, s) for s in known["chain"]
        )
    chain_d = known["chain"]
    if setup.has_defenceless and (
        known["alone"]
        or (_any_defenceless(att) and any(_alone_defenceless(att, s) for c in chains_a for s in c))
    ):
        return None  # a side can be left with only transports / AAA: the general path settles it
    A = max(len(c) for c in chains_a) - 1
    D = len(chain_d) - 1
    C = len(chains_a)
    if C * (A + 1) * (D + 1) > MAX_CHAIN_STATES:
        return None

    strikes = _may_strike_first(setup, ATTACKER) or _may_strike_first(setup, DEFENDER)
    if strikes and not rules.per_die:
        # Low Luck first-strike groups and A&A Chess fractions are left to the general path:
        # here first strike must never happen (the enemy keeps a destroyer while it has any
        # unit left).
        if _may_strike_first(setup, ATTACKER) and D and not _has_anti_sub(dfn, chain_d[D - 1]):
            return None
        if _may_strike_first(setup, DEFENDER):
            for chain_a in chains_a:
                if len(chain_a) > 1 and not _has_anti_sub(att, chain_a[-2]):
                    return None
        strikes = False
    if strikes:
        return _solve_with_first_strike(setup, starts, chains_a, chain_d)

    fire_a = _FireTable(setup, ATTACKER)
    if "rows" not in known:
        known["rows"] = _FireTable(setup, DEFENDER).many(chain_d)
    d_rows = known["rows"]
    DF, DF_tail = _padded(d_rows, A + 1)
    offsets = [A - (len(c) - 1) for c in chains_a]
    AF, AF_tail = _attacker_fire(fire_a, chains_a, offsets, A, D)

    # Round 1: bombardment moves the defender along its chain; the general volley of round 1
    # may differ from later ones (Low Luck bombarding ships, A&A Chess fractions).
    bomb, bonus, joined = _bombardment(setup)
    M = np.zeros((C, A + 1, D + 1))
    for c, (start, weight) in enumerate(starts.items()):
        alive = any(start)
        b_dist = bomb if alive else np.ones(1)
        if not alive or not any(chain_d[0]):
            a1 = _NO_FIRE
        elif not (joined or bonus):
            a1 = fire_a.memo[start]  # the round-1 volley is a later round's
        else:
            v = volley(att, start, subs="with")
            dice = v.dice + joined
            a1 = volley_pmf(rules, ATTACKER, dice, bonus)
        cap_a = len(chains_a[c]) - 1
        for b, pb in enumerate(b_dist):
            if pb == 0.0:
                continue
            b = min(b, D)
            a_hits = a1 if any(chain_d[b]) else _NO_FIRE
            d_hits = d_rows[b] if alive else _NO_FIRE
            row = _capped(d_hits, cap_a)  # attacker positions taken
            col = _capped(a_hits, D - b)  # defender positions taken
            M[c, offsets[c] : offsets[c] + len(row), b : b + len(col)] += (
                weight * pb * np.outer(row, col)
            )

    # Later rounds, diagonal by diagonal (chain_sweep). Cells with g == A (attacker gone) or
    # j == D (defender gone) are ends and are never expanded.
    d0 = DF[:, 0]
    a0 = AF[:, :, 0]
    # Per cell: the chance a round changes nothing, and 1 / (1 - that) (0 where nobody can
    # ever score: a stalemate, recorded and not expanded).
    stay = a0[:, :A, None] * d0[None, None, :D]
    stuck = stay >= 1.0 - 1e-12
    scale = np.where(stuck, 0.0, 1.0 / np.where(stuck, 0.5, 1.0 - stay))
    charge(C * A * D)  # every cell that can still fight, once
    held = chain_sweep.sweep(M, DF, DF_tail, AF, AF_tail, scale, stuck)
    return M, held, chains_a, chain_d, offsets


def _attacker_fire(
    fire: _FireTable,
    chains_a: list,
    offsets: list[int],
    A: int,
    D: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The attacker's hit distributions (and tails) per (chain, position), padded to D + 1
    hits: chain c's position k sits at global row offset[c] + k, so every chain ends at A."""
    every = fire.many([s for states in chains_a for s in states])
    rows: list[np.ndarray] = []
    at = 0
    for c, states in enumerate(chains_a):
        rows.extend([_NO_FIRE] * offsets[c])
        rows.extend(every[at : at + len(states)])
        at += len(states)
    pad, tail = _padded(rows, D + 1)
    return pad.reshape(len(chains_a), A + 1, D + 2), tail.reshape(len(chains_a), A + 1, D + 2)


def _ends(M, held, chains_a, chain_d, offsets) -> list[tuple[float, State, bool]]:
    """The battle's ends: stalemates (``held``), the attacker alone (j == D), the defender
    alone (g == A)."""
    A, D = M.shape[1] - 1, M.shape[2] - 1
    ends: list[tuple[float, State, bool]] = []
    for c, g, j in zip(*np.nonzero(held), strict=True):
        att_state = chains_a[c][g - offsets[c]]
        ends.append((float(held[c, g, j]), State(att_state, chain_d[j], False), True))
    won = M[:, :, D].tolist()  # attacker alive, defender gone (and the draw at g == A)
    lost = M[:, A, :D].tolist()  # attacker gone, defender alive
    for c, states in enumerate(chains_a):
        o = offsets[c]
        row = won[c]
        for gg in range(o, A + 1):
            if row[gg] != 0.0:
                ends.append((row[gg], State(states[gg - o], chain_d[D], False), False))
        for jj, p in enumerate(lost[c]):
            if p != 0.0:
                ends.append((p, State(states[-1], chain_d[jj], False), False))
    return ends


def _solve_with_first_strike(
    setup: BattleSetup, starts: dict, chains_a: list, chain_d: list
) -> tuple:
    """``solve`` when submarines may strike first (standard dice: every sub fires first when
    the enemy has no destroyer, and fires no more that round). Round 1 is a later round here
    once the AA gun and bombardment are done (dice join no total), so the opening mass is put
    at the start of round 1 and ``chain_sweep.sweep_first_strike`` plays every round."""
    att, dfn = setup.attacker, setup.defender
    A, D, C = max(len(c) for c in chains_a) - 1, len(chain_d) - 1, len(chains_a)
    offsets = [A - (len(c) - 1) for c in chains_a]
    general_d, general_d_tail, general_a, general_a_tail = [], [], [], []
    for subs in ("with", "without"):  # f = 0: subs fire in the general stage; 1: they struck
        pad, tail = _padded(_FireTable(setup, DEFENDER, subs).many(chain_d), A + 1)
        general_d.append(pad)
        general_d_tail.append(tail)
        pad, tail = _attacker_fire(_FireTable(setup, ATTACKER, subs), chains_a, offsets, A, D)
        general_a.append(pad)
        general_a_tail.append(tail)
    subs_d, subs_d_tail = _padded(_FireTable(setup, DEFENDER, "only").many(chain_d), A + 1)
    subs_a, subs_a_tail = _attacker_fire(
        _FireTable(setup, ATTACKER, "only"), chains_a, offsets, A, D
    )
    # Who strikes first from (g, j): subs alive and no enemy destroyer (engine._first_strikers).
    subs_at_d = np.array([_has_subs_alive(dfn, s) for s in chain_d])
    cover_d = np.array([_has_anti_sub(dfn, s) for s in chain_d])
    subs_at_a = np.zeros((C, A + 1), dtype=bool)
    cover_a = np.zeros((C, A + 1), dtype=bool)
    for c, states in enumerate(chains_a):
        subs_at_a[c, offsets[c] :] = [_has_subs_alive(att, s) for s in states]
        cover_a[c, offsets[c] :] = [_has_anti_sub(att, s) for s in states]
    strike_a = _may_strike_first(setup, ATTACKER) & subs_at_a[:, :, None] & ~cover_d[None, None]
    strike_d = _may_strike_first(setup, DEFENDER) & subs_at_d[None, None] & ~cover_a[:, :, None]

    bomb, _bonus, _joined = _bombardment(setup)  # dice: a distribution, nothing joined
    M = np.zeros((C, A + 1, D + 1))
    for c, (start, weight) in enumerate(starts.items()):
        b_dist = bomb if any(start) else np.ones(1)
        for b, pb in enumerate(b_dist):
            M[c, offsets[c], min(b, D)] += weight * pb
    charge(3 * C * A * D)  # every cell that can still fight, with its first strikes
    held = chain_sweep.sweep_first_strike(
        M,
        np.stack(general_d),
        np.stack(general_d_tail),
        subs_d,
        subs_d_tail,
        np.stack(general_a),
        np.stack(general_a_tail),
        subs_a,
        subs_a_tail,
        strike_a[:, :, :],
        strike_d[:, :, :],
    )
    return M, held, chains_a, chain_d, offsets


def _defenceless_left_alone(setup: BattleSetup, chains_a: list, chain_d: list) -> bool:
    """Can a side be left with only transports / AAA along its loss sequence? (A side
    without a defenceless unit never is: not looked at state by state.)"""
    att, dfn = setup.attacker, setup.defender
    return setup.has_defenceless and (
        (_any_defenceless(dfn) and any(_alone_defenceless(dfn, s) for s in chain_d))
        or (_any_defenceless(att) and any(_alone_defenceless(att, s) for c in chains_a for s in c))
    )


def _any_defenceless(side: SideSetup) -> bool:
    return any(side.units[name].defenceless for name in side.order)


def takes_fast_path(setup: BattleSetup) -> bool:
    """Will ``solve`` answer (rather than hand the battle to the general path)? The static
    checks, and no side left with only defenceless units along its loss sequence (from the
    opening force: the AA gun only shortens the attacker's). For ``estimated_work``."""
    if not applicable(setup):
        return False
    att, dfn = setup.attacker, setup.defender
    return not _defenceless_left_alone(setup, [chain(att, att.initial)], chain(dfn, dfn.initial))


def _alone_defenceless(side: SideSetup, state: tuple[int, ...]) -> bool:
    """Only defenceless units (transports, AAA) left alive in ``state``."""
    return any(state) and all(
        side.units[name].defenceless for (name, _hp), n in zip(side.slots, state, strict=True) if n
    )


def _has_subs_alive(side: SideSetup, state: tuple[int, ...]) -> bool:
    return any(
        n and side.units[name].submarine for (name, _hp), n in zip(side.slots, state, strict=True)
    )


_NO_FIRE = np.ones(1)
_NO_FIRE.setflags(write=False)


def _capped(pmf: np.ndarray, cap: int) -> np.ndarray:
    """``pmf`` over hits, with every outcome of ``cap`` or more hits put at ``cap``."""
    if len(pmf) <= cap + 1:
        return pmf
    out = pmf[: cap + 1].copy()
    out[cap] = pmf[cap:].sum()
    return out


def _padded(rows: list[np.ndarray], width: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows as a (n, width + 1) array, plus tail sums: tail[i, k] = P(hits >= k)."""
    longest = max(len(r) for r in rows)
    full = np.zeros((len(rows), max(longest, width + 1)))
    for i, r in enumerate(rows):
        full[i, : len(r)] = r
    tail = np.cumsum(full[:, ::-1], axis=1)[:, ::-1]
    return full[:, : width + 1].copy(), tail[:, : width + 1].copy()


def _bombardment(setup: BattleSetup) -> tuple[np.ndarray, int, tuple]:
    """(defender's hits from bombardment, A&A Chess fraction, dice joining the round-1 total)."""
    if not setup.bombarders:
        return np.ones(1), 0, ()
    v: Volley = _bombard_volley(setup)
    rules = setup.rules
    if rules.key == "lowluck" and not setup.options.bombard_separately:
        return np.ones(1), 0, v.dice
    if setup.edition.bombard_casualties_fire_back:
        return np.ones(1), 0, v.dice  # they fire with round 1: their casualties fire back
    if rules.per_die or rules.key == "lowluck":
        return volley_pmf(rules, ATTACKER, v.dice, 0), 0, ()
    hits = np.zeros(v.total // 6 + 1)
    hits[v.total // 6] = 1.0
    return hits, v.total % 6, ()
