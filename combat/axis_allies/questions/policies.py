"""Take and hold, retreat policies and the IPC swing of one battle.

A retreat policy decides, at the end of each round (after casualties: the moment the rules
let the attacker withdraw), whether the attacker leaves. Its conditions (any one suffices):

* ``after_round=N``: the attacker leaves after round N if the battle is still on (as
  ``battle_odds(rounds=N)``).
* ``below_chance=p``: it leaves when its chance to win from the current state, fighting to the
  end without retreating, is under p (``chance_of="take"``: the chance to take instead). The
  chance is computed exactly from the state, children first, over the whole chain.
* ``below_units=k``: it leaves when fewer than k of its units that fight are left.
* ``strafe=True``: it leaves when fighting on cannot raise the expected IPC swing. Precisely:
  the optimal stopping rule for the swing. With g(s, t) = (defender's IPC value at s minus at
  t) - (attacker's IPC value at s minus at t) for a round from state s to state t, and
  V(s) = max(0, C(s)), C(s) = sum over t != s of P(s -> t) (g(s, t) + V(t)) / (1 - P(s -> s))
  (V = 0 at an ended battle), the attacker retreats at s exactly when C(s) <= 0 (a tie
  retreats: nothing to gain by staying). That is the retreat rule giving the largest expected
  swing ("the state that maximises the expected IPC swing"); the territory itself counts for
  nothing, as in TripleA's TUV swing.

A state where nobody can ever score again ends as a stalemate whatever the policy. Round 1 is
always fought (no retreat before it). The attacker of an amphibious assault cannot retreat
(units landed from transports stay), so a policy there is refused, as are policies under
``chess-cof-r`` (whose final-fraction roll depends on the round being known to be the last).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from combat.axis_allies.engine import State
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.odds import battle_odds
from combat.axis_allies.questions.chain import (
    Battle,
    Chain,
    check_size,
    side_value,
    takes,
)
from combat.axis_allies.questions.grid import EndIds, GridChain, make_chain
from combat.axis_allies.questions.orders import OrderLike
from combat.axis_allies.questions.results import EndTable, SwingDistribution, TakeOdds
from combat.axis_allies.setup import BattleOptions, BattleSetup

#: The latest round a policy may name (a battle past it is decided long before).
MAX_POLICY_ROUNDS = 100
CHANCES = ("win", "take")


@dataclass(frozen=True)
class RetreatPolicy:
    """When the attacker retreats (see the module docstring); every field None/False: never."""

    after_round: int | None = None
    below_chance: float | None = None
    chance_of: str = "win"
    below_units: int | None = None
    strafe: bool = False

    @property
    def never(self) -> bool:
        return (
            self.after_round is None
            and self.below_chance is None
            and self.below_units is None
            and not self.strafe
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "after_round": self.after_round,
            "below_chance": self.below_chance,
            "chance_of": self.chance_of,
            "below_units": self.below_units,
            "strafe": self.strafe,
        }


def parse_policy(policy: RetreatPolicy | Mapping[str, Any] | None) -> RetreatPolicy:
    """A checked policy; ``CombatInputError`` names the bad field (``policy.after_round``...)."""
    if policy is None:
        return RetreatPolicy()
    if isinstance(policy, Mapping):
        allowed = RetreatPolicy.__dataclass_fields__
        for key in policy:
            if key not in allowed:
                raise CombatInputError(f"policy.{key}", "unknown policy field", allowed)
        policy = RetreatPolicy(**policy)
    if not isinstance(policy, RetreatPolicy):
        raise CombatInputError("policy", "must be an object")
    n = policy.after_round
    if n is not None and (
        not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_POLICY_ROUNDS
    ):
        raise CombatInputError(
            "policy.after_round", f"must be a whole number from 1 to {MAX_POLICY_ROUNDS}"
        )
    p = policy.below_chance
    if p is not None and (
        not isinstance(p, int | float) or isinstance(p, bool) or not 0.0 <= p <= 1.0
    ):
        raise CombatInputError("policy.below_chance", "must be a number from 0 to 1")
    if policy.chance_of not in CHANCES:
        raise CombatInputError("policy.chance_of", "unknown chance", CHANCES)
    k = policy.below_units
    if k is not None and (not isinstance(k, int) or isinstance(k, bool) or k < 1):
        raise CombatInputError("policy.below_units", "must be a whole number >= 1")
    if not isinstance(policy.strafe, bool):
        raise CombatInputError("policy.strafe", "must be true or false")
    return policy


@dataclass(frozen=True)
class PolicyOdds(TakeOdds):
    """``TakeOdds`` of the battle fought under ``policy`` (``retreat``: the chance it retreats;
    its survivors are in ``outcomes`` with result "retreat")."""

    policy: RetreatPolicy


def battle_table(
    battle: Battle,
    policy: RetreatPolicy,
    *,
    field: str = "attacker",
) -> tuple[BattleSetup, EndTable]:
    """The battle's ends under ``policy``: through ``battle_odds`` (its fast exact path and
    cache) when nothing needs the explicit chain, otherwise through ``Chain``."""
    setup = battle.setup()
    kwargs = battle.odds_kwargs(setup)
    if policy.never and kwargs is not None:
        try:
            odds = battle_odds(battle.attacker, battle.defender, **kwargs)
        except CombatInputError as error:
            if error.field != "method":
                raise
            raise CombatInputError(field, error.message.split(";")[0]) from None
        return setup, EndTable.from_odds(setup, odds)
    setup, chain = policy_chain(battle, policy, field=field, setup=setup)
    if isinstance(chain, GridChain):  # ends as arrays, merged without a State each
        return setup, EndTable.from_grid(setup, chain, _grid_ends(chain, policy))
    return setup, EndTable.from_states(setup, _chain_ends(chain, policy))


def chain_ends(
    battle: Battle,
    policy: RetreatPolicy,
    *,
    field: str = "attacker",
    setup: BattleSetup | None = None,
    start: State | None = None,
) -> tuple[BattleSetup, list[tuple[float, State, str]]]:
    """The battle's ends under ``policy`` as (probability, state, result), damage included,
    from ``start`` (default: the opening) through ``Chain``."""
    setup, chain = policy_chain(battle, policy, field=field, setup=setup, start=start)
    if isinstance(chain, GridChain):
        return setup, chain.as_ends(_grid_ends(chain, policy))
    return setup, _chain_ends(chain, policy)


def policy_chain(
    battle: Battle,
    policy: RetreatPolicy,
    *,
    field: str = "attacker",
    setup: BattleSetup | None = None,
    start: State | None = None,
) -> tuple[BattleSetup, Chain | GridChain]:
    """The checked setup and the chain ``chain_ends`` walks (``CombatInputError`` for a
    policy the battle refuses or a battle too large)."""
    if setup is None:
        setup = battle.setup()
    if not policy.never:
        if setup.bombarders or battle.amphibious:
            raise CombatInputError("policy", "the attacker of an amphibious assault cannot retreat")
        if setup.rules.final_roll:
            raise CombatInputError("policy", f"no retreat policy under {setup.rules.key!r}")
    check_size(setup, field, start)
    return setup, make_chain(setup, start)


def _grid_ends(chain: GridChain, policy: RetreatPolicy) -> EndIds:
    leave = retreat_cells(chain, policy)  # the rule as an array over the grid's cells
    if policy.after_round is not None:
        return chain.rounds_ids(policy.after_round, leave)
    return chain.distribute_ids(leave)


def _chain_ends(chain: Chain, policy: RetreatPolicy) -> list[tuple[float, State, str]]:
    retreat = retreat_rule(chain, policy)
    if policy.after_round is not None:
        return chain.rounds(policy.after_round, retreat)
    return chain.distribute(retreat)


def _never(_state: State) -> bool:
    return False


def retreat_cells(chain: GridChain, policy: RetreatPolicy) -> np.ndarray:
    """``retreat_rule`` on every live cell of ``chain`` at once (``GridChain.cells``): the
    same tests on the same numbers, read from arrays instead of one state at a time."""
    i, j = chain.cells_i, chain.cells_j
    leave = np.zeros(len(i), dtype=np.bool_)
    if policy.below_chance is not None:
        take = policy.chance_of == "take"
        setup = chain.setup

        def terminal(state: State, result: str) -> float:  # as win_values'
            return float(takes(setup, state, result) if take else result == "attacker")

        value, _stops = chain.value_grid(terminal)
        leave |= value[i, j] < policy.below_chance
    if policy.below_units is not None:
        leave |= chain.attacker_units()[i] < policy.below_units
    if policy.strafe:
        att_value, def_value = chain.side_values()

        def left(state: State, _result: str = "") -> float:  # as strafe_stops'
            return float(
                side_value(chain.setup.attacker, state.att)
                - side_value(chain.setup.defender, state.dfn)
            )

        stop_at = (att_value[i] - def_value[j]).astype(np.float64)
        _value, stops = chain.value_grid(left, stop_at)
        leave |= stops
    return leave


def retreat_rule(chain: Chain | GridChain, policy: RetreatPolicy) -> Callable[[State], bool]:
    """The state-only part of ``policy`` as a predicate on end-of-round states."""
    tests: list[Callable[[State], bool]] = []
    if policy.below_chance is not None:
        threshold = policy.below_chance
        chance = win_values(chain, take=policy.chance_of == "take")
        tests.append(lambda s: chance(s) < threshold)
    if policy.below_units is not None:
        k = policy.below_units
        tests.append(lambda s: sum(s.att) < k)
    if policy.strafe:
        stops = strafe_stops(chain)
        tests.append(lambda s: s in stops)
    if not tests:
        return lambda s: False
    return lambda s: any(test(s) for test in tests)


def win_values(chain: Chain | GridChain, *, take: bool) -> Callable[[State], float]:
    """For every live state, the attacker's chance to win (or take) fighting to the end."""
    setup = chain.setup

    def terminal(state: State, result: str) -> float:
        return float(takes(setup, state, result) if take else result == "attacker")

    return chain.values(terminal)[0]


