"""``GridChain``'s passes compiled with numba: one loop over cells, no numpy call per cell.

Shared layout. Side states are numbered per side; ``after[x, h]`` is the id side state x is
hit down to by h hits (h up to its hit points ``hp[x]``); ``fire[x, h]`` the chance x deals h
hits in a round after the first and ``tail[x, h]`` the chance of h or more (hits past the
enemy's hit points all mean "all lost"). Cells (attacker id, defender id) are listed by total
hit points, ascending; every round that changes a cell lowers it. The self-loop (no hit on
either side) is divided out.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def values_pass(
    cells_i, cells_j, a_after, a_hp, a_fire, a_tail, d_after, d_hp, d_fire, d_tail,
    value, stale, stop, has_stop, stuck_at, tie,
):  # fmt: skip
    """Fill ``value`` (attacker ids x defender ids; ended cells already hold their value) for
    every listed cell, successors first: the expectation of the next round's values, or
    ``stale[c]`` when nobody can score, or ``stop[c]`` when stopping is at least as good (with
    ``has_stop``). Returns which cells stop."""
    stops = np.zeros(len(cells_i), dtype=np.bool_)
    for c in range(len(cells_i)):
        i, j = cells_i[c], cells_j[c]
        room_a, room_d = a_hp[i], d_hp[j]
        stay = d_fire[j, 0] * a_fire[i, 0]
        if stay >= stuck_at:
            value[i, j] = stale[c]
            continue
        total = 0.0
        for h in range(room_a + 1):
            x = d_fire[j, h] if h < room_a else d_tail[j, room_a]
            if x == 0.0:
                continue
            row = value[a_after[i, h]]
            inner = 0.0
            for k in range(1 if h == 0 else 0, room_d + 1):
                y = a_fire[i, k] if k < room_d else a_tail[i, room_d]
                inner += y * row[d_after[j, k]]
            total += x * inner
        going = total / (1.0 - stay)
        if has_stop and stop[c] >= going - tie:
            value[i, j] = stop[c]
            stops[c] = True
        else:
            value[i, j] = going
    return stops


@njit(cache=True)
def distribute_pass(
    cells_i, cells_j, a_after, a_hp, a_fire, a_tail, d_after, d_hp, d_fire, d_tail,
    mass, retreat, stuck_at,
):  # fmt: skip
    """Push ``mass`` (attacker ids x defender ids, the chances after round 1) through the
    listed cells, most hit points first. A cell where nobody can score keeps its mass as a
    stalemate (kind 1), a cell with ``retreat[c]`` as a retreat (kind 2); both are returned per
    cell, and what reaches an ended cell stays in ``mass``."""
    n = len(cells_i)
    kept = np.zeros(n)
    kind = np.zeros(n, dtype=np.int8)
    for c in range(n - 1, -1, -1):
        i, j = cells_i[c], cells_j[c]
        p = mass[i, j]
        if p == 0.0:
            continue
        mass[i, j] = 0.0
        room_a, room_d = a_hp[i], d_hp[j]
        stay = d_fire[j, 0] * a_fire[i, 0]
        if stay >= stuck_at:
            kept[c], kind[c] = p, 1
            continue
        if retreat[c]:
            kept[c], kind[c] = p, 2
            continue
        w = p / (1.0 - stay)
        for h in range(room_a + 1):
            x = d_fire[j, h] if h < room_a else d_tail[j, room_a]
            if x == 0.0:
                continue
            wx = w * x
            row = mass[a_after[i, h]]
            for k in range(1 if h == 0 else 0, room_d + 1):
                y = a_fire[i, k] if k < room_d else a_tail[i, room_d]
                row[d_after[j, k]] += wx * y
    return kept, kind


@njit(cache=True)
def round_pass(
    cells_i, cells_j, a_after, a_hp, a_fire, a_tail, d_after, d_hp, d_fire, d_tail,
    mass, retreat, stuck_at, last,
):  # fmt: skip
    """One round from ``mass`` (attacker ids x defender ids, live cells only), the self-loop
    kept: returns the next mass (ended cells included) and, per cell, the mass kept as a
    stalemate (kind 1) or a retreat (kind 2: ``retreat[c]``, or every live cell when
    ``last``)."""
    n = len(cells_i)
    nxt = np.zeros(mass.shape)
    kept = np.zeros(n)
    kind = np.zeros(n, dtype=np.int8)
    for c in range(n):
        i, j = cells_i[c], cells_j[c]
        p = mass[i, j]
        if p == 0.0:
            continue
        room_a, room_d = a_hp[i], d_hp[j]
        if d_fire[j, 0] * a_fire[i, 0] >= stuck_at:
            kept[c], kind[c] = p, 1
            continue
        if last or retreat[c]:
            kept[c], kind[c] = p, 2
            continue
        for h in range(room_a + 1):
            x = d_fire[j, h] if h < room_a else d_tail[j, room_a]
            if x == 0.0:
                continue
            wx = p * x
            row = nxt[a_after[i, h]]
            for k in range(room_d + 1):
                y = a_fire[i, k] if k < room_d else a_tail[i, room_d]
                row[d_after[j, k]] += wx * y
    return nxt, kept, kind


def warm_up() -> None:
    """Compile (or load from numba's on-disk cache) both passes on a 1 v 1 grid."""
    cells = np.zeros(1, dtype=np.int64)
    cells_i, cells_j = cells + 1, cells + 1
    after = np.array([[0, 0], [1, 0]], dtype=np.int64)
    hp = np.array([0, 1], dtype=np.int64)
    fire = np.array([[1.0, 0.0], [0.5, 0.5]])
    tail = np.array([[1.0, 0.0], [1.0, 0.5]])
    value = np.zeros((2, 2))
    flags = np.zeros(1, dtype=np.bool_)
    values_pass(cells_i, cells_j, after, hp, fire, tail, after, hp, fire, tail, value,
                np.zeros(1), np.zeros(1), False, 1.0 - 1e-12, 1e-9)  # fmt: skip
    distribute_pass(cells_i, cells_j, after, hp, fire, tail, after, hp, fire, tail, value,
                    flags, 1.0 - 1e-12)  # fmt: skip
    round_pass(cells_i, cells_j, after, hp, fire, tail, after, hp, fire, tail, value,
               flags, 1.0 - 1e-12, False)  # fmt: skip
