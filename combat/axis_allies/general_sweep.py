"""The general exact path's later rounds for standard dice, compiled with numba.

``odds._solve_general`` expands every state with ``engine.play_round`` in Python: 3,400 states
and 150,000 successors of an 18 v 16 sea battle of submarines, destroyers, carriers and
aircraft took 0.6-1.3 s. Sea battles cannot take the chain paths: a submarine's hit may not
fall on an aircraft and (1942 2E, G40 2E) an aircraft's may not fall on a submarine without a
friendly destroyer, so a side's states are no longer one loss sequence, and who strikes first
or submerges depends on the enemy's destroyers. This module plays the same round, stage by
stage, on integer-coded side states in compiled code:

1. submerge (``BattleOptions`` policies: never / when the enemy has only aircraft / always,
   never while the enemy has a destroyer; the attacker's choice first, as
   ``engine.stage_submerge``);
2. first strike: every submarine of a side fires first when the enemy has no destroyer
   (the defender's only where the edition says so); its hits never fall on aircraft; a side
   wiped out ends the round;
3. general: everything else fires at once (submarines that struck do not fire again), hits
   in three pools (any unit; not aircraft; not submarines), each side's casualties its
   owner's greedy choice (``SideSetup.apply_hits``, rewritten here line for line);
4. defenceless units left alone are destroyed (``engine.settle``).

Round 1 (AA guns, bombardment, the round-1 volley) is still played by ``play_round`` in
Python; its branches are the sweep's start. The states are then expanded as on the general
path: by total hit points, highest first (every round that changes a state lowers them), the
chance of a round that changes nothing divided out, a state where nobody can ever score kept
as a stalemate. The binomial terms are ``rules._binomial``'s own; only the order in which
probabilities are summed differs from the Python path (results agree within 1e-12,
``tests/combat/test_aa_general_sweep.py``).

Applies to standard dice without carried fractions, and sides whose order of loss is the plain
``SideSetup`` one (a ``KeepOneLandSide`` keeps the Python path).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from combat.axis_allies.engine import State
from combat.axis_allies.rules import ATTACKER, DEFENDER, _binomial
from combat.axis_allies.setup import BattleSetup, SideSetup
from combat.budget import charge

#: Work units charged per successor generated (``odds.estimated_work`` counts the same): one
#: unit is about a microsecond on the Python paths; a successor here costs about 0.1 us.
WORK_PER_SUCCESSOR = 1
#: Successors generated between two returns to Python (where the budget is charged).
CHUNK = 1 << 20
#: Side-state codes are mixed-radix integers; a side whose radix product passes this keeps
#: the Python path.
MAX_CODE = 1 << 62

# Unit-type property columns (``_SideSpec.props``).
P_SUB, P_AIR, P_ANTI_SUB, P_DEFENCELESS, P_VALUE, P_DICE, P_FIGHTS = range(7)
# Per side state, after its S slot counts (``info`` rows).
I_DIVED, I_HP, I_SUBS, I_ANTI_SUB, I_NON_AIR, I_ONLY_DEF, I_CAN_HIT, I_ALIVE = range(8)
# ... and where ``_move`` last listed it: (call number, position in its results).
I_SEEN_IN, I_SEEN_AT = 8, 9
INFO = 10  # columns after the counts
# Volley variants (``engine.volley``'s ``subs``).
WITH, WITHOUT, ONLY = 0, 1, 2
# Hit pools (``engine.ANY``, ``NO_AIR``, ``NO_SUBS``).
ANY, NO_AIR, NO_SUBS = 0, 1, 2
_SUBMERGE = {"never": 0, "when_cannot_hit": 1, "always": 2}


# --- the compiled round -----------------------------------------------------------------------


@njit(cache=True)
def _grow2(a, rows):
    out = np.zeros((max(rows, 2 * a.shape[0]), a.shape[1]), dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _grow1(a, size):
    out = np.zeros(max(size, 2 * a.shape[0]), dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(cache=True)
def _slot(table, key):
    """Open addressing (linear probing) in ``table`` (size a power of two, rows (key, value),
    -1 when empty): the row holding ``key`` or the empty row where it would go. Keys >= 0."""
    mask = table.shape[0] - 1
    # splitmix64's finaliser (products wrap around): every bit of the key reaches the low
    # bits kept by the mask (a plain product would leave them to the key's low bits only).
    h = (key ^ (key >> 31)) * -4658895280553007687
    h = (h ^ (h >> 29)) * -7723592293110705685
    h = (h ^ (h >> 32)) & mask
    while True:
        k = table[h, 0]
        if k == key or k == -1:
            return h
        h = (h + 1) & mask


@njit(cache=True)
def _find(table, key):
    """The value stored for ``key``, or -1."""
    return table[_slot(table, key), 1]


@njit(cache=True)
def _insert(table, count, key, value):
    """Store a new ``key`` (``count`` keys held so far); returns the table, doubled when half
    full."""
    if 2 * (count + 1) > table.shape[0]:
        bigger = np.full((2 * table.shape[0], 2), -1, dtype=np.int64)
        for i in range(table.shape[0]):
            if table[i, 0] >= 0:
                j = _slot(bigger, table[i, 0])
                bigger[j, 0] = table[i, 0]
                bigger[j, 1] = table[i, 1]
        table = bigger
    j = _slot(table, key)
    table[j, 0] = key
    table[j, 1] = value
    return table


@njit(cache=True)
def _fill(row, counts, dived, spec):
    """Write side state (``counts``, ``dived``) and its derived columns into ``row``."""
    slot_type, slot_hp, props = spec[0], spec[1], spec[5]
    S = counts.shape[0]
    hp = 0
    subs = 0
    anti_sub = 0
    non_air = 0
    fighting = 0
    can_hit = 0
    alive = 0
    for i in range(S):
        c = counts[i]
        row[i] = c
        if c == 0:
            continue
        alive = 1
        t = slot_type[i]
        hp += c * slot_hp[i]
        if props[t, P_SUB]:
            subs += c
        if props[t, P_ANTI_SUB]:
            anti_sub = 1
        if not props[t, P_AIR]:
            non_air = 1
        if not props[t, P_DEFENCELESS]:
            fighting = 1
        if props[t, P_FIGHTS]:
            can_hit = 1
    row[S + I_DIVED] = dived
    row[S + I_HP] = hp
    row[S + I_SUBS] = subs
    row[S + I_ANTI_SUB] = anti_sub
    row[S + I_NON_AIR] = non_air
    row[S + I_ONLY_DEF] = 1 if (alive and not fighting) else 0
    row[S + I_CAN_HIT] = can_hit
    row[S + I_ALIVE] = alive
    row[S + I_SEEN_IN] = -1


@njit(cache=True)
def _number(counts, dived, spec, info, n, ids):
    """The id of the side state (``counts``, ``dived``), numbering it if new. Returns (id,
    info, n, ids)."""
    mult = spec[4]
    S = counts.shape[0]
    code = dived * mult[S]
    for i in range(S):
        code += counts[i] * mult[i]
    found = _find(ids, code)
    if found >= 0:
        return found, info, n, ids
    if n == info.shape[0]:
        info = _grow2(info, n + 1)
    _fill(info[n], counts, dived, spec)
    ids = _insert(ids, n, code, n)
    return n, info, n + 1, ids


@njit(cache=True)
def _reserve(table, count):
    """``table`` with room for ``count`` keys (at most half full), rehashed if it had not."""
    size = table.shape[0]
    while 2 * count > size:
        size *= 2
    if size == table.shape[0]:
        return table
    bigger = np.full((size, 2), -1, dtype=np.int64)
    for i in range(table.shape[0]):
        if table[i, 0] >= 0:
            j = _slot(bigger, table[i, 0])
            bigger[j, 0] = table[i, 0]
            bigger[j, 1] = table[i, 1]
    return bigger


@njit(cache=True)
def _apply_hits(counts, general, restricted, no_subs, spec, out):
    """``SideSetup.apply_hits`` (the owner's greedy choice; see its docstring) into ``out``."""
    slot_hp, slot_next, slot_kind = spec[1], spec[2], spec[3]
    S = counts.shape[0]
    for i in range(S):
        out[i] = counts[i]
    total = general + restricted + no_subs
    room_sub = restricted + general
    room_air = no_subs + general
    taken_all = 0
    taken_sub = 0
    taken_air = 0
    for phase in range(2):  # absorb on undamaged multi-hit units, then lose units in order
        for i in range(S):
            if out[i] == 0:
                continue
            if phase == 0 and slot_hp[i] <= 1:
                continue
            if phase == 1 and slot_hp[i] != 1:
                continue
            k = min(out[i], total - taken_all)
            kind = slot_kind[i]
            if kind == 1:
                k = min(k, room_air - taken_air)
                taken_air += max(k, 0)
            elif kind == 2:
                k = min(k, room_sub - taken_sub)
                taken_sub += max(k, 0)
            k = max(k, 0)
            taken_all += k
            out[i] -= k
            if phase == 0:
                out[slot_next[i]] += k


@njit(cache=True)
def _fire(x, variant, spec, info, fire_ids, fire, n_fire, binom, attack, air_needs_destroyer):
    """The row of ``fire`` holding side state x's volley (``engine.volley`` with ``variant``)
    as three hit distributions (pools ANY, NO_AIR, NO_SUBS, each ``W`` wide) and the most
    hits each can score (the row's last three entries), computing it if new. Returns (row,
    fire, n_fire, fire_ids)."""
    key = x * 3 + variant
    found = _find(fire_ids, key)
    if found >= 0:
        return found, fire, n_fire, fire_ids
    slot_type, _slot_hp, _slot_next, _slot_kind, _mult, props, sup_t, sup_b = spec
    S = slot_type.shape[0]
    T = props.shape[0]
    W = (fire.shape[1] - 3) // 3
    alive = np.zeros(T, dtype=np.int64)
    for i in range(S):
        alive[slot_type[i]] += info[x, i]
    boosted = np.zeros(T, dtype=np.int64)
    bonus_of = np.zeros(T, dtype=np.int64)
    if attack:
        for t in range(T):
            left = alive[t]
            if left == 0:
                continue
            for k in range(sup_t.shape[1]):
                target = sup_t[t, k]
                if target < 0 or left == 0:
                    break
                take = min(left, max(alive[target] - boosted[target], 0))
                boosted[target] += take
                left -= take
    for t in range(T):
        if alive[t] == 0:
            continue
        for k in range(sup_t.shape[1]):
            target = sup_t[t, k]
            if target < 0:
                break
            bonus_of[target] = sup_b[t, k]
    air_class = ANY
    if air_needs_destroyer and info[x, S + I_ANTI_SUB] == 0:
        air_class = NO_SUBS
    if n_fire == fire.shape[0]:
        fire = _grow2(fire, n_fire + 1)
    pools = fire[n_fire]
    pools[:] = 0.0
    top = np.zeros(3, dtype=np.int64)  # the most hits each pool can score so far
    for c in range(3):
        pools[c * W] = 1.0
    scratch = np.zeros(W)
    for t in range(T):
        n = alive[t]
        if n == 0:
            continue
        sub = props[t, P_SUB]
        if sub and variant == WITHOUT:
            continue
        if not sub and variant == ONLY:
            continue
        cls = NO_AIR if sub else (air_class if props[t, P_AIR] else ANY)
        value = props[t, P_VALUE]
        per_unit = props[t, P_DICE]
        boost = min(n, boosted[t]) if attack else 0
        for part in range(2):
            needed = value + bonus_of[t] if part == 0 else value
            dice = boost * per_unit if part == 0 else (n - boost) * per_unit
            if dice <= 0 or needed <= 0:
                continue
            needed = min(needed, 6)
            base = cls * W
            old_top = top[cls]
            for h in range(old_top + dice + 1):
                scratch[h] = 0.0
            for i in range(old_top + 1):
                pi = pools[base + i]
                if pi == 0.0:
                    continue
                for k in range(dice + 1):
                    scratch[i + k] += pi * binom[needed, dice, k]
            for h in range(old_top + dice + 1):
                pools[base + h] = scratch[h]
            top[cls] = old_top + dice
    for c in range(3):
        pools[3 * W + c] = top[c]
    fire_ids = _insert(fire_ids, n_fire, key, n_fire)
    return n_fire, fire, n_fire + 1, fire_ids


@njit(cache=True)
def _move(y, pools, spec, info, n, ids, res_id, res_p, counts, out, call):
    """Where side state y goes under fire ``pools`` (``engine.side_results``): distinct ids
    and chances in ``res_id`` / ``res_p``. Hits past y's hit points in a pool are all alike
    (they can place no more), so each pool is capped there. Returns (k, info, n, ids,
    res_id, res_p)."""
    S = counts.shape[0]
    W = (pools.shape[0] - 3) // 3
    slot_hp, slot_next, slot_kind, mult = spec[1], spec[2], spec[3], spec[4]
    hp = info[y, S + I_HP]
    dived = info[y, S + I_DIVED]
    for i in range(S):
        counts[i] = info[y, i]
    # Each pool capped at y's hit points: the last entry holds every larger number of hits.
    tops = np.zeros(3, dtype=np.int64)
    capped = np.zeros((3, hp + 1))
    for c in range(3):
        most = np.int64(pools[3 * W + c])  # the most hits the pool can score
        tops[c] = min(most, hp)
        for h in range(most + 1):
            capped[c, min(h, tops[c])] += pools[c * W + h]
    # Room for every state this move can reach, before the loop: a loop that may replace an
    # array updates its reference count on every pass (half the time went there).
    bound = (tops[0] + 1) * (tops[1] + 1) * (tops[2] + 1)
    if n + bound > info.shape[0]:
        info = _grow2(info, n + bound)
    ids = _reserve(ids, n + bound)
    if bound > res_id.shape[0]:
        res_id = _grow1(res_id, bound)
        res_p = _grow1(res_p, bound)
    k = 0
    for g in range(tops[0] + 1):
        pg = capped[0, g]
        if pg == 0.0:
            continue
        for r in range(tops[1] + 1):
            pr = capped[1, r]
            if pr == 0.0:
                continue
            for a in range(tops[2] + 1):
                pa = capped[2, a]
                if pa == 0.0:
                    continue
                # ``_apply_hits`` and ``_find``, written out: a call in this loop costs an
                # atomic reference-count update per array passed, and those were half the time.
                total = g + r + a
                room_sub = r + g
                room_air = a + g
                taken_all = 0
                taken_sub = 0
                taken_air = 0
                for i in range(S):
                    out[i] = counts[i]
                for phase in range(2):
                    for i in range(S):
                        if out[i] == 0 or (slot_hp[i] > 1) != (phase == 0):
                            continue
                        kk = min(out[i], total - taken_all)
                        if slot_kind[i] == 1:
                            kk = min(kk, room_air - taken_air)
                            taken_air += max(kk, 0)
                        elif slot_kind[i] == 2:
                            kk = min(kk, room_sub - taken_sub)
                            taken_sub += max(kk, 0)
                        kk = max(kk, 0)
                        taken_all += kk
                        out[i] -= kk
                        if phase == 0:
                            out[slot_next[i]] += kk
                code = dived * mult[S]
                for i in range(S):
                    code += out[i] * mult[i]
                mask = ids.shape[0] - 1
                h = (code ^ (code >> 31)) * -4658895280553007687
                h = (h ^ (h >> 29)) * -7723592293110705685
                h = (h ^ (h >> 32)) & mask
                while ids[h, 0] != code and ids[h, 0] != -1:
                    h = (h + 1) & mask
                z = ids[h, 1]
                if z < 0:  # a new state, numbered (room was made above)
                    _fill(info[n], out, dived, spec)
                    ids[h, 0] = code
                    ids[h, 1] = n
                    z = n
                    n += 1
                p = pg * pr * pa
                if info[z, S + I_SEEN_IN] == call:  # listed by this call already
                    res_p[info[z, S + I_SEEN_AT]] += p
                else:
                    res_id[k] = z
                    res_p[k] = p
                    info[z, S + I_SEEN_IN] = call
                    info[z, S + I_SEEN_AT] = k
                    k += 1
    return k, info, n, ids, res_id, res_p


@njit(cache=True)
def _zeroed(x, spec, info, n, ids, subs_only):
    """x with every unit removed (``engine.settle``) or, with ``subs_only``, every submarine
    moved to the submerged count (``engine.stage_submerge``). Returns (id, info, n, ids)."""
    slot_type, props = spec[0], spec[5]
    S = slot_type.shape[0]
    counts = np.zeros(S, dtype=np.int64)
    dived = info[x, S + I_DIVED]
    if subs_only:
        for i in range(S):
            if props[slot_type[i], P_SUB]:
                dived += info[x, i]
            else:
                counts[i] = info[x, i]
    return _number(counts, dived, spec, info, n, ids)


@njit(cache=True)
def _sweep(
    a_spec, d_spec, a_info, a_n, a_ids, d_info, d_n, d_ids,
    a_fire_ids, a_fire, a_nf, d_fire_ids, d_fire, d_nf, binom, flags,
    pairs, pair_ids, mass, link, head, n_pairs, ends, end_ids, end_p, n_ends,
    first_a, first_da, first_d, first_dd, first_p, level_start, max_work,
):  # fmt: skip
    """Place round 1's branches (``first_*``: attacker counts and submerged subs, defender's,
    chance), then expand the live pairs of levels ``level_start`` down to 0 (a level: total
    hit points), stopping after a level once ``max_work`` successors were generated.
    ``flags``: may submerge, attacker's and defender's submerge policy, may each side strike
    first, aircraft need a destroyer to hit submarines, defenceless units present. Returns the
    grown stores, the next level to expand (-1: done) and the successors generated."""
    may_submerge, pol_a, pol_d = flags[0] != 0, flags[1], flags[2]
    strike_a, strike_d = flags[3] != 0, flags[4] != 0
    air_needs_dd, defenceless = flags[5] != 0, flags[6] != 0
    Sa = a_spec[0].shape[0]
    Sd = d_spec[0].shape[0]
    ca = np.zeros(Sa, dtype=np.int64)
    oa = np.zeros(Sa, dtype=np.int64)
    cd = np.zeros(Sd, dtype=np.int64)
    od = np.zeros(Sd, dtype=np.int64)
    rxa = np.zeros(16, dtype=np.int64)
    rpa = np.zeros(16)
    rxd = np.zeros(16, dtype=np.int64)
    rpd = np.zeros(16)
    fx = np.zeros(16, dtype=np.int64)  # first-strike results, kept while the general stage runs
    fpx = np.zeros(16)
    fy = np.zeros(16, dtype=np.int64)
    fpy = np.zeros(16)
    zx = np.zeros(16, dtype=np.int64)  # the results with their defenceless units destroyed
    zy = np.zeros(16, dtype=np.int64)
    n_first = first_p.shape[0]
    sx = np.zeros(max(64, n_first), dtype=np.int64)  # a pair's successors (first: the seeds)
    sy = np.zeros(max(64, n_first), dtype=np.int64)
    sq = np.zeros(max(64, n_first))
    for b in range(n_first):
        sx[b], a_info, a_n, a_ids = _number(first_a[b], first_da[b], a_spec, a_info, a_n, a_ids)
        sy[b], d_info, d_n, d_ids = _number(first_d[b], first_dd[b], d_spec, d_info, d_n, d_ids)
        sq[b] = first_p[b]
    ns = n_first
    scale = 1.0
    x = -1
    y = -1
    work = 0
    moves = 0  # _move calls so far (each marks the states it lists with its number)
    a_info[:a_n, Sa + I_SEEN_IN] = -1  # marks of an earlier call
    d_info[:d_n, Sd + I_SEEN_IN] = -1
    level = level_start + 1  # the seeds are placed before the first level
    while level >= 0:
        # Place the successors in sx, sy, sq (each times ``scale``), but (x, y) itself. Room
        # is made first: no array is replaced inside the loop (see ``_move``).
        if n_pairs + ns > pairs.shape[0]:
            pairs = _grow2(pairs, n_pairs + ns)
            mass = _grow1(mass, n_pairs + ns)
            link = _grow1(link, n_pairs + ns)
        pair_ids = _reserve(pair_ids, n_pairs + ns)
        if n_ends + ns > ends.shape[0]:
            ends = _grow2(ends, n_ends + ns)
            end_p = _grow1(end_p, n_ends + ns)
        end_ids = _reserve(end_ids, n_ends + ns)
        for s in range(ns):
            x2, y2 = sx[s], sy[s]
            if x2 == x and y2 == y:
                continue
            p = scale * sq[s]
            if a_info[x2, Sa + I_ALIVE] and d_info[y2, Sd + I_ALIVE]:
                key = x2 << 32 | y2
                mask = pair_ids.shape[0] - 1  # ``_find`` written out (no alias of the tables:
                h = (key ^ (key >> 31)) * -4658895280553007687  # that too costs a count)
                h = (h ^ (h >> 29)) * -7723592293110705685
                h = (h ^ (h >> 32)) & mask
                while pair_ids[h, 0] != key and pair_ids[h, 0] != -1:
                    h = (h + 1) & mask
                k = pair_ids[h, 1]
                if k < 0:
                    k = n_pairs
                    pair_ids[h, 0] = key
                    pair_ids[h, 1] = k
                    pairs[k, 0], pairs[k, 1] = x2, y2
                    mass[k] = 0.0
                    lv = a_info[x2, Sa + I_HP] + d_info[y2, Sd + I_HP]
                    link[k] = head[lv]
                    head[lv] = k
                    n_pairs += 1
                mass[k] += p
            else:
                key = (x2 << 32 | y2) * 2
                mask = end_ids.shape[0] - 1
                h = (key ^ (key >> 31)) * -4658895280553007687
                h = (h ^ (h >> 29)) * -7723592293110705685
                h = (h ^ (h >> 32)) & mask
                while end_ids[h, 0] != key and end_ids[h, 0] != -1:
                    h = (h + 1) & mask
                k = end_ids[h, 1]
                if k < 0:
                    k = n_ends
                    end_ids[h, 0] = key
                    end_ids[h, 1] = k
                    ends[k, 0], ends[k, 1], ends[k, 2] = x2, y2, 0
                    end_p[k] = 0.0
                    n_ends += 1
                end_p[k] += p
        ns = 0
        # The next live pair: down this level's list, then the next level's.
        while level >= 0 and (level > level_start or head[level] < 0):
            if level <= level_start and work >= max_work:
                return (a_info, a_n, a_ids, d_info, d_n, d_ids, a_fire, a_nf, a_fire_ids,
                            d_fire, d_nf, d_fire_ids, pairs, pair_ids, mass, link, n_pairs,
                            ends, end_ids, end_p, n_ends, level - 1, work)  # fmt: skip
            level -= 1
        if level < 0:
            break
        idx = head[level]
        head[level] = link[idx]  # taken off the list: expanded once
        x, y, m = pairs[idx, 0], pairs[idx, 1], mass[idx]
        # 1. submerge
        x0, y0 = x, y
        if may_submerge and a_info[x0, Sa + I_ALIVE] and d_info[y0, Sd + I_ALIVE]:
            if (
                pol_a != 0
                and a_info[x0, Sa + I_SUBS] > 0
                and d_info[y0, Sd + I_ANTI_SUB] == 0
                and (pol_a == 2 or d_info[y0, Sd + I_NON_AIR] == 0)
            ):
                x0, a_info, a_n, a_ids = _zeroed(x0, a_spec, a_info, a_n, a_ids, True)
            if (
                pol_d != 0
                and d_info[y0, Sd + I_SUBS] > 0
                and a_info[x0, Sa + I_ANTI_SUB] == 0
                and (pol_d == 2 or a_info[x0, Sa + I_NON_AIR] == 0)
            ):
                y0, d_info, d_n, d_ids = _zeroed(y0, d_spec, d_info, d_n, d_ids, True)
        # 2. first strike: (x1, y1) branches with their chances
        fa = False
        fd = False
        nfx = 1
        nfy = 1
        fx[0], fpx[0], fy[0], fpy[0] = x0, 1.0, y0, 1.0
        if a_info[x0, Sa + I_ALIVE] and d_info[y0, Sd + I_ALIVE]:
            fa = strike_a and a_info[x0, Sa + I_SUBS] > 0 and d_info[y0, Sd + I_ANTI_SUB] == 0
            fd = strike_d and d_info[y0, Sd + I_SUBS] > 0 and a_info[x0, Sa + I_ANTI_SUB] == 0
            if fd:
                vd = _find(d_fire_ids, y0 * 3 + ONLY)
                if vd < 0:
                    vd, d_fire, d_nf, d_fire_ids = _fire(
                        y0, ONLY, d_spec, d_info, d_fire_ids, d_fire, d_nf, binom, False,
                        air_needs_dd,
                    )  # fmt: skip
                moves += 1
                nfx, a_info, a_n, a_ids, rxa, rpa = _move(
                    x0, d_fire[vd], a_spec, a_info, a_n, a_ids, rxa, rpa, ca, oa, moves
                )
                if nfx > fx.shape[0]:
                    fx = _grow1(fx, nfx)
                    fpx = _grow1(fpx, nfx)
                fx[:nfx] = rxa[:nfx]
                fpx[:nfx] = rpa[:nfx]
            if fa:
                va = _find(a_fire_ids, x0 * 3 + ONLY)
                if va < 0:
                    va, a_fire, a_nf, a_fire_ids = _fire(
                        x0, ONLY, a_spec, a_info, a_fire_ids, a_fire, a_nf, binom, True,
                        air_needs_dd,
                    )  # fmt: skip
                moves += 1
                nfy, d_info, d_n, d_ids, rxd, rpd = _move(
                    y0, a_fire[va], d_spec, d_info, d_n, d_ids, rxd, rpd, cd, od, moves
                )
                if nfy > fy.shape[0]:
                    fy = _grow1(fy, nfy)
                    fpy = _grow1(fpy, nfy)
                fy[:nfy] = rxd[:nfy]
                fpy[:nfy] = rpd[:nfy]
        # 3. the general stage from each first-strike branch, 4. settle
        for u in range(nfx):
            x1 = fx[u]
            for v in range(nfy):
                y1 = fy[v]
                w = fpx[u] * fpy[v]
                if a_info[x1, Sa + I_ALIVE] and d_info[y1, Sd + I_ALIVE]:
                    vd = _find(d_fire_ids, y1 * 3 + (WITHOUT if fd else WITH))
                    if vd < 0:
                        vd, d_fire, d_nf, d_fire_ids = _fire(
                            y1, WITHOUT if fd else WITH, d_spec, d_info, d_fire_ids, d_fire,
                            d_nf, binom, False, air_needs_dd,
                        )  # fmt: skip
                    moves += 1
                    ka, a_info, a_n, a_ids, rxa, rpa = _move(
                        x1, d_fire[vd], a_spec, a_info, a_n, a_ids, rxa, rpa, ca, oa, moves
                    )
                    va = _find(a_fire_ids, x1 * 3 + (WITHOUT if fa else WITH))
                    if va < 0:
                        va, a_fire, a_nf, a_fire_ids = _fire(
                            x1, WITHOUT if fa else WITH, a_spec, a_info, a_fire_ids, a_fire,
                            a_nf, binom, True, air_needs_dd,
                        )  # fmt: skip
                    moves += 1
                    kd, d_info, d_n, d_ids, rxd, rpd = _move(
                        y1, a_fire[va], d_spec, d_info, d_n, d_ids, rxd, rpd, cd, od, moves
                    )
                else:
                    ka, kd = 1, 1
                    rxa[0], rpa[0], rxd[0], rpd[0] = x1, 1.0, y1, 1.0
                if ns + ka * kd > sx.shape[0]:
                    sx = _grow1(sx, ns + ka * kd)
                    sy = _grow1(sy, ns + ka * kd)
                    sq = _grow1(sq, ns + ka * kd)
                if defenceless:  # each result with its defenceless units destroyed, if only those
                    if ka > zx.shape[0]:
                        zx = _grow1(zx, ka)
                    if kd > zy.shape[0]:
                        zy = _grow1(zy, kd)
                    for i in range(ka):
                        zx[i] = rxa[i]
                        if a_info[rxa[i], Sa + I_ONLY_DEF]:
                            zx[i], a_info, a_n, a_ids = _zeroed(rxa[i], a_spec, a_info, a_n,
                                                                a_ids, False)  # fmt: skip
                    for j in range(kd):
                        zy[j] = rxd[j]
                        if d_info[rxd[j], Sd + I_ONLY_DEF]:
                            zy[j], d_info, d_n, d_ids = _zeroed(rxd[j], d_spec, d_info, d_n,
                                                                d_ids, False)  # fmt: skip
                for i in range(ka):
                    for j in range(kd):
                        x2, y2 = rxa[i], rxd[j]
                        if defenceless:  # engine.settle: the defender's first
                            if d_info[y2, Sd + I_ONLY_DEF] and a_info[x2, Sa + I_CAN_HIT]:
                                y2 = zy[j]
                            if a_info[x2, Sa + I_ONLY_DEF] and d_info[y2, Sd + I_CAN_HIT]:
                                x2 = zx[i]
                        sx[ns], sy[ns], sq[ns] = x2, y2, w * rpa[i] * rpd[j]
                        ns += 1
        work += ns
        stay = 0.0
        for s in range(ns):
            if sx[s] == x and sy[s] == y:
                stay += sq[s]
        if stay >= 1.0 - 1e-12:  # nobody can ever score: a stalemate
            key = (x << 32 | y) * 2 + 1
            e = _find(end_ids, key)
            if e < 0:
                if n_ends == ends.shape[0]:
                    ends = _grow2(ends, n_ends + 1)
                    end_p = _grow1(end_p, n_ends + 1)
                e = n_ends
                end_ids = _insert(end_ids, n_ends, key, e)
                ends[e, 0], ends[e, 1], ends[e, 2] = x, y, 1
                end_p[e] = 0.0
                n_ends += 1
            end_p[e] += m
            ns = 0
            continue
        scale = m / (1.0 - stay)
    return (a_info, a_n, a_ids, d_info, d_n, d_ids, a_fire, a_nf, a_fire_ids, d_fire, d_nf,
            d_fire_ids, pairs, pair_ids, mass, link, n_pairs, ends, end_ids, end_p, n_ends, -1,
            work)  # fmt: skip


# --- the Python side --------------------------------------------------------------------------


class _SideSpec:
    """One side's slots and unit types as integer arrays (``_sweep``'s ``spec`` tuples)."""

    def __init__(self, side: SideSetup) -> None:
        attack = side.role == ATTACKER
        types = {name: t for t, name in enumerate(side.order)}
        self.side = side
        self.slot_type = np.array([types[n] for n, _hp in side.slots], dtype=np.int64)
        self.slot_hp = np.array([hp for _n, hp in side.slots], dtype=np.int64)
        self.slot_next = np.array(
            [side.slot_index[(n, hp - 1)] if hp > 1 else -1 for n, hp in side.slots],
            dtype=np.int64,
        )
        self.slot_kind = np.array(
            [{"air": 1, "sub": 2, "other": 0}[side._kind(n)] for n, _hp in side.slots],
            dtype=np.int64,
        )
        totals = {n: sum(c for (m, _hp), c in zip(side.slots, side.initial, strict=True) if m == n)
                  for n in side.order}  # fmt: skip
        self.subs = sum(c for n, c in totals.items() if side.units[n].submarine)
        radix = [totals[n] + 1 for n, _hp in side.slots] + [self.subs + 1]
        mult, product = [], 1
        for r in radix:
            mult.append(product)
            product *= r
        self.fits = product < MAX_CODE
        self.mult = np.array(mult if self.fits else [0] * len(radix), dtype=np.int64)
        props = []
        supported = []
        for name in side.order:
            u = side.units[name]
            value = u.attack if attack else u.defense
            props.append(
                (
                    u.submarine,
                    u.is_air,
                    u.anti_sub,
                    u.defenceless,
                    value,
                    u.attack_dice if attack else u.defense_dice,
                    not u.defenceless and value > 0,
                )
            )
            # Targets not on this side can never be raised: left out (engine.volley finds
            # none of them free).
            supported.append([(types[t], b) for t, b in u.supports.items() if t in types])
        self.props = np.array(props, dtype=np.int64).reshape(len(side.order), 7)
        width = max(1, max((len(s) for s in supported), default=0))
        self.sup_t = np.full((len(side.order), width), -1, dtype=np.int64)
        self.sup_b = np.zeros((len(side.order), width), dtype=np.int64)
        for t, entries in enumerate(supported):
            for k, (target, bonus) in enumerate(entries):
                self.sup_t[t, k] = target
                self.sup_b[t, k] = bonus
        #: most hits one pool of a volley can score (every die of the side)
        self.dice = sum(totals[n] * int(self.props[t, P_DICE]) for n, t in types.items())

    def spec(self) -> tuple:
        return (self.slot_type, self.slot_hp, self.slot_next, self.slot_kind, self.mult,
                self.props, self.sup_t, self.sup_b)  # fmt: skip


def applicable(setup: BattleSetup) -> bool:
    """Standard dice, nothing carried, plain orders of loss, and side codes that fit."""
    rules = setup.rules
    if not rules.per_die or rules.carry or rules.final_roll or setup.rounds is not None:
        return False
    if type(setup.attacker) is not SideSetup or type(setup.defender) is not SideSetup:
        return False
    return _SideSpec(setup.attacker).fits and _SideSpec(setup.defender).fits


def _binomials(width: int) -> np.ndarray:
    """binom[needed, dice, hits]: ``rules._binomial``'s terms, for needed 0-6."""
    out = np.zeros((7, width, width))
    for needed in range(7):
        for count in range(width):
            for p, k in _binomial(count, needed, 6):
                out[needed, count, k] = p
    return out


def _table() -> np.ndarray:
    return np.full((64, 2), -1, dtype=np.int64)


def solve(setup: BattleSetup, first: list[tuple[float, State]]) -> list[tuple[float, State, bool]]:
    """The battle's ends from round 1's branches ``first`` (``applicable`` setups only), as
    ``odds._solve_general`` returns them: (probability, state, stalemate)."""
    att, dfn = _SideSpec(setup.attacker), _SideSpec(setup.defender)
    width = max(att.dice, dfn.dice) + 1
    flags = np.array(
        [
            setup.may_submerge,
            _SUBMERGE[setup.options.submerge_policy(ATTACKER)],
            _SUBMERGE[setup.options.submerge_policy(DEFENDER)],
            att.subs > 0,
            dfn.subs > 0 and setup.edition.sub_first_strike != "attacker",
            setup.edition.air_vs_subs_needs_destroyer,
            setup.has_defenceless,
        ],
        dtype=np.int64,
    )
    Sa, Sd = len(att.slot_type), len(dfn.slot_type)
    levels = setup.attacker.hit_points(setup.attacker.initial) + setup.defender.hit_points(
        setup.defender.initial
    )
    stores = (
        np.zeros((256, Sa + INFO), dtype=np.int64), 0, _table(),  # attacker states
        np.zeros((256, Sd + INFO), dtype=np.int64), 0, _table(),  # defender states
        np.zeros((64, 3 * width + 3)), 0, _table(),  # attacker volleys
        np.zeros((64, 3 * width + 3)), 0, _table(),  # defender volleys
        np.zeros((256, 2), dtype=np.int64), _table(), np.zeros(256),  # live pairs, mass
        np.full(256, -1, dtype=np.int64), 0,  # each level's list
        np.zeros((64, 3), dtype=np.int64), _table(), np.zeros(64), 0,  # ends
    )  # fmt: skip
    head = np.full(levels + 1, -1, dtype=np.int64)
    seeds: tuple[np.ndarray, ...] = (
        np.array([s.att for _p, s in first], dtype=np.int64).reshape(len(first), Sa),
        np.array([s.dived_att for _p, s in first], dtype=np.int64),
        np.array([s.dfn for _p, s in first], dtype=np.int64).reshape(len(first), Sd),
        np.array([s.dived_def for _p, s in first], dtype=np.int64),
        np.array([p for p, _s in first], dtype=np.float64),
    )
    level = levels
    binom = _binomials(width)
    while level >= 0:
        (
            a_info,
            a_n,
            a_ids,
            d_info,
            d_n,
            d_ids,
            a_fire,
            a_nf,
            a_fire_ids,
            d_fire,
            d_nf,
            d_fire_ids,
            pairs,
            pair_ids,
            mass,
            link,
            n_pairs,
            ends,
            end_ids,
            end_p,
            n_ends,
        ) = stores
        *grown, level, work = _sweep(
            att.spec(), dfn.spec(), a_info, a_n, a_ids, d_info, d_n, d_ids,
            a_fire_ids, a_fire, a_nf, d_fire_ids, d_fire, d_nf, binom, flags,
            pairs, pair_ids, mass, link, head, n_pairs, ends, end_ids, end_p, n_ends,
            seeds[0], seeds[1], seeds[2], seeds[3], seeds[4], level, CHUNK,
        )  # fmt: skip
        stores = tuple(grown)  # unpacked at the loop's top: the arrays _sweep grew
        seeds = tuple(a[:0] for a in seeds)  # placed once
        charge(work * WORK_PER_SUCCESSOR)
    a_info, a_n, d_info, d_n = stores[0], stores[1], stores[3], stores[4]
    ends, end_p, n_ends = stores[17], stores[19], stores[20]
    a_states = [tuple(row) for row in a_info[:a_n, :Sa].tolist()]
    d_states = [tuple(row) for row in d_info[:d_n, :Sd].tolist()]
    a_dived = a_info[:a_n, Sa + I_DIVED].tolist()
    d_dived = d_info[:d_n, Sd + I_DIVED].tolist()
    return [
        (
            p,
            State(a_states[x], d_states[y], False, dived_att=a_dived[x], dived_def=d_dived[y]),
            bool(stuck),
        )
        for (x, y, stuck), p in zip(ends[:n_ends].tolist(), end_p[:n_ends].tolist(), strict=True)
    ]


def warm_up() -> None:
    """Compile (or load from numba's cache) the sweep on a small submarine battle."""
    from combat.axis_allies.engine import initial_state, play_round
    from combat.axis_allies.rules import EXACT
    from combat.axis_allies.setup import build_setup

    setup = build_setup(
        {"submarine": 1, "destroyer": 1, "fighter": 1},
        {"submarine": 1, "carrier": 1, "fighter": 1, "transport": 1},
        rules="dice",
        edition="1942-2e",
        rounds=None,
        attacker_order=None,
        defender_order=None,
        amphibious=False,
        techs=(),
        options=None,
    )
    solve(setup, play_round(setup, initial_state(setup), EXACT))
