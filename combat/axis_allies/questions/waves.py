"""Several waves: attacks one after another on what the previous ones left of the defender.

Each wave is a battle of its own (its own attacker, its own AA fire: a defending AA gun fires
at each wave's aircraft, as it does in each battle). The defender enters wave k+1 in exactly the
state wave k left it in — damaged two-hit units stay damaged (waves fought in one turn; no
repair in between) — so the answer conditions on each distinct defender state: for every state
with its probability, wave k+1's battle is solved exactly from that state (``Chain`` with a
given start) and the results are mixed. Nothing is sampled.

When a wave takes the territory the later waves have nothing to fight. When the defender is
destroyed without a take (a win by aircraft alone, or a draw), the next wave with a land unit
walks in and takes it without a battle. The IPC lost by the attackers of every wave add up;
the defender's loss is its value at the start minus at the end (all of it after a take).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from combat.axis_allies.editions import load_edition
from combat.axis_allies.engine import State
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.questions.chain import Battle, land_battle, side_value, takes
from combat.axis_allies.questions.orders import OrderLike, parse_order
from combat.axis_allies.questions.policies import RetreatPolicy, chain_ends, parse_policy
from combat.axis_allies.questions.results import mean_sd
from combat.axis_allies.setup import BattleOptions
from combat.budget import charge

#: The most waves one question may chain.
MAX_WAVES = 8

Slots = tuple[tuple[tuple[str, int], int], ...]  # ((unit, hit points left), count), sorted


@dataclass(frozen=True)
class Wave:
    """One attack: its units, and its own choices (amphibious landing, order, retreat)."""

    units: Mapping[str, int]
    amphibious: bool = False
    order: OrderLike = None
    policy: RetreatPolicy | Mapping[str, Any] | None = None
    techs: Any = ()


@dataclass(frozen=True)
class WaveResult:
    """What one wave did: the chance it fought, took the territory (``take``, including a walk
    in after an earlier wave destroyed the defender), and its expected IPC loss."""

    fights: float
    take: float
    expected_attacker_loss: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "fights": self.fights,
            "take": self.take,
            "expected_attacker_loss": self.expected_attacker_loss,
        }


@dataclass(frozen=True)
class WavesOdds:
    """The result of every wave together (swing = defender's loss - attackers' loss)."""

    edition: str
    rules: str
    take: float
    defender_destroyed: float
    waves: tuple[WaveResult, ...]
    expected_defender_survivors: Mapping[str, float]
    attacker_loss: tuple[tuple[int, float], ...]
    defender_loss: tuple[tuple[int, float], ...]
    swing: tuple[tuple[int, float], ...]
    expected_swing: float
    swing_sd: float
    defender_states: tuple[tuple[Mapping[str, int], float], ...] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        def pairs(dist: tuple[tuple[int, float], ...]) -> list[dict[str, float]]:
            return [{"ipc": v, "probability": p} for v, p in dist]

        return {
            "edition": self.edition,
            "rules": self.rules,
            "take": self.take,
            "defender_destroyed": self.defender_destroyed,
            "waves": [w.to_dict() for w in self.waves],
            "expected_defender_survivors": dict(self.expected_defender_survivors),
            "attacker_loss": pairs(self.attacker_loss),
            "defender_loss": pairs(self.defender_loss),
            "swing": pairs(self.swing),
            "expected_swing": self.expected_swing,
            "swing_sd": self.swing_sd,
            "defender_states": [
                {"defender_left": dict(d), "probability": p} for d, p in self.defender_states
            ],
        }


def waves(
    defender: Mapping[str, int],
    attacks: Sequence[Wave | Mapping[str, int]],
    *,
    rules: str = "dice",
    edition: str = "revised",
    defender_order: OrderLike = None,
    options: Mapping[str, Any] | BattleOptions | None = None,
) -> WavesOdds:
    """The exact result of ``attacks`` (each a ``Wave`` or a plain force) fought in turn."""
    if isinstance(attacks, Mapping | str) or not isinstance(attacks, Sequence):
        raise CombatInputError("waves", "must be a list of attacking forces")
    if not 1 <= len(attacks) <= MAX_WAVES:
        raise CombatInputError("waves", f"from 1 to {MAX_WAVES} waves")
    plan = [a if isinstance(a, Wave) else Wave(units=a) for a in attacks]
    policies = [parse_policy(w.policy) for w in plan]
    ed = load_edition(edition)
    d_order = parse_order(defender_order, "defender_order")
    if not isinstance(defender, Mapping):
        raise CombatInputError("defender", 'must be an object of unit counts, e.g. {"infantry": 3}')
    keep = {n: c for n, c in defender.items() if n in ed.units and not ed.units[n].casualty}

    def battle_for(k: int, counts: Mapping[str, int]) -> Battle:
        wave = plan[k]
        return Battle.of(
            wave.units,
            {**counts, **keep},
            rules=rules,
            edition=edition,
            attacker_order=wave.order,
            defender_order=d_order,
            amphibious=wave.amphibious,
            techs=wave.techs,
            options=options,
        )

    # The first wave checks the whole request (forces, names) before anything is solved.
    first = battle_for(0, defender).setup()
    for k in range(1, len(plan)):
        battle_for(k, defender).setup()
    def_units = first.defender.units
    land = land_battle(first)
    start_slots = _slots(first.defender.slots, first.defender.initial)
    start_value = side_value(first.defender, first.defender.initial)
    # (defender slots or None when destroyed, attackers' IPC lost, taken) -> probability
    dist: dict[tuple[Slots | None, int, bool], float] = {(start_slots, 0, False): 1.0}
    results: list[WaveResult] = []
    for k, wave in enumerate(plan):
        charge(len(dist))
        nxt: dict[tuple[Slots | None, int, bool], float] = {}
        fights = took = lost = 0.0
        walks_in = any(
            c and (not land or ed.units[n].kind == "land")
            for n, c in wave.units.items()
            if n in ed.units
        )
        solved: dict[Slots, list[tuple[float, Slots | None, int, bool]]] = {}
        for (slots, att_lost, taken), p in dist.items():
            if taken or (slots is None and not walks_in):
                _add(nxt, (slots, att_lost, taken), p)
                continue
            if slots is None:
                took += p
                _add(nxt, (None, att_lost, True), p)
                continue
            if slots not in solved:
                solved[slots] = _solve_wave(battle_for, k, slots, policies[k])
            fights += p
            for q, slots2, wave_lost, wave_took in solved[slots]:
                took += p * q if wave_took else 0.0
                lost += p * q * wave_lost
                _add(nxt, (slots2, att_lost + wave_lost, wave_took), p * q)
        dist = nxt
        results.append(WaveResult(fights, took, lost))

    return _summary(first.edition.key, first.rules.key, dist, results, def_units, start_value)


def _solve_wave(battle_for, k: int, slots: Slots, policy: RetreatPolicy):
    """Wave ``k`` against a defender in state ``slots``: (probability, defender slots left or
    None, IPC the wave lost, took the territory), damage tracked exactly."""
    counts: dict[str, int] = {}
    for (name, _hp), n in slots:
        counts[name] = counts.get(name, 0) + n
    battle = battle_for(k, counts)
    setup = battle.setup()
    held = dict(slots)
    dfn = tuple(held.get(slot, 0) for slot in setup.defender.slots)
    start = State(setup.attacker.initial, dfn)
    setup, ends = chain_ends(battle, policy, field=f"waves.{k}", setup=setup, start=start)
    att, defending = setup.attacker, setup.defender
    value = side_value(att, att.initial)
    merged: dict[tuple[Slots | None, int, bool], float] = {}
    for p, state, result in ends:
        left = _slots(defending.slots, state.dfn) or None
        key = (left, value - side_value(att, state.att), takes(setup, state, result))
        merged[key] = merged.get(key, 0.0) + p
    return [(p, left, lost, took) for (left, lost, took), p in merged.items()]


def _slots(slots: tuple[tuple[str, int], ...], state: tuple[int, ...]) -> Slots:
    return tuple(sorted((slot, n) for slot, n in zip(slots, state, strict=True) if n))


def _add(dist: dict, key: Any, p: float) -> None:
    dist[key] = dist.get(key, 0.0) + p


def _summary(edition, rules, dist, results, def_units, start_value) -> WavesOdds:
    take = sum(p for (_s, _l, taken), p in dist.items() if taken)
    destroyed = sum(p for (s, _l, _t), p in dist.items() if s is None)
    survivors: dict[str, float] = {}
    states: dict[tuple[tuple[str, int], ...], float] = {}
    att_loss: dict[int, float] = {}
    def_loss: dict[int, float] = {}
    swing: dict[int, float] = {}
    for (slots, att_lost, _taken), p in dist.items():
        counts: dict[str, int] = {}
        for (name, _hp), n in slots or ():
            counts[name] = counts.get(name, 0) + n
        for name, n in counts.items():
            survivors[name] = survivors.get(name, 0.0) + p * n
        key = tuple(sorted(counts.items()))
        states[key] = states.get(key, 0.0) + p
        d_lost = start_value - sum(def_units[n].cost * c for n, c in counts.items())
        _add(att_loss, att_lost, p)
        _add(def_loss, d_lost, p)
        _add(swing, d_lost - att_lost, p)
    mean, sd = mean_sd(swing.items())
    return WavesOdds(
        edition=edition,
        rules=rules,
        take=take,
        defender_destroyed=destroyed,
        waves=tuple(results),
        expected_defender_survivors=MappingProxyType(survivors),
        attacker_loss=tuple(sorted(att_loss.items())),
        defender_loss=tuple(sorted(def_loss.items())),
        swing=tuple(sorted(swing.items())),
        expected_swing=mean,
        swing_sd=sd,
        defender_states=tuple(
            (MappingProxyType(dict(k)), v) for k, v in sorted(states.items(), key=lambda i: -i[1])
        ),
    )
