"""One round of an Axis & Allies battle, as a function from a state to its possible successors.

A round runs these stages (design.md §3); each takes a ``State`` and returns ``(probability,
State)`` pairs, asking the ``Chance`` object for every random outcome:

1. ``aa`` (round 1, a defending AA gun, attacking aircraft): dice, one die per plane hitting on
   1; Low Luck, planes // 6 sure hits and a die for the rest, each full six of one type losing
   one of that type; A&A Chess, planes // 5 (A&A Chess example 5), RYOF<6 rolling the fifth.
2. ``bombardment`` (round 1 of an amphibious assault): the ships' opening fire; casualties are
   removed before they can fire back. Under Low Luck the ships join the round-1 total unless
   ``bombard_separately``; under A&A Chess they fire as a group whose fraction joins the main
   total, as the text does for submarines.
3. ``first_strike``: submarines (both sides in Revised, the attacker's only in the classic game)
   fire first when the enemy has no destroyer; their casualties are removed before firing back.
   Dice: always. A&A Chess: total // 6, the fraction joining the main total. Low Luck: only the
   subs the side chose to fire separately, only when it can have an effect.
4. ``general``: everything else fires at once; casualties are removed together.

Submarine hits never fall on aircraft ("restricted" hits). In a Low Luck or Chess total that
mixes submarines with other units, hits on aircraft are limited to the dice of the units that can
hit aircraft (the LL text's 2 subs + 1 fighter example).

After the round, under COF+R, a round that ends the battle (a side destroyed or the round limit
reached) rolls each side's remaining fraction. ``play_round`` returns the merged successors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from combat.axis_allies.anti_aircraft import aa_loss_outcomes
from combat.axis_allies.rules import (
    ATTACKER,
    DEFENDER,
    Chance,
    DieRoll,
    RollingChance,
    carried_hits,
    convolve,
    total_hits,
)
from combat.axis_allies.setup import BattleSetup, SideSetup


class State(NamedTuple):
    att: tuple[int, ...]
    dfn: tuple[int, ...]
    first_round: bool = True
    carry_att: int = 0  # COF running fractions (negative: a deficit)
    carry_def: int = 0
    bonus_att: int = 0  # fraction of an opening group, joining this round's main total
    bonus_def: int = 0
    struck_att: int = 0  # subs that already fired this round (first strike)
    struck_def: int = 0


Branches = list[tuple[float, State]]


class Fire(NamedTuple):
    """What one side's group fired in a stage, for the battle report."""

    side: str
    stage: str
    strength: int  # dice rolled (dice) or the firepower total (Low Luck, A&A Chess)
    hits: int
    rolls: tuple[DieRoll, ...]


class Recorder:
    """Collects ``Fire`` entries while ``fight`` plays a round (exact mode passes None)."""

    def __init__(self, chance: RollingChance) -> None:
        self.chance = chance
        self.fires: list[Fire] = []
        self._mark = len(chance.rolls)

    def record(self, side: str, stage: str, strength: int, hits: int) -> None:
        rolls = tuple(self.chance.rolls[self._mark :])
        self._mark = len(self.chance.rolls)
        self.fires.append(Fire(side, stage, strength, hits, rolls))


# --- helpers --------------------------------------------------------------------------------


def _side_state(state: State, role: str) -> tuple[int, ...]:
    return state.att if role == ATTACKER else state.dfn


def merge(branches: Iterable[tuple[float, State]]) -> Branches:
    total: dict[State, float] = {}
    for p, s in branches:
        total[s] = total.get(s, 0.0) + p
    return [(p, s) for s, p in total.items()]


def _expand(branches: Branches, stage: Callable[[State], Branches]) -> Branches:
    if len(branches) == 1 and branches[0][0] == 1.0:
        return stage(branches[0][1])
    return merge((p * q, s2) for p, s in branches for q, s2 in stage(s))


class Volley(NamedTuple):
    """Dice of one firing group: (needed, number of dice, restricted) per kind of die."""

    dice: tuple[tuple[int, int, bool], ...]

    @property
    def total(self) -> int:
        return sum(needed * n for needed, n, _r in self.dice)

    @property
    def dice_count(self) -> int:
        return sum(n for _needed, n, _r in self.dice)

    @property
    def air_capable(self) -> int:
        return sum(n for _needed, n, restricted in self.dice if not restricted)