def strafe_stops(chain: Chain | GridChain) -> set[State]:
    """The states where the optimal-stopping rule for the IPC swing retreats (docstring).

    The swing of the whole battle is a constant plus (attacker's value left - defender's value
    left) at its end, so the rule maximises the expected value of that difference, whose
    payoff for retreating at s is the difference at s.
    """
    setup = chain.setup

    def left(state: State, _result: str = "") -> float:
        return float(side_value(setup.attacker, state.att) - side_value(setup.defender, state.dfn))

    return chain.values(left, stop=left)[1]


def take_and_hold(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    rules: str = "dice",
    edition: str = "revised",
    attacker_order: OrderLike = None,
    defender_order: OrderLike = None,
    amphibious: bool = False,
    techs: Any = (),
    options: Mapping[str, Any] | BattleOptions | None = None,
    policy: RetreatPolicy | Mapping[str, Any] | None = None,
) -> TakeOdds:
    """The chance the attacker takes the territory (``TakeOdds.take``), apart from winning."""
    battle = Battle.of(
        attacker,
        defender,
        rules=rules,
        edition=edition,
        attacker_order=attacker_order,
        defender_order=defender_order,
        amphibious=amphibious,
        techs=techs,
        options=options,
    )
    setup, table = battle_table(battle, parse_policy(policy))
    return TakeOdds.from_table(setup, table)


