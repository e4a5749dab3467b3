"""``GridChain``: the same passes as ``Chain``, in numpy, when each side's fire after round 1
depends only on its own units (no submarines, nothing carried: ``odds._separable``).

Then a round from (attacker state i, defender state j) is the product of two independent
moves: the defender's fire (its hit distribution, from ``engine.general_hits``) moves the
attacker along its states, and the attacker's fire moves the defender. Every hit on a side
with units left takes exactly one hit point off it (a two-hit unit absorbs it, or a one-hit
unit is lost), so h hits from state x lead to the state ``after[x][h]`` whose hit points are
x's minus h, distinct for each h up to x's hit points (more hits than that are folded into
"all lost"). A state's successors are then a block of a dense (attacker x defender) array:
``V[after_a[i]][:, after_d[j]]`` weighted by the two hit distributions, one matrix product per
state instead of a Python loop over every pair of successors (a 40 v 40 battle has ~3,000
states with ~2,000 successors each). Pairs are visited by total hit points, which every round
that changes the state lowers: ascending for values (successors first), descending for masses.
The self-loop (h = 0 on both sides) is divided out, as in ``Chain``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from combat.axis_allies import chains
from combat.axis_allies.engine import Branches, State, initial_state, play_round, settle, stage_aa
from combat.axis_allies.questions import grid_sweep
from combat.axis_allies.questions.chain import RESULTS, STUCK, TIE, Chain, side_value
from combat.axis_allies.rules import ATTACKER, DEFENDER, EXACT
from combat.axis_allies.setup import BattleSetup, SideSetup
from combat.budget import charge


def separable(setup: BattleSetup) -> bool:
    """After round 1, does each side's fire depend only on its own units, and does each hit
    take exactly one hit point off the side it lands on?

    Not with carried fractions (COF), nor with submarines: their surprise strike depends on the
    enemy's destroyers, their hits cannot land on aircraft, aircraft hits cannot land on them
    without a destroyer (``air_vs_subs_needs_destroyer``: a hit may then land nowhere), and
    they may submerge (leaving the battle without a hit). Nor when a side can be left with only
    defenceless units (transports; AAA, casualties at defence 0) along its order of loss:
    ``engine.settle`` then destroys them, a move that depends on both sides at once (AAA lost
    first, the default order, never are: the grid applies). The general ``Chain`` runs the
    others through ``play_round`` itself.
    """
    subs = any(
        side.units[name].submarine
        for side in (setup.attacker, setup.defender)
        for name in side.order
    )
    return (
        not setup.rules.carry
        and not setup.rules.final_roll
        and not subs
        and not setup.may_submerge
        and not _defenceless_alone(setup)
    )


def _defenceless_alone(setup: BattleSetup) -> bool:
    """Can a side be left with only defenceless units? Without submarines every hit follows
    the order of loss, so each side's states lie on its loss sequence from the opening force
    (an AA gun only removes attacking planes, and attackers have no defenceless land units)."""
    if not setup.has_defenceless:
        return False
    att, dfn = setup.attacker, setup.defender
    return chains._defenceless_left_alone(
        setup, [chains.chain(att, att.initial)], chains.chain(dfn, dfn.initial)
    )


_NO_FIRE = np.ones(1)
_NO_FIRE.setflags(write=False)


def _aa_branches(setup: BattleSetup, start: State) -> Branches | None:
    """Round 1's branches after the AA gun (``engine.stage_aa``), when the rest of round 1
    is a later round (a fresh start, no bombardment, nothing carried); else None."""
    state = settle(setup, start)
    fresh = not (state.carry_att or state.carry_def or state.bonus_att or state.bonus_def)
    if not state.first_round or setup.bombarders or not fresh:
        return None
    return stage_aa(setup, state, EXACT, None)


def _capped(pmf: np.ndarray, cap: int) -> np.ndarray:
    """``pmf`` over 0..cap hits, every outcome of ``cap`` or more at ``cap``."""
    out = np.zeros(cap + 1)
    out[: min(len(pmf), cap + 1)] = pmf[: cap + 1]
    out[cap] = pmf[cap:].sum() if len(pmf) > cap else out[cap]
    return out


def make_chain(setup: BattleSetup, start: State | None = None) -> Chain | GridChain:
    """The fastest chain that applies to ``setup``."""
    return GridChain(setup, start) if separable(setup) else Chain(setup, start)


class _Side:
    """One side's states (numbered), their hit points, fire and where hits send them."""

    def __init__(self, setup: BattleSetup, side: SideSetup, role: str) -> None:
        self.setup = setup
        self.side = side
        self.role = role
        self.ids: dict[tuple[int, ...], int] = {}
        self.states: list[tuple[int, ...]] = []
        self.hp: list[int] = []
        self.after: list[np.ndarray] = []
        self._fire: dict[int, np.ndarray] = {}
        self._table = chains._FireTable(setup, role)

    def number(self, state: tuple[int, ...]) -> int:
        """The id of ``state``, numbering it and every state it can be hit down to."""
        found = self.ids.get(state)
        if found is not None:
            return found
        chain = [state]
        while any(chain[-1]):
            chain.append(self.side.apply_hits(chain[-1], 1, 0))
        for x in reversed(chain):
            if x not in self.ids:
                self.ids[x] = len(self.states)
                self.states.append(x)
                self.hp.append(self.side.hit_points(x))
                self.after.append(np.empty(0, dtype=np.int64))
        # Every hit takes exactly one hit point, so x = chain[k] has len(chain) - 1 - k of them.
        # With the plain order of loss, h hits at once land where h single hits do (undamaged
        # multi-hit units absorb first, in slot order, then units go in slot order: the same
        # greedy either way; ``test_aa_questions`` checks it): the row is the chain's rest.
        # A subclass (``KeepOneLandSide``) may choose otherwise: asked hit by hit.
        plain = type(self.side) is SideSetup
        ids = [self.ids[x] for x in chain]
        for k, x in enumerate(chain):
            i = ids[k]
            if not len(self.after[i]):
                if plain:
                    row = ids[k:]
                else:
                    row = [self.ids[self.side.apply_hits(x, h, 0)] for h in range(self.hp[i] + 1)]
                self.after[i] = np.array(row, dtype=np.int64)
        return self.ids[state]

    def tables(self, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(after, hp, fire, tail) as padded arrays for ``grid_sweep`` (its docstring)."""
        n = len(self.states)
        after = np.zeros((n, width), dtype=np.int64)
        fire = np.zeros((n, width + 1))
        for x in range(n):
            after[x, : len(self.after[x])] = self.after[x]
            pmf = self.fire(x)
            fire[x, : min(len(pmf), width)] = pmf[:width]
            fire[x, width] = pmf[width:].sum()
        tail = np.cumsum(fire[:, ::-1], axis=1)[:, ::-1]
        return after, np.array(self.hp, dtype=np.int64), fire, np.ascontiguousarray(tail)

    def fire(self, i: int) -> np.ndarray:
        """The hits state ``i`` deals in a round after the first (index = hits)."""
        found = self._fire.get(i)
        if found is None:
            # With no submarine anywhere (``separable``) every hit lands on any unit, so only
            # the total matters: the fast path's per-process table of volley distributions
            # (the same volley as ``engine.general_hits``, cached across battles).
            found = self._table(self.states[i]) if any(self.states[i]) else _NO_FIRE
            self._fire[i] = found
        return found


class GridChain:
    """``Chain``'s interface over dense arrays (module docstring)."""

    def __init__(self, setup: BattleSetup, start: State | None = None) -> None:
        self.setup = setup
        self.start = start if start is not None else initial_state(setup)
        charge(1)
        self.a = _Side(setup, setup.attacker, ATTACKER)
        self.d = _Side(setup, setup.defender, DEFENDER)
        #: round 1 up to its general stage (the AA gun's branches), when the rest of round 1
        #: is a later round's: then its general stage is played on the grid (``_start``);
        #: otherwise ``opening``, every state round 1 ends in (``play_round``)
        self.aa_branches = _aa_branches(setup, self.start)
        self.opening: Branches = []
        if self.aa_branches is None:
            self.opening = play_round(setup, self.start, EXACT)
        # Numbered in the order play_round's ends first meet them (the same ids either way).
        for _p, s in self.aa_branches or self.opening:
            self.a.number(s.att)
            self.d.number(s.dfn)
        na, nd = len(self.a.states), len(self.d.states)
        charge(na * nd)
        alive_a = np.array([any(x) for x in self.a.states])
        alive_d = np.array([any(x) for x in self.d.states])
        self.live = np.outer(alive_a, alive_d)
        total = np.add.outer(np.array(self.a.hp), np.array(self.d.hp))
        cells = np.argwhere(self.live)
        order = np.argsort(total[cells[:, 0], cells[:, 1]], kind="stable")
        #: live cells, fewest hit points first
        self.cells_i = np.ascontiguousarray(cells[order, 0], dtype=np.int64)
        self.cells_j = np.ascontiguousarray(cells[order, 1], dtype=np.int64)
        self.cells: list[tuple[int, int]] = list(
            zip(self.cells_i.tolist(), self.cells_j.tolist(), strict=True)
        )
        width = max(max(self.a.hp), max(self.d.hp)) + 1
        self.tables = (*self.a.tables(width), *self.d.tables(width))
        self.stuck = np.outer(self.tables[2][:, 0], self.tables[6][:, 0]) >= STUCK

    def _start(self) -> np.ndarray:
        """The chances of the states round 1 ends in, on the grid.

        With ``aa_branches``, round 1's general stage is a later round's (no bombardment, no
        submarine, nothing carried: ``separable``), so from each branch (s, d) it is the
        product of the defender's fire moving the attacker along ``after`` and the attacker's
        moving the defender, hits past a side's hit points all meaning "all lost" (as
        ``engine.side_results`` merges them). Equal to ``play_round``'s to 1e-15 (the hit
        distributions come from the per-process tables instead of ``engine.convolve``).
        """
        mass = np.zeros(self.live.shape)
        if self.aa_branches is None:
            for p, s in self.opening:
                mass[self.a.ids[s.att], self.d.ids[s.dfn]] += p
            return mass
        for p, s in self.aa_branches:
            x, y = self.a.ids[s.att], self.d.ids[s.dfn]
            if not (any(s.att) and any(s.dfn)):
                mass[x, y] += p  # nobody left to fight round 1: an end
                continue
            to_a = _capped(self.d.fire(y), self.a.hp[x])  # attacker positions taken
            to_d = _capped(self.a.fire(x), self.d.hp[y])
            mass[np.ix_(self.a.after[x], self.d.after[y])] += p * np.outer(to_a, to_d)
        return mass

    def _leave(self, retreat: Callable[[State], bool]) -> np.ndarray:
        return np.array([retreat(self.state(i, j)) for i, j in self.cells], dtype=np.bool_)

    def state(self, i: int, j: int) -> State:
        return State(self.a.states[i], self.d.states[j], False)

    def result(self, state: State) -> str:
        a, d = any(state.att), any(state.dfn)
        if a and not d:
            return "attacker"
        if d and not a:
            return "defender"
        return "draw" if not (a or d) else "stalemate"

    def values(
        self,
        terminal: Callable[[State, str], float],
        stop: Callable[[State], float] | None = None,
    ) -> tuple[Callable[[State], float], set[State]]:
        """As ``Chain.values`` (``grid_sweep.values_pass``)."""
        stop_at = None
        if stop is not None:
            stop_at = np.array([stop(self.state(i, j)) for i, j in self.cells], dtype=np.float64)
        value, stops = self.value_grid(terminal, stop_at)

        def lookup(state: State) -> float:
            return float(value[self.a.ids[state.att], self.d.ids[state.dfn]])

        chosen = {self.state(*self.cells[c]) for c in np.flatnonzero(stops)}
        return lookup, chosen

    def value_grid(
        self, terminal: Callable[[State, str], float], stop_at: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``values`` as arrays: the value of every (attacker id, defender id) and, per live
        cell (``cells``), whether stopping there (worth ``stop_at[c]``) is chosen."""
        value = np.zeros(self.live.shape)
        for i, j in np.argwhere(~self.live):
            s = self.state(int(i), int(j))
            value[i, j] = terminal(s, self.result(s))
        n = len(self.cells)
        stale = np.zeros(n)
        for c in np.flatnonzero(self.stuck[self.cells_i, self.cells_j]):
            stale[c] = terminal(self.state(*self.cells[c]), "stalemate")
        charge(n)
        stops = grid_sweep.values_pass(
            self.cells_i, self.cells_j, *self.tables, value, stale,
            stop_at if stop_at is not None else np.zeros(n), stop_at is not None, STUCK, TIE,
        )  # fmt: skip
        return value, stops

    def side_values(self) -> tuple[np.ndarray, np.ndarray]:
        """IPC value of every attacker and every defender state (``chain.side_value``)."""
        return (
            np.array([side_value(self.a.side, x) for x in self.a.states], dtype=np.int64),
            np.array([side_value(self.d.side, x) for x in self.d.states], dtype=np.int64),
        )

    def attacker_units(self) -> np.ndarray:
        """Units left in every attacker state."""
        return np.array([sum(x) for x in self.a.states], dtype=np.int64)

    def distribute(
        self, retreat: Callable[[State], bool], leave: np.ndarray | None = None
    ) -> list[tuple[float, State, str]]:
        """As ``Chain.distribute`` (``grid_sweep.distribute_pass``); ``leave``, per live
        cell, replaces ``retreat`` when given."""
        if leave is None:
            leave = self._leave(retreat)
        return self.as_ends(self.distribute_ids(leave))

    def distribute_ids(self, leave: np.ndarray) -> EndIds:
        """``distribute``'s ends as arrays (``EndIds``), in the same order."""
        mass = self._start()
        charge(len(self.cells))
        kept, kind = grid_sweep.distribute_pass(
            self.cells_i, self.cells_j, *self.tables, mass, leave, STUCK
        )
        chosen = np.flatnonzero(kind)
        ended = np.argwhere((mass > 0.0) & ~self.live)
        return self._ids(
            [(chosen, kept[chosen], kind[chosen])], ended, mass[ended[:, 0], ended[:, 1]]
        )

    def rounds(
        self, limit: int, retreat: Callable[[State], bool], leave: np.ndarray | None = None
    ) -> list[tuple[float, State, str]]:
        """As ``Chain.rounds`` (``grid_sweep.round_pass``, once a round); ``leave`` as in
        ``distribute``."""
        if leave is None:
            leave = self._leave(retreat)
        return self.as_ends(self.rounds_ids(limit, leave))

    def rounds_ids(self, limit: int, leave: np.ndarray) -> EndIds:
        """``rounds``'s ends as arrays (``EndIds``), in the same order."""
        mass = self._start()
        ended = np.where(self.live, 0.0, mass)
        mass = np.where(self.live, mass, 0.0)
        kept_by_round = []
        for number in range(1, limit + 1):
            charge(len(self.cells))
            mass, kept, kind = grid_sweep.round_pass(
                self.cells_i, self.cells_j, *self.tables, mass, leave, STUCK, number == limit
            )
            chosen = np.flatnonzero(kind)
            kept_by_round.append((chosen, kept[chosen], kind[chosen]))
            ended += np.where(self.live, 0.0, mass)
            mass = np.where(self.live, mass, 0.0)
            if not mass.any():
                break
        cells = np.argwhere(ended > 0.0)
        return self._ids(kept_by_round, cells, ended[cells[:, 0], cells[:, 1]])

    def _ids(self, kept_by_round: list, ended: np.ndarray, ended_mass: np.ndarray) -> EndIds:
        """The ends: the cells kept each round (kind 1 a stalemate, 2 a retreat), then the
        ended cells (attacker, defender or draw by who is left)."""
        alive_a = np.array([any(x) for x in self.a.states], dtype=np.bool_)
        alive_d = np.array([any(x) for x in self.d.states], dtype=np.bool_)
        ei, ej = ended[:, 0].astype(np.int64), ended[:, 1].astype(np.int64)
        a, d = alive_a[ei], alive_d[ej]
        ended_result = np.where(
            a & ~d, RESULTS.index("attacker"), np.where(d & ~a, RESULTS.index("defender"), -1)
        )
        ended_result = np.where(
            ~(a | d), RESULTS.index("draw"), np.where(ended_result < 0, 3, ended_result)
        )
        parts_i = [self.cells_i[c] for c, _p, _k in kept_by_round] + [ei]
        parts_j = [self.cells_j[c] for c, _p, _k in kept_by_round] + [ej]
        parts_r = [
            np.where(k == 1, RESULTS.index("stalemate"), RESULTS.index("retreat"))
            for _c, _p, k in kept_by_round
        ] + [ended_result]
        parts_p = [p for _c, p, _k in kept_by_round] + [ended_mass]
        return EndIds(
            np.concatenate(parts_i).astype(np.int64),
            np.concatenate(parts_j).astype(np.int64),
            np.concatenate(parts_r).astype(np.int64),
            np.concatenate(parts_p).astype(np.float64),
        )

    def as_ends(self, ids: EndIds) -> list[tuple[float, State, str]]:
        """``EndIds`` as (probability, state, result) triples."""
        return [
            (p, self.state(i, j), RESULTS[r])
            for i, j, r, p in zip(
                ids.att.tolist(), ids.dfn.tolist(), ids.result.tolist(), ids.p.tolist(),
                strict=True,
            )
        ]  # fmt: skip


class EndIds(NamedTuple):
    """A grid's ends as arrays: attacker id, defender id, result (index in
    ``chain.RESULTS``) and probability, one entry per end."""

    att: np.ndarray
    dfn: np.ndarray
    result: np.ndarray
    p: np.ndarray
