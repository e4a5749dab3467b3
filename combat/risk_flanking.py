"""The flanking-attack state walk of ``combat.risk_dice``, compiled with numba.

Why compiled: a flanking battle's states are (armies in each flank, defenders, whose turn,
captures so far, a flank sunk). [20, 20, 20] v 40 reaches about 400,000 of them and 1.8 million
roll successors. Walked as numpy layers (numbered states merged with ``np.unique``) that took
150-210 ms, where the goal is 13 ms: numpy spends about 87 ns a successor, most of it
sorting to merge duplicates. A hash table in compiled code was no better (random access into a
100 MB table). This walk keeps the states in dense arrays, so that a state's successors (which
differ only in the rolling flank and the defenders) lie close together in memory.

The dynamic programme is the one of ``risk_dice.step``: states in decreasing order of armies
left (every roll destroys at least one army), each expanded once with all the probability that
reaches it. Captures only ever grow, so the states are split into layers by captures: layer c is
walked completely, level by level, before layer c + 1, and only two layers are held at a time.
Within a layer a state is a *cell* of a dense array over (flanks..., defenders, turn, flank
sunk). The cells reached at each level are listed contiguously (``listed``, from the level's
``offset``), each with its state packed into bit fields (``codes``), so a level is read in
order without chasing pointers and a state is decoded with shifts, not divisions. (A linked
list through the cells made every step a dependent cache miss: 290 ns a state.)

Ends (no defenders, or no flank standing) are written to the ``out_*`` arrays, one row per end
cell and layer, plus one row per sink roll that sends the defending ship down.

The walk is resumable: ``walk`` returns ``PAUSED`` after ``work_limit`` successors (the budget's
unit, charged by the caller between calls) and ``NEEDS_ROOM`` when the next level could overflow
the output arrays; the caller charges, or enlarges them, and calls again.

Only numpy and numba: no Django, no I/O. Compiled on first use and cached on disk
(``cache=True``); ``warm_up`` compiles ahead of the first request.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

DONE, NEEDS_ROOM, PAUSED = 0, 1, 2  # what ``walk`` returns as its status


@njit(cache=True)
def add(mass, listed, codes, offset, fill, layer, cell, code, p, level):
    """Add probability ``p`` to ``cell`` of one layer; a cell reached for the first time in the
    layer is listed at its level. A cell holds mass > 0 exactly while it is listed."""
    if p <= 0.0:
        return
    if mass[layer, cell] == 0.0:
        at = offset[level] + fill[layer, level]
        listed[layer, at] = cell
        codes[layer, at] = code
        fill[layer, level] += 1
    mass[layer, cell] += p


@njit(cache=True)
def walk(
    mass,
    listed,
    codes,
    offset,
    fill,
    state,
    blocks,
    floor,
    cell_strides,
    shifts,
    table,
    naval,
    p_sink,
    work_limit,
    split_captures,
    expected_captures,
    out_code,
    out_cap,
    out_dsunk,
    out_p,
):
    """Expand states, highest level first, layer by layer of captures.

    ``mass``, ``listed`` and ``codes`` are (2, cells): the layer of ``captures`` is row
    ``captures % 2``, the next one the other row. Level L's cells are listed from ``offset[L]``
    (``offset`` counts the cells of each level), ``fill[layer, L]`` of them. ``state`` holds
    [captures, level, rows written to out_*, room needed] and is updated in place, so a paused
    walk resumes. ``cell_strides``: cell index strides of [flank 0.. flank k-1, defenders, turn,
    flank sunk]; ``shifts``: the bit positions of the same fields in a packed state (a field's
    width is ``shifts[i + 1] - shifts[i]``).

    ``floor``: the fewest dice the defender rolls while it has the armies (1: one fewer than the
    flank's commitment, the rule text; 2: the option ``defender_dice="normal"``).

    ``split_captures`` False: every state stays in layer 0 and ``expected_captures[0]`` sums
    the chance of each capture instead, which is all the odds need; the end states' split by
    captures (``RiskOdds.outcomes``) needs True.

    Returns (status, successors generated)."""
    k = len(blocks)
    s_d, s_t, s_a = cell_strides[k], cell_strides[k + 1], cell_strides[k + 2]
    b_d, b_t, b_a = shifts[k], shifts[k + 1], shifts[k + 2]
    m_d = (1 << (shifts[k + 1] - shifts[k])) - 1
    m_t = (1 << (shifts[k + 2] - shifts[k + 1])) - 1
    masks = np.zeros(k, dtype=np.int64)
    for i in range(k):
        masks[i] = (1 << (shifts[i + 1] - shifts[i])) - 1
    flanks = np.zeros(k, dtype=np.int64)
    cells = mass.shape[1]
    flat_mass = mass.reshape(-1)  # flat indices: one bounds adjustment a successor, not four
    flat_table = table.reshape(-1)
    dice = table.shape[1]
    captures, level, n_out = state[0], state[1], state[2]
    top = len(offset) - 2
    work = 0
    while True:
        cur = captures % 2
        nxt_layer = 1 - cur
        while level > 0:
            # Room for this level's rows: each state is an end, or may sink the defender once.
            size = fill[cur, level]
            if n_out + 2 * size > len(out_p):
                state[0], state[1], state[2], state[3] = captures, level, n_out, 2 * size
                return NEEDS_ROOM, work
            if work >= work_limit:
                state[0], state[1], state[2] = captures, level, n_out
                return PAUSED, work
            fill[cur, level] = 0
            first = offset[level]
            for at in range(first, first + size):
                cell = listed[cur, at]
                code = codes[cur, at]
                p = mass[cur, cell]
                mass[cur, cell] = 0.0
                alive = 0
                for i in range(k):
                    flanks[i] = (code >> shifts[i]) & masks[i]
                    if flanks[i] > 0:
                        alive += 1
                d = (code >> b_d) & m_d
                if d == 0 or alive == 0:  # an end
                    out_code[n_out] = code
                    out_cap[n_out] = captures
                    out_dsunk[n_out] = False
                    out_p[n_out] = p
                    n_out += 1
                    continue
                turn = (code >> b_t) & m_t
                asunk = (code >> b_a) & 1
                n = flanks[turn]
                m = min(max(floor, blocks[turn] - 1), d)
                bonus = 1 if alive >= 2 else 0
                c = min(n, m)
                work += c + 1
                # The next flank with armies standing after the rolling one, which comes last.
                nt = turn
                for offset_ in range(1, k):
                    j = turn + offset_
                    if j >= k:
                        j -= k
                    if flanks[j] > 0:
                        nt = j
                        break
                sf_cell = cell_strides[turn]
                sf_bit = shifts[turn]
                after = level - c
                row = ((bonus * dice + n) * dice + m) * dice  # table[bonus, n, m, 0], flat
                # The successor that wins ``won`` comparisons: the rolling flank loses c - won
                # armies, the defenders won; each comparison won moves it by one step.
                to_cell = cell + (nt - turn) * s_t - c * sf_cell
                to_code = code + ((nt - turn) << b_t) - (c << sf_bit)
                step_cell = sf_cell - s_d
                step_code = (1 << sf_bit) - (1 << b_d)
                # Ends keep turn 0, so ends that differ only in whose turn it would be share a
                # cell (and the summary needs no merging).
                for won in range(c + 1):
                    q = flat_table[row + won] * p
                    cell_w, code_w = to_cell, to_code
                    to_cell += step_cell
                    to_code += step_code
                    if q == 0.0:
                        continue
                    layer = cur
                    if won == 0 or won == c:  # the rarer cases: a rout, a capture or an end
                        lost = c - won
                        if won == d or (lost == n and nt == turn):
                            cell_w -= nt * s_t
                            code_w -= nt << b_t
                        if bonus == 1 and won == c:
                            if split_captures:
                                layer = nxt_layer
                            else:  # only their expectation: one pass, a third of the states
                                expected_captures[0] += q
                        if naval:
                            standing = n - lost
                            if won == c and d - won > 0:  # the defending ship lost them all
                                out_code[n_out] = code_w - ((d - won) << b_d)
                                out_cap[n_out] = captures + (1 if layer != cur else 0)
                                out_dsunk[n_out] = True
                                out_p[n_out] = q * p_sink
                                n_out += 1
                                q *= 1.0 - p_sink
                            elif won == 0 and standing > 0:  # the rolling ship lost them all
                                sunk_cell = cell_w - standing * sf_cell + (1 - asunk) * s_a
                                sunk_code = code_w - (standing << sf_bit) + ((1 - asunk) << b_a)
                                if nt == turn:  # no flank left: an end
                                    sunk_cell -= nt * s_t
                                    sunk_code -= nt << b_t
                                sunk_level = after - standing
                                sunk_p = q * p_sink
                                at_ = layer * cells + sunk_cell
                                if sunk_p > 0.0:
                                    if flat_mass[at_] == 0.0:
                                        slot = offset[sunk_level] + fill[layer, sunk_level]
                                        listed[layer, slot] = sunk_cell
                                        codes[layer, slot] = sunk_code
                                        fill[layer, sunk_level] += 1
                                    flat_mass[at_] += sunk_p
                                q *= 1.0 - p_sink
                    # ``add``, written out: numba's call (even inlined) cost 50 ns a successor.
                    at_ = layer * cells + cell_w
                    if flat_mass[at_] == 0.0:
                        slot = offset[after] + fill[layer, after]
                        listed[layer, slot] = cell_w
                        codes[layer, slot] = code_w
                        fill[layer, after] += 1
                    flat_mass[at_] += q
            level -= 1
        if fill[nxt_layer].max() == 0:  # no state with more captures: the walk is over
            state[0], state[1], state[2] = captures, 0, n_out
            return DONE, work
        captures += 1
        level = top


def layout(blocks: list[int], defenders: int, naval: bool) -> tuple[int, np.ndarray, np.ndarray]:
    """(cells in a layer, cell strides, bit shifts) for ``walk``; cells = 0 when a packed state
    would not fit in 62 bits.

    A cell is (((flank digits) * (defenders + 1) + d) * flanks + turn) * sunk + flank sunk,
    with ``sunk`` 2 at sea and 1 on land and the flank digits in mixed radix (block + 1). (A
    level-major layout, which keeps a roll's successors closer together, measured no faster and
    held 2.5 times the memory.)"""
    k = len(blocks)
    sunk = 2 if naval else 1
    unit = sunk * k * (defenders + 1)
    flank_strides = []
    for block in reversed(blocks):
        flank_strides.append(unit)
        unit *= block + 1
    cell_strides = np.array([*reversed(flank_strides), sunk * k, sunk, 1], dtype=np.int64)
    widths = [
        *(b.bit_length() for b in blocks),
        defenders.bit_length(),
        max(1, (k - 1).bit_length()),
        1,
    ]
    shifts = np.concatenate([[0], np.cumsum(widths)]).astype(np.int64)
    if shifts[-1] > 62:
        return 0, cell_strides, shifts
    return unit, cell_strides, shifts


MAX_CELLS = 1 << 22  # cells a layer may have: 40 bytes each for the walk's arrays, 168 MB
KEPT = 2  # finished walks' arrays kept for reuse (fresh pages cost up to 100 ms to fault in)
KEEP_CELLS = 1 << 21  # the largest kept
_kept: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
_kept_lock = threading.Lock()


def new_layers(
    blocks: list[int], defenders: int, naval: bool, cells: int
) -> tuple[np.ndarray, ...]:
    """Two empty layers: (mass, listed, codes, offset, fill). ``offset[L]`` is where level L's
    states are listed: the number of states below level L (flank sizes and defenders summing to
    less than L, times the turns and sunk flags).

    The big arrays come from a finished walk when one big enough was kept (``give_back``): a
    walk that finishes leaves every mass zero again. A walk that does not finish (its budget
    ran out) never gives its arrays back."""
    per_level = np.ones(1, dtype=np.int64)
    for size in [*blocks, defenders]:
        per_level = np.convolve(per_level, np.ones(size + 1, dtype=np.int64))
    per_level *= len(blocks) * (2 if naval else 1)
    offset = np.concatenate([[0], np.cumsum(per_level)]).astype(np.int64)
    fill = np.zeros((2, len(per_level)), dtype=np.int64)
    with _kept_lock:
        for index, arrays in enumerate(_kept):
            if arrays[0].shape[1] >= cells:
                mass, listed, codes = _kept.pop(index)
                return mass, listed, codes, offset, fill
    return (
        np.zeros((2, cells)),
        np.zeros((2, cells), dtype=np.int32),
        np.zeros((2, cells), dtype=np.int64),
        offset,
        fill,
    )


def give_back(mass: np.ndarray, listed: np.ndarray, codes: np.ndarray) -> None:
    """Keep a finished walk's arrays (all mass zero) for the next one, at most ``KEPT``."""
    with _kept_lock:
        if len(_kept) < KEPT and mass.shape[1] <= KEEP_CELLS:
            _kept.append((mass, listed, codes))


def pack(values: list[int], shifts: np.ndarray) -> int:
    """A state's fields [flanks..., defenders, turn, flank sunk] packed into one int."""
    return sum(v << int(b) for v, b in zip(values, shifts, strict=False))


def warm_up() -> None:
    """Compile (or load from the on-disk cache) ``walk``, on a tiny battle: [2, 2] v 1 at sea,
    with arrays of the types ``risk_dice`` passes (its one-roll table is read-only)."""
    blocks = [2, 2]
    cells, strides, shifts = layout(blocks, 1, True)
    mass, listed, codes, offset, fill = new_layers(blocks, 1, True, cells)
    first = [2, 2, 1, 0, 0]
    cell = int(np.dot(first, strides))
    add(mass, listed, codes, offset, fill, 0, cell, pack(first, shifts), 1.0, 5)
    table = np.zeros((2, 3, 3, 3))
    table[:, 1:, 1:, :2] = 0.5
    table.setflags(write=False)
    state = np.array([0, 5, 0, 0], dtype=np.int64)
    out = (np.zeros(64, np.int64), np.zeros(64, np.int64), np.zeros(64, np.bool_), np.zeros(64))
    walk(mass, listed, codes, offset, fill, state, np.array(blocks, dtype=np.int64), 1, strides,
         shifts, table, True, 0.5, 1 << 20, True, np.zeros(1), *out)  # fmt: skip