def retreat_policy_odds(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    policy: RetreatPolicy | Mapping[str, Any],
    rules: str = "dice",
    edition: str = "revised",
    attacker_order: OrderLike = None,
    defender_order: OrderLike = None,
    techs: Any = (),
    options: Mapping[str, Any] | BattleOptions | None = None,
) -> PolicyOdds:
    """The exact distribution of the battle's end when the attacker follows ``policy``."""
    checked = parse_policy(policy)
    battle = Battle.of(
        attacker,
        defender,
        rules=rules,
        edition=edition,
        attacker_order=attacker_order,
        defender_order=defender_order,
        techs=techs,
        options=options,
    )
    setup, table = battle_table(battle, checked)
    return PolicyOdds.from_table(setup, table, policy=checked)


def ipc_swing(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    rules: str = "dice",
    edition: str = "revised",
    attacker_order: OrderLike = None,
    defender_order: OrderLike = None,
    amphibious: bool = False,
    techs: Any = (),
    options: Mapping[str, Any] | BattleOptions | None = None,
    policy: RetreatPolicy | Mapping[str, Any] | None = None,
) -> SwingDistribution:
    """The full distribution of IPC value lost per side, and the swing (``SwingDistribution``)."""
    battle = Battle.of(
        attacker,
        defender,
        rules=rules,
        edition=edition,
        attacker_order=attacker_order,
        defender_order=defender_order,
        amphibious=amphibious,
        techs=techs,
        options=options,
    )
    setup, table = battle_table(battle, parse_policy(policy))
    return SwingDistribution.from_table(setup, table)