def volley(
    side: SideSetup,
    state: tuple[int, ...],
    *,
    subs: str,
    sub_limit: int | None = None,
    skip_subs: int = 0,
) -> Volley:
    """The dice a side fires. ``subs``: "only", "without" or "with" submarines.

    ``skip_subs`` leaves out subs that fired first this round; ``sub_limit`` caps how many fire.
    """
    alive = side.alive(state)
    attack = side.role == ATTACKER
    dice: list[tuple[int, int, bool]] = []
    supported: dict[str, int] = {}
    if attack:
        for name, n in alive.items():
            for target, bonus in side.units[name].supports.items():
                supported[target] = supported.get(target, 0) + n * bonus
    for name, n in alive.items():
        unit = side.units[name]
        if unit.submarine:
            if subs == "without":
                continue
            n = max(0, n - skip_subs)
            if sub_limit is not None:
                n = min(n, sub_limit)
        elif subs == "only":
            continue
        value = unit.attack if attack else unit.defense
        per_unit = unit.attack_dice if attack else unit.defense_dice
        boosted = min(n, supported.get(name, 0)) if attack else 0
        if boosted:
            dice.append((value + 1, boosted * per_unit, unit.submarine))
        if n - boosted:
            dice.append((value, (n - boosted) * per_unit, unit.submarine))
    return Volley(tuple(d for d in dice if d[1] > 0 and d[0] > 0))


def _volley_hits(
    setup: BattleSetup, role: str, v: Volley, chance: Chance, stage: str, bonus: int = 0
) -> list[tuple[float, tuple[int, int]]]:
    """(general, restricted) hit outcomes of one volley under the battle's rules."""
    rules = setup.rules
    if rules.per_die:
        general = convolve(chance.dice(n, need, 6, role, stage) for need, n, r in v.dice if not r)
        restricted = convolve(chance.dice(n, need, 6, role, stage) for need, n, r in v.dice if r)
        return [(pg * pr, (g, r)) for pg, g in general for pr, r in restricted]
    hits = total_hits(v.total + bonus, rules.threshold(role), rules, chance, role, stage)
    return [(p, _split(h, v.air_capable)) for p, h in hits]


def _split(hits: int, air_capable: int) -> tuple[int, int]:
    general = min(hits, air_capable)
    return general, hits - general


def side_results(
    side: SideSetup, state: tuple[int, ...], hits: list[tuple[float, tuple[int, int]]]
) -> dict[tuple[int, ...], float]:
    """Where ``side`` ends up after each hit outcome, merged: {new side state: probability}."""
    return side_results_with(side.apply_hits, state, hits)


def side_results_with(apply_hits, state, hits) -> dict[tuple[int, ...], float]:
    results: dict[tuple[int, ...], float] = {}
    for p, (g, r) in hits:
        key = apply_hits(state, g, r)
        results[key] = results.get(key, 0.0) + p
    return results


def general_hits(setup: BattleSetup, role: str, side_state: tuple[int, ...]):
    """Hit outcomes a side deals in a later round's general stage (no subs, nothing carried)."""
    from combat.axis_allies.rules import EXACT

    v = volley(setup.side(role), side_state, subs="with")
    return _volley_hits(setup, role, v, EXACT, "general")


def _exchange(
    setup: BattleSetup,
    state: State,
    att_out: list[tuple[float, tuple[int, int]]],
    def_out: list[tuple[float, tuple[int, int]]],
    make,
) -> Branches:
    """Apply both sides' hits simultaneously; ``make(att, dfn)`` builds each resulting state.

    The results are distinct pairs of distinct side states, so nothing needs merging.
    """
    def_results = side_results(setup.defender, state.dfn, att_out)
    att_results = side_results(setup.attacker, state.att, def_out)
    return [(pa * pd, make(a, d)) for a, pa in att_results.items() for d, pd in def_results.items()]


def _hits_of(outcomes) -> int:
    """Hits of a single (rolled) outcome, for the report."""
    return sum(g + r for _p, (g, r) in outcomes) if len(outcomes) == 1 else -1


# --- stages ---------------------------------------------------------------------------------


