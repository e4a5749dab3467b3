"""The answers to the questions, as frozen dataclasses with ``to_dict`` (for the API layer),
and ``EndTable``: a battle's distribution of ends from which every answer is read."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from combat.axis_allies.engine import State
from combat.axis_allies.questions.chain import RESULTS, land_battle, side_value
from combat.axis_allies.reports import BattleOdds
from combat.axis_allies.setup import BattleSetup, SideSetup

Counts = tuple[tuple[str, int], ...]  # a side's survivors, sorted by unit name


class Row(NamedTuple):
    """One merged end of an ``EndTable``."""

    attacker_left: Counts
    defender_left: Counts
    result: str
    probability: float
    attacker_lost: int
    defender_lost: int


@dataclass(frozen=True)
class End:
    """One way a battle ends: who is left, how (a ``chain.RESULTS`` value), with what chance,
    and the IPC value each side lost."""

    attacker_left: Mapping[str, int]
    defender_left: Mapping[str, int]
    result: str
    probability: float
    attacker_lost_ipc: int
    defender_lost_ipc: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker_left": dict(self.attacker_left),
            "defender_left": dict(self.defender_left),
            "result": self.result,
            "probability": self.probability,
            "attacker_lost_ipc": self.attacker_lost_ipc,
            "defender_lost_ipc": self.defender_lost_ipc,
        }


class EndTable:
    """A battle's ends merged by (attacker left, defender left, result), most likely first.

    ``land`` says whether the battle is for a territory (taking needs a land unit) and
    ``land_units`` / ``air_units`` name the attacker's kinds of each.
    """

    def __init__(
        self,
        rows: Iterable[tuple[float, Counts, Counts, str, int, int]],
        *,
        land: bool,
        land_units: frozenset[str],
        air_units: frozenset[str],
        attacker_units: tuple[str, ...],
        defender_units: tuple[str, ...],
    ) -> None:
        merged: dict[tuple[Counts, Counts, str], list] = {}
        for p, att, dfn, result, att_lost, def_lost in rows:
            entry = merged.setdefault((att, dfn, result), [0.0, att_lost, def_lost])
            entry[0] += p
        self.rows = [Row(a, d, r, v[0], v[1], v[2]) for (a, d, r), v in merged.items()]
        self.land = land
        self.land_units = land_units
        self.air_units = air_units
        self.attacker_units = attacker_units
        self.defender_units = defender_units

    @classmethod
    def from_states(cls, setup: BattleSetup, ends: Iterable[tuple[float, State, str]]) -> EndTable:
        att, dfn = setup.attacker, setup.defender
        att_start, def_start = side_value(att, att.initial), side_value(dfn, dfn.initial)
        described: tuple[dict, dict] = ({}, {})  # side state -> (counts, IPC lost), once each

        def describe(k: int, side: SideSetup, x: tuple[int, ...], start: int):
            found = described[k].get(x)
            if found is None:
                found = described[k][x] = (_counts(side, x), start - side_value(side, x))
            return found

        rows = []
        for p, s, result in ends:
            a_counts, a_lost = describe(0, att, s.att, att_start)
            d_counts, d_lost = describe(1, dfn, s.dfn, def_start)
            rows.append((p, a_counts, d_counts, result, a_lost, d_lost))
        return cls(rows, **_kinds(setup))

    @classmethod
    def from_grid(cls, setup: BattleSetup, chain: Any, ids: Any) -> EndTable:
        """``from_states`` for a ``GridChain``'s ends given as ids (``grid.EndIds``): each
        side state described once, the ends merged with numpy in the same order and with the
        same sums (``np.bincount`` adds each key's terms in turn, as the merge here does)."""
        att, dfn = setup.attacker, setup.defender
        att_start, def_start = side_value(att, att.initial), side_value(dfn, dfn.initial)

        def describe(side: SideSetup, states: list, used: np.ndarray, start: int):
            keys: dict[Counts, int] = {}
            key_of = np.full(len(states), -1, dtype=np.int64)
            described: list[tuple[Counts, int]] = []
            for x in np.unique(used).tolist():
                counts = _counts(side, states[x])
                k = keys.get(counts)
                if k is None:
                    k = keys[counts] = len(described)
                    described.append((counts, start - side_value(side, states[x])))
                key_of[x] = k
            return key_of, described

        a_key, a_rows = describe(att, chain.a.states, ids.att, att_start)
        d_key, d_rows = describe(dfn, chain.d.states, ids.dfn, def_start)
        code = (a_key[ids.att] * max(1, len(d_rows)) + d_key[ids.dfn]) * len(RESULTS) + ids.result
        _codes, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        total = np.bincount(inverse.reshape(-1), weights=ids.p, minlength=len(first))
        order = np.argsort(first, kind="stable")
        rows = []
        for k in order.tolist():
            at = first[k]
            a_counts, a_lost = a_rows[a_key[ids.att[at]]]
            d_counts, d_lost = d_rows[d_key[ids.dfn[at]]]
            result = RESULTS[int(ids.result[at])]
            rows.append((float(total[k]), a_counts, d_counts, result, a_lost, d_lost))
        return cls(rows, **_kinds(setup))

    @classmethod
    def from_odds(cls, setup: BattleSetup, odds: BattleOdds) -> EndTable:
        """The same table from ``battle_odds`` (fought to the end: no retreat)."""
        att, dfn = setup.attacker, setup.defender
        att_start, def_start = side_value(att, att.initial), side_value(dfn, dfn.initial)
        rows = [
            (
                o.probability,
                tuple(sorted(o.attacker_left.items())),
                tuple(sorted(o.defender_left.items())),
                o.result,
                att_start - att.cost_of(o.attacker_left),
                def_start - dfn.cost_of(o.defender_left),
            )
            for o in odds.outcomes
        ]
        return cls(rows, **_kinds(setup))

    # --- readings ------------------------------------------------------------------------

    def ends(self) -> tuple[End, ...]:
        """Every end as an ``End``, most likely first (built only when asked for)."""
        proxies: dict[Counts, MappingProxyType] = {}

        def proxy(counts: Counts) -> MappingProxyType:
            found = proxies.get(counts)
            if found is None:
                found = proxies[counts] = MappingProxyType(dict(counts))
            return found

        ranked = sorted(self.rows, key=lambda row: -row.probability)
        return tuple(End(proxy(a), proxy(d), r, p, al, dl) for a, d, r, p, al, dl in ranked)

    def total(self, result: str) -> float:
        return self._readings[0].get(result, 0)

    def takes(self, end: End) -> bool:
        """The attacker takes the territory: it won and, in a land battle, a land unit is left
        (aircraft cannot take a territory); in a sea battle, it cleared the zone."""
        return self._takes(tuple(end.attacker_left.items()), end.result)

    def _takes(self, attacker_left: Counts, result: str) -> bool:
        if result != "attacker":
            return False
        return not self.land or any(n in self.land_units for n, _c in attacker_left)

    def take(self) -> float:
        return self._readings[1]

    def expected(self, side: str) -> dict[str, float]:
        return dict(self._readings[2] if side == "attacker" else self._readings[3])

    def expected_swing(self) -> float:
        return self._readings[4]

    @cached_property
    def _readings(self) -> tuple[dict[str, float], float, dict, dict, float]:
        """(chance per result, take, expected survivors of each side, expected swing) in one
        pass over the rows: each sum adds the same terms in the same order as a sum of its
        own would (the answer reads all of them; thousands of retreat rows made the separate
        passes a fifth of a policy's time)."""
        totals: dict[str, float] = {}
        take: float = 0
        swing: float = 0
        att = dict.fromkeys(self.attacker_units, 0.0)
        dfn = dict.fromkeys(self.defender_units, 0.0)
        for row in self.rows:
            p = row.probability
            totals[row.result] = totals.get(row.result, 0) + p
            if self._takes(row.attacker_left, row.result):
                take = take + p
            for name, n in row.attacker_left:
                att[name] = att.get(name, 0.0) + p * n
            for name, n in row.defender_left:
                dfn[name] = dfn.get(name, 0.0) + p * n
            swing = swing + p * (row.defender_lost - row.attacker_lost)
        return totals, take, att, dfn, swing

    def loss_distribution(self, side: str) -> tuple[tuple[int, float], ...]:
        dist: dict[int, float] = {}
        for row in self.rows:
            v = row.attacker_lost if side == "attacker" else row.defender_lost
            dist[v] = dist.get(v, 0.0) + row.probability
        return tuple(sorted(dist.items()))

    def swing_distribution(self) -> tuple[tuple[int, float], ...]:
        dist: dict[int, float] = {}
        for row in self.rows:
            v = row.defender_lost - row.attacker_lost
            dist[v] = dist.get(v, 0.0) + row.probability
        return tuple(sorted(dist.items()))


def _counts(side: SideSetup, state: tuple[int, ...]) -> Counts:
    return tuple(sorted(side.alive(state).items()))


def _kinds(setup: BattleSetup) -> dict[str, Any]:
    att = setup.attacker
    return {
        "land": land_battle(setup),
        "land_units": frozenset(n for n in att.order if att.units[n].kind == "land"),
        "air_units": frozenset(n for n in att.order if att.units[n].is_air),
        "attacker_units": tuple(att.order),
        "defender_units": tuple(setup.defender.order),
    }


def mean_sd(dist: Iterable[tuple[int, float]]) -> tuple[float, float]:
    """Mean and standard deviation of a finite distribution given as (value, probability)."""
    pairs = list(dist)
    mean = sum(v * p for v, p in pairs)
    var = sum(p * (v - mean) ** 2 for v, p in pairs)
    return mean, math.sqrt(max(var, 0.0))


def _plain(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return dict(mapping)


@dataclass(frozen=True)
class TakeOdds:
    """The chances of a battle's ends, with "takes the territory" apart from "wins".

    ``take``: the attacker wins with a land unit left (sea battle: clears the zone).
    ``air_only_win``: it wins with only aircraft left: the defender is gone but the territory
    is not taken. ``expected_air_to_land``: the attacker's aircraft expected to survive, all of
    which must land elsewhere (not in a territory taken this turn). ``defender_holds``: every
    end without a take (defender wins, draw, stalemate, retreat, air-only win).
    """

    edition: str
    rules: str
    land_battle: bool
    take: float
    attacker_wins: float
    air_only_win: float
    defender_holds: float
    defender_wins: float
    draw: float
    stalemate: float
    retreat: float
    expected_attacker_survivors: Mapping[str, float]
    expected_defender_survivors: Mapping[str, float]
    expected_air_to_land: Mapping[str, float]
    expected_ipc_swing: float
    # Builds ``outcomes`` when first asked for (thousands of retreat ends cost more to list
    # than the chain costs to solve).
    outcome_list: Callable[[], tuple[End, ...]] = field(repr=False, compare=False)

    @cached_property
    def outcomes(self) -> tuple[End, ...]:
        """Every distinct end (survivors and result) with its chance, most likely first."""
        return self.outcome_list()

    @classmethod
    def from_table(cls, setup: BattleSetup, table: EndTable, **extra: Any) -> Any:
        survivors = table.expected("attacker")
        take = table.take()
        return cls(
            edition=setup.edition.key,
            rules=setup.rules.key,
            land_battle=table.land,
            take=take,
            attacker_wins=table.total("attacker"),
            air_only_win=table.total("attacker") - take if table.land else 0.0,
            defender_holds=1.0 - take,
            defender_wins=table.total("defender"),
            draw=table.total("draw"),
            stalemate=table.total("stalemate"),
            retreat=table.total("retreat"),
            expected_attacker_survivors=MappingProxyType(survivors),
            expected_defender_survivors=MappingProxyType(table.expected("defender")),
            expected_air_to_land=MappingProxyType(
                {n: v for n, v in survivors.items() if n in table.air_units}
            ),
            expected_ipc_swing=table.expected_swing(),
            outcome_list=table.ends,
            **extra,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            if name == "outcome_list":
                continue
            value = getattr(self, name)
            if isinstance(value, Mapping):
                value = dict(value)
            elif hasattr(value, "to_dict"):
                value = value.to_dict()
            out[name] = value
        out["outcomes"] = [e.to_dict() for e in self.outcomes]
        return out


@dataclass(frozen=True)
class SwingDistribution:
    """The IPC value each side loses, as TripleA players read it ("TUV swing").

    ``attacker_loss`` / ``defender_loss`` / ``swing``: (IPC, probability) pairs, ascending;
    swing = defender's loss - attacker's loss, positive when the attack pays. Means and
    standard deviations are of those exact distributions; ``expected_swing`` is TripleA's
    "TUV swing" (its mean). Units that are never casualties (AA guns, bombarding ships) count
    for nothing, and a damaged two-hit unit that survives is not a loss.
    """

    edition: str
    rules: str
    attacker_value: int
    defender_value: int
    attacker_loss: tuple[tuple[int, float], ...]
    defender_loss: tuple[tuple[int, float], ...]
    swing: tuple[tuple[int, float], ...]
    attacker_loss_mean: float
    attacker_loss_sd: float
    defender_loss_mean: float
    defender_loss_sd: float
    expected_swing: float
    swing_sd: float

    @classmethod
    def from_table(cls, setup: BattleSetup, table: EndTable) -> SwingDistribution:
        att_loss = table.loss_distribution("attacker")
        def_loss = table.loss_distribution("defender")
        swing = table.swing_distribution()
        am, asd = mean_sd(att_loss)
        dm, dsd = mean_sd(def_loss)
        sm, ssd = mean_sd(swing)
        return cls(
            edition=setup.edition.key,
            rules=setup.rules.key,
            attacker_value=side_value(setup.attacker, setup.attacker.initial),
            defender_value=side_value(setup.defender, setup.defender.initial),
            attacker_loss=att_loss,
            defender_loss=def_loss,
            swing=swing,
            attacker_loss_mean=am,
            attacker_loss_sd=asd,
            defender_loss_mean=dm,
            defender_loss_sd=dsd,
            expected_swing=sm,
            swing_sd=ssd,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = [{"ipc": v, "probability": p} for v, p in value]
            out[name] = value
        return out