def stage_aa(setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None) -> Branches:
    if not (state.first_round and setup.aa_gun):
        return [(1.0, state)]
    side = setup.attacker
    planes = {n: c for n, c in side.alive(state.att).items() if side.units[n].is_air}
    if not planes:
        return [(1.0, state)]
    outcomes = aa_loss_outcomes(setup.rules, planes, 1, side.order, chance)
    if rec is not None:
        rec.record(DEFENDER, "aa", sum(planes.values()), sum(outcomes[0][1].values()))
    return merge((p, state._replace(att=side.remove(state.att, losses))) for p, losses in outcomes)


def stage_bombardment(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None
) -> Branches:
    if not (state.first_round and setup.bombarders):
        return [(1.0, state)]
    if setup.rules.key == "lowluck" and not setup.options.bombard_separately:
        return [(1.0, state)]  # they join the round-1 total in the general stage
    v = _bombard_volley(setup)
    if setup.rules.per_die or setup.rules.key == "lowluck":
        out = _volley_hits(setup, ATTACKER, v, chance, "bombardment")
        bonus = 0
    else:  # A&A Chess: whole sixes now, the fraction joins the main total
        out = [(1.0, (v.total // 6, 0))]
        bonus = v.total % 6
    if rec is not None:
        rec.record(
            ATTACKER, "bombardment", v.dice_count if setup.rules.per_die else v.total, _hits_of(out)
        )
    branches = []
    for p, (g, r) in out:
        dfn = setup.defender.apply_hits(state.dfn, g, r)
        branches.append((p, state._replace(dfn=dfn, bonus_att=state.bonus_att + bonus)))
    return merge(branches)


def _bombard_volley(setup: BattleSetup) -> Volley:
    return Volley(
        tuple(
            (unit.attack, n * unit.attack_dice, False)
            for unit, n in setup.bombarders
            if unit.attack > 0
        )
    )


def _first_strikers(setup: BattleSetup, state: State, role: str) -> int:
    """How many of ``role``'s submarines fire first this round."""
    if setup.edition.sub_first_strike == "attacker" and role == DEFENDER:
        return 0
    side, enemy = setup.side(role), setup.side(_other(role))
    own, enemy_state = _side_state(state, role), _side_state(state, _other(role))
    if enemy.has(enemy_state, lambda u: u.anti_sub):
        return 0
    subs = sum(n for name, n in side.alive(own).items() if side.units[name].submarine)
    if setup.rules.key != "lowluck":
        return subs
    chosen = min(subs, setup.options.first_strike_subs(role))
    would_fire_back = enemy.has(
        enemy_state,
        lambda u: not u.is_air and (u.attack if enemy.role == ATTACKER else u.defense) > 0,
    )
    return chosen if would_fire_back else 0


def _other(role: str) -> str:
    return DEFENDER if role == ATTACKER else ATTACKER


def stage_first_strike(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None
) -> Branches:
    strikers = {role: _first_strikers(setup, state, role) for role in (ATTACKER, DEFENDER)}
    if not any(strikers.values()):
        return [(1.0, state)]
    outcomes = {}
    bonus = {ATTACKER: 0, DEFENDER: 0}
    for role, n in strikers.items():
        side = setup.side(role)
        v = volley(side, _side_state(state, role), subs="only", sub_limit=n)
        if not n or not v.dice:
            outcomes[role] = [(1.0, (0, 0))]
        elif setup.rules.per_die or setup.rules.key == "lowluck":
            outcomes[role] = [
                (p, (0, g + r))
                for p, (g, r) in _volley_hits(setup, role, v, chance, "first_strike")
            ]
        else:  # A&A Chess: "the fraction is added to the normal remaining attack total"
            outcomes[role] = [(1.0, (0, v.total // 6))]
            bonus[role] = v.total % 6
        if rec is not None and n:
            rec.record(
                role,
                "first_strike",
                v.dice_count if setup.rules.per_die else v.total,
                _hits_of(outcomes[role]),
            )

    def make(att: tuple[int, ...], dfn: tuple[int, ...]) -> State:
        return state._replace(
            att=att,
            dfn=dfn,
            struck_att=strikers[ATTACKER],
            struck_def=strikers[DEFENDER],
            bonus_att=state.bonus_att + bonus[ATTACKER],
            bonus_def=state.bonus_def + bonus[DEFENDER],
        )

    return _exchange(setup, state, outcomes[ATTACKER], outcomes[DEFENDER], make)


def stage_general(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None
) -> Branches:
    rules = setup.rules
    outcomes = {}
    carries = {ATTACKER: state.carry_att, DEFENDER: state.carry_def}
    for role in (ATTACKER, DEFENDER):
        side = setup.side(role)
        struck = state.struck_att if role == ATTACKER else state.struck_def
        v = volley(side, _side_state(state, role), subs="with", skip_subs=struck)
        if (
            role == ATTACKER
            and state.first_round
            and rules.key == "lowluck"
            and (setup.bombarders and not setup.options.bombard_separately)
        ):
            v = Volley(v.dice + _bombard_volley(setup).dice)
        bonus = state.bonus_att if role == ATTACKER else state.bonus_def
        if rules.carry:
            hits, carries[role] = carried_hits(
                carries[role] + v.total + bonus, rules.threshold(role)
            )
            outcomes[role] = [(1.0, _split(hits, v.air_capable))]
        else:
            outcomes[role] = _volley_hits(setup, role, v, chance, "general", bonus)
        if rec is not None and (v.dice or bonus or rules.carry):
            rec.record(
                role,
                "general",
                v.dice_count if rules.per_die else v.total + bonus,
                _hits_of(outcomes[role]),
            )

    ca, cd = carries[ATTACKER], carries[DEFENDER]

    def make(att: tuple[int, ...], dfn: tuple[int, ...]) -> State:
        # The general stage closes the round: the next state is a later round's.
        return State(att, dfn, False, ca, cd)

    return _exchange(setup, state, outcomes[ATTACKER], outcomes[DEFENDER], make)


def stage_final_fraction(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None, last_round: bool
) -> Branches:
    """COF+R: "a single die may be cast to resolve any remaining relevant fraction ... in
    [the] final assault". Final = a side was destroyed or the round limit is reached."""
    rules = setup.rules
    ended = not (setup.attacker.any_alive(state.att) and setup.defender.any_alive(state.dfn))
    if not (rules.final_roll and (ended or last_round)):
        return [(1.0, state)]
    outcomes = {}
    for role, carry in ((ATTACKER, state.carry_att), (DEFENDER, state.carry_def)):
        if 0 < carry < rules.threshold(role):
            outcomes[role] = [(p, (h, 0)) for p, h in chance.below(carry, 6, role, "final_roll")]
            if rec is not None:
                rec.record(role, "final_roll", carry, _hits_of(outcomes[role]))
        else:
            outcomes[role] = [(1.0, (0, 0))]
    return _exchange(
        setup,
        state,
        outcomes[ATTACKER],
        outcomes[DEFENDER],
        lambda att, dfn: state._replace(att=att, dfn=dfn, carry_att=0, carry_def=0),
    )


def play_round(
    setup: BattleSetup,
    state: State,
    chance: Chance,
    *,
    last_round: bool = False,
    rec: Recorder | None = None,
) -> Branches:
    """Every state the round can end in, with its probability (one state when rolling)."""
    branches: Branches = [(1.0, state)]
    if state.first_round:
        branches = _expand(branches, lambda s: stage_aa(setup, s, chance, rec))
        branches = _expand(
            branches, lambda s: _unless_over(setup, s, stage_bombardment, chance, rec)
        )
    branches = _expand(branches, lambda s: _unless_over(setup, s, stage_first_strike, chance, rec))
    branches = _expand(branches, lambda s: _unless_over(setup, s, stage_general, chance, rec))
    if setup.rules.final_roll:
        branches = _expand(
            branches, lambda s: stage_final_fraction(setup, s, chance, rec, last_round)
        )
    return branches


def _unless_over(
    setup: BattleSetup, state: State, stage, chance: Chance, rec: Recorder | None
) -> Branches:
    """Once a side is gone nobody is left to fire at: the round's later stages are skipped."""
    if is_over(setup, state):
        return [(1.0, State(state.att, state.dfn, False, state.carry_att, state.carry_def))]
    return stage(setup, state, chance, rec)


def is_over(setup: BattleSetup, state: State) -> bool:
    return not (setup.attacker.any_alive(state.att) and setup.defender.any_alive(state.dfn))


def initial_state(setup: BattleSetup) -> State:
    return State(setup.attacker.initial, setup.defender.initial)
